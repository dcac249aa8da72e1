"""The fuzzer's command line: ``delve fuzz`` and ``python -m delve.fuzz``.

    delve fuzz                                   # the full run: >= 1,000 games, >= 1,000,000 commands,
                                                 # shared evenly by every game (fated, maiden)
    delve fuzz --game maiden --games 20 --commands 5000   # a quick one of one game
    delve fuzz --game fated --preset level-d --seed 7

It uses one core, prints progress to stderr every 30 s and a summary at the end (also when
interrupted with Ctrl-C or SIGTERM: the numbers so far), and exits 1 when anything was found (a
crash, an invariant violation or a leak), 0 otherwise.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Sequence
from typing import Any

from delve.fuzz import Report, Target, run


def targets() -> dict[str, Any]:
    """The games the fuzzer knows, by ruleset name."""
    from delve.fuzz.fated import FatedTarget
    from delve.fuzz.maiden import MaidenTarget

    return {"fated": FatedTarget, "maiden": MaidenTarget}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", default="all", help="the ruleset to fuzz, or all of them sharing the numbers evenly (default: all)"
    )
    parser.add_argument("--preset", action="append", help="a preset (repeatable; default: all of the game's)")
    parser.add_argument("--games", type=int, default=1_000, help="at least this many games (default 1000)")
    parser.add_argument(
        "--commands", type=int, default=1_000_000, help="at least this many commands in all (default 1000000)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (game i uses seed*1000003+i)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")


def execute(args: argparse.Namespace) -> int:
    known = targets()
    if args.game != "all" and args.game not in known:
        print(f"delve fuzz: unknown game {args.game!r}; known: all, {', '.join(sorted(known))}", file=sys.stderr)
        return 2
    chosen: list[Target] = [make() for name, make in sorted(known.items()) if args.game in ("all", name)]
    if args.preset and len(chosen) > 1:  # the presets name their game
        chosen = [target for target in chosen if set(args.preset) <= set(target.presets)] or chosen[:1]
    presets = args.preset or list(chosen[0].presets)
    unknown = [p for p in presets if p not in chosen[0].presets]
    if unknown:
        known_presets = ", ".join(chosen[0].presets)
        print(f"delve fuzz: unknown preset(s) {', '.join(unknown)}; known: {known_presets}", file=sys.stderr)
        return 2
    last = [time.monotonic()]
    done = Report(target="all")

    def progress(report: Report) -> None:
        if args.quiet or time.monotonic() - last[0] < 30:
            return
        last[0] = time.monotonic()
        print(
            f"... {report.target}: {report.games} games, {report.commands} commands, {report.crashes} crashes, "
            f"{report.violations} violations, {report.leaks} leaks, {report.seconds:.0f} s "
            f"(before it: {done.games} games, {done.commands} commands)",
            file=sys.stderr,
            flush=True,
        )

    reports = [Report(target=target.name) for target in chosen]
    signal.signal(signal.SIGTERM, _interrupt)
    games = -(-args.games // len(chosen))
    commands = -(-args.commands // len(chosen))
    try:
        for target, report in zip(chosen, reports, strict=True):
            run(
                target,
                games=games,
                commands=commands,
                seed=args.seed,
                presets=presets if len(chosen) == 1 else None,
                progress=progress,
                report=report,
            )
            done.merge(report)
            done.seconds += report.seconds
    except KeyboardInterrupt:
        print("(interrupted: the numbers so far)")
    for report in reports:
        print("\n".join(report.summary()))
    if len(reports) > 1:
        total = Report(target="all")
        for report in reports:
            total.merge(report)
            total.seconds += report.seconds
        print(
            f"all games: {total.games} games, {total.commands} commands, {total.views} views checked, "
            f"{total.replays} games replayed in {total.seconds:.0f} s: {total.crashes} crashes, "
            f"{total.violations} invariant violations, {total.leaks} leaks found"
        )
    return 0 if all(report.clean for report in reports) else 1


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="delve fuzz", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return execute(parser.parse_args(argv))
