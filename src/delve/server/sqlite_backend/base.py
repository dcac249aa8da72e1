"""Django's SQLite backend, with writers queueing fairly on one lock per process.

SQLite lets one writer at a time hold the database; the others wait in SQLite's busy handler,
which sleeps and retries. Under load that is unfair: a waiting writer can keep losing to newer
ones until its busy timeout runs out ("database is locked"), while the lucky ones go first.

Here every write transaction (Django's ``atomic``, which starts ``BEGIN IMMEDIATE``) and every
write statement outside a transaction first takes :data:`WRITER`, a first-come first-served
lock shared by all threads of the process, and gives it back at commit, rollback or close. The
threads of one server process therefore queue in arrival order and meet SQLite's own lock only
when another process writes too (which ``delve serve`` does not allow on SQLite, see the
operators' guide). Reads never wait: the WAL journal lets them run beside the writer.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

WRITE_STATEMENTS = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER"})


class FairLock:
    """A lock granted in the order it was asked for (a plain ``threading.Lock`` promises no
    order). ``acquire`` gives up after ``timeout`` seconds and says so."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiters: deque[threading.Event] = deque()
        self._held = False

    def acquire(self, timeout: float) -> bool:
        with self._mutex:
            if not self._held and not self._waiters:
                self._held = True
                return True
            turn = threading.Event()
            self._waiters.append(turn)
        if turn.wait(timeout):
            return True
        with self._mutex:
            if turn.is_set():  # handed over just as the wait ran out
                return True
            self._waiters.remove(turn)
            return False

    def release(self) -> None:
        with self._mutex:
            if self._waiters:
                self._waiters.popleft().set()  # handed straight to the next in line: still held
            else:
                self._held = False

    @property
    def queued(self) -> int:
        return len(self._waiters)


#: The writer lock of this process (every connection to every SQLite database shares it).
WRITER = FairLock()


class WriterBusy(OperationalError):
    """The writer lock was not free within the busy timeout: Django's ``OperationalError``,
    like SQLite's own "database is locked"."""


def _is_write(sql: str) -> bool:
    return sql.lstrip()[:7].split(None, 1)[0].upper() in WRITE_STATEMENTS if sql.strip() else False


class DatabaseWrapper(base.DatabaseWrapper):
    """SQLite with :data:`WRITER` taken around every write transaction."""

    holds_writer = False

    def busy_timeout(self) -> float:
        return float(self.settings_dict.get("OPTIONS", {}).get("timeout", 20))

    def take_writer(self) -> None:
        if self.holds_writer:
            return
        started = time.monotonic()
        if not WRITER.acquire(self.busy_timeout()):
            waited = time.monotonic() - started
            raise WriterBusy(f"database is busy: waited {waited:.1f} s for the writer lock ({WRITER.queued} queued)")
        self.holds_writer = True

    def give_writer(self) -> None:
        if self.holds_writer:
            self.holds_writer = False
            WRITER.release()

    def _start_transaction_under_autocommit(self) -> None:
        """Take the writer lock, then ``BEGIN`` (``IMMEDIATE`` as configured). Unless statements
        are being logged or wrapped (``DEBUG``, a test's query capture), ``BEGIN`` goes straight
        to the driver's connection: a Django cursor made for it alone costs more than SQLite's
        work, at every write transaction."""
        self.take_writer()
        try:
            if self.queries_logged or self.execute_wrappers:
                super()._start_transaction_under_autocommit()
            else:
                with self.wrap_database_errors:
                    self.connection.execute(self.begin_sql)
        except BaseException:
            self.give_writer()
            raise

    @property
    def begin_sql(self) -> str:
        return "BEGIN" if self.transaction_mode is None else f"BEGIN {self.transaction_mode}"

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self.give_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self.give_writer()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self.give_writer()

    def create_cursor(self, name: str | None = None) -> Any:
        cursor = self.connection.cursor(factory=CursorWrapper)
        cursor.wrapper = self
        return cursor


class CursorWrapper(base.SQLiteCursorWrapper):  # type: ignore[misc]
    """A write statement outside a transaction (autocommit) takes the writer lock for itself."""

    wrapper: DatabaseWrapper

    def execute(self, query: str, params: Any = None) -> Any:
        if self.wrapper.holds_writer or self.connection.in_transaction or not _is_write(query):
            return super().execute(query, params)
        self.wrapper.take_writer()
        try:
            return super().execute(query, params)
        finally:
            self.wrapper.give_writer()

    def executemany(self, query: str, param_list: Any) -> Any:
        if self.wrapper.holds_writer or self.connection.in_transaction or not _is_write(query):
            return super().executemany(query, param_list)
        self.wrapper.take_writer()
        try:
            return super().executemany(query, param_list)
        finally:
            self.wrapper.give_writer()
