"""Random legal playouts for invariant and determinism tests (and the engine benchmark).

A playout drives a game only through the public ruleset API: at random times a random seat
plays a random legal command. ``check_invariants`` asserts the engine's invariants (``delve.fated.invariants``, shared
with the fuzzer) after every command and every clock advance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from delve.fated import invariants
from delve.fated.ruleset import FatedRuleset
from delve.fated.state import GameState
from delve.kernel import Event, Recorder, Rng, SeatInfo

RULESET = FatedRuleset()
CLASSES = ("explorer", "warrior", "priest", "sorcerer", "summoner", "thief", "noble", "cat")
START = 1_800_000_000


@dataclass
class Playout:
    preset: str
    seed: int
    settings: dict[str, Any]
    seats: list[SeatInfo]
    state: GameState
    log: list[tuple[int, int | None, dict[str, Any] | None]] = field(default_factory=list)
    commands: int = 0
    now: int = START
    events: list[Event] = field(default_factory=list)
    """Every event the game returned, in order."""
    recorder: Recorder = field(init=False)
    """The recent events views show, kept from ``events``."""

    def __post_init__(self) -> None:
        self.recorder = Recorder(RULESET, self.state)

    def record(self, events: list[Event]) -> None:
        self.events += events
        self.recorder.record(events)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view (``None``: a spectator's) with its recent events and messages."""
        return self.recorder.view(self.state, seat)


def new_playout(preset: str, seed: int, **overrides: Any) -> Playout:
    rng = Rng.seeded(seed + 10_000)
    players = RULESET.seat_count({"preset": preset, **overrides})
    seats = [SeatInfo(f"p{i + 1}", {"class": rng.choice(CLASSES)}) for i in range(players)]
    # a fast clock so that games move: turns every minute, abandonment after a few hours
    settings = {"preset": preset, "wait_time": 60, "abandon_time": "4h", **overrides}
    return Playout(preset, seed, settings, seats, RULESET.setup(settings, seats, seed, START))


def check_invariants(state: GameState, previous_clock: int) -> None:
    """The engine's invariants (:mod:`delve.fated.invariants`) hold."""
    found = invariants.violations(state, previous_clock)
    assert not found, "; ".join(found)


def step(playout: Playout, rng: Rng, *, check: bool = True, choose: Callable[..., Any] | None = None) -> bool:
    """One random step: advance the clock a little, then a random seat plays a random legal
    command. Returns False once the game has ended."""
    state = playout.state
    before = state.clock
    playout.now += rng.randint(1, 45)
    playout.record(RULESET.advance(state, playout.now))
    if check:
        check_invariants(state, before)
    if state.ended:
        return False
    seat = rng.below(len(state.players))
    legal = RULESET.legal_commands(state, seat)
    choices = [c for c in legal if c["kind"] not in ("give_up", "comment")]
    if rng.chance(1, 400):
        choices = [c for c in legal if c["kind"] == "give_up"] or choices
    if rng.chance(1, 50) and {"kind": "comment"} in legal:
        choices = [{"kind": "comment", "text": f"step {playout.commands}"}]
    if not choices:
        return True
    command = choose(state, seat, choices, rng) if choose else rng.choice(choices)
    before = state.clock
    playout.record(RULESET.apply(state, seat, command, playout.now))
    playout.log.append((playout.now, seat, command))
    playout.commands += 1
    if check:
        check_invariants(state, before)
    return not state.ended


def run(playout: Playout, commands: int, *, check: bool = True) -> Playout:
    rng = Rng.seeded(playout.seed)
    while playout.commands < commands and step(playout, rng, check=check):
        pass
    return playout
