"""Settings and presets: FL-CFG and the preset table of spec §18."""

from __future__ import annotations

import pytest

from delve.fated import content, settings
from delve.fated.ruleset import FatedRuleset
from delve.kernel import SettingsError

R = FatedRuleset()


def test_fated_labyrinth_preset_carries_the_manual_defaults():
    """FL-CFG-1, FL-CFG-3, FL-CFG-4, FL-CFG-5: P-3, P-5, P-7..P-15, P-17, P-18, P-45, P-46."""
    s = settings.resolve({"preset": "fated-labyrinth"})
    assert (s.players, s.wait_time, s.max_stored_turns, s.maze_size) == (4, 6 * 3600, 2, 13)
    assert (s.ice_rate, s.treasure_count, s.treasure_quota, s.kill_quota) == (5.0, 2, 1, 1)
    assert (s.move_count, s.decks, s.abandon_time) == (3, 1, 100 * 3600)
    assert (s.pass_cp_move, s.pass_cp_core) == (25, 25)
    assert s.opposite_status_mode == "replace"
    assert s.trap_cancel_on_forced_move is False
    assert s.registration_image is False
    assert settings.first_accumulation_max(s) == s.wait_time  # FL-CFG-4: "最長で６時間"
    assert s.monster_roster == ("slime", "zombie", "ghost", "imp", "necromancer", "golem", "dragon")


def test_level_d_preset_carries_its_own_values():
    """FL-CFG-5, §18 P-3, P-5, P-7, P-8, P-10, P-15, P-17, P-28, P-34..P-39, P-45, P-46."""
    s = settings.resolve({"preset": "level-d"})
    assert (s.players, s.wait_time, s.max_stored_turns, s.maze_size) == (8, 3600, 24, 15)
    assert (s.treasure_count, s.abandon_time) == (4, 48 * 3600)
    assert (s.pass_cp_move, s.pass_cp_core) == (20, 25)
    assert s.opposite_status_mode == "coexist"
    assert s.trap_cancel_on_forced_move is True
    assert s.registration_image is True
    assert s.monster_roster == ("slime", "mimic", "wisp", "imp", "necromancer", "ogre", "gargoyle", "minotaur")


def test_level_d_renames_three_classes_in_both_languages():
    """FL-CLS-1, §18 P-20..P-22: 魔術師→魔法使い, 貴族→商人, 猫→忍者; stats identical (P-23)."""
    data = content.load()
    assert data.class_name("sorcerer", "level-d", "ja") == "魔法使い"
    assert data.class_name("noble", "level-d", "ja") == "商人"
    assert data.class_name("cat", "level-d", "ja") == "忍者"
    assert data.class_name("cat", "level-d", "en") == "Ninja"
    assert data.class_name("cat", "fated-labyrinth", "ja") == "猫"
    assert data.class_name("warrior", "level-d", "ja") == "戦士"


def test_level_d_display_words_differ():
    """§18 P-24..P-33, AMB-66: phase word ターン, trap word ワナ, give-up 投了, records 個人成績."""
    fl = content.load().presets["fated-labyrinth"].words
    ld = content.load().presets["level-d"].words
    assert (fl["phase"]["ja"], ld["phase"]["ja"]) == ("フェイズ", "ターン")
    assert (fl["trap"]["ja"], ld["trap"]["ja"]) == ("罠", "ワナ")
    assert (fl["give_up"]["ja"], ld["give_up"]["ja"]) == ("放棄する", "投了")
    assert (fl["record"]["ja"], ld["record"]["ja"]) == ("個人記録", "個人成績")
    assert (fl["withdraw"]["ja"], ld["withdraw"]["ja"]) == ("取り消す", "取消")


def test_treasure_count_formula_follows_players():
    """FL-CFG-3, AMB-54: FL's treasure count is players/2; a number can replace it."""
    assert settings.resolve({"players": 8, "maze_size": 17}).treasure_count == 4
    assert settings.resolve({"treasure_count": "players/2", "players": 12, "maze_size": 21}).treasure_count == 6
    assert settings.resolve({"treasure_count": 3}).treasure_count == 3
    assert settings.resolve({"preset": "level-d", "players": 12, "maze_size": 21}).treasure_count == 4


@pytest.mark.parametrize(
    ("overrides", "setting", "needle"),
    [
        ({"players": 6}, "players", "multiple of 4"),
        ({"players": 0}, "players", "multiple of 4"),
        ({"wait_time": "soon"}, "wait_time", "duration"),
        ({"wait_time": 0}, "wait_time", "between"),
        ({"ice_rate": 80}, "ice_rate", "between 0 and 50"),
        ({"ice_rate": "lots"}, "ice_rate", "number"),
        ({"treasure_quota": 3}, "treasure_quota", "between 1 and 2"),
        ({"kill_quota": 4}, "kill_quota", "between 0 and 3"),
        ({"move_count": 0}, "move_count", "between"),
        ({"decks": "two"}, "decks", "integer"),
        ({"maze_size": 5}, "maze_size", ""),
        ({"players": 16, "maze_size": 9}, "", ""),
        ({"opposite_status_mode": "mix"}, "opposite_status_mode", "replace or coexist"),
        ({"colour": "red"}, "colour", "unknown setting"),
        ({"monster_roster": ["slime"]}, "monster_roster", "belongs to the preset"),
        ({"preset": "chess"}, "preset", "unknown preset"),
    ],
)
def test_invalid_settings_are_refused_naming_the_setting(overrides, setting, needle):
    """FL-CFG-2, AMB-55: a bad setting is refused with a message naming it."""
    with pytest.raises(SettingsError) as info:
        settings.resolve(overrides)
    if setting:
        assert info.value.setting == setting, info.value
    assert needle in str(info.value)


def test_durations_accept_units():
    """FL-CFG-1: times are configurable; the operator writes '6h', '30m' or seconds."""
    assert settings.resolve({"wait_time": "30m", "abandon_time": "2d"}).wait_time == 1800
    assert settings.resolve({"abandon_time": "2d"}).abandon_time == 172800
    assert settings.resolve({"wait_time": 90}).wait_time == 90
    assert settings.format_duration(21600) == "6h"


def test_the_active_settings_are_described_for_players():
    """FL-CFG-1: the server must show the 11 basic rules of the game before players join."""
    lines = R.describe_settings({"preset": "level-d"})
    assert [line.key for line in lines] == list(settings.BASIC_RULES)
    shown = {line.key: line.value for line in lines}
    assert shown["wait_time"] == "1h" and shown["abandon_time"] == "2d" and shown["ice_rate"] == "5%"
    assert all(line.label["ja"] and line.label["en"] for line in lines)


def test_fixed_constants_and_decision_parameters_have_their_defaults():
    """FL-CFG-6, FL-CFG-7, FL-CFG-8: start values 120, statuses 7/10, poison step 2, door rate 3%,
    log 50, comments 100 characters once a minute."""
    s = settings.resolve({})
    assert (s.start_hp, s.start_cp) == (120, 120)
    assert (s.status_turns, s.priest_plus_status_turns, s.poison_step) == (7, 10, 2)
    assert (s.sight_metric, s.door_rate, s.event_log_size) == ("chebyshev", 3.0, 50)
    assert (s.comment_max_len, s.comment_min_interval) == (100, 60)


def test_ruleset_exposes_presets_seat_count_and_class_choice():
    """FL-REG-2, FL-OVR-4: the game starts only with `players` seats; the class is chosen at
    registration; Level D adds the image choice (FL-REG-4)."""
    assert [p.value for p in R.presets()] == ["fated-labyrinth", "level-d"]
    assert R.seat_count({"preset": "level-d"}) == 8
    fl = {o.key: o for o in R.seat_options({})}
    assert set(fl) == {"class"}  # the keep-record flag is the server's (checked by default, FL-REG-2)
    ld = {o.key: o for o in R.seat_options({"preset": "level-d"})}
    assert "image" in ld
    assert {c.label["ja"] for c in ld["class"].choices} >= {"忍者", "商人", "魔法使い"}


def test_a_setting_out_of_range_says_its_bounds_and_unit_for_the_pages():
    """FL-CFG-1: the API's message names the key; the pages read the bounds and the unit."""
    with pytest.raises(SettingsError) as caught:
        settings.resolve({"preset": "level-d", "wait_time": 0})
    error = caught.value
    assert (error.setting, error.expected, error.low, error.high, error.unit, error.got) == (
        "wait_time",
        "range",
        1,
        30 * 86400,
        "s",
        0,
    )
    assert error.message.startswith("setting 'wait_time': must be between 1 and")


def test_the_basic_rules_show_times_in_words_of_each_language():
    """FL-CFG-1: the value as the settings write it beside the value for people."""
    lines = {key: (value, shown) for key, _, value, shown in settings.describe(settings.resolve({"wait_time": "90m"}))}
    assert lines["wait_time"] == ("90m", {"en": "1 h 30 min", "ja": "1時間30分"})
