"""The JSON API for a player who plays several seats of one game (a White Maiden hot-seat table,
``lobby.TableSeat``): as on the game screen (its ``seat`` field), a request may name a seat the
caller plays, ``?seat=n`` on a read and ``"seat": n`` in a command's body; any other seat is
refused (403 ``seat/not_yours``) and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.lobby import maiden as lobby_maiden
from tests.server.conftest import token_client
from tests.server.maiden_kit import legal

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(clock: Any, player: Any) -> Game:
    return lobby_maiden.create_table_game(player, "Ann", {"players": 3}, lobby_maiden.TABLE_HOTSEAT)


def _deciding(game: Game) -> int:
    return next(index for index in range(3) if legal(game, index))


def test_a_hot_seat_host_reads_and_acts_for_each_seat_of_their_table(table: Game, player: Any) -> None:
    api = token_client(player)
    url = f"/api/v1/games/{table.pk}"
    assert api.get(url).json()["seat"] == 0  # by default the caller's own seat
    for _ in range(12):  # the familiar choices and the setup decisions, every seat from one token
        index = _deciding(table)
        read = api.get(f"{url}?seat={index}").json()
        assert read["seat"] == index
        listed = api.get(f"{url}/commands?seat={index}").json()
        assert listed["seat"] == index and listed["commands"] == legal(table, index)
        body = {"command": listed["commands"][0], "seat": index, "choices": listed["choices"]}
        answer = api.post(f"{url}/commands", {**body, "version": listed["version"]}, content_type="application/json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["commands"] == legal(table, index)
    assert api.get(f"{url}/events?seat=2").status_code == 200


def test_nobody_reads_or_acts_for_a_seat_they_do_not_play(table: Game, player: Any, spectator: Any) -> None:
    url = f"/api/v1/games/{table.pk}"
    index = _deciding(table)
    command = legal(table, index)[0]
    before = Game.objects.get(pk=table.pk).version
    other = token_client(spectator)
    for response in (
        other.get(f"{url}?seat={index}"),
        other.get(f"{url}/commands?seat={index}"),
        other.get(f"{url}/events?seat={index}"),
        other.post(f"{url}/commands", {"command": command, "seat": index}, content_type="application/json"),
    ):
        assert response.status_code == 403, response.content
        error = response.json()["error"]
        assert error["code"] == "seat/not_yours" and f"seat index {index} " in error["message"]
    assert Client().get(f"{url}?seat={index}").json()["error"]["code"] == "auth/required"
    # the host names no seat beyond the table's
    host = token_client(player)
    assert host.get(f"{url}/commands?seat=3").json()["error"]["code"] == "seat/not_yours"
    assert host.get(f"{url}/commands?seat=x").json()["error"]["code"] == "request/malformed"
    assert Game.objects.get(pk=table.pk).version == before


def test_a_player_names_only_their_own_seat_in_a_game_without_a_table(
    clock: Any, player: Any, opponent: Any, spectator: Any
) -> None:
    game = engine.create_game("maiden", "white-maiden", {"players": 2})
    engine.register(game.pk, player, "Ann")
    engine.register(game.pk, opponent, "Bob")
    api = token_client(player)
    mine = api.get(f"/api/v1/games/{game.pk}").json()["seat"]
    assert api.get(f"/api/v1/games/{game.pk}/commands?seat={mine}").json()["seat"] == mine
    theirs = 1 - mine
    assert api.get(f"/api/v1/games/{game.pk}/commands?seat={theirs}").json()["error"]["code"] == "seat/not_yours"
