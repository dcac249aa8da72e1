"""Every variant toggle of §6.3, on and off (CHG-1..20, OQ-2/4/7/10), and the settings' checks."""

from __future__ import annotations

import pytest

from delve.kernel import SettingsError
from delve.maiden import checks, settings
from tests.maiden.helpers import act, ctx, enter_room_check, finish_setup, new_game, roll, to_move


def test_defaults_are_the_rulebook() -> None:
    """§6.3: every toggle with its default."""
    s = settings.resolve({})
    assert (s.players, s.start_player, s.turn_deadline_hours, s.life_max) == (1, "random", 0, 6)
    assert s.boss_life_bonus == "ceil_third" and s.ascension_bonus == "one_plus_pie"
    assert s.slate_damage_per_die == "1" and s.danger_room_entry_damage == "none"
    assert not (s.quest_room_skips_check or s.danger_room_skips_check or s.room_reduction_2p_4p)
    assert s.difficulty == "easy" and not s.entry_restrictions and not s.multi_die_checks
    assert s.pie_mode == "ascension" and not s.agi_skill_level_option and not s.familiar_evolution
    assert s.familiars_per_player == (1, 1, 1, 1) and s.ins_applies_to_room_deck
    assert not (s.boss_rooms_block_passage or s.allow_smaller_die or s.slate_roll_restricted)
    assert s.base_target == "action_markers"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("players", 5),
        ("players", "two"),
        ("life_max", 0),
        ("ascension_bonus", "two"),
        ("pie_mode", "x"),
        ("difficulty", "hard"),
        ("start_player", "first"),
        ("boss_life_bonus", "lots"),
        ("familiars_per_player", [1, 2]),
        ("quest_room_skips_check", "maybe"),
        ("turn_deadline_hours", -1),
        ("nonsense", 1),
    ],
)
def test_bad_settings_name_the_setting(key: str, value: object) -> None:
    with pytest.raises(SettingsError) as err:
        settings.resolve({key: value})
    assert err.value.setting == key


def test_entry_restrictions_need_normal_difficulty_chg_16() -> None:
    """CHG-16: entry restrictions are absent in easy difficulty."""
    with pytest.raises(SettingsError):
        settings.resolve({"entry_restrictions": True})
    assert settings.resolve({"entry_restrictions": True, "difficulty": "normal"}).entry_restrictions


def test_preset_normal_and_describe() -> None:
    s = settings.resolve({"preset": "white-maiden-normal"})
    assert s.difficulty == "normal" and s.entry_restrictions
    shown = dict((k, v) for k, _, v, _ in settings.describe(s))
    assert shown["difficulty"] == "normal" and shown["familiars_per_player"] == "1/1/1/1"


def test_life_max_chg_1() -> None:
    """CHG-1: ``life_max`` (default 6)."""
    _, g = new_game(life_max=8)
    assert g.maidens[0].life == g.maidens[0].life_max == 8


def test_ascension_bonus_pie_chg_11() -> None:
    """CHG-11: ``ascension_bonus = pie`` makes each ascension +Pie (default +1 + Pie)."""
    for rule, expected in (("one_plus_pie", 3), ("pie", 2)):
        r, g = new_game(ascension_bonus=rule)
        to_move(r, g, pie=2, wil=1)
        enter_room_check(r, g, "r_zero")
        roll(r, g)
        assert checks.bonus(ctx(r, g), g.maidens[0]) == expected


def test_danger_room_entry_damage_chg_9b() -> None:
    """CHG-9b: with ``danger_level`` the maiden takes the new DL as damage on entry."""
    for value, life in (("none", 6), ("danger_level", 4)):
        r, g = new_game(danger_room_entry_damage=value)
        to_move(r, g, wil=1)
        g.explored.append("a2_1")
        g.danger_level = 1
        act(r, g, "move", to="a2_2")
        assert g.maidens[0].life == life


@pytest.mark.parametrize("skips", [False, True])
def test_danger_room_skips_check_chg_14(skips: bool) -> None:
    r, g = new_game(danger_room_skips_check=skips)
    to_move(r, g, wil=1)
    g.explored.append("a2_1")
    events = act(r, g, "move", to="a2_2")
    drew = any(e.kind == "check.started" for e in events) or bool(g.pending)
    assert drew is not skips


@pytest.mark.parametrize("skips", [False, True])
def test_quest_room_skips_check_chg_14(skips: bool) -> None:
    r, g = new_game(quest_room_skips_check=skips)
    to_move(r, g, wil=1)
    events = act(r, g, "move", to="a2_1")
    assert any(e.kind == "quest.drawn" for e in events)
    assert any(e.kind == "check.started" for e in events) is not skips


@pytest.mark.parametrize(("difficulty", "kind"), [("easy", "rest"), ("normal", "normal")])
def test_difficulty_normal_turns_flagged_rest_rooms_normal_chg_13(difficulty: str, kind: str) -> None:
    """CHG-13 ``difficulty``: easy keeps every rest room; normal makes the flagged ones normal."""
    r, g = new_game(difficulty=difficulty)
    to_move(r, g)
    room = next(x for x in r.view(g, 0)["map"]["rooms"] if x["id"] == "a1_3")
    assert room["type"] == kind


@pytest.mark.parametrize(("players", "on", "kind"), [(2, False, "quest"), (2, True, "normal"), (3, True, "quest")])
def test_room_reduction_2p_4p_chg_13(players: int, on: bool, kind: str) -> None:
    """CHG-13 ``room_reduction_2p_4p``: a room flagged for 1p/3p only is normal at 2p when on."""
    r, g = new_game(players, room_reduction_2p_4p=on)
    to_move(r, g)
    room = next(x for x in r.view(g, 0)["map"]["rooms"] if x["id"] == "a2_1")
    assert room["type"] == kind


def test_multi_die_checks_chg_12() -> None:
    """CHG-12 ``multi_die_checks``: success needs ``required_count`` dice >= target; each
    ascension bonus goes onto a chosen remaining die (``onto``)."""
    from delve.maiden.state import Check, Die

    r, g = new_game(multi_die_checks=True)
    to_move(r, g, pie=2, wil=1)
    enter_room_check(r, g, "r_zero")
    g.check.required = 2  # type: ignore[union-attr]
    g.check.target = 5  # type: ignore[union-attr]
    roll(r, g, 6, 2, 2, 4, 1)
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 4  # the 2nd highest
    legal = r.legal_commands(g, 0)
    assert {"kind": "ascend", "dice": [1, 2], "onto": 3} in legal
    assert {"kind": "ascend", "dice": [1, 2]} not in legal
    act(r, g, "ascend", dice=[1, 2], onto=3)
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 6  # 4 + 3 = 7, and 6
    assert isinstance(g.check, Check) and isinstance(g.check.dice[0], Die)


def test_multi_die_checks_off_ignores_required_count_chg_12() -> None:
    r, g = new_game()
    to_move(r, g, wil=1)
    enter_room_check(r, g, "r_zero")
    assert g.check is not None and g.check.required == 1


def test_pie_mode_boost_chg_17() -> None:
    """CHG-17 ``pie_mode = boost``: +Pie spread over remaining dice (beyond the maximum), and the
    ascension bonus counts Pie as 0."""
    r, g = new_game(pie_mode="boost")
    to_move(r, g, pie=2, wil=1)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 6, 1, 2, 3, 3)
    assert g.check is not None and g.check.boost_left == 2
    assert checks.bonus(ctx(r, g), g.maidens[0]) == 1
    act(r, g, "boost", die=0)
    act(r, g, "boost", die=0)
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 8
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "boost"]


def test_pie_mode_ascension_has_no_boost_chg_17() -> None:
    r, g = new_game()
    to_move(r, g, pie=2, wil=1)
    enter_room_check(r, g, "r_zero")
    roll(r, g)
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "boost"]


def test_allow_smaller_die_chg_10() -> None:
    """CHG-10 ``allow_smaller_die`` (simulation only): die_size commands for smaller sizes."""
    r, g = new_game(allow_smaller_die=True)
    to_move(r, g, wil=2)
    enter_room_check(r, g, "r_zero")
    assert [c["size"] for c in r.legal_commands(g, 0) if c["kind"] == "die_size"] == [4, 6]
    act(r, g, "die_size", size=4)
    act(r, g, "roll")
    assert {d.size for d in g.check.dice} == {4}  # type: ignore[union-attr]


def test_slate_roll_restricted_chg_18() -> None:
    """CHG-18 ``slate_roll_restricted``: a slate check rolls only the slate colour and white."""
    for on, colours in ((False, ["red", "blue", "black", "white"]), (True, ["red", "white"])):
        r, g = new_game(slate_roll_restricted=on)
        to_move(r, g, pie=1, wil=1)
        enter_room_check(r, g, "r_red")
        roll(r, g)
        assert [d.colour for d in g.check.dice] == colours  # type: ignore[union-attr]


@pytest.mark.parametrize(("on", "count"), [(True, 3), (False, 1)])
def test_ins_applies_to_room_deck_oq_10(on: bool, count: int) -> None:
    """OQ-10 ``ins_applies_to_room_deck``: off -> room (and quest) draws are single cards."""
    r, g = new_game(ins_applies_to_room_deck=on)
    to_move(r, g, ins=2, wil=1)
    act(r, g, "move", to="a1_1")
    if count == 1:
        assert g.step == "pre_roll"
    else:
        assert len(g.pending[0].options) == count


def test_familiars_per_player_oq_2() -> None:
    """OQ-2 ``familiars_per_player``: 1 by default; 2 at solo gives two familiars, two skills,
    two designated cards."""
    r, g = new_game(familiars_per_player=[2, 1, 1, 1])
    act(r, g, "choose_familiar", familiar="fam_d")
    act(r, g, "place_card", stat="wil")
    assert g.pending[0].kind == "choose_familiar"
    act(r, g, "choose_familiar", familiar="fam_j")
    act(r, g, "place_card", stat="pie")
    assert g.maidens[0].familiars == ["fam_d", "fam_j"] and len(g.maidens[0].skills) == 2
    with pytest.raises(SettingsError):
        new_game(4, familiars_per_player=2)  # 8 familiars needed, 5 exist


def test_familiar_evolution_chg_20() -> None:
    """CHG-20 ``familiar_evolution``: freeing an area lets the entering maiden spend the Arcana on
    her familiar's ultimate skill instead of the pool; off: always the pool."""
    for on in (False, True):
        r, g = new_game(familiar_evolution=on, start_player=0)
        act(r, g, "choose_familiar", familiar="fam_d")  # the Hound has an ultimate skill
        finish_setup(r, g)
        g.explored += ["a1_2", "a1_3"]
        act(r, g, "move", to="a1_1")
        if not on:
            assert g.arcana == ["a1"]
            continue
        decision = next(d for d in g.pending if d.kind == "choose")
        assert decision.options == ["pool", "evolve"]
        while g.pending[0].kind != "choose":
            act(r, g, "keep_card", card=0)
        act(r, g, "choose", option=1)
        assert g.arcana == [] and g.maidens[0].skill("ult_dash") is not None


def test_boss_rooms_block_passage_default_off_oq_7() -> None:
    assert not settings.resolve({}).boss_rooms_block_passage


def test_describe_shows_every_value_for_people_with_the_forms_bounds() -> None:
    """§6.3 variants: no internal name among the shown values; the number bounds are validation's."""
    s = settings.resolve({"preset": "white-maiden", "players": 2, "turn_deadline_hours": 24})
    shown = {k: v for k, _, _, v in settings.describe(s)}
    assert shown["boss_life_bonus"]["en"] == "a third of its life, rounded up"
    assert shown["ascension_bonus"] == {"en": "1 + Piety", "ja": "1＋信仰"}
    assert shown["turn_deadline_hours"] == {"en": "1 d", "ja": "1日"}
    assert shown["quest_room_skips_check"] == {"en": "off", "ja": "なし"}
    for key, (low, high) in settings.RANGES.items():
        with pytest.raises(SettingsError) as caught:
            settings.resolve({key: high + 1})
        assert (caught.value.low, caught.value.high) == (low, high)
