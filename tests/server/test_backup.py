"""Backup and restore (``delve backup`` / ``delve restore``, issue 18): a backup taken while the
server runs and players play, restored into another database, holds consistent games: every
game's command log replays to its stored state. On SQLite (the online backup API) in the SQLite
pass and on PostgreSQL (pg_dump / pg_restore) in the PostgreSQL pass of scripts/test."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.server.live import ROOT, LiveServer, drive, live_database, report, seed_games
from tests.server.scale import audit, seed_maiden


def _delve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "delve.cli", *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_a_backup_of_a_running_server_restores_elsewhere_and_every_game_replays(tmp_path: Path) -> None:
    backup = tmp_path / "backups" / "delve.backup"
    (tmp_path / "live").mkdir()
    (tmp_path / "restored").mkdir()
    with live_database(tmp_path / "live") as env:
        players = seed_games(env, games=3, wait_time=1)
        seed_maiden(env, games=2)
        with LiveServer(env, tmp_path) as server:
            taken: list[subprocess.CompletedProcess[str]] = []

            def during(stop: threading.Event, tallies: object) -> None:
                stop.wait(3)  # players are playing: back up in the middle of it
                taken.append(_delve(env, "backup", str(backup)))
                stop.wait(2)

            tally = drive(server, players, seconds=0, seed=18, health=False, think=(0.05, 0.3), during=during)
        original = audit(env)
        with live_database(tmp_path / "restored") as elsewhere:
            assert taken[0].returncode == 0, taken[0].stderr
            again = _delve(elsewhere, "restore", str(backup))
            assert again.returncode == 0, again.stderr
            refused = _delve(elsewhere, "restore", str(backup))  # never over a database in use
            restored = audit(elsewhere)
    report(f"backup while playing: {tally.summary()}; {len(restored)} games restored")
    assert refused.returncode == 1 and "restore" in refused.stderr
    assert len(tally.acknowledged) > 0 and tally.server_errors == []
    assert set(restored) == set(original) and len(restored) == 5
    assert all(game["replays"] and game["sequences_ok"] for game in restored.values()), restored
    # The backup is a moment of the running game: no game is ahead of the original.
    assert all(restored[pk]["version"] <= original[pk]["version"] for pk in restored)
    assert any(restored[pk]["version"] < original[pk]["version"] for pk in restored), "backed up after the play?"


def test_backup_refuses_to_overwrite_and_restore_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    with live_database(tmp_path) as env:
        seed_games(env, games=1)
        existing = tmp_path / "taken"
        existing.write_text("keep me")
        result = _delve(env, "backup", str(existing))
        assert result.returncode == 1 and "exists" in result.stderr and existing.read_text() == "keep me"
        result = _delve(env, "restore", str(tmp_path / "missing.backup"))
        assert result.returncode == 1 and "is not a file" in result.stderr


def test_a_backup_is_owner_only_and_a_restore_refuses_the_other_kind_of_database(tmp_path: Path) -> None:
    """A backup holds password hashes and API tokens: it is written owner-only on SQLite and on
    PostgreSQL alike. A PostgreSQL backup restored into SQLite (or a file that is no backup) is
    refused in one line naming both, and nothing is created; a SQLite one goes into PostgreSQL
    only when that database is empty (test_to_postgres.py), and this one is not."""
    import stat

    with live_database(tmp_path) as env:
        seed_games(env, games=1)
        taken = tmp_path / "mine.backup"
        result = _delve(env, "backup", str(taken))
        assert result.returncode == 0, result.stderr
        assert stat.S_IMODE(taken.stat().st_mode) == 0o600
        postgres = "DATABASE_URL" in env
        other = tmp_path / "other.backup"
        other.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100 if postgres else b"PGDMP" + b"\x00" * 100)
        junk = tmp_path / "junk.backup"
        junk.write_bytes(b"hello, this is no backup")
        target = tmp_path / "restore-here"
        target.mkdir()
        elsewhere = {**env, "DELVE_DATA_DIR": str(target)}
        for source, says in (
            (other, "copied only into an empty PostgreSQL database" if postgres else "PostgreSQL backup"),
            (junk, "not a Delve backup"),
        ):
            result = _delve(elsewhere, "restore", str(source))
            assert result.returncode == 1, result.stderr
            assert says in result.stderr and "Traceback" not in result.stderr
            if source == junk:  # no advice to change DATABASE_URL for a file that is no backup at all
                assert "DATABASE_URL" not in result.stderr and "neither a SQLite database" in result.stderr
            assert len(result.stderr.strip().splitlines()) == 1
        if not postgres:
            assert not list(target.glob("*.sqlite3")) or all(p.stat().st_size == 0 for p in target.glob("*.sqlite3"))


@pytest.mark.postgres
def test_a_restore_refuses_a_postgresql_database_that_a_server_still_uses(tmp_path: Path) -> None:
    """`delve restore --force` over a database another process is still connected to would break
    that process (500s): it is refused in one line saying how many connections are open and that
    the servers must be stopped, and the database is left as it was. Once they are gone, it runs."""
    import psycopg

    with live_database(tmp_path) as env:
        seed_games(env, games=1)
        taken = tmp_path / "taken.backup"
        assert _delve(env, "backup", str(taken)).returncode == 0
        url = env["DATABASE_URL"].replace("postgres://", "postgresql://", 1)
        with psycopg.connect(url, autocommit=True) as server:  # a server still running
            games = server.execute("SELECT count(*) FROM games_game").fetchone()
            result = _delve(env, "restore", "--force", str(taken))
            assert result.returncode == 1, result.stdout
            assert "has 1 other open connection(s)" in result.stderr and "stop every delve serve" in result.stderr
            assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
            assert server.execute("SELECT count(*) FROM games_game").fetchone() == games
        result = _delve(env, "restore", "--force", str(taken))
        assert result.returncode == 0, result.stderr
