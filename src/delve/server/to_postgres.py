"""Moving a server from SQLite to PostgreSQL: ``delve restore FILE`` with a SQLite database (a
``delve backup`` of it, or the stopped server's ``var/delve.sqlite3``) while ``DATABASE_URL``
names an empty PostgreSQL database (docs/operators.md, "From SQLite to PostgreSQL").

1. The target must be empty (no table: ``createdb`` made it) and nobody else connected to it.
2. The source is copied with SQLite's online backup API into a private temporary folder of the
   data folder (a consistent snapshot even of a database in use), checked (``integrity_check``,
   Delve's tables) and migrated to the installed version there, as an upgrade would (its data
   migrations run on its rows). A database migrated by a newer Delve is refused.
3. In one PostgreSQL transaction: the target migrated to the installed version, the rows that
   migrating made (content types, permissions) replaced, every table's rows copied in
   primary-key order with their stored values (ids kept, so every link, the content types of
   the admin's log included, stays as it was), each table's id sequence set past its highest id,
   then checked: every table holds as many rows as the source, and every ended game's export is
   the source's, replaying to the same events and final state (``delve verify``). Any
   difference rolls it all back: the target is left empty, as it was.

Nothing is written to the source.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from delve.server.backup import BackupFailed, sqlite_copy

#: The connection alias of the source's snapshot while it is copied.
SOURCE = "delve_sqlite_source"
#: Rows inserted per batch.
BATCH = 1000
#: Tables of the source that are not copied as rows (migrate makes them on the target).
NOT_COPIED = frozenset({"django_migrations"})


@dataclass
class Copied:
    tables: int = 0
    rows: int = 0
    games: int = 0
    ended: int = 0
    verified: int = 0
    unverified_before: int = 0


def copy_into_postgres(source: Path) -> str:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database of the settings
    (see the module docstring); a summary line.

    :raises BackupFailed: with one line saying why nothing was copied.
    """
    from django.conf import settings
    from django.db import DatabaseError, connection

    from delve.server.backup import _postgres_target

    tables, others = _postgres_target()
    name = connection.settings_dict["NAME"]
    if others:
        raise BackupFailed(
            f"database {name} has {others} other open connection(s) (servers, tick workers, a shell): stop every "
            "delve serve and delve tick using it, then copy"
        )
    if tables:
        raise BackupFailed(
            f"database {name} is not empty ({tables} tables): a SQLite database is copied only into an empty "
            f"PostgreSQL database (dropdb {name}; createdb {name}), never over one in use"
        )
    data_dir = Path(settings.DATA_DIR)
    data_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="to-postgres-", dir=data_dir) as folder:
        snapshot = Path(folder) / "source.sqlite3"
        _snapshot(source, snapshot)
        with _source_alias(snapshot):
            _migrate_source()
            try:
                copied = _copy()
            except DatabaseError as exc:
                detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise BackupFailed(f"the copy failed and was undone, {name} is empty again: {detail}") from None
    before = copied.unverified_before
    return (
        f"{source} copied into PostgreSQL database {name}: {copied.rows} rows in {copied.tables} tables, "
        f"{copied.games} games; the exports of all {copied.ended} ended games are the same and "
        f"{copied.verified} replay to their events and final state"
        + (f" ({before} did not replay in the SQLite database either)" if before else "")
        + "; `delve serve` with this DATABASE_URL serves them"
    )


def _snapshot(source: Path, target: Path) -> None:
    """A consistent copy of ``source`` (SQLite's online backup API), checked."""
    try:
        sqlite_copy(source, target)
        check = sqlite3.connect(target)
        try:
            sound = check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            names = {row[0] for row in check.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            check.close()
    except sqlite3.DatabaseError as exc:
        raise BackupFailed(f"{source} cannot be read as a SQLite database: {exc}") from None
    if not sound:
        raise BackupFailed(f"{source} is not a sound SQLite database (integrity_check failed)")
    if not {"django_migrations", "games_game"} <= names:
        raise BackupFailed(f"{source} is a SQLite database, but not Delve's (it has no games_game table)")
    target.chmod(0o600)


@contextlib.contextmanager
def _source_alias(path: Path) -> Iterator[None]:
    """The snapshot as the database alias :data:`SOURCE` while the copy runs."""
    from django.db import DEFAULT_DB_ALIAS, connections

    from delve.server.env import sqlite_database

    configured = connections.configure_settings(
        {DEFAULT_DB_ALIAS: connections.settings[DEFAULT_DB_ALIAS], SOURCE: sqlite_database(path)}
    )
    connections.settings[SOURCE] = configured[SOURCE]
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            connections[SOURCE].close()
        with contextlib.suppress(Exception):
            del connections[SOURCE]
        connections.settings.pop(SOURCE, None)


def _migrate_source() -> None:
    """Bring the snapshot up to the installed version's migrations (refusing one from a newer
    Delve): the copy then goes between two databases of the same schema."""
    from django.core import management
    from django.db import connections
    from django.db.migrations.loader import MigrationLoader
    from django.db.migrations.recorder import MigrationRecorder

    applied = set(MigrationRecorder(connections[SOURCE]).applied_migrations())
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    unknown = sorted(applied - known)
    if unknown:
        names = ", ".join(f"{app}.{migration}" for app, migration in unknown[:3])
        raise BackupFailed(
            f"the SQLite database was migrated by a newer Delve ({len(unknown)} migration(s) this version does not "
            f"have: {names}): install that version or a newer one, then copy"
        )
    management.call_command("migrate", database=SOURCE, interactive=False, verbosity=0)


def _models() -> list[Any]:
    """Every model with a table of its own (the many-to-many tables included), once per table."""
    from django.apps import apps

    found: dict[str, Any] = {}
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        if meta.managed and not meta.proxy and not meta.swapped:
            found.setdefault(meta.db_table, model)
    return list(found.values())


def _copy() -> Copied:
    """The target migrated, filled and checked in one transaction (see the module docstring)."""
    from django.core import management
    from django.core.management.color import no_style
    from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction

    from delve.server import migrating

    models = _models()
    tables = {model._meta.db_table for model in models}
    extra = sorted(set(connections[SOURCE].introspection.table_names()) - tables - NOT_COPIED)
    if extra:
        raise BackupFailed(
            f"the SQLite database has tables this version of Delve does not know ({', '.join(extra[:5])}): "
            "nothing copied"
        )
    copied = Copied(tables=len(tables))
    with migrating.migration_lock(), transaction.atomic(using=DEFAULT_DB_ALIAS):
        management.call_command("migrate", database=DEFAULT_DB_ALIAS, interactive=False, verbosity=0)
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:
            # what migrating made (content types, permissions) gives way to the source's rows; the
            # links between rows are checked at the commit (Django's foreign keys are deferred)
            for table in sorted(tables):
                cursor.execute(f"DELETE FROM {quote(table)}")
            for model in models:
                copied.rows += _copy_rows(model, cursor)
            for statement in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(statement)
        _check_counts(models)
        _check_exports(copied)
    return copied


def _copy_rows(model: Any, cursor: Any) -> int:
    """Insert the source's rows of ``model`` as they are stored (the ORM's conversions, none of
    its defaults: an ``auto_now_add`` date keeps its value); the number of rows."""
    from django.db import connection

    fields = list(model._meta.concrete_fields)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
    rows = model._base_manager.using(SOURCE).order_by("pk").values_list(*(field.attname for field in fields))
    count = 0
    batch: list[list[Any]] = []
    for row in rows.iterator(chunk_size=BATCH):
        batch.append([field.get_db_prep_save(value, connection) for field, value in zip(fields, row, strict=True)])
        if len(batch) >= BATCH:
            cursor.executemany(sql, batch)
            count += len(batch)
            batch = []
    if batch:
        cursor.executemany(sql, batch)
        count += len(batch)
    return count


def _check_counts(models: list[Any]) -> None:
    from django.db import DEFAULT_DB_ALIAS

    for model in models:
        there = model._base_manager.using(SOURCE).count()
        here = model._base_manager.using(DEFAULT_DB_ALIAS).count()
        if there != here:
            raise BackupFailed(
                f"table {model._meta.db_table} has {here} rows in PostgreSQL but {there} in SQLite: nothing copied"
            )


def _check_exports(copied: Copied) -> None:
    """Every ended game's export from PostgreSQL is the one from SQLite and replays (a game whose
    export did not replay in SQLite either is counted, not refused: copying it changed nothing)."""
    from django.db import DEFAULT_DB_ALIAS

    from delve.server.games.models import Game
    from delve.server.records.export import export_game
    from delve.server.records.verify import verify

    copied.games = Game.objects.using(DEFAULT_DB_ALIAS).count()
    for before in Game.objects.using(SOURCE).filter(status=Game.Status.ENDED).order_by("pk").iterator():
        after = Game.objects.using(DEFAULT_DB_ALIAS).get(pk=before.pk)
        copied.ended += 1
        mine, theirs = export_game(after), export_game(before)
        if _canonical(mine) != _canonical(theirs):
            raise BackupFailed(f"game {before.pk}'s export differs between SQLite and PostgreSQL: nothing copied")
        if verify(mine).ok:
            copied.verified += 1
        else:  # the same export as in SQLite: it did not replay there either
            copied.unverified_before += 1


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
