"""The SQLite log's checkpoints run in a background thread, off the command path
(``delve.server.sqlite_backend.checkpoint``): a commit checkpoints only past the backstop, the
checkpointer copies the log back while writers go on, its log then starts again from the
beginning, and a failure is logged and retried without stopping anything."""

from __future__ import annotations

import argparse
import logging
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from django.db import connection

from delve.server.env import database_from_url
from delve.server.sqlite_backend import checkpoint
from delve.server.sqlite_backend.checkpoint import BACKSTOP_PAGES, Checkpointer, start, start_for_default_database
from tests.server.live import sqlite_only

ROW = "x" * 3000  # most of a 4 KB page: each commit below adds a page or two to the log


def writer(path: Path) -> sqlite3.Connection:
    """A connection opened with the server's pragmas (``init_command``)."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in database_from_url(f"sqlite:///{path}", data_dir=path.parent)["OPTIONS"]["init_command"].split(";"):
        db.execute(pragma)
    return db


def commit_rows(db: sqlite3.Connection, count: int) -> None:
    for _ in range(count):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t (v) VALUES (?)", (ROW,))
        db.execute("COMMIT")


@pytest.fixture
def database(tmp_path: Path) -> tuple[Path, sqlite3.Connection]:
    path = tmp_path / "games.sqlite3"
    db = writer(path)
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    yield path, db
    db.close()


def wal_pages(path: Path) -> int:
    """Frames in the log file (its size: the log is written over from its start, never shrunk)."""
    wal = path.with_name(path.name + "-wal")
    return max(0, (wal.stat().st_size - 32) // (4096 + 24)) if wal.exists() else 0


def checkpoint_once(path: Path) -> checkpoint.Pass:
    checkpointer = Checkpointer(path)
    try:
        return checkpointer.checkpoint()
    finally:
        checkpointer.close()


def test_the_servers_connections_checkpoint_only_past_the_backstop(database):
    path, db = database
    assert db.execute("PRAGMA wal_autocheckpoint").fetchone() == (BACKSTOP_PAGES,)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    commit_rows(db, 1200)  # past SQLite's default of 1000 pages
    log_pages = checkpoint_once(path).log_pages
    assert log_pages > 1000  # no commit checkpointed: the log kept growing


@sqlite_only
def test_the_project_database_has_the_backstop(db):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        assert cursor.fetchone()[0] == BACKSTOP_PAGES


def test_a_checkpoint_copies_the_log_and_the_log_then_starts_again(database):
    path, db = database
    commit_rows(db, 300)
    done = checkpoint_once(path)
    assert not done.busy and done.log_pages >= 300 and done.copied == done.log_pages
    size = wal_pages(path)
    for _ in range(5):  # copied each time: the next commits write the log over from its start
        commit_rows(db, 100)
        assert checkpoint_once(path).copied >= 100
    assert wal_pages(path) == size
    assert db.execute("SELECT count(*) FROM t").fetchone() == (800,)


def test_the_background_checkpointer_keeps_the_log_small_while_writers_go_on(database):
    path, db = database
    stop = start(path, interval=0.02)
    try:
        for _ in range(20):
            commit_rows(db, 50)
            time.sleep(0.05)  # the quiet moments in which the log can start again
    finally:
        stop()
    # 1000 commits, each a page or more, in a log that never held more than a few hundred
    assert wal_pages(path) < 600
    last = checkpoint_once(path)
    assert last.copied == last.log_pages  # all copied when it stopped
    assert db.execute("SELECT count(*) FROM t").fetchone() == (1000,)


def test_a_failed_checkpoint_is_logged_and_tried_again(tmp_path, caplog):
    missing = tmp_path / "gone" / "games.sqlite3"  # a folder that does not exist: connecting fails
    checkpointer = Checkpointer(missing, interval=0.01)
    stop = threading.Event()
    thread = threading.Thread(target=checkpointer.run, args=(stop,))
    with caplog.at_level(logging.WARNING, logger="delve.sqlite"):
        thread.start()
        deadline = time.monotonic() + 10
        while sum("WAL checkpoint" in r.getMessage() for r in caplog.records) < 2:
            assert time.monotonic() < deadline, "no retry logged"
            time.sleep(0.01)
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()
    assert "retrying" in caplog.records[0].getMessage()
    missing.parent.mkdir()
    sqlite3.connect(missing).close()
    assert not checkpointer.checkpoint().busy  # the file is there now: the next pass works
    checkpointer.close()


def test_serve_checkpoints_only_a_sqlite_file(monkeypatch, tmp_path):
    """``delve serve`` starts the checkpointer for a SQLite file; PostgreSQL checkpoints by
    itself and an in-memory database has no log."""
    started: list[str] = []
    monkeypatch.setattr(checkpoint, "start", lambda path: started.append(str(path)) or (lambda: None))
    settings = connection.settings_dict.copy()
    fake = type("Connections", (), {"__getitem__": lambda self, alias: type("C", (), {"settings_dict": settings})})()
    monkeypatch.setattr("django.db.connections", fake)
    settings.update(ENGINE="delve.server.sqlite_backend", NAME=str(tmp_path / "db.sqlite3"))
    assert start_for_default_database() is not None and started == [str(tmp_path / "db.sqlite3")]
    settings.update(NAME=":memory:")
    assert start_for_default_database() is None
    settings.update(ENGINE="django.db.backends.postgresql", NAME="delve")
    assert start_for_default_database() is None
    assert started == [str(tmp_path / "db.sqlite3")]


def test_delve_serve_starts_the_checkpointer_and_stops_it_after_the_server(monkeypatch):
    from delve import cli

    stopped: list[bool] = []
    monkeypatch.setattr(checkpoint, "start_for_default_database", lambda: lambda: stopped.append(True))
    hooks = cli._serve_hooks(argparse.Namespace(no_worker=True, tick_interval=1.0))
    stops = [stop for hook in hooks if (stop := hook()) is not None]
    assert len(stops) == 1 and not stopped
    stops[0]()
    assert stopped == [True]
