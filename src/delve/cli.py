"""The ``delve`` command.

    delve serve   migrate, then run the production ASGI server (uvicorn) with static files and
                  one turn-clock worker in a background thread (``--no-worker`` to leave it out)
    delve tick    run the turn-clock worker: advance games whose time has come (``--once``: one
                  pass); several may run at once; SIGTERM finishes the current game and exits 0
    delve demo    create a demo game against bots (``--if-empty``: only on a server without games)
    delve check   validate the configuration, the database connection and all game content
    delve manage  any Django management command (``delve manage createsuperuser``,
                  ``delve manage create_token <user>``)
    delve cards   print the Fated Labyrinth / Level D card catalogue as a table

Configuration errors are printed as one clear line and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

EXIT_CONFIG = 2


def _django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "delve.server.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except ImproperlyConfigured as exc:
        raise ConfigurationFailed(str(exc)) from None


class ConfigurationFailed(Exception):
    """The server cannot start with the current configuration (message says why)."""


def _check_database() -> str:
    from django.db import DatabaseError, connection

    try:
        connection.ensure_connection()
    except DatabaseError as exc:
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigurationFailed(f"database {connection.vendor} is not reachable: {detail}") from None
    return connection.vendor


def _check_content() -> list[str]:
    """Load every registered ruleset and validate its default settings and content."""
    from delve.kernel import get_ruleset, registered_names
    from delve.kernel.errors import DelveError

    report = []
    for name in registered_names():
        try:
            ruleset = get_ruleset(name)
            checker: Callable[[], list[str]] | None = getattr(ruleset, "check_content", None)
            lines = checker() if checker else [f"{name}: settings {sorted(ruleset.validate_settings({}))}"]
        except DelveError as exc:
            raise ConfigurationFailed(f"content of ruleset {name!r} is invalid: {exc}") from None
        report.extend(lines)
    return report


def cmd_check(args: argparse.Namespace) -> int:
    _django_setup()
    from django.core import management

    management.call_command("check", fail_level="ERROR")
    vendor = _check_database()
    print(f"database: {vendor} reachable")
    for line in _check_content():
        print(f"content: {line}")
    print("configuration OK")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    _django_setup()
    from django.core import management

    management.call_command("check", fail_level="ERROR")
    _check_database()
    _check_content()
    management.call_command("migrate", interactive=False, verbosity=1)
    management.call_command("collectstatic", interactive=False, verbosity=0)
    stops = [stop for hook in _serve_hooks(args) if (stop := hook()) is not None]

    import signal

    import uvicorn

    # uvicorn handles SIGTERM itself and re-raises it once it has shut down; with a handler of our
    # own in place, that second delivery does not kill the process, so the hooks' stops still run.
    signal.signal(signal.SIGTERM, lambda signum, frame: None)

    print(f"Delve is serving at http://{args.host}:{args.port}/", flush=True)
    try:
        uvicorn.run(
            "delve.server.asgi:application",
            host=args.host,
            port=args.port,
            workers=args.workers,
            proxy_headers=True,
            log_level="info",
        )
    finally:
        for stop in reversed(stops):
            stop()
    return 0


def _serve_hooks(args: argparse.Namespace) -> list[Callable[[], Callable[[], None] | None]]:
    """Things ``serve`` starts before the HTTP server; each may return a function that stops it
    when the server has stopped."""
    hooks: list[Callable[[], Callable[[], None] | None]] = []
    if not args.no_worker:

        def start_worker() -> Callable[[], None]:
            from delve.server.games.worker import start_in_thread

            return start_in_thread(poll=args.tick_interval)

        hooks.append(start_worker)
    return hooks


def cmd_tick(args: argparse.Namespace) -> int:
    """The turn-clock worker (see delve.server.games.worker)."""
    _django_setup()
    _check_database()
    import signal
    import threading

    from delve.server.games.worker import Worker

    worker = Worker(poll=args.interval)
    if args.once:
        advanced = worker.run_once()
        played = worker.run_bots()
        print(f"advanced {advanced} game(s); bots played {played} command(s)", flush=True)
        return 0
    stop = threading.Event()

    def request_stop(signum: int, frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    worker.run(stop, on_ready=lambda: print(f"worker {worker.name} ready", flush=True))
    print(f"worker {worker.name} stopped after {worker.processed} advance(s)", flush=True)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Create the demo games: Fated Labyrinth against three bots, Level D open to join."""
    _django_setup()
    _check_database()
    from django.core import management

    management.call_command("migrate", interactive=False, verbosity=0)
    from delve.server.games import demo
    from delve.server.games.models import Game

    if args.if_empty and Game.objects.exists():
        print("demo: the server already has games; nothing created", flush=True)
        return 0
    games = demo.create(wait_time=args.wait_time)
    print(
        f"demo: game {games.running.pk} (Fated Labyrinth, you against 3 bots) is running and game "
        f"{games.open.pk} (Level D) waits for 3 more players.\n"
        f"demo: log in as {games.username!r} with password {games.password!r}, or sign up.",
        flush=True,
    )
    return 0


def cmd_manage(args: argparse.Namespace) -> int:
    _django_setup()
    from django.core import management

    management.execute_from_command_line(["delve manage", *args.rest])
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    """Print the card catalogue of a preset (no Django, no database needed)."""
    from delve.fated import catalogue

    if args.markdown:
        print(catalogue.reference() + "\n" + catalogue.markdown(), end="")
    else:
        print(catalogue.table(args.preset, args.lang))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="delve", description="Delve game server")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="migrate and run the server")
    serve.add_argument("--host", default=os.environ.get("DELVE_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("DELVE_PORT", "8000")))
    serve.add_argument("--workers", type=int, default=1, help="HTTP worker processes")
    serve.add_argument("--no-worker", action="store_true", help="do not run the turn-clock worker in-process")
    serve.add_argument("--tick-interval", type=float, default=1.0, help="seconds between worker passes")
    serve.set_defaults(func=cmd_serve)

    tick = sub.add_parser("tick", help="run the turn-clock worker (advances games that are due)")
    tick.add_argument("--once", action="store_true", help="advance what is due now, then exit")
    tick.add_argument("--interval", type=float, default=1.0, help="seconds to wait when nothing is due")
    tick.set_defaults(func=cmd_tick)

    demo = sub.add_parser("demo", help="create a demo game against bots (and one open to join)")
    demo.add_argument("--if-empty", action="store_true", help="do nothing when the server already has games")
    demo.add_argument("--wait-time", default="1m", help="the demo games' wait time (default 1m)")
    demo.set_defaults(func=cmd_demo)

    check = sub.add_parser("check", help="validate configuration, database and content")
    check.set_defaults(func=cmd_check)

    cards = sub.add_parser("cards", help="print the card catalogue as a table")
    cards.add_argument("--lang", choices=("en", "ja"), default="en", help="language of names and texts")
    cards.add_argument("--preset", choices=("fated-labyrinth", "level-d"), default="fated-labyrinth")
    cards.add_argument("--markdown", action="store_true", help="the generated sections of docs/cards.md")
    cards.set_defaults(func=cmd_cards)

    manage = sub.add_parser("manage", help="run a Django management command", add_help=False)
    manage.add_argument("rest", nargs=argparse.REMAINDER)
    manage.set_defaults(func=cmd_manage)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
    except ConfigurationFailed as exc:
        print(f"delve: configuration error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
