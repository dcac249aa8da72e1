"""Mazes generated per second for the two presets (and a larger custom setting).

Run from the repository root: ``.venv/bin/python benchmarks/maze.py [seconds per setting]``.
Prints one line per setting with mazes/second and milliseconds per maze, measured in this run.
"""

from __future__ import annotations

import sys
import time

from delve.fated.maze import generate
from delve.kernel import Rng

# name, maze_size, players, treasure_count (ice_rate 5%, door_rate 3% everywhere)
SETTINGS = [
    ("fated-labyrinth 13x13, 4 players", 13, 4, 2),
    ("level-d 15x15, 8 players", 15, 8, 4),
    ("custom 21x21, 12 players", 21, 12, 6),
]


def measure(size: int, players: int, treasures: int, seconds: float) -> float:
    """Mazes per second over consecutive seeds for about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        generate(
            size=size,
            players=players,
            ice_rate_percent=5,
            treasure_count=treasures,
            door_rate_percent=3,
            rng=Rng.seeded(count),
        )
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for name, size, players, treasures in SETTINGS:
        rate = measure(size, players, treasures, seconds)
        print(f"{name:34s} {rate:8.0f} mazes/s  {1000 / rate:6.3f} ms/maze")


if __name__ == "__main__":
    main()
