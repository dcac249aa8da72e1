"""Durable commands over HTTP against the real server (``delve serve``: uvicorn) on loopback, on
SQLite and on PostgreSQL, at 1, 8 and 32 concurrent clients, beside the same server's no-op
endpoint (``/healthz``) and a raw SQLite commit loop of the same rows with the same durability
settings, as ratios measured in one run (this machine is shared and noisy: compare the ratios,
not the seconds).

    .venv/bin/python benchmarks/http.py [--databases sqlite,postgresql] [--clients 1,8,32]
        [--seconds 8] [--loads noop,fl-comment,fl-play,wm-play] [--processes 1]
        [--database-url postgres://root@127.0.0.1:5432/postgres] [--redis-url redis://127.0.0.1:6379/3]

The loads (each client a thread with one keep-alive connection, one request at a time):

- ``noop``: ``GET /healthz`` in a loop (the server's cheapest answer: one ``SELECT 1``);
- ``fl-comment``: each client is a seat of a 4-player Fated Labyrinth game (13x13, comments
  allowed at any pace) and posts comments through the JSON API: a durable command with nothing
  to look up first (the lock, the clock, the ruleset, every audience's view, the logs);
- ``fl-play`` / ``wm-play``: each client plays a game of its own (Fated Labyrinth 4 seats, or
  solo White Maiden) as a bot would: one of the seat's legal commands (``POST``,
  with the choices digest and an idempotency key), decided on the legal commands the answer to
  its previous command listed, or, when the seat that played last has none left (a Fated turn
  over), on those of the next seat round the table that has some (``GET``). Only the ``POST``
  is timed, and a command counts once its answer is 2xx (it is then committed: durable); the
  looks between commands cost requests the ratio to ``noop`` does not correct: for these loads a
  second line gives every request they sent (looks and commands) against ``noop``'s requests,
  for reading only (the target counts durable commands). The Fated game's clock is the fastest
  the settings allow (a turn a second per seat, up to 1000 stored): its turns accumulate faster
  than a client spends them, so the clients measure the server, not the game's clock; the line
  says how often a client still found nobody with anything to play (it then waits 50 ms).

The loads take turns in windows of about two seconds (``noop``, each load, ``noop`` again, ...)
until each has run ``--seconds``, so that the shared machine's changing load falls on all of them
alike; each window starts its clients, lets them run half a second, and then counts the requests
answered within the window (a request still under way when it closes is not counted, and the
next window starts once it is answered), so every load is measured in its steady state.

Per database and client count it prints commands (or requests) per second, p50 and p99, and
the ratios of each load's durable commands per second to ``noop``'s requests per second, with
the lowest and highest ratio of a round of windows (target for the durable loads: >= 0.5 of its
throughput, p99 <= 3x its p99, at 8 and 32 clients; said met or not); per database the durable
commands/s of ``fl-comment`` at 1 client against a raw ``sqlite3`` loop committing the same rows
(the game's state, a command entry with its answer, its events) one transaction each, with the
pragmas of the project's SQLite backend (WAL, ``synchronous=FULL`` unless
``DELVE_SQLITE_SYNC=normal``).

Each database gets a fresh server, run as it ships (its worker passes at their default pace, one
a second, which is also when it scans changed games for notifications): a SQLite file in a
temporary folder, or a new PostgreSQL database beside the one ``--database-url`` names (dropped
afterwards); ``--processes N`` (N > 1, PostgreSQL only) runs N ``delve serve --no-worker``
processes and one ``delve tick`` worker, the
clients taking them in turn as a round-robin proxy would, with Redis for the live updates when
it answers. Set ``DELVE_TEST_PORTS`` (e.g. 8650-8699) to keep the servers in a port range.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the path, and this file would be imported as
# the standard library's ``http``: take the folder off.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

import argparse  # noqa: E402
import contextlib  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import urlsplit, urlunsplit  # noqa: E402

ROOT = _HERE.parent
DEFAULT_DATABASE_URL = os.environ.get("DELVE_BENCH_DATABASE_URL", "postgres://root@127.0.0.1:5432/postgres")
DEFAULT_REDIS_URL = os.environ.get("DELVE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
#: The server dies with the benchmark, even when that is killed.
ORPHAN_GUARD = ["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []
LOADS = ("noop", "fl-comment", "fl-play", "wm-play")
#: Commands a playing client never picks: giving up ends a seat, comments are another load.
AVOID = {"give_up", "comment"}


# --- servers -----------------------------------------------------------------------------------


def _ports() -> range:
    low, _, high = os.environ.get("DELVE_TEST_PORTS", "8100-8199").partition("-")
    return range(int(low), int(high or low) + 1)


def free_port() -> int:
    ports = list(_ports())
    start = random.randrange(len(ports))
    for port in ports[start:] + ports[:start]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port: set DELVE_TEST_PORTS")


def request(
    conn: http.client.HTTPConnection, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    """One request on a kept-alive connection; the status and the decoded JSON body."""
    headers = {"Accept": "application/json"}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    try:
        return response.status, json.loads(raw) if raw else None
    except ValueError:
        return response.status, raw.decode(errors="replace")


class Process:
    """``delve <args>`` as a subprocess logging to ``log``."""

    def __init__(self, env: dict[str, str], log: Path, *args: str) -> None:
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [*ORPHAN_GUARD, sys.executable, "-m", "delve.cli", *args],
                env=env,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


class Server(Process):
    """``delve serve`` on a free port, waited for until ``/healthz`` answers."""

    def __init__(self, env: dict[str, str], log: Path, *args: str) -> None:
        self.port = free_port()
        super().__init__(env, log, "serve", "--port", str(self.port), *args)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped:\n{self.tail()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                try:
                    if request(conn, "GET", "/healthz")[0] == 200:
                        return
                finally:
                    conn.close()
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer:\n{self.tail()}")


# --- databases and games ---------------------------------------------------------------------


@contextlib.contextmanager
def fresh_postgres(database_url: str) -> Iterator[str]:
    """A new PostgreSQL database beside the one ``database_url`` names (dropped afterwards)."""
    import psycopg

    parts = urlsplit(database_url)
    maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    name = f"{(parts.path.strip('/') or 'delve')}_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(maintenance, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(maintenance, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


SEED = """
import json, os, sys
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
django.setup()
from django.core import management
management.call_command("migrate", interactive=False, verbosity=0)
from django.contrib.auth import get_user_model
from delve.server.accounts.models import ApiToken
from delve.server.games import engine

plan = json.loads(sys.argv[1])
users = get_user_model().objects
out = {}
for load, games in plan.items():
    out[load] = []
    for g in range(games):
        if load == "wm-play":
            game = engine.create_game("maiden", "white-maiden", {"players": 1, "start_player": 0})
        elif load == "fl-play":
            game = engine.create_game(
                "fated", "fated-labyrinth", {"players": 4, "maze_size": 13, "wait_time": 1, "max_stored_turns": 1000}
            )
        else:
            game = engine.create_game(
                "fated", "fated-labyrinth", {"players": 4, "maze_size": 13, "comment_min_interval": 0}
            )
        tokens = []
        for s in range(game.seat_count):
            user = users.create_user(f"{load}-g{g}-s{s}", password=None)
            engine.register(game.pk, user, f"P{s}", {})
            tokens.append(ApiToken.issue(user, "bench")[1])
        out[load].append({"game": game.pk, "tokens": tokens})
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Table:
    """A game and the API tokens of its seats (seat order)."""

    game: int
    tokens: tuple[str, ...]


def seed(env: dict[str, str], plan: dict[str, int]) -> dict[str, list[Table]]:
    """Migrate the server's database and start the games of ``plan`` (load: games), in a process
    of its own."""
    result = subprocess.run(
        [sys.executable, "-c", SEED, json.dumps(plan)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    if result.returncode:
        raise RuntimeError(result.stderr[-3000:])
    rows = json.loads(result.stdout.strip().splitlines()[-1])
    return {load: [Table(row["game"], tuple(row["tokens"])) for row in tables] for load, tables in rows.items()}


# --- clients -----------------------------------------------------------------------------------


@dataclass
class Result:
    """One load at one client count: its measured windows added up."""

    load: str
    clients: int
    seconds: float = 0.0  # the measured windows' length, warm-ups left out
    latencies: list[float] = field(default_factory=list)  # of counted requests (commands: 2xx only)
    requests: int = 0  # every request answered in the windows (a play's look at the legal commands too)
    refused: int = 0  # 4xx answers (a stale choice, a game that ended)
    errors: list[str] = field(default_factory=list)  # 5xx answers and transport failures
    rounds: list[tuple[float, int, int]] = field(default_factory=list)  # per window: seconds, counted, requests
    waits: int = 0  # a play's steps that found nobody with anything to play (the game's clock)

    @property
    def per_second(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    @property
    def requests_per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def plays(self) -> bool:
        """A load that looks before each command (its requests are more than its commands)."""
        return self.load in {"fl-play", "wm-play"}

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")

    def add(self, window: Result) -> None:
        """Count in one more measured window of the same load and client count."""
        self.seconds += window.seconds
        self.latencies += window.latencies
        self.requests += window.requests
        self.refused += window.refused
        self.waits += window.waits
        self.errors += window.errors
        self.rounds.append((window.seconds, len(window.latencies), window.requests))

    def line(self) -> str:
        what = "requests" if self.load == "noop" else "durable commands"
        looks = ""
        if self.plays:
            looks = (
                f" (requests, GET of the legal commands and POST: {self.requests_per_second:.1f}/s;"
                f" waits for the game's clock: {self.waits})"
            )
        return (
            f"{self.load:>10} {self.clients:>2} clients: {len(self.latencies)} {what} in {self.seconds:.1f} s = "
            f"{self.per_second:.1f}/s{looks}, p50 {self.percentile(0.5) * 1000:.1f} ms, "
            f"p99 {self.percentile(0.99) * 1000:.1f} ms, refused {self.refused}, errors {len(self.errors)}"
        )


Step = Callable[[http.client.HTTPConnection, int], tuple[int, Any, float, int]]
"""A client's step: the status, the answer, the seconds of the timed request, the requests sent."""

#: Seconds each window runs before it starts counting: the clients connect and fill the server.
WARM_UP = 0.5
#: Seconds of one measured window; the loads take turns in windows of this length.
WINDOW = 2.0


def noop_step(conn: http.client.HTTPConnection, step: int) -> tuple[int, Any, float, int]:
    started = time.perf_counter()
    status, body = request(conn, "GET", "/healthz")
    return status, body, time.perf_counter() - started, 1


def comment_step(table: Table, seat: int) -> Step:
    def run(conn: http.client.HTTPConnection, step: int) -> tuple[int, Any, float, int]:
        body = {"text": f"step {step}", "idempotency_key": f"c-{uuid.uuid4().hex}"}
        started = time.perf_counter()
        status, answer = request(conn, "POST", f"/api/v1/games/{table.game}/comment", body, table.tokens[seat])
        return status, answer, time.perf_counter() - started, 1

    return run


def play_step(table: Table, rng: random.Random) -> Step:
    """One of the legal commands of a seat (timed), as a bot plays: the seat that played last
    goes on with the legal commands its answer listed while it has some; otherwise the legal
    commands of the next seat round the table that has some are asked for (``GET``, not timed).
    Status 0 when nobody has anything to play now (a Fated turn still accumulating), -1 when the
    game has ended."""
    last: dict[int, dict[str, Any]] = {}  # the seat that played last: the answer to its command
    seats = len(table.tokens)

    def run(conn: http.client.HTTPConnection, step: int) -> tuple[int, Any, float, int]:
        sent = 0
        known = dict(last)
        last.clear()
        # the seat that played last (on the commands its answer listed: none playable, it is
        # passed over), then the others round the table from the one after it
        after = next(iter(known), seats - 1)
        order = [(after + i) % seats for i in range(1, seats + 1)]
        if known:
            order = [after, *order[:-1]]
        for seat in order:
            offered = known.get(seat)
            if offered is not None:
                playable = [c for c in offered["commands"] if c["kind"] not in AVOID]
                if not playable:
                    continue
            else:
                status, offered = request(conn, "GET", f"/api/v1/games/{table.game}/commands", token=table.tokens[seat])
                sent += 1
                if status != 200 or not isinstance(offered, dict):
                    return status, offered, 0.0, sent
                playable = [c for c in offered["commands"] if c["kind"] not in AVOID]
                if not playable:
                    continue
            assert offered is not None
            body = {
                "command": rng.choice(playable),
                "choices": offered["choices"],
                "idempotency_key": f"p-{uuid.uuid4().hex}",
            }
            started = time.perf_counter()
            status, answer = request(conn, "POST", f"/api/v1/games/{table.game}/commands", body, table.tokens[seat])
            if status == 200 and isinstance(answer, dict) and "commands" in answer:
                last[seat] = answer
            return status, answer, time.perf_counter() - started, sent + 1
        status, view = request(conn, "GET", f"/api/v1/games/{table.game}", token=table.tokens[0])
        ended = status == 200 and isinstance(view, dict) and view.get("game", {}).get("status") == "ended"
        return (-1 if ended else 0), view, 0.0, sent + 1

    return run


def drive(ports: Sequence[int], steps: Sequence[Step], load: str, seconds: float, warm_up: float = WARM_UP) -> Result:
    """One client thread per step function, on the servers in turn: ``warm_up`` seconds, then a
    window of ``seconds`` that counts the steps answered within it (a step under way when it opens
    counts once answered; one answered after it closes does not). Every load is measured the same
    way, in its steady state: neither the clients' start nor the requests left in flight at the
    end weigh on one load more than on another."""
    result = Result(load=load, clients=len(steps))
    lock = threading.Lock()
    stop = threading.Event()
    started = time.monotonic()
    opens, closes = started + warm_up, started + warm_up + seconds

    def client(index: int, step: Step) -> None:
        port = ports[index % len(ports)]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        count = 0
        try:
            while not stop.is_set():
                count += 1
                try:
                    status, answer, elapsed, sent = step(conn, count)
                except (OSError, http.client.HTTPException) as exc:
                    if opens <= time.monotonic() <= closes:
                        with lock:
                            result.errors.append(f"{port}: {exc.__class__.__name__}")
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                    continue
                if status == -1:
                    return  # the game has ended: nothing left to play
                answered = time.monotonic()
                counted = opens <= answered <= closes
                if counted and status != 0:
                    with lock:
                        result.requests += sent
                        if 200 <= status < 300:
                            result.latencies.append(elapsed)
                        elif status >= 500:
                            result.errors.append(f"{status}: {str(answer)[:200]}")
                        else:
                            result.refused += 1
                elif counted:
                    with lock:
                        result.requests += sent
                        result.waits += 1
                if status == 0:
                    stop.wait(0.05)  # nothing to play yet: the game's clock brings the next turn
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i, step), daemon=True) for i, step in enumerate(steps)]
    for thread in threads:
        thread.start()
    stop.wait(max(0.0, closes - time.monotonic()))
    stop.set()
    result.seconds = seconds
    for thread in threads:
        thread.join(timeout=180)
    return result


def measure(
    ports: Sequence[int],
    steps: dict[str, list[Step]],
    seconds: float,
    window: float = WINDOW,
) -> dict[str, Result]:
    """Every load for ``seconds`` (measured), in windows of about ``window`` seconds taken in turn
    (noop, load 1, load 2, ..., noop, load 1, ...), so that the machine's changing load (it is
    shared) falls on every load alike rather than on whichever ran in a bad moment."""
    rounds = max(1, round(seconds / window))
    results: dict[str, Result] = {}
    for _ in range(rounds):
        for load, clients in steps.items():
            measured = drive(ports, clients, load, seconds / rounds)
            results.setdefault(load, Result(load=load, clients=measured.clients)).add(measured)
    return results


def steps_for(load: str, tables: list[Table], clients: int, seed_value: int) -> list[Step]:
    if load == "noop":
        return [noop_step] * clients
    if load == "fl-comment":
        return [comment_step(tables[i // 4], i % 4) for i in range(clients)]
    return [play_step(tables[i], random.Random(f"{seed_value}-{i}")) for i in range(clients)]


def games_needed(load: str, clients: Sequence[int]) -> int:
    """Fresh games for every client count (a played game moves on; a commented one does not)."""
    if load == "noop":
        return 0
    if load == "fl-comment":
        return -(-max(clients) // 4)
    return sum(clients)


# --- the raw SQLite commit loop ------------------------------------------------------------------


def raw_commit_loop(database: Path, game_id: int, limit: int = 400) -> tuple[float, int]:
    """Commit again, one transaction each, the rows the commands of ``game_id`` wrote (the game's
    state, the command entry with its answer, its events) into a new SQLite file with the
    project's pragmas; commits per second and the commits made."""
    from delve.server.env import sqlite_database

    source = sqlite3.connect(database)
    try:
        (state,) = source.execute("SELECT state FROM games_game WHERE id = ?", (game_id,)).fetchone()
        commands = source.execute(
            "SELECT sequence, time, seat, command, idempotency_key, answer FROM games_commandentry "
            "WHERE game_id = ? ORDER BY sequence LIMIT ?",
            (game_id, limit),
        ).fetchall()
        events = source.execute(
            "SELECT time, kind, data, visibility FROM games_evententry WHERE game_id = ? ORDER BY sequence", (game_id,)
        ).fetchall()
    finally:
        source.close()
    by_time: dict[int, list[tuple[Any, ...]]] = {}
    for event in events:
        by_time.setdefault(event[0], []).append(event)
    path = database.with_name("raw-commits.sqlite3")
    pragmas = sqlite_database(path)["OPTIONS"]["init_command"]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in pragmas.split(";"):
            db.execute(pragma)
        db.execute("CREATE TABLE game (id INTEGER PRIMARY KEY, version INTEGER, state TEXT)")
        db.execute(
            "CREATE TABLE command (id INTEGER PRIMARY KEY, game INTEGER, sequence INTEGER, time INTEGER, "
            "seat INTEGER, command TEXT, key TEXT, answer TEXT, UNIQUE (game, sequence))"
        )
        db.execute(
            "CREATE TABLE event (id INTEGER PRIMARY KEY, game INTEGER, sequence INTEGER, time INTEGER, "
            "kind TEXT, data TEXT, visibility TEXT, UNIQUE (game, sequence))"
        )
        db.execute("INSERT INTO game VALUES (1, 0, '')")
        sequence = 0
        started = time.perf_counter()
        for version, at, seat, command, key, answer in commands:
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE game SET version = ?, state = ? WHERE id = 1", (version, state))
            rows = []
            for _, kind, data, visibility in by_time.pop(at, []):
                sequence += 1
                rows.append((1, sequence, at, kind, data, visibility))
            if rows:
                db.executemany(
                    "INSERT INTO event (game, sequence, time, kind, data, visibility) VALUES (?, ?, ?, ?, ?, ?)", rows
                )
            db.execute(
                "INSERT INTO command (game, sequence, time, seat, command, key, answer) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (1, version, at, seat, command, key, answer),
            )
            db.execute("COMMIT")
        elapsed = time.perf_counter() - started
    finally:
        db.close()
    return (len(commands) / elapsed if elapsed else float("nan")), len(commands)


# --- a run -------------------------------------------------------------------------------------


def run_database(
    kind: str,
    *,
    clients: Sequence[int],
    loads: Sequence[str],
    seconds: float,
    processes: int,
    database_url: str,
    redis_url: str,
    report: Callable[[str], None] = print,
) -> dict[tuple[str, int], Result]:
    """Every load at every client count against one fresh server (or ``processes`` of them)."""
    results: dict[tuple[str, int], Result] = {}
    with contextlib.ExitStack() as stack:
        data = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="delve-http-")))
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
        env.update(DELVE_DATA_DIR=str(data), DELVE_LOG_LEVEL="WARNING")
        if kind == "postgresql":
            env["DATABASE_URL"] = stack.enter_context(fresh_postgres(database_url))
        elif processes > 1:
            raise SystemExit("--processes above 1 needs PostgreSQL: on SQLite one process serves")
        if processes > 1 and _redis_answers(redis_url):
            env.update(REDIS_URL=redis_url, DELVE_REDIS_PREFIX=f"delve-bench-{uuid.uuid4().hex[:8]}:")
        plan = {load: games_needed(load, clients) for load in loads if load != "noop"}
        tables = seed(env, plan)
        extra = ["--no-worker"] if processes > 1 else []
        servers = []
        for i in range(processes):
            server = Server(env, data / f"server-{i}.log", *extra)
            stack.callback(server.stop)
            servers.append(server)
        if processes > 1:
            worker = Process(env, data / "worker.log", "tick")
            stack.callback(worker.stop)
        ports = [server.port for server in servers]
        for position, count in enumerate(clients):
            steps = {}
            for load in loads:
                games = tables.get(load, [])
                offset = 0 if load == "fl-comment" else sum(clients[:position])
                steps[load] = steps_for(load, games[offset:], count, count)
            for load, result in measure(ports, steps, seconds).items():
                results[(load, count)] = result
                report(f"{kind:>10} {result.line()}")
        if kind == "sqlite" and "fl-comment" in loads and tables.get("fl-comment"):
            database = data / "delve.sqlite3"
            raw, made = raw_commit_loop(database, tables["fl-comment"][0].game)
            one = results.get(("fl-comment", 1))
            if one is not None and made:
                report(
                    f"{kind:>10} raw SQLite commit loop of the same rows: {raw:.0f} commits/s; durable commands/s "
                    f"at 1 client / raw {one.per_second / raw:.3f}"
                )
    return results


def _redis_answers(url: str) -> bool:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception:  # noqa: BLE001 - no Redis here: the processes then poll
        return False
    return True


def _per_window(result: Result, base: Result, counted: Callable[[tuple[float, int, int]], int]) -> list[float]:
    """The ratio of ``result`` to ``base`` in each round of windows (taken one after the other)."""
    spans = []
    for mine, theirs in zip(result.rounds, base.rounds, strict=False):
        if mine[0] and theirs[0] and theirs[1]:
            spans.append((counted(mine) / mine[0]) / (theirs[1] / theirs[0]))
    return spans


def ratios(kind: str, results: dict[tuple[str, int], Result], report: Callable[[str], None] = print) -> None:
    """Each durable load against ``noop`` at the same client count: its durable commands per
    second against the no-op's requests per second (the issue's target at 8 and 32 clients, said
    met or not), with the spread over the rounds of windows; for a play load also every request
    it sent (the look at the legal commands and the command) against the no-op's requests, a
    reading aid that is not the target."""
    for (load, count), result in sorted(results.items(), key=lambda item: (item[0][1], item[0][0])):
        base = results.get(("noop", count))
        if load == "noop" or base is None or not base.latencies or not result.latencies:
            continue
        throughput = result.per_second / base.per_second if base.per_second else float("nan")
        p99 = result.percentile(0.99) / base.percentile(0.99)
        spread = _per_window(result, base, lambda window: window[1])
        windows = f" (windows {min(spread):.2f}-{max(spread):.2f})" if len(spread) > 1 else ""
        aim = ""
        if count >= 8:
            met = "met" if throughput >= 0.5 and p99 <= 3.0 else "not met"
            aim = f" (targets: >= 0.50, p99 <= 3.0x: {met})"
        report(
            f"{kind:>10} ratio {load} / noop at {count:>2} clients: durable commands/s {throughput:.3f}{windows}, "
            f"p50 x{result.percentile(0.5) / base.percentile(0.5):.1f}, p99 x{p99:.1f}{aim}"
        )
        if result.plays and base.per_second:
            every = result.requests_per_second / base.per_second
            spread = _per_window(result, base, lambda window: window[2])
            windows = f" (windows {min(spread):.2f}-{max(spread):.2f})" if len(spread) > 1 else ""
            report(
                f"{kind:>10}   {load} at {count:>2} clients, all its requests (GET legal commands + POST command) "
                f"/ noop requests: {every:.2f}{windows} (not the target, which counts commands)"
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=8.0, help="per load and client count")
    parser.add_argument("--loads", default=",".join(LOADS))
    parser.add_argument("--processes", type=int, default=1, help="server processes (above 1: PostgreSQL only)")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    args = parser.parse_args(argv)
    clients = [int(n) for n in args.clients.split(",") if n.strip()]
    loads = [load for load in args.loads.split(",") if load.strip()]
    unknown = sorted(set(loads) - set(LOADS))
    if unknown:
        parser.error(f"unknown loads {', '.join(unknown)}; known: {', '.join(LOADS)}")
    if "noop" not in loads:
        loads.insert(0, "noop")
    failed = False
    for kind in [d.strip() for d in args.databases.split(",") if d.strip()]:
        if kind not in {"sqlite", "postgresql"}:
            parser.error(f"unknown database {kind!r}: sqlite or postgresql")
        results = run_database(
            kind,
            clients=clients,
            loads=loads,
            seconds=args.seconds,
            processes=args.processes,
            database_url=args.database_url,
            redis_url=args.redis_url,
        )
        ratios(kind, results)
        failed = failed or any(result.errors for result in results.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
