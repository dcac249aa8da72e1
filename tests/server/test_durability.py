"""Durability (issue 16): the real server (``delve serve``, with its in-process turn-clock worker)
is killed with SIGKILL at seeded random moments while concurrent players submit real Fated
Labyrinth commands over HTTP, and restarted each time. Afterwards every acknowledged command
(a 2xx answer received) is in the command log with the sequence it was acknowledged with, the
log has no gaps, and every game replays from its seed and log to exactly its stored state.

Runs on the database of the pass: SQLite in the SQLite pass, PostgreSQL in the PostgreSQL pass.
The suite kills 20 times; the long run (marked slow) kills 100 times:

    .venv/bin/pytest tests/server/test_durability.py -m slow -s
"""

from __future__ import annotations

import random
import time

import pytest

from tests.server.live import LiveServer, command_log, drive, live_database, lost_commands, report, seed_games


def kill_and_restart(tmp_path, *, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    with live_database(tmp_path) as env:
        players = seed_games(env, games=4)  # 16 concurrent players
        server = LiveServer(env, tmp_path, "--tick-interval", "0.2")
        server.start()
        killed = 0

        def killer(stop, tallies) -> None:
            nonlocal killed
            while killed < kills:
                # Play resumes (a command is acknowledged) after each start, then the kill comes
                # at a random moment of the play that follows, often in the middle of commands.
                acknowledged = sum(len(tally.acknowledged) for tally in tallies)
                deadline = time.monotonic() + 120
                while sum(len(tally.acknowledged) for tally in tallies) == acknowledged:
                    assert time.monotonic() < deadline, "no command was acknowledged after a restart"
                    stop.wait(0.05)
                stop.wait(rng.uniform(0.0, 0.8))
                server.kill()
                killed += 1
                server.start()
            stop.wait(1.0)  # a last stretch of play on the final restart

        try:
            tally = drive(server, players, seconds=0, seed=seed, health=False, during=killer)
        finally:
            log_tail = server.log_tail()
            server.stop()
        audit = command_log(env)
    report(f"durability {len(players)} players, {killed} kills: {tally.summary()}")
    assert killed == kills and server.starts == kills + 1
    assert tally.server_errors == [], (tally.server_errors[:5], log_tail)
    assert len(tally.acknowledged) >= kills, tally.summary()  # commands were acknowledged between kills
    assert lost_commands(tally.acknowledged, audit) == []
    for game_id, game in audit["games"].items():
        assert game["sequences_ok"], f"game {game_id}: the command log has a gap or a repeat"
        assert game["replays"], f"game {game_id} does not replay to its stored state"


def test_no_acknowledged_command_is_lost_through_20_sigkills_and_every_game_replays(tmp_path):
    kill_and_restart(tmp_path, kills=20, seed=20)


@pytest.mark.slow
def test_no_acknowledged_command_is_lost_through_100_sigkills_and_every_game_replays(tmp_path):
    kill_and_restart(tmp_path, kills=100, seed=100)
