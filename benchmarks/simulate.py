"""Simulation speed: Fated Labyrinth bot games per second with 1 and with 2 local processes, in
one run, and the ratio (the machine has 2 cores: ideally 2.0).

    .venv/bin/python benchmarks/simulate.py [--games 2000] [--preset fated-labyrinth] [--block 100] [--out DIR]

The same seeds are played both ways, in alternating blocks (block k with 1 process, then the same
block with 2), so that a change in the machine's load hits both sides alike; the rows of both ways
must be equal (apart from wall time). The load average before and after is printed: on a shared
machine other work takes cores, and the ratio says so. ``--out DIR`` keeps the rows in
DIR/results.csv, so that ``delve simulate --games N --out DIR`` with the same seeds writes the
report without playing them again.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from delve.sim.runner import run
from delve.sim.spec import seeded_specs
from delve.sim.store import ResultStore


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", default="fated-labyrinth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--block", type=int, default=100, help="games per block (default 100)")
    parser.add_argument("--out", type=Path, help="keep the rows in DIR/results.csv")
    args = parser.parse_args()
    specs = seeded_specs("fated", range(args.seed, args.seed + args.games), ["heuristic"], 4, preset=args.preset)
    spent = {1: 0.0, 2: 0.0}
    cpu = {1: 0.0, 2: 0.0}
    load_before = os.getloadavg()
    store = ResultStore(args.out) if args.out else None
    if store is not None:
        store.load()
    for start in range(0, len(specs), args.block):
        block = specs[start : start + args.block]
        rows = {}
        for jobs in (1, 2):
            times = os.times()
            began = time.perf_counter()
            rows[jobs] = run(block, jobs=jobs, progress=False)
            spent[jobs] += time.perf_counter() - began
            after = os.times()
            cpu[jobs] += (after.user + after.system + after.children_user + after.children_system) - (
                times.user + times.system + times.children_user + times.children_system
            )
        same = [{k: v for k, v in r.items() if k != "seconds"} for r in rows[1]] == [
            {k: v for k, v in r.items() if k != "seconds"} for r in rows[2]
        ]
        if not same:
            print(f"rows differ between 1 and 2 processes in games {start}..{start + len(block) - 1}", file=sys.stderr)
            return 1
        if store is not None:
            for row in rows[2]:
                store.append(row)
        done = start + len(block)
        print(
            f"{done}/{len(specs)}: 1 process {done / spent[1]:.2f} games/s, 2 processes {done / spent[2]:.2f} games/s",
            file=sys.stderr,
            flush=True,
        )
    if store is not None:
        store.close()
    load_after = os.getloadavg()
    one, two = len(specs) / spent[1], len(specs) / spent[2]
    print(f"{len(specs)} {args.preset} games (heuristic bots, seeds {args.seed}..{args.seed + len(specs) - 1})")
    print(f"1 process:   {one:6.2f} games/s  ({spent[1]:.0f} s, {cpu[1]:.0f} CPU s)")
    print(f"2 processes: {two:6.2f} games/s  ({spent[2]:.0f} s, {cpu[2]:.0f} CPU s)")
    print(f"ratio 2/1:   {two / one:6.2f}  (the same rows both ways)")
    print(
        f"CPU per game: {cpu[1] / len(specs):.3f} s with 1 process, {cpu[2] / len(specs):.3f} s with 2 "
        "(equal when spreading games costs nothing: the ratio then only depends on free cores)"
    )
    print(f"load average (1 min) before {load_before[0]:.1f}, after {load_after[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
