"""Load against the real server (``delve serve`` as a subprocess, see live.py): many concurrent
clients look at games, check /healthz and submit real Fated Labyrinth commands over HTTP.

Issue 16: 256 clients on PostgreSQL (a bounded connection pool, never "too many clients") and 64
on SQLite with one server process (writers queue on one lock, never "database is locked"): no
server error, /healthz always 200, every acknowledged command in the log, every game replays.
"""

from __future__ import annotations

import pytest

from tests.server.live import (
    LiveServer,
    command_log,
    drive,
    live_database,
    lost_commands,
    report,
    seed_games,
    sqlite_only,
)


def run_load(tmp_path, *, clients: int, seconds: float, server_args: tuple[str, ...] = ()) -> None:
    with live_database(tmp_path) as env:
        players = seed_games(env, games=clients // 4)
        with LiveServer(env, tmp_path, *server_args) as server:
            tally = drive(server, players, seconds=seconds, seed=clients, think=(0.2, 1.0))
            log_tail = server.log_tail()
        audit = command_log(env)
    report(f"load {clients} clients: {tally.summary()}")
    assert tally.server_errors == [], (tally.summary(), tally.server_errors[:5], log_tail)
    assert tally.transport_errors == 0, (tally.summary(), log_tail)
    assert len(tally.acknowledged) > clients // 4, tally.summary()  # real commands were played
    assert lost_commands(tally.acknowledged, audit) == []
    assert all(game["replays"] and game["sequences_ok"] for game in audit["games"].values()), audit["games"]


@pytest.mark.postgres
def test_256_concurrent_clients_on_postgresql_get_no_server_error_and_lose_no_command(tmp_path):
    run_load(tmp_path, clients=256, seconds=15)


@sqlite_only
def test_64_concurrent_clients_on_one_sqlite_process_get_no_server_error_and_lose_no_command(tmp_path):
    run_load(tmp_path, clients=64, seconds=15)
