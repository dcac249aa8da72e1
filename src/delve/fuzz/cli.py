"""The fuzzer's command line: ``delve fuzz`` and ``python -m delve.fuzz``.

    delve fuzz                                   # the full run: >= 1,000 games, >= 1,000,000 commands
    delve fuzz --games 20 --commands 5000        # a quick one
    delve fuzz --preset level-d --seed 7

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
    """The games the fuzzer knows, by ruleset name (White Maiden plugs in here)."""
    from delve.fuzz.fated import FatedTarget

    return {"fated": FatedTarget}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="fated", help="the ruleset to fuzz (default: fated)")
    parser.add_argument("--preset", action="append", help="a preset (repeatable; default: all of the game's)")
    parser.add_argument("--games", type=int, default=1_000, help="at least this many games (default 1000)")
    parser.add_argument(
        "--commands", type=int, default=1_000_000, help="at least this many commands in all (default 1000000)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (game i uses seed*1000003+i)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")


def execute(args: argparse.Namespace) -> int:
    known = targets()
    if args.game not in known:
        print(f"delve fuzz: unknown game {args.game!r}; known: {', '.join(sorted(known))}", file=sys.stderr)
        return 2
    target: Target = known[args.game]()
    presets = args.preset or list(target.presets)
    unknown = [p for p in presets if p not in target.presets]
    if unknown:
        known_presets = ", ".join(target.presets)
        print(f"delve fuzz: unknown preset(s) {', '.join(unknown)}; known: {known_presets}", file=sys.stderr)
        return 2
    last = [time.monotonic()]

    def progress(report: Report) -> None:
        if args.quiet or time.monotonic() - last[0] < 30:
            return
        last[0] = time.monotonic()
        print(
            f"... {report.games} games, {report.commands} commands, {report.crashes} crashes, "
            f"{report.violations} violations, {report.leaks} leaks, {report.seconds:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    report = Report(target=target.name)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        run(
            target,
            games=args.games,
            commands=args.commands,
            seed=args.seed,
            presets=presets,
            progress=progress,
            report=report,
        )
    except KeyboardInterrupt:
        print("(interrupted: the numbers so far)")
    print("\n".join(report.summary()))
    return 0 if report.clean else 1


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="delve fuzz", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return execute(parser.parse_args(argv))
