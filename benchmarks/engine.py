"""Engine speed: random legal playouts of Fated Labyrinth and Level D, against python-chess
random games measured in the same run (this machine is noisy: compare the ratio, not seconds).

    .venv/bin/pip install -e '.[bench]'      # python-chess, for the comparison only
    .venv/bin/python benchmarks/engine.py [--seconds 5]

A "command" is one legal_commands() + apply() for a random seat (plus the clock advance before
it); a chess "move" is one legal_moves listing + push() in a random game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fated.playout import new_playout, step

from delve.kernel import Rng


def fated_commands_per_second(preset: str, seconds: float) -> tuple[float, int]:
    done = 0
    seed = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        playout = new_playout(preset, seed)
        rng = Rng.seeded(seed)
        while playout.commands < 600 and step(playout, rng, check=False):
            pass
        done += playout.commands
        seed += 1
    return done / (time.perf_counter() - started), done


def chess_moves_per_second(seconds: float) -> tuple[float, int]:
    import chess

    chooser = random.Random(1)  # benchmark only: python-chess needs its own chooser
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.fullmove_number < 200:
            board.push(chooser.choice(list(board.legal_moves)))
            done += 1
    return done / (time.perf_counter() - started), done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    try:
        import chess  # noqa: F401
    except ImportError:
        print("python-chess is missing: .venv/bin/pip install -e '.[bench]'", file=sys.stderr)
        return 2
    chess_rate, chess_moves = chess_moves_per_second(args.seconds)
    print(f"python-chess random games: {chess_rate:10.0f} moves/s    ({chess_moves} moves)")
    for preset in ("fated-labyrinth", "level-d"):
        rate, commands = fated_commands_per_second(preset, args.seconds)
        print(
            f"{preset:16s} playouts:  {rate:10.0f} commands/s ({commands} commands)"
            f"   ratio to chess moves/s: {rate / chess_rate:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
