"""The game page (a placeholder screen): the caller's view, commands as forms, messages for every
refusal, comments, and the command applied on opening (FL-LOGIN)."""

from __future__ import annotations

import pytest

from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from tests.server.conftest import session_client

pytestmark = pytest.mark.django_db


def test_a_player_sees_their_view_and_their_legal_commands(game, player, clock):
    """FL-LOGIN-1: a logged-in player opens their game screen."""
    clock.tick(60)
    page = session_client(player).get(f"/games/{game.pk}/").content.decode()
    assert "Your view" in page and "&quot;stored&quot;: 1" in page
    assert "you play 01 Ann" in page
    assert page.count(f'action="/games/{game.pk}/command/"') == 3  # wait, roll, and the JSON form


def test_a_visitor_sees_the_public_view_and_no_forms(client, game):
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Spectator view" in page and "&quot;stored&quot;: null" in page
    assert "/command/" not in page and "/comment/" not in page


def test_commands_from_the_page_say_what_happened(game, player, clock):
    browser = session_client(player)
    done = browser.post(f"/games/{game.pk}/command/", {"command": '{"kind": "wait"}', "version": "1"}, follow=True)
    assert "Done." in done.content.decode()
    stale = browser.post(f"/games/{game.pk}/command/", {"command": '{"kind": "wait"}', "version": "1"}, follow=True)
    assert "the game is at version 2, not 1" in stale.content.decode()
    illegal = browser.post(f"/games/{game.pk}/command/", {"command": '{"kind": "roll"}'}, follow=True)
    assert "is not legal now (command/illegal)" in illegal.content.decode()
    broken = browser.post(f"/games/{game.pk}/command/", {"command": "{roll"}, follow=True)
    assert "The command is not valid JSON" in broken.content.decode()
    assert CommandEntry.objects.count() == 1


def test_a_double_click_applies_once(game, player):
    browser = session_client(player)
    for _ in range(2):
        browser.post(f"/games/{game.pk}/command/", {"command": '{"kind": "wait"}', "key": "form-1"})
    assert CommandEntry.objects.count() == 1


def test_commenting_from_the_page(game, opponent, client):
    """FL-COM-1, FL-COM-2, AMB-62: a comment is allowed whenever logged in and shown to all."""
    session_client(opponent).post(f"/games/{game.pk}/comment/", {"text": "ready"})
    assert "ready" in client.get(f"/games/{game.pk}/").content.decode()


def test_opening_the_game_applies_the_command_on_open_once(db, clock, start_game, player, opponent):
    """FL-LOGIN-3: loading the screen while a turn is stored consumes it (here: rolls it),
    as its own logged command; reloading without one changes nothing."""
    game = start_game("opening-toy")
    browser = session_client(player)
    browser.get(f"/games/{game.pk}/")
    assert not CommandEntry.objects.exists()  # nothing stored yet: no write at all
    clock.tick(60)
    browser.get(f"/games/{game.pk}/")
    browser.get(f"/games/{game.pk}/")
    entry = CommandEntry.objects.get()
    assert (entry.seat, entry.command, entry.source, entry.idempotency_key) == (0, {"kind": "roll"}, "open", None)
    state = engine.load_state(Game.objects.get(pk=game.pk))
    assert (state.seats[0].stored, state.seats[1].stored) == (0, 1)


def test_opening_through_the_api_applies_it_too_but_not_for_spectators(db, clock, start_game, personas):
    game = start_game("opening-toy")
    clock.tick(60)
    personas["spectator"].get(f"/api/v1/games/{game.pk}")
    personas["outsider"].get(f"/api/v1/games/{game.pk}")
    assert not CommandEntry.objects.exists()
    view = personas["opponent"].get(f"/api/v1/games/{game.pk}").json()
    assert view["view"]["stored"] == 0 and view["game"]["version"] == 2
    assert CommandEntry.objects.get().seat == 1


def test_the_ended_game_page_shows_the_results(game, player, client, clock):
    from tests.server.test_commands import finish

    finish(game, player, clock)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "The game has ended." in page
    assert "01 Ann: won" in page and "02 Bob: lost" in page
