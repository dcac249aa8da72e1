"""Events: what happened in a game, with who may see it.

An event is visible to everyone (``to is None``) or only to a set of seats. The recent-events
panel, the API and notifications filter events by :meth:`Event.visible_to` before anything
leaves the server.
"""

from __future__ import annotations

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
