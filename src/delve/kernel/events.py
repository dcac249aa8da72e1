"""Events: what happened in a game, with who may see it.

An event is visible to everyone (``to is None``) or only to a set of seats. The recent-events
panel, the API and notifications filter events by :meth:`Event.visible_to` before anything
leaves the server.

What an event may *say* is an allow-list too (:class:`EventFields`): each ruleset lists, per event
kind, the data fields that may leave the engine or the server. A field or a kind it does not list
is dropped, so a new field is invisible until someone decides it may be shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec


class Event(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing that happened at ``time`` (seconds since the epoch).

    ``kind`` is a stable dotted name (``card.used``, ``player.died``...); ``data`` holds its
    parameters (seat numbers, card ids, amounts - never anything the audience may not see).
    """

    kind: str
    time: int
    data: dict[str, Any] = {}
    to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = a spectator) may see this event."""
        if self.to is None:
            return True
        return seat is not None and seat in self.to


def public(kind: str, time: int, **data: Any) -> Event:
    """An event everyone may see."""
    return Event(kind=kind, time=time, data=data)


def private(kind: str, time: int, seats: tuple[int, ...] | list[int] | int, **data: Any) -> Event:
    """An event only ``seats`` may see."""
    if isinstance(seats, int):
        seats = (seats,)
    return Event(kind=kind, time=time, data=data, to=tuple(sorted(set(seats))))


class EventFields:
    """The allow-list of event data: for each event kind, the data fields that may be shown to the
    event's audience. ``body`` is the one filter every event goes through before it leaves (the
    views' event lists, the JSON API, the game screen)."""

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Iterable[str]]) -> None:
        self._fields: dict[str, frozenset[str]] = {kind: frozenset(names) for kind, names in fields.items()}

    def kinds(self) -> frozenset[str]:
        return frozenset(self._fields)

    def allowed(self, kind: str) -> frozenset[str]:
        """The fields of ``kind`` that may be shown (none for a kind nobody listed)."""
        return self._fields.get(kind, frozenset())

    def data(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """The listed fields of ``data``; everything else stays inside."""
        allowed = self._fields.get(kind)
        if not allowed:
            return {}
        if data.keys() <= allowed:
            return dict(data)
        return {key: value for key, value in data.items() if key in allowed}

    def __or__(self, other: EventFields) -> EventFields:
        kinds = set(self._fields) | set(other._fields)
        return EventFields({kind: self.allowed(kind) | other.allowed(kind) for kind in kinds})
