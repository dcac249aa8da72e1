"""The game page (a placeholder screen): the caller's view, commands as forms, messages for every
refusal, comments, and the command applied on opening (FL-LOGIN)."""

from __future__ import annotations

import pytest
from django.test import Client

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


def test_opening_the_game_applies_the_command_on_open_once_FL_TURN_8(db, clock, start_game, player, opponent):
    """FL-LOGIN-3, FL-TURN-8: the page's own opening post consumes a stored turn (here: rolls it),
    as its own logged command; a second post finds nothing to open. Loading the page (a GET,
    which another site can trigger) never does: it only carries the opening form while there is
    something to open."""
    game = start_game("opening-toy")
    browser = session_client(player)
    assert 'id="opening"' not in browser.get(f"/games/{game.pk}/").content.decode()
    clock.tick(60)
    html = browser.get(f"/games/{game.pk}/").content.decode()
    browser.get(f"/games/{game.pk}/")
    assert 'id="opening"' in html and "delve/open.js" in html
    assert not CommandEntry.objects.exists()  # GETs changed nothing
    assert browser.post(f"/games/{game.pk}/open/").status_code == 302
    browser.post(f"/games/{game.pk}/open/")
    entry = CommandEntry.objects.get()
    assert (entry.seat, entry.command, entry.source, entry.idempotency_key) == (0, {"kind": "roll"}, "open", None)
    state = engine.load_state(Game.objects.get(pk=game.pk))
    assert (state.seats[0].stored, state.seats[1].stored) == (0, 1)
    assert 'id="opening"' not in browser.get(f"/games/{game.pk}/").content.decode()


def test_the_opening_is_a_csrf_protected_post_FL_TURN_8(db, clock, start_game, player):
    """A cross-site form cannot start a turn: without the page's CSRF token the post is refused,
    and GET is not allowed at all."""
    game = start_game("opening-toy")
    clock.tick(60)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(f"/games/{game.pk}/open/").status_code == 403
    assert strict.get(f"/games/{game.pk}/open/").status_code == 405
    assert not CommandEntry.objects.exists()


def test_reading_the_game_through_the_api_never_changes_it(db, clock, start_game, personas):
    """The API's GET of a game is a read for everyone, seated or not: a stored turn stays stored
    (an API client starts it with its command)."""
    game = start_game("opening-toy")
    clock.tick(60)
    for persona in ("player", "opponent", "spectator", "outsider"):
        assert personas[persona].get(f"/api/v1/games/{game.pk}").status_code == 200
    assert not CommandEntry.objects.exists()
    view = personas["opponent"].get(f"/api/v1/games/{game.pk}").json()
    assert view["view"]["stored"] == 1


def test_the_ended_game_page_shows_the_results(game, player, client, clock):
    from tests.server.test_commands import finish

    finish(game, player, clock)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "The game has ended." in page
    assert "01 Ann: won" in page and "02 Bob: lost" in page
