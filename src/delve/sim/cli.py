"""``delve simulate``: many bot games of one game and preset, in parallel, resumable, with a report.

    delve simulate --game fated --preset level-d --games 2000 --bots heuristic --seed 1 --jobs 2 --out sim/level-d
    delve simulate --bots heuristic,random,random,random --rotate --games 300 --out sim/h-vs-r
    delve simulate --games 2000 --scheduler tcp://10.0.0.5:8786 --out sim/big

Game i uses seed ``--seed + i``. ``--bots``: one name for every seat, or one per seat
(``--rotate`` turns the line-up one seat on per seed, so that each bot plays every seat).
Results go to ``DIR/results.csv`` as games finish; the same command again resumes an interrupted
run (games already in the file are not played again). At the end ``DIR/report.html`` is written
(``--no-report`` to skip it). Bad arguments are one line naming the argument (exit status 2).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

EXIT_USAGE = 2
#: A Dask scheduler address: protocol://host:port.
SCHEDULER = re.compile(r"^(tcp|tls|inproc|ws|wss|ucx)://[^\s/:]+(:\d{1,5})?/?$")
#: The command-line option of each spec field, for error messages.
OPTION = {
    "bots": "--bots",
    "settings": "--set",
    "preset": "--preset",
    "seed": "--seed",
    "game": "--game",
    "jobs": "--jobs",
}


class UsageError(Exception):
    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"argument {option}: {reason}")


def _whole(minimum: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value

    return parse


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if not text.strip() or any(not n for n in names):
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of bot names")
    return names


def _setting(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    raw = value.strip()
    parsed: Any = raw
    if re.fullmatch(r"-?\d+", raw):
        parsed = int(raw)
    elif re.fullmatch(r"-?\d+\.\d*", raw):
        parsed = float(raw)
    elif raw in ("true", "false"):
        parsed = raw == "true"
    return key.strip(), parsed


def _scheduler(text: str) -> str:
    if not SCHEDULER.match(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a scheduler address like tcp://HOST:PORT")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="fated", help="the game (default fated; maiden when it has a simulation)")
    parser.add_argument("--preset", help="the game's preset (fated: fated-labyrinth (default) or level-d)")
    parser.add_argument("--games", type=_whole(1), default=100, help="how many games (default 100)")
    parser.add_argument(
        "--bots", type=_names, default=["heuristic"], help="bot names: one for all seats or one per seat"
    )
    parser.add_argument("--rotate", action="store_true", help="turn the line-up one seat on per seed")
    parser.add_argument("--seed", type=_whole(0), default=1, help="seed of the first game (default 1)")
    parser.add_argument("--jobs", type=_whole(1), help="local worker processes (default 1)")
    parser.add_argument("--scheduler", type=_scheduler, help="a Dask scheduler, tcp://HOST:PORT (instead of --jobs)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="results.csv and report.html go here")
    parser.add_argument("--players", type=_whole(1), help="number of seats (sets the players setting)")
    parser.add_argument(
        "--set", type=_setting, action="append", default=[], metavar="KEY=VALUE", help="a game setting (repeatable)"
    )
    parser.add_argument("--tag", default="", help="a label carried into every row")
    parser.add_argument("--no-report", action="store_true", help="do not write report.html")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _specs(args: argparse.Namespace) -> list[Any]:
    import importlib

    from delve.sim.games import NoSimulation, player
    from delve.sim.spec import SpecError, seeded_specs

    try:
        player(args.game)
    except NoSimulation as exc:
        raise UsageError("--game", str(exc)) from None
    module = importlib.import_module(f"delve.sim.games.{args.game}")
    settings = dict(args.set)
    preset = args.preset or getattr(module, "DEFAULT_PRESET", None)
    if args.players is not None:
        settings["players"] = args.players
    try:
        counter = getattr(module, "seat_count", None)
        if counter is not None:
            seats = int(counter(preset, settings))
        else:
            from delve.kernel import get_ruleset

            seats = get_ruleset(args.game).seat_count({**({"preset": preset} if preset else {}), **settings})
        return seeded_specs(
            args.game,
            range(args.seed, args.seed + args.games),
            args.bots,
            seats,
            preset=preset,
            settings=settings,
            tag=args.tag,
            rotate=args.rotate,
        )
    except SpecError as exc:
        option = (
            "--players"
            if args.players is not None and exc.reason.startswith("setting 'players'")
            else OPTION.get(exc.argument)
        )
        raise UsageError(option or f"--{exc.argument}", exc.reason) from None
    except ValueError as exc:
        raise UsageError("--set", str(exc)) from None


def execute(args: argparse.Namespace) -> int:

    from delve.sim.runner import SimulationError, check, run
    from delve.sim.spec import SpecError

    prog = "delve simulate"
    try:
        if args.scheduler and args.jobs:
            raise UsageError("--jobs", "the Dask cluster's workers play the games: leave out --jobs with --scheduler")
        if args.out.exists() and not args.out.is_dir():
            raise UsageError("--out", f"{str(args.out)!r} exists and is not a directory")
        specs = _specs(args)
        try:
            check(specs)
        except SpecError as exc:
            raise UsageError(OPTION.get(exc.argument, f"--{exc.argument}"), exc.reason) from None
    except UsageError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    where = args.scheduler or f"{args.jobs or 1} process(es)"
    print(f"{prog}: {len(specs)} {args.game} games ({specs[0].preset or 'default'}) on {where} -> {args.out}")
    try:
        with _interruptible():
            rows = run(specs, jobs=args.jobs or 1, scheduler=args.scheduler, out=args.out, progress=not args.quiet)
    except SimulationError as exc:
        print(f"{prog}: error: argument --scheduler: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        from delve.sim.store import ResultStore

        wanted = {spec.key() for spec in specs}
        rows = [row for key, row in ResultStore(args.out).load().items() if key in wanted]
        print(
            f"\n{prog}: interrupted after {len(rows)} of {len(specs)} games (in {args.out / 'results.csv'}); "
            "run the same command again to go on",
            file=sys.stderr,
        )
        if rows and not args.no_report:
            _report(args, rows)
        return 130
    _report(args, rows)
    failed = sum(1 for r in rows if r.get("outcome") == "error")
    if failed:
        print(f"{prog}: {failed} game(s) failed (outcome 'error', see the error column)", file=sys.stderr)
        return 1
    return 0


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """Ctrl-C and SIGTERM stop a run the same way (KeyboardInterrupt: the finished games are kept
    and reported), also when the shell started the command in the background with SIGINT ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _report(args: argparse.Namespace, rows: list[dict[str, Any]]) -> None:
    import importlib

    from delve.sim import report as generic_report

    module = importlib.import_module(f"delve.sim.games.{args.game}")
    lines = getattr(module, "summary_lines", None)
    for line in lines(rows) if lines else []:
        print(line)
    if not args.no_report:
        writer = getattr(module, "report", None)
        path = writer(rows, args.out) if writer else generic_report.generic(rows, args.out, title=f"{args.game}")
        print(f"report: {path}")
