"""SQLite writers queue fairly (issue 16, SQLite write starvation): one first-come first-served
writer lock per process around every write transaction and every write statement, and never
more than one ``delve serve`` process on a SQLite file."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError, connection, transaction

from delve.server.sqlite_backend.base import WRITER, FairLock, _is_write
from tests.server.live import sqlite_only


def wait_until(predicate, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


def test_the_writer_lock_is_granted_in_the_order_it_was_asked_for():
    lock = FairLock()
    assert lock.acquire(timeout=1)
    order: list[int] = []

    def writer(i: int) -> None:
        assert lock.acquire(timeout=30)
        order.append(i)
        lock.release()

    threads = []
    for i in range(8):
        thread = threading.Thread(target=writer, args=(i,))
        thread.start()
        threads.append(thread)
        wait_until(lambda n=i + 1: lock.queued == n)  # each one is in the queue before the next asks
    lock.release()
    for thread in threads:
        thread.join(timeout=30)
    assert order == list(range(8))
    assert lock.acquire(timeout=1)  # free again
    lock.release()


def test_a_writer_that_waits_longer_than_the_timeout_gives_up_and_leaves_the_queue():
    lock = FairLock()
    assert lock.acquire(timeout=1)
    assert lock.acquire(timeout=0.05) is False
    assert lock.queued == 0
    lock.release()
    assert lock.acquire(timeout=0.05)


@pytest.mark.parametrize(
    ("sql", "write"),
    [
        ('INSERT INTO "t" VALUES (1)', True),
        ('  update "t" SET x = 1', True),
        ('DELETE FROM "t"', True),
        ('SELECT * FROM "t"', False),
        ("PRAGMA busy_timeout", False),
        ("", False),
    ],
)
def test_write_statements_are_recognised(sql, write):
    assert _is_write(sql) is write


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_write_transaction_holds_the_writer_lock_until_commit_or_rollback():
    assert not connection.holds_writer
    with transaction.atomic():
        assert connection.holds_writer
        with transaction.atomic():  # a savepoint: the same transaction, the same lock
            assert connection.holds_writer
    assert not connection.holds_writer
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        assert connection.holds_writer
        raise ZeroDivisionError
    assert not connection.holds_writer
    assert WRITER.acquire(timeout=1)  # nobody holds it any more
    WRITER.release()


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_writer_waiting_past_the_busy_timeout_gets_a_clear_database_error(settings):
    """The waiting request fails with "database is busy" (an OperationalError the API answers
    as 503), never hangs."""
    connection.settings_dict["OPTIONS"]["timeout"] = 0.05
    try:
        assert WRITER.acquire(timeout=1)  # another thread's transaction, in effect
        try:
            with pytest.raises(OperationalError, match="database is busy: waited"), transaction.atomic():
                pass
        finally:
            WRITER.release()
    finally:
        connection.settings_dict["OPTIONS"]["timeout"] = 20
    assert not connection.holds_writer


@sqlite_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("logged", [False, True])
def test_a_write_transaction_reserves_the_database_at_its_begin_whether_logged_or_not(logged):
    """``BEGIN IMMEDIATE`` at the start of every write transaction, whether it goes straight to the
    driver (no statement logging: the server) or through Django's cursor (query capture, where it
    is then logged): another connection cannot start writing until it ends."""
    import sqlite3

    from django.test.utils import CaptureQueriesContext

    other = sqlite3.connect(connection.settings_dict["NAME"], timeout=0, isolation_level=None)
    try:
        capture = CaptureQueriesContext(connection) if logged else None
        if capture is not None:
            capture.__enter__()
        try:
            with transaction.atomic():
                assert connection.connection.in_transaction  # begun before any statement
                with pytest.raises(sqlite3.OperationalError, match="locked"):
                    other.execute("BEGIN IMMEDIATE")
        finally:
            if capture is not None:
                capture.__exit__(None, None, None)
        if capture is not None:
            assert [query["sql"] for query in capture.captured_queries][:1] == ["BEGIN IMMEDIATE"]
        other.execute("BEGIN IMMEDIATE")  # free again
        other.execute("ROLLBACK")
    finally:
        other.close()
