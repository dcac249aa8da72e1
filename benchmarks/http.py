"""Durable commands per second over HTTP against 1 and 2 server processes on PostgreSQL, with the
p50/p99 latency of a command and the ratio of the two, measured in one run (this machine is
shared and noisy: compare the ratio, not the seconds).

    .venv/bin/python benchmarks/http.py [--clients 32] [--seconds 15] [--processes 1,2]
        [--database-url postgres://root@127.0.0.1:5432/postgres] [--redis-url redis://127.0.0.1:6379/3]

Each configuration gets a fresh database (created beside the one named, dropped afterwards) with
one solo White Maiden game per client (no turn clock: a client always has something to play),
``delve serve --no-worker`` processes, one ``delve tick`` worker, and Redis for the live updates
when it answers. Each client plays its game through the JSON API (the legal commands, then one of
them with an idempotency key; the latency is the submission's), on the processes in turn
(client ``i`` on process ``i % N``, as a round-robin proxy would). A command counts once its
answer is 2xx: it is then committed (durable). Set ``DELVE_TEST_PORTS`` (e.g. 8650-8699) to
keep the servers in a port range.

As a module: :func:`measure` runs one configuration and returns a
:class:`Result`; :func:`compare` runs several and prints the table; :func:`main` is the command.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the path, and this file would be imported as
# the standard library's ``http``: take the folder off, put the repository root on.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import contextlib  # noqa: E402
import http.client  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections.abc import Iterator, Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from urllib.parse import urlsplit, urlunsplit  # noqa: E402

from tests.server.live import LiveServer, base_env  # noqa: E402
from tests.server.scale import REDIS_URL, Table, TickWorker, legal, redis_absent, seed_maiden  # noqa: E402

DEFAULT_DATABASE_URL = os.environ.get("DELVE_BENCH_DATABASE_URL", "postgres://root@127.0.0.1:5432/postgres")


@dataclass
class Result:
    """One configuration's run."""

    processes: int
    clients: int
    seconds: float
    latencies: list[float] = field(default_factory=list)  # of the submissions of acknowledged commands
    refused: int = 0  # 4xx answers (a stale choice, a game that ended)
    errors: list[str] = field(default_factory=list)  # 5xx answers and transport failures

    @property
    def commands(self) -> int:
        return len(self.latencies)

    @property
    def per_second(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0.0

    def line(self) -> str:
        return (
            f"{self.processes} process(es), {self.clients} clients: {self.commands} durable commands in "
            f"{self.seconds:.1f} s = {self.per_second:.1f}/s, p50 {self.percentile(0.5) * 1000:.0f} ms, "
            f"p99 {self.percentile(0.99) * 1000:.0f} ms, refused {self.refused}, errors {len(self.errors)}"
        )


@contextlib.contextmanager
def fresh_database(database_url: str) -> Iterator[str]:
    """A new PostgreSQL database beside the one ``database_url`` names (dropped afterwards)."""
    import psycopg

    parts = urlsplit(database_url)
    maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    name = f"delve_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(maintenance, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(maintenance, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _play(server: LiveServer, table: Table, pick: int, conn: http.client.HTTPConnection) -> tuple[int, object, float]:
    """The legal commands, then one of them submitted: the status, the answer and the seconds the
    submission took (status 0: the game has ended)."""
    seat, offered = legal(server, table, conn)
    if seat < 0:
        return 0, None, 0.0
    commands = offered["commands"]
    body = {
        "command": commands[pick % len(commands)],
        "choices": offered["choices"],
        "idempotency_key": f"bench-{uuid.uuid4().hex}",
    }
    started = time.monotonic()
    status, answer = server.request(
        "POST", f"/api/v1/games/{table.game}/commands", body, token=table.tokens[seat], connection=conn
    )
    return status, answer, time.monotonic() - started


def _client(server: LiveServer, table: Table, stop: threading.Event, result: Result, lock: threading.Lock) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    step = 0
    try:
        while not stop.is_set():
            step += 1
            try:
                status, answer, elapsed = _play(server, table, step, conn)
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    result.errors.append(f"{server.port}: {exc.__class__.__name__}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                continue
            with lock:
                if status == 0:  # the game has ended: nothing left to play
                    return
                if 200 <= status < 300:
                    result.latencies.append(elapsed)
                elif status >= 500:
                    result.errors.append(f"{status}: {str(answer)[:200]}")
                else:
                    result.refused += 1
    finally:
        conn.close()


def measure(
    processes: int,
    *,
    clients: int = 32,
    seconds: float = 15.0,
    database_url: str = DEFAULT_DATABASE_URL,
    log_dir: Path | None = None,
) -> Result:
    """Run one configuration (``processes`` server processes) on a fresh database."""
    with contextlib.ExitStack() as stack:
        logs = log_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="delve-bench-")))
        url = stack.enter_context(fresh_database(database_url))
        env = {**base_env(logs), "DATABASE_URL": url, "DELVE_DB_POOL_MAX": os.environ.get("DELVE_DB_POOL_MAX", "8")}
        if redis_absent() is None:
            env.update(REDIS_URL=REDIS_URL, DELVE_REDIS_PREFIX=f"delve-bench-{uuid.uuid4().hex[:8]}:")
        tables = seed_maiden(env, games=clients, seats=1, tag=f"b{processes}")
        servers = [LiveServer(env, logs, "--no-worker", name=f"server-{i}") for i in range(processes)]
        for server in servers:
            server.start()
            stack.callback(server.stop)
        worker = TickWorker(env, logs, "worker")
        stack.callback(worker.stop)
        worker.wait_ready()
        result = Result(processes=processes, clients=clients, seconds=0.0)
        lock = threading.Lock()
        stop = threading.Event()
        threads = [
            threading.Thread(target=_client, args=(servers[i % processes], table, stop, result, lock), daemon=True)
            for i, table in enumerate(tables)
        ]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        stop.wait(seconds)
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
        result.seconds = time.monotonic() - started
        return result


def compare(
    processes: Sequence[int] = (1, 2),
    *,
    clients: int = 32,
    seconds: float = 15.0,
    database_url: str = DEFAULT_DATABASE_URL,
) -> list[Result]:
    """Measure each configuration in turn and print the table and the ratios to the first."""
    results = []
    for count in processes:
        result = measure(count, clients=clients, seconds=seconds, database_url=database_url)
        print(result.line(), flush=True)
        results.append(result)
    base = results[0]
    for result in results[1:]:
        ratio = result.per_second / base.per_second if base.per_second else float("nan")
        p50 = result.percentile(0.5) / base.percentile(0.5) if base.latencies else float("nan")
        p99 = result.percentile(0.99) / base.percentile(0.99) if base.latencies else float("nan")
        print(
            f"ratio {result.processes} vs {base.processes} process(es): durable commands/s x{ratio:.2f}, "
            f"p50 x{p50:.2f}, p99 x{p99:.2f}",
            flush=True,
        )
    mean = statistics.fmean(r.per_second for r in results)
    print(f"(mean over configurations: {mean:.1f} commands/s; redis: {redis_absent() or 'yes'})", flush=True)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--processes", default="1,2", help="comma-separated process counts (default 1,2)")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.processes.split(",") if n.strip()]
    results = compare(counts, clients=args.clients, seconds=args.seconds, database_url=args.database_url)
    return 1 if any(r.errors for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
