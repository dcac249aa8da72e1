"""Seeded Fated Labyrinth / Level D games between named bots (``delve.bots.named``), for the bot
tests and ``benchmarks/fated_bots.py``. Not a simulation runner: one function plays one game.

Each step moves the clock by ``STEP`` seconds and offers every living seat (in an order that
rotates, so no seat always acts first) one decision from its own view and legal commands. Turns
come every ``wait_time`` (60 s), so a seat that acts promptly plays its turns in full. Classes are
drawn from the seed; a game still running after ``limit`` commands counts as a draw.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from delve.bots import named
from delve.fated.ruleset import FatedRuleset
from delve.fated.state import GameState
from delve.kernel import Recorder, Rng, SeatInfo
from delve.sim.report import wilson

RULESET = FatedRuleset()
CLASSES = ("explorer", "warrior", "priest", "sorcerer", "summoner", "thief", "noble", "cat")
START = 1_800_000_000
STEP = 7


@dataclass
class Match:
    seed: int
    bots: tuple[str, ...]
    winner: int | None
    win_kind: str | None
    commands: int
    kinds: Counter[str] = field(default_factory=Counter)
    """Commands played, by kind (``attack`` and adjacent/remote ``use_card`` of attack cards count as attacks)."""
    classes: tuple[str, ...] = ()


def play(preset: str, seed: int, bots: tuple[str, ...], *, limit: int = 12_000, **overrides: Any) -> Match:
    """One game: seat ``i`` is played by the bot named ``bots[i]`` (every seat when there is one
    name per seat; a Level D game needs 8 names)."""
    settings = {"preset": preset, "wait_time": 60, "abandon_time": "100h", **overrides}
    players = RULESET.seat_count(settings)
    if len(bots) != players:
        raise ValueError(f"{preset} has {players} seats, got {len(bots)} bot names")
    rng = Rng.seeded(seed + 10_000)
    classes = tuple(rng.choice(CLASSES) for _ in range(players))
    seats = [SeatInfo(f"p{i + 1}", {"class": classes[i]}) for i in range(players)]
    state = RULESET.setup(settings, seats, seed, START)
    recorder = Recorder(RULESET, state)
    players_bots = [named("fated", name, seed=seed * 10 + i) for i, name in enumerate(bots)]
    now, played, kinds, turn = START, 0, Counter[str](), 0
    while _running(state) and played < limit:
        now += STEP
        turn += 1
        recorder.record(RULESET.advance(state, now))
        for k in range(players):
            seat = (turn + k) % players
            if not _running(state):  # the clock or the last command ended it
                break
            if not state.players[seat].alive:
                continue
            legal = RULESET.legal_commands(state, seat)
            command = players_bots[seat].choose(recorder.view(state, seat), legal)
            if command is None:
                continue
            if command not in legal:
                raise AssertionError(f"seed {seed}: bot {bots[seat]!r} chose {command}, not among {legal}")
            recorder.record(RULESET.apply(state, seat, command, now))
            played += 1
            kinds[_kind(command)] += 1
    return Match(seed, bots, state.winner, state.win_kind if state.ended else None, played, kinds, classes)


def _running(state: GameState) -> bool:
    return not state.ended


def _kind(command: dict[str, Any]) -> str:
    if command["kind"] == "use_card" and command.get("use") in ("adjacent", "remote"):
        return "attack_card"
    if command["kind"] == "use_card" and command.get("use") == "trap":
        return "trap_card"
    return str(command["kind"])


def rotated(hero: str, others: str, players: int, seed: int) -> tuple[tuple[str, ...], int]:
    """The bots of a game where ``hero`` plays seat ``seed % players`` and ``others`` the rest."""
    seat = seed % players
    return tuple(hero if i == seat else others for i in range(players)), seat


def win_rate(preset: str, hero: str, others: str, seeds: range) -> tuple[int, int, list[Match]]:
    """Games the hero won (any victory) out of ``len(seeds)``, with the games."""
    wins, matches = 0, []
    for seed in seeds:
        players = RULESET.seat_count({"preset": preset})
        bots, seat = rotated(hero, others, players, seed)
        match = play(preset, seed, bots)
        matches.append(match)
        wins += match.winner == seat
    return wins, len(seeds), matches


__all__ = ["Match", "play", "rotated", "wilson", "win_rate"]
