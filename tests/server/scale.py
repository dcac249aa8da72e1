"""Helpers of the multi-process tests (test_scale.py): Redis for the live updates, tick workers
as processes, White Maiden games to play over HTTP, and a client of a game's event stream that
fails over to another server process the way a reverse proxy does.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.server.live import ORPHAN_GUARD, ROOT, LiveServer

#: Redis of the tests (db 3 of the machine's Redis unless told otherwise).
REDIS_URL = os.environ.get("DELVE_TEST_REDIS_URL", "redis://127.0.0.1:6379/3")


def redis_absent() -> str | None:
    """Why Redis cannot be used (None: it answers)."""
    try:
        import redis
    except ImportError:
        return "the redis package is not installed"
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except (redis.RedisError, OSError) as exc:
        return f"Redis does not answer at {REDIS_URL} ({exc.__class__.__name__}); set DELVE_TEST_REDIS_URL"
    return None


@contextlib.contextmanager
def with_redis(env: dict[str, str]) -> Iterator[dict[str, str]]:
    """The server environment with REDIS_URL and a key prefix of its own."""
    yield {**env, "REDIS_URL": REDIS_URL, "DELVE_REDIS_PREFIX": f"delve-test-{uuid.uuid4().hex[:8]}:"}


MAIDEN_SEED = """
import json, os, sys
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
django.setup()
from django.core import management
management.call_command("migrate", interactive=False, verbosity=0)
from django.contrib.auth import get_user_model
from delve.server.accounts.models import ApiToken
from delve.server.games import engine

games, seats, tag = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
users = get_user_model().objects
out = []
for g in range(games):
    game = engine.create_game("maiden", "white-maiden", {"players": seats, "start_player": 0})
    tokens = []
    for s in range(seats):
        user = users.create_user(f"m{tag}g{g}s{s}", password=None)
        engine.register(game.pk, user, f"M{s}", {})
        tokens.append(ApiToken.issue(user, "live")[1])
    out.append({"game": game.pk, "tokens": tokens})
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Table:
    """A White Maiden game and the API tokens of its seats (seat order)."""

    game: int
    tokens: tuple[str, ...]


def seed_maiden(env: dict[str, str], *, games: int, seats: int = 2, tag: str = "") -> list[Table]:
    """Start ``games`` White Maiden games (one user with an API token per seat), in a process of
    its own (it migrates first)."""
    result = subprocess.run(
        [sys.executable, "-c", MAIDEN_SEED, str(games), str(seats), tag or uuid.uuid4().hex[:6]],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = json.loads(result.stdout.strip().splitlines()[-1])
    return [Table(row["game"], tuple(row["tokens"])) for row in rows]


class TickWorker:
    """``delve tick`` as a process of its own."""

    def __init__(self, env: dict[str, str], log_dir: Path, name: str, interval: float = 0.2) -> None:
        self.log_path = log_dir / f"{name}.log"
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [*ORPHAN_GUARD, sys.executable, "-m", "delve.cli", "tick", "--interval", str(interval)],
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if " ready" in self.log_path.read_text(errors="replace"):
                return
            assert self.process.poll() is None, self.log_path.read_text(errors="replace")[-2000:]
            time.sleep(0.1)
        raise AssertionError(f"the tick worker did not start: {self.log_path.read_text(errors='replace')[-2000:]}")

    def stop(self) -> int:
        """SIGTERM; the number of advances it reports."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=60)
        text = self.log_path.read_text(errors="replace")
        for line in reversed(text.splitlines()):
            if " stopped after " in line:
                return int(line.split(" stopped after ")[1].split()[0])
        raise AssertionError(f"the worker said nothing on stopping: {text[-2000:]}")


@dataclass
class Viewer:
    """A client of one game's event stream (``/games/<id>/live/``) that, when its stream breaks,
    connects to the next server of ``servers`` (as a reverse proxy fails over). It keeps the
    times of the notices it received, and the ports it was connected to."""

    servers: Sequence[LiveServer]
    game: int
    token: str | None = None
    notices: list[float] = field(default_factory=list)
    connections: list[int] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    errors: list[str] = field(default_factory=list)
    _thread: threading.Thread | None = None
    _conn: http.client.HTTPConnection | None = None

    def start(self) -> Viewer:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self.stop.set()
        if self._conn is not None and self._conn.sock is not None:
            with contextlib.suppress(OSError):
                self._conn.sock.shutdown(2)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def notices_after(self, moment: float) -> list[float]:
        return [t for t in list(self.notices) if t >= moment]

    def _run(self) -> None:
        index = 0
        while not self.stop.is_set():
            server = self.servers[index % len(self.servers)]
            try:
                self._follow(server)
            except (OSError, http.client.HTTPException) as exc:
                if not self.stop.is_set():
                    self.errors.append(f"{server.port}: {exc.__class__.__name__}")
            if self.stop.is_set():
                return
            self.ready.clear()
            if server.process is None or server.process.poll() is not None:
                index += 1  # that process is gone: the next one
            time.sleep(0.2)

    def _follow(self, server: LiveServer) -> None:
        self._conn = conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        headers = {"Accept": "text/event-stream"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        conn.request("GET", f"/games/{self.game}/live/", headers=headers)
        response = conn.getresponse()
        if response.status != 200:
            self.errors.append(f"{server.port}: status {response.status}")
            response.read()
            conn.close()
            time.sleep(0.5)
            return
        self.connections.append(server.port)
        event = ""
        try:
            while not self.stop.is_set():
                line = response.fp.readline()
                if not line:
                    return  # the stream ended (or the process died)
                text = line.decode().rstrip("\r\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text == "" and event:
                    if event == "ready":
                        self.ready.set()
                    elif event == "changed":
                        self.notices.append(time.monotonic())
                    event = ""
        finally:
            conn.close()


def legal(server: LiveServer, table: Table, conn: http.client.HTTPConnection | None = None) -> tuple[int, dict]:
    """The seat whose turn it is and its legal commands (the first seat with any)."""
    for seat, token in enumerate(table.tokens):
        status, body = server.request("GET", f"/api/v1/games/{table.game}/commands", token=token, connection=conn)
        if status == 200 and isinstance(body, dict) and body.get("commands"):
            return seat, body
    return -1, {}


def play_one(
    server: LiveServer, table: Table, pick: int, conn: http.client.HTTPConnection | None = None
) -> tuple[int, dict | str | None]:
    """Submit one legal command of the seat whose turn it is (the ``pick``-th, wrapping); the
    status and the answer (status 0: nothing to play)."""
    seat, offered = legal(server, table, conn)
    if seat < 0:
        return 0, None
    commands = offered["commands"]
    body = {
        "command": commands[pick % len(commands)],
        "choices": offered["choices"],
        "idempotency_key": f"scale-{uuid.uuid4().hex}",
    }
    return server.request(
        "POST", f"/api/v1/games/{table.game}/commands", body, token=table.tokens[seat], connection=conn
    )


AUDIT_SCRIPT = """
import json, os
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
django.setup()
from delve.kernel import replay, state_hash
from delve.server.games import engine
from delve.server.games.models import Game

out = {}
for game in Game.objects.exclude(started_at=None).order_by("pk"):
    ruleset = engine.ruleset_of(game)
    seats = engine.seat_infos(list(game.seats.order_by("index")))
    state = ruleset.setup(game.settings, seats, game.seed, game.started_at)
    ticks = 0
    not_due = []
    for entry in game.commands.order_by("sequence"):
        if entry.source == "clock":
            ticks += 1
            due = ruleset.next_due(state)
            if due is None or due > entry.time:
                not_due.append(entry.sequence)
            ruleset.advance(state, entry.time)
        elif entry.source == "close":  # an operator closed the game (games.engine.close)
            ruleset.advance(state, entry.time)
            ruleset.close(state, entry.time)
        else:
            ruleset.advance(state, entry.time)
            if entry.command is not None:
                ruleset.apply(state, entry.seat, entry.command, entry.time)
    out[str(game.pk)] = {
        "ruleset": game.ruleset,
        "version": game.version,
        "commands": game.commands.count(),
        "ticks": ticks,
        "ticked_when_not_due": not_due,
        "replays": state_hash(ruleset, state) == state_hash(ruleset, engine.load_state(game)),
        "sequences_ok": list(game.commands.order_by("sequence").values_list("sequence", flat=True))
        == list(range(2, game.version + 1)),
    }
print(json.dumps(out))
"""


def audit(env: dict[str, str]) -> dict[str, dict]:
    """Every started game of the server's database, from a process of its own: replayed entry by
    entry from its log (does it reach the stored state?), its clock advances counted, and any
    advance made when the game was not due (a second tick of the same moment) listed."""
    result = subprocess.run(
        [sys.executable, "-c", AUDIT_SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out: dict[str, dict] = json.loads(result.stdout.strip().splitlines()[-1])
    return out
