"""Scenario builder for engine tests: a game from an ASCII map, with chosen classes, hands,
positions and phases, driven through the public ruleset API.

    game = Scenario.from_map([
        "1....",
        ".#.#.",
        "..2..",
        ...
    ], classes=["warrior", "thief", "cat", "priest"])
    game.start_turn(0)            # seat 0 is now in move phase 1
    game.play(0, {"kind": "move", "dir": "right"})

Digits ``1``..``8`` are players (seat = digit - 1) standing on normal floor; every other
character is a terrain code from ``delve.fated.grid``. Seats without a digit are parked on
the bottom row. Cards are moved between piles (never created), so card conservation holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from delve.fated import content
from delve.fated.ctx import Ctx
from delve.fated.grid import FLOOR, index
from delve.fated.ruleset import FatedRuleset
from delve.fated.state import READY, GameState, Player
from delve.kernel import Event, Recorder, Rng, SeatInfo

T0 = 1_800_000_000


class LoadedRng(Rng):
    """An Rng whose next yes/no checks (``chance`` and ``percent``: slips, evasion, disarm,
    death checks...) follow a script; everything else, and checks after the script, are the
    real seeded generator."""

    script: list[bool] = []  # noqa: RUF012 - a msgspec field with a default, copied per instance

    def chance(self, numerator: int, denominator: int) -> bool:
        if self.script:
            return self.script.pop(0)
        return super().chance(numerator, denominator)

    def percent(self, p: int) -> bool:
        if self.script:
            return self.script.pop(0)
        return super().percent(p)


RULESET = FatedRuleset()
DEFAULT_CLASSES = ("explorer", "warrior", "priest", "thief", "noble", "cat", "sorcerer", "summoner")


class Scenario:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.now = state.clock
        self.events: list[Event] = []
        self.recorder = Recorder(RULESET, state)
        self._contexts: list[tuple[Ctx, int]] = []

    # ------------------------------------------------------------------ building

    @classmethod
    def new(
        cls,
        *,
        preset: str = "fated-labyrinth",
        classes: Sequence[str] | None = None,
        seed: int = 7,
        **settings: Any,
    ) -> Scenario:
        overrides: dict[str, Any] = {"preset": preset, **settings}
        players = RULESET.seat_count(overrides)
        chosen = list(classes or DEFAULT_CLASSES[:players])
        chosen += [DEFAULT_CLASSES[i % len(DEFAULT_CLASSES)] for i in range(len(chosen), players)]
        seats = [SeatInfo(f"p{i + 1}", {"class": chosen[i]}) for i in range(players)]
        return cls(RULESET.setup(overrides, seats, seed, T0))

    @classmethod
    def from_map(
        cls,
        rows: Sequence[str],
        *,
        preset: str = "fated-labyrinth",
        classes: Sequence[str] | None = None,
        seed: int = 7,
        **settings: Any,
    ) -> Scenario:
        n = len(rows)
        assert all(len(r) == n for r in rows), "the map must be square"
        scenario = cls.new(preset=preset, classes=classes, seed=seed, maze_size=max(n, 7), **settings)
        state = scenario.state
        if n < 7:
            raise ValueError("maps are at least 7x7")
        grid = []
        placed: dict[int, int] = {}
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch.isdigit():
                    placed[int(ch) - 1] = index(x, y, n)
                    grid.append(FLOOR)
                else:
                    grid.append(ch)
        state.grid = "".join(grid)
        state.traps.clear()
        state.fakes.clear()
        state.exit = None
        free = [i for i in range(n * n - 1, -1, -1) if state.grid[i] == FLOOR and i not in placed.values()]
        for player in state.players:
            player.pos = placed.get(player.seat, free.pop(0) if player.seat not in placed else -1)
            player.memory = "?" * (n * n)
        scenario.refresh()
        return scenario

    # ------------------------------------------------------------------ access

    @property
    def ctx(self) -> Ctx:
        """A context at the scenario's time for calling rule functions directly; the events they
        produce join ``events`` (and the views' recent events) like those of ``tick`` and ``play``."""
        ctx = Ctx(self.state, self.now)
        self._contexts.append((ctx, 0))
        return ctx

    def _record(self, events: list[Event]) -> list[Event]:
        self._collect()
        self.events.extend(events)
        self.recorder.record(events)
        return events

    def _collect(self) -> None:
        """Take the events that direct rule calls (``ctx``) produced since the last look."""
        for number, (ctx, taken) in enumerate(self._contexts):
            fresh = ctx.events[taken:]
            if fresh:
                self._contexts[number] = (ctx, len(ctx.events))
                self.events.extend(fresh)
                self.recorder.record(fresh)

    def p(self, seat: int) -> Player:
        return self.state.players[seat]

    def at(self, x: int, y: int) -> int:
        return index(x, y, self.state.size)

    def refresh(self) -> None:
        from delve.fated import visibility

        visibility.refresh(self.ctx)

    def card_ids(self, kind: str) -> list[int]:
        """Physical card ids of a kind in this game's card set(s)."""
        data = content.load()
        preset = self.state.settings.preset
        total = content.CARDS_PER_SET * self.state.settings.decks
        return [c for c in range(total) if data.card(c, preset).id == kind]

    def give(self, seat: int, *kinds: str) -> list[int]:
        """Move one card of each kind into the seat's hand (from the deck, the discard pile or
        another hand), keeping the card count constant."""
        given = []
        held = {c for p in self.state.players for c in p.hand}
        for kind in kinds:
            candidates = [c for c in self.card_ids(kind) if c not in given]
            # prefer cards from the piles; take from another hand only as a last resort
            free = [c for c in candidates if c not in held] or [c for c in candidates if c not in self.p(seat).hand]
            if not free:
                raise AssertionError(f"no free card of kind {kind!r}")
            card = free[0]
            self._take(card)
            self.p(seat).hand.append(card)
            given.append(card)
        return given

    def set_hand(self, seat: int, *kinds: str) -> list[int]:
        """Replace the seat's hand with exactly these kinds (old cards go back to the deck)."""
        self.state.deck.extend(self.p(seat).hand)
        self.p(seat).hand = []
        return self.give(seat, *kinds)

    def _take(self, card: int) -> None:
        state = self.state
        for pile in (state.deck, state.discard, *(p.hand for p in state.players)):
            if card in pile:
                pile.remove(card)
                return
        raise AssertionError(f"card {card} is in no pile")

    def script(self, *outcomes: bool) -> None:
        """Make the next yes/no checks come out as given (then back to the seeded dice)."""
        rng = self.state.rng
        self.state.rng = LoadedRng(rng.s0, rng.s1, rng.s2, rng.s3, list(outcomes))

    # ------------------------------------------------------------------ driving

    def tick(self, seconds: int = 1) -> list[Event]:
        self.now += seconds
        return self._record(RULESET.advance(self.state, self.now))

    def play(self, seat: int, command: dict[str, Any], *, dt: int = 1) -> list[Event]:
        self.now += dt
        return self._record(RULESET.apply(self.state, seat, command, self.now))

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return RULESET.legal_commands(self.state, seat)

    def kinds(self, seat: int) -> set[str]:
        return {c["kind"] for c in self.legal(seat)}

    def make_ready(self, seat: int) -> None:
        """Give the seat a stored turn now (as if its wait phase just ended)."""
        player = self.p(seat)
        player.phase = READY
        player.stored = max(player.stored, 1)
        player.wait_ended_at = self.now

    def start_turn(self, seat: int) -> list[Event]:
        """Make the seat READY and start its turn (move phase 1, or defense first)."""
        self.make_ready(seat)
        return self.play(seat, {"kind": "start_turn"})

    def to_core(self, seat: int) -> list[Event]:
        """Start the seat's turn and stay, reaching the core phase."""
        self.start_turn(seat)
        return self.play(seat, {"kind": "stay"})

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view (``None``: a spectator's) with the recent events and its messages."""
        self._collect()
        return self.recorder.view(self.state, seat)

    def kinds_of(self, events: list[Event] | None = None) -> list[str]:
        self._collect()
        return [e.kind for e in (self.events if events is None else events)]

    def log(self) -> list[Event]:
        """Every public event so far (FL-INFO-4), oldest first."""
        self._collect()
        return [e for e in self.events if e.public]

    def messages(self, seat: int) -> list[Event]:
        """Every private message to ``seat`` so far (FL-INFO-5), oldest first."""
        self._collect()
        return [e for e in self.events if not e.public and e.visible_to(seat)]

    def card_total(self) -> int:
        s = self.state
        return len(s.deck) + len(s.discard) + len(s.removed) + sum(len(p.hand) for p in s.players)
