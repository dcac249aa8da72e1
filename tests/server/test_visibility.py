"""No answer and no page contains another seat's hidden information, and nobody acts for another
seat (FL-INFO). Played with ``secret-toy``: each seat's view holds ``hand-of-<name>``, and private
events carry ``grant-of-<name>`` / ``note-of-<name>``; only that seat may ever see them."""

from __future__ import annotations

import pytest
from django.test import Client

from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game, Seat
from tests.server.conftest import session_client

pytestmark = pytest.mark.django_db

SECRETS = {
    "player": ("hand-of-Ann", "grant-of-Ann", "note-of-Ann"),
    "opponent": ("hand-of-Bob", "grant-of-Bob", "note-of-Bob"),
}
PRIVATE_KINDS = ("secret.grant", "secret.note", "toy.rolled")


@pytest.fixture
def secret_game(db, clock, start_game, player, opponent):
    """A secret-toy game in which both seats have rolled, waited and commented."""
    game = start_game("secret-toy")
    clock.tick(60)
    engine.submit(game.pk, player, {"kind": "roll"})
    engine.submit(game.pk, opponent, {"kind": "roll"})
    clock.tick(60)
    engine.submit(game.pk, opponent, {"kind": "wait"})
    engine.submit(game.pk, player, {"kind": "comment", "text": "hello"})
    return game


@pytest.fixture
def browsers(player, opponent, spectator):
    """The same personas in a browser: logged-in sessions, and an anonymous visitor."""
    return {
        "player": session_client(player),
        "opponent": session_client(opponent),
        "spectator": session_client(spectator),
        "outsider": Client(),
    }


def everything(api, browser, game):
    """Every API answer (through the API client) and page (through the browser) about a game."""
    base = f"/api/v1/games/{game.pk}"
    answers = ["/api/v1/games", base, base + "/events", base + "/events?after=1", base + "/commands"]
    pages = [f"/games/{game.pk}/", "/", "/records/ann/"]
    fetched = {url: api.get(url).content.decode() for url in answers}
    fetched |= {url: browser.get(url).content.decode() for url in pages}
    return fetched


def leaks(pages, persona):
    others = [secret for who, secrets in SECRETS.items() if who != persona for secret in secrets]
    return [(url, secret) for url, body in pages.items() for secret in others if secret in body]


@pytest.mark.parametrize("persona", ["player", "opponent", "spectator", "outsider"])
def test_no_answer_or_page_shows_another_seats_hidden_information(secret_game, personas, browsers, persona, clock):
    """FL-INFO-3 (another seat's hand and stored turns are never public), FL-INFO-5 (private
    messages go to their own seat only)."""
    clock.tick(30)
    pages = everything(personas[persona], browsers[persona], secret_game)
    assert leaks(pages, persona) == []
    if persona in SECRETS:  # a seat does see its own secrets (the test would catch nothing otherwise)
        own = pages[f"/api/v1/games/{secret_game.pk}"] + pages[f"/api/v1/games/{secret_game.pk}/events"]
        assert all(secret in own for secret in SECRETS[persona])
        assert SECRETS[persona][0] in pages[f"/games/{secret_game.pk}/"]


@pytest.mark.parametrize("persona", ["spectator", "outsider"])
def test_spectators_and_visitors_see_public_events_only(secret_game, personas, persona):
    """FL-INFO-4: the public event log is the same for every viewer."""
    events = personas[persona].get(f"/api/v1/games/{secret_game.pk}/events").json()["events"]
    kinds = [event["kind"] for event in events]
    assert not set(kinds) & set(PRIVATE_KINDS)
    assert all("private" not in event for event in events)
    assert kinds == ["game.started", "toy.granted", "toy.granted", "toy.comment"]
    assert personas[persona].get(f"/api/v1/games/{secret_game.pk}").json()["view"]["stored"] is None


def test_the_event_cursor_does_not_reveal_how_many_hidden_events_there_are(secret_game, personas):
    """Cursors count the caller's own visible events, so gaps never show."""
    seen = personas["outsider"].get(f"/api/v1/games/{secret_game.pk}/events").json()
    assert seen["cursor"] == len(seen["events"])
    mine = personas["player"].get(f"/api/v1/games/{secret_game.pk}/events").json()
    assert mine["cursor"] == len(mine["events"]) > seen["cursor"]


def test_a_command_answer_carries_only_the_callers_events(secret_game, personas, clock):
    clock.tick(60)
    body = (
        personas["player"]
        .post(
            f"/api/v1/games/{secret_game.pk}/commands", {"command": {"kind": "wait"}}, content_type="application/json"
        )
        .content.decode()
    )
    assert "grant-of-Ann" in body and "note-of-Ann" in body
    assert "grant-of-Bob" not in body and "note-of-Bob" not in body


def test_the_public_seat_fields_are_public(secret_game, personas):
    """FL-INFO-1: numbers, names, registration choices (the class), comments, practice marker."""
    seats = personas["outsider"].get(f"/api/v1/games/{secret_game.pk}").json()["game"]["seats"]
    assert [(s["number"], s["name"], s["options"], s["comment"], s["keep_record"]) for s in seats] == [
        ("01", "Ann", {"colour": "red"}, "hello", True),
        ("02", "Bob", {"colour": "blue"}, "", True),
    ]


def test_nobody_can_act_for_another_seat(secret_game, personas, player, opponent, clock):
    """Every command acts for the caller's own seat: there is no way to name another."""
    clock.tick(60)
    url = f"/api/v1/games/{secret_game.pk}/commands"
    before = CommandEntry.objects.count()
    personas["player"].post(url, {"command": {"kind": "wait"}}, content_type="application/json")
    personas["opponent"].post(url, {"command": {"kind": "wait"}}, content_type="application/json")
    assert list(CommandEntry.objects.order_by("sequence").values_list("seat", flat=True))[before:] == [0, 1]
    for persona in ("spectator", "outsider"):
        response = personas[persona].post(url, {"command": {"kind": "wait"}}, content_type="application/json")
        assert response.status_code in {401, 403}
        comment = personas[persona].post(
            f"/api/v1/games/{secret_game.pk}/comment", {"text": "spoof"}, content_type="application/json"
        )
        assert comment.status_code in {401, 403}
    assert CommandEntry.objects.count() == before + 2
    assert "spoof" not in Seat.objects.values_list("comment", flat=True)


def test_the_command_form_acts_for_the_callers_own_seat_only(secret_game, spectator, opponent, clock):
    browser = session_client(spectator)
    response = browser.post(f"/games/{secret_game.pk}/command/", {"command": '{"kind": "wait"}'}, follow=True)
    assert "you have no seat in this game" in response.content.decode()
    bob = session_client(opponent)
    before = Game.objects.get(pk=secret_game.pk).version
    bob.post(f"/games/{secret_game.pk}/command/", {"command": '{"kind": "wait"}', "seat": "0"})
    assert CommandEntry.objects.get(game=secret_game, sequence=before + 1).seat == 1
