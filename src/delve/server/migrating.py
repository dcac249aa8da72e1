"""Migrations at start, safe when several processes start at once (``delve serve``, ``delve
demo``; ``delve tick`` waits for one under way before it checks).

Two processes starting together on a new database would both try to create the tables: one of
them then fails half-way (PostgreSQL: a unique violation on ``pg_type``, or Django's
``MigrationSchemaMissing``). So the migrate step runs under one lock for the whole database:

- PostgreSQL: a session advisory lock (``pg_advisory_lock``) on :data:`ADVISORY_KEY`, held on a
  connection of its own (not one of the pool's) for the length of the step. A second process
  waits for the first, then finds nothing left to apply.
- SQLite: an exclusive ``flock`` on ``<database>.migrate.lock`` beside the database file.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

#: The advisory lock key of Delve's migrations (any fixed 64-bit number; "DELVEMIG" in ASCII).
ADVISORY_KEY = 0x44454C56454D4947

T = TypeVar("T")


@contextlib.contextmanager
def migration_lock() -> Iterator[None]:
    """Hold the database's migration lock (waits while another process holds it)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        # Straight to the server, not through the pool: the lock lives as long as this session,
        # and the migrations themselves run on Django's own connection meanwhile.
        session = connection.Database.connect(**connection.get_connection_params(), autocommit=True)
        try:
            session.execute("SELECT pg_advisory_lock(%s)", (ADVISORY_KEY,))
            try:
                yield
            finally:
                session.execute("SELECT pg_advisory_unlock(%s)", (ADVISORY_KEY,))
        finally:
            session.close()
        return
    name = str(connection.settings_dict["NAME"])
    if connection.vendor != "sqlite" or name in {"", ":memory:"} or name.startswith("file:"):
        yield
        return
    path = Path(name + ".migrate.lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def locked(step: Callable[[], T]) -> T:
    """Run ``step`` holding the migration lock."""
    with migration_lock():
        return step()


def migrate(verbosity: int = 1) -> None:
    """Apply the pending migrations, one process at a time."""
    from django.core import management

    with migration_lock():
        management.call_command("migrate", interactive=False, verbosity=verbosity)
