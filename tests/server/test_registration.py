"""Registering characters into a game, withdrawing, and the automatic start (FL-REG, AMB-59, AMB-60)."""

from __future__ import annotations

import re

import pytest

from delve.server.games import engine
from delve.server.games.errors import Rejected
from delve.server.games.models import EventEntry, Game, Seat
from tests.server.conftest import START, session_client, token_client

pytestmark = pytest.mark.django_db


def refused(code, call, *args, **kwargs):
    with pytest.raises(Rejected) as info:
        call(*args, **kwargs)
    assert info.value.code == code, info.value.message
    return info.value


def test_the_top_page_has_a_registration_form_per_open_game(client, make_game, player):
    """FL-REG-1, FL-REG-2: name, the ruleset's seat options (the class), the record box checked."""
    first, second = make_game(), make_game()
    client.force_login(player)
    page = client.get("/").content.decode()
    for game in (first, second):
        assert f'action="/games/{game.pk}/register/"' in page
        assert f'name="g{game.pk}-name"' in page
        assert f'name="g{game.pk}-option_colour"' in page
        assert re.search(rf'<input type="checkbox" name="g{game.pk}-keep_record"[^>]* checked>', page)


def test_seat_options_are_rendered_from_the_ruleset_with_their_labels(client, make_game, player):
    """FL-REG-4: cosmetic choices (Level D's image) are seat options like the class: the server
    renders whatever ``seat_options`` offers, with labels in the reader's language."""
    make_game()
    client.force_login(player)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<option value="blue">青</option>' in page
    assert "色" in page


def test_registering_through_the_page(client, make_game, player):
    game = make_game()
    client.force_login(player)
    response = client.post(
        f"/games/{game.pk}/register/",
        {f"g{game.pk}-name": "Ann", f"g{game.pk}-option_colour": "blue", f"g{game.pk}-keep_record": "on"},
    )
    assert response.status_code == 302
    seat = Seat.objects.get(game=game)
    assert (seat.user, seat.name, seat.options, seat.keep_record, seat.index) == (
        player,
        "Ann",
        {"colour": "blue"},
        True,
        None,
    )


def test_the_record_box_can_be_unchecked(client, make_game, player):
    """FL-REG-2: players uncheck the box to opt out of records (practice)."""
    game = make_game()
    client.force_login(player)
    client.post(f"/games/{game.pk}/register/", {f"g{game.pk}-name": "Ann", f"g{game.pk}-option_colour": "red"})
    assert Seat.objects.get(game=game).keep_record is False


def test_names_are_unique_per_game_and_case_sensitive(make_game, player, opponent, spectator, clock):
    """FL-REG-3, AMB-60."""
    game = make_game(players=3)
    engine.register(game.pk, player, "Ann")
    error = refused("registration/name_taken", engine.register, game.pk, opponent, "Ann")
    assert "'Ann'" in error.message and error.status == 409
    engine.register(game.pk, opponent, "ann")  # another name: case matters (AMB-60, case-sensitive)
    other = make_game()
    engine.register(other.pk, spectator, "Ann")  # the same name in another game is fine
    assert Seat.objects.filter(name="Ann").count() == 2


def test_a_form_refusal_shows_the_message_and_keeps_the_input(client, make_game, player, opponent):
    game = make_game(players=3)
    engine.register(game.pk, opponent, "Ann")
    client.force_login(player)
    response = client.post(
        f"/games/{game.pk}/register/", {f"g{game.pk}-name": "Ann", f"g{game.pk}-option_colour": "red"}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "The name “Ann” is already taken in this game." in page
    assert 'value="Ann"' in page


def test_one_user_holds_at_most_one_seat_per_game(make_game, player):
    """FL-REG-9 too: registering again (say with another class) is refused."""
    game = make_game(players=3)
    engine.register(game.pk, player, "Ann", {"colour": "red"})
    refused("registration/already_registered", engine.register, game.pk, player, "Ann2", {"colour": "blue"})
    assert Seat.objects.get(game=game).options == {"colour": "red"}


def test_unknown_options_and_values_are_refused(make_game, player):
    game = make_game()
    error = refused("registration/invalid_option", engine.register, game.pk, player, "Ann", {"colour": "green"})
    assert "'green'" in error.message and "red, blue" in error.message
    refused("registration/invalid_option", engine.register, game.pk, player, "Ann", {"hat": "red"})
    refused("registration/invalid_name", engine.register, game.pk, player, "   ")
    refused("registration/invalid_name", engine.register, game.pk, player, "x" * 41)
    assert not Seat.objects.exists()


def test_the_game_starts_when_the_last_seat_is_taken(make_game, player, opponent, clock):
    """FL-REG-6, FL-REG-7: waiting until the count reaches ``players``, then the start at that moment."""
    game = make_game()
    engine.register(game.pk, player, "Ann")
    game.refresh_from_db()
    assert (game.status, game.version, game.state) == (Game.Status.OPEN, 0, "")
    clock.tick(100)
    engine.register(game.pk, opponent, "Bob")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert (game.started_at, game.version) == (START + 100, 1)
    assert game.next_due_at == START + 100 + 60
    started = EventEntry.objects.get(game=game)
    assert (started.kind, started.visibility, started.data) == ("game.started", "*", {"seats": ["Ann", "Bob"]})


def test_registration_is_refused_once_the_game_has_started(game, spectator):
    """FL-REG-5, FL-REG-7: no more than ``players`` people; the form refuses after the start."""
    error = refused("registration/closed", engine.register, game.pk, spectator, "Cid")
    assert error.status == 409 and "already started" in error.message
    assert game.seats.count() == 2


def test_the_top_page_offers_no_registration_form_for_a_running_game(client, game, spectator):
    client.force_login(spectator)
    assert f"/games/{game.pk}/register/" not in client.get("/").content.decode()


def test_withdrawing_before_the_start_frees_the_seat(client, make_game, player, opponent, spectator, clock):
    """FL-REG-8."""
    game = make_game()
    engine.register(game.pk, player, "Ann")
    client.force_login(player)
    assert client.post(f"/games/{game.pk}/withdraw/").status_code == 302
    assert not Seat.objects.filter(game=game).exists()
    engine.register(game.pk, opponent, "Ann")  # the name is free again
    engine.register(game.pk, spectator, "Cid")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_withdrawing_after_the_start_is_refused(game, player, client):
    """FL-REG-8: only before the start."""
    refused("registration/started", engine.withdraw, game.pk, player)
    client.force_login(player)
    response = client.post(f"/games/{game.pk}/withdraw/", follow=True)
    assert "withdrawing is no longer possible" in response.content.decode()
    assert game.seats.count() == 2


def test_player_numbers_follow_registration_order_after_withdrawals(make_game, make_user, clock):
    """FL-REG-10, AMB-59: 01, 02, ... in registration order at the start, after withdrawals."""
    game = make_game(players=3)
    users = [make_user(name) for name in ("u1", "u2", "u3", "u4")]
    engine.register(game.pk, users[0], "First")
    engine.register(game.pk, users[1], "Second")
    engine.register(game.pk, users[2], "Third")  # full: starts
    game.refresh_from_db()
    assert [(s.number, s.name) for s in game.seats.order_by("index")] == [
        ("01", "First"),
        ("02", "Second"),
        ("03", "Third"),
    ]
    other = make_game(players=3)
    engine.register(other.pk, users[0], "A")
    engine.register(other.pk, users[1], "B")
    engine.withdraw(other.pk, users[0])
    engine.register(other.pk, users[2], "C")
    engine.register(other.pk, users[3], "D")
    assert [(s.index, s.name) for s in other.seats.order_by("index")] == [(0, "B"), (1, "C"), (2, "D")]
    state = engine.load_state(Game.objects.get(pk=other.pk))
    assert [seat.name for seat in state.seats] == ["B", "C", "D"]


def test_registering_and_withdrawing_through_the_api(make_game, player, opponent, clock):
    game = make_game()
    ann, bob = token_client(player), token_client(opponent)
    response = ann.post(
        f"/api/v1/games/{game.pk}/seats",
        {"name": "Ann", "options": {"colour": "blue"}},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["seat"] == {
        "index": None,
        "number": "",
        "name": "Ann",
        "options": {"colour": "blue"},
        "comment": "",
        "keep_record": True,
        "bot": False,
        "bot_since": None,
    }
    assert ann.delete(f"/api/v1/games/{game.pk}/seats").json()["game"]["seats_taken"] == 0
    ann.post(f"/api/v1/games/{game.pk}/seats", {"name": "Ann"}, content_type="application/json")
    body = bob.post(f"/api/v1/games/{game.pk}/seats", {"name": "Ann"}, content_type="application/json").json()
    assert body["error"]["code"] == "registration/name_taken"
    started = bob.post(f"/api/v1/games/{game.pk}/seats", {"name": "Bob"}, content_type="application/json").json()
    assert started["game"]["status"] == "running"
    assert [s["number"] for s in started["game"]["seats"]] == ["01", "02"]
    late = session_client(player).delete(f"/api/v1/games/{game.pk}/seats")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "registration/started")


def test_before_the_start_the_game_page_shows_a_waiting_notice(client, make_game, player):
    """FL-LOGIN-2: before the start, logging in is only useful for withdrawing."""
    game = make_game()
    engine.register(game.pk, player, "Ann")
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Waiting for players: 1 of 2 seats taken" in page
    assert f'action="/games/{game.pk}/withdraw/"' in page
    assert "Your commands" not in page


def test_the_record_box_is_the_only_keep_record_question_and_setup_receives_it(
    client, make_game, player, opponent, clock
):
    """FL-REC-1, FL-REC-3: the server owns the flag; a ruleset that declares it as a seat option
    gets it in ``SeatInfo.options["keep_record"]`` and is not asked twice on the form."""
    game = make_game("practice-toy")
    client.force_login(player)
    page = client.get("/").content.decode()
    assert f"g{game.pk}-option_keep_record" not in page and f"g{game.pk}-keep_record" in page
    client.post(f"/games/{game.pk}/register/", {f"g{game.pk}-name": "Ann", f"g{game.pk}-option_colour": "red"})
    engine.register(game.pk, opponent, "Bob", keep_record=True)
    assert Seat.objects.get(game=game, user=player).options == {"colour": "red"}
    state = engine.load_state(Game.objects.get(pk=game.pk))
    assert [seat.comment for seat in state.seats] == ["practice", ""]


def test_the_fated_registration_form_shows_classes_with_their_abilities_and_images_FL_REG_3(client, player, opponent):
    """FL-REG-3, FL-REG-9, P-28: a Fated class is chosen among cards that show its abilities (the
    preset's labels), its max cards and its description; Level D also asks for an image, shown as
    emblems; no internal rule id in the help; the seats list labels each choice."""
    from html import unescape

    from delve.fated import content, text
    from delve.server.games import engine

    game = engine.create_game("fated", "level-d", {"players": 4, "maze_size": 9})
    client.force_login(player)
    html = unescape(client.get("/").content.decode())
    form = html.split(f'id="game-{game.pk}"')[1].split("</form>")[0]
    assert "FL-REG" not in form
    assert form.count('class="choice-card"') == 2 * len(content.load().classes)
    ninja = form.split('value="cat"')[1].split("</label>")[0]
    cat = content.load().classes["cat"]
    assert "Ninja" in ninja and f"{text.word('evasion', 'en', 'level-d')} <b>{cat.evasion}%</b>" in ninja
    assert f"<b>{cat.max_cards}</b>" in ninja and text.pick(cat.description, "en") in ninja
    assert 'class="emblem e-cat"' in form.split("image-choices")[1]
    engine.register(game.pk, opponent, "Bo", {"class": "cat", "image": "warrior"})
    seats = unescape(client.get("/").content.decode()).split(f'id="game-{game.pk}"')[1].split("</table>")[0]
    assert "Class: Ninja, Image: Warrior" in seats


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u200b\u200b", "something visible"),  # two zero-width spaces: nothing to see
        (" \u3164\u200d ", "something visible"),  # a Hangul filler and a zero-width joiner
        ("abc\u202edef", "format characters"),  # RIGHT-TO-LEFT OVERRIDE: "abc" then "fed" backwards
        ("Ann\u2066", "format characters"),  # a bidi isolate
        ("\ufeffAnn", "format characters"),  # a byte order mark
        ("Ann\U000e0041", "format characters"),  # a tag character (plane 14)
        ("Ann\tBob", "control characters"),
    ],
)
def test_a_name_with_invisible_or_direction_characters_is_refused_FL_REG_3(make_game, player, name, why):
    """FL-REG-3: a character's name is what every seat list shows. A name of only invisible
    characters reads as no name at all, and a text direction control (U+202E) turns the names
    after it around: format characters (Unicode category Cf) are refused like control
    characters, by the engine (every page and the API) and by the API's description."""
    game = make_game()
    assert why in refused("registration/invalid_name", engine.register, game.pk, player, name).message
    response = token_client(player).post(
        f"/api/v1/games/{game.pk}/seats", {"name": name}, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] in {"request/malformed", "registration/invalid_name"}
    assert not Seat.objects.exists()
    engine.register(game.pk, player, "名前 Ann-2")  # letters and spaces of any script are fine


def test_every_format_character_is_refused_by_the_engine_and_the_api_description():
    """The API description's name pattern refuses exactly what the engine refuses of format
    characters: both come from this Python's Unicode database."""
    import sys
    import unicodedata

    from delve.server.api.types import CharacterName
    from delve.server.inputs import name_fault

    pattern = re.compile(CharacterName.__metadata__[0].pattern)
    formats = [chr(p) for p in range(sys.maxunicode + 1) if unicodedata.category(chr(p)) == "Cf"]
    assert formats
    for char in formats:
        assert name_fault(f"A{char}") == "format"
        assert not pattern.search(f"A{char}"), hex(ord(char))
    assert pattern.search("A\u3000B") and name_fault("A\u3000B") is None


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_refused_character_name_is_told_in_the_pages_language_FL_REG_2(client, make_game, player, opponent, lang):
    """The registration form showed the engine's English refusal of a name ("a character name
    cannot contain control characters") to a Japanese player: the page says it in its language
    (the API keeps the engine's English message, engine.NAME_FAULTS)."""
    game = make_game(players=3)
    engine.register(game.pk, opponent, "Ann")
    client.force_login(player)
    client.cookies["django_language"] = lang
    post = lambda name: client.post(  # noqa: E731
        f"/games/{game.pk}/register/", {f"g{game.pk}-name": name, f"g{game.pk}-option_colour": "red"}
    ).content.decode()
    control, taken = post("A\u0007b"), post("Ann")
    if lang == "en":
        assert "A character name cannot contain control characters" in control
        assert "The name “Ann” is already taken in this game." in taken
    else:
        assert "キャラクターの名前に制御文字（タブ・改行など）は使えません。" in control
        assert "「Ann」という名前はこのゲームですでに使われています。" in taken
        assert engine.NAME_FAULTS["control"] not in control and "already taken" not in taken
    # the API keeps the engine's English
    assert (
        refused("registration/invalid_name", engine.register, game.pk, player, "A\u0007b").message
        == (engine.NAME_FAULTS["control"])
    )
    # every refusal of a name has its page words; another message passes unchanged
    for english in engine.NAME_FAULTS.values():
        assert engine.shown_name_fault(english) != english
    assert engine.shown_name_fault("something else") == "something else"
