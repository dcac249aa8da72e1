"""The turn clock: ``delve tick`` claims due games with compare-and-swap and advances them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from delve.server.games import engine
from delve.server.games.models import CommandEntry, EventEntry, Game
from delve.server.games.worker import Worker
from tests.server.conftest import START

pytestmark = pytest.mark.django_db


def test_a_due_game_is_advanced_once_and_gets_its_next_due_time(game, clock):
    clock.tick(60)
    assert Worker("w1").run_once() == 1
    game.refresh_from_db()
    assert game.version == 2
    assert game.next_due_at == START + 120
    assert (game.claimed_until, game.claimed_by) == (None, "")
    entry = CommandEntry.objects.get(game=game, sequence=2)
    assert (entry.seat, entry.command, entry.source, entry.time) == (None, None, "clock", START + 60)
    assert EventEntry.objects.filter(game=game, kind="toy.granted").count() == 1
    assert Worker("w1").run_once() == 0  # nothing is due any more


def test_a_game_that_is_not_due_is_left_alone(game, clock):
    clock.tick(59)
    assert Worker("w1").run_once() == 0
    game.refresh_from_db()
    assert game.version == 1


def test_a_late_worker_catches_up_in_one_advance(game, clock):
    clock.tick(600)
    Worker("w1").run_once()
    game.refresh_from_db()
    assert EventEntry.objects.filter(game=game, kind="toy.granted").count() == 10
    assert game.next_due_at == START + 660
    assert engine.load_state(game).seats[0].stored == 3  # the toy stores at most 3 rolls


def test_open_and_ended_games_are_never_claimed(make_game, game, player, clock):
    open_game = make_game()
    Game.objects.filter(pk=open_game.pk).update(next_due_at=START)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ENDED)
    clock.tick(3600)
    assert Worker("w1").claim(clock.t) is None


def test_a_claim_is_a_compare_and_swap(game, clock):
    clock.tick(60)
    first, second = Worker("w1"), Worker("w2")
    assert first.claim(clock.t) == game.pk
    assert second.claim(clock.t) is None  # the lease is held
    game.refresh_from_db()
    assert (game.claimed_by, game.claimed_until) == ("w1", clock.t + first.lease)


def test_an_expired_lease_can_be_taken_over_and_the_old_holder_does_nothing(game, clock):
    clock.tick(60)
    crashed, rescuer = Worker("crashed"), Worker("rescuer")
    assert crashed.claim(clock.t) == game.pk
    clock.tick(crashed.lease + 1)
    assert rescuer.claim(clock.t) == game.pk
    assert crashed.process(game.pk) is False  # no longer its claim
    assert rescuer.process(game.pk) is True
    assert CommandEntry.objects.filter(game=game, source="clock").count() == 1


def test_a_game_advanced_by_a_command_meanwhile_is_released_untouched(game, player, clock):
    clock.tick(60)
    worker = Worker("w1")
    assert worker.claim(clock.t) == game.pk
    engine.submit(game.pk, player, {"kind": "roll"})  # advances the clock itself
    assert worker.process(game.pk) is False
    game.refresh_from_db()
    assert (game.claimed_by, game.claimed_until) == ("", None)
    assert not CommandEntry.objects.filter(source="clock").exists()


def test_a_game_of_an_unknown_ruleset_keeps_its_lease_and_does_not_stop_the_worker(game, make_game, clock):
    Game.objects.filter(pk=game.pk).update(ruleset="gone")
    other = make_game()
    engine.register(other.pk, game.seats.get(index=0).user, "A")
    engine.register(other.pk, game.seats.get(index=1).user, "B")
    clock.tick(60)
    assert Worker("w1").run_once() == 1
    game.refresh_from_db()
    assert game.claimed_by == "w1" and game.version == 1


def test_the_worker_ends_games_and_writes_records(db, clock, start_game, player, opponent):
    """FL-REC-1: records are written when the worker's advance ends the game, too."""
    game = start_game("opening-toy", goal=1)  # the first roll wins
    clock.tick(60)
    engine.open_game(game.pk, player)  # rolls, wins
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert player.records.get().won and not opponent.records.get().won


def test_delve_tick_stops_cleanly_on_sigterm(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    env["DELVE_DATA_DIR"] = str(tmp_path)
    migrate = subprocess.run(
        [sys.executable, "-m", "delve.cli", "manage", "migrate", "-v0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrate.returncode == 0, migrate.stderr
    once = subprocess.run(
        [sys.executable, "-m", "delve.cli", "tick", "--once"], env=env, capture_output=True, text=True, timeout=60
    )
    assert (once.returncode, once.stdout.strip()) == (
        0,
        "advanced 0 game(s); bots played 0 command(s); standing orders answered 0; "
        "notifications: 0 new, 0 sent, 0 failed",
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "delve.cli", "tick", "--interval", "0.2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        assert "ready" in worker.stdout.readline()
        worker.send_signal(signal.SIGTERM)
        out, err = worker.communicate(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
    assert worker.returncode == 0, err
    assert "stopped after 0 advance(s)" in out
    assert "Traceback" not in err


def test_delve_serve_runs_a_worker_in_process_and_stops_it_on_sigterm(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    env["DELVE_DATA_DIR"] = str(tmp_path)
    server = subprocess.Popen(
        [sys.executable, "-m", "delve.cli", "serve", "--port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        lines = []
        for line in server.stdout:
            lines.append(line)
            if "Uvicorn running" in line:
                break
        assert any("delve.worker" in line and "started" in line for line in lines), lines
        server.send_signal(signal.SIGTERM)
        rest, _ = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, rest
    assert "stopped after 0 advances" in rest
