"""Bots in live games: the host fills empty seats with bots when opening a game (Fated Labyrinth,
Level D and White Maiden), and may let a bot take over a seat that keeps the game waiting past a
time the host sets (shorter than the abandonment time). Bot seats are marked as bots in the lobby
and on the game screens, and never enter personal records."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from delve.server import clock as server_clock
from delve.server.games import bots, engine
from delve.server.games.errors import Rejected
from delve.server.games.models import CommandEntry, Game
from delve.server.lobby import maiden as lobby_maiden
from delve.server.records.models import Record
from tests.server.conftest import session_client
from tests.server.test_maiden_lobby import form_data

pytestmark = pytest.mark.django_db

HOUR = 3600


def open_fated(client: Client, **fields: Any) -> Any:
    data = {"preset": "fated:fated-labyrinth", "overrides": "wait_time=1m", **fields}
    return client.post("/games/new/", data)


def test_the_host_fills_seats_with_bots_when_opening_a_fated_game(staff):
    client = session_client(staff)
    page = client.get("/games/new/").content.decode()
    assert "Seats given to bots now" in page and "A bot takes over a seat idle for (hours)" in page
    assert open_fated(client, bots="3").status_code == 302
    game = Game.objects.get()
    assert game.status == Game.Status.OPEN
    seats = list(game.seats.order_by("id"))
    assert [s.is_bot for s in seats] == [True] * 3
    assert len({s.options["class"] for s in seats}) == 3  # a varied table
    assert not any(s.keep_record for s in seats)
    lobby = client.get("/").content.decode()
    assert lobby.count('<span class="tag bot" title=') == 3  # one tag a bot seat, and the legend says it once
    assert lobby.count('<span class="tag bot">') == 1


def test_bots_in_every_seat_start_the_game_and_play_it(staff, monkeypatch):
    client = session_client(staff)
    open_fated(client, bots="4")
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING and game.seats.filter(is_bot=True).count() == 4
    start = game.started_at
    for t in range(start, start + 60, 3):
        monkeypatch.setattr(server_clock, "now", lambda t=t: t)
        bots.play_once(game.pk)
    assert CommandEntry.objects.filter(game=game, source="player").count() > 4


def test_more_bots_than_seats_and_a_late_takeover_are_refused_with_a_message(staff):
    client = session_client(staff)
    too_many = open_fated(client, bots="5")
    assert too_many.status_code == 400 and "This game has 4 seats." in too_many.content.decode()
    late = open_fated(client, takeover_hours="100")  # Fated Labyrinth abandons after 100 h
    assert late.status_code == 400
    assert (
        "A bot takes over after 4 d 4 h: that must be shorter than the abandonment time (4 d 4 h)."
        in late.content.decode()
    )
    assert not Game.objects.exists()
    with pytest.raises(Rejected, match="not shorter"):
        engine.create_game("fated", "level-d", {}, bot_takeover_after=48 * HOUR)
    with pytest.raises(Rejected, match="longer than zero"):
        engine.create_game("fated", "level-d", {}, bot_takeover_after=0)


def test_only_the_host_seats_bots(player, opponent, staff):
    game = engine.create_game("fated", "fated-labyrinth", {}, created_by=player)
    with pytest.raises(Rejected, match="only the player who opened"):
        bots.seat_bots(game.pk, opponent, 1)
    assert bots.seat_bots(game.pk, player, 2) == 2
    assert bots.seat_bots(game.pk, staff, 1) == 1  # staff may too
    with pytest.raises(Rejected, match="2 bots asked for, but 1 seats are empty"):
        bots.seat_bots(game.pk, player, 2)


SEED = 7


def fated_with_takeover(player, hours: float = 2) -> Game:
    game = engine.create_game(
        "fated", "fated-labyrinth", {"wait_time": "1h"}, created_by=player, bot_takeover_after=int(hours * HOUR)
    )
    # a fixed seed: with a random one a game of bots now and then stalls for months (two survivors
    # who cannot hurt each other, docs/balance.md), longer than a test may wait
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    engine.register(game.pk, player, "Ann", {"class": "warrior"})
    bots.seat_bots(game.pk, player)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def waiting_since(game: Game, seat_index: int, now: int) -> int | None:
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    state = engine.load_state(game, ruleset)
    ruleset.advance(state, now)
    return bots.idle_since(game, ruleset, state, game.seats.get(index=seat_index))


def test_a_bot_takes_over_a_seat_idle_past_the_hosts_time_and_plays_it(player, clock):
    """From the moment a turn waits for the player (FL-TURN: the end of the wait phase), the
    host's two hours run; then a bot plays the seat."""
    game = fated_with_takeover(player, hours=2)
    ann = game.seats.get(user=player)
    clock.tick(HOUR)  # the first turn has come by now (first accumulation within the wait time)
    since = waiting_since(game, ann.index, clock())
    assert since is not None and since <= clock()
    clock.t = since + 2 * HOUR - 1
    assert bots.take_over_idle(clock()) == 0
    ann.refresh_from_db()
    assert not ann.is_bot
    clock.tick(1)
    assert bots.take_over_idle(clock()) == 1
    ann.refresh_from_db()
    assert ann.is_bot and ann.bot_since == clock() and not ann.keep_record
    bots.play_once(game.pk)
    assert CommandEntry.objects.filter(game=game, seat=ann.index, source="player").exists()
    page = session_client(player).get(f"/games/{game.pk}/").content.decode()
    assert "bot (took over)" in page
    listed = session_client(player).get("/api/v1/games?status=running").json()
    seats = next(g for g in listed["games"] if g["id"] == game.pk)["seats"]
    taken = next(s for s in seats if s["index"] == ann.index)
    assert (taken["bot"], taken["bot_since"]) == (True, clock())
    assert all(s["bot_since"] is None for s in seats if s["index"] != ann.index)


def test_a_player_who_acts_is_not_taken_over(player, clock):
    game = fated_with_takeover(player, hours=2)
    ann = game.seats.get(user=player)
    clock.tick(HOUR)
    since = waiting_since(game, ann.index, clock())
    clock.t = since + 2 * HOUR - 10
    engine.submit(game.pk, player, {"kind": "start_turn"})  # opening a stored turn is no action (FL-ABN-3)
    engine.submit(game.pk, player, {"kind": "stay"})  # a move-phase command is
    clock.tick(20)
    assert bots.take_over_idle(clock()) == 0  # it acted 10 s ago
    ann.refresh_from_db()
    assert not ann.is_bot
    clock.tick(2 * HOUR)
    assert bots.take_over_idle(clock()) == 1


def test_bot_seats_never_enter_personal_records(player, clock):
    game = fated_with_takeover(player, hours=1)
    clock.tick(3 * HOUR)
    assert bots.take_over_idle(clock()) == 1  # the human seat is a bot now: the game is bots only
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        clock.tick(20 * 60)
        bots.play_once(game.pk)
    assert game.status == Game.Status.ENDED
    assert not Record.objects.filter(game=game).exists()


def test_white_maiden_hosts_set_a_takeover_time_too(player):
    client = session_client(player)
    page = client.get("/maiden/new/").content.decode()
    assert "A bot takes over a seat idle for (hours)" in page
    response = client.post("/maiden/new/", {**form_data(), "takeover_hours": "3"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.bot_takeover_after == 3 * HOUR
    late = client.post("/maiden/new/", {**form_data(s_turn_deadline_hours=2), "takeover_hours": "3"})
    assert late.status_code == 400
    assert "A bot takes over after 3 h: that must be shorter than the turn deadline (2 h)." in late.content.decode()


def test_white_maiden_bot_seats_keep_no_record(player):
    game = lobby_maiden.create_table_game(player, "Ann", {"players": 3}, lobby_maiden.TABLE_BOTS)
    assert game.status == Game.Status.RUNNING
    assert [s.keep_record for s in game.seats.filter(is_bot=True)] == [False, False]
