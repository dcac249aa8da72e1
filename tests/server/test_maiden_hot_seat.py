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
    assert "You play Maiden 2, Maiden 3 in this browser." in html
    assert 'id="acting-seat" name="seat" value="1"' in html
