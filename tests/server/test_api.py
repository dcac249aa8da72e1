"""The JSON API under /api/v1: answers, the error shape, authentication (tokens for bots,
sessions with CSRF for browsers) and the OpenAPI schema."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from delve.server.accounts.models import ApiToken
from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from tests.server.conftest import PASSWORD, session_client, token_client

pytestmark = pytest.mark.django_db


def post(client, url, body, **extra):
    return client.post(url, body, content_type="application/json", **extra)


def error_of(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    return body["error"]


def test_the_games_list_shows_each_game_with_its_active_settings(client, game, make_game):
    open_game = make_game(goal=30)
    games = client.get("/api/v1/games").json()["games"]
    assert [g["id"] for g in games] == [open_game.pk, game.pk]
    assert games[0]["status"] == "open" and games[0]["seats_taken"] == 0
    assert {"key": "goal", "label": "goal", "value": "30", "shown": "30"} in games[0]["settings"]
    assert [g["id"] for g in client.get("/api/v1/games?status=running").json()["games"]] == [game.pk]
    error_of(client.get("/api/v1/games?status=paused"), 400, "request/malformed")
    for limit in ("0", "201", "x"):  # one wording of the one range, below it and above it
        error = error_of(client.get(f"/api/v1/games?limit={limit}"), 400, "request/malformed")
        assert error["message"] == f"limit='{limit}' is not a whole number from 1 to 200"


def test_a_player_gets_their_seats_view_and_a_visitor_the_public_view(game, personas):
    mine = personas["player"].get(f"/api/v1/games/{game.pk}").json()
    assert mine["seat"] == 0
    assert mine["view"] == {"positions": [0, 0], "comments": ["", ""], "stored": 0, "winner": None}
    assert mine["game"]["version"] == 1 and mine["outcome"] is None
    public = personas["outsider"].get(f"/api/v1/games/{game.pk}").json()
    assert public["seat"] is None and public["view"]["stored"] is None


def test_legal_commands_are_the_rulesets(game, personas, clock):
    assert personas["player"].get(f"/api/v1/games/{game.pk}/commands").json() == {
        "version": 1,
        "seat": 0,
        "commands": [{"kind": "wait"}],
        "choices": engine.choices_digest([{"kind": "wait"}]),
    }
    clock.tick(60)  # the view advances the clock up to now before asking the ruleset
    commands = personas["opponent"].get(f"/api/v1/games/{game.pk}/commands").json()["commands"]
    assert commands == [{"kind": "wait"}, {"kind": "roll"}]


def test_submitting_a_command_answers_the_new_version_and_the_callers_events(game, personas, clock):
    clock.tick(60)
    response = post(
        personas["player"], f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "roll"}, "version": 1}
    )
    assert response.status_code == 200, response.content
    assert response["Idempotent-Replayed"] == "false"
    body = response.json()
    assert body["version"] == 2 and body["sequence"] == 2
    assert [e["kind"] for e in body["events"]] == ["toy.granted", "toy.rolled"]
    assert body["events"][1]["private"] is True


def test_a_commands_answer_lists_the_callers_next_legal_commands(game, personas, clock):
    """The answer to a command carries the caller's legal commands right after it and their
    ``choices`` digest, equal to what ``GET .../commands`` answers then, so that a client decides
    its next command without asking again; a replayed answer lists them as they are now."""
    url = f"/api/v1/games/{game.pk}/commands"
    clock.tick(60)  # one stored roll each
    first = post(personas["player"], url, {"command": {"kind": "roll"}, "idempotency_key": "k1"})
    assert first.status_code == 200, first.content
    body = first.json()
    listed = personas["player"].get(url).json()
    assert body["commands"] == listed["commands"] == [{"kind": "wait"}]  # the roll is spent
    assert body["choices"] == listed["choices"]
    # the listed choices guard the next command like those of a GET
    after = post(personas["player"], url, {"command": {"kind": "wait"}, "choices": body["choices"]})
    assert after.status_code == 200, after.content
    # the stored answer (what a replay returns) keeps no list: a replay lists the commands now
    clock.tick(60)  # a new roll: the first answer's list is stale
    again = post(personas["player"], url, {"command": {"kind": "roll"}, "idempotency_key": "k1"})
    assert again["Idempotent-Replayed"] == "true"
    replayed = again.json()
    assert (replayed["sequence"], replayed["events"]) == (body["sequence"], body["events"])
    now = personas["player"].get(url).json()["commands"]
    assert replayed["commands"] == now == [{"kind": "wait"}, {"kind": "roll"}]
    assert replayed["choices"] == engine.choices_digest(replayed["commands"])
    entry = CommandEntry.objects.get(game=game, idempotency_key="k1")
    assert set(entry.answer) == {"sequence", "version", "events"}
    # a comment through the commands endpoint lists them too; the comment endpoint answers as before
    said = post(personas["opponent"], url, {"command": {"kind": "comment", "text": "hi"}}).json()
    assert said["commands"] == personas["opponent"].get(url).json()["commands"]
    assert set(post(personas["opponent"], f"/api/v1/games/{game.pk}/comment", {"text": "yo"}).json()) == {
        "sequence",
        "version",
        "events",
    }


def test_the_command_that_ends_the_game_answers_no_more_commands(personas, clock, start_game):
    game = start_game(goal=1)
    clock.tick(60)
    body = post(personas["player"], f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "roll"}}).json()
    assert [e["kind"] for e in body["events"]][-2:] == ["toy.won", "game.ended"]
    assert body["commands"] == [] and body["choices"] == engine.choices_digest([])


def test_every_rejection_says_why(game, personas, clock):
    player = personas["player"]
    url = f"/api/v1/games/{game.pk}/commands"
    illegal = error_of(post(player, url, {"command": {"kind": "roll"}}), 422, "command/illegal")
    assert "roll" in illegal["message"]
    post(personas["opponent"], f"/api/v1/games/{game.pk}/comment", {"text": "hello"})  # a change the player sees
    stale = error_of(post(player, url, {"command": {"kind": "wait"}, "version": 1}), 409, "command/stale_version")
    assert stale["details"] == {"current_version": 2}
    malformed = error_of(player.post(url, "{not json", content_type="application/json"), 400, "request/malformed")
    assert "not valid" in malformed["message"]
    error_of(post(player, url, {"command": "roll"}), 400, "request/malformed")
    error_of(post(player, url, {"command": {"kind": "wait"}, "version": "1"}), 400, "request/malformed")
    error_of(post(player, "/api/v1/games/999999/commands", {"command": {"kind": "wait"}}), 404, "game/not_found")
    error_of(personas["spectator"].get(url), 403, "seat/not_seated")
    error_of(personas["outsider"].get(url), 401, "auth/required")
    error_of(player.put(url), 405, "request/method_not_allowed")
    error_of(player.get("/api/v1/nothing/here"), 404, "request/not_found")
    assert player.get("/api/v1/records/nobody").json() == {"user": "nobody", "records": []}  # no enumeration


def test_nobody_can_act_for_a_seat_they_do_not_play(game, personas):
    """A command acts for the caller's own seat; one that names another player's seat is refused
    (a hot-seat host's table seats: tests/server/test_api_table_seats.py)."""
    url = f"/api/v1/games/{game.pk}/commands"
    error = error_of(post(personas["player"], url, {"command": {"kind": "wait"}, "seat": 1}), 403, "seat/not_yours")
    assert "seat index 1 " in error["message"] and "numbered from 0" in error["message"]
    error_of(post(personas["player"], url, {"command": {"kind": "wait"}, "seat": "1"}), 400, "request/malformed")
    assert not CommandEntry.objects.exists()


def test_the_idempotency_key_may_come_as_a_header(game, personas):
    url = f"/api/v1/games/{game.pk}/commands"
    first = post(personas["player"], url, {"command": {"kind": "wait"}}, HTTP_IDEMPOTENCY_KEY="abc")
    again = post(personas["player"], url, {"command": {"kind": "wait"}, "idempotency_key": "abc"})
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert CommandEntry.objects.count() == 1
    differ = post(
        personas["player"], url, {"command": {"kind": "wait"}, "idempotency_key": "x"}, HTTP_IDEMPOTENCY_KEY="y"
    )
    error_of(differ, 400, "request/malformed")


def test_setting_a_comment(game, personas):
    """FL-COM-1, FL-COM-2: the caller's own comment, shown to everyone in the seat list."""
    response = post(personas["opponent"], f"/api/v1/games/{game.pk}/comment", {"text": "good luck"})
    assert response.status_code == 200, response.content
    seats = personas["outsider"].get(f"/api/v1/games/{game.pk}").json()["game"]["seats"]
    assert [s["comment"] for s in seats] == ["", "good luck"]
    error = error_of(
        post(personas["opponent"], f"/api/v1/games/{game.pk}/comment", {"text": "x" * 101}), 422, "comment/invalid"
    )
    assert "100" in error["message"]
    error_of(post(personas["spectator"], f"/api/v1/games/{game.pk}/comment", {"text": "hi"}), 403, "seat/not_seated")


def test_events_are_paged_with_a_cursor(game, personas, clock):
    for _ in range(3):
        clock.tick(60)
        post(personas["player"], f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "roll"}})
    url = f"/api/v1/games/{game.pk}/events"
    page = personas["player"].get(url + "?limit=2").json()
    assert [e["kind"] for e in page["events"]] == ["game.started", "toy.granted"]
    rest = personas["player"].get(url + f"?after={page['cursor']}").json()
    assert [e["kind"] for e in rest["events"]] == [
        "toy.rolled",
        "toy.granted",
        "toy.rolled",
        "toy.granted",
        "toy.rolled",
    ]
    assert personas["player"].get(url + f"?after={rest['cursor']}").json() == {"events": [], "cursor": rest["cursor"]}
    error_of(personas["player"].get(url + "?after=-1"), 400, "request/malformed")


def test_a_bad_or_revoked_token_is_refused(game, player):
    error_of(Client(headers={"Authorization": "Bearer nope"}).get("/api/v1/games"), 401, "auth/invalid_token")
    error_of(Client(headers={"Authorization": "Basic abc"}).get("/api/v1/games"), 401, "auth/invalid_token")
    row, token = ApiToken.issue(player)
    bot = Client(headers={"Authorization": f"Bearer {token}"})
    assert bot.get(f"/api/v1/games/{game.pk}").json()["seat"] == 0
    row.delete()
    error_of(bot.get(f"/api/v1/games/{game.pk}"), 401, "auth/invalid_token")


def test_only_a_digest_of_a_token_is_stored(player):
    row, token = ApiToken.issue(player)
    assert token.startswith("dlv_") and len(token) > 40
    assert token not in (row.digest, row.hint) and row.hint == token[:10]
    assert ApiToken.user_for(token) == player


def test_browser_sessions_need_the_csrf_token_for_writes(game, player):
    browser = Client(enforce_csrf_checks=True)
    assert browser.login(username=player.username, password=PASSWORD)
    url = f"/api/v1/games/{game.pk}/commands"
    assert browser.get(url).status_code == 200  # reads need no CSRF token
    error_of(post(browser, url, {"command": {"kind": "wait"}}), 403, "auth/csrf")
    page = browser.get("/")  # any page sets the CSRF cookie
    token = page.cookies["csrftoken"].value
    assert post(browser, url, {"command": {"kind": "wait"}}, HTTP_X_CSRFTOKEN=token).status_code == 200


def test_bots_with_tokens_need_no_csrf_token(game, player):
    _, token = ApiToken.issue(player)
    bot = Client(enforce_csrf_checks=True, headers={"Authorization": f"Bearer {token}"})
    assert post(bot, f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "wait"}}).status_code == 200


def test_records_api(game, personas, player):
    assert personas["player"].get("/api/v1/records").json() == {"user": "ann", "records": []}
    error_of(personas["outsider"].get("/api/v1/records"), 401, "auth/required")
    assert personas["outsider"].get(f"/api/v1/records/{player.username}").json()["user"] == "ann"


def _api_routes() -> list[str]:
    """Every URL pattern under /api/v1/, in OpenAPI's {param} spelling (the catch-all excluded)."""
    resolver = get_resolver()

    def walk(patterns, prefix):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                yield prefix + str(entry.pattern)

    routes = [route for route in walk(resolver.url_patterns, "/") if route.startswith("/api/v1/")]
    return [re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route) for route in routes if "<path:" not in route]


def test_every_api_url_is_in_the_openapi_schema(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.1")
    routes = _api_routes()
    assert len(routes) >= 8
    assert sorted(routes) == sorted(schema["paths"])
    error = schema["components"]["schemas"]["ErrorBody"]
    assert error["required"] == ["code", "message"]


def test_every_documented_operation_answers_something_but_a_404_page(game, personas):
    """The schema's methods are the ones the views accept."""
    schema = personas["player"].get("/api/v1/openapi.json").json()
    for path, operations in schema["paths"].items():
        url = path.replace("{game_id}", str(game.pk)).replace("{username}", "ann")
        for method in operations:
            body = "" if method == "get" else "{}"
            response = personas["player"].generic(method.upper(), url, body, content_type="application/json")
            assert response.status_code != 405, (method, path)
            documented = operations[method]["responses"].get("200", {}).get("content", {"application/json": {}})
            assert response["Content-Type"].split(";")[0] in documented, (method, path)


def test_a_game_that_does_not_exist_is_404_everywhere(personas):
    for url in ("/api/v1/games/4040", "/api/v1/games/4040/events", "/api/v1/games/4040/commands"):
        error_of(personas["player"].get(url), 404, "game/not_found")


def test_opening_a_game_ended_is_reported_with_its_outcome(game, personas, clock):
    for _ in range(40):
        if Game.objects.get(pk=game.pk).status == Game.Status.ENDED:
            break
        clock.tick(60)
        post(personas["player"], f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "roll"}})
    body = personas["outsider"].get(f"/api/v1/games/{game.pk}").json()
    assert body["game"]["status"] == "ended"
    assert body["outcome"] == {"winners": [0], "results": {"0": "won", "1": "lost"}}


def test_a_session_user_may_use_the_api_like_a_bot(game, opponent):
    browser = session_client(opponent)
    assert browser.get(f"/api/v1/games/{game.pk}").json()["seat"] == 1
    assert token_client(opponent).get(f"/api/v1/games/{game.pk}").json()["seat"] == 1


def test_a_choices_digest_guards_a_decision_without_tripping_on_other_seats(game, personas, clock):
    """A command sent with the ``choices`` digest of the legal commands it was decided on is
    applied while those choices still hold, whatever else moved the version; it answers 409
    ``command/choices_changed`` once they differ."""
    clock.tick(60)
    mine = personas["player"].get(f"/api/v1/games/{game.pk}/commands").json()
    assert {"kind": "roll"} in mine["commands"]
    theirs = post(personas["opponent"], f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "roll"}})
    assert theirs.status_code == 200  # the game's version moved on
    ok = post(
        personas["player"],
        f"/api/v1/games/{game.pk}/commands",
        {"command": {"kind": "wait"}, "choices": mine["choices"]},
    )
    assert ok.status_code == 200, ok.json()
    stale = post(
        personas["player"],
        f"/api/v1/games/{game.pk}/commands",
        {"command": {"kind": "wait"}, "choices": "0000000000000000"},
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "command/choices_changed"


def test_an_events_cursor_past_the_end_answers_the_real_end(db, clock, player):
    """A client that sends a cursor past the end gets back the real end of what it may see, not
    its own number (it would skip every event to come)."""
    from django.test import Client

    from delve.server.games import engine

    game = engine.create_game("maiden", "white-maiden", {"players": 1})
    engine.register(game.pk, player, "Ann")
    client = Client()
    body = client.get(f"/api/v1/games/{game.pk}/events?after=0&limit=100").json()
    end = body["cursor"]
    assert end > 0
    past = client.get(f"/api/v1/games/{game.pk}/events?after=99999").json()
    assert past["events"] == [] and past["cursor"] == end
    for limit in ("0", "101"):  # the same words for both ends of the one range
        error = error_of(client.get(f"/api/v1/games/{game.pk}/events?limit={limit}"), 400, "request/malformed")
        assert error["message"] == f"limit='{limit}' is not a whole number from 1 to 100"


def test_my_games_lists_where_the_caller_must_act_first(db, clock, player, opponent):
    """A bot (or a player's script) asks where it must act instead of polling every game."""
    from django.test import Client

    from delve.server.games import engine
    from tests.server.conftest import token_client

    duo = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0})
    engine.register(duo.pk, player, "Ann")
    engine.register(duo.pk, opponent, "Bob")
    waiting_room = engine.create_game("maiden", "white-maiden", {"players": 2})
    engine.register(waiting_room.pk, player, "Ann")
    mine = token_client(player).get("/api/v1/me/games").json()["games"]
    assert [(g["id"], g["seat"]) for g in mine] == [(duo.pk, 0), (waiting_room.pk, None)]
    theirs = token_client(opponent).get("/api/v1/me/games").json()["games"]
    acting = {g["id"]: g["must_act"] for g in mine} | {g["id"]: g["must_act"] for g in theirs}
    assert mine[0]["must_act"] != theirs[0]["must_act"]  # one of the two is waited for
    assert acting[waiting_room.pk] is False
    assert Client().get("/api/v1/me/games").status_code == 401


def test_an_open_game_says_what_a_registration_chooses_FL_REG_2(db, clock):
    """FL-REG-2: registering chooses a class (and an image); the open game's resource lists those
    choices and their defaults, so a client learns them before registering, not from a refusal."""
    from django.test import Client

    from delve.server.games import engine

    game = engine.create_game("fated", "level-d", {"players": 4, "maze_size": 9})
    listed = Client().get(f"/api/v1/games/{game.pk}").json()["game"]["seat_options"]
    by_key = {option["key"]: option for option in listed}
    assert "class" in by_key
    values = [choice["value"] for choice in by_key["class"]["choices"]]
    assert "cat" in values and by_key["class"]["default"] in values
    assert any(choice["label"] == "Ninja" for choice in by_key["class"]["choices"])  # Level D's words


def test_a_query_number_given_twice_is_refused(db, clock, player):
    from django.test import Client

    from delve.server.games import engine

    game = engine.create_game("maiden", "white-maiden", {"players": 1})
    engine.register(game.pk, player, "Ann")
    response = Client().get(f"/api/v1/games/{game.pk}/events?after=5&after=6")
    assert response.status_code == 400 and "after is given more than once" in response.json()["error"]["message"]
    assert Client().get("/api/v1/games?limit=5&limit=6").status_code == 400


def test_a_white_maiden_command_out_of_turn_names_the_seat_as_the_api_and_the_screens_do(clock, player, opponent):
    """The view's ``active_seat`` is 0-based (docs/api.md); the refusal names that index and the
    player number the game screen shows for it ("player 1"), never a bare "seat 0"."""
    from tests.server.maiden_kit import maiden_game

    game = maiden_game([player, opponent])
    api = token_client(opponent)
    assert api.get(f"/api/v1/games/{game.pk}").json()["view"]["active_seat"] in (0, None)
    before = Game.objects.get(pk=game.pk).version
    response = api.post(
        f"/api/v1/games/{game.pk}/commands", {"command": {"kind": "stay"}}, content_type="application/json"
    )
    error = response.json()["error"]
    assert response.status_code == 422, error
    assert "seat index 0 (player 1)" in error["message"] or "no seat's turn yet" in error["message"]
    assert not re.search(r"\bseat 0\b", error["message"])
    assert Game.objects.get(pk=game.pk).version == before


def test_a_field_a_command_does_not_take_is_malformed_in_both_games(clock, player, opponent, make_user):
    """The same mistake gets the same code in every game: an unknown field, or a field the
    command's kind does not take, is 422 ``command/malformed`` (Fated Labyrinth answered
    ``{"kind": "stay", "dir": "up"}`` with ``command/invalid_target``)."""
    from tests.server.fated_kit import fated_game
    from tests.server.maiden_kit import maiden_game

    fated = fated_game([player, opponent, make_user("dee"), make_user("eve")])
    maiden = maiden_game([player, opponent])
    client = token_client(player)
    for game, commands in (
        (fated, [{"kind": "stay", "dir": "up"}, {"kind": "stay", "bogus": 1}, {"kind": "give_up", "card": 1}]),
        (maiden, [{"kind": "stay", "bogus": 1}]),
    ):
        before = Game.objects.get(pk=game.pk).version
        for command in commands:
            error = error_of(
                post(client, f"/api/v1/games/{game.pk}/commands", {"command": command}), 422, "command/malformed"
            )
            assert "malformed command" in error["message"] or "unknown field" in error["message"], error
        assert Game.objects.get(pk=game.pk).version == before


def test_my_games_lists_the_ended_ones_when_asked(personas, clock, start_game, make_game, player):
    """A bot that played a game to its end finds it again: ``?status=ended`` lists the caller's
    ended games, the last to end first, with their seat; the default listing (what a bot polls to
    know where to act) leaves them out, and ``status`` narrows it to the running or open ones."""
    first = start_game(goal=1)
    clock.tick(60)
    post(personas["player"], f"/api/v1/games/{first.pk}/commands", {"command": {"kind": "roll"}})
    clock.tick(60)
    second = start_game(goal=1)
    clock.tick(60)
    post(personas["player"], f"/api/v1/games/{second.pk}/commands", {"command": {"kind": "roll"}})
    running = start_game()
    waiting_room = make_game()
    engine.register(waiting_room.pk, player, "Ann")
    assert {Game.objects.get(pk=g.pk).status for g in (first, second)} == {Game.Status.ENDED}

    def listed(query=""):
        response = personas["player"].get(f"/api/v1/me/games{query}")
        assert response.status_code == 200, response.content
        return [
            (g["id"], g["seat"], g["status"], g["must_act"], g["deadline"], g["out"]) for g in response.json()["games"]
        ]

    assert [row[0] for row in listed()] == [running.pk, waiting_room.pk]
    assert listed("?status=ended") == [
        (second.pk, 0, "ended", False, None, None),
        (first.pk, 0, "ended", False, None, None),
    ]
    assert [row[:2] for row in listed("?status=ended&limit=1")] == [(second.pk, 0)]
    assert [row[0] for row in listed("?status=running")] == [running.pk]
    assert [row[:2] for row in listed("?status=open")] == [(waiting_room.pk, None)]
    assert [row[0] for row in listed("?limit=1")] == [running.pk]
    error_of(personas["player"].get("/api/v1/me/games?status=finished"), 400, "request/malformed")
    error_of(personas["player"].get("/api/v1/me/games?limit=0"), 400, "request/malformed")
    assert listed("?status=ended")[0][0] not in [
        g["id"] for g in personas["spectator"].get("/api/v1/me/games?status=ended").json()["games"]
    ]


@pytest.mark.parametrize("content_type", ["application/json", "text/plain", "application/x-www-form-urlencoded", ""])
def test_a_json_body_is_read_whatever_its_content_type_says(game, personas, content_type):
    """docs/api.md: the Content-Type is not checked (``curl -d`` sends a form type); only a
    multipart body is refused, being read as form fields."""
    url = f"/api/v1/games/{game.pk}/comment"
    response = personas["player"].post(url, '{"text": "a&b=c"}', content_type=content_type)
    assert response.status_code == 200, response.content
    assert Game.objects.get(pk=game.pk).seats.get(index=0).comment == "a&b=c"
    error_of(personas["player"].post(url, {"text": "x"}), 400, "request/malformed")  # multipart
