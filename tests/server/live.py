"""The real server as its own process, for the load and durability tests.

    with live_database(tmp_path) as env:          # SQLite file, or a fresh PostgreSQL database
        players = seed_games(env, games=4)         # users, tokens, started Fated games
        with LiveServer(env, tmp_path) as server:  # ``delve serve`` on a free port of 8100-8199
            status, body = server.request("GET", "/healthz")
            server.kill()                          # SIGKILL
            server.start()                         # the same database, a new process

The database follows the test run: the SQLite pass gives the server a SQLite file in
``tmp_path``; the PostgreSQL pass gives it a database of its own beside the test database, dropped
afterwards. The setup script and the server are separate processes, exactly as in production.
"""

from __future__ import annotations

import contextlib
import fcntl
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest


def _ports() -> range:
    """The live servers' ports: 8100-8199, or ``DELVE_TEST_PORTS`` ("8650-8699") on a shared machine."""
    low, _, high = os.environ.get("DELVE_TEST_PORTS", "8100-8199").partition("-")
    return range(int(low), int(high or low) + 1)


PORTS = _ports()
#: The server dies with the test process, even when that is killed (a timeout, Ctrl-C twice).
ORPHAN_GUARD = ["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []
ROOT = Path(__file__).resolve().parents[2]


def vendor() -> str:
    """The database of this test run (``sqlite`` or ``postgresql``)."""
    from django.db import connection

    return str(connection.vendor)


sqlite_only = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="a SQLite-only test: it runs in the SQLite pass of scripts/test",
)


def base_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    # the checkout's own sources first (a virtualenv installed from another checkout must not win)
    env.update(DELVE_DATA_DIR=str(data_dir), PYTHONPATH=f"{ROOT / 'src'}{os.pathsep}{ROOT}", DELVE_LOG_LEVEL="WARNING")
    return env


def _postgres_url(name: str) -> str:
    from django.db import connection

    db = connection.settings_dict
    user = db["USER"] or "root"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


@contextlib.contextmanager
def live_database(tmp_path: Path, *, kind: str | None = None) -> Iterator[dict[str, str]]:
    """The environment of a server process with a database of its own (see the module doc)."""
    kind = kind or vendor()
    env = base_env(tmp_path)
    if kind == "sqlite":
        yield env
        return
    import psycopg
    from django.db import connection

    name = f"{connection.settings_dict['NAME']}_live_{uuid.uuid4().hex[:8]}"
    maintenance = _postgres_url("postgres").replace("postgres://", "postgresql://", 1)
    with psycopg.connect(maintenance, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    env["DATABASE_URL"] = _postgres_url(name)
    try:
        yield env
    finally:
        with psycopg.connect(maintenance, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


SEED_SCRIPT = """
import json, os, sys
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
django.setup()
from django.core import management
management.call_command("migrate", interactive=False, verbosity=0)
from django.contrib.auth import get_user_model
from delve.server.accounts.models import ApiToken
from delve.server.games import engine

games, seats, wait_time = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
users = get_user_model().objects
out = []
for g in range(games):
    game = engine.create_game("fated", "fated-labyrinth", {"players": seats, "maze_size": 9, "wait_time": wait_time})
    for s in range(seats):
        user = users.create_user(f"g{g}s{s}", password=None)
        engine.register(game.pk, user, f"P{s}", {})
        _, token = ApiToken.issue(user, "live")
        out.append({"game": game.pk, "user": user.username, "token": token})
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Player:
    game: int
    user: str
    token: str


def seed_games(env: dict[str, str], *, games: int, seats: int = 4, wait_time: int = 1) -> list[Player]:
    """Migrate the server's database and start ``games`` Fated Labyrinth games (one user with an
    API token per seat), in a process of its own."""
    result = subprocess.run(
        [sys.executable, "-c", SEED_SCRIPT, str(games), str(seats), str(wait_time)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return [Player(**row) for row in json.loads(result.stdout.strip().splitlines()[-1])]


def _port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


#: Claims on ports between the test processes (pytest-xdist workers, other test runs): a port is
#: claimed from the moment a server is chosen for it until that server stops, so a server still
#: starting up (``delve serve`` migrates before it binds) keeps its port. A free bind alone cannot
#: see that: two workers took the same port, one server failed to bind, and its test, finding the
#: other's ``/healthz`` answering, ran against the wrong server. A claim is an exclusive ``flock``
#: on a file per port, released by the kernel too when its process dies.
CLAIMS = Path(tempfile.gettempdir()) / "delve-test-ports"


def _claim(port: int) -> IO[str] | None:
    """An exclusive claim on ``port`` (the open lock file), or ``None`` if another process holds
    one or something else listens there."""
    CLAIMS.mkdir(exist_ok=True)
    handle = (CLAIMS / f"{port}.lock").open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    if not _port_is_free(port):
        _release(handle)
        return None
    return handle


def _release(handle: IO[str] | None) -> None:
    if handle is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def claim_port() -> tuple[int, IO[str]]:
    """A free port of ``PORTS``, claimed (random start, so parallel workers rarely try the same
    one first); release the claim with :func:`_release` once its server has stopped."""
    ports = list(PORTS)
    start = random.randrange(len(ports))
    for port in ports[start:] + ports[:start]:
        handle = _claim(port)
        if handle is not None:
            return port, handle
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


class LiveServer:
    """``delve serve`` (migrations, the in-process tick worker, uvicorn) as a subprocess."""

    def __init__(
        self, env: dict[str, str], log_dir: Path, *args: str, startup_timeout: float = 90, name: str = "server"
    ) -> None:
        self.env = env
        self.args = args
        self.log_path = log_dir / f"{name}.log"
        self.startup_timeout = startup_timeout
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        #: the claim on ``port``, held from the first start until :meth:`stop` (a kill and a new
        #: start keep it, so clients reconnect to the same port)
        self._claim: IO[str] | None = None

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server on a free port and wait until ``/healthz`` answers 200."""
        assert self.process is None, "already running"
        for attempt in range(5):
            # A restart keeps its port (and its claim) when it can, so clients simply reconnect.
            if not (attempt == 0 and self._claim is not None and _port_is_free(self.port)):
                _release(self._claim)
                self._claim = None
                self.port, self._claim = claim_port()
            with self.log_path.open("ab") as log:
                log.write(f"--- start {self.starts + 1} on port {self.port}\n".encode())
                log.flush()
                self.process = subprocess.Popen(
                    [*ORPHAN_GUARD, sys.executable, "-m", "delve.cli", "serve", "--port", str(self.port), *self.args],
                    env=self.env,
                    cwd=ROOT,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            if self._wait_healthy():
                self.starts += 1
                return
            self._reap(signal.SIGKILL)  # the port was taken meanwhile, or it failed: look again
        _release(self._claim)
        self._claim = None
        raise AssertionError(f"the server did not start; its log ends with:\n{self.log_tail()}")

    def _wait_healthy(self) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            with contextlib.suppress(OSError, http.client.HTTPException):
                status, _ = self.request("GET", "/healthz", timeout=2)
                if status == 200:
                    return True
            time.sleep(0.1)
        return False

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, exactly like a crash or the OOM killer."""
        self._reap(signal.SIGKILL)

    def stop(self) -> None:
        self._reap(signal.SIGTERM)
        _release(self._claim)
        self._claim = None

    def _reap(self, sig: signal.Signals) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return "(no log)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        timeout: float = 60,
        connection: http.client.HTTPConnection | None = None,
    ) -> tuple[int, Any]:
        """One HTTP request; the status and the decoded JSON body (or the text)."""
        conn = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Accept": "application/json"}
        data = None
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            if connection is None:
                conn.close()
        text = raw.decode(errors="replace")
        try:
            return response.status, json.loads(text) if text else None
        except ValueError:
            return response.status, text


def command_log(env: dict[str, str]) -> dict[str, Any]:
    """Read the server's database from a process of its own: every game's command log (with
    idempotency keys) and whether the game replays to its stored state."""
    result = subprocess.run(
        [sys.executable, "-c", AUDIT_SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    audit: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return audit


AUDIT_SCRIPT = """
import json, os
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
django.setup()
from delve.kernel import replay, state_hash
from delve.server.games import engine
from delve.server.games.models import Game

out = {"keys": [], "games": {}}
for game in Game.objects.exclude(started_at=None).order_by("pk"):
    ruleset = engine.ruleset_of(game)
    seats = engine.seat_infos(list(game.seats.order_by("index")))
    log = []
    versions = []
    for entry in game.commands.order_by("sequence"):
        versions.append(entry.sequence)
        log.append((entry.time, None, None))
        if entry.command is not None:
            log.append((entry.time, entry.seat, entry.command))
        if entry.idempotency_key:
            out["keys"].append([game.pk, entry.seat, entry.idempotency_key, entry.sequence])
    replayed, _ = replay(ruleset, game.settings, game.seed, log, seats=seats, start=game.started_at)
    out["games"][str(game.pk)] = {
        "version": game.version,
        "commands": len(versions),
        "sequences_ok": versions == list(range(2, game.version + 1)),
        "replays": state_hash(ruleset, replayed) == state_hash(ruleset, engine.load_state(game)),
    }
print(json.dumps(out))
"""


# --- players ---------------------------------------------------------------------------------

#: Commands the players never choose: giving up ends a seat, a comment is limited to one a minute.
AVOID = {"give_up", "comment"}


@dataclass
class Tally:
    """What a driven run saw: answers by status, acknowledged commands, failures."""

    statuses: dict[int, int]
    acknowledged: list[tuple[int, str, int]]  # (game, idempotency key, sequence) of every 2xx command
    server_errors: list[str]  # 5xx answers and health failures, with a short description
    transport_errors: int  # connections refused or cut (expected only while the server is down)
    latencies: list[tuple[str, float]]  # (what, seconds)

    @classmethod
    def empty(cls) -> Tally:
        return cls({}, [], [], 0, [])

    def add(self, other: Tally) -> None:
        for status, count in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + count
        self.acknowledged += other.acknowledged
        self.server_errors += other.server_errors
        self.transport_errors += other.transport_errors
        self.latencies += other.latencies

    def p99(self, what: str | None = None) -> float:
        ordered = sorted(seconds for kind, seconds in self.latencies if what is None or kind == what)
        return ordered[int(len(ordered) * 0.99)] if ordered else 0.0

    def summary(self) -> str:
        kinds = sorted({kind for kind, _ in self.latencies})
        return (
            f"requests={sum(self.statuses.values())} statuses={dict(sorted(self.statuses.items()))} "
            f"acknowledged={len(self.acknowledged)} server_errors={len(self.server_errors)} "
            f"transport_errors={self.transport_errors} p99={self.p99():.3f}s "
            + " ".join(f"p99[{kind}]={self.p99(kind):.3f}s" for kind in kinds)
        )


def play(
    server: LiveServer,
    player: Player,
    rng: random.Random,
    stop: Any,
    tally: Tally,
    *,
    health: bool,
    think: tuple[float, float] = (0.0, 0.0),
) -> None:
    """One client until ``stop`` is set: looks at the game, its legal commands, submits one of them
    with an idempotency key (and the choices digest it decided on), sometimes checks /healthz,
    then thinks for a moment (``think``: seconds, uniform). Every answer is counted; a 2xx command
    answer is remembered as acknowledged."""
    conn: http.client.HTTPConnection | None = None
    step = 0
    while not stop.is_set():
        step += 1
        if step > 1 and think[1] > 0:
            stop.wait(rng.uniform(*think))
        try:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            if health and step % 4 == 1:
                status, body = _timed(tally, server, conn, "GET", "/healthz", None, None)
                if status != 200:
                    tally.server_errors.append(f"/healthz {status}: {str(body)[:200]}")
            view_path = f"/api/v1/games/{player.game}" if step % 3 else f"/games/{player.game}/"
            _timed(tally, server, conn, "GET", view_path, None, player.token)
            status, legal = _timed(
                tally, server, conn, "GET", f"/api/v1/games/{player.game}/commands", None, player.token
            )
            if status != 200 or not isinstance(legal, dict):
                continue
            choices = [c for c in legal["commands"] if c["kind"] not in AVOID]
            if not choices:
                stop.wait(0.2)  # no turn yet: turns accumulate on the game's clock
                continue
            key = f"{player.user}-{step}-{rng.randrange(10**9)}"
            body = {"command": rng.choice(choices), "choices": legal["choices"], "idempotency_key": key}
            status, answer = _timed(
                tally, server, conn, "POST", f"/api/v1/games/{player.game}/commands", body, player.token
            )
            if 200 <= status < 300 and isinstance(answer, dict):
                tally.acknowledged.append((player.game, key, int(answer["sequence"])))
        except (OSError, http.client.HTTPException):
            tally.transport_errors += 1
            if conn is not None:
                conn.close()
            conn = None
            stop.wait(0.2)  # the server is down (or restarting): try again shortly
    if conn is not None:
        conn.close()


def _timed(
    tally: Tally,
    server: LiveServer,
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    body: Any,
    token: str | None,
) -> tuple[int, Any]:
    started = time.monotonic()
    status, answer = server.request(method, path, body, token=token, connection=conn)
    what = "healthz" if path == "/healthz" else f"{method} {path.rstrip('/').rsplit('/', 1)[-1]}"
    tally.latencies.append((what if not what[-1].isdigit() else f"{method} view", time.monotonic() - started))
    tally.statuses[status] = tally.statuses.get(status, 0) + 1
    if status >= 500:
        tally.server_errors.append(f"{method} {path} {status}: {str(answer)[:200]}")
    return status, answer


def drive(
    server: LiveServer,
    players: list[Player],
    *,
    seconds: float,
    seed: int,
    health: bool = True,
    think: tuple[float, float] = (0.0, 0.0),
    during: Any = None,
) -> Tally:
    """Run one client thread per player for ``seconds`` (``during(stop, tallies)``, when given,
    runs in the calling thread meanwhile, may watch the clients' tallies, and ends the run when
    it returns); the merged tally."""
    import threading

    stop = threading.Event()
    tallies = [Tally.empty() for _ in players]
    threads = [
        threading.Thread(
            target=play,
            args=(server, player, random.Random(f"{seed}-{i}"), stop, tallies[i]),
            kwargs={"health": health, "think": think},
            daemon=True,
        )
        for i, player in enumerate(players)
    ]
    for thread in threads:
        thread.start()
    try:
        if during is not None:
            during(stop, tallies)
        else:
            stop.wait(seconds)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a client thread did not finish"
    total = Tally.empty()
    for tally in tallies:
        total.add(tally)
    return total


def report(line: str) -> None:
    """Print a run's numbers and keep them in test-artifacts/live-runs.txt (xdist hides prints)."""
    print(line)
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    with (artifacts / "live-runs.txt").open("a", encoding="utf-8") as out:
        out.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {vendor()} {line}\n")


def lost_commands(acknowledged: list[tuple[int, str, int]], audit: dict[str, Any]) -> list[tuple[int, str, int]]:
    """Acknowledged commands missing from the log (or logged with another sequence)."""
    logged = {(game, key): sequence for game, _seat, key, sequence in audit["keys"]}
    return [(game, key, seq) for game, key, seq in acknowledged if logged.get((game, key)) != seq]
