"""White Maiden at one table (hot-seat): one account plays several seats from one browser. A
decision waiting for any seat the host plays is the host's, and every view says so alike (the
lobby, the "waiting on me" dashboard, the API's ``must_act``, the notifications)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from delve.server.games import bots as server_bots
from delve.server.games.models import Game
from delve.server.lobby import maiden as lobby_maiden
from delve.server.notify import triggers
from tests.server.conftest import session_client, token_client
from tests.server.maiden_kit import view

pytestmark = pytest.mark.django_db


def hot_seat(host: Any, **overrides: Any) -> Game:
    with translation.override("en"):  # the default names are in the host's language
        return lobby_maiden.create_table_game(host, "Grandpa", {"players": 2, **overrides}, lobby_maiden.TABLE_HOTSEAT)


def views_of(host: Any, game: Game) -> dict[str, bool]:
    """Whether each view says a decision waits for ``host`` in ``game``."""
    lobby = session_client(host).get("/").content.decode()
    waiting = session_client(host).get("/me/waiting/").content.decode()
    api = token_client(host).get("/api/v1/me/games").json()["games"]
    found = triggers.find(game, game.started_at or 0)
    return {
        "lobby": "your-decision" in lobby,
        "dashboard": "1 game needs you." in waiting,
        "api": next(g["must_act"] for g in api if g["id"] == game.pk),
        "notice": any(seat.user_id == host.pk and kind == "turn" for seat, kind, *_ in found.events),
    }


def test_a_decision_of_a_table_seat_waits_for_its_host_in_every_view(clock: Any, player: Any) -> None:
    """The start player is seat 2, played at the host's table: the lobby, the dashboard, the API
    and the notifications all say the host must act (MV-SETUP-15: the start player chooses first)."""
    game = hot_seat(player, start_player=1)
    assert [p["seat"] for p in view(game, None)["pending"]][:1] == [1]
    assert views_of(player, game) == {"lobby": True, "dashboard": True, "api": True, "notice": True}
    waiting = session_client(player).get("/me/waiting/").content.decode()
    assert "for Maiden 2 at your table" in waiting
    found = triggers.find(game, game.started_at or 0)
    names = [data["name"] for seat, kind, _, _, data in found.events if kind == "turn"]
    assert names == ["Maiden 2"]  # the notice names the seat that must decide, not the host's maiden


def test_the_views_agree_when_the_hosts_own_seat_waits(clock: Any, player: Any) -> None:
    game = hot_seat(player, start_player=0)
    assert views_of(player, game) == {"lobby": True, "dashboard": True, "api": True, "notice": True}
    assert "at your table" not in session_client(player).get("/me/waiting/").content.decode()


def test_the_views_agree_when_nothing_waits_for_the_host(clock: Any, player: Any, opponent: Any) -> None:
    """A two-seat game with another player (no table): the other player's decision is not the host's."""
    game = lobby_maiden.create_table_game(player, "Ann", {"players": 2, "start_player": 1}, lobby_maiden.TABLE_OPEN)
    from delve.server.games import engine

    engine.register(game.pk, opponent, "Bob")
    game.refresh_from_db()
    assert views_of(player, game) == {"lobby": False, "dashboard": False, "api": False, "notice": False}


def test_after_the_host_leaves_their_seat_the_table_still_waits_on_them(clock: Any, player: Any) -> None:
    """A bot plays the host's own seat from now on: the table's seats are still the host's to play,
    and the host is told of their decisions as every view shows them."""
    game = hot_seat(player, start_player=1)
    server_bots.leave(game.pk, player)
    game.refresh_from_db()
    assert views_of(player, game) == {"lobby": True, "dashboard": True, "api": True, "notice": True}


def form_post(host: Any, **fields: Any) -> Any:
    from tests.server.test_maiden_lobby import form_data

    return session_client(host).post("/maiden/new/", form_data(table="hotseat", **fields))


def test_the_host_names_every_seat_of_the_table_on_the_form(clock: Any, player: Any) -> None:
    response = form_post(player, s_players=3, seat_2="Granny", seat_3="  Kid  ", seat_4="unused")
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert list(game.seats.order_by("index").values_list("name", flat=True)) == ["Ann", "Granny", "Kid"]


def test_a_blank_table_name_is_the_default_in_the_hosts_language(clock: Any, player: Any) -> None:
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    page = client.get("/maiden/new/").content.decode()
    assert 'placeholder="乙女2"' in page and "席2の乙女" in page
    from tests.server.test_maiden_lobby import form_data

    client.post("/maiden/new/", form_data(table="hotseat", s_players=3, seat_3="Kid"))
    game = Game.objects.get()
    assert list(game.seats.order_by("index").values_list("name", flat=True)) == ["Ann", "乙女2", "Kid"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seat_2": "x" * 41}, "Ensure this value has at most 40 characters"),
        ({"seat_2": "bad\x07name"}, "A name cannot contain control characters."),
        ({"seat_2": "abc\u202edef"}, "A name cannot contain invisible characters"),
        ({"seat_2": "\u200b\u200b"}, "A name needs something visible."),
        ({"seat_2": "Ann"}, "Each maiden needs her own name."),
        ({"seat_2": "Kid", "seat_3": "Kid"}, "Each maiden needs her own name."),
    ],
)
def test_a_table_name_is_checked_like_the_first_one(clock: Any, player: Any, fields: Any, message: str) -> None:
    from html import unescape

    response = form_post(player, s_players=3, **fields)
    assert response.status_code == 400
    assert message in unescape(response.content.decode())
    assert not Game.objects.exists()


def test_table_names_are_ignored_unless_the_table_plays_every_seat(clock: Any, player: Any) -> None:
    from tests.server.test_maiden_lobby import form_data

    response = session_client(player).post("/maiden/new/", form_data(table="open", s_players=2, seat_2="Ann"))
    assert response.status_code == 302
    assert list(Game.objects.get().seats.values_list("name", flat=True)) == ["Ann"]


def test_an_open_decision_says_which_seat_the_table_takes_it_as(clock: Any, player: Any) -> None:
    """MV-SETUP-15: with the start player chosen at the table, any player may take the decision;
    the status line says so and names the seat the screen acts as, the one its chip marks."""
    import re
    from html import unescape

    game = hot_seat(player, start_player="choose")
    assert view(game, None)["pending"][0]["seat"] is None
    html = unescape(session_client(player).get(f"/games/{game.pk}/").content.decode())
    assert "Choose who starts (anyone at the table may; you choose as Grandpa)" in html
    chip = re.search(r'<span class="seat-chip seat-(\d) acting">([^<]+)</span>', html)
    assert chip is not None and chip.group(2) == "Grandpa"
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    japanese = unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert "スタートプレイヤーを決めてください（誰が決めてもよい。Grandpaとして決めます）" in japanese


def test_after_the_host_leaves_the_header_names_the_seats_they_still_play(clock: Any, player: Any) -> None:
    game = hot_seat(player, players=3, start_player=1)
    client = session_client(player)
    assert "You play all 3 seats in this browser." in client.get(f"/games/{game.pk}/").content.decode()
    server_bots.leave(game.pk, player)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "You play all" not in html
    assert "You play Maiden 2 and Maiden 3 in this browser." in html
    assert 'id="acting-seat" name="seat" value="1"' in html


# --- leaving a hot-seat table: the host chooses which of the seats they play a bot plays ---------


def snapshot(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    seats = list(game.seats.order_by("index").values_list("is_bot", "bot_since"))
    return (game.version, game.event_count, seats)


def text_of(client: Any, game: Game) -> str:
    from html import unescape

    return unescape(client.get(f"/games/{game.pk}/").content.decode())


def test_the_host_hands_one_seat_of_the_table_to_a_bot_and_the_screen_names_it(clock: Any, player: Any) -> None:
    """At a table of three the host hands Maiden 2 alone to a bot (the screen's button for that
    seat): a bot plays her from now on (``seat.left``), the host still plays the other two, and
    the banner, the leave panel and the message name the seats."""
    game = hot_seat(player, players=3, start_player=1)
    client = session_client(player)
    html = text_of(client, game)
    for index, name in enumerate(["Grandpa", "Maiden 2", "Maiden 3"]):
        assert f'<input type="hidden" name="seat" value="{index}">' in html
        assert f"Hand {name} (seat {index + 1}) to a bot" in html
        assert f"Let a bot play {name} from now on? You keep playing the other seats in this browser." in html
    assert "Leave the table: hand every seat to a bot" in html
    assert "Leave the table and let bots play every seat you play here (Grandpa, Maiden 2 and Maiden 3)" in html
    response = client.post(f"/games/{game.pk}/leave/", {"seat": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == f"/games/{game.pk}/"
    assert list(game.seats.order_by("index").values_list("is_bot", flat=True)) == [False, True, False]
    assert game.seats.get(index=1).bot_since == clock()
    assert list(game.events.filter(kind="seat.left").values_list("data__seat", flat=True)) == [1]
    html = text_of(client, game)
    assert "A bot plays Maiden 2 from now on; you still play Grandpa and Maiden 3 in this browser." in html
    assert "You play Grandpa and Maiden 3 in this browser." in html
    assert "A bot is playing Maiden 2</h2>" in html
    assert "A bot has been playing Maiden 2 since" in html and "you handed that seat to a bot." in html
    assert "Take Maiden 2 back" in html and "Take my seat back" not in html
    assert "Hand Maiden 2 (seat 2) to a bot" not in html and "Hand Maiden 3 (seat 3) to a bot" in html
    # the bot plays the seat it was handed (MV-SETUP-15: seat 2 starts, choosing its familiar)
    assert server_bots.play_once(game.pk) == 1
    assert game.commands.filter(seat=1, source="player").exists()


def test_leaving_the_whole_table_hands_every_seat_and_each_comes_back_alone(clock: Any, player: Any) -> None:
    """ "Leave the table" at a hot-seat table hands every seat the host plays to bots, each its own
    ``seat.left``; the banner and the decision panel name the seats, the host takes one back by
    its own button, and the command log replays to the same events."""
    from tests.server.test_takeover import replayed_and_stored

    game = hot_seat(player, players=3, start_player=1)
    client = session_client(player)
    client.post(f"/games/{game.pk}/leave/", {"all": "1"})
    assert list(game.seats.order_by("index").values_list("is_bot", flat=True)) == [True, True, True]
    assert list(game.events.filter(kind="seat.left").values_list("data__seat", flat=True)) == [0, 1, 2]
    html = text_of(client, game)
    assert "You left the table: bots play Grandpa, Maiden 2 and Maiden 3 from now on, and the game goes on." in html
    assert "Bots are playing Grandpa, Maiden 2 and Maiden 3</h2>" in html
    assert "Bots play every seat of your table now: take a seat back at the top of the screen." in html
    assert "A bot is playing Maiden 2: take that seat back at the top of the screen to play it yourself." in html
    assert "Leave this game" not in html  # nothing left to hand over
    client.post(f"/games/{game.pk}/reclaim/", {"seat": "2"})
    assert list(game.seats.order_by("index").values_list("is_bot", flat=True)) == [True, True, False]
    html = text_of(client, game)
    assert "You play Maiden 3 again: the bot no longer plays that seat." in html
    assert "Bots are playing Grandpa and Maiden 2</h2>" in html
    assert "You play Maiden 3 in this browser." in html
    assert "Hand Maiden 3 (seat 3) to a bot" in html and "Leave the table: hand every seat" not in html
    assert "Leave the table and let a bot play Maiden 3 from now on?" in html
    server_bots.play_once(game.pk)
    produced, stored = replayed_and_stored(game)
    assert produced == stored


def test_the_hot_seat_words_in_japanese(clock: Any, player: Any) -> None:
    game = hot_seat(player, players=3, start_player=1)
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    html = text_of(client, game)
    assert "Grandpa（席1）をボットに任せる" in html and "卓を離れる：すべての席をボットに任せる" in html
    client.post(f"/games/{game.pk}/leave/", {"seat": ["0", "2"]})
    html = text_of(client, game)
    assert "これからはボットがGrandpa、Maiden 3をプレイします。Maiden 2は引き続きこのブラウザでプレイします。" in html
    assert "ボットがGrandpa、Maiden 3をプレイしています</h2>" in html
    assert "Maiden 3を取り戻す" in html


def test_leaving_seats_is_refused_with_its_reason_and_changes_nothing(clock: Any, player: Any, opponent: Any) -> None:
    """Only seats the host plays can be handed over (their own and their table's), each once; a
    seat a bot plays already, none, or a number that is no seat is refused, and so is taking back
    a seat no bot plays; nothing changes."""
    from delve.kernel import DelveError

    game = hot_seat(player, players=3, start_player=1)
    other = hot_seat(opponent, players=2)
    server_bots.leave(game.pk, player, [2])
    before = snapshot(game)
    for seats, status, code in (
        ([], 400, "request/malformed"),
        ([3], 400, "request/malformed"),
        (["1"], 400, "request/malformed"),
        ([True], 400, "request/malformed"),
        ([1, 2], 409, "seat/bot"),
    ):
        with pytest.raises(DelveError) as caught:
            server_bots.leave(game.pk, player, seats)
        assert (caught.value.status, caught.value.code) == (status, code), seats
        assert snapshot(game) == before
    with pytest.raises(DelveError) as caught:
        server_bots.leave(other.pk, opponent, [0, 1, 2])  # a two-seat game: no seat 3
    assert caught.value.code == "request/malformed"
    with pytest.raises(DelveError) as caught:
        server_bots.leave(game.pk, opponent, [0])
    assert caught.value.code == "seat/not_seated"
    with pytest.raises(DelveError) as caught:
        server_bots.reclaim(game.pk, player, 1)
    assert (caught.value.status, caught.value.code) == (409, "seat/not_taken_over")
    assert snapshot(game) == before
    # from the screen: the refusal is the message, nothing changes
    client = session_client(player)
    client.post(f"/games/{game.pk}/leave/", {"seat": "2"})
    assert snapshot(game) == before
    assert "A bot plays that seat already." in text_of(client, game)
    client.post(f"/games/{game.pk}/leave/", {"seat": "x"})
    assert snapshot(game) == before


def test_a_seat_of_another_players_table_is_not_yours_to_hand(clock: Any, player: Any, opponent: Any) -> None:
    """In a game the host shares with another player (an open seat taken), the other player's
    seat is not the host's to hand to a bot or take back (403), and a player without a table
    leaves only their own seat, as before."""
    from delve.kernel import DelveError
    from delve.server.games import engine

    game = lobby_maiden.create_table_game(player, "Ann", {"players": 2}, lobby_maiden.TABLE_OPEN)
    engine.register(game.pk, opponent, "Bob")
    game.refresh_from_db()
    for call in (lambda: server_bots.leave(game.pk, player, [1]), lambda: server_bots.reclaim(game.pk, player, 1)):
        with pytest.raises(DelveError) as caught:
            call()
        assert (caught.value.status, caught.value.code) == (403, "seat/not_yours")
    html = text_of(session_client(player), game)
    assert "Leave the table to a bot" in html and "Hand Ann (seat 1) to a bot" not in html


def test_the_next_seat_is_named_only_when_the_decision_passes_to_another_seat_of_the_browser(
    clock: Any, player: Any
) -> None:
    """Hot-seat: the decision panel names the next seat ("Next: Bea, on this device", and on a
    touch screen "Pass the phone to Bea") only when the decision now belongs to another seat of
    this browser than the one that decided last; after a seat's own decision that leaves the next
    one to the same seat (setup: the familiar, then its card), nothing is said."""
    from delve.server.games import engine
    from delve.server.games.models import CommandEntry
    from delve.server.play import maiden_screen
    from tests.server.maiden_kit import first_choice

    game = hot_seat(player)
    client = session_client(player)
    same = passed = 0
    for _ in range(60):
        game.refresh_from_db()
        screen = maiden_screen.load(game, player)
        last = (
            CommandEntry.objects.filter(game_id=game.pk, source=CommandEntry.Source.PLAYER)
            .order_by("-sequence")
            .values_list("seat", flat=True)
            .first()
        )
        html = client.get(f"/games/{game.pk}/maiden/panels/decide/").content.decode()
        if last is None or last == screen.seat:
            assert "pass-on" not in html
            same += last is not None
        else:
            name = screen.name_of(screen.seat)
            assert f"Next: {name}, on this device." in html and f"Pass the phone to {name}." in html
            passed += 1
        assert screen.acting is not None
        engine.submit(game.pk, screen.acting.user, first_choice(screen.legal))
    assert same and passed
