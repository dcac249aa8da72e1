"""Fated Labyrinth bot strength: one bot against three others in seeded 4-player games.

    python benchmarks/fated_bots.py                       # heuristic vs random and vs basic, 300 games each
    python benchmarks/fated_bots.py --games 100 --others basic

The hero plays seat ``seed % 4`` (so every seat in turn), classes are drawn from the seed
(``delve.bots.fated_match``). Prints wins, the rate with its 95% Wilson interval, how games
ended, the share of attacks among all commands, and the time taken.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from delve.bots.fated_match import wilson, win_rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hero", default="heuristic")
    parser.add_argument("--others", default="random,basic", help="comma-separated: one series per name")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--preset", default="fated-labyrinth")
    args = parser.parse_args()
    for others in args.others.split(","):
        started = time.perf_counter()
        seeds = range(args.first_seed, args.first_seed + args.games)
        wins, games, matches = win_rate(args.preset, args.hero, others, seeds)
        low, high = wilson(wins, games)
        ends = Counter(m.win_kind or "draw" for m in matches)
        kinds: Counter[str] = Counter()
        for m in matches:
            kinds.update(m.kinds)
        attacks = (kinds["attack"] + kinds["attack_card"]) / max(1, sum(kinds.values()))
        print(
            f"{args.hero} vs 3 {others} ({args.preset}, seeds {seeds.start}-{seeds.stop - 1}): "
            f"{wins}/{games} = {100 * wins / games:.1f}% [95% {100 * low:.1f}-{100 * high:.1f}%] "
            f"(fair share 25%); endings {dict(ends)}; attacks {100 * attacks:.1f}% of commands; "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
