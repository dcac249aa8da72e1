"""Spectators (issue 15): anybody may watch a running game through its public view, with no hidden
fact; the host can close it to spectators (pages, polls, panels and the API's game reads), and
open it again; players, the host and operators always see it; finished games stay public."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.social.models import SpectatorPolicy
from tests.server.conftest import session_client, token_client


@pytest.fixture
def secret_game(db: None, clock: Any, staff: Any, player: Any, opponent: Any) -> Game:
    """A running secret-toy game hosted by ``staff``: every seat has secrets (``hand-of-Ann``...)."""
    game = engine.create_game("secret-toy", "toy", {}, created_by=staff)
    engine.register(game.pk, player, "Ann", {"colour": "red"})
    engine.register(game.pk, opponent, "Bob", {"colour": "blue"})
    clock.tick(300)
    engine.submit(game.pk, player, {"kind": "roll"})
    game.refresh_from_db()
    return game


SECRETS = ("hand-of-", "note-of-", "grant-of-")


def test_a_spectator_sees_the_public_view_with_no_hidden_fact(secret_game, spectator):
    for client in (session_client(spectator), Client()):
        page = client.get(f"/games/{secret_game.pk}/")
        api = client.get(f"/api/v1/games/{secret_game.pk}")
        events = client.get(f"/api/v1/games/{secret_game.pk}/events")
        assert page.status_code == api.status_code == events.status_code == 200
        for body in (page.content.decode(), api.content.decode(), events.content.decode()):
            assert not any(secret in body for secret in SECRETS), body[:300]
        assert api.json()["seat"] is None
    assert (
        "hand-of-Ann"
        in session_client(secret_game.seats.get(name="Ann").user).get(f"/games/{secret_game.pk}/").content.decode()
    )


def test_the_gate_reads_a_running_games_status_and_policy_in_one_query(secret_game, staff, spectator):
    """The gate runs before every read of a game's pages and API: for a running game open to
    spectators (with or without a policy row) it asks the database once, game and policy joined."""
    for policy in (None, True):
        if policy is not None:
            SpectatorPolicy.objects.create(game=secret_game, allowed=policy)
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(f"/api/v1/games/{secret_game.pk}").status_code == 200
        asked = [q["sql"] for q in queries.captured_queries if "social_spectatorpolicy" in q["sql"]]
        assert len(asked) == 1 and "games_game" in asked[0], asked


def close(game: Game, host: Any) -> Any:
    return session_client(host).post(f"/games/{game.pk}/spectators/", {"allowed": "0"})


def test_the_host_closes_a_game_to_spectators_and_opens_it_again(secret_game, staff, spectator, player, opponent):
    page = session_client(staff).get(f"/games/{secret_game.pk}/").content.decode()
    assert "Close to spectators" in page
    assert close(secret_game, staff).status_code == 302
    for client in (session_client(spectator), Client(), token_client(spectator)):
        assert client.get(f"/games/{secret_game.pk}/").status_code == 403
        response = client.get(f"/api/v1/games/{secret_game.pk}")
        assert response.status_code == 403 and response.json()["error"]["code"] == "game/no_spectators"
        assert client.get(f"/api/v1/games/{secret_game.pk}/events").status_code == 403
    refused = session_client(spectator).get(f"/games/{secret_game.pk}/").content.decode()
    assert "closed it to spectators" in refused
    for user in (player, opponent, staff):
        assert session_client(user).get(f"/games/{secret_game.pk}/").status_code == 200
        assert session_client(user).get(f"/api/v1/games/{secret_game.pk}").status_code == 200
    assert "Open to spectators" in session_client(staff).get(f"/games/{secret_game.pk}/").content.decode()
    session_client(staff).post(f"/games/{secret_game.pk}/spectators/", {"allowed": "1"})
    assert Client().get(f"/games/{secret_game.pk}/").status_code == 200


def test_only_the_host_switches_spectators_and_a_bad_value_is_refused(secret_game, player, staff):
    response = session_client(player).post(f"/games/{secret_game.pk}/spectators/", {"allowed": "0"})
    assert response.status_code == 403 and "Only the host" in response.content.decode()
    assert not SpectatorPolicy.objects.exists()
    response = session_client(staff).post(f"/games/{secret_game.pk}/spectators/", {"allowed": "maybe"})
    assert response.status_code == 400 and not SpectatorPolicy.objects.exists()
    assert Client().post(f"/games/{secret_game.pk}/spectators/", {"allowed": "0"}).status_code == 302  # log in first


def test_the_player_who_created_a_table_game_is_its_host(db, clock, make_user: Callable[..., Any]):
    host, guest = make_user("hostess"), make_user("guest")
    game = engine.create_game("toy", "toy", {}, created_by=host)
    engine.register(game.pk, host, "H")
    engine.register(game.pk, make_user("other"), "O")
    assert close(game, host).status_code == 302
    assert session_client(guest).get(f"/games/{game.pk}/").status_code == 403


def test_a_finished_game_stays_public(secret_game, staff, player, opponent):
    close(secret_game, staff)
    for user in (player, opponent):
        engine.submit(secret_game.pk, user, {"kind": "comment", "text": "bye"})
    Game.objects.filter(pk=secret_game.pk).update(status=Game.Status.ENDED)
    assert Client().get(f"/games/{secret_game.pk}/").status_code == 200
