"""A bot taking an idle seat over, seen and undone: the takeover (the host's takeover time,
``games.bots.take_over_idle``) is a public ``seat.taken_over`` event saved with the seat's change,
the game's version and every audience's counter moved and live clients told on commit; the player
is notified (kind ``takeover``, as their preferences say) and takes the seat back from either game
screen or the API (``seat.reclaimed``), after which the takeover clock starts again. A seat a bot
played part of the game keeps no personal record (FL-REC-1)."""

from __future__ import annotations

import importlib
import json
from html import unescape
from typing import Any

import pytest
from django.apps import apps
from django.core import mail
from django.test import Client

from delve.server.games import bots, engine
from delve.server.games.models import CommandEntry, EventEntry, Game, Seat
from delve.server.live import hub as hub_module
from delve.server.notify import outbox, text
from delve.server.notify.models import Notice, Preference
from delve.server.records.verify import LogEntry, event_record, steps
from tests.server.conftest import FakeClock, session_client, token_client
from tests.server.maiden_kit import maiden_game
from tests.server.test_bot_seats import fated_with_takeover

pytestmark = pytest.mark.django_db

HOUR = 3600


# --- helpers ---------------------------------------------------------------------------------------


def taken_over(player: Any, clock: FakeClock) -> Game:
    """A running Fated Labyrinth game (Ann, the player, in seat 0, three bots) whose host lets a
    bot take over after 2 hours, with Ann's seat just taken over (no bot has played yet)."""
    game = fated_with_takeover(player, hours=2)
    clock.tick(3 * HOUR)
    assert bots.take_over_idle(clock()) == 1
    game.refresh_from_db()
    return game


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).order_by("pk").values_list("is_bot", "bot_since", "keep_record"))
    return (game.version, game.observed, game.event_count, game.status, seats, CommandEntry.objects.count())


def counters(game: Game) -> dict[str, int]:
    game.refresh_from_db()
    return {key: int(entry[0]) for key, entry in game.observed.items()}


def last_event(game: Game) -> EventEntry:
    return EventEntry.objects.filter(game=game).order_by("-sequence").first()  # type: ignore[return-value]


def public_events(client: Client, game: Game) -> list[dict[str, Any]]:
    body = client.get(f"/api/v1/games/{game.pk}/events?after=0&limit=100").json()
    events = body["events"]
    while len(body["events"]) == 100:
        body = client.get(f"/api/v1/games/{game.pk}/events?after={body['cursor']}&limit=100").json()
        events += body["events"]
    return events


# --- the takeover is recorded and seen -------------------------------------------------------------


def test_a_takeover_is_a_public_event_saved_with_the_seat_and_every_counter_moves(
    player: Any, clock: FakeClock, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = fated_with_takeover(player, hours=2)
    before, version = counters(game), game.version
    published: list[tuple[int, dict[str, int]]] = []
    monkeypatch.setattr(hub_module.hub(), "publish", lambda game_id, seen: published.append((game_id, seen)))
    clock.tick(3 * HOUR)
    with django_capture_on_commit_callbacks(execute=True):
        assert bots.take_over_idle(clock()) == 1
    game.refresh_from_db()
    ann = game.seats.get(user=player)
    assert (ann.is_bot, ann.bot_since, ann.keep_record) == (True, clock(), False)
    event = last_event(game)
    assert (event.kind, event.data, event.visibility, event.time) == ("seat.taken_over", {"seat": 0}, "*", clock())
    entry = CommandEntry.objects.filter(game=game).order_by("-sequence").first()
    assert entry is not None
    assert (entry.sequence, entry.source, entry.seat, entry.command) == (game.version, "takeover", 0, None)
    assert game.version == version + 1
    after = counters(game)
    assert set(after) == set(before) == {"*", "0", "1", "2", "3"}
    assert all(after[key] > before[key] for key in before), (before, after)  # the seats panels changed
    assert published == [(game.pk, after)]  # live clients are told once, after the commit


def test_the_takeover_event_is_disclosed_to_everyone_through_the_events_api(player: Any, clock: FakeClock) -> None:
    game = taken_over(player, clock)
    for client in (Client(), session_client(player)):
        found = [e for e in public_events(client, game) if e["kind"] == "seat.taken_over"]
        assert found == [{"kind": "seat.taken_over", "time": clock(), "data": {"seat": 0}}]


def test_a_takeover_that_fails_to_save_leaves_the_seat_human(
    player: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat's change and its event are one transaction: neither is saved without the other."""
    game = fated_with_takeover(player, hours=2)
    before = snapshot(game)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(engine, "seat_changed", broken)
    clock.tick(3 * HOUR)
    with pytest.raises(RuntimeError):
        bots.take_over_idle(clock())
    assert snapshot(game) == before


def test_the_command_log_replays_to_the_same_events_with_the_seat_changes(player: Any, clock: FakeClock) -> None:
    """An export's verification (``records.verify.steps``) makes the seat changes again from their
    log entries alone: the replayed events are the stored ones."""
    game = taken_over(player, clock)
    bots.play_once(game.pk)
    clock.tick(60)
    bots.reclaim(game.pk, player)
    produced, stored = replayed_and_stored(game)
    assert produced == stored
    assert [e["kind"] for e in stored if e["kind"].startswith("seat.")] == ["seat.taken_over", "seat.reclaimed"]


def replayed_and_stored(game: Game) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The events an export's verification makes again from ``game``'s command log alone, and
    the events stored, in the same form."""
    game.refresh_from_db()
    seats = list(game.seats.order_by("index"))
    log = [
        LogEntry(time=c.time, seat=c.seat, command=c.command, source=c.source)
        for c in CommandEntry.objects.filter(game=game).order_by("sequence")
    ]
    produced = [
        event_record(event)
        for step in steps(
            engine.ruleset_of(game), game.settings, engine.seat_infos(seats), game.seed, game.started_at or 0, log
        )
        for event in step.events
    ]
    stored = [
        {"time": e.time, "kind": e.kind, "data": e.data, "to": None if e.to is None else sorted(e.to)}
        for e in EventEntry.objects.filter(game=game).order_by("sequence")
    ]
    return produced, stored


# --- the screens -----------------------------------------------------------------------------------


def page(client: Client, game: Game, **headers: Any) -> str:
    response = client.get(f"/games/{game.pk}/", **headers)
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_the_fated_screen_shows_the_owner_the_control_and_everyone_the_log_line(
    player: Any, opponent: Any, clock: FakeClock
) -> None:
    game = taken_over(player, clock)
    mine = page(session_client(player), game)
    assert 'id="panel-takeover"' in mine
    assert "A bot is playing your seat" in mine
    assert "A bot has been playing for you since 2023-11-15 01:13 UTC" in mine
    assert f'hx-post="/games/{game.pk}/reclaim/"' in mine and "Take my seat back" in mine
    assert "This game no longer enters your personal record: a bot played part of it." in mine
    assert "You kept the game waiting too long: a bot plays your seat now." in mine  # recent events
    for other in (session_client(opponent), Client()):
        html = page(other, game)
        assert "Take my seat back" not in html
        assert "Player 01 kept the game waiting too long: a bot plays that seat now." in html
    full_log = unescape(session_client(player).get(f"/games/{game.pk}/log/?show=mine").content.decode())
    assert "You kept the game waiting too long: a bot plays your seat now." in full_log


def test_the_fated_screen_says_it_in_japanese(player: Any, clock: FakeClock) -> None:
    game = taken_over(player, clock)
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    html = page(client, game, HTTP_ACCEPT_LANGUAGE="ja")
    assert "ボットがあなたの席をプレイしています" in html
    assert "からボットがあなたの代わりにプレイしています。" in html
    assert "席を取り戻す" in html
    assert "ボットが一部をプレイしたため、このゲームは個人記録に残りません。" in html
    assert "あなたが長くゲームを待たせたため、ボットがあなたの席をプレイしています。" in html
    client.post(f"/games/{game.pk}/reclaim/")
    html = page(client, game, HTTP_ACCEPT_LANGUAGE="ja")
    assert "席を取り戻しました。" in html  # the message
    assert "あなたがボットから席を取り戻した。" in html  # the log line
    assert "席を取り戻す</button>" not in html


def test_the_poll_brings_the_control_to_an_open_fated_screen(player: Any, clock: FakeClock) -> None:
    """A screen opened before the takeover learns of it at its next poll (its counter moved)."""
    game = fated_with_takeover(player, hours=2)
    client = session_client(player)
    seen = engine.seen_version(game, 0)
    clock.tick(3 * HOUR)
    bots.take_over_idle(clock())
    response = client.get(f"/games/{game.pk}/poll/?version={seen}")
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert 'id="panel-takeover"' in html and "Take my seat back" in html


def test_taking_the_seat_back_from_the_fated_screen(player: Any, clock: FakeClock) -> None:
    game = taken_over(player, clock)
    client = session_client(player)
    clock.tick(60)
    response = client.post(f"/games/{game.pk}/reclaim/")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    ann = game.seats.get(user=player)
    assert (ann.is_bot, ann.bot_since, ann.keep_record) == (False, None, False)
    html = page(client, game)
    assert "Your seat is yours again: the bot no longer plays it." in html
    assert "You took your seat back from the bot." in html
    assert "Take my seat back" not in html
    event = last_event(game)
    assert (event.kind, event.data, event.visibility, event.time) == ("seat.reclaimed", {"seat": 0}, "*", clock())


def test_the_screens_control_answers_htmx_with_a_reload(player: Any, clock: FakeClock) -> None:
    game = taken_over(player, clock)
    response = session_client(player).post(f"/games/{game.pk}/reclaim/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == f"/games/{game.pk}/"
    assert not game.seats.get(user=player).is_bot


def test_the_screens_control_refuses_with_a_message_and_changes_nothing(
    player: Any, opponent: Any, clock: FakeClock
) -> None:
    game = taken_over(player, clock)
    before = snapshot(game)
    assert session_client(player).get(f"/games/{game.pk}/reclaim/").status_code == 405
    anonymous = Client().post(f"/games/{game.pk}/reclaim/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    stranger = session_client(opponent)
    stranger.post(f"/games/{game.pk}/reclaim/")
    assert "You have no seat in this game." in page(stranger, game)
    assert snapshot(game) == before
    client = session_client(player)
    client.post(f"/games/{game.pk}/reclaim/")
    client.get(f"/games/{game.pk}/")  # the success message is shown once
    again = snapshot(game)
    client.post(f"/games/{game.pk}/reclaim/")
    assert "No bot plays your seat: it is yours to play already." in page(client, game)
    assert snapshot(game) == again


@pytest.fixture
def maiden_taken_over(player: Any, opponent: Any, clock: FakeClock) -> Game:
    """A White Maiden game of two players (Ann first) whose host lets a bot take over after an
    hour, with Ann's seat taken over."""
    game = maiden_game([player, opponent])
    Game.objects.filter(pk=game.pk).update(bot_takeover_after=HOUR)
    clock.tick(2 * HOUR)
    bots.take_over_idle(clock())
    game.refresh_from_db()
    assert game.seats.get(user=player).bot_since == clock()
    return game


def test_the_white_maiden_screen_shows_the_owner_the_control_and_the_log_line(
    maiden_taken_over: Game, player: Any, opponent: Any, clock: FakeClock
) -> None:
    game = maiden_taken_over
    mine = page(session_client(player), game)
    assert 'id="panel-takeover"' in mine
    assert "A bot has been playing for you since 2023-11-15 00:13 UTC" in mine
    assert f'hx-post="/games/{game.pk}/reclaim/"' in mine and "Take my seat back" in mine
    assert "This game no longer enters your personal record: a bot played part of it." in mine
    assert "You kept the game waiting too long: a bot plays your seat now." in mine
    others = page(session_client(opponent), game)
    assert "Take my seat back" not in others
    assert "Ann kept the game waiting too long: a bot plays that seat now." in others
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    ja = page(client, game, HTTP_ACCEPT_LANGUAGE="ja")
    assert "席を取り戻す" in ja and "あなたが長くゲームを待たせたため、ボットがあなたの席をプレイしています。" in ja
    response = client.post(f"/games/{game.pk}/reclaim/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    ja = page(client, game, HTTP_ACCEPT_LANGUAGE="ja")
    assert "あなたがボットから席を取り戻した。" in ja and "席を取り戻す</button>" not in ja
    assert "Ann took their seat back from the bot." in page(session_client(opponent), game)


def test_the_white_maiden_poll_brings_the_control(player: Any, opponent: Any, clock: FakeClock) -> None:
    game = maiden_game([player, opponent])
    Game.objects.filter(pk=game.pk).update(bot_takeover_after=HOUR)
    game.refresh_from_db()
    seen = game.version
    clock.tick(2 * HOUR)
    bots.take_over_idle(clock())
    response = session_client(player).get(f"/games/{game.pk}/maiden/poll/?version={seen}")
    assert response.status_code == 200 and "Take my seat back" in unescape(response.content.decode())


# --- taking the seat back through the API ----------------------------------------------------------


def test_the_player_takes_the_seat_back_through_the_api_FL_REC_1(
    player: Any, clock: FakeClock, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat is the player's again, and still keeps no record (FL-REC-1: a game partly played
    by a bot never enters personal records; FL-REC-3: the seat list says so)."""
    game = taken_over(player, clock)
    before, version = counters(game), game.version
    published: list[int] = []
    monkeypatch.setattr(hub_module.hub(), "publish", lambda game_id, seen: published.append(game_id))
    clock.tick(60)
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client(player).post(f"/api/v1/games/{game.pk}/reclaim")
    assert response.status_code == 200, response.content
    body = response.json()
    game.refresh_from_db()
    assert body["sequence"] == game.version == version + 1
    assert body["version"] == engine.seen_version(game, 0)
    assert {"kind": "seat.reclaimed", "time": clock(), "data": {"seat": 0}} in body["events"]
    ann = game.seats.get(user=player)
    assert (ann.is_bot, ann.bot_since, ann.keep_record) == (False, None, False)
    after = counters(game)
    assert all(after[key] > before[key] for key in before), (before, after)
    assert published == [game.pk]
    entry = CommandEntry.objects.filter(game=game).order_by("-sequence").first()
    assert entry is not None and (entry.source, entry.seat, entry.command) == ("reclaim", 0, None)
    listed = Client().get(f"/api/v1/games/{game.pk}").json()["game"]["seats"][0]
    assert (listed["bot"], listed["bot_since"], listed["keep_record"]) == (False, None, False)
    assert [e for e in public_events(Client(), game) if e["kind"] == "seat.reclaimed"] == [
        {"kind": "seat.reclaimed", "time": clock(), "data": {"seat": 0}}
    ]


def test_an_empty_json_object_is_an_accepted_body(player: Any, clock: FakeClock) -> None:
    game = taken_over(player, clock)
    response = token_client(player).post(f"/api/v1/games/{game.pk}/reclaim", "{}", content_type="application/json")
    assert response.status_code == 200


def test_the_api_refuses_every_other_caller_and_case_and_changes_nothing(
    player: Any, opponent: Any, clock: FakeClock
) -> None:
    game = taken_over(player, clock)
    before = snapshot(game)
    url = f"/api/v1/games/{game.pk}/reclaim"
    cases = [
        (Client().post(url), 401, "auth/required"),
        (token_client(opponent).post(url), 403, "seat/not_seated"),  # not this user's seat
        (token_client(player).get(url), 405, "request/method_not_allowed"),
        (token_client(player).post(f"/api/v1/games/{game.pk + 99}/reclaim"), 404, "game/not_found"),
        (token_client(player).post(url, '{"seat": 1}', content_type="application/json"), 403, "seat/not_yours"),
        (token_client(player).post(url, '{"why": 1}', content_type="application/json"), 400, "request/malformed"),
    ]
    for response, status, code in cases:
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), response.content
        assert snapshot(game) == before
    # a bot seated by the host (no player to give it back to) is not a taken-over seat
    bot_seat = game.seats.filter(is_bot=True, bot_since__isnull=True).select_related("user").first()
    assert bot_seat is not None
    refused = token_client(bot_seat.user).post(url)
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "seat/not_taken_over")
    assert snapshot(game) == before


def test_a_seat_not_taken_over_cannot_be_taken_back(player: Any, clock: FakeClock) -> None:
    game = fated_with_takeover(player, hours=2)
    before = snapshot(game)
    response = token_client(player).post(f"/api/v1/games/{game.pk}/reclaim")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "seat/not_taken_over")
    assert snapshot(game) == before
    take_over_again(clock)
    assert token_client(player).post(f"/api/v1/games/{game.pk}/reclaim").status_code == 200
    second = token_client(player).post(f"/api/v1/games/{game.pk}/reclaim")
    assert (second.status_code, second.json()["error"]["code"]) == (409, "seat/not_taken_over")


def take_over_again(clock: FakeClock) -> None:
    clock.tick(3 * HOUR)
    assert bots.take_over_idle(clock()) == 1


def test_an_ended_or_unstarted_game_has_no_seat_to_take_back(player: Any, opponent: Any, clock: FakeClock) -> None:
    game = taken_over(player, clock)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ENDED)
    before = snapshot(game)
    response = token_client(player).post(f"/api/v1/games/{game.pk}/reclaim")
    assert (response.status_code, response.json()["error"]["code"]) == (422, "game/ended")
    assert snapshot(game) == before
    open_game = engine.create_game("fated", "fated-labyrinth", {}, bot_takeover_after=HOUR)
    engine.register(open_game.pk, opponent, "Bob", {"class": "warrior"})
    response = token_client(opponent).post(f"/api/v1/games/{open_game.pk}/reclaim")
    assert (response.status_code, response.json()["error"]["code"]) == (422, "game/not_started")


def test_the_schema_describes_the_reclaim_endpoint() -> None:
    schema = Client().get("/api/v1/openapi.json").json()
    post = schema["paths"]["/api/v1/games/{game_id}/reclaim"]["post"]
    assert set(post["responses"]) == {"200", "400", "401", "403", "404", "409", "422", "default"}
    assert "seat.reclaimed" in post["description"]


# --- the takeover clock starts again ---------------------------------------------------------------


def test_a_seat_taken_back_is_taken_over_again_only_after_a_whole_takeover_time(player: Any, clock: FakeClock) -> None:
    """The seat's idle time starts at the moment it is taken back, not at its old origin (which
    lies long past the takeover time)."""
    game = taken_over(player, clock)
    clock.tick(60)
    bots.reclaim(game.pk, player)
    reclaimed_at = clock()
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    state = engine.load_state(game, ruleset)
    ruleset.advance(state, clock())
    assert bots.idle_since(game, ruleset, state, game.seats.get(user=player)) == reclaimed_at
    assert bots.take_over_idle(clock()) == 0
    clock.t = reclaimed_at + 2 * HOUR - 1
    assert bots.take_over_idle(clock()) == 0
    assert not game.seats.get(user=player).is_bot
    clock.tick(1)
    assert bots.take_over_idle(clock()) == 1
    assert game.seats.get(user=player).bot_since == clock()
    kinds = [e.kind for e in EventEntry.objects.filter(game=game, kind__startswith="seat.").order_by("sequence")]
    assert kinds == ["seat.taken_over", "seat.reclaimed", "seat.taken_over"]


# --- the player is notified ------------------------------------------------------------------------


@pytest.fixture
def reachable(player: Any) -> Any:
    player.email = "ann@example.org"
    player.save()
    return player


def takeover_mails() -> list[Any]:
    return [m for m in mail.outbox if "ann@example.org" in m.to and "a bot now plays your seat" in m.subject]


def test_the_player_is_told_once_that_a_bot_plays_their_seat(reachable: Any, clock: FakeClock) -> None:
    game = taken_over(reachable, clock)
    outbox.run_pass(clock(), "test-worker")
    sent = takeover_mails()
    assert len(sent) == 1
    assert f"#{game.pk}" in sent[0].subject
    body = sent[0].body
    assert "since 2023-11-15 01:13 UTC a bot plays Ann (player 01) for you" in body
    assert "Open the game to take your seat back." in body and f"/games/{game.pk}/" in body
    assert "A game partly played by a bot enters no personal record." in body
    notice = Notice.objects.get(user=reachable, kind="takeover")
    assert notice.key == str(clock()) and not notice.skipped
    outbox.run_pass(clock() + 60, "test-worker")
    assert len(takeover_mails()) == 1  # told once


def test_a_second_takeover_after_taking_the_seat_back_is_told_again(reachable: Any, clock: FakeClock) -> None:
    game = taken_over(reachable, clock)
    outbox.run_pass(clock(), "test-worker")
    bots.reclaim(game.pk, reachable)
    outbox.run_pass(clock(), "test-worker")
    assert len(takeover_mails()) == 1  # taking it back is not news to the player
    take_over_again(clock)
    outbox.run_pass(clock(), "test-worker")
    assert len(takeover_mails()) == 2


def test_a_player_who_turned_the_kind_off_is_not_told(reachable: Any, clock: FakeClock) -> None:
    Preference.objects.create(user=reachable, kinds=["turn", "started", "ended"])
    taken_over(reachable, clock)
    outbox.run_pass(clock(), "test-worker")
    assert takeover_mails() == []
    notice = Notice.objects.get(user=reachable, kind="takeover")
    assert notice.skipped and notice.message is None


def test_the_notice_goes_into_the_digest_in_japanese_when_asked(reachable: Any, clock: FakeClock) -> None:
    Preference.objects.create(user=reachable, mode=Preference.Mode.DIGEST, language="ja")
    taken_over(reachable, clock)
    outbox.run_pass(clock(), "test-worker")  # the digest hour has come: it goes out in this pass
    notice = Notice.objects.get(user=reachable, kind="takeover")
    assert notice.message is not None and not notice.skipped
    digests = [m for m in mail.outbox if "ann@example.org" in m.to]
    assert len(digests) == 1 and "あなたのゲームで" in digests[0].subject  # no message of its own
    assert "ボットがAnn（プレイヤー01）を代わりにプレイしています。" in digests[0].body
    assert "ゲームを開くと席を取り戻せます。" in digests[0].body
    subject, _body = text.render("takeover", notice.data, "ja")
    assert subject.startswith(f"#{notice.game_id} ") and subject.endswith("：ボットがあなたの席をプレイしています")


def test_the_preference_page_offers_the_takeover_kind(reachable: Any) -> None:
    html = unescape(session_client(reachable).get("/me/notifications/").content.decode())
    assert 'value="takeover"' in html
    assert "a bot took over your seat (you kept the game waiting too long)" in html


def test_saved_preferences_gain_the_new_kind_unless_they_chose_nothing(make_user: Any) -> None:
    migration = importlib.import_module("delve.server.notify.migrations.0002_takeover_kind")
    chose = Preference.objects.create(user=make_user("u1"), kinds=["turn", "ended"])
    nothing = Preference.objects.create(user=make_user("u2"), kinds=[])
    migration.add_kind(apps, None)
    chose.refresh_from_db()
    nothing.refresh_from_db()
    assert chose.kinds == ["turn", "ended", "takeover"] and nothing.kinds == []
    migration.remove_kind(apps, None)
    chose.refresh_from_db()
    assert chose.kinds == ["turn", "ended"]


# --- while the bot plays, the seat is the bot's ------------------------------------------------------


def seat_legal(game: Game, seat: int) -> list[dict[str, Any]]:
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    state = engine.load_state(game, ruleset)
    ruleset.advance(state, engine.clock.now())
    return [c for c in ruleset.legal_commands(state, seat) if c["kind"] not in {"comment", "give_up"}]


def test_while_a_bot_plays_the_seat_its_players_commands_are_refused_and_change_nothing(
    player: Any, clock: FakeClock
) -> None:
    """The player and the bot never play the same turn: the player's command (through the API or
    the screen's form) is refused with ``seat/taken_over`` until they take the seat back; a
    comment is still theirs (FL-COM-1)."""
    game = taken_over(player, clock)
    command = seat_legal(game, 0)[0]  # a command the rules would take from seat 0 now
    before = snapshot(game)
    api = token_client(player)
    listed = api.get(f"/api/v1/games/{game.pk}/commands").json()["commands"]
    assert listed and all(c["kind"] == "comment" for c in listed), listed
    response = api.post(f"/api/v1/games/{game.pk}/commands", {"command": command}, content_type="application/json")
    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] == "seat/taken_over"
    assert f"/api/v1/games/{game.pk}/reclaim" in response.json()["error"]["message"]
    assert snapshot(game) == before
    browser = session_client(player)
    browser.post(f"/games/{game.pk}/act/", {"command": json.dumps(command), "version": engine.seen_version(game, 0)})
    assert "A bot plays your seat: take it back first" in page(browser, game)
    assert snapshot(game) == before
    said = api.post(f"/api/v1/games/{game.pk}/comment", {"text": "back soon"}, content_type="application/json")
    assert said.status_code == 200, said.content
    assert game.seats.get(user=player).comment == "back soon"
    # a comment sent as a command: its answer lists what the player may do, nothing but a comment
    # (none right after one: comments change once a minute)
    clock.tick(60)
    said = api.post(
        f"/api/v1/games/{game.pk}/commands",
        {"command": {"kind": "comment", "text": "soon"}},
        content_type="application/json",
    )
    assert said.status_code == 200, said.content
    assert said.json()["commands"] == api.get(f"/api/v1/games/{game.pk}/commands").json()["commands"]
    assert all(c["kind"] == "comment" for c in said.json()["commands"])
    assert api.post(f"/api/v1/games/{game.pk}/reclaim").status_code == 200
    command = seat_legal(game, 0)[0]
    response = api.post(f"/api/v1/games/{game.pk}/commands", {"command": command}, content_type="application/json")
    assert response.status_code == 200, response.content
    listed = api.get(f"/api/v1/games/{game.pk}/commands").json()
    assert (response.json()["commands"], response.json()["choices"]) == (listed["commands"], listed["choices"])


def test_the_bot_plays_the_seat_it_took_over(player: Any, clock: FakeClock) -> None:
    game = taken_over(player, clock)
    version = game.version
    for _ in range(5):
        bots.play_once(game.pk)
    played = CommandEntry.objects.filter(game=game, seat=0, sequence__gt=version, source="player")
    assert played.exists()  # the worker's commands for the seat went through


def test_opening_the_screen_starts_no_stored_turn_of_a_seat_a_bot_plays_FL_LOGIN_3(
    player: Any, clock: FakeClock
) -> None:
    """FL-LOGIN-3 starts a stored turn when its player opens the screen; while a bot plays the
    seat, looking is not playing: the bot starts its turns itself. Taken back, it applies again."""
    game = taken_over(player, clock)
    ruleset = engine.ruleset_of(game)
    state = engine.load_state(game, ruleset)
    ruleset.advance(state, clock())
    assert ruleset.command_on_open(state, 0) == {"kind": "start_turn"}  # a stored turn waits
    before = snapshot(game)
    assert engine.open_game(game.pk, player) is None
    page(session_client(player), game)
    assert snapshot(game) == before
    bots.reclaim(game.pk, player)
    answer = engine.open_game(game.pk, player)
    assert answer is not None
    assert CommandEntry.objects.filter(game=game).order_by("-sequence")[0].source == "open"


def test_the_screens_offer_no_commands_while_a_bot_plays(
    player: Any, maiden_taken_over: Game, clock: FakeClock
) -> None:
    """Both screens list only the comment for a seat a bot plays (the banner offers it back)."""
    from delve.server.play import fated_screen, maiden_screen

    for game, screen_of in ((taken_over(player, clock), fated_screen.load), (maiden_taken_over, maiden_screen.load)):
        game.refresh_from_db()
        assert seat_legal(game, 0), "the rules would take a command from the seat"
        screen = screen_of(game, player)
        assert all(c["kind"] == "comment" for c in screen.legal), screen.legal
        html = page(session_client(player), game)
        assert "Take my seat back" in html
        assert 'name="command" value="{' not in html  # no command form holds a command
        assert "A bot is playing your seat: take it back at the top of the screen to play yourself." in html
        assert '<p class="lead">Your turn is ready.</p>' not in html and 'data-alert="turn"' not in html
        ja = session_client(player)
        ja.cookies["django_language"] = "ja"
        assert "自分でプレイするには、画面上部で席を取り戻してください。" in page(ja, game, HTTP_ACCEPT_LANGUAGE="ja")
        bots.reclaim(game.pk, player)
        game.refresh_from_db()
        assert any(c["kind"] != "comment" for c in screen_of(game, player).legal)
        html = page(session_client(player), game)
        assert 'name="command" value="{' in html
        assert "A bot is playing your seat" not in html


def test_standing_orders_wait_while_a_bot_plays_the_seat(
    player: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot answers the defence of a seat it plays; the player's standing order (FL-DEF) is
    looked at again once the seat is theirs."""
    from delve.server.orders import fire
    from delve.server.orders.models import StandingOrder

    game = taken_over(player, clock)
    StandingOrder.objects.create(seat=game.seats.get(user=player), damage=StandingOrder.Damage.NO_CARD)
    looked: list[int] = []
    monkeypatch.setattr(fire, "fire_seat", lambda order, now: looked.append(order.seat.pk) or 0)
    fire.fire_due(clock())
    assert looked == []
    bots.reclaim(game.pk, player)
    fire.fire_due(clock())
    assert looked == [game.seats.get(user=player).pk]


def test_a_player_whose_seat_a_bot_plays_is_told_when_the_game_ends(reachable: Any, clock: FakeClock) -> None:
    """The end of the game is news to its player even while a bot plays their seat (the seat
    was still theirs to take back), with the seat's result."""
    game = taken_over(reachable, clock)
    for seat in game.seats.exclude(user=reachable).select_related("user").order_by("index"):
        game.refresh_from_db()
        if game.status == Game.Status.RUNNING:
            engine.submit(game.pk, seat.user, {"kind": "give_up"}, bot=True)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert game.seats.get(user=reachable).bot_since is not None
    outbox.run_pass(clock(), "test-worker")
    ended = [m for m in mail.outbox if "ann@example.org" in m.to and "has ended" in m.subject]
    assert len(ended) == 1
    assert Notice.objects.get(user=reachable, kind="ended").data["result"] == "won_survivor"  # the last one left
