"""Engine speed: Fated Labyrinth and Level D against python-chess, both at real decision points.

    .venv/bin/pip install -e '.[bench]'      # python-chess, for the comparison only
    .venv/bin/python benchmarks/engine.py [--slices 8] [--slice-seconds 1]

What one timed step is, on both sides (this machine is noisy: compare ratios, not seconds):

- **us**: a seat that has a decision now (alive, not in the wait phase) lists its legal
  commands, one is chosen at random (give-up and comments aside), applied, and the seat's view
  is built (what the server sends back after a command);
- **python-chess**: the side to move lists its legal moves, one is chosen at random and pushed,
  and the position is written out with ``board.fen()``.

Outside the timer: game setup, choosing the seat, moving the game clock on (a few seconds per
command, or straight to the next due instant when nobody has a decision) and, for chess, the
game-over test. The timer is the CPU time of the benchmark's thread (on a shared machine a wall
clock would also count other processes' turns). Slices of ``--slice-seconds`` of timed work
alternate (us, chess, us, chess...); each pair gives a ratio (our steps per second / chess steps
per second), and the median of those ratios is printed last, one ``ratio`` line per preset.

Then the cost per command of a Fated Labyrinth game grows with players and maze size: 4 players
on 13x13, 8 on 15x15, 16 on 31x31 and 32 on 45x45, in interleaved slices, each relative to the
4-player 13x13 cost (medians over the rounds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from delve.fated.ruleset import FatedRuleset
from delve.fated.state import WAIT, GameState
from delve.kernel import Rng, SeatInfo

RULESET = FatedRuleset()
CLASSES = ("explorer", "warrior", "priest", "sorcerer", "summoner", "thief", "noble", "cat")
START = 1_800_000_000
#: Commands that are not decisions of the game: giving up ends a seat, comments change nothing.
IDLE = frozenset({"give_up", "comment"})
#: A game still running after this many commands is replaced by a fresh one (a random game
#: can wander for long; the mid-game is what a player meets most).
GAME_COMMANDS = 2_000
#: Cost-per-command settings: (players, maze size).
SIZES = ((4, 13), (8, 15), (16, 31), (32, 45))


class FatedTable:
    """Random games of one setting, played only at decision points."""

    def __init__(self, settings: dict[str, Any], seed: int) -> None:
        self.settings = settings
        self.seed = seed
        self.rng = Rng.seeded(seed)
        self.state: GameState = self._new_game()
        self.now = START
        self.commands = 0

    def _new_game(self) -> GameState:
        self.seed += 1
        players = RULESET.seat_count(self.settings)
        seats = [SeatInfo(f"p{i + 1}", {"class": self.rng.choice(CLASSES)}) for i in range(players)]
        self.now = START
        self.commands = 0
        return RULESET.setup(self.settings, seats, self.seed, START)

    def prepare(self) -> int:
        """Untimed: move the clock on and pick a seat that has a decision to make."""
        while True:
            state = self.state
            if state.ended or self.commands >= GAME_COMMANDS:
                self.state = self._new_game()
                continue
            self.now += self.rng.randint(1, 10)
            RULESET.advance(state, self.now)
            if state.ended:
                continue
            seats = [p.seat for p in state.players if p.alive and p.phase != WAIT]
            if seats:
                return self.rng.choice(seats)
            due = RULESET.next_due(state)
            if due is not None and due > self.now:
                self.now = due

    def step(self, seat: int) -> None:
        """Timed: legal commands, a random choice, apply, the seat's view."""
        state = self.state
        choices = [c for c in RULESET.legal_commands(state, seat) if c["kind"] not in IDLE]
        RULESET.apply(state, seat, self.rng.choice(choices), self.now)
        RULESET.view(state, seat)
        self.commands += 1


class ChessTable:
    """Random python-chess games."""

    def __init__(self, seed: int) -> None:
        import chess

        self.chess = chess
        self.chooser = random.Random(seed)  # benchmark only: python-chess needs its own chooser
        self.board = chess.Board()

    def prepare(self) -> None:
        """Untimed: a fresh board when the game is over (no legal move, or 200 moves)."""
        board = self.board
        if board.fullmove_number >= 200 or not any(board.generate_legal_moves()):
            self.board = self.chess.Board()

    def step(self, _: Any = None) -> None:
        """Timed: legal moves, a random choice, push, the position as FEN."""
        board = self.board
        board.push(self.chooser.choice(list(board.legal_moves)))
        board.fen()


def run_slice(prepare: Callable[[], Any], step: Callable[[Any], None], seconds: float) -> tuple[int, float]:
    """Steps until ``seconds`` of timed work; returns (steps, timed seconds). The timer is this
    thread's CPU time: on a shared machine a wall clock would also count other processes' turns."""
    clock = time.thread_time
    timed = 0.0
    steps = 0
    while timed < seconds:
        arg = prepare()
        started = clock()
        step(arg)
        timed += clock() - started
        steps += 1
    return steps, timed


def against_chess(preset: str, slices: int, seconds: float, seed: int) -> float:
    table = FatedTable({"preset": preset}, seed)
    board = ChessTable(seed)
    ratios = []
    for number in range(1, slices + 1):
        ours, our_time = run_slice(table.prepare, table.step, seconds)
        moves, chess_time = run_slice(board.prepare, board.step, seconds)
        ours_rate, chess_rate = ours / our_time, moves / chess_time
        ratios.append(ours_rate / chess_rate)
        print(
            f"{preset:16s} slice {number:2d}: {ours_rate:8.0f} commands/s  python-chess {chess_rate:8.0f} moves/s"
            f"  ratio {ratios[-1]:.3f}",
            flush=True,
        )
    return statistics.median(ratios)


def cost_by_size(rounds: int, seconds: float, seed: int) -> list[float]:
    """Median (over rounds) of each size's cost per command relative to the first size's in the
    same round."""
    tables = [FatedTable({"preset": "fated-labyrinth", "players": p, "maze_size": n}, seed) for p, n in SIZES]
    relative: list[list[float]] = [[] for _ in SIZES]
    for number in range(1, rounds + 1):
        costs = []
        for table in tables:
            steps, timed = run_slice(table.prepare, table.step, seconds)
            costs.append(timed / steps)
        line = []
        for i, cost in enumerate(costs):
            relative[i].append(cost / costs[0])
            line.append(f"{SIZES[i][0]}p{SIZES[i][1]} {cost * 1e6:7.1f} us")
        print(f"sizes round {number:2d}: " + "   ".join(line), flush=True)
    return [statistics.median(r) for r in relative]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=8, help="us/chess slice pairs per preset")
    parser.add_argument("--slice-seconds", type=float, default=1.0, help="timed seconds per slice")
    parser.add_argument("--rounds", type=int, default=5, help="rounds over the four sizes")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import chess  # noqa: F401
    except ImportError:
        print("python-chess is missing: .venv/bin/pip install -e '.[bench]'", file=sys.stderr)
        return 2
    by_size = cost_by_size(args.rounds, args.slice_seconds, args.seed)
    for (players, size), factor in zip(SIZES, by_size, strict=True):
        print(f"cost per command {players:2d}p {size}x{size}: {factor:5.2f}x the 4p 13x13 cost")
    medians = {
        preset: against_chess(preset, args.slices, args.slice_seconds, args.seed)
        for preset in ("fated-labyrinth", "level-d")
    }
    for preset, ratio in medians.items():
        print(f"ratio {preset}: {ratio:.3f}  (engine commands/s / python-chess moves/s, median of the slices)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
