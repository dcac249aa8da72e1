"""A whole game between two API clients (bots with tokens) on the real clock, fast: one roll a
second, the in-process worker advancing the game, until somebody wins."""

from __future__ import annotations

import time

import pytest

from delve.server import clock as server_clock
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.games.worker import start_in_thread
from delve.server.records.models import Record
from tests.server.conftest import token_client

SAFETY_NET_SECONDS = 120  # not a timing assertion: only stops a broken game from hanging the suite


@pytest.mark.django_db(transaction=True)
def test_a_full_game_between_api_clients_runs_to_a_victory(player, opponent, staff):
    assert server_clock.now() >= int(time.time()) - 1  # the real clock
    game = engine.create_game("toy", "toy", {"interval": 1, "goal": 8}, created_by=staff)
    bots = {"Ann": token_client(player), "Bob": token_client(opponent)}
    for name, bot in bots.items():
        response = bot.post(f"/api/v1/games/{game.pk}/seats", {"name": name}, content_type="application/json")
        assert response.status_code == 201, response.content
    stop_worker = start_in_thread(poll=0.1)
    rolls = 0
    try:
        deadline = time.monotonic() + SAFETY_NET_SECONDS
        while not game.commands.filter(source="clock").exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # the bots wait for the worker's first grant before they play
        assert game.commands.filter(source="clock").exists(), "the worker never advanced the game"
        finished = None
        while finished is None and time.monotonic() < deadline:
            for bot in bots.values():
                seen = bot.get(f"/api/v1/games/{game.pk}").json()
                if seen["game"]["status"] == "ended":
                    finished = seen
                    break
                legal = bot.get(f"/api/v1/games/{game.pk}/commands").json()
                if {"kind": "roll"} not in legal["commands"]:
                    continue
                response = bot.post(
                    f"/api/v1/games/{game.pk}/commands",
                    {"command": {"kind": "roll"}, "version": legal["version"]},
                    content_type="application/json",
                )
                if response.status_code == 409:  # the worker advanced the clock meanwhile: look again
                    assert response.json()["error"]["details"]["current_version"] > legal["version"]
                    continue
                assert response.status_code == 200, response.content
                rolls += 1
            time.sleep(0.05)
    finally:
        stop_worker()
    assert finished is not None, "the game did not end"
    winner = finished["outcome"]["winners"][0]
    assert finished["view"]["positions"][winner] >= 8
    assert sorted(finished["outcome"]["results"].values()) == ["lost", "won"]
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED and game.next_due_at is None
    assert game.commands.filter(source="player").count() == rolls
    assert Record.objects.filter(game=game).count() == 2
    assert Record.objects.get(game=game, won=True).character_name == finished["game"]["seats"][winner]["name"]
    events = bots["Ann"].get(f"/api/v1/games/{game.pk}/events").json()["events"]
    assert events[-1]["kind"] == "game.ended"
