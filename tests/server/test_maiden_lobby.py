"""White Maiden in the lobby: any player opens a game with 1-4 seats, the difficulty, every §6.3
variant (defaults from the ruleset) and a turn deadline; the other seats are opened to others,
played in this browser (hot-seat) or given to bots; a waiting decision is one click from the
lobby."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from delve.kernel import get_ruleset
from delve.server.games import bots as server_bots
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.lobby import maiden as lobby_maiden
from delve.server.lobby.models import TableSeat
from tests.server.conftest import session_client
from tests.server.maiden_kit import legal, maiden_game, view

pytestmark = pytest.mark.django_db


class FirstLegalBot:
    """A stand-in computer player for these tests: the first legal command."""

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        return legal[0] if legal else None


@pytest.fixture
def with_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    def bot_for(ruleset: str, settings: Any = None) -> Any:
        return FirstLegalBot() if ruleset == "maiden" else None

    monkeypatch.setattr(lobby_maiden, "bot_for", bot_for)
    monkeypatch.setattr(server_bots, "bot_for", bot_for)


@pytest.fixture
def without_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_maiden, "bot_for", lambda ruleset, settings=None: None)


def form_data(**settings: Any) -> dict[str, Any]:
    """The form as a browser sends it with every default (checkboxes unchecked are absent)."""
    form = lobby_maiden.MaidenGameForm()
    data: dict[str, Any] = {"name": "Ann", "table": "open", "keep_record": "on"}
    for key in form.setting_keys:
        value = form.fields["s_" + key].initial
        if isinstance(value, bool):
            if value:
                data["s_" + key] = "on"
        else:
            data["s_" + key] = value
    for key, value in settings.items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
            else:
                data.pop(key, None)
        else:
            data[key] = value
    return data


def test_the_form_offers_every_setting_of_the_ruleset_with_its_default(clock: Any, player: Any) -> None:
    rules = get_ruleset("maiden")
    keys = [line.key for line in rules.describe_settings({"preset": "white-maiden"})]
    html = session_client(player).get("/maiden/new/").content.decode()
    for key in keys:
        assert f'name="s_{key}"' in html, key
    assert 'name="table"' in html and "hot-seat" in html


def test_a_visitor_is_sent_to_log_in(clock: Any) -> None:
    response = Client().get("/maiden/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_solo_game_starts_at_once_with_the_defaults(clock: Any, player: Any) -> None:
    response = session_client(player).post("/maiden/new/", form_data())
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.RUNNING and game.ruleset == "maiden"
    assert game.settings == {"preset": "white-maiden"}  # nothing but defaults
    assert game.created_by == player
    assert legal(game, 0)  # her familiar choice waits


def test_variants_and_a_deadline_are_stored_as_overrides(clock: Any, player: Any) -> None:
    data = form_data(
        s_players=2, s_difficulty="normal", s_turn_deadline_hours=24, s_multi_die_checks=True, s_start_player="1"
    )
    session_client(player).post("/maiden/new/", data)
    game = Game.objects.get()
    assert game.status == Game.Status.OPEN and game.seat_count == 2
    assert game.settings == {
        "preset": "white-maiden",
        "players": 2,
        "difficulty": "normal",
        "turn_deadline_hours": 24,
        "multi_die_checks": True,
        "start_player": 1,
    }


def test_an_invalid_combination_is_refused_naming_the_setting_and_nothing_is_created(clock: Any, player: Any) -> None:
    """CHG-16: entry-restricted rooms do not exist in easy difficulty."""
    response = session_client(player).post("/maiden/new/", form_data(s_entry_restrictions=True))
    assert response.status_code == 400
    said = "Entry-restricted rooms: entry-restricted rooms need normal difficulty: easy difficulty (the rulebook)"
    assert said in unescape(response.content.decode())
    assert not Game.objects.exists()


def test_hot_seat_seats_every_maiden_at_the_hosts_table(clock: Any, player: Any, spectator: Any) -> None:
    """'Play every seat in this browser': the host acts for each seat in turn from one screen."""
    client = session_client(player)
    response = client.post("/maiden/new/", form_data(s_players=3, table="hotseat"))
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.RUNNING
    assert TableSeat.objects.filter(host=player, seat__game=game).count() == 2
    for _ in range(30):  # the three familiar choices and the setup level-ups, all from one browser
        public = view(game, None)
        if public["phase"] != "setup":
            break
        html = client.get(f"/games/{game.pk}/").content.decode()
        seat = re.search(r'id="acting-seat" name="seat" value="(\d)"', html)
        assert seat is not None
        index = int(seat.group(1))
        assert legal(game, index), "the screen shows the seat that decides now"
        command = legal(game, index)[0]
        game.refresh_from_db()
        response = client.post(
            f"/games/{game.pk}/maiden/act/",
            {"command": __import__("json").dumps(command), "seat": index, "version": game.version},
            HTTP_HX_REQUEST="true",
        )
        assert 'class="refusal"' not in response.content.decode()
    assert view(game, None)["phase"] != "setup"
    assert {len(m["familiars"]) for m in view(game, None)["maidens"]} == {1}
    # somebody else cannot act for a seat of that table
    before = game.version
    game.refresh_from_db()
    other = session_client(spectator).post(
        f"/games/{game.pk}/maiden/act/",
        {"command": '{"kind": "roll"}', "seat": 1, "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert "You do not play that seat" in unescape(other.content.decode())
    game.refresh_from_db()
    assert game.version >= before


def test_bots_are_refused_clearly_while_no_white_maiden_bot_is_installed(
    clock: Any, player: Any, without_bot: None
) -> None:
    response = session_client(player).post("/maiden/new/", form_data(s_players=2, table="bots"))
    assert response.status_code == 400
    assert "No computer player for White Maiden" in unescape(response.content.decode())
    assert not Game.objects.exists()


def test_bots_take_the_other_seats_and_the_worker_lets_them_play(clock: Any, player: Any, with_bot: None) -> None:
    session_client(player).post("/maiden/new/", form_data(s_players=2, s_start_player="1", table="bots"))
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING
    bot_seat = game.seats.get(is_bot=True)
    assert bot_seat.index == 1
    assert view(game, None)["pending"][0]["seat"] == 1  # the bot is the start player
    assert server_bots.play_once(game.pk) == 1  # the worker's path: the bot chooses its familiar
    game.refresh_from_db()
    assert view(game, None)["maidens"][1]["familiars"]


def test_only_the_host_fills_the_empty_seats_with_bots(clock: Any, player: Any, opponent: Any, with_bot: None) -> None:
    session_client(player).post("/maiden/new/", form_data(s_players=3))
    game = Game.objects.get()
    index = session_client(player).get("/").content.decode()
    assert "Fill the empty seats with bots" in index
    assert "Fill the empty seats with bots" not in session_client(opponent).get("/").content.decode()
    refused = session_client(opponent).post(f"/games/{game.pk}/maiden/bots/", follow=True)
    assert "only the player who opened this game" in unescape(refused.content.decode())
    assert game.seats.count() == 1
    response = session_client(player).post(f"/games/{game.pk}/maiden/bots/")
    assert response["Location"] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.seats.filter(is_bot=True).count() == 2


def test_a_waiting_decision_is_one_click_from_the_lobby(clock: Any, player: Any, opponent: Any) -> None:
    game = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0})
    engine.register(game.pk, player, "Ann")
    engine.register(game.pk, opponent, "Bob")
    mine = session_client(player).get("/").content.decode()
    link = re.search(r'<a class="button primary your-decision" href="([^"]+)"', mine)
    assert link is not None and link.group(1) == f"/games/{game.pk}/"
    theirs = session_client(opponent).get("/").content.decode()
    assert "your-decision" not in theirs and "Open the board" in theirs


def test_the_white_maiden_bot_plays_a_bot_seat_through_the_worker(clock: Any, player: Any) -> None:
    """The server's bot path (``games.bots.play_once``) with the shipped White Maiden bot."""
    session_client(player).post("/maiden/new/", form_data(s_players=2, s_start_player="1", table="bots"))
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING
    played = 0
    for _ in range(10):
        played += server_bots.play_once(game.pk)
        if view(game, None)["pending"] and view(game, None)["pending"][0]["seat"] == 0:
            break
    assert played >= 1
    assert view(game, None)["maidens"][1]["familiars"]  # the bot chose its familiar
    assert legal(game, 0)  # and it is Ann's turn to choose


def test_the_demo_has_a_solo_white_maiden_game_and_one_with_a_bot_partner(clock: Any) -> None:
    from delve.server.games import demo

    games = demo.create()
    solo, duo = games.maiden_solo, games.maiden_duo
    assert solo is not None and duo is not None
    assert solo.status == duo.status == Game.Status.RUNNING
    assert solo.seat_count == 1 and legal(solo, 0)  # ready to play: the familiar waits
    assert duo.seats.get(index=1).is_bot and not duo.seats.get(index=0).is_bot
    demo_client = Client()
    assert demo_client.login(username=demo.DEMO_USER, password=demo.DEMO_PASSWORD)
    assert "your-decision" in demo_client.get("/").content.decode()
    human = duo.seats.get(index=0).user
    while not legal(duo, 1):  # the demo player's setup: familiar, first level-up
        engine.submit(duo.pk, human, legal(duo, 0)[0])
    assert server_bots.play_once(duo.pk) == 1  # the partner answers through the worker's path


def test_every_invalid_setting_is_reported_at_once_next_to_its_field_for_people(clock: Any, player: Any) -> None:
    """§6.3 settings: a deadline, a life and a boss bonus out of bounds all come back together,
    each under its field with its label and its range in plain units; nothing is created."""
    data = form_data(s_turn_deadline_hours=99999, s_life_max=999, s_boss_life_bonus="banana")
    response = session_client(player).post("/maiden/new/", data)
    assert response.status_code == 400
    html = unescape(response.content.decode())
    deadline = html.split('id="id_s_turn_deadline_hours_error"')[1].split("</ul>")[0]
    assert "Turn deadline (hours, 0 = off): enter a value from 0 h to 720 h (you entered 99999 h)." in deadline
    life = html.split('id="id_s_life_max_error"')[1].split("</ul>")[0]
    assert "Maximum life: enter a value from 1 to 20 (you entered 999)." in life
    assert 'id="id_s_boss_life_bonus_error"' in html
    assert "setting '" not in html
    assert not Game.objects.exists()
    ja = session_client(player).post("/maiden/new/", data, HTTP_ACCEPT_LANGUAGE="ja")
    html = unescape(ja.content.decode())
    assert "最大ライフ：1〜20の範囲で指定してください（入力：999）。" in html
    assert "手番の期限（時間、0 = なし）：0時間〜720時間の範囲で指定してください（入力：99999時間）。" in html
    typed = session_client(player).post("/maiden/new/", form_data(s_familiars_per_player="banana", s_life_max=0))
    html = unescape(typed.content.decode())
    assert "Familiars per player (1p/2p/3p/4p): enter a whole number from 1 to 4 (you entered banana)." in html
    assert "Maximum life: enter a value from 1 to 20 (you entered 0)." in html


def test_each_number_input_is_bounded_as_the_ruleset_validates_it(clock: Any, player: Any) -> None:
    """§6.3 settings: the browser's min/max are the ruleset's bounds (Maximum life starts at 1)."""
    from delve.maiden import settings as maiden_settings

    html = session_client(player).get("/maiden/new/").content.decode()
    form = lobby_maiden.MaidenGameForm()
    for key, (low, high) in maiden_settings.RANGES.items():
        if "s_" + key not in form.fields:
            continue
        tag = re.search(rf'<(?:input|select)[^>]*name="s_{key}"[^>]*>', html)
        assert tag is not None, key
        if "<select" in tag.group(0):  # a small range: its choices are exactly the bounds
            values = [int(v) for v, _ in form.fields["s_" + key].choices]
            assert (values[0], values[-1]) == (low, high), key
        else:
            assert f'min="{low}"' in tag.group(0) and f'max="{high}"' in tag.group(0), key
    life = re.search(r'<input[^>]*name="s_life_max"[^>]*>', html)
    assert life is not None and 'min="1"' in life.group(0) and 'max="20"' in life.group(0)


def test_the_forms_choices_carry_the_labels_the_settings_list_shows(clock: Any, player: Any) -> None:
    """One source: the new-game form's options and the lobby's shown values read the ruleset's labels."""
    rules = get_ruleset("maiden")
    form = lobby_maiden.MaidenGameForm()
    for line in rules.describe_settings({"preset": "white-maiden"}):
        if line.choices:
            options = dict(form.fields["s_" + line.key].choices)
            assert options[line.value] == line.shown["en"], line.key


def test_the_takeover_hint_names_what_white_maiden_has_the_turn_deadline(clock: Any, player: Any) -> None:
    """White Maiden has no abandonment time: the takeover must come before the turn deadline."""
    html = unescape(session_client(player).get("/maiden/new/").content.decode())
    hint = html.split('name="takeover_hours"')[1].split("</small>")[0]
    assert "abandonment" not in hint and "turn deadline" in hint
    ja = unescape(session_client(player).get("/maiden/new/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "手番の期限があるときはそれより短くしてください" in ja and "放棄時間" not in ja
    refused = session_client(player).post(
        "/maiden/new/", form_data(s_players=2, s_turn_deadline_hours=2, takeover_hours="3")
    )
    assert "A bot takes over after 3 h: that must be shorter than the turn deadline (2 h)." in unescape(
        refused.content.decode()
    )
    assert not Game.objects.exists()


def test_the_host_chooses_whether_the_game_enters_their_record_like_a_joining_player(
    clock: Any, player: Any, opponent: Any
) -> None:
    """The form that opens a game had no "keep in my personal record" box (a joining player's has
    one): the host's choice is now kept on their seat, ticked by default."""
    session_client(player).post("/maiden/new/", form_data(s_players=2, keep_record=False))
    game = Game.objects.get()
    assert game.seats.get(user=player).keep_record is False
    session_client(opponent).post("/maiden/new/", form_data(s_players=2))
    assert Game.objects.exclude(pk=game.pk).get().seats.get(user=opponent).keep_record is True


def test_the_forms_explain_each_variant_and_name_the_maiden_alike(clock: Any, player: Any, opponent: Any) -> None:
    """Every setting on the new-game form says what it does (the ruleset's help, in the reader's
    language), a box's sentence ends without a colon, and a joining player names "Your maiden"
    as the host does (not "Character name", Fated Labyrinth's word)."""
    form = lobby_maiden.MaidenGameForm()
    for key in form.setting_keys:
        assert form.fields["s_" + key].help_text, key
    page = unescape(session_client(player).get("/maiden/new/").content.decode())
    assert "Keep the result in my personal record" in page
    for key in form.setting_keys:
        field = form.fields["s_" + key]
        if field.widget.input_type == "checkbox":
            assert f"{field.label}:" not in page, key
    japanese = session_client(player)
    japanese.cookies["django_language"] = "ja"
    page_ja = japanese.get("/maiden/new/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "<small>" in page_ja and "Keep the result" not in page_ja
    assert "結果を個人記録に残す</label>" in page_ja and "結果を個人記録に残す:" not in page_ja
    assert "Keep the result in my personal record</label>" in page
    session_client(player).post("/maiden/new/", form_data(s_players=2))
    lobby = unescape(session_client(opponent).get("/").content.decode())
    assert "Your maiden's name" in lobby and "Character name" not in lobby


@pytest.mark.parametrize(
    ("lang", "seats"), [("en", ("seat 1", "seat 4", "seat 1 to 4")), ("ja", ("席1", "席4", "席1〜4"))]
)
def test_the_start_player_help_names_the_seats_as_its_choices_do(
    clock: Any, player: Any, lang: str, seats: tuple[str, ...]
) -> None:
    """MV-SETUP-15: the start player is a seat; the form's choices say "seat 1" to "seat 4", and so
    does the help under them (not "0-3" alone)."""
    client = session_client(player)
    client.cookies["django_language"] = lang
    html = unescape(client.get("/maiden/new/").content.decode())
    field = html.split('name="s_start_player"')[1].split("</p>")[0]
    first, last, helped = seats
    assert f">{first}</option>" in field and f">{last}</option>" in field
    assert helped in field.split("<small>")[1]
    assert "0-3" not in field and "0〜3" not in field  # the stored values: the staff form's business


@pytest.mark.parametrize(
    ("lang", "goal", "wrong"),
    [
        ("en", "bring down the Mad King Urza within 24 rounds to win", "the ten bosses and the Mad King"),
        ("ja", "24ラウンド以内に狂王ウルザを倒せば勝利", "10体のボスと狂王ウルザ"),
    ],
)
def test_the_blurb_names_the_real_goal_urza_alone_mv_end_1_mv_boss_11(
    clock: Any, player: Any, lang: str, goal: str, wrong: str
) -> None:
    """MV-BOSS-11: Urza is one of the ten bosses; MV-END-1: defeating him alone wins. The intro
    of the new-game form says so instead of "defeat the ten bosses and the Mad King Urza"."""
    client = session_client(player)
    client.cookies["django_language"] = lang
    page = unescape(client.get("/maiden/new/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert goal in page and wrong not in page


#: A spec rule ID (CHG-13, SUG-9, OQ-2, MV-END-1) and an internal value (ceil_third): neither is a
#: player's word.
SPEC_ID = re.compile(r"\b[A-Z]+(?:-[A-Z]+)*-\d+")
RAW_VALUE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_settings_help_speaks_players_words_no_spec_ids_nor_stored_values(
    clock: Any, player: Any, lang: str
) -> None:
    """The help under each setting of the new-game form (the ruleset's HELP) names no spec ID
    (「ノーマル：レストルームが減ります（CHG-13）」) and no stored value ("ceil_third, none or a fixed
    bonus"); the staff form keeps the stored values, shown as values (VALUES)."""
    from delve.maiden import settings as maiden_settings

    raw = {value for values in maiden_settings._CHOICES.values() for value in values if "_" in value}
    raw.add("ceil_third")
    for key, help_text in maiden_settings.HELP.items():
        words = help_text[lang]
        assert not SPEC_ID.search(words), (key, words)
        assert not RAW_VALUE.search(words), (key, words)
        assert not any(value in words for value in raw), (key, words)
    client = session_client(player)
    client.cookies["django_language"] = lang
    page = unescape(client.get("/maiden/new/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    helps = re.findall(r"<small>(.*?)</small>", page, re.S)
    assert len(helps) >= len(maiden_settings.DESCRIBED)
    for words in helps:
        assert not SPEC_ID.search(words) and not RAW_VALUE.search(words), words
    assert "ceil_third" in maiden_settings.VALUES["boss_life_bonus"][lang]
    assert "one_plus_pie" in maiden_settings.VALUES["ascension_bonus"][lang]


def _card_of(html: str, game: Game) -> str:
    start = html.index(f"Game {game.pk} —")
    end = html.find("</section>", start)
    return html[start:end]


def test_a_white_maiden_card_says_its_main_settings_instead_of_empty_columns(
    clock: Any, player: Any, opponent: Any
) -> None:
    """A White Maiden seat chooses nothing and has no comment: its card has no Choices and Comment
    columns and says the number of players and the difficulty (and a turn deadline when set)."""
    game = engine.create_game(
        "maiden", "white-maiden", {"players": 2, "start_player": 0, "difficulty": "normal", "turn_deadline_hours": 24}
    )
    engine.register(game.pk, player, "Ann")
    engine.register(game.pk, opponent, "Bob")
    card = _card_of(session_client(player).get("/").content.decode(), game)
    assert "<th>Choices</th>" not in card and "<th>Comment</th>" not in card
    facts = re.search(r'<p class="facts">(.*?)</p>', card, re.S)
    assert facts is not None
    assert "Players: <strong>2</strong>" in facts.group(1) and "Difficulty: <strong>normal" in facts.group(1)
    assert "Turn deadline: <strong>1 d</strong>" in facts.group(1), "the label without its form hint"
    free = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0})
    engine.register(free.pk, player, "Ann")
    engine.register(free.pk, opponent, "Bob")
    free_facts = re.search(
        r'<p class="facts">(.*?)</p>', _card_of(session_client(player).get("/").content.decode(), free), re.S
    )
    assert free_facts is not None and "Turn deadline" not in free_facts.group(1), "no deadline: not said"


def test_the_seat_marks_are_said_in_words_for_a_touch_screen_and_the_join_name_is_prefilled(
    clock: Any, player: Any, opponent: Any, spectator: Any
) -> None:
    """The practice mark and the bot tag are explained in visible words below the seat table (a
    title tooltip never shows on a phone), in both languages; the join form's name starts as the
    visitor's account name, as the form that opens a White Maiden game does."""
    game = engine.create_game("maiden", "white-maiden", {"players": 3, "start_player": 0})
    engine.register(game.pk, player, "Ann", keep_record=False)
    html = session_client(opponent).get("/").content.decode()
    card = _card_of(html, game)
    legend = re.search(r'<ul class="seat-legend">(.*?)</ul>', card, re.S)
    assert legend is not None and "a practice seat: its result goes into no personal record" in legend.group(1)
    assert re.search(rf'<input[^>]*name="g{game.pk}-name"[^>]*value="bob"', card)
    ja = session_client(opponent)
    ja.cookies["django_language"] = "ja"
    ja_html = ja.get("/").content.decode()
    ja_card = ja_html[ja_html.index(f'id="game-{game.pk}"') :]
    ja_card = ja_card[: ja_card.index("</section>")]
    assert '<ul class="seat-legend">' in ja_card and "練習の席：結果は個人記録に残りません" in ja_card
    anonymous = Client().get("/").content.decode()
    assert 'value="bob"' not in anonymous


@pytest.mark.parametrize(
    ("overrides", "en", "ja"),
    [
        ({}, "White Maiden (rulebook)", "白き乙女（ルールブック）"),
        (
            {"difficulty": "normal"},
            "White Maiden, normal difficulty (changed rules)",
            "白き乙女（ノーマル難易度・ルール変更あり）",
        ),
        (
            {"difficulty": "normal", "entry_restrictions": True},
            "White Maiden, normal difficulty",
            "白き乙女（ノーマル難易度）",
        ),
    ],
)
def test_MV_MOVE_14_a_maiden_games_title_names_the_rules_it_plays(
    clock: Any, player: Any, overrides: dict[str, Any], en: str, ja: str
) -> None:
    """MV-MOVE-14 (the §6.3 difficulty and entry-restriction variants, CHG-13/16): a game made
    from the rulebook preset with normal difficulty was titled "White Maiden (rulebook)" in the
    lobby and on its pages. The title is its preset's only when the game plays that preset's
    rules (players and the table's settings aside); a game whose rules match the
    normal-difficulty preset is named by it; otherwise it names the difficulty and says the rules
    are changed."""
    from delve.server.games import present

    game = maiden_game([player], **overrides)
    with translation.override("en"):
        assert present.preset_label(game) == en
    with translation.override("ja"):
        assert present.preset_label(game) == ja
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    assert f"ゲーム {game.pk} — {ja}" in unescape(client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())


def test_form_labels_end_with_the_colon_of_the_readers_language(player: Any) -> None:
    """Every form's labels end with a colon (Django's ``label_suffix``), full-width 「：」 in
    Japanese (プレイ人数：) and ":" in English, on the new-game form, the lobby's and the
    accounts' forms alike; a checkbox's sentence has none, and a label that ends in its own
    punctuation gets no second one."""
    from django import forms

    client = session_client(player)
    client.cookies["django_language"] = "ja"
    japanese = client.get("/maiden/new/").content.decode()
    labels = re.findall(r"<label for=\"id_[^\"]+\">([^<]*)</label>", japanese)
    assert "プレイ人数：" in labels and "あなたの乙女の名前：" in labels and "結果を個人記録に残す" in labels
    assert not [label for label in labels if label.endswith(":")], labels
    assert "手番の期限（時間、0 = なし）：" in labels
    login = Client()
    login.cookies["django_language"] = "ja"
    labels = re.findall(r"<label for=\"id_[^\"]+\">([^<]*)</label>", login.get("/accounts/login/").content.decode())
    assert labels and all(label.endswith("：") for label in labels), labels
    english = session_client(player).get("/maiden/new/").content.decode()
    assert '<label for="id_s_players">Players:</label>' in english
    asked = forms.Form()
    asked.fields["q"] = forms.CharField(label="本当に？")
    with translation.override("ja"):
        assert asked["q"].label_tag() == '<label for="id_q">本当に？</label>'


def test_the_new_game_forms_post_to_an_address_without_a_fragment(player: Any) -> None:
    """The forms name the page they post to: a browser posting to the address bar's URL (an
    error summary's link put #id_seat_2 there) kept its fragment across the redirect to the game."""
    from django.contrib.auth import get_user_model

    assert (
        '<form method="post" action="/maiden/new/" class="maiden-new">'
        in session_client(player).get("/maiden/new/").content.decode()
    )
    staff = get_user_model().objects.create_user("ops", password="x", is_staff=True)
    assert '<form method="post" action="/games/new/">' in session_client(staff).get("/games/new/").content.decode()
