"""White Maiden's recent-events log (the view's ``log``) kept outside the state
(:mod:`delve.kernel.journal`).

The events the engine returns are the record: the server keeps them in its event table, and an
in-process driver keeps a :class:`Journal` fed with them. White Maiden is cooperative, so every
event it emits is public; a view shows the newest :data:`~delve.maiden.view.LOG_SHOWN` of them
(fewer when ``event_log_size`` is smaller), oldest first, each as ``{"time", "kind", "data"}``
built once when the event arrives.

``setup`` returns no events (the server writes its own start event), but the setup may already
fix the start player (MV-SETUP-15/16: drawn, or set by the settings), which the log begins with:
:func:`started` gives that event from the state, so a journal begins with it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from delve.kernel import Event
from delve.maiden.state import Game, encode
from delve.maiden.view import LOG_SHOWN


def started(state: Game) -> list[Event]:
    """The events of the setup itself, implied by every state: the start player, when the setup
    fixed it (MV-SETUP-16: drawn at random, or set by the settings), at the setup's time. With
    ``start_player = "choose"`` (MV-SETUP-15) a seat picks it by a command, whose events are
    returned as any others."""
    chosen = state.settings.start_player
    if chosen == "choose" or state.start_player is None or state.t0 < 0:
        return []  # t0 < 0: a state stored before t0 was kept, its setup long out of the log
    data = {"seat": state.start_player, "chosen": chosen != "random"}
    return [Event(kind="setup.start_player", time=state.t0, data=data)]


def kept(state: Game) -> int:
    """How many of the newest public events a view's log shows."""
    return min(LOG_SHOWN, state.settings.event_log_size)


class Journal:
    """The recent events of one game as its views show them (oldest first)."""

    __slots__ = ("_public", "public_kept")

    #: White Maiden has no private events: a seat's view shows none of its own.
    private_kept = 0

    def __init__(self, state: Game) -> None:
        self.public_kept = kept(state)
        self._public: deque[dict[str, Any]] = deque(maxlen=self.public_kept)
        self.add(started(state))

    def add(self, events: Iterable[Event]) -> None:
        """Take events in the order they happened (public ones: White Maiden emits no others)."""
        self._public.extend(
            {"time": event.time, "kind": event.kind, "data": dict(event.data)} for event in events if event.to is None
        )

    def show(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """``view`` with its ``log``: the newest public events, oldest first (the same for every
        seat and a spectator)."""
        view["log"] = list(self._public)
        return view


def earlier_form(state: Game, events: Sequence[Event]) -> dict[str, Any]:
    """``state`` as plain JSON values in the format stored before the state stopped keeping a
    copy of the events, ``events`` being every event the engine returned for it: a ``log`` of the
    newest ``event_log_size`` public events (``[time, kind, data]``, oldest first, from the
    setup's own on) and no ``t0``. Exports made then carry the hash of this form
    (``MaidenRuleset.earlier_state_hashes``)."""
    plain: dict[str, Any] = msgspec.json.decode(encode(state))
    plain.pop("t0", None)
    log: deque[list[Any]] = deque(maxlen=state.settings.event_log_size)
    for event in (*started(state), *events):
        if event.to is None:
            log.append([event.time, event.kind, dict(event.data)])
    plain["log"] = list(log)
    return msgspec.json.decode(msgspec.json.encode(plain))  # type: ignore[no-any-return]


def unknown_start(state: Game) -> dict[str, Any]:
    """``state`` as plain JSON values with ``t0`` unknown (-1): how a game stored before ``t0`` was
    kept, whose log no longer reached back to the setup, is stored from then on (``state.decode``),
    so its export carries the hash of this form."""
    plain: dict[str, Any] = msgspec.json.decode(encode(state))
    plain["t0"] = -1
    return plain
