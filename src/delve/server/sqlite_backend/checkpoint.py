"""WAL checkpoints of the SQLite database in a background thread, off the command path.

In WAL mode a commit appends the changed pages to the ``-wal`` file; a *checkpoint* copies them
back into the database file and syncs both. By default SQLite runs one at the end of the commit
that takes the log past 1000 pages, in the committing thread: on a server that is one command
in a few hundred paying for the copy and two syncs (measured on this project's machines: a
median commit of some 60 us, and now and then one of 10 to 180 ms), while it holds the writer
lock, so the commands queued behind it wait too.

:func:`start` runs a :class:`Checkpointer` instead (``delve serve`` on SQLite): a daemon thread
with a connection of its own that, every :data:`INTERVAL` seconds, runs a ``PASSIVE``
checkpoint, which copies what is committed without taking the writer's lock or waiting for
anyone, and is nearly free when there is nothing new. The server's connections keep SQLite's
own checkpoint at the end of a commit only as a backstop, at :data:`BACKSTOP_PAGES` (see
``delve.server.env.sqlite_database``): a log that grows while no checkpointer runs (a
management command, a test, a script), or one the checkpointer cannot make restart (a log is
written again from its start only once a checkpoint has copied all of it: under sustained
writes that may take a quiet moment), is still checkpointed and bounded.

A checkpoint changes nothing of what is committed or how durable it is: a commit is in the log
before it is acknowledged, and synced to the disk with it (``synchronous=FULL``; with
``DELVE_SQLITE_SYNC=normal`` the log is synced at checkpoints, see ``delve.server.env``).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("delve.sqlite")

#: Seconds between two checkpoints of the background thread.
INTERVAL = 0.5
#: The log size, in pages, past which a committing connection checkpoints by itself (SQLite's
#: ``wal_autocheckpoint``; its default is 1000). With the checkpointer running, a log reaches it
#: only under writes sustained without a pause for long enough to fill it (16 MB of 4 KB pages).
BACKSTOP_PAGES = 4000


@dataclass
class Pass:
    """What one checkpoint found: whether another checkpoint was under way (``busy``), the pages
    in the log and how many of them are copied into the database file now."""

    busy: bool
    log_pages: int
    copied: int


class Checkpointer:
    """Checkpoints of one SQLite database file (see the module docstring)."""

    def __init__(self, path: str | Path, *, interval: float = INTERVAL) -> None:
        self.path = str(path)
        self.interval = interval
        self._connection: sqlite3.Connection | None = None

    def checkpoint(self) -> Pass:
        """One ``PASSIVE`` checkpoint (opening the connection at first use)."""
        if self._connection is None:  # autocommit: a checkpoint runs outside any transaction
            self._connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._connection.execute("PRAGMA busy_timeout=1000")
        busy, log_pages, copied = self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return Pass(busy=bool(busy), log_pages=log_pages, copied=copied)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def run(self, stop: threading.Event) -> None:
        """Checkpoint every ``interval`` seconds until ``stop`` is set. A failed checkpoint (the
        file gone, the disk full) is logged and tried again at the next pass: the commits go on
        meanwhile, and the backstop keeps the log bounded."""
        try:
            while not stop.wait(self.interval):
                try:
                    self.checkpoint()
                except sqlite3.Error as exc:
                    log.warning("WAL checkpoint of %s failed: %s (retrying)", self.path, exc)
                    self.close()
        finally:
            self.close()


def start(path: str | Path, *, interval: float = INTERVAL) -> Callable[[], None]:
    """Run a :class:`Checkpointer` of ``path`` in a daemon thread; returns a function that stops
    it (after a last checkpoint, so that the log a stopped server leaves behind is copied)."""
    checkpointer = Checkpointer(path, interval=interval)
    stop = threading.Event()
    thread = threading.Thread(target=checkpointer.run, args=(stop,), name="delve-checkpoint", daemon=True)
    thread.start()

    def shutdown() -> None:
        stop.set()
        thread.join(timeout=30)
        try:
            checkpointer.checkpoint()
        except sqlite3.Error as exc:
            log.warning("last WAL checkpoint of %s failed: %s", path, exc)
        finally:
            checkpointer.close()

    return shutdown


def start_for_default_database() -> Callable[[], None] | None:
    """:func:`start` for the default database when it is SQLite on a file (``None`` otherwise:
    PostgreSQL checkpoints by itself, an in-memory database has no log)."""
    from django.db import connections

    settings = connections["default"].settings_dict
    if settings["ENGINE"] != "delve.server.sqlite_backend":
        return None
    name = str(settings["NAME"])
    if name == ":memory:" or name.startswith("file:"):
        return None
    return start(name)
