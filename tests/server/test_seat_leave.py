"""Leaving the table and handing a long-idle seat to a bot (``games.bots.leave`` and
``hand_over``): without them a White Maiden game whose partner stops coming (no turn deadline,
no takeover time: the defaults) would wait for good. A player may leave to a bot at any time
(``seat.left``); another player may hand a seat that has kept the game waiting 48 hours to a bot
(``seat.handed_over``, its player notified). Either way the seat's player takes it back as after
a takeover (``reclaim``), the seat keeps no personal record (FL-REC-1), and the command log
replays to the same events (the export's verification)."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from delve.kernel import DelveError
from delve.server.games import bots, engine
from delve.server.games.models import CommandEntry, Game, Seat
from delve.server.notify import outbox
from tests.server.conftest import FakeClock, session_client
from tests.server.maiden_kit import maiden_game
from tests.server.test_takeover import replayed_and_stored

pytestmark = pytest.mark.django_db

HOUR = 3600


def snapshot(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).order_by("pk").values_list("is_bot", "bot_since", "keep_record"))
    return (game.version, game.event_count, game.status, seats, CommandEntry.objects.count())


def waiting_seat(game: Game) -> int:
    """The seat the White Maiden game waits for now."""
    game.refresh_from_db()
    rules = engine.ruleset_of(game)
    state = engine.load_state(game, rules)
    waiting = [seat.index for seat in game.seats.all() if bots.idle_since(game, rules, state, seat) is not None]
    assert len(waiting) == 1, waiting
    return int(waiting[0])


def users_by_seat(game: Game) -> dict[int, Any]:
    return {int(seat.index): seat.user for seat in game.seats.select_related("user") if seat.index is not None}


def refused(call: Any, status: int, code: str) -> str:
    with pytest.raises(DelveError) as caught:
        call()
    assert (caught.value.status, caught.value.code) == (status, code), caught.value
    return str(caught.value)


# --- leaving ----------------------------------------------------------------------------------------


def test_a_player_leaves_the_table_to_a_bot_and_the_game_goes_on_FL_REC_1(player: Any, opponent: Any, clock: Any):
    game = maiden_game([player, opponent])
    answer = bots.leave(game.pk, opponent)
    seat = game.seats.get(user=opponent)
    assert seat.is_bot and seat.bot_since == clock() and not seat.keep_record
    assert answer.events[-1]["kind"] == "seat.left" and answer.events[-1]["data"] == {"seat": seat.index}
    entry = CommandEntry.objects.filter(game=game).order_by("-sequence").first()
    assert entry is not None and entry.source == "leave" and entry.command is None
    # the bot plays the seat from now: the game goes on without the player
    for _ in range(40):
        if waiting_seat(game) == seat.index:
            break
        engine.submit(game.pk, player, bots_first_legal(game, 0))
    assert bots.play_once(game.pk) >= 1
    # and the player takes it back as after a takeover
    bots.reclaim(game.pk, opponent)
    seat.refresh_from_db()
    assert not seat.is_bot and seat.bot_since is None and not seat.keep_record


def bots_first_legal(game: Game, seat: int) -> dict[str, Any]:
    from tests.server.maiden_kit import legal

    options = [c for c in legal(game, seat) if c.get("kind") != "comment"]
    assert options
    return options[0]


def test_leaving_is_refused_with_its_reason_and_changes_nothing(player: Any, opponent: Any, spectator: Any, clock: Any):
    game = maiden_game([player, opponent])
    before = snapshot(game)
    refused(lambda: bots.leave(game.pk, spectator), 403, "seat/not_seated")
    refused(lambda: bots.leave(999999, player), 404, "game/not_found")
    from django.contrib.auth.models import AnonymousUser

    refused(lambda: bots.leave(game.pk, AnonymousUser()), 401, "auth/required")
    assert snapshot(game) == before
    bots.leave(game.pk, opponent)
    before = snapshot(game)
    refused(lambda: bots.leave(game.pk, opponent), 409, "seat/bot")
    assert snapshot(game) == before
    open_game = engine.create_game("maiden", "white-maiden", {"players": 2})
    engine.register(open_game.pk, player, "Ann")
    refused(lambda: bots.leave(open_game.pk, player), 422, "game/not_started")


def test_a_player_who_left_is_not_told_of_it_but_one_handed_over_is(player: Any, opponent: Any, clock: FakeClock):
    opponent.email, player.email = "bob@example.org", "ann@example.org"
    opponent.save()
    player.save()
    game = maiden_game([player, opponent])
    bots.leave(game.pk, opponent)
    outbox.run_pass(clock(), "test-worker")
    assert not [m for m in mail.outbox if "bob@example.org" in m.to and "a bot now plays your seat" in m.subject]
    other = maiden_game([player, opponent])
    idle = waiting_seat(other)
    users = users_by_seat(other)
    clock.tick(49 * HOUR)
    bots.hand_over(other.pk, users[1 - idle], idle)
    outbox.run_pass(clock(), "test-worker")
    told = [m for m in mail.outbox if users[idle].email in m.to and "a bot now plays your seat" in m.subject]
    assert len(told) == 1 and f"#{other.pk}" in told[0].subject


# --- handing a long-idle seat over ----------------------------------------------------------------------


def test_a_seat_that_kept_the_game_waiting_48_hours_can_be_handed_to_a_bot(
    player: Any, opponent: Any, clock: FakeClock
):
    game = maiden_game([player, opponent])
    idle = waiting_seat(game)
    users = users_by_seat(game)
    waiter = users[1 - idle]
    clock.tick(47 * HOUR)
    before = snapshot(game)
    message = refused(lambda: bots.hand_over(game.pk, waiter, idle), 409, "seat/not_idle")
    assert "has kept it waiting 47 h" in message and "48 h" in message
    assert bots.handover_offers(game, game.seats.get(user=waiter)) == []
    assert snapshot(game) == before
    clock.tick(1 * HOUR)
    offers = bots.handover_offers(game, game.seats.get(user=waiter))
    assert [o["seat"] for o in offers] == [idle]
    assert bots.handover_offers(game, game.seats.get(index=idle)) == []  # nobody waits for the waiter
    answer = bots.hand_over(game.pk, waiter, idle)
    assert answer.events[-1]["kind"] == "seat.handed_over" and answer.events[-1]["data"] == {"seat": idle}
    seat = game.seats.get(index=idle)
    assert seat.is_bot and seat.bot_since == clock() and not seat.keep_record
    assert bots.reclaim_offer(game, seat)["why"] == "handover"  # type: ignore[index]


def test_handing_over_is_refused_with_its_reason_and_changes_nothing(
    player: Any, opponent: Any, spectator: Any, clock: FakeClock
):
    game = maiden_game([player, opponent])
    idle = waiting_seat(game)
    users = users_by_seat(game)
    waiter = users[1 - idle]
    clock.tick(49 * HOUR)
    before = snapshot(game)
    refused(lambda: bots.hand_over(game.pk, spectator, idle), 403, "seat/not_seated")
    refused(lambda: bots.hand_over(game.pk, waiter, 1 - idle), 400, "request/malformed")  # own seat
    for bad in (-1, 2, 99, "1", None, True):
        refused(lambda bad=bad: bots.hand_over(game.pk, waiter, bad), 400, "request/malformed")
    message = refused(lambda: bots.hand_over(game.pk, users[idle], 1 - idle), 409, "seat/not_idle")
    assert "is not keeping the game waiting" in message
    assert snapshot(game) == before
    bots.leave(game.pk, waiter)
    refused(lambda: bots.hand_over(game.pk, waiter, idle), 409, "seat/bot")


def test_the_command_log_replays_to_the_same_events_with_leave_and_handover(
    player: Any, opponent: Any, clock: FakeClock
):
    """The export's verification makes ``seat.left`` and ``seat.handed_over`` again from their
    log entries alone."""
    game = maiden_game([player, opponent])
    idle = waiting_seat(game)
    users = users_by_seat(game)
    clock.tick(49 * HOUR)
    bots.hand_over(game.pk, users[1 - idle], idle)
    bots.play_once(game.pk)
    clock.tick(60)
    bots.leave(game.pk, users[1 - idle])
    bots.play_once(game.pk)
    produced, stored = replayed_and_stored(game)
    assert produced == stored
    assert [e["kind"] for e in stored if e["kind"].startswith("seat.")] == ["seat.handed_over", "seat.left"]


# --- the screens and the API ------------------------------------------------------------------------


def page(client: Client, game: Game, **headers: Any) -> str:
    response = client.get(f"/games/{game.pk}/", **headers)
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_the_white_maiden_screen_offers_leaving_and_handing_over(
    player: Any, opponent: Any, spectator: Any, clock: FakeClock
):
    game = maiden_game([player, opponent])
    idle = waiting_seat(game)
    users = users_by_seat(game)
    waiter = session_client(users[1 - idle])
    html = page(waiter, game)
    assert "Leave this game" in html and f'hx-post="/games/{game.pk}/leave/"' in html
    assert "Hand " not in html.split('id="panel-takeover"')[1].split("</section>")[0]
    assert "Leave this game" not in page(session_client(spectator), game)
    clock.tick(49 * HOUR)
    html = page(waiter, game)
    name = game.seats.get(index=idle).name
    assert f"{name} has kept the game waiting since" in html
    assert f"Hand {name}'s seat to a bot" in html and f'hx-post="/games/{game.pk}/handover/"' in html
    ja = waiter.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "の席をボットに任せる" in ja and "このゲームから離れる" in ja
    response = waiter.post(f"/games/{game.pk}/handover/", {"seat": str(idle)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == f"/games/{game.pk}/"
    assert game.seats.get(index=idle).is_bot
    idle_client = session_client(users[idle])
    html = page(idle_client, game)
    assert "another player handed your seat to a bot" in html and "Take my seat back" in html
    assert f"{name} kept the game waiting for days: another player handed that seat to a bot." in page(waiter, game)
    # a refusal from the screen: a message, nothing changed
    before = snapshot(game)
    response = waiter.post(f"/games/{game.pk}/handover/", {"seat": "abc"})
    assert response.status_code == 302
    assert snapshot(game) == before
    response = waiter.post(f"/games/{game.pk}/leave/")
    assert response.status_code == 302 and game.seats.get(index=1 - idle).is_bot
    html = page(waiter, game)
    assert "You left the table: a bot plays your seat from now on" in html
    assert "you left the table." in html and "Leave this game" not in html


def test_the_fated_screen_offers_leaving_too(player: Any, opponent: Any, spectator: Any, clock: FakeClock):
    from tests.server.test_takeover import fated_with_takeover

    game = fated_with_takeover(player, hours=2)
    html = page(session_client(player), game)
    assert "Leave this game" in html and f'hx-post="/games/{game.pk}/leave/"' in html
    response = session_client(player).post(f"/games/{game.pk}/leave/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    html = page(session_client(player), game)
    assert "you left the table." in html and "Take my seat back" in html


def test_the_api_leaves_and_hands_over(player: Any, opponent: Any, clock: FakeClock):
    from tests.server.conftest import token_client

    game = maiden_game([player, opponent])
    idle = waiting_seat(game)
    users = users_by_seat(game)
    waiter = token_client(users[1 - idle])
    clock.tick(49 * HOUR)
    before = snapshot(game)
    for body in ("[]", '{"seat": "1"}', '{"seat": -1}', '{"seat": 0, "x": 1}', "{"):
        response = waiter.post(f"/api/v1/games/{game.pk}/handover", body, content_type="application/json")
        assert response.status_code == 400 and response.json()["error"]["code"] == "request/malformed", body
    assert snapshot(game) == before
    response = waiter.post(f"/api/v1/games/{game.pk}/handover", {"seat": idle}, content_type="application/json")
    assert response.status_code == 200, response.content
    assert game.seats.get(index=idle).is_bot
    response = waiter.post(f"/api/v1/games/{game.pk}/leave", '{"why": 1}', content_type="application/json")
    assert response.status_code == 400
    response = waiter.post(f"/api/v1/games/{game.pk}/leave", "{}", content_type="application/json")
    assert response.status_code == 200 and game.seats.get(index=1 - idle).is_bot
    response = waiter.post(f"/api/v1/games/{game.pk}/leave", "", content_type="application/json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "seat/bot"


def test_the_schema_describes_leave_and_handover():
    from delve.server.api.schema import openapi

    paths = openapi()["paths"]
    assert "seat.left" in paths["/api/v1/games/{game_id}/leave"]["post"]["description"]
    assert "48 hours" in paths["/api/v1/games/{game_id}/handover"]["post"]["description"]
