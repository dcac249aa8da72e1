"""Game settings in the operator's and the host's own language.

- A rule that ties settings together (White Maiden: entry-restricted rooms need normal
  difficulty, CHG-16; the start player's seat must exist; Fated Labyrinth: players come in fours,
  FL-CFG-2; the maze must hold the players' starts, the doors, the treasures and the ice; a
  preset's own settings cannot be overridden, FL-CFG-5) is refused on the staff form, the admin
  and the White Maiden form with its reason in the reader's language after the setting's label;
  the engine's error keeps its code ``settings/invalid`` and its English reason.
- Every setting key of both rulesets has a label and a short help in English and Japanese; the
  staff form lists them all, and names an invalid setting by its label whatever the key.
"""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest

from delve.fated.state import Settings as FatedSettings
from delve.kernel import SettingsError, get_ruleset
from delve.maiden.state import Settings as MaidenSettings
from delve.server.games import engine
from delve.server.games.forms import setting_help
from delve.server.games.models import Game
from tests.server.conftest import session_client
from tests.server.test_maiden_lobby import form_data

pytestmark = pytest.mark.django_db

JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

#: (preset, overrides, the setting named, words the English page says, words the Japanese page says)
CROSS_RULES = [
    (
        "maiden:white-maiden",
        "entry_restrictions=true",
        "entry_restrictions",
        "entry-restricted rooms need normal difficulty",
        "入室制限ルーム (entry_restrictions)：入室制限ルームはノーマル難易度のものです",
    ),
    (
        "maiden:white-maiden",
        "players=2\nstart_player=3",
        "start_player",
        "seat 4 does not exist in a 2-player game",
        "スタートプレイヤー (start_player)：2人のゲームに席4はありません",
    ),
    ("fated:fated-labyrinth", "players=6", "players", "enter a multiple of 4", "プレイ人数 (players)：4の倍数"),
    (
        "fated:fated-labyrinth",
        "players=16\nmaze_size=7",
        "maze_size",
        "a 7×7 maze is too small for 16 players",
        "迷宮の広さ (maze_size)：7×7の迷宮は16人には狭すぎます",
    ),
    (
        "fated:fated-labyrinth",
        "maze_size=7\ndoor_rate=20",
        "door_rate",
        "20% of a 7×7 maze is 9 doors",
        "扉の率 (door_rate)：7×7の迷宮の20%は扉9枚ですが",
    ),
    (
        "fated:fated-labyrinth",
        "maze_size=9\ntreasure_count=60",
        "treasure_count",
        "60 treasures do not fit in a 9×9 maze with 4 players: at most 33",
        "財宝設置数 (treasure_count)：4人の9×9の迷宮に財宝60個は置けません",
    ),
    (
        "fated:fated-labyrinth",
        "maze_size=9\nice_rate=50",
        "ice_rate",
        "50% of a 9×9 maze is 40 frozen tiles",
        "氷床率 (ice_rate)：9×9の迷宮の50%は氷床40マスですが",
    ),
    (
        "fated:fated-labyrinth",
        '{"monster_roster": []}',
        "monster_roster",
        "belongs to the preset and cannot be changed",
        "モンスターの顔ぶれ (monster_roster)：プリセットで決まる設定で、変更できません",
    ),
]


def page(response: Any) -> str:
    return unescape(response.content.decode())


@pytest.mark.parametrize(("preset", "overrides", "key", "english", "japanese"), CROSS_RULES)
def test_a_rule_between_settings_is_refused_in_the_readers_language_on_the_staff_form(
    staff, preset, overrides, key, english, japanese
):
    client = session_client(staff)
    ja = client.post("/games/new/", {"preset": preset, "overrides": overrides}, **JA)
    assert ja.status_code == 400
    assert japanese in page(ja)
    assert english not in page(ja)
    en = client.post("/games/new/", {"preset": preset, "overrides": overrides}, **EN)
    assert en.status_code == 400 and english in page(en)
    assert not Game.objects.exists()


@pytest.mark.parametrize(("preset", "overrides", "key", "english", "japanese"), CROSS_RULES[:4])
def test_a_rule_between_settings_is_refused_in_japanese_in_the_admin(staff, preset, overrides, key, english, japanese):
    response = session_client(staff).post("/admin/games/game/add/", {"preset": preset, "overrides": overrides}, **JA)
    assert japanese in page(response) and english not in page(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize(("preset", "overrides", "key", "english", "japanese"), CROSS_RULES)
def test_the_engine_keeps_its_code_and_english_reason_for_the_api(preset, overrides, key, english, japanese):
    """What the API and the logs read is unchanged: code ``settings/invalid``, the key, English."""
    from delve.server.games.forms import parse_overrides

    ruleset, _, name = preset.partition(":")
    with pytest.raises(SettingsError) as caught:
        engine.resolve_settings(ruleset, name, parse_overrides(overrides))
    error = caught.value
    assert error.code == "settings/invalid" and error.setting == key
    assert error.as_dict()["message"].startswith(f"setting {key!r}: ")
    assert error.message.isascii()
    assert set(error.words) == {"en", "ja"} and english in error.words["en"]


def test_the_white_maiden_form_says_the_entry_restriction_rule_in_japanese(clock, player):
    """CHG-16 on the form every player uses: the reason next to the field, in Japanese."""
    data = form_data(s_entry_restrictions=True)
    response = session_client(player).post("/maiden/new/", data, **JA)
    assert response.status_code == 400
    html = page(response)
    assert "入室制限ルーム：入室制限ルームはノーマル難易度のものです" in html
    assert "absent in easy difficulty" not in html and "need normal difficulty" not in html
    assert "CHG-16" not in html  # players' words: no spec ID in the reason
    english = page(session_client(player).post("/maiden/new/", data, **EN))
    assert "need normal difficulty" in english and "CHG-16" not in english
    assert not Game.objects.exists()
    allowed = session_client(player).post("/maiden/new/", form_data(s_entry_restrictions=True, s_difficulty="normal"))
    assert allowed.status_code == 302


def test_the_white_maiden_form_says_a_missing_start_seat_in_japanese(clock, player):
    response = session_client(player).post("/maiden/new/", form_data(s_players=2, s_start_player="3"), **JA)
    assert response.status_code == 400
    assert "スタートプレイヤー：2人のゲームに席4はありません" in page(response)
    assert "does not exist" not in page(response)


# --- every setting key has a label and a help ---------------------------------------------------

RULESETS = {"fated": FatedSettings, "maiden": MaidenSettings}


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_setting_key_has_a_label_and_a_help_in_both_languages(name):
    """A setting added to a ruleset's ``Settings`` without its label and help fails here."""
    keys = set(RULESETS[name].__struct_fields__) - {"preset"}
    listed = {item.key: item for item in setting_help(get_ruleset(name))}
    assert set(listed) == keys, f"label and help missing for {sorted(keys - set(listed))}"
    for key, item in listed.items():
        for lang in ("en", "ja"):
            assert item.label.get(lang, "").strip(), (key, lang, "label")
            assert item.help.get(lang, "").strip(), (key, lang, "help")
            assert item.label[lang] != key, (key, lang, "a label is words, not the key")
    ja = [item.label["ja"] for item in listed.values()]
    assert len(set(ja)) == len(ja), "two settings share a Japanese label"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_staff_form_lists_every_setting_key_with_its_label_and_help(staff, name):
    """The staff form, where values are typed, adds the values a setting takes when the players'
    form shows other words (White Maiden's start player: "seat 1" is the value 0, MV-SETUP-15)."""
    client = session_client(staff)
    for lang, headers in (("en", EN), ("ja", JA)):
        html = page(client.get("/games/new/", **headers))
        for item in setting_help(get_ruleset(name)):
            shown = item.help[lang] + (" " + item.values[lang] if item.values else "")
            assert f"<td><code>{item.key}</code></td><td>{item.label[lang]}</td><td>{shown}</td>" in html
        if name == "maiden":
            assert ("the seat's index 0-3" if lang == "en" else "席の番号0〜3") in html
    admin = page(client.get("/admin/games/game/add/", **JA))
    assert "<td><code>event_log_size</code></td><td>イベントログの件数</td>" in admin


@pytest.mark.parametrize(
    ("preset", "overrides", "named"),
    [
        ("fated:fated-labyrinth", "start_hp=0", "開始時のHP (start_hp)"),
        ("fated:fated-labyrinth", "comment_max_len=0", "コメントの最大文字数 (comment_max_len)"),
        ("fated:level-d", "sight_metric=euclid", "視界の距離の測り方 (sight_metric)"),
        ("fated:fated-labyrinth", "pass_cp_core=5000", "中心フェイズのパスで回復するCP (pass_cp_core)"),
        ("maiden:white-maiden", "event_log_size=0", "イベントログの件数 (event_log_size)"),
    ],
)
def test_an_invalid_setting_beyond_the_basic_rules_is_named_by_its_label(staff, preset, overrides, named):
    response = session_client(staff).post("/games/new/", {"preset": preset, "overrides": overrides}, **JA)
    assert response.status_code == 400 and named in page(response)


def test_the_white_maiden_settings_list_and_form_keep_the_tuning_parameter_out(clock, player):
    """``event_log_size`` has a label for the staff form, but players' lists and the White Maiden
    form show the game's rules only, as before."""
    keys = [line.key for line in get_ruleset("maiden").describe_settings({"preset": "white-maiden"})]
    assert "event_log_size" not in keys
    form = session_client(player).get("/maiden/new/").content.decode()
    assert 'name="s_life_max"' in form and 'name="s_event_log_size"' not in form
