"""Entering, exploring, freeing areas, Arcana (MV-EXPL-1, MV-EXPL-2, MV-EXPL-3, MV-EXPL-4,
MV-EXPL-5, MV-EXPL-6, MV-EXPL-7, MV-EXPL-8) and special rooms (MV-SPEC-1, MV-SPEC-2, MV-SPEC-3,
MV-SPEC-4, MV-SPEC-5, MV-SPEC-6, MV-SPEC-7, MV-SPEC-8, MV-SPEC-9)."""

from __future__ import annotations

import pytest

from delve.kernel import IllegalCommand
from tests.maiden.fixtures.content import CONTENT, with_mods
from tests.maiden.helpers import act, enter_room_check, new_game, roll, to_move, waiting


def test_entering_places_a_marker_once_mv_expl_1_mv_move_5() -> None:
    """MV-EXPL-1, MV-MOVE-5: the entered room gets its exploration marker; a boss room already
    explored gets no second one."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0, wil=0)
    act(r, g, "move", to="b_imp")
    assert g.explored.count("b_imp") == 1


def test_area_freed_when_all_non_boss_rooms_explored_mv_expl_2_mv_expl_3_mv_expl_4() -> None:
    """MV-EXPL-2, MV-EXPL-3: exploring the last non-boss room of an area frees it: the card becomes an
    Arcana in the pool and its effect ends; MV-EXPL-4: any seat may use it, then it is gone."""
    content = with_mods(CONTENT, "a1", difficulty_delta=5)
    r, g = new_game(2, start_player=0, content=content)
    to_move(r, g, agi=0, ins=0, wil=1)
    g.explored += ["a1_2", "a1_3"]
    assert "a1" not in g.freed
    events = enter_room_check(r, g, "r_zero")
    assert g.freed == ["a1"] and g.arcana == ["a1"]
    assert g.check is not None and g.check.target == 1  # difficulty_delta ended with the area (MV-EXPL-3)
    kinds = [e.kind for e in events]
    assert kinds.index("area.freed") < kinds.index("check.started")  # MV-EXPL-6: then the room's effect


def test_arcana_used_by_any_seat_for_the_active_maiden_mv_expl_4_mv_expl_5() -> None:
    """MV-EXPL-4, MV-EXPL-5: another seat uses the Arcana; it applies to the active maiden; discarded."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, agi=0, ins=0, wil=1)
    g.arcana.append("a1")  # +3 MP, movement timing
    assert {"kind": "use_arcana", "area": "a1"} in r.legal_commands(g, 1)
    r.apply(g, 1, {"kind": "use_arcana", "area": "a1"}, g.clock)
    assert g.turn.mp_bonus == 3 and g.arcana == [] and g.arcana_used == ["a1"]
    with pytest.raises(IllegalCommand):
        r.apply(g, 1, {"kind": "use_arcana", "area": "a1"}, g.clock)


def test_arcana_timing_window_mv_expl_5() -> None:
    """MV-EXPL-5: an Arcana is usable only in the windows its timing names (a2: post_roll)."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0, wil=1)
    g.arcana.append("a2")
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_arcana"]
    enter_room_check(r, g, "r_zero")
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_arcana"]
    roll(r, g)
    assert {"kind": "use_arcana", "area": "a2"} in r.legal_commands(g, 0)


def test_exploration_is_permanent_mv_expl_7_mv_check_11() -> None:
    """MV-EXPL-7, MV-CHECK-11: a failed check never removes the marker."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0, wil=0)
    g.action_markers = 12
    enter_room_check(r, g, "r_one")
    roll(r, g, 1, 1, 2)
    act(r, g, "resolve")
    assert "a1_1" in g.explored


def test_area_effect_scope_mv_expl_8() -> None:
    """MV-EXPL-8: an area effect applies to checks made in that area's rooms only."""
    content = with_mods(CONTENT, "a2", difficulty_delta=3)
    r, g = new_game(content=content)
    to_move(r, g, agi=0, ins=0, wil=1)
    enter_room_check(r, g, "r_zero")  # a1_1: not in a2
    assert g.check is not None and g.check.target == 1


def test_rest_room_heals_refreshes_and_skips_mv_spec_1_mv_spec_7_mv_check_1() -> None:
    """MV-SPEC-1: a rest room heals to the maximum, readies every exhausted skill and skips the
    room phase (MV-CHECK-1, OQ-32); MV-SPEC-7: only the maiden who enters."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, agi=0, ins=0, wil=1)
    g.explored += ["a1_1", "a1_2"]
    a, b = g.maidens
    a.life, b.life = 2, 3
    a.skills[0].exhausted = True
    b.skills[0].exhausted = True
    events = act(r, g, "move", to="a1_3")
    assert a.life == 6 and not a.skills[0].exhausted
    assert b.life == 3 and b.skills[0].exhausted
    assert not any(e.kind == "check.started" for e in events)


def test_danger_room_raises_dl_then_checks_mv_spec_2_mv_spec_9() -> None:
    """MV-SPEC-2: DL +1 on entry, then the room phase with the new DL; MV-SPEC-9: uncapped."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0, wil=1)
    g.explored.append("a2_1")
    g.danger_level = 9
    events = act(r, g, "move", to="a2_2")
    assert g.danger_level == 10
    assert any(e.kind == "check.started" for e in events) or g.pending


def test_quest_room_draws_a_quest_then_checks_mv_spec_3_mv_quest_2() -> None:
    """MV-SPEC-3, MV-QUEST-2: a quest is drawn (Ins applies), placed, resolved; then the check."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0, wil=1)
    g.decks.quest.remove("q_pilgrim")
    g.decks.quest.append("q_pilgrim")
    g.maidens[0].life = 4
    act(r, g, "move", to="a2_1")
    assert g.maidens[0].life == 5  # its immediate effect: heal 1 (CHG-15)
    assert "q_pilgrim" in g.decks.quest_discard
    assert g.step == "pre_roll" or (g.pending and g.pending[0].data["deck"] == "room")


def test_boss_room_engagement_setup_once_mv_spec_4_mv_spec_6() -> None:
    """MV-SPEC-4: the first entry sets the boss up (life, pointer on top); a later entry skips
    the setup; MV-SPEC-6: no room card is drawn in a boss room."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, agi=0, ins=0, wil=0)
    room_deck = len(g.decks.room)
    act(r, g, "move", to="b_imp")
    boss = g.bosses["imp"]
    assert boss.engaged and boss.life == 2 + 1 and boss.pointer == 0  # 2 players: +ceil(2/3)
    assert len(g.decks.room) == room_deck
    boss.life = 2
    boss.pointer = 1
    act(r, g, "roll")
    act(r, g, "resolve")
    while waiting(g) != 1 or g.step != "move":
        act(
            r,
            g,
            r.legal_commands(g, waiting(g))[0]["kind"],
            **{k: v for k, v in r.legal_commands(g, waiting(g))[0].items() if k != "kind"},
        )
    if not boss.defeated:
        before = (boss.life, boss.pointer)
        act(r, g, "move", to="b_imp")
        assert (boss.life, boss.pointer) == before


def test_normal_room_has_no_entry_effect_mv_spec_8() -> None:
    r, g = new_game()
    to_move(r, g, agi=0, ins=0, wil=1)
    before = (g.danger_level, g.maidens[0].life)
    events = act(r, g, "move", to="a1_1")
    assert (g.danger_level, g.maidens[0].life) == before
    assert [e.kind for e in events if e.kind.startswith(("danger", "maiden.healed", "quest"))] == []
