"""The admin is the operators' console: games, seats, logs, records, tokens. Engine-owned fields
are read-only; the logs are append-only."""

from __future__ import annotations

import pytest

from delve.server.accounts.models import ApiToken
from delve.server.games.models import CommandEntry, Game
from tests.server.conftest import session_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(staff):
    return session_client(staff)


def test_every_admin_page_opens(console, game, player, clock):
    from delve.server.games import engine

    engine.submit(game.pk, player, {"kind": "comment", "text": "hi"})
    seat = game.seats.first()
    for url in (
        "/admin/",
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/game/add/",
        "/admin/games/seat/",
        f"/admin/games/seat/{seat.pk}/change/",
        "/admin/games/commandentry/",
        "/admin/games/evententry/",
        "/admin/records/record/",
        "/admin/accounts/apitoken/",
        "/admin/accounts/apitoken/add/",
    ):
        assert console.get(url).status_code == 200, url


def test_engine_owned_fields_are_read_only(console, game):
    page = console.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    for field in ("state", "version", "seed", "next_due_at"):
        assert f'name="{field}"' not in page
    before = Game.objects.values().get(pk=game.pk)
    console.post(f"/admin/games/game/{game.pk}/change/", {"version": 99, "state": "{}", "status": "ended"})
    assert Game.objects.values().get(pk=game.pk) == before


def test_the_logs_are_append_only(console, game, player):
    from delve.server.games import engine

    engine.submit(game.pk, player, {"kind": "wait"})
    entry = CommandEntry.objects.get()
    assert console.get("/admin/games/commandentry/add/").status_code == 403
    assert console.get(f"/admin/games/commandentry/{entry.pk}/delete/").status_code == 403
    assert 'name="command"' not in console.get(f"/admin/games/commandentry/{entry.pk}/change/").content.decode()


def test_operators_create_games_in_the_admin_with_validated_settings(console, staff):
    bad = console.post("/admin/games/game/add/", {"preset": "toy:toy", "overrides": "goal=-1"})
    assert "goal: must be a positive integer, got -1" in bad.content.decode()
    assert not Game.objects.exists()
    response = console.post("/admin/games/game/add/", {"preset": "toy:toy", "overrides": "goal=5"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.settings == {"preset": "toy", "goal": 5} and game.created_by == staff


def test_operators_open_a_new_game_with_the_same_settings(console, game):
    console.post("/admin/games/game/", {"action": "open_same_settings", "_selected_action": [game.pk]})
    new = Game.objects.exclude(pk=game.pk).get()
    assert (new.settings, new.status) == (game.settings, Game.Status.OPEN)
    assert new.seed != game.seed


def test_a_token_created_in_the_admin_is_shown_once(console, player):
    response = console.post("/admin/accounts/apitoken/add/", {"user": player.pk, "name": "bot"}, follow=True)
    text = response.content.decode()
    row = ApiToken.objects.get()
    token = text.split("The new token is ")[1].split(" ")[0]
    assert ApiToken.user_for(token) == player and row.name == "bot"
