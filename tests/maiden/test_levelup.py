"""Level-up and stats (MV-LVL-1, MV-LVL-2, MV-LVL-3, MV-LVL-4, MV-LVL-5, MV-LVL-6, MV-LVL-7,
MV-LVL-8, MV-STAT-1, MV-STAT-2, MV-STAT-3, MV-STAT-4, MV-STAT-5, MV-STAT-6, MV-STAT-7,
MV-STAT-8, MV-STAT-9)."""

from __future__ import annotations

from delve.maiden import movement
from delve.maiden.state import STATS
from tests.maiden.helpers import act, ctx, finish_setup, new_game, set_stats, to_move


def _defeat_imp(r, g):  # type: ignore[no-untyped-def]
    act(r, g, "move", to="b_imp")
    g.bosses["imp"].life = 1
    act(r, g, "roll")
    for die in g.check.dice:
        die.face = 6
    g.check.target = 1
    return act(r, g, "resolve")


def test_level_up_at_setup_and_after_each_boss_mv_lvl_1_mv_lvl_3() -> None:
    """MV-LVL-1: once at setup, again at each boss defeat; MV-LVL-3: draw one action card (Ins
    applies) and place it on any stat."""
    r, g = new_game()
    events = to_move(r, g, wil=1)
    assert any(e.kind == "maiden.level_up" and e.data["why"] == "first" for e in events)
    _defeat_imp(r, g)
    assert g.pending[0].kind == "place_card" and g.pending[0].options == list(STATS)


def test_level_up_with_ins_keeps_one_of_several_mv_lvl_3_mv_deck_2() -> None:
    r, g = new_game()
    to_move(r, g, wil=1, ins=1)
    _defeat_imp(r, g)
    assert g.pending[0].kind == "keep_card" and len(g.pending[0].options) == 2


def test_placement_effects_agi_learns_ins_draws_mv_lvl_4_mv_stat_6_mv_stat_8() -> None:
    """MV-LVL-4, MV-STAT-6, MV-STAT-8: a card on Agi learns a skill each time, and adds 1 MP;
    Pie and Wil have no immediate effect."""
    r, g = new_game()
    to_move(r, g, wil=1)
    _defeat_imp(r, g)
    skills = len(g.maidens[0].skills)
    act(r, g, "place_card", stat="agi")
    assert len(g.maidens[0].skills) == skills + 1
    assert movement.movement_points(ctx(r, g), g.maidens[0]) == 2


def test_no_cap_and_cards_never_move_mv_lvl_7_mv_lvl_8_mv_stat_2() -> None:
    """MV-LVL-7: stats have no cap (Wil 6 counts as a top card); MV-LVL-8: a placed card stays."""
    r, g = new_game()
    to_move(r, g, wil=6)
    m = g.maidens[0]
    wil = list(m.stats["wil"])
    _defeat_imp(r, g)
    act(r, g, "place_card", stat="pie")
    assert m.stats["wil"] == wil and m.level("wil") == 6 and m.stats["wil"][-1] in m.top_symbols()


def test_four_stats_mv_stat_1_mv_comp_2() -> None:
    """MV-STAT-1, MV-COMP-2: four stat stacks per maiden (position, life, stacks, skills, familiar)."""
    r, g = new_game()
    to_move(r, g)
    m = r.view(g, 0)["maidens"][0]
    assert set(m["stats"]) == {"pie", "wil", "agi", "ins"}
    assert {"room", "life", "skills", "familiars"} <= set(m)


def test_top_symbols_of_non_empty_stats_mv_stat_3_mv_skill_4() -> None:
    r, g = new_game()
    to_move(r, g, wil=0)
    m = g.maidens[0]
    m.stats["pie"] = ["D", "J"]
    m.stats["agi"] = ["G"]
    assert m.top_symbols() == ["J", "G"]


def test_pie_adds_white_dice_and_ascension_bonus_mv_stat_4() -> None:
    """MV-STAT-4: Pie white dice, and each ascension adds 1 + Pie."""
    r, g = new_game()
    to_move(r, g, pie=2, wil=1)
    act(r, g, "move", to="a1_1")
    act(r, g, "roll")
    assert [d.colour for d in g.check.dice].count("white") == 2  # type: ignore[union-attr]
    from delve.maiden import checks

    assert checks.bonus(ctx(r, g), g.maidens[0]) == 3


def test_ins_gives_more_cards_from_then_on_mv_stat_7() -> None:
    r, g = new_game()
    to_move(r, g, wil=1)
    set_stats(g, 0, ins=3)
    act(r, g, "move", to="a1_1")
    assert len(g.pending[0].options) == 4


def test_two_cards_after_setup_mv_stat_9() -> None:
    """MV-STAT-9: the designated card and the first level-up: 2 stat cards each."""
    r2, g2 = new_game(2)
    finish_setup(r2, g2)
    assert all(sum(m.level(s) for s in STATS) == 2 for m in g2.maidens)


def test_agi_skill_level_option_variant_chg_5() -> None:
    """``agi_skill_level_option`` (CHG-5): off -> a card on Agi learns a skill; on -> the player
    chooses between learning and +1 level on an owned skill."""
    r, g = new_game(agi_skill_level_option=True)
    to_move(r, g, wil=1)
    _defeat_imp(r, g)
    act(r, g, "place_card", stat="agi")
    assert g.pending[0].kind == "agi_option"
    skill = g.maidens[0].skills[0].id
    assert g.pending[0].options == ["learn", *[s.id for s in g.maidens[0].skills]]
    act(r, g, "agi_option", choice=skill)
    assert g.maidens[0].skills[0].level == 1
