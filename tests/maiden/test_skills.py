"""Skills (MV-SKILL-1, MV-SKILL-2, MV-SKILL-3, MV-SKILL-4, MV-SKILL-5, MV-SKILL-6, MV-SKILL-7,
MV-SKILL-8, MV-SKILL-9, MV-SKILL-10, MV-SKILL-11, MV-SKILL-12, MV-SKILL-13) and events
(MV-EVENT-3)."""

from __future__ import annotations

import pytest

from delve.kernel import IllegalCommand
from delve.maiden import skills
from delve.maiden.state import SkillState
from tests.maiden.helpers import act, ctx, enter_room_check, new_game, roll, to_move


def _with_skill(skill: str, symbols: dict[str, list[str]] | None = None):  # type: ignore[no-untyped-def]
    r, g = new_game()
    to_move(r, g, wil=1)
    m = g.maidens[0]
    m.skills = [SkillState(id=skill)]
    g.decks.action.extend(c for stack in m.stats.values() for c in stack)
    m.stats = {"pie": [], "wil": ["P"], "agi": [], "ins": [], **(symbols or {})}
    for card in (c for stack in m.stats.values() for c in stack):
        g.decks.action.remove(card)
    return r, g, m


def test_ready_or_exhausted_mv_skill_1_mv_comp_8() -> None:
    """MV-SKILL-1, MV-COMP-8: each owned skill is ready or exhausted, with a level from 0."""
    r, g, _m = _with_skill("k_heal")
    view = r.view(g, 0)["maidens"][0]["skills"]
    assert view == [{"id": "k_heal", "level": 0, "exhausted": False, "used_this_turn": False}]


def test_condition_met_stays_ready_mv_skill_3_mv_skill_4_mv_skill_5() -> None:
    """MV-SKILL-3, MV-SKILL-4, MV-SKILL-5: the condition (a multiset) is contained in the top symbols: the skill is
    used and stays ready."""
    r, g, m = _with_skill("k_mp", {"agi": ["D"]})
    assert skills.condition_met(m, ("D",)) and not skills.condition_met(m, ("D", "D"))
    act(r, g, "use_skill", skill="k_mp")
    assert not m.skills[0].exhausted and m.skills[0].used and g.turn.mp_bonus == 1


def test_condition_unmet_exhausts_mv_skill_6_mv_skill_7_mv_skill_8() -> None:
    """MV-SKILL-6: usable without the condition, then exhausted; MV-SKILL-7, MV-SKILL-8: an exhausted
    skill is not offered (even when the condition is met) until readied."""
    r, g, m = _with_skill("k_mp", {"agi": ["G"]})
    act(r, g, "use_skill", skill="k_mp")
    assert m.skills[0].exhausted
    m.skills[0].used = False
    m.stats["agi"] = ["D"]
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_skill"]
    with pytest.raises(IllegalCommand) as err:
        act(r, g, "use_skill", skill="k_mp")
    assert err.value.code == "command/skill_unavailable"


def test_once_per_turn_and_reset_at_every_turn_end_mv_skill_2_mv_skill_13_mv_endt_2() -> None:
    """MV-SKILL-2: at most once per turn; MV-SKILL-13, MV-ENDT-2: the counters reset at the end of
    every turn."""
    r, g, m = _with_skill("k_mp", {"agi": ["D"]})
    act(r, g, "use_skill", skill="k_mp")
    assert {"kind": "use_skill", "skill": "k_mp"} not in r.legal_commands(g, 0)
    act(r, g, "move", to="a1_1")
    act(r, g, "roll")
    act(r, g, "resolve")
    assert not m.skills[0].used


def test_timing_windows_mv_skill_9() -> None:
    """MV-SKILL-9: a skill is offered only in its window (k_white: pre_roll), only to its owner
    on her own turn."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, wil=1)
    m = g.maidens[0]
    m.skills = [SkillState(id="k_white")]
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_skill"]
    enter_room_check(r, g, "r_zero")
    assert {"kind": "use_skill", "skill": "k_white"} in r.legal_commands(g, 0)
    assert not [c for c in r.legal_commands(g, 1) if c["kind"] == "use_skill"]
    act(r, g, "use_skill", skill="k_white")
    act(r, g, "roll")
    assert len(g.check.dice) == 4  # type: ignore[union-attr]


def test_skill_level_scales_the_effect_mv_skill_10() -> None:
    """MV-SKILL-10: each level adds ``scale`` to the amount (k_ap: +1 AP, +1 per level)."""
    r, g, m = _with_skill("k_ap", {"agi": ["D"], "wil": ["J"]})
    m.skills[0].level = 2
    enter_room_check(r, g, "r_zero")
    roll(r, g, 2, 3, 4)
    act(r, g, "use_skill", skill="k_ap")
    assert g.check.ap_bonus == 3  # type: ignore[union-attr]


def test_gaining_skills_and_no_limit_mv_skill_11_mv_skill_12() -> None:
    """MV-SKILL-11: familiar skills, Agi placements and effect texts (learn_skill) give skills;
    MV-SKILL-12: no limit."""
    r, g = new_game()
    to_move(r, g, wil=1)
    m = g.maidens[0]
    c = ctx(r, g)
    for _ in range(5):
        skills.learn(c, m)
    assert len(m.skills) == 6


def test_a_die_skill_is_offered_once_per_pick_mv_skill_9() -> None:
    """MV-SKILL-9: a post_roll reroll skill is offered after the roll with each die it may pick
    (one judge: legal_commands), and not before the roll."""
    r, g, _m = _with_skill("k_reroll", {"agi": ["G"]})
    enter_room_check(r, g, "r_zero")
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_skill"]
    roll(r, g)
    uses = [c for c in r.legal_commands(g, 0) if c["kind"] == "use_skill"]
    assert uses == [{"kind": "use_skill", "skill": "k_reroll", "dice": [i]} for i in range(3)]


def test_events_come_from_content_mv_event_3() -> None:
    """MV-EVENT-3: the draft gives no event texts: they are content (the r_heal success event)."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.maidens[0].life = 3
    enter_room_check(r, g, "r_heal")
    roll(r, g, 6, 6, 5)
    act(r, g, "resolve")
    assert g.maidens[0].life == 5
