"""Many games, one row each: :func:`run` plays game specs on local processes or a Dask
distributed cluster, shows progress, writes each finished game to ``DIR/results.csv`` at once
and, run again on the same directory, plays only the games that are not there yet.

Every game is independent and deterministic (its seed, its bots, its settings), so the rows do
not depend on where or in which order games were played; only ``seconds`` (wall time) differs.
"""

from __future__ import annotations

import importlib
import itertools
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from delve.sim.games import player
from delve.sim.spec import GameSpec, SpecError
from delve.sim.store import KEY, ResultStore

Row = dict[str, Any]
#: Games per Dask task: enough to make the task overhead small, few enough to spread the work.
DASK_BATCH = 4
#: How long to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = "10s"


class SimulationError(RuntimeError):
    """A run that cannot start (a bad scheduler address, no simulation for a game...)."""


def check(specs: Sequence[GameSpec]) -> None:
    """Check every spec before anything is played: the game has a simulation, its bots are
    known (:func:`delve.bots.named`) and, when the game's module has a ``check(spec)``, the spec
    passes it.

    :raises SpecError: for a spec a game refuses (bots, preset, settings).
    :raises delve.sim.games.NoSimulation: for a game without a simulation module.
    """
    from delve.bots import REGISTRY, UnknownBot, named

    seen: set[tuple[Any, ...]] = set()
    for spec in specs:
        shape = (spec.game, spec.preset, spec.bots, spec.settings)
        if shape in seen:
            continue
        seen.add(shape)
        player(spec.game)
        for name in dict.fromkeys(spec.bots) if spec.game in REGISTRY else ():
            try:
                named(spec.game, name)
            except UnknownBot as exc:
                raise SpecError("bots", str(exc)) from None
        checker = getattr(importlib.import_module(f"delve.sim.games.{spec.game}"), "check", None)
        if checker is not None:
            checker(spec)


def play_one(spec: GameSpec) -> tuple[str, Row]:
    """Play one game; a game that fails gets a row with outcome ``error`` and the error text
    (a spec the game refuses raises :class:`SpecError` instead: it would fail every game)."""
    started = time.perf_counter()
    try:
        row = player(spec.game)(spec)
    except SpecError:
        raise
    except Exception as exc:  # noqa: BLE001 (the failure is recorded with its game, not hidden)
        last = traceback.extract_tb(exc.__traceback__)[-1]
        row = {
            **spec.common(),
            "winner": "",
            "outcome": "error",
            "turns": 0,
            "commands": 0,
            "seconds": round(time.perf_counter() - started, 4),
            "error": f"{type(exc).__name__}: {exc} ({Path(last.filename).name}:{last.lineno})",
        }
    row[KEY] = spec.key()
    return spec.key(), row


def play_batch(specs: Sequence[GameSpec]) -> list[tuple[str, Row]]:
    return [play_one(spec) for spec in specs]


# ---------------------------------------------------------------------- progress


#: Games a run plays before its progress bar gives an ETA ("ETA estimating..." until then): the
#: first games finish early (a pool's first results, short games) and would promise far too little.
ESTIMATE_AFTER = 10


class Progress:
    """A one-line progress bar on stderr: games done, games/s over this run and the ETA, measured
    on the games played in this run once ``estimate_after`` of them are done (before that the ETA
    says "estimating...")."""

    def __init__(
        self,
        total: int,
        done: int = 0,
        *,
        stream: IO[str] | None = None,
        enabled: bool = True,
        estimate_after: int = ESTIMATE_AFTER,
    ) -> None:
        self.total = total
        self.done = done
        self.resumed = done
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.estimate_after = estimate_after
        self.started = time.monotonic()
        self.shown = 0.0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.lock = threading.Lock()

    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        played = self.done - self.resumed
        return played / elapsed if elapsed > 0 else 0.0

    def skip(self, count: int = 1) -> None:
        """``count`` games found done already (resumed): counted, not shown, not in the rate (a
        pool's task thread may call it while the results are counted: the counts are locked)."""
        with self.lock:
            self.done += count
            self.resumed += count

    def show(self) -> None:
        """Write the line now (the first line of a run, before any game has finished)."""
        if self.enabled:
            self.shown = time.monotonic()
            self.stream.write(("\r" + self.line() + "\x1b[K") if self.tty else self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        rate = self.rate()
        left = self.total - self.done
        played = self.done - self.resumed
        if left <= 0:
            eta = "0m00s"
        elif played < min(self.estimate_after, self.total - self.resumed) or rate <= 0:
            eta = "estimating..."
        else:
            eta = _duration(left / rate)
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        share = 100 * self.done / self.total if self.total else 100.0
        resumed = f" ({self.resumed} resumed)" if self.resumed else ""
        return (
            f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {share:5.1f}%{resumed}"
            f"  {rate:.2f} games/s  ETA {eta}"
        )

    def advance(self, count: int = 1) -> None:
        with self.lock:
            self.done += count
        now = time.monotonic()
        if not self.enabled:
            return
        if self.done < self.total and now - self.shown >= (0.2 if self.tty else 10.0):
            self.show()

    def close(self) -> None:
        if self.enabled:
            elapsed = _duration(time.monotonic() - self.started)
            self.stream.write(("\r" if self.tty else "") + self.line().split("  ETA")[0] + f"  in {elapsed}\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


# ---------------------------------------------------------------------- backends


def _worker_start() -> None:
    """A worker process leaves Ctrl-C to the parent (which stops the pool) and dies quietly when
    the pool is terminated."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _local(specs: Iterable[GameSpec], jobs: int, size: int) -> Iterator[tuple[str, Row]]:
    """``size``: how many specs there are (the pool has no more processes than games)."""
    if jobs <= 1 or size <= 1:
        for spec in specs:
            yield play_one(spec)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(min(jobs, size), initializer=_worker_start) as pool:
        yield from pool.imap_unordered(play_one, specs, chunksize=1)


def _dask(specs: Iterable[GameSpec], scheduler: Any) -> Iterator[tuple[str, Row]]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover (a runtime dependency)
        raise SimulationError(f"--scheduler needs dask distributed: {exc}") from None
    own = not hasattr(scheduler, "submit")
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT) if own else scheduler  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimulationError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}") from None
    try:
        todo = iter(specs)
        batches = list(iter(lambda: list(itertools.islice(todo, DASK_BATCH)), []))
        futures = client.map(play_batch, batches, pure=False)
        try:
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield from future.result()
        finally:
            client.cancel(futures)
    finally:
        if own:
            client.close()


# ---------------------------------------------------------------------- run


def run(
    specs: Iterable[GameSpec],
    *,
    jobs: int = 1,
    scheduler: str | Any | None = None,
    out: Path | None = None,
    progress: bool = True,
    stream: IO[str] | None = None,
    total: int | None = None,
    estimate_after: int = ESTIMATE_AFTER,
) -> list[Row]:
    """Play every spec and return one row per spec, in the order of ``specs``.

    ``jobs``: local worker processes (1: in this process). ``scheduler``: a Dask scheduler
    address (``tcp://HOST:PORT``), a ``LocalCluster`` or a ``Client`` (then ``jobs`` is not used).
    ``out``: a directory; each finished game is appended to ``out/results.csv`` at once, and the
    games already there (same :meth:`GameSpec.key`) are read back instead of played again.

    ``total``: how many distinct games ``specs`` holds, when it is an iterator made as it is
    read (:func:`delve.maiden.lab.games.iter_specs`): the specs are then taken one at a time
    while the games are played, the progress line shows at once, and each spec is checked
    (:func:`check`) just before it is first played: check a sample of every kind of spec first
    when nothing may be played before a bad one is found. Without ``total`` every spec is
    checked before anything is played. ``estimate_after``: games played before the progress
    line gives an ETA.

    :raises SpecError: for a spec its game refuses (nothing is played).
    :raises SimulationError: when the scheduler cannot be reached.
    """
    if jobs < 1:
        raise SpecError("jobs", f"{jobs} is below 1")
    store = ResultStore(out) if out is not None else None
    rows: dict[str, Row] = store.load() if store is not None else {}
    order: list[str] = []
    if total is None:
        specs = list(specs)
        check(specs)
        wanted = {spec.key(): spec for spec in specs}
        order = [spec.key() for spec in specs]
        todo_list = [spec for key, spec in wanted.items() if key not in rows]
        bar = Progress(
            len(wanted), len(wanted) - len(todo_list), stream=stream, enabled=progress, estimate_after=estimate_after
        )
        todo: Iterable[GameSpec] = todo_list
        size = len(todo_list)
        if size:
            bar.show()
    else:
        bar = Progress(total, stream=stream, enabled=progress, estimate_after=estimate_after)
        todo = _streamed(specs, rows, order, bar)
        size = total
        bar.show()
    results = _dask(todo, scheduler) if scheduler is not None else _local(todo, jobs, size)
    try:
        for key, row in results:
            rows[key] = row
            if store is not None:
                store.append(row)
            bar.advance()
    finally:
        if store is not None:
            store.close()
        if bar.done > bar.resumed or (total is not None and bar.done):
            bar.close()  # a streamed run closes its line even when every game was resumed
    return [rows[key] for key in order]


def _streamed(specs: Iterable[GameSpec], rows: dict[str, Row], order: list[str], bar: Progress) -> Iterator[GameSpec]:
    """The specs of ``specs`` still to play, taken one at a time: each key is noted in ``order``,
    a game already in ``rows`` is counted as resumed, a spec seen before is played once and each
    new kind of spec is checked before its first game."""
    seen: set[str] = set()
    shapes: set[tuple[Any, ...]] = set()
    for spec in specs:
        key = spec.key()
        order.append(key)
        if key in seen:
            continue
        seen.add(key)
        if key in rows:
            bar.skip()
            continue
        shape = (spec.game, spec.preset, spec.bots, spec.settings)
        if shape not in shapes:
            check([spec])
            shapes.add(shape)
        yield spec
