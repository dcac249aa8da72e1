"""Ops whose target is picked (contract OPS): exhaust_skill, skill_level, boss_damage with
boss = choose_engaged, boss_disable_action, room_type with room = choose_unexplored. The pick is
a command param (boss, room) or a ``choose`` decision of the player concerned; with nothing to
pick the op does nothing (MV-SKILL-6/10, MV-BOSS-5/8, MV-QUEST-5)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from delve.kernel import IllegalCommand
from delve.maiden import bosses, effects
from delve.maiden.state import SkillState
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.helpers import act, ctx, new_game, to_move


def _run(r, g, ops: list[dict[str, Any]], seat: int = 0) -> None:  # type: ignore[no-untyped-def]
    """An automatic effect (event, quest) for maiden ``seat``."""
    effects.run(ctx(r, g), ops, "quest:test", {}, actor=g.maidens[seat], strict=False)


def _arcana(ops: list[dict[str, Any]], players: int = 1):  # type: ignore[no-untyped-def]
    areas = dict(CONTENT.areas)
    areas["a1"] = msgspec.structs.replace(areas["a1"], arcana=tuple(ops), arcana_timing="any")
    r, g = new_game(players, content=msgspec.structs.replace(CONTENT, areas=areas))
    to_move(r, g, wil=1)
    g.arcana = ["a1"]
    return r, g


def test_exhaust_skill_the_affected_player_picks_a_ready_skill_mv_skill_7() -> None:
    """MV-SKILL-7: exhaust_skill (who = others) asks the affected maiden's player, not the actor,
    to pick one of her ready skills; exhausted skills are not offered."""
    r, g = new_game(2, start_player=0)
    to_move(r, g)
    g.maidens[1].skills = [SkillState(id="k_mp"), SkillState(id="k_heal", exhausted=True), SkillState(id="k_ap")]
    _run(r, g, [{"op": "exhaust_skill", "who": "others"}, {"op": "dl", "delta": 1}])
    decision = g.pending[0]
    assert decision.seat == 1 and decision.options == [{"exhaust": "k_mp"}, {"exhaust": "k_ap"}]
    assert r.legal_commands(g, 0) == []
    dl = g.danger_level
    act(r, g, "choose", option=1)
    assert [s.exhausted for s in g.maidens[1].skills] == [False, True, True]
    assert g.danger_level == dl + 1  # the rest of the ops ran after the pick


def test_exhaust_skill_without_a_ready_skill_does_nothing_mv_skill_7() -> None:
    """MV-SKILL-7: no ready skill: nothing to exhaust, no decision, the next ops run."""
    r, g = new_game(2, start_player=0)
    to_move(r, g)
    g.maidens[0].skills = [SkillState(id="k_mp", exhausted=True)]
    g.maidens[1].skills = []
    dl = g.danger_level
    _run(r, g, [{"op": "exhaust_skill", "who": "all"}, {"op": "dl", "delta": 1}])
    assert not g.pending and g.danger_level == dl + 1


def test_exhaust_skill_for_all_asks_each_maiden_in_turn_mv_skill_7() -> None:
    r, g = new_game(2, start_player=0)
    to_move(r, g)
    for m in g.maidens:
        m.skills = [SkillState(id="k_mp")]
    _run(r, g, [{"op": "exhaust_skill", "who": "all"}])
    assert g.pending[0].seat == 0
    act(r, g, "choose", option=0)
    assert g.pending[0].seat == 1
    act(r, g, "choose", option=0)
    assert all(m.skills[0].exhausted for m in g.maidens) and not g.pending


def test_skill_level_raises_the_picked_owned_skill_mv_skill_10() -> None:
    """MV-SKILL-10: skill_level +1 on the owned skill her player picks (it then scales)."""
    r, g = new_game()
    to_move(r, g)
    g.maidens[0].skills = [SkillState(id="k_mp"), SkillState(id="k_ap")]
    _run(r, g, [{"op": "skill_level", "amount": 1}])
    assert g.pending[0].options == [{"level_skill": "k_mp"}, {"level_skill": "k_ap"}]
    events = act(r, g, "choose", option=1)
    assert [s.level for s in g.maidens[0].skills] == [0, 1]
    assert events[-1].kind == "skill.levelled"


def test_skill_level_without_skills_does_nothing_mv_skill_10() -> None:
    r, g = new_game()
    to_move(r, g)
    g.maidens[0].skills = []
    _run(r, g, [{"op": "skill_level", "amount": 1}])
    assert not g.pending


def test_boss_damage_choose_engaged_offers_only_engaged_living_bosses_mv_boss_8() -> None:
    """MV-BOSS-8: boss_damage with boss = choose_engaged is offered with each engaged, living boss
    as the ``boss`` param (none engaged: not offered); enough damage defeats it the normal way
    (the level-up of all follows)."""
    r, g = _arcana([{"op": "boss_damage", "boss": "choose_engaged", "amount": 2}])
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_arcana"]
    bosses.engage(ctx(r, g), g.maidens[0], "imp")
    imp = g.bosses["imp"]
    assert [c for c in r.legal_commands(g, 0) if c["kind"] == "use_arcana"] == [
        {"kind": "use_arcana", "area": "a1", "boss": "imp"}
    ]
    before = msgspec.json.encode(g)
    with pytest.raises(IllegalCommand):
        act(r, g, "use_arcana", area="a1", boss="warden")
    assert msgspec.json.encode(g) == before
    imp = g.bosses["imp"]  # a refused command restores the state (new objects)
    assert imp.life == 2
    events = act(r, g, "use_arcana", area="a1", boss="imp")
    assert imp.life == 0 and imp.defeated and g.sephirot == 1
    assert [e.kind for e in events if e.kind.startswith("boss.")] == ["boss.hit", "boss.defeated"]


def test_boss_damage_choose_engaged_in_a_quest_is_a_decision_mv_boss_3() -> None:
    r, g = new_game()
    to_move(r, g)
    c = ctx(r, g)
    bosses.engage(c, g.maidens[0], "imp")
    bosses.engage(c, g.maidens[0], "warden")
    _run(r, g, [{"op": "boss_damage", "boss": "choose_engaged", "amount": 1}])
    assert g.pending[0].options == [{"boss": "imp"}, {"boss": "warden"}]
    life = g.bosses["warden"].life
    act(r, g, "choose", option=1)
    assert g.bosses["warden"].life == life - 1


def test_boss_disable_action_the_pointer_skips_it_mv_boss_5() -> None:
    """MV-BOSS-5: a disabled action is skipped by the pointer; disabling the current action moves
    the pointer on; a boss always keeps one enabled action."""
    r, g = new_game()
    to_move(r, g)
    c = ctx(r, g)
    bosses.engage(c, g.maidens[0], "imp")
    imp = g.bosses["imp"]
    assert imp.pointer == 0
    _run(r, g, [{"op": "boss_disable_action", "boss": "imp"}])
    assert g.pending[0].options == [{"boss": "imp", "action": k} for k in range(3)]
    act(r, g, "choose", option=0)
    assert imp.disabled == [0] and imp.pointer == 1
    bosses.advance_pointer(c, "imp")
    bosses.advance_pointer(c, "imp")
    assert imp.pointer == 1  # 1 -> 2 -> (0 skipped) 1
    _run(r, g, [{"op": "boss_disable_action", "boss": "imp"}])
    assert g.pending[0].options == [{"boss": "imp", "action": 1}, {"boss": "imp", "action": 2}]
    act(r, g, "choose", option=1)
    _run(r, g, [{"op": "boss_disable_action", "boss": "imp"}])
    assert not g.pending and imp.disabled == [0, 2]


def test_boss_disable_action_choose_before_the_boss_awakes_mv_boss_5() -> None:
    """boss = choose: any living boss; a boss disabled before it is set up starts on its first
    enabled action (MV-SPEC-4)."""
    r, g = _arcana([{"op": "boss_disable_action", "boss": "choose"}])
    act(r, g, "use_arcana", area="a1")
    assert {o["boss"] for o in g.pending[0].options} == {"imp", "warden", "urza"}
    act(r, g, "choose", option=g.pending[0].options.index({"boss": "imp", "action": 0}))
    bosses.engage(ctx(r, g), g.maidens[0], "imp")
    assert g.bosses["imp"].pointer == 1


def test_room_type_choose_unexplored_offers_unexplored_rooms_without_boss_mv_expl_1() -> None:
    """room_type with room = choose_unexplored: an unexplored, non-boss room not already of
    that type; it becomes that type."""
    r, g = new_game()
    to_move(r, g)
    _run(r, g, [{"op": "room_type", "room": "choose_unexplored", "to": "rest"}])
    rooms = [o["room"] for o in g.pending[0].options]
    assert "a1_3" not in rooms and "s" not in rooms and not any(x.startswith("b_") for x in rooms)
    assert "a1_1" in rooms
    act(r, g, "choose", option=rooms.index("a1_1"))
    assert g.room_types["a1_1"] == "rest"
