"""The statements of a durable command, written once per connection from the models' metadata.

Django's ORM builds every query anew on each call (filters, joins, ordering, compilation), which
on the command path costs several times what the database itself does. The few statements a
command needs are fixed, so they are put together here once per connection (the quoting, the
``FOR UPDATE`` clause and the value adapters of its database), and a command only binds values:

- :meth:`Statements.lock`: the game row, locked, and the caller's seat in it, in one ``SELECT``;
- :meth:`Statements.insert_events` / :meth:`Statements.insert_command`: the append-only logs;
- :meth:`Statements.update_game`: only the fields of the game that changed.

Values go in through each field's ``get_db_prep_save`` and come out through the converters Django
itself would apply, so a row reads and writes exactly as through the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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


def snapshot(game: Game) -> dict[str, Any]:
    """The game's field values as loaded, to save later only what changed."""
    return {field.attname: getattr(game, field.attname) for field in GAME_FIELDS}


class Statements:
    """The command path's SQL for one database connection."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        self.connection = connection
        q = connection.ops.quote_name
        game, seat = Game._meta, Seat._meta
        self.games = Rows(Game, connection, "g")
        seat_columns = ", ".join(f"s.{q(seat.get_field(name).column)}" for name in ("id", "index", "comment"))
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
        self.event_sql = self._insert_sql(EventEntry, self.event_fields)
        self.command_fields = [CommandEntry._meta.get_field(name) for name in COMMAND_COLUMNS]
        self.command_sql = (
            self._insert_sql(CommandEntry, self.command_fields) + " VALUES " + self._row(len(self.command_fields))
        )
        self.game_fields = {field.attname: field for field in GAME_FIELDS}
        self.game_table = q(game.db_table)
        self.game_pk = q(game.pk.column)
        self.seat_update_sql = (
            f"UPDATE {q(seat.db_table)} SET {q(seat.get_field('comment').column)} = %s WHERE {q(seat.pk.column)} = %s"
        )

    def _insert_sql(self, model: type[Model], fields: Sequence[Field[Any, Any]]) -> str:
        q = self.connection.ops.quote_name
        return f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(field.column) for field in fields)})"

    @staticmethod
    def _row(width: int) -> str:
        return "(" + ", ".join(["%s"] * width) + ")"

    def _prep(self, fields: Sequence[Field[Any, Any]], values: Sequence[Any]) -> list[Any]:
        return [field.get_db_prep_save(value, self.connection) for field, value in zip(fields, values, strict=True)]

    def lock(self, game_id: int, user_id: Any) -> tuple[Game, tuple[int, int | None, str] | None] | None:
        """The game, locked until the transaction ends, and the user's seat in it (its id, index and
        comment), or ``None`` when there is no such game."""
        with self.connection.cursor() as cursor:
            cursor.execute(self.lock_sql, [user_id, game_id])
            row = cursor.fetchone()
        if row is None:
            return None
        game = self.games.build(row)
        game._loaded = snapshot(game)  # type: ignore[attr-defined]
        seat_id, index, comment = row[self.games.width :]
        return game, (None if seat_id is None else (int(seat_id), index, comment))

    def insert_events(self, rows: Iterable[Sequence[Any]]) -> None:
        """Rows of (game id, sequence, time, kind, data, visibility), in as few statements as fit."""
        prepared = [self._prep(self.event_fields, row) for row in rows]
        with self.connection.cursor() as cursor:
            for start in range(0, len(prepared), CHUNK):
                chunk = prepared[start : start + CHUNK]
                sql = self.event_sql + " VALUES " + ", ".join([self._row(len(self.event_fields))] * len(chunk))
                cursor.execute(sql, [value for row in chunk for value in row])

    def insert_command(self, values: Sequence[Any]) -> None:
        """One command entry: (game id, sequence, time, seat, source, command, key, answer)."""
        with self.connection.cursor() as cursor:
            cursor.execute(self.command_sql, self._prep(self.command_fields, values))

    def update_game(self, game: Game, loaded: Mapping[str, Any]) -> list[str]:
        """Write the fields of ``game`` that differ from ``loaded``; the names written."""
        changed = [name for name, before in loaded.items() if getattr(game, name) != before]
        if changed:
            fields = [self.game_fields[name] for name in changed]
            assignments = ", ".join(f"{self.connection.ops.quote_name(field.column)} = %s" for field in fields)
            values = [field.get_db_prep_save(getattr(game, field.attname), self.connection) for field in fields]
            with self.connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {self.game_table} SET {assignments} WHERE {self.game_pk} = %s", [*values, game.pk]
                )
        return changed

    def update_comment(self, seat_id: int, comment: str) -> None:
        with self.connection.cursor() as cursor:
            cursor.execute(self.seat_update_sql, [comment, seat_id])


def statements(connection: BaseDatabaseWrapper | None = None) -> Statements:
    """The statements of ``connection`` (default: this thread's), made at its first use."""
    made: Statements = per_connection("_delve_command_statements", Statements, connection)
    return made
