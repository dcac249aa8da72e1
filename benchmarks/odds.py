"""Exact odds speed: the lab's full odds table computed by delve.maiden.odds and the same
questions computed by icepool, timed in one run (compare the ratio, not seconds: the machine is
shared and noisy).

    .venv/bin/pip install -e '.[bench]'     # icepool (also in the test extra)
    .venv/bin/python benchmarks/odds.py [--repeat 3]

The table: Wil 0–4, Pie 0–6, targets 1–30; without a slate P(AP ≥ T) under optimal ascension
(MV-ASC-9); with a slate, for Agi 0–4, P(success), the expected slate damage and P(no slate
damage); for both ascension-bonus rules (1 + Pie, Pie). Every value is an exact fraction and the
two tables are checked equal before the ratio is printed. Each run starts with cold caches
(ours cleared; icepool's evaluators and dice created afresh).
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from delve.maiden import odds

WILS, PIES, AGIS, TARGETS = range(5), range(7), range(5), range(1, 31)
RULES = ("one_plus_pie", "pie")
Row = tuple[Any, ...]


def clear_our_caches() -> None:
    for name in dir(odds):
        cached = getattr(odds, name)
        if callable(getattr(cached, "cache_clear", None)):
            cached.cache_clear()


def ours() -> list[Row]:
    rows: list[Row] = []
    for rule in RULES:
        variant = odds.Variant(ascension_bonus=rule)
        for r in odds.odds_table(wils=WILS, pies=PIES, agis=AGIS, targets=TARGETS, variant=variant):
            rows.append(
                (
                    rule,
                    r.wil,
                    r.pie,
                    r.slate,
                    r.agi,
                    r.target,
                    r.p_success,
                    r.expected_slate_damage,
                    r.p_no_slate_damage,
                )
            )
    return rows


def theirs() -> list[Row]:
    import icepool

    @icepool.multiset_function
    def ascension_parts(a):  # type: ignore[no-untyped-def]
        even = a.map_counts(function=lambda outcome, count: 1 if count >= 2 and count % 2 == 0 else 0)
        return (a // 2).size(), (a % 2).highest(1).sum(), even.highest(1).sum()

    def fractions(die: Any) -> dict[Any, Fraction]:
        return {k: Fraction(die.quantity(k), die.denominator()) for k in die.outcomes()}

    def at_least(dist: dict[int, Fraction], target: int) -> Fraction:
        return sum((p for k, p in dist.items() if k >= target), Fraction(0))

    rows: list[Row] = []
    for rule in RULES:
        for wil in WILS:
            size = odds.DIE_SIZES[wil]
            die = icepool.d(size)
            for pie in PIES:
                bonus = pie + 1 if rule == "one_plus_pie" else pie
                parts = ascension_parts(die.pool(3 + pie))
                ap = fractions(
                    parts.map(lambda p, odd, even, b=bonus: b * p + (max(odd, even - b) if odd else even - b))
                )
                for target in TARGETS:
                    rows.append((rule, wil, pie, False, 0, target, at_least(ap, target), Fraction(0), Fraction(1)))
                others = 2 + pie
                pairs = (die.pool(others) // 2).size()
                slate_ap = fractions(icepool.map(lambda face, p, b=bonus: face + b * p, die, pairs))
                for agi in AGIS:
                    damage = fractions(pairs.map(lambda p, a=agi, n=others: max(0, n - 2 * p - a)))
                    mean = sum((k * p for k, p in damage.items()), Fraction(0))
                    none = damage.get(0, Fraction(0))
                    for target in TARGETS:
                        rows.append((rule, wil, pie, True, agi, target, at_least(slate_ap, target), mean, none))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best time counts")
    args = parser.parse_args()
    try:
        import icepool
    except ImportError:
        print("icepool is missing: .venv/bin/pip install -e '.[bench]'", file=sys.stderr)
        return 2
    ours_best = theirs_best = float("inf")
    for _ in range(args.repeat):
        clear_our_caches()
        started = time.perf_counter()
        our_rows = ours()
        ours_best = min(ours_best, time.perf_counter() - started)
        started = time.perf_counter()
        their_rows = theirs()
        theirs_best = min(theirs_best, time.perf_counter() - started)
    if sorted(our_rows, key=repr) != sorted(their_rows, key=repr):
        print("MISMATCH: the two tables differ", file=sys.stderr)
        return 1
    print(
        f"odds table: {len(our_rows)} rows "
        "(2 bonus rules × Wil 0–4 × Pie 0–6 × targets 1–30; no slate, and slate × Agi 0–4)"
    )
    print(f"all {len(our_rows) * 3} exact values agree (icepool {icepool.__version__})")
    print(f"delve.maiden.odds: {ours_best * 1000:9.1f} ms (cold caches, best of {args.repeat})")
    print(f"icepool:           {theirs_best * 1000:9.1f} ms (best of {args.repeat})")
    print(f"ratio icepool / ours: {theirs_best / ours_best:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
