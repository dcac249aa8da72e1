"""The statements of a durable command, written once per connection from the models' metadata.

Django's ORM builds every query anew on each call (filters, joins, ordering, compilation), which
on the command path costs several times what the database itself does. The few statements a
command needs are fixed, so they are put together here once per connection (the quoting, the
``FOR UPDATE`` clause and the value adapters of its database), and a command only binds values:

- :meth:`Statements.lock`: the game row, locked, and the caller's seat in it, in one ``SELECT``;
- :meth:`Statements.insert_events` / :meth:`Statements.insert_command`: the append-only logs;
- :meth:`Statements.update_game`: only the fields of the game that changed.

On PostgreSQL the writes of a command (its entry, its events, the game's row, a seat's comment)
go together in psycopg's pipeline mode (:meth:`Statements.batch`): sent at once and answered in
one round trip instead of one each, which also shortens how long the game row stays locked.

Values come out through the converters Django itself would apply, so a row reads exactly as
through the ORM. They go in as the ORM would write them: the engine's values of integer, text and
foreign-key columns are already what the driver takes, JSON columns are encoded (on SQLite with
``json.dumps`` as Django does, byte for byte, since its JSON ``exact`` lookups there compare the
text; elsewhere through the field's ``get_db_prep_save``), and any other column through
``get_db_prep_save``.

Inside a transaction, with no query logging (``DEBUG``, a test's query capture) and no execute
wrapper installed, a statement goes straight to a driver cursor (on SQLite with its own ``?``
placeholders), errors still turned into Django's by ``wrap_database_errors``; otherwise it runs
through Django's cursor, so what is logged and counted is the same statements.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from delve.server.games.models import CommandEntry, EventEntry, Game, Seat
from delve.server.rawsql import Rows, per_connection

#: The engine-owned and bookkeeping fields of a game, in column order.
GAME_FIELDS: tuple[Field[Any, Any], ...] = tuple(Game._meta.concrete_fields)
EVENT_COLUMNS = ("game", "sequence", "time", "kind", "data", "visibility")
COMMAND_COLUMNS = ("game", "sequence", "time", "seat", "source", "command", "idempotency_key", "answer")
#: Rows of one multi-row ``INSERT`` (well below every backend's limit of bound values).
CHUNK = 200


#: Columns whose values the engine gives as the driver takes them (ints, texts, None).
PLAIN = (models.IntegerField, models.CharField, models.TextField, models.ForeignKey)


#: ``json.dumps`` with its default settings, less the check for circular references (the values
#: are trees of the engine's data): the same text, about a sixth faster.
_dumps = json.JSONEncoder(check_circular=False).encode


def _json_text(value: Any) -> str | None:
    """A JSON column's value on SQLite, as the ORM writes it (``None``: SQL NULL)."""
    return None if value is None else _dumps(value)


#: Their attribute names: a loaded instance holds each value in its ``__dict__`` (a field's
#: descriptor reads it from there), which the command path reads directly.
GAME_ATTNAMES: tuple[str, ...] = tuple(field.attname for field in GAME_FIELDS)


def snapshot(game: Game) -> dict[str, Any]:
    """The game's field values as loaded, to save later only what changed."""
    values = game.__dict__
    return {name: values[name] if name in values else getattr(game, name) for name in GAME_ATTNAMES}


class Statements:
    """The command path's SQL for one database connection."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        self.connection = connection
        self.sqlite = connection.vendor == "sqlite"
        q = connection.ops.quote_name
        game, seat = Game._meta, Seat._meta
        self.games = Rows(Game, connection, "g")
        seat_columns = ", ".join(
            f"s.{q(seat.get_field(name).column)}" for name in ("id", "index", "comment", "bot_since")
        )
        lock = ""
        if connection.features.has_select_for_update:
            lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else " FOR UPDATE"
        self.lock_sql = (
            f"SELECT {self.games.columns}, {seat_columns} FROM {q(game.db_table)} g "
            f"LEFT JOIN {q(seat.db_table)} s ON s.{q(seat.get_field('game').column)} = g.{q(game.pk.column)} "
            f"AND s.{q(seat.get_field('user').column)} = %s "
            f"WHERE g.{q(game.pk.column)} = %s{lock}"
        )
        self.event_fields = [EventEntry._meta.get_field(name) for name in EVENT_COLUMNS]
        self.event_adapters = [self._adapter(field) for field in self.event_fields]
        self.event_sql = self._insert_sql(EventEntry, self.event_fields)
        self.command_fields = [CommandEntry._meta.get_field(name) for name in COMMAND_COLUMNS]
        self.command_adapters = [self._adapter(field) for field in self.command_fields]
        self.command_sql = (
            self._insert_sql(CommandEntry, self.command_fields) + " VALUES " + self._row(len(self.command_fields))
        )
        self.game_fields = {field.attname: field for field in GAME_FIELDS}
        self.game_adapters = {field.attname: self._adapter(field) for field in GAME_FIELDS}
        self.game_table = q(game.db_table)
        self.game_pk = q(game.pk.column)
        #: each statement in SQLite's own placeholders, converted once
        self._native: dict[str, str] = {}
        #: the game's UPDATE (and its adapters) for each set of changed fields, written once
        self._game_updates: dict[tuple[str, ...], tuple[str, list[Callable[[Any], Any] | None]]] = {}
        #: the multi-row event INSERT for each number of rows, written once
        self._event_inserts: dict[int, str] = {}
        self.seat_update_sql = (
            f"UPDATE {q(seat.db_table)} SET {q(seat.get_field('comment').column)} = %s WHERE {q(seat.pk.column)} = %s"
        )

    def _insert_sql(self, model: type[Model], fields: Sequence[Field[Any, Any]]) -> str:
        q = self.connection.ops.quote_name
        return f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(field.column) for field in fields)})"

    @staticmethod
    def _row(width: int) -> str:
        return "(" + ", ".join(["%s"] * width) + ")"

    def _adapter(self, field: Field[Any, Any]) -> Callable[[Any], Any] | None:
        """How a value of ``field`` is written (``None``: as it is)."""
        if isinstance(field, models.JSONField):
            if self.sqlite and field.encoder is None:
                return _json_text
        elif isinstance(field, PLAIN):
            return None
        connection = self.connection
        return lambda value: field.get_db_prep_save(value, connection)

    @staticmethod
    def _prep(adapters: Sequence[Callable[[Any], Any] | None], values: Sequence[Any]) -> list[Any]:
        return [value if adapt is None else adapt(value) for adapt, value in zip(adapters, values, strict=True)]

    def direct(self) -> bool:
        """Whether statements go straight to a driver cursor now (see the module docstring)."""
        db = self.connection
        return db.in_atomic_block and not db.queries_logged and not db.execute_wrappers

    @contextmanager
    def batch(self) -> Iterator[None]:
        """The statements run inside go out together and are answered in one round trip: psycopg's
        pipeline mode, on PostgreSQL when the statements go straight to the driver (inside a
        transaction); elsewhere one after the other, as always. For writes whose results nobody
        reads: an error (a reused idempotency key) is raised at the latest when the block ends,
        as Django's error, and the transaction then rolls back as usual."""
        if self.sqlite or not self.direct():
            yield
            return
        db = self.connection
        db.validate_no_broken_transaction()
        with db.wrap_database_errors, db.connection.pipeline():
            yield

    def execute(self, sql: str, params: Sequence[Any], *, fetch: bool = False) -> Any:
        """Run ``sql`` (``%s`` placeholders); its first row when ``fetch``. See the module docstring
        for when it skips Django's cursor."""
        db = self.connection
        if not self.direct():
            with db.cursor() as wrapped:
                wrapped.execute(sql, params)
                return wrapped.fetchone() if fetch else None
        db.validate_no_broken_transaction()
        with db.wrap_database_errors:
            if self.sqlite:
                native = self._native.get(sql)
                if native is None:
                    native = self._native[sql] = sql.replace("%s", "?")
                cursor = db.connection.execute(native, params)
                try:
                    return cursor.fetchone() if fetch else None
                finally:
                    cursor.close()
            cursor = db.create_cursor()
            try:
                cursor.execute(sql, params)
                return cursor.fetchone() if fetch else None
            finally:
                cursor.close()

    def lock(self, game_id: int, user_id: Any) -> tuple[Game, tuple[int, int | None, str, int | None] | None] | None:
        """The game, locked until the transaction ends, and the user's seat in it (its id, index,
        comment and since when a bot plays it for its idle player), or ``None`` when there is no
        such game."""
        row = self.execute(self.lock_sql, [user_id, game_id], fetch=True)
        if row is None:
            return None
        game = self.games.build(row)
        game._loaded = snapshot(game)  # type: ignore[attr-defined]
        seat_id, index, comment, bot_since = row[self.games.width :]
        return game, (None if seat_id is None else (int(seat_id), index, comment, bot_since))

    def insert_events(self, rows: Iterable[Sequence[Any]]) -> None:
        """Rows of (game id, sequence, time, kind, data, visibility), in as few statements as fit."""
        prepared = [self._prep(self.event_adapters, row) for row in rows]
        for start in range(0, len(prepared), CHUNK):
            chunk = prepared[start : start + CHUNK]
            sql = self._event_inserts.get(len(chunk))
            if sql is None:
                row = self._row(len(self.event_fields))
                sql = self._event_inserts[len(chunk)] = self.event_sql + " VALUES " + ", ".join([row] * len(chunk))
            self.execute(sql, [value for row in chunk for value in row])

    def insert_command(self, values: Sequence[Any]) -> None:
        """One command entry: (game id, sequence, time, seat, source, command, key, answer)."""
        self.execute(self.command_sql, self._prep(self.command_adapters, values))

    def update_game(self, game: Game, loaded: Mapping[str, Any]) -> list[str]:
        """Write the fields of ``game`` that differ from ``loaded``; the names written."""
        values = game.__dict__
        changed = [
            name
            for name, before in loaded.items()
            if (values[name] if name in values else getattr(game, name)) != before
        ]
        if changed:
            key = tuple(changed)
            made = self._game_updates.get(key)
            if made is None:
                quote = self.connection.ops.quote_name
                assignments = ", ".join(f"{quote(self.game_fields[name].column)} = %s" for name in changed)
                made = self._game_updates[key] = (
                    f"UPDATE {self.game_table} SET {assignments} WHERE {self.game_pk} = %s",
                    [self.game_adapters[name] for name in changed],
                )
            sql, adapters = made
            self.execute(sql, [*self._prep(adapters, [getattr(game, name) for name in changed]), game.pk])
        return changed

    def update_comment(self, seat_id: int, comment: str) -> None:
        self.execute(self.seat_update_sql, [comment, seat_id])


def statements(connection: BaseDatabaseWrapper | None = None) -> Statements:
    """The statements of ``connection`` (default: this thread's), made at its first use."""
    made: Statements = per_connection("_delve_command_statements", Statements, connection)
    return made
