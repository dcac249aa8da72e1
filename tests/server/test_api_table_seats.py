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


def _seats(game: Game) -> list[tuple[int, bool, bool]]:
    game.refresh_from_db()
    return [(s.index, s.is_bot, s.bot_since is not None) for s in game.seats.order_by("index")]


def test_a_hot_seat_host_leaves_and_reclaims_any_seat_of_their_table_through_the_api(
    table: Game, player: Any, spectator: Any
) -> None:
    """The API's leave and reclaim acted on the caller's own seat only, while a hot-seat host
    plays every seat of their table (the game screen hands any of them to a bot). ``{"seat": n}``
    names a seat the caller controls: a table seat is handed to a bot and taken back, the others
    untouched; the host's own seat by default, as before."""
    api = token_client(player)
    url = f"/api/v1/games/{table.pk}"
    left = api.post(f"{url}/leave", {"seat": 2}, content_type="application/json")
    assert left.status_code == 200, left.content
    assert [e["kind"] for e in left.json()["events"]] == ["seat.left"] and left.json()["events"][0]["data"]["seat"] == 2
    assert _seats(table) == [(0, False, False), (1, False, False), (2, True, True)]
    again = api.post(f"{url}/leave", {"seat": 2}, content_type="application/json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat/bot"
    back = api.post(f"{url}/reclaim", {"seat": 2}, content_type="application/json")
    assert back.status_code == 200, back.content
    assert [e["kind"] for e in back.json()["events"]] == ["seat.reclaimed"]
    assert _seats(table) == [(0, False, False), (1, False, False), (2, False, False)]
    # a seat no bot plays cannot be taken back; the host's own seat by default
    assert api.post(f"{url}/reclaim", {"seat": 1}, content_type="application/json").json()["error"]["code"] == (
        "seat/not_taken_over"
    )
    assert api.post(f"{url}/leave").status_code == 200
    assert _seats(table)[0] == (0, True, True)
    assert api.post(f"{url}/reclaim", "{}", content_type="application/json").status_code == 200
    assert _seats(table)[0] == (0, False, False)


def test_leave_and_reclaim_refuse_a_seat_the_caller_does_not_control_and_change_nothing(
    clock: Any, table: Game, player: Any, opponent: Any
) -> None:
    """A seat of another player's game, one beyond the table, or a malformed one: a clear error,
    and no seat changes hands (no event, the game's version unchanged)."""
    other = engine.create_game("maiden", "white-maiden", {"players": 2})
    engine.register(other.pk, player, "Ann")
    engine.register(other.pk, opponent, "Bob")
    api = token_client(player)
    theirs = 1 - api.get(f"/api/v1/games/{other.pk}").json()["seat"]
    before = {g.pk: (_seats(g), g.version) for g in (table, other)}
    for game, seat in ((other, theirs), (table, 3), (table, 200)):
        for action in ("leave", "reclaim"):
            response = api.post(f"/api/v1/games/{game.pk}/{action}", {"seat": seat}, content_type="application/json")
            assert response.status_code == 403, (action, seat, response.content)
            error = response.json()["error"]
            assert error["code"] == "seat/not_yours" and f"seat index {seat} " in error["message"], error
    for body in ({"seat": -1}, {"seat": "2"}, {"seat": 2, "why": 1}):
        for action in ("leave", "reclaim"):
            response = api.post(f"/api/v1/games/{table.pk}/{action}", body, content_type="application/json")
            assert response.status_code == 400 and response.json()["error"]["code"] == "request/malformed", body
    stranger = token_client(opponent)
    response = stranger.post(f"/api/v1/games/{table.pk}/leave", {"seat": 1}, content_type="application/json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "seat/not_yours"
    assert (
        token_client(player)
        .post("/api/v1/games/999999/leave", {"seat": 0}, content_type="application/json")
        .status_code
        == 404
    )
    assert {g.pk: (_seats(g), g.version) for g in (table, other)} == before
