"""Bots at the table: the worker lets bot seats play through the normal submit path; the demo."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection

from delve.server import clock
from delve.server.games import bots, demo, engine
from delve.server.games.models import CommandEntry, Game


@pytest.mark.django_db
def test_the_demo_creates_a_running_game_against_bots_and_an_open_one():
    games = demo.create()
    assert games.running.status == Game.Status.RUNNING
    assert games.running.seats.filter(is_bot=True).count() == 3
    assert games.open.status == Game.Status.OPEN and games.open.seats.count() == 5
    user = get_user_model().objects.get(username=demo.DEMO_USER)
    assert user.check_password(demo.DEMO_PASSWORD)
    assert not get_user_model().objects.get(username="bot-1").has_usable_password()


@pytest.mark.django_db
def test_bots_play_through_the_normal_submit_path(monkeypatch):
    games = demo.create(wait_time="10s")
    game = games.running
    start = game.started_at
    played = 0
    for t in range(start, start + 120, 2):
        monkeypatch.setattr(clock, "now", lambda t=t: t)
        played += bots.play_once(game.pk)
    assert played > 0
    game.refresh_from_db()
    entries = CommandEntry.objects.filter(game=game)
    assert entries.count() == played
    bot_seats = set(game.seats.filter(is_bot=True).values_list("index", flat=True))
    assert {e.seat for e in entries} <= bot_seats  # the human seat was never played
    assert all(e.idempotency_key.startswith("bot-") for e in entries)


@pytest.mark.django_db(transaction=True)
def test_two_workers_never_apply_a_bot_move_twice(monkeypatch):
    games = demo.create(wait_time="10s")
    game_id = games.running.pk
    start = games.running.started_at
    monkeypatch.setattr(clock, "now", lambda: start + 30)
    barrier = threading.Barrier(2)

    def run() -> None:
        try:
            barrier.wait()
            for _ in range(5):
                bots.play_once(game_id)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    keys = list(CommandEntry.objects.filter(game_id=game_id).values_list("seat", "idempotency_key"))
    assert len(keys) == len(set(keys))
    versions = list(CommandEntry.objects.filter(game_id=game_id).values_list("sequence", flat=True))
    assert len(versions) == len(set(versions))


@pytest.mark.django_db
def test_a_game_without_bots_is_left_alone():
    user = get_user_model().objects.create_user("solo", password="pw-123456789")
    game = engine.create_game("fated", "fated-labyrinth", {})
    engine.register(game.pk, user, "Solo", {"class": "cat"})
    assert bots.play_once(game.pk) == 0
