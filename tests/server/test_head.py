"""HEAD is answered wherever GET is (RFC 9110 §9.3.2: a server that serves GET serves HEAD): the
GET's status and headers without a body. An outside probe found 405 on every page, the health
check, the API and the live stream; a HEAD on the live stream answers at once, never streaming."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from delve.server.live import hub as hub_module
from tests.server.conftest import session_client

pytestmark = pytest.mark.django_db


def paths(game: Any) -> list[str]:
    return [
        "/",
        "/healthz",
        "/help/",
        "/accounts/signup/",
        "/accounts/login/",
        f"/games/{game.pk}/",
        "/api/v1/games",
        f"/api/v1/games/{game.pk}",
        f"/api/v1/games/{game.pk}/events",
        "/api/v1/openapi.json",
        "/api/v1/docs",
    ]


def test_head_answers_like_get_without_a_body_wherever_get_is_served(game):
    client = Client()
    for path in paths(game):
        got = client.get(path)
        head = client.head(path)
        assert head.status_code == got.status_code == 200, (path, head.status_code, got.status_code)
        assert head["Content-Type"] == got["Content-Type"], path
        assert head.content == b"", path


def test_head_on_a_players_pages_and_the_api_with_a_login(game, player):
    client = session_client(player)
    for path in (f"/games/{game.pk}/", f"/api/v1/games/{game.pk}/commands", "/records/", "/maiden/new/"):
        response = client.head(path)
        assert response.status_code == 200, (path, response.status_code)


def test_head_on_the_live_stream_answers_its_headers_at_once(game, monkeypatch):
    subscribed: list[int] = []
    real = hub_module.hub()
    original = real.subscribe
    monkeypatch.setattr(real, "subscribe", lambda game_id: subscribed.append(game_id) or original(game_id))
    response = Client().head(f"/games/{game.pk}/live/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert not response.streaming and response.content == b""
    assert subscribed == [], "a HEAD opens no subscription"


def test_head_is_still_refused_where_only_post_is_served(game, player):
    client = session_client(player)
    page = client.head(f"/games/{game.pk}/act/")
    assert page.status_code == 405 and "POST" in page["Allow"]
    api = client.head(f"/api/v1/games/{game.pk}/comment")
    assert api.status_code == 405 and api["Allow"] == "POST"
    assert Client().options("/api/v1/games").status_code == 405
    assert "HEAD" in Client().post("/api/v1/games").headers["Allow"]
