"""The ``delve`` command.

    delve serve   migrate, then run the production ASGI server (uvicorn) with static files and
                  one turn-clock worker in a background thread (``--no-worker`` to leave it out)
    delve tick    run the turn-clock worker: advance games whose time has come (``--once``: one
                  pass); several may run at once; SIGTERM finishes the current game and exits 0
    delve demo    create a demo game against bots (``--if-empty``: only on a server without games)
    delve check   validate the configuration, the database connection and all game content
    delve manage  any Django management command (``delve manage createsuperuser``,
                  ``delve manage create_token <user>``)
    delve push-keys  print a Web Push (VAPID) key pair as the two DELVE_VAPID_* environment lines
                  (``--from private_key.pem``: the pair of an existing key, e.g. from ``vapid --gen``)
    delve cards   print the Fated Labyrinth / Level D card catalogue as a table
    delve lab     the White Maiden balance lab: ``delve lab odds --wil 2 --pie 1 --target 7
                  [--slate red --agi 1 --dl 2 --bonus pie ...]`` prints the exact odds of one check
    delve maiden  White Maiden in the terminal: ``delve maiden play --players 2 --seed 7
                  [--lang ja] [--seats 0] [--difficulty normal]`` watches bots play a whole game, or
                  lets you play the seats given; ``delve maiden eval --games 500`` prints the
                  heuristic bots' win rates at 1-4 players with 95% Wilson intervals
    delve simulate  many bot games in parallel (local processes or a Dask cluster), resumable, with
                  results.csv and report.html: ``delve simulate --preset level-d --games 2000 --jobs 2
                  --out DIR`` (docs/simulate.md)
    delve backup  write a consistent backup of the running server's database to a file (SQLite:
                  the online backup API; PostgreSQL: pg_dump); ``delve restore FILE`` puts one back
    delve close   end running games now, keeping their history: ``delve close 12 --reason "..."``
                  (the players read the reason; nobody wins; records and exports stay consistent)
    delve fuzz    fuzz the rules engines with legal, illegal and malformed commands, checking
                  invariants, refusals and every view for hidden facts (docs/testing.md)

Configuration errors, and bad arguments of ``delve lab``, ``delve maiden`` and ``delve simulate``, are printed
as one clear line and exit with status 2. A refusal (``delve restore`` into a database in use, ``delve close``
of a game that has ended, ``delve verify``'s REFUSED...) is one line and status 1. A command whose output is cut
short by its reader (``delve lab odds ... | head``) stops quietly with status 141, as a shell reports for
SIGPIPE; Ctrl-C is 130. docs/operators.md lists them ("Exit statuses").
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

EXIT_CONFIG = 2
#: Seconds ``delve serve`` waits for the requests under way at SIGTERM (event streams end at once).
SHUTDOWN_GRACE = 5


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


def _port(text: str) -> int:
    """A TCP port from 1 to 65535 (``--port``; ``DELVE_PORT`` is read with the settings)."""
    from delve.server.env import port_number

    port = port_number(text)
    if port is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a TCP port from 1 to 65535")
    return port  # 0: any free port (tests)


def _host(text: str) -> str:
    """An address to listen on (``--host``; ``DELVE_HOST`` is read with the settings)."""
    from delve.server.env import host_problem

    problem = host_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"{text!r} is not an address to listen on: {problem}")
    return text.strip()


def _check_migrations(command: str) -> int:
    """The number of migrations not applied yet; ``tick`` refuses to run on such a database (the
    app server applies them at its start: a worker started first would fail every pass)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    pending = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    if pending and command == "tick":
        raise ConfigurationFailed(
            f"the database has {pending} migration(s) not applied yet: start `delve serve` once (it applies them), "
            "or run `delve manage migrate`, before the worker"
        )
    return pending


def _check_redis() -> str | None:
    """With REDIS_URL set, whether Redis answers (the live updates between processes go through
    it): None when it does or is not configured, else why not."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return None
    try:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:  # noqa: BLE001 (any failure is the operator's to read, in one line)
        detail = str(exc).strip().splitlines()[0].rstrip(".") if str(exc).strip() else type(exc).__name__
        return f"Redis at REDIS_URL is not reachable: {detail}"
    return None


def _unknown_settings() -> list[str]:
    """One line for each DELVE_* variable of the environment that no setting reads (a typo is
    otherwise silently ignored), with the closest known name."""
    import difflib

    from delve.server.env import KNOWN_VARIABLES, TOOL_VARIABLES

    lines = []
    for name in sorted(os.environ):
        if not name.startswith("DELVE_") or name in KNOWN_VARIABLES | TOOL_VARIABLES or name.startswith("DELVE_TEST_"):
            continue
        close = difflib.get_close_matches(name, sorted(KNOWN_VARIABLES), n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"delve: {name} is not a setting of Delve: it is ignored{hint}")
    return lines


def _unused_settings(command: str) -> list[str]:
    """One line for each setting whose (well-formed) value has no effect in this configuration
    (``settings.UNUSED_SETTINGS``: DELVE_SQLITE_SYNC on PostgreSQL, DELVE_SMTP_PORT without
    DELVE_SMTP_HOST...): likely a deployment that is not what its operator thinks."""
    from django.conf import settings

    return [f"delve {command}: {line}" for line in getattr(settings, "UNUSED_SETTINGS", [])]


def _shared_secret(command: str) -> list[str]:
    """A site of several processes (PostgreSQL, or Redis between processes) needs one secret key
    on all of them: a process without DELVE_SECRET_KEY signs with the key generated in its own data
    folder, and behind a load balancer another process refuses its sessions and CSRF tokens (said
    once at start)."""
    from django.conf import settings
    from django.db import connection

    if os.environ.get("DELVE_SECRET_KEY") is not None:
        return []
    if not (settings.REDIS_URL or connection.vendor == "postgresql"):
        return []
    why = "REDIS_URL is set" if settings.REDIS_URL else "the database is PostgreSQL"
    return [
        f"delve {command}: DELVE_SECRET_KEY is not set, but {why} (a site of several processes): every process "
        f"must share DELVE_SECRET_KEY, or sessions and CSRF tokens made on one are refused by another (random "
        f"log-outs, CSRF failures); this process uses the key generated in {Path(settings.DATA_DIR) / 'secret_key'}"
    ]


def _say(lines: Sequence[str]) -> None:
    for line in lines:
        print(line, file=sys.stderr, flush=True)


def _check_database() -> str:
    from django.db import DatabaseError, connection

    try:
        if connection.vendor == "postgresql":
            # Straight to the server, not through the pool: a pool keeps retrying in the
            # background for its whole timeout before it admits the server cannot be reached.
            params = {**connection.get_connection_params(), "connect_timeout": 10}
            connection.Database.connect(**params).close()
        else:
            connection.ensure_connection()
    except (DatabaseError, connection.Database.Error) as exc:
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
    _say(_unknown_settings())
    _say(_unused_settings("check"))
    _say(_shared_secret("check"))
    vendor = _check_database()
    print(f"database: {vendor} reachable")
    pending = _check_migrations("check")
    if pending:
        print(f"database: {pending} migration(s) not applied yet (`delve serve` applies them at its start)")
    problem = _check_redis()
    if problem:
        raise ConfigurationFailed(problem)
    from django.conf import settings

    if settings.REDIS_URL:
        print("redis: reachable")
    push = _push_status(pending)
    if push:
        print(f"push: {push}")
    for line in _check_content():
        print(f"content: {line}")
    print("configuration OK")
    return 0


def _push_status(pending: int) -> str | None:
    """With Web Push on, its contact and how many browser subscriptions were made with the
    current VAPID key or an older one (after the keys were changed: docs/operators.md, "Changing
    the push keys"); None with push off."""
    from django.conf import settings

    from delve.server.notify.channels import key_census, push_enabled

    if not push_enabled():
        return None
    line = f"on, contact {settings.DELVE_VAPID_SUBJECT}"
    if pending:
        return line
    census = key_census()
    line += f"; {census['current']} browser subscription(s) with the current key"
    if census["older"]:
        line += (
            f", {census['older']} with an older key (they get nothing until they subscribe again, "
            "which each does when its player next opens a page)"
        )
    if census["unknown"]:
        line += f", {census['unknown']} made before keys were recorded"
    return line


def _check_workers(workers: int) -> None:
    """More than one HTTP process needs PostgreSQL: on SQLite the writers of one process queue
    fairly on that process's writer lock, but processes would fight over the file's lock."""
    from django.db import connection

    if workers < 1:
        raise ConfigurationFailed(f"--workers {workers}: at least one HTTP worker process is needed")
    if workers > 1 and connection.vendor == "sqlite":
        raise ConfigurationFailed(
            f"--workers {workers} needs PostgreSQL (DATABASE_URL=postgres://...): on SQLite one process serves "
            "every request, with writers queueing on one lock; use --workers 1"
        )


def _live_push(workers: int) -> None:
    """Several processes hear of each other's changes only through Redis: without REDIS_URL their
    screens poll instead of following the event stream (said once at start)."""
    from django.conf import settings

    if workers > 1 and not settings.REDIS_URL and settings.LIVE_PUSH:
        os.environ["DELVE_LIVE_PUSH"] = "0"  # the HTTP worker processes read it at their start
        settings.LIVE_PUSH = False
        print(
            f"delve serve: --workers {workers} without REDIS_URL: live updates are off, the screens poll "
            "(set REDIS_URL=redis://... to push changes between processes)",
            flush=True,
        )


def _site_url(host: str, port: int) -> None:
    """Links in notifications point at DELVE_SITE_URL. Unset, they point at this server as it was
    started (the port given to serve, not a fixed 8000 where nothing may listen); on every
    interface, where only the operator knows the address players use, it says so once."""
    from django.conf import settings

    if os.environ.get("DELVE_SITE_URL", "").strip():
        return
    local = host in ("", "127.0.0.1", "0.0.0.0", "::", "localhost", "::1")
    url = f"http://{'localhost' if local else host}:{port}"
    os.environ["DELVE_SITE_URL"] = url  # the HTTP worker processes and the worker thread read it
    settings.DELVE_SITE_URL = url
    if host in ("0.0.0.0", "::"):
        print(
            f"delve serve: DELVE_SITE_URL is not set: links in notifications point at {url}; set it to the "
            "address players open (e.g. DELVE_SITE_URL=https://delve.example.org)",
            flush=True,
        )


def _check_port(host: str, port: int) -> None:
    """Refuse at once, in one line, an address this server cannot listen on (a port in use, an
    address of another machine), before migrations run and before it says it serves."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
    except OSError as exc:
        raise ConfigurationFailed(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    finally:
        probe.close()


def _public_warnings(host: str) -> None:
    """A server listening on every interface is reached by other names than localhost, which
    DELVE_ALLOWED_HOSTS must list (else each such request is a 400); and the demo account's
    published password should not stay on it. Each said once, at start."""
    if host not in ("0.0.0.0", "::"):
        return
    if not os.environ.get("DELVE_ALLOWED_HOSTS", "").strip():
        print(
            "delve serve: listening on every interface, but DELVE_ALLOWED_HOSTS is not set: requests that name "
            "this machine other than localhost are refused (400). Set it to the names and addresses players use, "
            "e.g. DELVE_ALLOWED_HOSTS=games.example.org,192.0.2.10",
            flush=True,
        )
    from django.contrib.auth import get_user_model

    from delve.server.games import demo

    # the marked demo account, and one an older delve demo made under the plain name (unmarked)
    named = get_user_model().objects.filter(username=demo.DEMO_USER)
    for user in {user.pk: user for user in [*named, *demo.demo_accounts()]}.values():
        if user.check_password(demo.DEMO_PASSWORD):
            print(
                f"delve serve: the demo account ({user.username!r}, password {demo.DEMO_PASSWORD!r}, published in "
                f"the README) can log in on this public server: change its password (delve manage changepassword "
                f"{user.username})",
                flush=True,
            )


def cmd_serve(args: argparse.Namespace) -> int:
    _django_setup()
    if args.port is None:
        from django.conf import settings

        args.port = settings.DELVE_PORT  # checked with the other settings
    if args.host is None:
        from django.conf import settings

        args.host = settings.DELVE_HOST  # checked with the other settings
    _check_workers(args.workers)
    from django.core import management

    management.call_command("check", fail_level="ERROR")
    _say(_unknown_settings())
    _say(_unused_settings("serve"))
    _say(_shared_secret("serve"))
    _check_port(args.host, args.port)
    _site_url(args.host, args.port)
    _public_warnings(args.host)
    _live_push(args.workers)
    problem = _check_redis()
    if problem:
        print(f"delve serve: {problem}; live updates fall back to polling until it answers", flush=True)
    _check_database()
    _check_content()
    from delve.server import migrating

    migrating.migrate(verbosity=1)  # one process at a time: the others wait, then find nothing to do
    management.call_command("collectstatic", interactive=False, verbosity=0)
    stops = [stop for hook in _serve_hooks(args) if (stop := hook()) is not None]

    import signal

    import uvicorn

    # uvicorn handles SIGTERM itself and re-raises it once it has shut down; with a handler of our
    # own in place, that second delivery does not kill the process, so the hooks' stops still run.
    signal.signal(signal.SIGTERM, lambda signum, frame: None)

    _release_start_connections(args)
    print(f"Delve is serving at http://{args.host}:{args.port}/", flush=True)
    try:
        uvicorn.run(
            "delve.server.asgi:application",
            host=args.host,
            port=args.port,
            workers=args.workers,
            proxy_headers=False,  # Django trusts DELVE_TRUSTED_PROXY only (security.TrustedProxyMiddleware)
            # The requests under way get this many seconds to finish, then they are cut. Open
            # event streams end at once when the stop begins (asgi.end_streams_on_stop).
            timeout_graceful_shutdown=SHUTDOWN_GRACE,
            **_uvicorn_logging(args),
        )
    finally:
        for stop in reversed(stops):
            stop()
    return 0


def _release_start_connections(args: argparse.Namespace) -> None:
    """The start-up's own database connection goes back to the pool before the server starts (the
    main thread would otherwise hold it for the server's whole life). With ``--workers`` above 1
    the HTTP processes have pools of their own: the parent keeps its pool only for its in-process
    worker, and closes it with ``--no-worker`` (it then holds no connection)."""
    from django.db import connections

    connections.close_all()
    if args.workers > 1 and args.no_worker:
        for connection in connections.all(initialized_only=True):
            close_pool = getattr(connection, "close_pool", None)
            if close_pool is not None and getattr(connection, "pool", None) is not None:
                close_pool()


def _uvicorn_logging(args: argparse.Namespace) -> dict[str, Any]:
    """uvicorn's own log at the server's level (``DELVE_LOG_LEVEL``), with one line per request
    unless ``--no-access-log`` (a busy server's log is then its warnings and errors)."""
    from django.conf import settings

    level = str(settings.LOGGING["root"]["level"]).lower()
    return {"log_level": level, "access_log": not args.no_access_log}


def _serve_hooks(args: argparse.Namespace) -> list[Callable[[], Callable[[], None] | None]]:
    """Things ``serve`` starts before the HTTP server; each may return a function that stops it
    when the server has stopped."""
    hooks: list[Callable[[], Callable[[], None] | None]] = []

    def start_checkpoints() -> Callable[[], None] | None:
        from delve.server.sqlite_backend.checkpoint import start_for_default_database

        return start_for_default_database()  # SQLite only: its log copied back off the command path

    hooks.append(start_checkpoints)
    if not args.no_worker:

        def start_worker() -> Callable[[], None]:
            from delve.server.games.worker import start_in_thread

            return start_in_thread(poll=args.tick_interval)

        hooks.append(start_worker)
    return hooks


def cmd_tick(args: argparse.Namespace) -> int:
    """The turn-clock worker (see delve.server.games.worker)."""
    _django_setup()
    _say(_unknown_settings())
    _say(_unused_settings("tick"))
    _say(_shared_secret("tick"))
    _check_database()
    from delve.server import migrating

    migrating.locked(lambda: _check_migrations("tick"))  # waits for a `delve serve` migrating right now
    problem = _check_redis()
    if problem:
        _say(
            [
                f"delve tick: {problem}; games still advance, but the screens see this worker's changes only at "
                "their next poll (up to 10 s late) until it answers"
            ]
        )
    if not os.environ.get("DELVE_SITE_URL", "").strip() and not args.once:
        from django.conf import settings

        _say(
            [
                f"delve tick: DELVE_SITE_URL is not set: links in the notifications this worker sends point at "
                f"{settings.DELVE_SITE_URL}"
            ]
        )
    import signal
    import threading

    from delve.server import gcpolicy
    from delve.server.games.worker import Worker

    worker = Worker(poll=args.interval)
    gcpolicy.freeze_startup()
    if args.once:
        advanced = worker.run_once()
        played = worker.run_bots()
        answered = worker.run_orders()
        sent = worker.run_notifications()
        print(
            f"advanced {advanced} game(s); bots played {played} command(s); standing orders answered {answered}; "
            f"notifications: {sent.get('notices', 0)} new, {sent.get('sent', 0)} sent, {sent.get('failed', 0)} failed",
            flush=True,
        )
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
    from delve.server import migrating

    migrating.migrate(verbosity=0)
    from delve.server.games import demo
    from delve.server.games.models import Game

    if args.if_empty and Game.objects.exists():
        print("demo: the server already has games; nothing created", flush=True)
        return 0
    from delve.server.games.errors import Rejected

    try:
        games = demo.create(wait_time=args.wait_time)
    except Rejected as exc:
        print(f"demo: nothing created: {exc.message}", file=sys.stderr, flush=True)
        return 1
    for name in games.passed_over:
        print(
            f"demo: the account {name!r} belongs to a person (it was not made by delve demo, and its password is "
            f"not the demo's), so the demo leaves it alone and uses {games.username!r} instead. If {name!r} is the "
            "demo account of an older delve demo whose password you changed, you may delete it in the admin.",
            flush=True,
        )
    login = (
        f"with password {games.password!r}"
        if games.password
        else "(its password is no longer the published one: you changed it)"
    )
    print(
        f"demo: game {games.running.pk} (Fated Labyrinth, you against 3 bots) is running and game "
        f"{games.open.pk} (Level D) waits for 3 more players.\n"
        f"demo: White Maiden: game {games.maiden_solo.pk if games.maiden_solo else '-'} is a solo game ready to "
        f"play, game {games.maiden_duo.pk if games.maiden_duo else '-'} a 2-seat game with a bot partner.\n"
        f"demo: log in as {games.username!r} {login}, or sign up.",
        flush=True,
    )
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    _django_setup()
    from pathlib import Path

    from delve.server.backup import BackupFailed, backup, restore

    try:
        if args.command == "backup":
            print(backup(Path(args.file)), flush=True)
        else:
            print(restore(Path(args.file), force=args.force), flush=True)
    except BackupFailed as exc:
        print(f"delve {args.command}: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_close(args: argparse.Namespace) -> int:
    """An operator ends running games now (``engine.close``): one line per game, status 1 when
    any was refused (not found, not running, a reason that is no line of text)."""
    _django_setup()
    _check_database()
    from delve.server.games import engine
    from delve.server.games.errors import Rejected

    try:
        reason = engine.close_reason_text(args.reason)
    except Rejected as exc:
        print(f"delve close: {exc.message}", file=sys.stderr)
        return 1
    refused = 0
    for game_id in args.games:
        try:
            engine.close(game_id, reason)
        except Rejected as exc:
            refused += 1
            print(f"delve close: game {game_id}: {exc.message}", file=sys.stderr, flush=True)
        else:
            print(f"game {game_id} closed: the players read “{reason}”", flush=True)
    return 1 if refused else 0


def cmd_manage(args: argparse.Namespace) -> int:
    _django_setup()
    from django.core import management

    management.execute_from_command_line(["delve manage", *args.rest])
    return 0


def cmd_push_keys(args: argparse.Namespace) -> int:
    """Print a Web Push (VAPID) key pair as the two environment lines the settings take: a new
    pair, or ``--from FILE``, the pair of a private key file (PEM or DER, such as the
    ``private_key.pem`` that ``vapid --gen`` writes). No Django, no database."""
    from delve.server.env import push_keys

    key = None
    if args.source:
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import load_der_private_key, load_pem_private_key

        try:
            data = Path(args.source).read_bytes()
        except OSError as exc:
            print(f"delve push-keys: cannot read {args.source}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_CONFIG
        try:
            key = (
                load_pem_private_key(data, password=None) if b"-----BEGIN" in data else load_der_private_key(data, None)
            )
        except (ValueError, TypeError):
            key = None
        if not (isinstance(key, ec.EllipticCurvePrivateKey) and isinstance(key.curve, ec.SECP256R1)):
            print(
                f"delve push-keys: {args.source} is not a P-256 private key (PEM or DER, unencrypted)", file=sys.stderr
            )
            return EXIT_CONFIG
    public, private = push_keys(key)
    print(f"DELVE_VAPID_PUBLIC_KEY={public}")
    print(f"DELVE_VAPID_PRIVATE_KEY={private}")
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    """Print the card catalogue of a preset (no Django, no database needed)."""
    from delve.fated import catalogue

    if args.markdown:
        print(catalogue.reference() + "\n" + catalogue.markdown(), end="")
    else:
        print(catalogue.table(args.preset, args.lang))
    return 0


class OneLineErrors(argparse.ArgumentParser):
    """A parser whose errors are one line naming the argument (``delve lab ...: error: argument
    --pie: ...``), exit status 2, without the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_CONFIG, f"{self.prog}: error: {message}\n")


def _at_least(text: str, minimum: int) -> int:
    """A whole number of ``minimum`` or more; the message always names that bound."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
    return value


def _count(text: str) -> int:
    """A whole number of 0 or more (stats, Agi)."""
    return _at_least(text, 0)


def _positive(text: str) -> int:
    """A whole number of 1 or more (target, danger level, required dice, games, jobs)."""
    return _at_least(text, 1)


def _signed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _within(minimum: int | None, maximum: int, why: str) -> Callable[[str], int]:
    """A whole number from ``minimum`` (None: any) to ``maximum``; above it, the message says
    the bound and ``why`` it is there."""

    def parse(text: str) -> int:
        value = _signed(text) if minimum is None else _at_least(text, minimum)
        if minimum is None and value < -maximum:
            raise argparse.ArgumentTypeError(f"{value} is below {-maximum}, the lab's limit ({why})")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"{value} is above {maximum}, the lab's limit ({why})")
        return value

    return parse


# The bounds of ``delve lab odds``: what a game can reach, with a margin for designers exploring,
# and small enough that every answer comes within about two seconds (docs/maiden-odds.md).
#: A maiden holds at most 12 stat cards: her familiar's card, the first level-up and 10 bosses.
LAB_MAX_STAT = 12
#: Pie up to 13: a pool of at most 16 dice (3 + Pie).
LAB_MAX_PIE = 13
#: With --required N > 1 (multi_die_checks) the count is slower: Pie up to 8, at most 11 dice.
LAB_MAX_PIE_MULTI = 8
#: CHG-12: N is normally 1, "at most about 3".
LAB_MAX_REQUIRED = 4
#: Targets in play are the action markers (1-12, MV-CHECK-3) plus a room's or a boss action's difficulty.
LAB_MAX_TARGET = 60
LAB_MAX_BASE = 40
LAB_MAX_DIFFICULTY = 40
#: The danger level is uncapped (MV-SPEC-9) but stays small in play; BQ-3 and BQ-9 ask about DL 1-5.
LAB_MAX_DL = 12


# The odds module names its arguments; the command line names its options.
_LAB_OPTION = {
    "wil": "--wil",
    "pie": "--pie",
    "agi": "--agi",
    "target": "--target",
    "danger_level": "--dl",
    "slate": "--slate",
    "required_count": "--required",
    "size": "--wil",
}


def cmd_lab_odds(args: argparse.Namespace) -> int:
    """The exact odds of one White Maiden check (no Django, no database)."""
    from delve.maiden.odds import OddsError, Variant, check_odds, die_size, target_number
    from delve.maiden.odds_baseline import no_ascension_odds
    from delve.maiden.odds_named import NOT_COUNTED, boss_action, markers, named_odds, room_card
    from delve.maiden.odds_text import render

    def fail(option: str, reason: str) -> int:
        print(f"delve lab odds: error: argument {option}: {reason}", file=sys.stderr)
        return EXIT_CONFIG

    named = args.room is not None or args.boss is not None
    if args.room is not None and args.boss is not None:
        return fail("--room", "name a room card or a boss action, not both")
    if args.action is not None and args.boss is None:
        return fail("--action", "only matters with --boss (the boss whose action it is)")
    if args.round is not None and args.base is not None:
        return fail("--round", "give either --round (action markers ⌈round/2⌉) or --base, not both")
    if args.round is not None:
        args.base = markers(args.round)
    source = None
    if named:
        if args.target is not None or args.difficulty is not None:
            option = "--target" if args.target is not None else "--difficulty"
            return fail(option, "the named room card or boss action gives the difficulty: give --round or --base")
        if args.base is None:
            return fail(
                "--room" if args.room is not None else "--boss",
                "give --round (or --base, the action markers) for the target = markers + difficulty",
            )
        try:
            source = room_card(args.room) if args.room is not None else boss_action(args.boss, args.action)
        except OddsError as exc:
            return fail(f"--{exc.argument}", exc.reason)
        if source.slate is not None and args.slate is not None and args.slate != source.slate:
            return fail("--slate", f"{source.label} has the {source.slate} slate")
        args.slate = args.slate or source.slate
        args.difficulty = source.difficulty
    if args.target is not None and (args.base is not None or args.difficulty is not None):
        return fail("--target", "give either --target or --base/--difficulty (or --round), not both")
    if args.base is not None and args.difficulty is None:
        return fail("--base", "only matters with --difficulty (target = max(1, base + difficulty))")
    if args.target is None and args.difficulty is None:
        return fail("--target", "required (or --difficulty, with --base for the action markers)")
    target = args.target if args.target is not None else target_number(args.base or 0, args.difficulty)
    mods: dict[str, object] = dict(source.mods) if source is not None else {}
    for given, key, value in (
        (args.reroll_highest, "reroll_highest", True),
        (args.die_step, "die_step", args.die_step),
        (args.no_white_dice, "no_white_dice", True),
        (args.no_ascension, "no_ascension", True),
        (args.bonus_fixed is not None, "ascension_bonus_fixed", args.bonus_fixed),
        (args.failure_damage_delta, "failure_damage_delta", args.failure_damage_delta),
        (args.slate_per_die_delta, "slate_per_die_delta", args.slate_per_die_delta),
    ):
        if given:
            mods[key] = value
    if args.die_step > 0:
        return fail("--die-step", f"{args.die_step} is above 0: the mod only makes the die smaller")
    if args.slate_per_die_delta and args.slate is None:
        return fail("--slate-per-die-delta", "only matters with --slate (a slate check): add --slate red|blue|black")
    if args.bonus_fixed is not None and args.bonus is not None:
        return fail("--bonus-fixed", "replaces the ascension bonus rule: drop --bonus or --bonus-fixed")
    # An option that only matters with another is refused without it (never silently ignored).
    for given, option, needs in (
        (args.agi is not None, "--agi", "--slate"),
        (args.slate_damage is not None, "--slate-damage", "--slate"),
        (args.restricted_slate, "--restricted-slate", "--slate"),
        (args.objective is not None, "--objective", "--smaller-die"),
    ):
        if given and not (args.slate if needs == "--slate" else args.smaller_die):
            hint = "add --slate red|blue|black" if needs == "--slate" else "add --smaller-die"
            what = "a slate check" if needs == "--slate" else "allow_smaller_die"
            return fail(option, f"only matters with {needs} ({what}): {hint}")
    if mods.get("no_ascension") and args.bonus is not None:
        return fail("--bonus", "does not matter with --no-ascension (no pair is ascended): drop one of them")
    # A named card's required_count is a rule of the multi_die_checks variant only (CHG-12, off by
    # default): the rulebook's odds ignore it; --multi-die counts it (1 with a slate), --required sets it.
    card_required = source.required_count if source is not None else 1
    if args.multi_die and source is None and args.required is None:
        return fail(
            "--multi-die",
            "counts a named room card's or boss action's required_count: add --room or --boss, or give --required N",
        )
    if args.required is not None:
        required = args.required
    elif args.multi_die:
        required = 1 if args.slate is not None else card_required
    else:
        required = 1
    required_notes: list[str] = []
    if source is not None and card_required > 1:
        if args.required is not None and args.required != card_required:
            required_notes.append(
                f"--required {args.required} replaces the required_count {card_required} of {source.label}"
            )
        elif args.multi_die and args.slate is not None:
            required_notes.append(
                f"multi_die_checks (CHG-12): the required_count {card_required} of {source.label} is 1 with a slate "
                "(the slate die alone)"
            )
        elif not args.multi_die and args.required is None:
            required_notes.append(
                f"Rulebook: the required_count {card_required} of {source.label} is not counted (it is a rule of the "
                "multi_die_checks variant, CHG-12, off by default); --multi-die counts it"
            )
    if required > 1 and args.slate is not None:
        return fail(
            "--required", "a slate check needs exactly one die, the slate's (CHG-12): drop --required or --slate"
        )
    if required > 1 and args.pie > LAB_MAX_PIE_MULTI:
        return fail(
            "--pie",
            f"{args.pie} is above {LAB_MAX_PIE_MULTI} with --required {required}, the lab's limit "
            f"(a multi-die check counts slower: at most {3 + LAB_MAX_PIE_MULTI} dice)",
        )
    if required > 3 + args.pie:
        return fail(
            "--required",
            f"{required} dice must reach the target but the check rolls only {3 + args.pie} (3 + Pie {args.pie})",
        )
    try:
        variant = Variant(
            ascension_bonus=args.bonus or "one_plus_pie",
            pie_mode=args.pie_mode,
            slate_damage_per_die=args.slate_damage or "1",
            multi_die_checks=required > 1,
            allow_smaller_die=args.smaller_die,
            slate_roll_restricted=args.restricted_slate,
        )
        notes: list[str] = []
        failure: int | None = None
        white: int | None = None
        if source is not None:
            base_text = (
                f"round {args.round}: {args.base} action markers" if args.round else f"{args.base} action markers"
            )
            notes.append(f"Check against {source.label}: difficulty {source.difficulty} ({base_text})")
        notes += required_notes
        if mods:
            counted = ", ".join(f"{k} = {str(v).lower()}" for k, v in sorted(mods.items()) if k not in NOT_COUNTED)
            ignored = ", ".join(k for k in sorted(mods) if k in NOT_COUNTED)
            if counted:
                notes.append(f"Mods counted exactly (as the engine applies them): {counted}")
            if ignored:
                notes.append(f"Mods that change what the check costs in skills, not its odds: {ignored}")
            odds, dl, failure = named_odds(
                args.wil,
                args.pie,
                args.base if args.target is None else target,
                args.difficulty if args.target is None else 0,
                mods=mods,
                agi=args.agi or 0,
                slate=args.slate,
                danger_level=args.dl,
                required_count=required,
                variant=variant,
                objective=args.objective or "success",
            )
            if mods.get("no_white_dice"):
                white = 0
        else:
            dl = args.dl
            odds = (no_ascension_odds if args.no_ascension else check_odds)(
                args.wil,
                args.pie,
                target,
                agi=args.agi or 0,
                slate=args.slate,
                danger_level=args.dl,
                required_count=required,
                variant=variant,
                objective=args.objective or "success",
            )
    except OddsError as exc:
        return fail(_LAB_OPTION.get(exc.argument, f"--{exc.argument.replace('_', '-')}"), exc.reason)
    text = render(
        odds,
        wil=args.wil,
        pie=args.pie,
        agi=args.agi or 0,
        danger_level=dl,
        variant=variant,
        fractions=args.fractions,
        target_from=None
        if args.target is not None
        else (args.base or 0, args.difficulty + int(mods.get("difficulty_delta", 0) or 0)),
        objective=args.objective or "success",
        no_ascension=bool(mods.get("no_ascension")),
        notes=tuple(notes),
        failure_damage=failure,
        white=white,
        die_step=int(mods.get("die_step", 0) or 0) if odds.die_size != die_size(args.wil) else 0,
        slate_per_die_delta=int(mods.get("slate_per_die_delta", 0) or 0),
    )
    print(text)
    return 0


def cmd_lab_missing(args: argparse.Namespace) -> int:
    print("delve lab: error: argument command: choose one of: odds, report", file=sys.stderr)
    return EXIT_CONFIG


def cmd_lab_report(args: argparse.Namespace) -> int:
    """Every balance question of spec §8 answered: exact odds and simulated games, one HTML page."""

    def fail(option: str, reason: str) -> int:
        print(f"delve lab report: error: argument {option}: {reason}", file=sys.stderr)
        return EXIT_CONFIG

    from delve.maiden.lab import games, report
    from delve.sim.runner import SimulationError

    if args.games > report.MAX_GAMES:
        return fail(
            "--games",
            f"{args.games} is above the limit of {report.MAX_GAMES} seeds per cell "
            f"({games.count(report.MAX_GAMES):,} games, every row read into memory for the report)",
        )
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        return fail("--out", f"{out} exists and is not a directory")
    if args.scheduler is not None and not args.scheduler.startswith("tcp://"):
        return fail("--scheduler", f"{args.scheduler!r} is not a Dask scheduler address like tcp://HOST:PORT")

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail("--out", f"cannot create {out}: {exc.strerror or exc}")
    try:
        page, answers = report.build(
            out, games_per_cell=args.games, jobs=args.jobs, scheduler=args.scheduler, progress=not args.quiet
        )
    except SimulationError as exc:
        return fail("--scheduler", str(exc))
    print(f"{page}: {len(answers)} answers")
    for warning in report.warnings(args.games):  # the page's warnings, in the terminal too
        print(f"warning: {warning}")
    return 0


def _add_lab(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    lab = sub.add_parser("lab", help="the White Maiden balance lab (exact odds, the report of spec §8)")
    lab_sub = lab.add_subparsers(dest="lab_command", parser_class=OneLineErrors, metavar="{odds,report}")
    lab.set_defaults(func=cmd_lab_missing)
    odds = lab_sub.add_parser(
        "odds",
        help="the exact odds of one check under optimal ascension",
        description="The exact odds of one White Maiden check under optimal ascension (MV-ASC-9): "
        "P(success) as a fraction and a percentage, the AP distribution, with a slate the slate damage and the "
        "total damage (slate + DL on a failure), and P(death) from life 1 to 6. Every number has an upper limit "
        "(what a game reaches, with a margin) so that an answer comes within about two seconds.",
    )
    stat = f"a maiden holds at most {LAB_MAX_STAT} stat cards"
    odds.add_argument(
        "--wil",
        type=_within(0, LAB_MAX_STAT, f"{stat}; Wil 4 and more roll d20"),
        required=True,
        help=f"Will: the die size (0 d4 … 4+ d20; up to {LAB_MAX_STAT})",
    )
    odds.add_argument(
        "--pie",
        type=_within(0, LAB_MAX_PIE, f"at most {3 + LAB_MAX_PIE} dice, 3 + Pie; {stat}"),
        required=True,
        help=f"Piety: white dice and ascension bonus (up to {LAB_MAX_PIE}; {LAB_MAX_PIE_MULTI} with --required)",
    )
    odds.add_argument(
        "--target",
        type=_within(1, LAB_MAX_TARGET, "targets in play are action markers 1-12 plus a difficulty"),
        help=f"the check's target number (1 to {LAB_MAX_TARGET})",
    )
    odds.add_argument(
        "--base",
        type=_within(0, LAB_MAX_BASE, "action markers are 1-12 a round"),
        help=f"action markers (with --difficulty instead of --target; up to {LAB_MAX_BASE})",
    )
    odds.add_argument(
        "--difficulty",
        type=_within(None, LAB_MAX_DIFFICULTY, "room and boss difficulties are a few points"),
        help=f"room difficulty ({-LAB_MAX_DIFFICULTY} to {LAB_MAX_DIFFICULTY}); target = max(1, base + difficulty)",
    )
    odds.add_argument("--slate", choices=("red", "blue", "black"), help="the slate colour, if any")
    odds.add_argument(
        "--agi",
        type=_within(0, LAB_MAX_STAT, stat),
        help=f"with --slate: Agility, dice ignored by slate damage (default 0, up to {LAB_MAX_STAT})",
    )
    odds.add_argument(
        "--dl",
        type=_within(1, LAB_MAX_DL, "BQ-3 and BQ-9 ask about DL 1-5"),
        default=1,
        help=f"danger level: failure damage (default 1, up to {LAB_MAX_DL})",
    )
    odds.add_argument(
        "--bonus", choices=("one_plus_pie", "pie"), help="ascension_bonus (default one_plus_pie: b = 1 + Pie)"
    )
    odds.add_argument("--pie-mode", choices=("ascension", "boost"), default="ascension", help="pie_mode (CHG-17)")
    odds.add_argument(
        "--slate-damage", choices=("1", "danger_level"), help="with --slate: slate_damage_per_die (CHG-4b, default 1)"
    )
    odds.add_argument(
        "--required",
        type=_within(1, LAB_MAX_REQUIRED, "CHG-12: at most about 3"),
        help=f"dice that must reach the target (multi_die_checks, CHG-12; default 1, up to {LAB_MAX_REQUIRED}; "
        "not with --slate); with --room/--boss it replaces the card's required_count",
    )
    odds.add_argument(
        "--multi-die",
        action="store_true",
        help="with --room/--boss: the multi_die_checks variant (CHG-12), counting the card's own required_count "
        "(1 with a slate); without it the rulebook's odds, where required_count is not a rule",
    )
    odds.add_argument("--smaller-die", action="store_true", help="allow_smaller_die: best size up to Wil's")
    odds.add_argument(
        "--objective",
        choices=("success", "damage"),
        help="with --smaller-die: most success (the default), or least expected damage",
    )
    odds.add_argument(
        "--restricted-slate",
        action="store_true",
        help="with --slate: slate_roll_restricted, roll only the slate die and whites",
    )
    odds.add_argument(
        "--no-ascension",
        action="store_true",
        help="no pair is ascended: AP is the highest die as rolled (the 3d20 baseline of spec §8.3; a room or "
        "boss with no_ascension)",
    )
    odds.add_argument(
        "--room",
        metavar="CARD",
        help="a room card by id (r05) or name: its difficulty and slate (with --round or --base); its "
        "required_count counts only with --multi-die (a variant rule, CHG-12)",
    )
    odds.add_argument(
        "--boss",
        metavar="BOSS",
        help='a boss by id (tiphareth) or name, with --action; or one boss action by its name ("Gilded Glare"): '
        "its difficulty, slate and mods (with --round or --base)",
    )
    odds.add_argument("--action", metavar="N", help="with --boss: the action, 1-3 from the top, or its name")
    odds.add_argument(
        "--round",
        type=_within(1, 24, "a game lasts 24 rounds"),
        help="the round (1-24): the base target is its action markers, ⌈round/2⌉ (instead of --base)",
    )
    odds.add_argument(
        "--reroll-highest", action="store_true", help="mod reroll_highest: the highest die is rerolled after the roll"
    )
    odds.add_argument(
        "--die-step",
        type=_within(None, 4, "d4 to d20 is four steps"),
        default=0,
        help="mod die_step: the die this many sizes smaller (-1: one size smaller, never below d4)",
    )
    odds.add_argument("--no-white-dice", action="store_true", help="mod no_white_dice: no white dice are rolled")
    odds.add_argument(
        "--bonus-fixed",
        type=_within(0, LAB_MAX_PIE + 1, "the bonus per ascension"),
        help="mod ascension_bonus_fixed: the bonus per ascension, whatever Pie is",
    )
    odds.add_argument(
        "--failure-damage-delta",
        type=_within(None, LAB_MAX_DL, "the danger level stays small"),
        default=0,
        help="mod failure_damage_delta: added to the failure damage (DL)",
    )
    odds.add_argument(
        "--slate-per-die-delta",
        type=_within(None, LAB_MAX_DL, "the danger level stays small"),
        default=0,
        help="with --slate: mod slate_per_die_delta, added to the slate damage per die",
    )
    odds.add_argument(
        "--fractions",
        action="store_true",
        help="print every exact fraction (by default one longer than 20 characters is shown as a percentage only)",
    )
    odds.set_defaults(func=cmd_lab_odds)
    report = lab_sub.add_parser(
        "report",
        help="answer every balance question of spec §8 in an HTML report",
        description="Exact odds and simulated games answer every balance question of spec §8 with a number "
        "(and a 95% interval where sampled): DIR/report.html (self-contained) and its PNG plots. The games "
        "are kept in DIR/games/results.csv, so a run stopped midway resumes.",
    )
    report.add_argument("--out", required=True, metavar="DIR", help="directory of the report")
    report.add_argument(
        "--games",
        type=_positive,
        default=12,
        help="seeds per simulated cell (default 12: a few minutes; at most 2000, 128,000 games)",
    )
    report.add_argument("--jobs", type=_positive, default=2, help="local worker processes (default 2)")
    report.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="play the games on a Dask cluster")
    report.add_argument("--quiet", action="store_true", help="no progress bar")
    report.set_defaults(func=cmd_lab_report)


def _seats(text: str) -> list[int]:
    """Seat numbers (0-based) separated by commas: ``0`` or ``0,2``."""
    seats = []
    for raw in text.split(","):
        part = raw.strip()
        if not part.isdigit():
            raise argparse.ArgumentTypeError(f"{part!r} is not a seat number (0, 1, 2 or 3)")
        seats.append(int(part))
    if len(set(seats)) != len(seats):
        raise argparse.ArgumentTypeError(f"{text!r} names a seat twice")
    return seats


def cmd_maiden_play(args: argparse.Namespace) -> int:
    """Watch or play one White Maiden game in the terminal (no Django, no database)."""
    from delve.bots.maiden_eval import setup_error
    from delve.maiden.terminal import play

    def fail(option: str, reason: str) -> int:
        print(f"delve maiden play: error: argument {option}: {reason}", file=sys.stderr)
        return EXIT_CONFIG

    bad = [s for s in args.seats if s >= args.players]
    if bad:
        return fail(
            "--seats", f"seat {bad[0]} does not exist in a {args.players}-player game (seats 0-{args.players - 1})"
        )
    settings = dict(args.set)
    if args.difficulty is not None:
        if "difficulty" in settings:
            return fail("--difficulty", "give the difficulty with --difficulty or with --set difficulty=..., not both")
        settings["difficulty"] = args.difficulty
    refused = setup_error([args.players], settings)
    if refused is not None:
        option, reason = refused
        if args.difficulty is not None and reason.startswith("setting 'difficulty'"):
            option = "--difficulty"
        return fail(option, reason)
    return play(
        args.players,
        args.seed,
        lang=args.lang,
        seats=args.seats,
        settings=settings,
        strategy=args.strategy,
        bot=args.bot,
        stdin=sys.stdin,
        stdout=sys.stdout,
    )


def cmd_maiden_eval(args: argparse.Namespace) -> int:
    from delve.bots import maiden_eval

    return maiden_eval.run(args)


def cmd_maiden_missing(args: argparse.Namespace) -> int:
    print("delve maiden: error: argument command: choose one of: play, eval", file=sys.stderr)
    return EXIT_CONFIG


def _add_maiden(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from delve.bots.maiden import STRATEGIES
    from delve.bots.maiden_eval import _parse_setting, add_arguments

    maiden = sub.add_parser("maiden", help="White Maiden in the terminal: watch or play a game; bot win rates")
    maiden_sub = maiden.add_subparsers(dest="maiden_command", parser_class=OneLineErrors, metavar="{play,eval}")
    maiden.set_defaults(func=cmd_maiden_missing)
    play = maiden_sub.add_parser(
        "play",
        help="watch bots play a game, or play seats yourself",
        description="Watch bots play a whole White Maiden game in the terminal, or play the seats given with "
        "--seats by typing the number of a command; bots play the other seats.",
    )
    play.add_argument("--players", type=int, choices=(1, 2, 3, 4), default=2, help="1 to 4 (default 2)")
    play.add_argument("--seed", type=_count, default=7, help="the game's seed (default 7)")
    play.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the sentences")
    play.add_argument("--seats", type=_seats, default=[], help="seats you play (0-based, e.g. 0 or 0,1)")
    play.add_argument("--difficulty", choices=("easy", "normal"), help="the difficulty setting (default easy)")
    play.add_argument("--strategy", choices=STRATEGIES, default="will_first", help="the bots' growth strategy")
    play.add_argument("--bot", choices=("heuristic", "random"), default="heuristic", help="the bots for other seats")
    play.add_argument(
        "--set", type=_parse_setting, action="append", default=[], metavar="KEY=VALUE", help="any game setting"
    )
    play.set_defaults(func=cmd_maiden_play)
    evaluate = maiden_sub.add_parser(
        "eval",
        help="the heuristic bots' win rates at 1-4 players",
        description="Play seeded bot games and print the win rate at each player count with its 95% Wilson interval. "
        "A progress line on stderr shows the games done and the ETA. The default run (500 games at each of 1-4 "
        "players on 2 processes) takes about 90 minutes; --games 50 about 9.",
    )
    add_arguments(evaluate)
    evaluate.set_defaults(func=cmd_maiden_eval)


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Fuzz an engine (no Django, no database needed)."""
    from delve.fuzz import cli

    return cli.execute(args)


def cmd_verify(args: argparse.Namespace) -> int:
    """Replay a finished game's export and confirm its seed, events and final state (no Django)."""
    import json

    from delve.server.records.verify import verify

    try:
        with open(args.export, encoding="utf-8") as handle:
            export = json.load(handle)
    except OSError as exc:
        print(f"delve verify: cannot read {args.export}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"REFUSED: {args.export} is not JSON: {exc}")
        return 1
    if not isinstance(export, dict):
        print(f"REFUSED: {args.export} is not an export (a JSON object)")
        return 1
    verdict = verify(export)
    if not verdict.ok:
        print(f"REFUSED: {verdict.problems[0]}")
        return 1
    print(f"OK: {verdict.summary}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Simulate many bot games (no Django, no database needed)."""
    from delve.sim import cli

    return cli.execute(args)


def _add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from delve.sim.cli import add_arguments

    ordinary = sub._parser_class
    sub._parser_class = OneLineErrors  # its errors are one line naming the argument
    try:
        simulate = sub.add_parser(
            "simulate",
            help="many bot games in parallel, resumable, with results.csv and report.html",
            description="Play many seeded bot games of one game through its ruleset, on local processes or a Dask "
            "cluster; results.csv is written as games finish (the same command resumes), then report.html.",
        )
    finally:
        sub._parser_class = ordinary
    add_arguments(simulate)
    simulate.set_defaults(func=cmd_simulate)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="delve", description="Delve game server")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="migrate and run the server")
    serve.add_argument(
        "--host",
        type=_host,
        default=None,  # DELVE_HOST, read (and checked) with the settings, or 127.0.0.1
        help="address to listen on (default: $DELVE_HOST or 127.0.0.1; 0.0.0.0 listens on every interface)",
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=None,  # DELVE_PORT, read (and checked) with the settings, or 8000
        help="TCP port to listen on (default: $DELVE_PORT or 8000)",
    )
    serve.add_argument(
        "--workers", type=int, default=1, help="HTTP worker processes (PostgreSQL only; SQLite serves with one)"
    )
    serve.add_argument("--no-worker", action="store_true", help="do not run the turn-clock worker in-process")
    serve.add_argument("--tick-interval", type=float, default=1.0, help="seconds between worker passes")
    serve.add_argument(
        "--no-access-log",
        action="store_true",
        help="no log line per HTTP request (uvicorn's access log); warnings and errors are still logged",
    )
    serve.set_defaults(func=cmd_serve)

    tick = sub.add_parser("tick", help="run the turn-clock worker (advances games that are due)")
    tick.add_argument("--once", action="store_true", help="advance what is due now, then exit")
    tick.add_argument("--interval", type=float, default=1.0, help="seconds to wait when nothing is due")
    tick.set_defaults(func=cmd_tick)

    demo = sub.add_parser("demo", help="create a demo game against bots (and one open to join)")
    demo.add_argument("--if-empty", action="store_true", help="do nothing when the server already has games")
    demo.add_argument("--wait-time", default="1m", help="the demo games' wait time (default 1m)")
    demo.set_defaults(func=cmd_demo)

    backup = sub.add_parser("backup", help="back up the database (while the server runs) to a new file")
    backup.add_argument("file", help="the backup file to write (it must not exist)")
    backup.set_defaults(func=cmd_backup)
    restore = sub.add_parser("restore", help="restore a backup into the configured (empty) database")
    restore.add_argument("file", help="a file written by delve backup")
    restore.add_argument("--force", action="store_true", help="replace what the database holds")
    restore.set_defaults(func=cmd_backup)

    close = sub.add_parser(
        "close",
        help="end running games now, keeping their history (nobody wins; the players read the reason)",
        description="End running games now, outside their rules, as a game with no winner ends: every clock "
        "stops, the history stays (log, replay, export, records with the result 'closed') and the players read "
        "the reason in the game's log and in the 'has ended' notice. Refused for a game that has not started "
        "(delete it instead) or has ended. Exit status 1 when any game was refused.",
    )
    close.add_argument("games", type=int, nargs="+", metavar="GAME", help="the game's number (as in /games/<number>/)")
    close.add_argument("--reason", required=True, help="one line the players read (at most 300 characters)")
    close.set_defaults(func=cmd_close)

    check = sub.add_parser("check", help="validate configuration, database and content")
    check.set_defaults(func=cmd_check)

    push = sub.add_parser(
        "push-keys",
        help="print a Web Push key pair as the two DELVE_VAPID_* lines (a new pair, or --from a PEM file)",
        description="Print DELVE_VAPID_PUBLIC_KEY=... and DELVE_VAPID_PRIVATE_KEY=..., the two settings that turn "
        "browser push on, in the form they take (base64url text). Keep the private key secret, and keep the pair: "
        "a browser subscribed with the old public key gets nothing signed with a new one.",
    )
    push.add_argument(
        "--from",
        dest="source",
        metavar="FILE",
        help="the private key file to take the pair from (PEM or DER, e.g. the private_key.pem of vapid --gen)",
    )
    push.set_defaults(func=cmd_push_keys)

    cards = sub.add_parser("cards", help="print the card catalogue as a table")
    cards.add_argument("--lang", choices=("en", "ja"), default="en", help="language of names and texts")
    cards.add_argument("--preset", choices=("fated-labyrinth", "level-d"), default="fated-labyrinth")
    cards.add_argument("--markdown", action="store_true", help="the generated sections of docs/cards.md")
    cards.set_defaults(func=cmd_cards)

    _add_lab(sub)
    _add_maiden(sub)
    _add_simulate(sub)
    fuzz = sub.add_parser("fuzz", help="fuzz the rules engines (crashes, invariants, refusals, leaks)")
    from delve.fuzz.cli import add_arguments

    add_arguments(fuzz)
    fuzz.set_defaults(func=cmd_fuzz)

    check_export = sub.add_parser(
        "verify", help="replay a finished game's export (JSON) and confirm its seed hash, events and final state"
    )
    check_export.add_argument("export", metavar="EXPORT.json", help="a file downloaded from a finished game's page")
    check_export.set_defaults(func=cmd_verify)

    manage = sub.add_parser("manage", help="run a Django management command", add_help=False)
    manage.add_argument("rest", nargs=argparse.REMAINDER)
    manage.set_defaults(func=cmd_manage)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command == "manage":  # everything after "manage" is Django's, --help included
        args.rest = [*extra, *args.rest]
        extra = []
    if extra:
        if args.command in ("lab", "maiden", "simulate"):  # their errors are one line (OneLineErrors)
            sub = getattr(args, f"{args.command}_command", None)
            prog = f"delve {args.command} {sub}" if sub else f"delve {args.command}"
            print(f"{prog}: error: unrecognized arguments: {' '.join(extra)}", file=sys.stderr)
            return EXIT_CONFIG
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        result: int = args.func(args)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at the interpreter's exit
    except ConfigurationFailed as exc:
        print(f"delve: configuration error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _pipe_closed()
    return result


#: The exit status of a command whose reader went away (``delve lab odds ... | head``): 128 + SIGPIPE,
#: as a shell reports for a program the closed pipe stopped.
EXIT_PIPE = 141


def _pipe_closed() -> int:
    """Stdout's reader closed the pipe: stop quietly (no traceback). Stdout is pointed at the null
    device so that Python's own last flush at exit does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # a stdout without a file descriptor (a test's capture)
        pass
    return EXIT_PIPE


if __name__ == "__main__":
    sys.exit(main())
