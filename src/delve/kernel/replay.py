"""Replay a game from its settings, seed and command log; hash a state.

Because time and chance are inputs (the clock is a parameter, randomness comes from the RNG in
the state), the same settings, seed and commands at the same times always give the same state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from delve.kernel.events import Event
from delve.kernel.ruleset import Ruleset, SeatInfo

_canonical = msgspec.json.Encoder(order="sorted")


def state_hash(ruleset: Ruleset[Any], state: Any) -> str:
    """A stable SHA-256 of a state (canonical JSON: sorted keys, no whitespace)."""
    return plain_hash(msgspec.json.decode(ruleset.encode(state)))


def plain_hash(plain: Any) -> str:
    """The SHA-256 of a state already decoded to plain JSON values (canonical JSON)."""
    return hashlib.sha256(_canonical.encode(plain)).hexdigest()


def replay(
    ruleset: Ruleset[Any],
    settings: Mapping[str, Any],
    seed: int,
    commands: Iterable[tuple[int, int | None, Mapping[str, Any] | None]],
    *,
    seats: Sequence[SeatInfo],
    start: int,
    until: int | None = None,
) -> tuple[Any, list[Event]]:
    """Set a game up and re-apply its commands in order.

    ``commands`` are ``(time, seat, command)`` triples; a triple whose seat or command is
    ``None`` only advances the clock to that time. ``until`` advances the clock at the end.
    Returns the final state and every event produced, in order.

    :raises IllegalCommand: if a logged command is not legal on replay (a corrupt log).
    """
    state = ruleset.setup(settings, seats, seed, start)
    events: list[Event] = []
    for time, seat, command in commands:
        if seat is None or command is None:
            events.extend(ruleset.advance(state, time))
        else:
            events.extend(ruleset.apply(state, seat, command, time))
    if until is not None:
        events.extend(ruleset.advance(state, until))
    return state, events
