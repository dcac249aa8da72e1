"""From SQLite to PostgreSQL (docs/operators.md): a server that grew out of its SQLite file moves
with ``delve backup`` on SQLite and ``delve restore`` of that file with ``DATABASE_URL`` naming an
empty PostgreSQL database. Everything arrives (every table's rows, ids kept), the games go on
(each replays from its log to its stored state), every ended game's export still passes ``delve
verify``, and new rows get new ids. A target that is not empty, ``--force``, a SQLite file that is
not Delve's and one migrated by a newer Delve are refused in one line, and a refused or failed
copy leaves the target empty.

The source is always a SQLite file; the target is a database of its own on the PostgreSQL server
of ``DELVE_TEST_POSTGRES_URL`` (the one scripts/test uses, default
``postgres://root@127.0.0.1:5432/test``), made and dropped here, so this runs in both passes; it
is skipped, saying why, when that server does not answer."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.live import ROOT, base_env, live_database, seed_games
from tests.server.scale import audit, seed_maiden

URL = os.environ.get("DELVE_TEST_POSTGRES_URL", "postgres://root@127.0.0.1:5432/test")


def _maintenance() -> str:
    from urllib.parse import urlsplit

    return urlsplit(URL.replace("postgres://", "postgresql://", 1))._replace(path="/postgres").geturl()


def _absent() -> str | None:
    try:
        import psycopg

        psycopg.connect(_maintenance(), connect_timeout=3).close()
    except Exception as exc:  # noqa: BLE001 (any failure means the server is not there)
        return f"needs PostgreSQL at DELVE_TEST_POSTGRES_URL ({URL}): {type(exc).__name__}"
    return None


ABSENT = _absent()
pytestmark = pytest.mark.skipif(ABSENT is not None, reason=ABSENT or "")


@pytest.fixture
def target() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped afterwards."""
    from urllib.parse import urlsplit

    import psycopg

    name = f"delve_copy_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(_maintenance(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(URL)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(_maintenance(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def delve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "delve.cli", *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def run(env: dict[str, str], script: str, *args: str) -> str:
    prelude = (
        "import json, os, sys\nimport django\n"
        'os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"\ndjango.setup()\n'
    )
    result = subprocess.run(
        [sys.executable, "-c", prelude + script, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""


#: Ends one game the way players do: all but one seat give up (FL-ABN-4), the last one wins.
GIVE_UP = """
from delve.server.games import engine
from delve.server.games.models import Game
game = Game.objects.get(pk=int(sys.argv[1]))
for seat in game.seats.order_by("index")[1:]:
    engine.submit(game.pk, seat.user, {"kind": "give_up"})
print(Game.objects.get(pk=game.pk).status)
"""

#: What an operator would look at: every table's row count, the users and games by id.
COUNTS = """
from django.apps import apps
from django.contrib.auth import get_user_model
from delve.server.games.models import Game
counts = {m._meta.db_table: m._base_manager.count() for m in apps.get_models(include_auto_created=True)}
print(json.dumps({
    "counts": counts,
    "users": list(get_user_model().objects.order_by("pk").values_list("pk", "username", "password", "date_joined")),
    "games": list(Game.objects.order_by("pk").values_list("pk", "status", "version", "state", "created_at")),
}, default=str))
"""

EXPORT = """
from delve.server.games.models import Game
from delve.server.records.export import export_game
print(json.dumps(export_game(Game.objects.get(pk=int(sys.argv[1])))))
"""

NEW_IDS = """
from django.contrib.auth import get_user_model
from delve.server.games import engine
from delve.server.records.models import Record
user = get_user_model().objects.create_user("newcomer", password="Newcomer-2024")
game = engine.create_game("maiden", "white-maiden", {"players": 1})
print(json.dumps({"user": user.pk, "game": game.pk}))
"""


def test_a_sqlite_server_moves_to_postgresql_with_delve_backup_and_delve_restore(tmp_path: Path, target: str) -> None:
    with live_database(tmp_path / "sqlite", kind="sqlite") as old:
        players = seed_games(old, games=3, seats=4)
        tables = seed_maiden(old, games=2)
        first, second = sorted({p.game for p in players})[:2]
        assert run(old, GIVE_UP, str(first)) == "ended"  # a game won the ordinary way
        closed = delve(old, "close", str(second), str(tables[0].game), "--reason", "Moving to PostgreSQL")
        assert closed.returncode == 0, closed.stderr
        backup = tmp_path / "delve.backup"
        assert delve(old, "backup", str(backup)).returncode == 0
        before, replayed = json.loads(run(old, COUNTS)), audit(old)
        exports = {g: run(old, EXPORT, str(g)) for g in (first, second, tables[0].game)}

    new = {**base_env(tmp_path / "postgres"), "DATABASE_URL": target}
    copied = delve(new, "restore", str(backup))
    assert copied.returncode == 0, copied.stderr
    assert "copied into PostgreSQL database" in copied.stdout and "all 3 ended games are the same and 3 replay" in (
        copied.stdout
    )
    after = json.loads(run(new, COUNTS))
    assert after == before  # every table, every user (password hash, dates), every game's state
    assert audit(new) == replayed and all(game["replays"] for game in replayed.values())
    for game, export in exports.items():
        assert json.loads(run(new, EXPORT, str(game))) == json.loads(export)  # jsonb keeps no key order
        path = tmp_path / f"game-{game}.json"
        path.write_text(export)
        checked = delve(new, "verify", str(path))
        assert checked.returncode == 0 and checked.stdout.startswith("OK: "), checked.stdout
    made = json.loads(run(new, NEW_IDS))
    assert made["user"] > max(pk for pk, *_ in before["users"])
    assert made["game"] > max(pk for pk, *_ in before["games"])
    check = delve(new, "check")
    assert check.returncode == 0 and "not applied yet" not in check.stdout, check.stdout + check.stderr

    again = delve(new, "restore", str(backup))
    assert again.returncode == 1 and "is not empty" in again.stderr and "createdb" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1


def test_a_copy_is_refused_in_one_line_and_leaves_the_target_empty(tmp_path: Path, target: str) -> None:
    import psycopg

    def tables() -> int:
        with psycopg.connect(target.replace("postgres://", "postgresql://", 1)) as session:
            row = session.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
            return int(row[0]) if row else 0

    with live_database(tmp_path / "sqlite", kind="sqlite") as old:
        seed_games(old, games=1, seats=4)
        backup = tmp_path / "delve.backup"
        assert delve(old, "backup", str(backup)).returncode == 0
    new = {**base_env(tmp_path / "postgres"), "DATABASE_URL": target}

    forced = delve(new, "restore", "--force", str(backup))
    assert forced.returncode == 1 and "--force does not apply" in forced.stderr

    stranger = tmp_path / "other.sqlite3"
    with sqlite3.connect(stranger) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    foreign = delve(new, "restore", str(stranger))
    assert foreign.returncode == 1 and "not Delve's" in foreign.stderr

    newer = tmp_path / "newer.sqlite3"
    newer.write_bytes(backup.read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute("INSERT INTO django_migrations (app, name, applied) VALUES ('games', '9999_future', '2030-01-01')")
    future = delve(new, "restore", str(newer))
    assert (
        future.returncode == 1
        and "migrated by a newer Delve" in future.stderr
        and "games.9999_future" in (future.stderr)
    )

    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(backup.read_bytes())
    with sqlite3.connect(broken) as db:  # a row the foreign keys refuse: the commit fails, all is undone
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("UPDATE games_seat SET game_id = 424242 WHERE id = (SELECT min(id) FROM games_seat)")
    source_digest = hashlib.sha256(broken.read_bytes()).hexdigest()
    failed = delve(new, "restore", str(broken))
    assert failed.returncode == 1 and "the copy failed and was undone" in failed.stderr, failed.stderr

    for result in (forced, foreign, future, failed):
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert tables() == 0, "a refused or failed copy leaves the target as it was: empty"
    assert hashlib.sha256(broken.read_bytes()).hexdigest() == source_digest, "the source is only read"
