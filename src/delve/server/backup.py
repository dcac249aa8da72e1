"""Backups of the server's database, taken while it runs, and their restore (``delve backup``,
``delve restore``; docs/operators.md).

- SQLite: the online backup API copies a consistent snapshot page by page while the server
  keeps writing (a plain file copy of a WAL database is not safe); restore copies the snapshot
  into place (the server stopped) with the owner-only permissions of the data folder.
- PostgreSQL: ``pg_dump --format=custom`` (one consistent snapshot of a running database);
  restore is ``pg_restore --no-owner --exit-on-error`` into the empty database named by
  ``DATABASE_URL``. The PostgreSQL client programs must be installed (Debian:
  ``postgresql-client``), of the server's major version or newer.
- From SQLite to PostgreSQL: a SQLite backup (or database) restored while ``DATABASE_URL`` names
  an empty PostgreSQL database is copied into it row by row and checked
  (:mod:`delve.server.to_postgres`). The other way round is refused.

After a restore, ``delve serve`` (or ``delve manage migrate``) brings the schema up to the
installed version, as after any upgrade.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any


class BackupFailed(Exception):
    """A backup or restore could not be done (the message says why)."""


def _database() -> dict[str, Any]:
    from django.db import connection

    return dict(connection.settings_dict)


def is_postgres(db: dict[str, Any]) -> bool:
    return "postgresql" in str(db["ENGINE"])


def _pg_env(db: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    args = []
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _run(command: list[str], env: dict[str, str]) -> None:
    if shutil.which(command[0]) is None:
        raise BackupFailed(f"{command[0]} is not installed (Debian: apt-get install postgresql-client)")
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupFailed(f"{command[0]} failed: {result.stderr.strip()[-800:]}")


def backup(target: Path) -> str:
    """Write a consistent backup of the running server's database to ``target``; a summary line."""
    db = _database()
    target = target.resolve()
    if target.exists():
        raise BackupFailed(f"{target} exists; choose a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    if is_postgres(db):
        args, env = _pg_env(db)
        # owner-only from the first byte: a backup holds password hashes and API tokens
        target.touch(mode=0o600)
        try:
            _run(["pg_dump", "--format=custom", "--file", str(target), *args, str(db["NAME"])], env)
        except BackupFailed:
            target.unlink(missing_ok=True)
            raise
        target.chmod(0o600)
    else:
        sqlite_copy(db["NAME"], target)
        target.chmod(0o600)
    return f"backup of {db['NAME']} written to {target} ({target.stat().st_size} bytes)"


def sqlite_copy(source: str | Path, target: Path) -> None:
    """A consistent copy of the SQLite database ``source`` at ``target``, read-only on the source
    (SQLite's online backup API: a server may be writing to it meanwhile)."""
    reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        copy = sqlite3.connect(target)
        try:
            with copy:
                reader.backup(copy)
        finally:
            copy.close()
    finally:
        reader.close()


def backup_kind(path: Path) -> str:
    """``"sqlite"`` or ``"postgresql"`` by the file's first bytes (SQLite's header, pg_dump's
    custom format), else ``"unknown"``."""
    with path.open("rb") as handle:
        head = handle.read(16)
    if head.startswith(b"SQLite format 3\x00"):
        return "sqlite"
    if head.startswith(b"PGDMP"):
        return "postgresql"
    return "unknown"


def _postgres_target() -> tuple[int, int]:
    """The target database's tables, and the connections other sessions hold to it (any server or
    worker still running; ours is a connection of its own, not a pool's, so it counts none)."""
    from django.db import connection

    with connection.Database.connect(**connection.get_connection_params(), autocommit=True) as session:
        row = session.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        tables = int(row[0]) if row else 0
        row = session.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND backend_type = 'client backend'"
        ).fetchone()
        others = int(row[0]) if row else 0
    return tables, others


def restore(source: Path, *, force: bool = False) -> str:
    """Restore a backup made by :func:`backup` into the database the settings name (the server
    stopped; for PostgreSQL an empty database); a summary line."""
    db = _database()
    source = source.resolve()
    if not source.is_file():
        raise BackupFailed(f"{source} is not a file")
    kind = backup_kind(source)
    wanted = "postgresql" if is_postgres(db) else "sqlite"
    if kind == "unknown":
        raise BackupFailed(
            f"{source} is not a Delve backup: neither a SQLite database nor a pg_dump custom-format file "
            "(delve backup writes one or the other)"
        )
    if kind == "sqlite" and wanted == "postgresql":
        if force:
            raise BackupFailed(
                f"{source} is a SQLite database, copied only into an empty PostgreSQL database: --force does not "
                f"apply (dropdb {db['NAME']}; createdb {db['NAME']}; then restore without --force)"
            )
        from delve.server.to_postgres import copy_into_postgres

        return copy_into_postgres(source)
    if kind != wanted:
        made = {"postgresql": "a PostgreSQL backup", "sqlite": "a SQLite backup"}.get(kind, "not a Delve backup")
        into = "PostgreSQL (DATABASE_URL)" if wanted == "postgresql" else f"SQLite ({db['NAME']})"
        raise BackupFailed(
            f"{source} is {made}, and the settings name {into}: set DATABASE_URL to the kind of database "
            "the backup came from"
        )
    if is_postgres(db):
        tables, others = _postgres_target()
        if others:
            raise BackupFailed(
                f"database {db['NAME']} has {others} other open connection(s) (servers, tick workers, a shell): "
                "stop every delve serve and delve tick using it, then restore"
            )
        if tables and not force:
            raise BackupFailed(f"database {db['NAME']} is not empty ({tables} tables); restore into an empty one")
        args, env = _pg_env(db)
        clean = ["--clean", "--if-exists"] if force else []
        _run(
            ["pg_restore", "--no-owner", "--exit-on-error", *clean, *args, "--dbname", str(db["NAME"]), str(source)],
            env,
        )
    else:
        target = Path(db["NAME"])
        if target.exists() and target.stat().st_size > 0 and not force:
            raise BackupFailed(f"{target} exists; stop the server and move it away (or --force)")
        check = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            if check.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupFailed(f"{source} is not a sound SQLite database")
        finally:
            check.close()
        for suffix in ("-wal", "-shm"):
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(source, target)
        target.chmod(0o600)
    return f"{source} restored into {db['NAME']}; `delve serve` applies any newer migrations"
