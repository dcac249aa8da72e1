"""Bad input never makes a server error (issue 16, MEDIUM): every finding of the outside probe,
on both databases (the PostgreSQL pass runs this module too; PostgreSQL is where NUL characters
used to fail).

The API answers every failure as JSON ``{"error": {"code", "message"}}`` with the right status,
whatever raised it; the pages answer malformed input with a 400 page; bodies over the limit get
413; error messages quote at most a short prefix of the input; nothing is stored.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client

from delve.server.api import views as api_views
from delve.server.games.models import CommandEntry, EventEntry, Game, Seat
from delve.server.inputs import INT_MAX, JSON_DEPTH, json_text
from tests.server.conftest import session_client, token_client
from tests.server.fated_kit import fated_game

pytestmark = pytest.mark.django_db

HUGE = "9" * 5000
DEEP = '{"a":' * 5000 + "1" + "}" * 5000
NOT_ASCII_DIGITS = ["²,1", "1,²", "١,٢", f"{HUGE},1", f"1,{HUGE}", "1", "1,", ",1", "a,b", "-1,2", "1,2,3"]


def api_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is the API's JSON error with ``status`` (and ``code``); its body."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    error = response.json()["error"]
    assert set(error) >= {"code", "message"}
    if code is not None:
        assert error["code"] == code, error
    assert len(error["message"]) < 300, "an error message never echoes the whole input"
    return error


def page_error(response: Any, status: int = 400) -> str:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert HUGE[:100] not in html
    return html


def snapshot() -> tuple[int, int, int, list[int]]:
    return (
        CommandEntry.objects.count(),
        EventEntry.objects.count(),
        Seat.objects.count(),
        list(Game.objects.order_by("pk").values_list("version", flat=True)),
    )


@pytest.fixture
def fated(clock: Any, player: Any, opponent: Any, make_user: Any) -> Game:
    return fated_game([player, opponent, make_user("dee"), make_user("eve")])


# --- tile coordinates, panel signatures and versions on the game screen ----------------------


@pytest.mark.parametrize("tile", NOT_ASCII_DIGITS)
def test_a_tile_that_is_not_two_small_ascii_numbers_gets_a_400_page_from_panels_and_poll(fated, tile):
    before = snapshot()
    for url in (f"/games/{fated.pk}/panels/tile/", f"/games/{fated.pk}/poll/"):
        html = page_error(Client().get(url, {"tile": tile}))
        assert "is not a map coordinate such as 3,4" in html
    assert snapshot() == before


def test_a_well_formed_tile_is_still_selected(fated):
    response = Client().get(f"/games/{fated.pk}/panels/tile/", {"tile": "4,4"})
    assert response.status_code == 200


@pytest.mark.parametrize("sigs", [DEEP, '{"map": {"deep": "x"}}', "[1, 2]", '{"map": 1}', "{not json"])
def test_malformed_panel_signatures_get_a_400_page_never_a_recursion_error(fated, player, sigs):
    page_error(Client().get(f"/games/{fated.pk}/poll/", {"sigs": sigs}))
    before = snapshot()
    page_error(session_client(player).post(f"/games/{fated.pk}/act/", {"command": '{"kind": "pass"}', "sigs": sigs}))
    assert snapshot() == before


@pytest.mark.parametrize("field", ["version", "form_version"])
@pytest.mark.parametrize("value", [HUGE, "²", str(2**64)])
def test_a_huge_or_non_ascii_form_version_gets_a_400_page_and_changes_nothing(fated, player, field, value):
    before = snapshot()
    response = session_client(player).post(f"/games/{fated.pk}/act/", {"command": '{"kind": "pass"}', field: value})
    assert "is not a whole number" in page_error(response)
    assert snapshot() == before


def test_a_5000_deep_command_on_the_screen_is_refused_as_no_command(fated, player):
    before = snapshot()
    response = session_client(player).post(f"/games/{fated.pk}/act/", {"command": DEEP}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Choose a command first." in response.content.decode()
    assert snapshot() == before


def test_the_generic_page_refuses_a_5000_deep_command_and_a_huge_version(game, player):
    client = session_client(player)
    before = snapshot()
    response = client.post(f"/games/{game.pk}/command/", {"command": DEEP}, follow=True)
    assert response.status_code == 200
    assert "nested more than" in response.content.decode()
    response = client.post(f"/games/{game.pk}/command/", {"command": '{"kind": "wait"}', "version": HUGE}, follow=True)
    html = response.content.decode()
    assert "is not a whole number" in html and HUGE[:100] not in html
    assert snapshot() == before


# --- the JSON API ------------------------------------------------------------------------------


@pytest.mark.parametrize("after", [str(2**63), str(2**64), HUGE, "-1", "²", "1e3", " 1"])
def test_an_events_cursor_that_is_not_a_64_bit_whole_number_gets_a_json_400(game, after):
    error = api_error(Client().get(f"/api/v1/games/{game.pk}/events", {"after": after}), 400, "request/malformed")
    assert "after=" in error["message"]


def test_the_largest_events_cursor_is_accepted_and_finds_nothing(game):
    response = Client().get(f"/api/v1/games/{game.pk}/events", {"after": str(INT_MAX)})
    assert response.status_code == 200 and response.json()["events"] == []


@pytest.mark.parametrize("depth", [JSON_DEPTH + 1, 200, 5000])
def test_a_command_nested_too_deep_gets_a_json_400_and_changes_nothing(game, personas, depth):
    before = snapshot()
    deep = '{"a":' * depth + "1" + "}" * depth
    body = '{"command": {"kind": "wait", "x": ' + deep + "}}"
    response = personas["player"].post(f"/api/v1/games/{game.pk}/commands", body, content_type="application/json")
    assert "nested more than" in api_error(response, 400, "request/malformed")["message"]
    assert snapshot() == before


@pytest.mark.parametrize("version", [2**63, 10**30, -1])
def test_a_version_outside_the_database_integers_gets_a_json_400(game, personas, version):
    before = snapshot()
    body = {"command": {"kind": "wait"}, "version": version}
    response = personas["player"].post(f"/api/v1/games/{game.pk}/commands", body, content_type="application/json")
    api_error(response, 400, "request/malformed")
    response = personas["player"].post(
        f"/api/v1/games/{game.pk}/comment", {"text": "hi", "version": version}, content_type="application/json"
    )
    api_error(response, 400, "request/malformed")
    assert snapshot() == before


def test_the_largest_version_is_valid_and_simply_stale(game, personas):
    body = {"command": {"kind": "wait"}, "version": INT_MAX}
    response = personas["player"].post(f"/api/v1/games/{game.pk}/commands", body, content_type="application/json")
    api_error(response, 409, "command/stale_version")


@pytest.mark.parametrize("game_id", ["9" * 19, HUGE])
def test_a_game_id_beyond_the_database_integers_is_not_found(game_id):
    api_error(Client().get(f"/api/v1/games/{game_id}"), 404)
    assert Client().get(f"/games/{game_id}/").status_code == 404


# --- NUL characters (PostgreSQL cannot store them) ---------------------------------------------


def test_nul_characters_in_api_bodies_are_refused_with_a_json_400_and_nothing_is_stored(clock, make_game, personas):
    open_game = make_game()
    player = personas["player"]
    before = snapshot()
    for path, body in [
        (f"/api/v1/games/{open_game.pk}/seats", {"name": "A\x00B"}),
        (f"/api/v1/games/{open_game.pk}/seats", {"name": "Ann", "options": {"colour\x00": "red"}}),
        (f"/api/v1/games/{open_game.pk}/seats", {"name": "Ann", "options": {"colour": "red\x00"}}),
    ]:
        response = player.post(path, body, content_type="application/json")
        assert "NUL character" in api_error(response, 400, "request/malformed")["message"]
    assert snapshot() == before


def test_nul_characters_in_commands_comments_and_keys_are_refused_on_a_running_game(game, personas):
    player = personas["player"]
    before = snapshot()
    for path, body in [
        (f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "wait\x00"}}),
        (f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "wait", "k\x00": 1}}),
        (f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "wait"}, "idempotency_key": "k\x00"}),
        (f"/api/v1/games/{game.pk}/comment", {"text": "hello\x00"}),
        (f"/api/v1/games/{game.pk}/comment", {"text": "hello", "idempotency_key": "\x00"}),
    ]:
        response = player.post(path, body, content_type="application/json")
        assert "NUL character" in api_error(response, 400, "request/malformed")["message"]
    assert snapshot() == before


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/records/a%00b",
        "/api/v1/games?status=running%00",
        "/api/v1/games?x%00=1",
        "/api/v1/no%00where",
    ],
)
def test_nul_characters_in_api_addresses_get_a_json_400(db, url):
    assert "NUL character" in api_error(Client().get(url), 400, "request/malformed")["message"]


@pytest.mark.parametrize("url", ["/records/a%00b/", "/games/?tile=1%00", "/accounts/login/?next=/%00"])
def test_nul_characters_in_page_addresses_get_a_400_page(db, url):
    assert "NUL character" in page_error(Client().get(url))


def test_nul_characters_in_forms_get_a_400_page_and_nothing_is_stored(fated, player):
    client = session_client(player)
    before = snapshot()
    for data in [{"comment": "hi\x00"}, {"command": '{"kind": "pass"}', "tile\x00": "1,1"}]:
        assert "NUL character" in page_error(client.post(f"/games/{fated.pk}/act/", data))
    assert "NUL character" in page_error(Client().post("/accounts/login/", {"username": "a\x00", "password": "x"}))
    assert snapshot() == before


def test_control_characters_never_make_a_character_name_or_an_idempotency_key(clock, make_game, personas):
    open_game = make_game()
    response = personas["player"].post(
        f"/api/v1/games/{open_game.pk}/seats", {"name": "Ann\x1b[31m"}, content_type="application/json"
    )
    api_error(response, 400, "request/malformed")  # the API's description refuses it (api/types.py)
    response = personas["player"].post(
        f"/api/v1/games/{open_game.pk}/seats", {"name": "アン\u3000ナ"}, content_type="application/json"
    )
    assert response.status_code == 201  # letters and spaces of every script are fine


# --- the catch-all -----------------------------------------------------------------------------


def test_an_unexpected_exception_in_the_api_is_a_logged_json_500_never_an_html_page(db, monkeypatch, caplog):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api_views.present, "game_summary", broken)
    make = Client(raise_request_exception=False)
    Game.objects.create(ruleset="toy", preset="toy", settings={}, seat_count=2, seed=1)
    error = api_error(make.get("/api/v1/games"), 500, "server/error")
    assert "a bug" not in error["message"]  # no internals leak
    assert any("API request GET /api/v1/games failed" in r.getMessage() for r in caplog.records)


def test_an_unavailable_database_in_the_api_is_a_json_503_with_retry_after(db, monkeypatch):
    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("couldn't get a connection after 30.00 sec")

    monkeypatch.setattr(api_views.Game.objects, "all", down)
    response = Client(raise_request_exception=False).get("/api/v1/games")
    api_error(response, 503, "server/unavailable")
    assert response["Retry-After"] == "5"


def test_an_unavailable_database_on_a_page_is_a_503_page(db, monkeypatch):
    from delve.server.lobby import views as lobby_views

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("database is busy")

    monkeypatch.setattr(lobby_views, "render", down)
    response = Client(raise_request_exception=False).get("/")
    assert "The server is busy" in page_error(response, 503)


@pytest.mark.parametrize("path", ["/api/v1/games/{id}", "/games/{id}/"])
def test_an_unavailable_database_met_by_a_middleware_is_a_503_too(db, monkeypatch, caplog, path):
    """The spectator gate queries the game before any view runs (a middleware): when the pool
    times out there, the answer is the same 503 with Retry-After as from a view, not Django's 500
    (seen under load on PostgreSQL: 256 clients on a starved machine)."""
    from delve.server.social import spectators

    game = Game.objects.create(ruleset="toy", preset="toy", settings={}, seat_count=2, seed=1)

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("couldn't get a connection after 30.00 sec")

    monkeypatch.setattr(spectators.Game.objects, "filter", down)
    response = Client(raise_request_exception=False).get(path.format(id=game.pk))
    if path.startswith("/api/"):
        api_error(response, 503, "server/unavailable")
    else:
        assert "The server is busy" in page_error(response, 503)
    assert response["Retry-After"] == "5"


def test_django_own_error_answers_under_the_api_are_rewritten_as_json(db):
    api_error(Client(HTTP_HOST="evil.example").get("/api/v1/games"), 400, "request/malformed")


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/games/1/commands"])
def test_a_body_over_the_limit_gets_a_json_413_before_it_is_read(game, personas, settings, path):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    body = json.dumps({"command": {"kind": "wait", "pad": "x" * 4000}})
    response = personas["player"].post(path, body, content_type="application/json")
    assert "larger than 2048 bytes" in api_error(response, 413, "request/too_large")["message"]


def test_a_form_over_the_limit_gets_a_413_page(fated, player, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    response = session_client(player).post(f"/games/{fated.pk}/act/", {"comment": "x" * 4000})
    assert "too large" in page_error(response, 413)


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("post", "/api/v1/games/{game}/commands", {"command": {"kind": "wait"}, "x" * 5000: 1}),
        ("get", "/api/v1/games?status=" + "x" * 5000, None),
        ("get", "/api/v1/" + "x" * 5000, None),
        ("get", "/api/v1/games/{game}/events?after=" + "x" * 5000, None),
        ("post", "/api/v1/games/{game}/commands", '{"command": ' + "x" * 5000),
    ],
)
def test_error_messages_quote_at_most_a_short_prefix_of_the_input(game, personas, method, url, body):
    url = url.format(game=game.pk)
    data = body if isinstance(body, str) else json.dumps(body) if body is not None else None
    call = getattr(personas["player"], method)
    response = call(url, data, content_type="application/json") if data else call(url)
    error = api_error(response, response.status_code)
    assert 400 <= response.status_code < 500
    assert "x" * 100 not in json.dumps(error)


@pytest.mark.parametrize(
    "command", [{"kind": "x" * 5000}, {"kind": "move", "dir": "x" * 5000}, {"kind": "pass", "x" * 5000: 1}]
)
def test_a_ruleset_refusal_quotes_at_most_a_short_prefix_of_a_long_command(fated, player, command):
    client = token_client(player)
    before = snapshot()
    response = client.post(f"/api/v1/games/{fated.pk}/commands", {"command": command}, content_type="application/json")
    error = api_error(response, response.status_code)
    assert response.status_code in {400, 422}
    assert "x" * 100 not in json.dumps(error)
    html = session_client(player).post(f"/games/{fated.pk}/act/", {"command": json.dumps(command)}, follow=True)
    assert "x" * 100 not in html.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("unknown field `" + "x" * 50 + "`", "unknown field `" + "x" * 32 + "...`"),
        ("unknown kind " + repr("x" * 500), "unknown kind '" + "x" * 32 + "...'"),
        ("no endpoint /api/v1/" + "y" * 500, "no endpoint /api/v1/" + "y" * 56 + "..."),
        (
            "the player's hand is full and it isn't possible to draw",
            "the player's hand is full and it isn't possible to draw",
        ),
    ],
)
def test_messages_keep_a_short_prefix_of_quoted_input_and_ordinary_sentences_whole(message, expected):
    from delve.server.inputs import clip

    assert clip(message, 300) == expected


# --- the White Maiden screen shares the same parsing ------------------------------------------


@pytest.fixture
def maiden(clock: Any, player: Any, opponent: Any) -> Game:
    from tests.server.maiden_kit import maiden_game

    return maiden_game([player, opponent])


@pytest.mark.parametrize("seat", ["²", HUGE, "-1"])
def test_a_malformed_seat_on_the_white_maiden_screen_gets_a_400_page(maiden, player, seat):
    page_error(Client().get(f"/games/{maiden.pk}/maiden/panels/status/", {"seat": seat}))
    before = snapshot()
    page_error(session_client(player).post(f"/games/{maiden.pk}/maiden/act/", {"command": "{}", "seat": seat}))
    assert snapshot() == before


def test_deep_json_on_the_white_maiden_screen_never_makes_a_recursion_error(maiden, player):
    page_error(Client().get(f"/games/{maiden.pk}/maiden/poll/", {"sigs": DEEP}))
    before = snapshot()
    client = session_client(player)
    page_error(client.post(f"/games/{maiden.pk}/maiden/act/", {"command": "{}", "sigs": DEEP}, HTTP_HX_REQUEST="true"))
    response = client.post(f"/games/{maiden.pk}/maiden/act/", {"command": DEEP}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Choose a command first." in response.content.decode()
    page_error(client.post(f"/games/{maiden.pk}/maiden/act/", {"command": "{}", "version": HUGE}))
    assert snapshot() == before


# --- bodies that are not JSON ------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ["commands", "comment", "seats"])
@pytest.mark.parametrize("content_type", ["multipart/form-data; boundary=xx", "multipart/form-data"])
def test_a_multipart_body_on_an_api_post_gets_a_json_400_and_changes_nothing(game, personas, endpoint, content_type):
    """The probe: a multipart Content-Type made a 500 (the body was read as form fields first,
    then as JSON), and one without a boundary a 400 HTML page under /api/."""
    before = snapshot()
    for body in (
        "null",
        '{"text": "hi"}',
        '--xx\r\nContent-Disposition: form-data; name="text"\r\n\r\nhi\r\n--xx--\r\n',
    ):
        response = personas["player"].post(f"/api/v1/games/{game.pk}/{endpoint}", body, content_type=content_type)
        error = api_error(response, 400, "request/malformed")
        assert "JSON" in error["message"] or "form data is malformed" in error["message"], error
    assert snapshot() == before


def test_a_multipart_body_without_a_boundary_on_a_page_gets_the_400_page(game, player):
    before = snapshot()
    response = session_client(player).post(f"/games/{game.pk}/comment/", "text=hi", content_type="multipart/form-data")
    assert "the form data is malformed" in page_error(response)
    assert snapshot() == before


def test_an_empty_multipart_post_still_takes_a_seat_back(game, personas):
    """reclaim takes no body: a client's bare POST (multipart without fields) is still fine;
    here it is refused only because no bot took the seat over."""
    response = personas["player"].post(f"/api/v1/games/{game.pk}/reclaim")
    api_error(response, 409, "seat/not_taken_over")


# --- a key given twice ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("endpoint", "body", "key"),
    [
        ("commands", '{"command": {"kind": "wait", "kind": "roll"}}', "kind"),
        ("commands", '{"command": {"kind": "roll"}, "version": 0, "version": 1}', "version"),
        ("commands", '{"command": {"kind": "roll", "x": {"y": 1, "y": 2}}}', "y"),
        ("comment", '{"text": "note: hi", "text": "bye"}', "text"),
        ("comment", '{"text": "a", "idempotency_key": "k:1", "idempotency_key": "k:2"}', "idempotency_key"),
    ],
)
def test_a_json_body_giving_a_key_twice_gets_a_json_400_naming_it_and_changes_nothing(
    game, personas, endpoint, body, key
):
    """The probe: {"command": {"kind": "start_turn", "kind": "give_up"}} applied the give_up
    (the decoder kept the last "kind"): a key given twice is refused, naming it."""
    before = snapshot()
    response = personas["player"].post(f"/api/v1/games/{game.pk}/{endpoint}", body, content_type="application/json")
    message = api_error(response, 400, "request/malformed")["message"]
    assert f"gives the key '{key}' twice" in message
    assert snapshot() == before


def test_a_key_given_twice_at_registration_is_refused(clock, make_game, personas):
    open_game = make_game()
    before = snapshot()
    body = '{"name": "Ann", "name": "Eve", "options": {"colour": "red"}}'
    response = personas["player"].post(f"/api/v1/games/{open_game.pk}/seats", body, content_type="application/json")
    assert "gives the key 'name' twice" in api_error(response, 400, "request/malformed")["message"]
    assert snapshot() == before


def test_colons_in_texts_and_the_same_key_in_different_objects_are_fine(game, personas):
    response = personas["player"].post(
        f"/api/v1/games/{game.pk}/comment", '{"text": "note: a:b {\\"x\\": 1}"}', content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert Seat.objects.get(game=game, index=0).comment == 'note: a:b {"x": 1}'
    body = '{"command": {"kind": "wait"}, "idempotency_key": "k:1"}'
    response = personas["player"].post(f"/api/v1/games/{game.pk}/commands", body, content_type="application/json")
    assert response.status_code == 200, response.content
    assert json_text('[{"kind": 1}, {"kind": {"kind": ":"}}]', "x") == [{"kind": 1}, {"kind": {"kind": ":"}}]


def test_the_generic_page_refuses_a_command_giving_a_key_twice(game, player):
    before = snapshot()
    response = session_client(player).post(
        f"/games/{game.pk}/command/", {"command": '{"kind": "wait", "kind": "roll"}'}, follow=True
    )
    assert "gives the key &#x27;kind&#x27; twice" in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize("path", ["/games/{id}/command/", "/games/{id}/comment/", "/games/{id}/withdraw/"])
@pytest.mark.parametrize("game_id", [0, 999999999999])
def test_a_form_post_to_a_game_that_does_not_exist_is_a_404(client, player, path, game_id):
    """A page form posting to an unknown game answers 404 (it redirected to a game page that is
    not there, with a message)."""
    client.force_login(player)
    response = client.post(path.format(id=game_id), {"command": '{"kind": "stay"}', "text": "x"})
    assert response.status_code == 404


# --- whole numbers beyond 64 bits -------------------------------------------------------------

#: Whole numbers past what a 64-bit integer holds, as a client writes them.
BEYOND_64_BITS = ["18446744073709551616", "-18446744073709551617", "9223372036854775808", "1" + "0" * 30]


@pytest.mark.parametrize("number", BEYOND_64_BITS)
def test_a_whole_number_beyond_64_bits_in_a_command_is_refused_as_out_of_range_quoted_as_sent(game, personas, number):
    """Never ``1.84467e+19``: the refusal quotes the digits that were sent and says why."""
    before = snapshot()
    for body in (
        '{"command": {"kind": "wait"}, "version": NUMBER}'.replace("NUMBER", number),
        '{"command": {"kind": "move", "steps": NUMBER}}'.replace("NUMBER", number),
        '{"command": {"kind": "wait", "n": [1, {"deep": NUMBER}]}}'.replace("NUMBER", number),
    ):
        response = personas["player"].post(f"/api/v1/games/{game.pk}/commands", body, content_type="application/json")
        message = api_error(response, 400, "request/malformed")["message"]
        assert f"whole number out of range: '{number}'" in message, message
        assert "e+" not in message
    assert snapshot() == before


def test_a_whole_number_of_thousands_of_digits_is_refused_as_out_of_range(game, personas):
    body = '{"command": {"kind": "wait"}, "version": ' + "9" * 5000 + "}"
    response = personas["player"].post(f"/api/v1/games/{game.pk}/commands", body, content_type="application/json")
    assert "whole number out of range" in api_error(response, 400, "request/malformed")["message"]


def test_the_64_bit_bounds_themselves_still_decode():
    assert json_text(f"[{INT_MAX}, {-INT_MAX - 1}]", "the list") == [INT_MAX, -INT_MAX - 1]


@pytest.mark.parametrize("number", BEYOND_64_BITS)
def test_a_setting_beyond_64_bits_is_refused_as_out_of_range_quoted_as_typed(staff, number):
    """The staff form's settings, as key=value lines and as JSON: the number as typed, no float."""
    client = session_client(staff)
    line = client.post("/games/new/", {"preset": "fated:fated-labyrinth", "overrides": f"players={number}"})
    html = line.content.decode()
    assert line.status_code == 400 and f"Line 1: &#x27;{number}&#x27; is out of range" in html
    assert "e+" not in html
    as_json = client.post("/games/new/", {"preset": "fated:fated-labyrinth", "overrides": f'{{"wait_time": {number}}}'})
    html = as_json.content.decode()
    assert as_json.status_code == 400 and f"whole number out of range: &#x27;{number}&#x27;" in html
    assert "e+" not in html
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("players", 2**63 - 4, "got 9223372036854775804"),
        ("wait_time", 2**62, "must be between 1 and 2592000, got 4611686018427387904"),
        ("ice_rate", "1" + "0" * 30, "must be between 0 and 50, got 1" + "0" * 30),
        ("ice_rate", 2**62, "got 4611686018427387904"),
    ],
)
def test_a_ruleset_quotes_a_large_setting_in_all_its_digits(key, value, said):
    """A range refusal of Fated Labyrinth's settings writes numbers whole (``2592000``, not
    ``2.592e+06``; ``4611686018427387904``, not ``4.61169e+18``)."""
    from delve.kernel import SettingsError
    from delve.server.games.engine import resolve_settings

    with pytest.raises(SettingsError) as caught:
        resolve_settings("fated", "fated-labyrinth", {key: value})
    assert said in caught.value.message and "e+" not in caught.value.message


@pytest.mark.parametrize(
    ("body", "escape", "at"),
    [
        (rb'{"command": {"kind": "stay", "text": "\ud800"}}', "\\ud800", 38),
        (rb'{"command": {"kind": "stay", "text": "ok \uDC00"}}', "\\udc00", 41),
        (rb'{"command": {"kind": "stay", "text": "\ud800\ud800\udc00"}}', "\\ud800", 38),
    ],
)
def test_a_lone_surrogate_is_named_not_called_truncated(game, personas, body, escape, at):
    """A ``\\ud800`` escape without its low half is not JSON: the message said "Input data was
    truncated" (the decoder's words), which sends a bot looking for a short read."""
    response = personas["player"].post(f"/api/v1/games/{game.pk}/commands", body, content_type="application/json")
    message = api_error(response, 400, "request/malformed")["message"]
    assert f"a lone UTF-16 surrogate {escape} at byte {at}" in message
    assert "truncated" not in message


def test_surrogate_pairs_and_escaped_backslashes_are_fine():
    assert json_text(rb'"\ud83d\ude00"', "x") == "\U0001f600"
    assert json_text(rb'"\\ud800"', "x") == "\\ud800"  # an escaped backslash, then the text "ud800"
