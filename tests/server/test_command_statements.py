"""The SQL of a durable command: one locking SELECT (the game with the caller's seat), the command
entry, its events, and one UPDATE of the game's changed fields; a reused idempotency key caught
by the command log's unique constraint, with the first answer returned as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.test.utils import CaptureQueriesContext

from delve.server.games import engine
from delve.server.games.errors import Rejected
from delve.server.games.models import CommandEntry, EventEntry, Game, Seat
from tests.server.conftest import token_client

pytestmark = pytest.mark.django_db

#: Transaction control: BEGIN, COMMIT and the savepoints of the test's own transaction.
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def statements(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].upper().startswith(CONTROL)]


def verbs(sql: list[str]) -> list[str]:
    return [s.split(None, 1)[0].upper() for s in sql]


def test_a_durable_command_is_one_locking_select_two_inserts_and_one_update(game, player, clock):
    clock.tick(60)  # a roll is stored: the command advances the clock and applies
    with CaptureQueriesContext(connection) as queries:
        answer = engine.submit(game.pk, player, {"kind": "roll"}, idempotency_key="k-1")
    sql = statements(queries)
    assert verbs(sql) == ["SELECT", "INSERT", "INSERT", "UPDATE"], sql
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in sql[0]
    assert answer.sequence == 2
    assert CommandEntry.objects.get(game=game, sequence=2).idempotency_key == "k-1"
    assert EventEntry.objects.filter(game=game).count() == 1 + len(answer.events)


def test_a_command_saves_only_the_fields_of_the_game_that_changed(game, player, clock):
    with CaptureQueriesContext(connection) as queries:
        engine.submit(game.pk, player, {"kind": "wait"})
    update = next(s for s in statements(queries) if s.upper().startswith("UPDATE"))
    written = update.split(" SET ", 1)[1].split(" WHERE ", 1)[0]
    for unchanged in ("settings", "seed", "ruleset", "preset", "seat_count", "created_at", "claimed_by"):
        assert f'"{unchanged}"' not in written, written
    assert '"version"' in written
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.settings, stored.seed) == (2, game.settings, game.seed)


def test_a_command_that_changes_nothing_in_a_field_leaves_it_out(game, player, clock):
    """The opponent's wait moves no clock and no seat of the player: the next due time stays."""
    engine.submit(game.pk, player, {"kind": "wait"})
    before = Game.objects.get(pk=game.pk).next_due_at
    with CaptureQueriesContext(connection) as queries:
        engine.submit(game.pk, player, {"kind": "wait"})
    update = next(s for s in statements(queries) if s.upper().startswith("UPDATE"))
    assert '"next_due_at"' not in update.split(" WHERE ", 1)[0]
    assert Game.objects.get(pk=game.pk).next_due_at == before


def test_a_key_reused_for_a_command_that_is_legal_again_returns_the_first_answer(game, player, clock):
    """The retried wait would apply again: the command log's unique constraint refuses the key,
    the transaction rolls back, and the first answer is returned."""
    first = engine.submit(game.pk, player, {"kind": "wait"}, idempotency_key="k-1")
    state_after_first = Game.objects.get(pk=game.pk).state
    again = engine.submit(game.pk, player, {"kind": "wait"}, idempotency_key="k-1")
    assert again.replayed and not first.replayed
    assert again.as_dict() == first.as_dict()
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.state) == (2, state_after_first)
    assert CommandEntry.objects.filter(game=game).count() == 1
    assert EventEntry.objects.filter(game=game).count() == 1 + len(first.events)


def test_a_key_reused_for_another_legal_command_is_refused_and_changes_nothing(game, player, clock):
    engine.submit(game.pk, player, {"kind": "wait"}, idempotency_key="k-1")
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(Rejected) as info:
        engine.submit(game.pk, player, {"kind": "comment", "text": "hi"}, idempotency_key="k-1")
    assert (info.value.code, info.value.status) == ("command/idempotency_key_reused", 422)
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert Seat.objects.get(game=game, user=player).comment == ""


def test_a_comment_writes_the_seat_only_when_its_text_changes(game, player, clock):
    """FL-COM-1: the comment is mirrored on the seat; the same text again writes no seat row."""
    engine.submit(game.pk, player, {"kind": "comment", "text": "hello"})
    clock.tick(61)
    with CaptureQueriesContext(connection) as queries:
        engine.submit(game.pk, player, {"kind": "comment", "text": "hello"})
    assert not any("games_seat" in s for s in statements(queries) if s.upper().startswith("UPDATE"))
    clock.tick(61)
    engine.submit(game.pk, player, {"kind": "comment", "text": "bye"})
    assert Seat.objects.get(game=game, user=player).comment == "bye"


def test_a_command_over_the_api_costs_the_token_the_lock_the_logs_and_the_update(game, player, clock):
    """The API reads no game row of its own before the command's transaction."""
    client: Any = token_client(player)
    assert client.get(f"/api/v1/games/{game.pk}/commands").status_code == 200  # the token's first use is noted
    clock.tick(60)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/api/v1/games/{game.pk}/commands",
            {"command": {"kind": "roll"}, "idempotency_key": "api-1"},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content
    sql = statements(queries)
    assert verbs(sql) == ["SELECT", "SELECT", "INSERT", "INSERT", "UPDATE"], sql  # token+user, lock, logs, game


def test_an_unknown_game_is_still_404_over_the_api(db, player):
    client: Any = token_client(player)
    response = client.post(
        "/api/v1/games/987654/commands", {"command": {"kind": "wait"}}, content_type="application/json"
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "game/not_found"


@pytest.mark.skipif(connection.vendor != "sqlite", reason="reads SQLite's statement trace")
def test_without_query_logging_the_same_statements_go_straight_to_the_driver(game, player, clock, monkeypatch):
    """Outside a query capture the command's statements skip Django's cursor (only the
    transaction control of the test's own transaction passes through it) and SQLite runs the
    same four."""
    through_django: list[str] = []
    original = CursorWrapper.execute

    def noting(self: CursorWrapper, sql: str, params: Any = None) -> Any:
        through_django.append(sql)
        return original(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", noting)
    connection.ensure_connection()
    traced: list[str] = []
    connection.connection.set_trace_callback(traced.append)
    try:
        clock.tick(60)
        answer = engine.submit(game.pk, player, {"kind": "roll"}, idempotency_key="k-1")
    finally:
        connection.connection.set_trace_callback(None)
    assert not connection.queries_logged
    assert all(sql.upper().startswith(CONTROL) for sql in through_django), through_django
    ran = [sql for sql in traced if not sql.upper().startswith(CONTROL)]
    assert verbs(ran) == ["SELECT", "INSERT", "INSERT", "UPDATE"], ran
    stored = CommandEntry.objects.get(game=game, sequence=answer.sequence)
    assert (stored.command, stored.idempotency_key, stored.answer) == ({"kind": "roll"}, "k-1", answer.as_dict())
    events = EventEntry.objects.filter(game=game).order_by("sequence")
    assert [engine.entry_body(engine.ruleset_of(game), e) for e in events][-len(answer.events) :] == answer.events


@pytest.mark.skipif(connection.vendor != "postgresql", reason="psycopg's pipeline mode: PostgreSQL only")
def test_on_postgresql_the_writes_of_a_command_go_out_in_one_pipeline(game, player, clock, monkeypatch):
    """The lock is read on its own (its row is needed); the command entry, its events, the game's
    update and the seat's new comment are sent together and answered in one round trip. A key
    reused there still fails at the constraint and returns the first answer."""
    from psycopg import pq

    from delve.server.games import sql as command_sql

    ran: list[tuple[str, bool]] = []
    original = command_sql.Statements.execute

    def noting(self: Any, sql: str, params: Any, *, fetch: bool = False) -> Any:
        piped = connection.connection.pgconn.pipeline_status != pq.PipelineStatus.OFF
        ran.append((sql.split(None, 1)[0].upper(), piped))
        return original(self, sql, params, fetch=fetch)

    monkeypatch.setattr(command_sql.Statements, "execute", noting)
    clock.tick(60)
    first = engine.submit(game.pk, player, {"kind": "comment", "text": "hello"}, idempotency_key="k-1")
    assert ran == [("SELECT", False), ("INSERT", True), ("INSERT", True), ("UPDATE", True), ("UPDATE", True)], ran
    assert Seat.objects.get(game=game, user=player).comment == "hello"
    assert CommandEntry.objects.get(game=game, sequence=first.sequence).idempotency_key == "k-1"
    clock.tick(61)
    again = engine.submit(game.pk, player, {"kind": "comment", "text": "hello"}, idempotency_key="k-1")
    assert again.replayed and again.as_dict() == first.as_dict()
    assert CommandEntry.objects.filter(game=game, idempotency_key="k-1").count() == 1


@pytest.mark.parametrize(
    "value",
    [
        {"kind": "comment", "text": '迷宮の奥へ "quoted" \\ tab\t'},
        {"b": [1, 2.5, -0.0, 1e300, None, True, False], "a": {"nested": [{"x": "é"}]}},
        [],
        {},
        "plain",
        12345678901234567890123,
    ],
)
def test_json_columns_are_written_as_the_orm_writes_them(value):
    """On SQLite a JSON column's text is ``json.dumps`` of the value, byte for byte (Django's
    JSON lookups there compare the text), whichever way the command path encodes it."""
    import json

    from delve.server.games.sql import _json_text

    assert _json_text(value) == json.dumps(value)
    assert _json_text(None) is None
