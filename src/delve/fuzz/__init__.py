"""Engine fuzzing: seeded games driven by legal, illegal and malformed commands, every step checked.

The runner knows no game: it drives a kernel ``Ruleset`` through a :class:`Target`, which adds what
only the game knows (how to set a game up, commands that are well-formed but wrong for this game,
the state's invariants, and which facts of the true state a view must not show). For each game:

- the clock moves forward by random steps (now and then by hours), checked after each advance;
- a random seat (sometimes no seat at all: a negative, too large or non-integer one) sends a
  command: a legal one, another seat's legal one, a stale one, a game-specific wrong one, or a
  malformed one (wrong kinds and types, missing and extra keys, huge numbers, deep nesting, NUL
  characters, not an object at all);
- the only exception allowed is ``IllegalCommand``, and only for a command that was not legal; a
  refused command must leave the state byte-for-byte (then hash-for-hash) unchanged; an accepted
  one must keep the invariants;
- after every change (an accepted command, or a clock advance that did something), the view of
  the acting seat (a spectator's when no seat exists) and, every third time, of another persona
  (another seat or a spectator) is checked against the true state and every event so far by the
  target's hidden-facts checker. (A view is a function of the state and, for a ruleset with a
  journal, of the recent events kept from the game's events; a refused command is checked to
  change nothing, so views of an unchanged state need no second look.);
- at the end of every game, a fresh game of the same preset and seed replays the accepted
  commands at their times, then advances to the last clock: it must reach the same state hash
  (the command log reproduces the game).

Run it with ``delve fuzz`` (or ``python -m delve.fuzz``); see docs/testing.md.
"""

from __future__ import annotations

import functools
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from delve.kernel import Event, IllegalCommand, Recorder, Rng, Ruleset, state_hash

__all__ = ["Report", "Target", "malformed_commands", "run", "run_game"]

#: At most this many examples of each kind of finding are kept in a report.
EXAMPLES = 20
HOUR = 3600


class Target(Protocol):
    """What the fuzzer needs to know about one game (see :mod:`delve.fuzz.fated`)."""

    name: str
    ruleset: Ruleset[Any]
    presets: Sequence[str]

    def new_game(self, preset: str, seed: int, now: int) -> Any:
        """A fresh state of ``preset`` set up from ``seed`` at ``now`` (seat choices from the seed)."""
        ...

    def seats(self, state: Any) -> int:
        """How many seats the game has."""
        ...

    def clock(self, state: Any) -> int:
        """The game's clock (the latest time it was advanced to)."""
        ...

    def wrong_commands(self, state: Any, seat: int, rng: Rng) -> list[dict[str, Any]]:
        """Well-formed commands that are likely illegal now for ``seat`` (cards not held, targets
        out of range, another phase's commands...)."""
        ...

    def invariants(self, state: Any, previous_clock: int) -> list[str]:
        """What is wrong with the state (empty: nothing)."""
        ...

    def leaks(
        self, state: Any, seat: int | None, view: dict[str, Any], events: Sequence[Event] | None = None
    ) -> list[str]:
        """Hidden facts of ``state`` that ``view`` (built for ``seat``, ``None``: a spectator) shows;
        ``events``, when given, are every event the game returned so far, in order (the record
        the view's recent events must come from)."""
        ...


@dataclass
class Report:
    """Counts of one fuzzing run and the first examples of anything found."""

    target: str
    games: int = 0
    commands: int = 0
    accepted: int = 0
    refused: int = 0
    advances: int = 0
    views: int = 0
    replays: int = 0
    crashes: int = 0
    violations: int = 0
    leaks: int = 0
    seconds: float = 0.0
    presets: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return self.crashes == 0 and self.violations == 0 and self.leaks == 0

    def note(self, what: str, text: str) -> None:
        examples = self.examples.setdefault(what, [])
        if len(examples) < EXAMPLES:
            examples.append(text)

    def merge(self, other: Report) -> None:
        for name in (
            "games",
            "commands",
            "accepted",
            "refused",
            "advances",
            "views",
            "replays",
            "crashes",
            "violations",
            "leaks",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for counter in ("presets", "kinds", "codes", "endings"):
            getattr(self, counter).update(getattr(other, counter))
        for what, texts in other.examples.items():
            for text in texts:
                self.note(what, text)

    def summary(self) -> list[str]:
        rate = self.commands / self.seconds if self.seconds else 0.0
        lines = [
            f"fuzz {self.target}: {self.games} games ({_counts(self.presets)}), {self.commands} commands "
            f"({self.accepted} accepted, {self.refused} refused), {self.advances} clock advances, "
            f"{self.views} views checked, {self.replays} games replayed in {self.seconds:.0f} s "
            f"({rate:.0f} commands/s)",
            f"crashes: {self.crashes}   invariant violations: {self.violations}   leaks found: {self.leaks}",
            f"games ended: {_counts(self.endings)}",
            f"refusal codes: {_counts(self.codes, 12)}",
        ]
        for what, texts in sorted(self.examples.items()):
            lines.append(f"{what} (first {len(texts)}):")
            lines.extend(f"  {text}" for text in texts)
        return lines


def _counts(counter: Counter[str], top: int | None = None) -> str:
    return ", ".join(f"{key} {count}" for key, count in counter.most_common(top)) or "none"


# ---------------------------------------------------------------- malformed commands


@functools.cache
def _deep(depth: int, leaf: Any, *, lists: bool) -> Any:
    """A value nested ``depth`` levels deep (built once per shape: commands are never changed)."""
    value = leaf
    for _ in range(depth):
        value = [value] if lists else {"x": value}
    return value


def malformed_commands(sample: dict[str, Any], rng: Rng) -> Iterator[Any]:
    """Commands that no ruleset may accept, derived from a well-formed ``sample``: not an object,
    a kind of the wrong type or unknown, wrong field types, missing and extra keys, huge numbers,
    deep nesting, NUL characters. An infinite stream; take what you need."""
    weird: list[Any] = [
        None,
        True,
        -1,
        2**63,
        -(2**200),
        10**30,
        1.5,
        float("nan"),
        float("inf"),
        "",
        "\x00",
        "up\x00",
        "²",
        "x" * 10_000,
        [],
        {},
        [1, 2],
        {"kind": "move"},
        _deep(2_000, 1, lists=True),
        _deep(2_000, "x", lists=False),
    ]
    while True:
        choice = rng.below(9)
        if choice == 0:  # not an object at all
            yield rng.choice([None, 0, "move", ["kind", "move"], b"{}", 3.25, _deep(3_000, "{}", lists=True)])
        elif choice == 1:  # the kind missing, of the wrong type, or unknown
            body = {k: v for k, v in sample.items() if k != "kind"}
            if rng.chance(1, 2):
                body["kind"] = rng.choice([*weird, "MOVE", "move ", "fly", "comment\x00", "__class__"])
            yield body
        elif choice == 2 and len(sample) > 1:  # a required field missing
            missing = rng.choice([k for k in sample if k != "kind"])
            yield {k: v for k, v in sample.items() if k != missing}
        elif choice == 3 and len(sample) > 1:  # a field of the wrong type or out of range
            key = rng.choice([k for k in sample if k != "kind"])
            yield {**sample, key: rng.choice(weird)}
        elif choice == 4:  # an extra field
            extra = rng.choice(["seat", "dir", "card", "target", "use", "reward", "text", "monster", "zz", "\x00"])
            yield {**sample, extra: rng.choice(weird)}
        elif choice == 5:  # deep nesting inside the command
            key = rng.choice([k for k in sample if k != "kind"] or ["text"])
            yield {**sample, key: _deep(rng.choice([1_000, 2_500, 5_000]), 0, lists=rng.chance(1, 2))}
        elif choice == 6:  # huge numbers everywhere a number goes
            huge = rng.choice([2**63, -(2**63) - 1, 10**100])
            yield {k: (huge if isinstance(v, int) else v) for k, v in sample.items()}
        elif choice == 7:  # a kind of another shape with this one's fields
            yield {**sample, "kind": rng.choice(["move", "use_card", "defend", "attack", "pass", "comment", "jump"])}
        else:  # strings with NULs and non-ASCII digits
            yield {k: (f"{v}\x00" if isinstance(v, str) else v) for k, v in sample.items()} | {"text": "a\x00b²"}


# ---------------------------------------------------------------- the run


def _describe(value: Any, limit: int = 120) -> str:
    try:
        text = repr(value)
    except RecursionError:
        text = f"<{type(value).__name__} nested too deep to print>"
    return text if len(text) <= limit else text[:limit] + "..."


def _seat_value(rng: Rng, seats: int) -> Any:
    """A seat the fuzzer acts for: almost always a real one; sometimes none that exists."""
    if rng.chance(1, 60):
        return rng.choice([-1, seats, seats + 7, 2**63, -(2**63)])
    return rng.below(seats)


def run_game(
    target: Target,
    preset: str,
    seed: int,
    max_commands: int,
    report: Report,
    *,
    start: int = 1_800_000_000,
) -> None:
    """Fuzz one game of ``preset`` from ``seed`` for at most ``max_commands`` commands (fewer when
    the game ends: a few more are then sent to the ended game). Findings go into ``report``."""
    ruleset = target.ruleset
    rng = Rng.seeded(seed)
    now = start
    label = f"{preset} seed {seed}"
    try:
        state = target.new_game(preset, seed, now)
    except Exception as exc:  # noqa: BLE001 - a crash in setup is a finding, not the end of the run
        report.crashes += 1
        report.note("crashes", f"{label}: setup: {type(exc).__name__}: {exc}")
        return
    report.games += 1
    report.presets[preset] += 1
    recorder = Recorder(ruleset, state)  # the recent events views show, kept from the events
    history: list[Event] = []  # every event the game returned
    seats = target.seats(state)
    seen: list[dict[str, Any]] = []  # earlier legal commands of any seat (stale ones now)
    log: list[tuple[int, int, Any]] = []  # the accepted commands, for the replay
    after_end = 0
    sent = 0
    step = 0
    changes = 0
    while sent < max_commands and after_end < 20:
        step += 1
        where = f"{label} step {step}"
        # the clock
        before_clock = target.clock(state)
        now += rng.randint(1, 45) if not rng.chance(1, 400) else rng.randint(HOUR, 5 * HOUR)
        try:
            advanced = ruleset.advance(state, now)
        except Exception as exc:  # noqa: BLE001
            report.crashes += 1
            report.note("crashes", f"{where}: advance to {now}: {type(exc).__name__}: {exc}")
            return
        report.advances += 1
        changed = bool(advanced)
        history += recorder.record(advanced)
        _check_invariants(target, state, before_clock, report, f"{where} after advance")
        ended = ruleset.outcome(state).ended
        if ended:
            after_end += 1
        # the seat and the command
        seat = _seat_value(rng, seats)
        valid_seat = isinstance(seat, int) and 0 <= seat < seats
        try:
            legal = ruleset.legal_commands(state, seat) if valid_seat else []
            command, kind = _pick_command(target, state, seat if valid_seat else 0, legal, seen, rng, seats)
        except Exception as exc:  # noqa: BLE001
            report.crashes += 1
            report.note("crashes", f"{where}: legal commands of seat {seat}: {type(exc).__name__}: {exc}")
            return
        report.kinds[kind] += 1
        if legal:
            seen.extend(legal[:4])
            del seen[:-200]
        # a legal command must be accepted; a bare {"kind": "comment"} is the template of a free text
        is_legal = valid_seat and _among(command, legal) and command != {"kind": "comment"}
        before = ruleset.encode(state)
        before_clock = target.clock(state)
        sent += 1
        report.commands += 1
        try:
            applied = ruleset.apply(state, seat, command, now)
        except IllegalCommand as exc:
            report.refused += 1
            report.codes[exc.code] += 1
            if is_legal:
                report.violations += 1
                report.note("violations", f"{where}: legal command refused: {_describe(command)} -> {exc.code}")
            _check_unchanged(ruleset, state, before, report, f"{where}: {_describe(command)} -> {exc.code}")
        except Exception as exc:  # noqa: BLE001 - the point of fuzzing: anything else is a crash
            report.crashes += 1
            origin = traceback.extract_tb(exc.__traceback__)[-1]
            report.note(
                "crashes",
                f"{where}: seat {_describe(seat)} {_describe(command)}: {type(exc).__name__}: "
                f"{_describe(str(exc), 200)} at {origin.filename}:{origin.lineno}",
            )
            return  # the state may be half-changed: this game cannot go on
        else:
            report.accepted += 1
            history += recorder.record(applied)
            log.append((now, seat, command))
            changed = True
            if not valid_seat:
                report.violations += 1
                report.note("violations", f"{where}: accepted for seat {_describe(seat)}: {_describe(command)}")
            _check_invariants(target, state, before_clock, report, f"{where} after {_describe(command)}")
        if changed:  # views are pure: after a change, the actor's view, every third time another's
            changes += 1
            personas: list[int | None] = [seat if valid_seat else None]
            if changes % 3 == 0:
                personas.append(rng.choice([None, *range(seats)]))
            for persona in personas:
                _check_view(target, state, persona, report, where, recorder, history)
    report.endings["ended" if ruleset.outcome(state).ended else "running"] += 1
    _check_replay(target, preset, seed, start, log, now, state, report, label)


def _check_replay(
    target: Target,
    preset: str,
    seed: int,
    start: int,
    log: list[tuple[int, int, Any]],
    now: int,
    state: Any,
    report: Report,
    label: str,
) -> None:
    """The command log reproduces the game: the same setup, the accepted commands at their times,
    the clock advanced to ``now``, and the same state hash."""
    ruleset = target.ruleset
    report.replays += 1
    try:
        again = target.new_game(preset, seed, start)
        for time, seat, command in log:
            ruleset.apply(again, seat, command, time)
        ruleset.advance(again, now)
    except Exception as exc:  # noqa: BLE001 - a log that does not replay is a finding
        report.violations += 1
        report.note("violations", f"{label}: replay of {len(log)} commands: {type(exc).__name__}: {exc}")
        return
    if state_hash(ruleset, again) != state_hash(ruleset, state):
        report.violations += 1
        report.note("violations", f"{label}: the replay of {len(log)} commands reaches another state")


def _pick_command(
    target: Target,
    state: Any,
    seat: int,
    legal: list[dict[str, Any]],
    seen: list[dict[str, Any]],
    rng: Rng,
    seats: int,
) -> tuple[Any, str]:
    roll = rng.below(100)
    playable = [c for c in legal if c.get("kind") not in ("give_up", "comment")]
    if roll < 55 and playable:
        if rng.chance(1, 300) and {"kind": "give_up"} in legal:
            return {"kind": "give_up"}, "legal"
        return rng.choice(playable), "legal"
    if roll < 62:
        other = rng.below(seats)
        others = target.ruleset.legal_commands(state, other) if other != seat else []
        if others:
            return rng.choice(others), "other seat's"
    if roll < 70 and seen:
        return rng.choice(seen), "stale"
    if roll < 85:
        wrong = target.wrong_commands(state, seat, rng)
        if wrong:
            return rng.choice(wrong), "wrong"
    sample = rng.choice(legal or seen or [{"kind": "wait"}])
    return next(malformed_commands(sample, rng)), "malformed"


def _among(command: Any, legal: list[dict[str, Any]]) -> bool:
    """Whether ``command`` is one of ``legal`` with the same JSON types (``True`` is not ``1``)."""
    if not isinstance(command, dict) or command not in legal:
        return False
    try:
        shown = _encoder.encode(command)
    except (TypeError, ValueError, RecursionError, OverflowError):
        return False
    return any(_encoder.encode(c) == shown for c in legal)


def _check_invariants(target: Target, state: Any, previous_clock: int, report: Report, where: str) -> None:
    found = target.invariants(state, previous_clock)
    if found:
        report.violations += len(found)
        for text in found:
            report.note("violations", f"{where}: {text}")


def _check_unchanged(ruleset: Ruleset[Any], state: Any, before: bytes, report: Report, where: str) -> None:
    """A refused command changed nothing: the same bytes, or at least the same canonical hash."""
    after = ruleset.encode(state)
    if after == before:
        return
    if _canonical(before) == _canonical(after):
        return
    report.violations += 1
    report.note("violations", f"{where}: the refused command changed the state ({state_hash(ruleset, state)[:12]})")


_encoder = msgspec.json.Encoder(order="sorted")


def _canonical(data: bytes) -> bytes:
    return _encoder.encode(msgspec.json.decode(data))


def _check_view(
    target: Target,
    state: Any,
    seat: int | None,
    report: Report,
    where: str,
    recorder: Recorder,
    history: list[Event],
) -> None:
    try:
        view = recorder.view(state, seat)
    except Exception as exc:  # noqa: BLE001
        report.crashes += 1
        report.note("crashes", f"{where}: view for {seat}: {type(exc).__name__}: {exc}")
        return
    report.views += 1
    found = target.leaks(state, seat, view, history)
    if found:
        report.leaks += len(found)
        for text in found:
            report.note("leaks", f"{where}: view for {'spectator' if seat is None else f'seat {seat}'}: {text}")


def run(
    target: Target,
    *,
    games: int,
    commands: int,
    seed: int = 0,
    presets: Sequence[str] | None = None,
    progress: Callable[[Report], None] | None = None,
    report: Report | None = None,
) -> Report:
    """Fuzz at least ``games`` games and at least ``commands`` commands in all, the presets in turn.

    Each game gets up to ``2 * commands / games`` commands (fewer when it ends), and games go on
    until both minimums are met (``report``, when given, is filled as the run goes: an interrupted
    run still has its numbers). Game ``i`` uses seed ``seed * 1_000_003 + i``, so a finding can
    be replayed alone with :func:`run_game`.
    """
    report = report if report is not None else Report(target=target.name)
    chosen = list(presets or target.presets)
    per_game = max(1, (2 * commands) // max(1, games))
    started = time.perf_counter()
    index = 0
    while report.games < games or report.commands < commands:
        preset = chosen[index % len(chosen)]
        run_game(target, preset, seed * 1_000_003 + index, per_game, report)
        index += 1
        report.seconds = time.perf_counter() - started
        if progress is not None:
            progress(report)
    report.seconds = time.perf_counter() - started
    return report
