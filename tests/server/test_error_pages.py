"""The pages a browser gets when a request goes wrong: a missing page (404), a form sent without
its security token (403), a server error (500). Each is the site's own page, in the visitor's
language, says what happened and what to do, links back to the list of games, and shows nothing
of the server's inside."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from delve.server.games.models import Game
from tests.server.conftest import PASSWORD, session_client

pytestmark = pytest.mark.django_db


def _is_site_page(html: str, status: int) -> None:
    assert f"({status})" in html
    assert 'href="/"' in html and "site.css" in html
    assert "Traceback" not in html and "django" not in html.lower()


@pytest.mark.parametrize(
    ("lang", "title", "advice"),
    [
        ("en", "This page does not exist", "Check the address"),
        ("ja", "このページはありません", "アドレスを確かめる"),
    ],
)
def test_a_missing_page_is_the_sites_own_404_in_the_visitors_language(
    player: Any, lang: str, title: str, advice: str
) -> None:
    client = session_client(player)
    for url in ("/games/999999/", "/no/such/page/", "/games/999999/replay/"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 404, url
        html = response.content.decode()
        assert title in html and advice in html, url
        assert f'lang="{lang}"' in html
        _is_site_page(html, 404)


def test_the_replay_of_a_game_still_running_is_not_found(player: Any, game: Game) -> None:
    """Not found, and said why: the replay opens when the game ends (a page of the site)."""
    response = session_client(player).get(f"/games/{game.pk}/replay/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "The replay and the export open when the game ends" in html and "This page does not exist" not in html
    assert f'href="/games/{game.pk}/"' in html


def test_a_form_sent_without_its_security_token_is_refused_with_a_way_on_and_changes_nothing(
    player: Any,
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": "x" * 20})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Reload the page and try again." in html and "This request was refused" in html
    _is_site_page(html, 403)
    player.refresh_from_db()
    assert player.check_password(PASSWORD)  # nothing changed


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "Something went wrong on the server"), ("ja", "サーバーでエラーが起きました")]
)
def test_a_server_error_is_the_sites_own_500_page(lang: str, title: str) -> None:
    request = RequestFactory().get("/")
    with translation.override(lang):
        response = server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    assert title in html
    _is_site_page(html, 500)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "This address takes a form sent from a page"), ("ja", "直接開くことはできません")],
)
def test_a_page_address_visited_with_a_method_it_does_not_take_gets_the_error_page(
    player: Any, game: Game, lang: str, words: str
) -> None:
    client = session_client(player)
    for url in ("/accounts/logout/", f"/games/{game.pk}/command/"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 405, url
        assert "POST" in response["Allow"]
        html = response.content.decode()
        assert words in html, url
        _is_site_page(html, 405)
    # the API keeps its JSON answer
    api = client.delete(f"/api/v1/games/{game.pk}/commands", HTTP_ACCEPT_LANGUAGE=lang)
    assert api.status_code == 405 and api.json()["error"]["code"] == "request/method_not_allowed"


def test_a_delve_error_while_drawing_a_page_is_logged_with_its_traceback(
    make_user: Any, game: Game, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A DelveError raised while a GET page is drawn (a page that cannot be drawn looks like a
    refusal) answers the same 4xx page as before, and the server's logger keeps a warning with
    the traceback; a POST's refusal and a malformed query (a user's error) stay quiet."""
    import logging

    from delve.kernel import DelveError
    from delve.server.play import views

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise DelveError("the page could not be drawn", code="game/broken")

    from tests.server.fated_kit import fated_game

    users = [make_user(name) for name in ("ula", "vic", "wes", "xia")]
    fated = fated_game(users)
    client = session_client(users[0])
    caplog.set_level(logging.INFO, logger="delve.server")
    refused = client.post(f"/games/{fated.pk}/act/", {"version": "abc", "command": "{}"})
    assert refused.status_code == 400 and "version" in refused.content.decode()
    ours = lambda: [r for r in caplog.records if r.name == "delve.server" and r.levelno >= logging.WARNING]  # noqa: E731
    assert not ours(), "a POST refusal stays quiet"
    malformed = client.get(f"/games/{fated.pk}/log/", {"show": "nope"})
    assert malformed.status_code == 400 and not ours(), "a malformed query is the user's error: quiet"
    monkeypatch.setattr(views, "_generic_page", broken)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 400
    _is_site_page(response.content.decode(), 400)
    [record] = ours()
    assert record.levelno == logging.WARNING
    assert f"GET /games/{game.pk}/" in record.getMessage() and "the page could not be drawn" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is DelveError
    assert "in broken" in caplog.text  # the traceback, down to the raising frame
