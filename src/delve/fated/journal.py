"""The recent-events log (FL-INFO-4) and each player's private messages (FL-INFO-5) as views show
them, kept outside the state (:mod:`delve.kernel.journal`).

The events the engine returns are the record: the server keeps them in its event table with their
audience, and an in-process driver keeps a :class:`Journal` fed with them. A journal holds the
newest ``event_log_size`` public events, starting with the game's start (:func:`started`), and
each seat's newest :data:`MESSAGES_KEPT` private messages, each as the body a view shows (through
the allow-list of :mod:`delve.fated.disclosure`), built once when the event arrives.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import msgspec

from delve.fated import disclosure
from delve.fated.settings import as_dict
from delve.fated.state import GameState, encode
from delve.kernel import Event

MESSAGES_KEPT = 50
"""How many private messages a player's view shows (newest first)."""


def started(state: GameState) -> Event:
    """The first entry of the log, implied by every state: the game started at t0 with this many
    players. ``setup`` returns no events (the server writes its own start event), so a journal
    begins with this one."""
    return Event(kind="game.started", time=state.t0, data={"players": len(state.players)})


class Journal:
    """The recent events of one game as its views show them, newest first."""

    __slots__ = ("_private", "_public", "private_kept", "public_kept")

    def __init__(self, state: GameState) -> None:
        self.public_kept = state.settings.event_log_size
        self.private_kept = MESSAGES_KEPT
        self._public: deque[dict[str, Any]] = deque(maxlen=self.public_kept)
        self._private: list[deque[dict[str, Any]]] = [deque(maxlen=MESSAGES_KEPT) for _ in state.players]
        self.add((started(state),))

    def add(self, events: Iterable[Event]) -> None:
        """Take events in the order they happened: public ones go to the log, private ones to
        the messages of each seat they are for."""
        for event in events:
            body = disclosure.body(event.kind, event.time, event.data)
            if event.to is None:
                self._public.appendleft(body)
                continue
            for seat in event.to:
                if 0 <= seat < len(self._private):
                    self._private[seat].appendleft(body)

    def show(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """``view`` with ``events`` (the log, the same for everyone) and, in a player's own part,
        ``messages``; both newest first."""
        view["events"] = list(self._public)
        you = view.get("you")
        if you is not None and seat is not None:
            you["messages"] = list(self._private[seat])
        return view


def earlier_form(state: GameState, events: Iterable[Event]) -> dict[str, Any]:
    """``state`` as plain JSON values in the format stored before the state stopped keeping
    copies of the events, ``events`` being every event the engine returned for it: a ``log`` of
    the newest ``event_log_size`` public events and each player's newest ``messages`` (both
    ``[time, kind, data]``, oldest first, the data unfiltered), every setting, the card piles as
    lists. Exports made then carry the hash of this form (``FatedRuleset.earlier_state_hashes``)."""
    plain: dict[str, Any] = msgspec.json.decode(encode(state))
    plain["settings"] = as_dict(state.settings)
    plain["deck"] = list(state.deck)
    for pile in ("discard", "removed"):
        plain.pop(pile, None)
        if getattr(state, pile):
            plain[pile] = list(getattr(state, pile))
    log: deque[list[Any]] = deque([_entry(started(state))], maxlen=state.settings.event_log_size)
    messages: list[deque[list[Any]]] = [deque(maxlen=MESSAGES_KEPT) for _ in state.players]
    for event in events:
        if event.to is None:
            log.append(_entry(event))
        for seat in event.to or ():
            if 0 <= seat < len(messages):
                messages[seat].append(_entry(event))
    plain["log"] = list(log)
    for player, kept in zip(plain["players"], messages, strict=True):
        if kept:
            player["messages"] = list(kept)
    return msgspec.json.decode(msgspec.json.encode(plain))  # type: ignore[no-any-return]


def _entry(event: Event) -> list[Any]:
    return [event.time, event.kind, dict(event.data)]
