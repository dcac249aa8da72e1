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

from delve.fated import disclosure
from delve.fated.state import GameState
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
