"""The top page and the staff form that opens games (FL-CFG-1: the active settings are shown)."""

from __future__ import annotations

import pytest

from delve.server.games.forms import parse_overrides
from delve.server.games.models import Game

pytestmark = pytest.mark.django_db


def test_the_top_page_shows_running_and_open_games_with_their_active_settings(client, game, make_game):
    """FL-CFG-1: players see the rules of the game they join."""
    open_game = make_game(goal=33)
    page = client.get("/").content.decode()
    assert "Open for registration" in page and "Running games" in page
    assert f"Game {open_game.pk} — Toy race" in page
    assert "<dt>goal</dt><dd>33</dd>" in page
    assert f'href="/games/{game.pk}/"' in page
    assert "log in" in page and "sign up" in page


def test_the_top_page_is_translated(client, make_game):
    make_game()
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<html lang="ja">' in page
    assert "参加受付中" in page and "おもちゃレース" in page


def test_only_staff_may_open_games(client, player):
    client.force_login(player)
    assert client.get("/games/new/").status_code == 302  # to the admin login


def test_staff_open_a_game_from_a_preset_with_overrides(client, staff):
    client.force_login(staff)
    form = client.get("/games/new/").content.decode()
    assert '<option value="toy:toy">toy — Toy race</option>' in form
    response = client.post("/games/new/", {"preset": "toy:toy", "overrides": "players=3\ngoal = 50"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.ruleset, game.preset, game.settings, game.seat_count) == (
        "toy",
        "toy",
        {"preset": "toy", "players": 3, "goal": 50},
        3,
    )
    assert game.created_by == staff and game.status == Game.Status.OPEN
    assert 0 <= game.seed < 2**63


def test_the_open_button_reads_as_an_action_in_japanese(client, staff):
    """The lobby heading says the games are open (参加受付中); the form's button opens one (an action)."""
    client.force_login(staff)
    form = client.get("/games/new/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<button type="submit">参加受付を始める</button>' in form
    assert "参加受付中" not in form


def test_invalid_settings_are_refused_with_a_message_naming_the_setting(client, staff):
    client.force_login(staff)
    response = client.post("/games/new/", {"preset": "toy:toy", "overrides": '{"goal": 0}'})
    assert response.status_code == 400
    assert "setting &#x27;goal&#x27;: must be a positive integer, got 0" in response.content.decode()
    unknown = client.post("/games/new/", {"preset": "toy:toy", "overrides": "speed=3"}).content.decode()
    assert "setting &#x27;speed&#x27;: unknown setting" in unknown
    bad_line = client.post("/games/new/", {"preset": "toy:toy", "overrides": "goal"}).content.decode()
    assert "is not key=value" in bad_line
    bad_json = client.post("/games/new/", {"preset": "toy:toy", "overrides": "{goal"}).content.decode()
    assert "not valid JSON" in bad_json
    no_preset = client.post("/games/new/", {"preset": "toy:nope", "overrides": ""}).content.decode()
    assert "Select a valid choice" in no_preset
    assert not Game.objects.exists()


def test_overrides_are_json_or_key_value_lines():
    assert parse_overrides("") == {}
    assert parse_overrides('{"players": 8}') == {"players": 8}
    assert parse_overrides("# comment\nplayers=8\nname = Level D\nfast=true") == {
        "players": 8,
        "name": "Level D",
        "fast": True,
    }
