"""The top page and the staff form that opens games (FL-CFG-1: the active settings are shown)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from delve.kernel import SettingsError, get_ruleset, setting_int
from delve.server.games import engine
from delve.server.games.forms import parse_overrides
from delve.server.games.models import Game

pytestmark = pytest.mark.django_db


def test_the_top_page_shows_running_and_open_games_with_their_active_settings(client, game, make_game):
    """FL-CFG-1: players see the rules of the game they join."""
    open_game = make_game(goal=33)
    page = client.get("/").content.decode()
    assert "Open for registration" in page and "Running games" in page
    assert f"Game {open_game.pk} — Toy race" in page
    assert "<dt>goal</dt><dd>33</dd>" in page
    assert f'href="/games/{game.pk}/"' in page
    assert "log in" in page and "sign up" in page


def test_the_top_page_is_translated(client, make_game):
    make_game()
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<html lang="ja">' in page
    assert "参加受付中" in page and "おもちゃレース" in page


def test_only_staff_may_open_games_and_a_player_is_told_so_in_the_sites_page(client, player):
    """A player who is not staff got Django's admin log-in page ("You are authenticated as bob,
    but are not authorized..."); now a 403 page in the site's layout says who may open these
    games and links to the White Maiden form, which every player may use."""
    visitor = client.get("/games/new/")
    assert visitor.status_code == 302 and visitor["Location"] == "/accounts/login/?next=/games/new/"
    client.force_login(player)
    for response in (client.get("/games/new/"), client.post("/games/new/", {"preset": "toy:toy"})):
        assert response.status_code == 403
        html = response.content.decode()
        assert "Only operators open these games" in html and 'href="/maiden/new/"' in html
        assert "not authorized" not in html and "/admin/" not in html
    assert not Game.objects.exists()
    japanese = client.get("/games/new/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "このゲームを開けるのは運営者だけです" in japanese


def test_staff_open_a_game_from_a_preset_with_overrides(client, staff):
    client.force_login(staff)
    form = client.get("/games/new/").content.decode()
    assert '<option value="toy:toy">toy — Toy race</option>' in form
    response = client.post("/games/new/", {"preset": "toy:toy", "overrides": "players=3\ngoal = 50"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.ruleset, game.preset, game.settings, game.seat_count) == (
        "toy",
        "toy",
        {"preset": "toy", "players": 3, "goal": 50},
        3,
    )
    assert game.created_by == staff and game.status == Game.Status.OPEN
    assert 0 <= game.seed < 2**63


def test_the_open_button_reads_as_an_action_in_japanese(client, staff):
    """The lobby heading says the games are open (参加受付中); the form's button opens one (an action)."""
    client.force_login(staff)
    form = client.get("/games/new/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<button type="submit">参加受付を始める</button>' in form
    assert "参加受付中" not in form


def test_invalid_settings_are_refused_with_a_message_naming_the_setting(client, staff):
    client.force_login(staff)
    response = client.post("/games/new/", {"preset": "toy:toy", "overrides": '{"goal": 0}'})
    assert response.status_code == 400
    assert "goal: must be a positive integer, got 0" in response.content.decode()
    unknown = client.post("/games/new/", {"preset": "toy:toy", "overrides": "speed=3"}).content.decode()
    assert "speed: unknown setting" in unknown
    bad_line = client.post("/games/new/", {"preset": "toy:toy", "overrides": "goal"}).content.decode()
    assert "is not key=value" in bad_line
    bad_json = client.post("/games/new/", {"preset": "toy:toy", "overrides": "{goal"}).content.decode()
    assert "not valid JSON" in bad_json
    no_preset = client.post("/games/new/", {"preset": "toy:nope", "overrides": ""}).content.decode()
    assert "Select a valid choice" in no_preset
    assert not Game.objects.exists()


def test_overrides_are_json_or_key_value_lines():
    assert parse_overrides("") == {}
    assert parse_overrides('{"players": 8}') == {"players": 8}
    assert parse_overrides("# comment\nplayers=8\nname = Level D\nfast=true") == {
        "players": 8,
        "name": "Level D",
        "fast": True,
    }


def _settings_of(page: str, game_id: int) -> dict[str, str]:
    """The card's "Rules of this game" as label -> shown value."""
    card = page.split(f'id="game-{game_id}"', 1)[1].split("</details>", 1)[0]
    return dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", unescape(card)))


def test_the_top_page_shows_every_white_maiden_setting_by_its_label_and_value_in_the_readers_language(client):
    """FL-CFG-1 (the same list for White Maiden's §6.3 variants): no internal value on the card,
    the labels and values those of the new-game form, in English and Japanese."""
    game = engine.create_game(
        "maiden", "white-maiden", {"players": 2, "turn_deadline_hours": 36, "base_target": "round_number"}
    )
    en = _settings_of(client.get("/").content.decode(), game.pk)
    assert en["Boss life bonus at 2/4 players"] == "a third of its life, rounded up"
    assert en["Ascension bonus"] == "1 + Piety"
    assert en["Base target number"] == "round number"
    assert en["Danger room entry damage"] == "none"
    assert en["Start player"] == "random"
    assert en["Difficulty"] == "easy (the rulebook)"
    assert en["Piety mode"] == "ascension bonus"
    assert en["Turn deadline (hours, 0 = off)"] == "1 d 12 h"
    assert en["Quest rooms skip the check"] == "off"
    internal = {"ceil_third", "one_plus_pie", "action_markers", "round_number", "ascension", "danger_level"}
    assert not internal & set(en.values())
    ja = _settings_of(client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode(), game.pk)
    assert ja["難易度"] == "イージー（ルールブック）" and ja["アセンションのボーナス"] == "1＋信仰"
    assert ja["手番の期限（時間、0 = なし）"] == "1日12時間" and ja["クエストルームは判定なし"] == "なし"
    assert ja["2・4人時のボスライフ増加"] == "ライフの3分の1（切り上げ）" and ja["スタートプレイヤー"] == "ランダム"
    assert not {"off", "on", "easy", "random", "none"} & set(ja.values())


def test_durations_are_words_of_the_readers_language_on_the_top_page_and_the_help(client):
    """FL-CFG-1: the wait and abandon times read 1分 / 1日 in Japanese, 1 min / 1 d in English."""
    game = engine.create_game("fated", "level-d", {"wait_time": "90m", "abandon_time": "1d"})
    ja = _settings_of(client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode(), game.pk)
    assert ja["待機時間"] == "1時間30分" and ja["放棄時間"] == "1日"
    en = _settings_of(client.get("/").content.decode(), game.pk)
    assert en["Wait time"] == "1 h 30 min" and en["Abandon time"] == "1 d"
    basic = unescape(client.get("/help/?preset=level-d", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "<dt>待機時間</dt><dd>1時間</dd>" in basic and "<dt>放棄時間</dt><dd>2日</dd>" in basic
    own = unescape(client.get(f"/games/{game.pk}/help/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "<dt>待機時間</dt><dd>1時間30分</dd>" in own


def test_the_api_keeps_the_settings_own_value_beside_the_shown_one(client):
    """docs/api.md: ``value`` as the settings write it (machine-readable), ``shown`` for people."""
    engine.create_game("fated", "level-d", {"wait_time": "90m"})
    games = client.get("/api/v1/games?status=open", HTTP_ACCEPT_LANGUAGE="ja").json()["games"]
    line = next(line for line in games[0]["settings"] if line["key"] == "wait_time")
    assert line == {"key": "wait_time", "label": "待機時間", "value": "90m", "shown": "1時間30分"}


def test_the_staff_form_reports_every_bad_setting_at_once_for_people(client, staff):
    """FL-CFG-1: a Japanese operator reads each setting's label and its range in plain units; the
    ruleset's own message (API) is not shown; nothing is created."""
    client.force_login(staff)
    response = client.post(
        "/games/new/",
        {"preset": "fated:level-d", "overrides": "wait_time=0\nabandon_time=10\nmaze_size=big"},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 400
    errors = re.findall(r"<li>(.*?)</li>", unescape(response.content.decode().split('id="id_overrides_error"')[1]))
    assert "待機時間 (wait_time)：1秒〜30日の範囲で指定してください（入力：0秒）。" in errors
    assert "放棄時間 (abandon_time)：1分〜365日の範囲で指定してください（入力：10秒）。" in errors
    assert "迷宮の広さ (maze_size)：整数で指定してください（入力：big）。" in errors
    assert "2.592e+06" not in response.content.decode() and "setting &#x27;" not in response.content.decode()
    english = client.post("/games/new/", {"preset": "fated:level-d", "overrides": "wait_time=0"}).content.decode()
    assert "Wait time (wait_time): enter a value from 1 s to 30 d (you entered 0 s)." in unescape(english)
    assert not Game.objects.exists()


def test_a_turn_time_under_a_minute_is_allowed_with_a_plain_warning(client, staff):
    """FL-CFG-1: operators may test with 5-second turns; the form says it is too fast for people."""
    client.force_login(staff)
    form = unescape(client.get("/games/new/").content.decode())
    assert "A wait_time under a minute (such as 5s) is for testing" in form
    response = client.post("/games/new/", {"preset": "fated:level-d", "overrides": "wait_time=5s"}, follow=True)
    assert Game.objects.get().settings["wait_time"] == "5s"
    page = unescape(response.content.decode())
    assert '<li class="warning">Turns come every 5 s: bots and monsters act at that pace' in page
    assert "Too fast for people to play — for testing only." in page
    # when the stored turns are full, said from the game's own cap (it said "within a minute" for
    # 24 turns of 20 s: about 8 minutes)
    capped = client.post(
        "/games/new/", {"preset": "fated:level-d", "overrides": "wait_time=20s\nmax_stored_turns=24"}, follow=True
    )
    assert "a player away for 8 min has stored the most turns they can (24)" in unescape(capped.content.decode())
    ja = client.post(
        "/games/new/", {"preset": "fated:level-d", "overrides": "wait_time=30"}, HTTP_ACCEPT_LANGUAGE="ja", follow=True
    )
    assert "ターンが30秒ごとに来ます" in ja.content.decode()
    calm = client.post("/games/new/", {"preset": "fated:level-d", "overrides": "wait_time=1m"}, follow=True)
    assert 'class="warning"' not in calm.content.decode()


HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("overrides", "says"),
    [
        ('{"players": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than"),
        ("players=" + "[" * 5000 + "]" * 5000, "nested more than"),
        ('{"players": ' + HUGE + "}", "whole number out of range"),
        ("players=" + HUGE, "is out of range: whole numbers from -9223372036854775808 to 9223372036854775807"),
        ("players=1e999", "is not a number this server can use"),
        ('{"players": 4, "players": 8}', "gives the key &#x27;players&#x27; twice"),
        ('{"players": "' + HUGE + '"}', "Players (players): enter a whole number"),
        ("players=" + str(2**64), "Line 1: &#x27;18446744073709551616&#x27; is out of range"),
        ("players=²", "Players (players): enter a whole number"),
        ("players=" + "9" * 4400 + "x", "Players (players): enter a whole number"),
        ("players=" + str(4 * 2**60), "Players (players):"),
        ("players=NaN", "Players (players):"),
        ("x" * 5000, "is not key=value"),
    ],
)
def test_bad_overrides_are_a_form_error_never_a_server_error(client, staff, overrides, says):
    """The probe: a 5000-deep list made a RecursionError, a 5000-digit number a ValueError (500)."""
    client.force_login(staff)
    response = client.post("/games/new/", {"preset": "fated:fated-labyrinth", "overrides": overrides})
    assert response.status_code == 400
    errors = " ".join(re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', response.content.decode(), re.S))
    assert says in errors
    assert len(errors) < 600, "the error quotes only a short prefix of the input"
    assert not Game.objects.exists()


@pytest.mark.parametrize("ruleset", ["fated", "maiden"])
@pytest.mark.parametrize("value", ["²", "١٢", "9" * 5000, "-" + "9" * 19, "4.0", True])
def test_a_whole_number_setting_refuses_what_int_cannot_read_with_a_settings_error(ruleset, value):
    """Both rulesets read a whole-number setting given as text with ``setting_int``: ASCII
    digits only, at most 18 (``int("²")`` and a 5000-digit ``int`` raised ValueError)."""
    rules = get_ruleset(ruleset)
    with pytest.raises(SettingsError) as info:
        rules.validate_settings({"players": value})
    assert "expected an integer" in str(info.value) and len(str(info.value)) < 160
    assert setting_int("players", " -12 ") == -12 and setting_int("players", 8) == 8


def test_games_address_leads_to_the_list_of_games(client):
    """The header's "Games" link is the front page; a typed /games/ answered 404."""
    response = client.get("/games/")
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_player_learns_who_opens_fated_labyrinth_games_and_staff_get_the_button(client, player, staff):
    """A new player saw only "New White Maiden game" and nothing saying how the other games come
    to be (the reason was only on a 403 page reached by guessing /games/new/)."""
    client.force_login(player)
    page = unescape(client.get("/").content.decode())
    assert "Fated Labyrinth and Level D games are opened by the operators of this server" in page
    assert 'href="/games/new/"' not in page
    client.force_login(staff)
    page = unescape(client.get("/").content.decode())
    assert 'href="/games/new/"' in page and "New game (staff: any ruleset, raw settings)" in page


def test_the_staff_form_says_it_opens_any_ruleset_and_groups_presets_by_game(client, staff):
    """The lobby's staff button said "New Fated Labyrinth or Level D game" and led to a form
    whose list also held White Maiden's presets: operators may open any ruleset's game there
    (raw settings), so the button, the title and the list say so, the presets grouped by game."""
    client.force_login(staff)
    lobby = unescape(client.get("/").content.decode())
    assert "New game (staff: any ruleset, raw settings)" in lobby
    assert "New Fated Labyrinth or Level D game" not in lobby
    form = unescape(client.get("/games/new/").content.decode())
    assert "Open a new game (staff: any ruleset, raw settings)" in form
    assert "any ruleset and preset of this server" in form
    assert '<optgroup label="Fated Labyrinth and Level D">' in form
    assert '<optgroup label="White Maiden">' in form
    fated = form.split('<optgroup label="Fated Labyrinth and Level D">')[1].split("</optgroup>")[0]
    assert "fated:level-d" in fated and "maiden:" not in fated
    japanese = unescape(client.get("/games/new/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "運営者用：どのルールでも、設定を直接指定" in japanese and '<optgroup label="白き乙女">' in japanese
    assert "運営者用" in unescape(client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
