"""Comments through every path (FL-COM-1): the API, the Fated screen and the generic page apply
one check (``inputs.comment_text``, from ``engine.check_command``) with one message; a form
without its text field changes nothing; a White Maiden game, which has no comments, says so.
Findings of an outside probe."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest

from delve.server.games.models import CommandEntry, Game, Seat
from delve.server.inputs import COMMENT_CONTROL
from delve.server.play.views import FRIENDLY_MESSAGES
from tests.server.conftest import session_client, token_client
from tests.server.fated_kit import fated_game
from tests.server.maiden_kit import maiden_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CONTROLLED = ["tab\there\x1b[31mred", "a\nb", "bell\x07", "c1\x85control", "\r"]


@pytest.fixture
def fated(clock: Any, player: Any, opponent: Any, make_user: Any) -> Game:
    return fated_game([player, opponent, make_user("dee"), make_user("eve")])


def stored(game: Game) -> tuple[int, list[str], int]:
    game.refresh_from_db()
    comments = list(Seat.objects.filter(game=game).order_by("index").values_list("comment", flat=True))
    return CommandEntry.objects.filter(game=game).count(), comments, game.version


@pytest.mark.parametrize("text", CONTROLLED)
def test_a_comment_with_a_control_character_is_refused_alike_by_the_api_and_the_screens(fated, player, text):
    """FL-COM-1: the screen stored "tab\\there\\x1b[31mred" as it came while the API refused it:
    now both refuse it, with the same message, and store nothing."""
    before = stored(fated)
    api = token_client(player).post(
        f"/api/v1/games/{fated.pk}/comment", {"text": text}, content_type="application/json"
    )
    assert api.status_code == 400
    assert api.json()["error"] == {"code": "request/malformed", "message": COMMENT_CONTROL}
    screen = session_client(player).post(f"/games/{fated.pk}/act/", {"comment": text}, **HTMX)
    assert screen.status_code == 200  # the screen shows a refusal inline, as its others
    assert COMMENT_CONTROL in unescape(screen.content.decode())
    assert "Your comment is updated." not in screen.content.decode()
    page = session_client(player).post(f"/games/{fated.pk}/comment/", {"text": text}, follow=True)
    assert COMMENT_CONTROL in unescape(page.content.decode())
    commands = token_client(player).post(
        f"/api/v1/games/{fated.pk}/commands",
        {"command": {"kind": "comment", "text": text}},
        content_type="application/json",
    )
    assert commands.status_code == 400
    assert "without control characters" in commands.json()["error"]["message"]
    assert stored(fated) == before


def test_the_screen_says_it_in_japanese_too(fated, player):
    assert str(FRIENDLY_MESSAGES[COMMENT_CONTROL]) == COMMENT_CONTROL
    screen = session_client(player).post(
        f"/games/{fated.pk}/act/", {"comment": "a\tb"}, HTTP_ACCEPT_LANGUAGE="ja", **HTMX
    )
    assert "コメントは1行" in unescape(screen.content.decode())


def test_spaces_of_every_script_are_still_fine_in_a_comment(fated, player):
    response = token_client(player).post(
        f"/api/v1/games/{fated.pk}/comment", {"text": "On my way\u3000よろしく"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content


def test_a_comment_form_without_its_text_field_changes_nothing(game, player):
    """FL-COM-1: an empty form (no text field at all) cleared the comment; now it is a 400 page.
    An empty text field still clears the comment, as the page's form does."""
    client = session_client(player)
    client.post(f"/games/{game.pk}/comment/", {"text": "ready"})
    before = stored(game)
    assert before[1][0] == "ready"
    response = client.post(f"/games/{game.pk}/comment/", {})
    assert response.status_code == 400
    assert "the comment form has no text field" in unescape(response.content.decode())
    assert stored(game) == before
    client.post(f"/games/{game.pk}/comment/", {"text": ""})
    assert stored(game)[1][0] == ""


def test_a_white_maiden_game_has_no_comments_and_says_so(clock, player, opponent):
    """The API answered 422 command/malformed quoting a Python dict and msgspec's text."""
    game = maiden_game([player, opponent])
    before = stored(game)
    response = token_client(player).post(
        f"/api/v1/games/{game.pk}/comment", {"text": "x"}, content_type="application/json"
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "command/illegal"
    assert "have no player comments" in error["message"] and f"/games/{game.pk}/chat/" in error["message"]
    assert "{" not in error["message"] and "msgspec" not in error["message"]
    page = session_client(player).post(f"/games/{game.pk}/comment/", {"text": "x"}, follow=True)
    assert "have no player comments" in unescape(page.content.decode())
    assert stored(game) == before
