"""Movement (MV-MOVE-1, MV-MOVE-2, MV-MOVE-3, MV-MOVE-4, MV-MOVE-5, MV-MOVE-6, MV-MOVE-7,
MV-MOVE-8, MV-MOVE-9, MV-MOVE-10, MV-MOVE-11, MV-MOVE-12, MV-MOVE-13, MV-MOVE-14) and Appendix B
fixture 8."""

from __future__ import annotations

import pytest

from delve.kernel import IllegalCommand
from delve.maiden import movement
from tests.maiden.helpers import act, ctx, new_game, set_stats, to_move


def _dest(r, g, seat=0):  # type: ignore[no-untyped-def]
    return movement.destinations(ctx(r, g), g.maidens[seat])


def test_agi_zero_one_mp_fixture_8_mv_move_1_mv_move_3() -> None:
    """Fixture 8, MV-MOVE-1, MV-MOVE-3: Agi 0 gives 1 MP; unexplored rooms cost 1; from S the adjacent
    unexplored rooms and the boss alcove are the destinations."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0)
    assert movement.movement_points(ctx(r, g), g.maidens[0]) == 1
    assert _dest(r, g) == ["a1_1", "a2_1", "b_imp"]


def test_explored_rooms_are_free_to_cross_fixture_8_mv_move_2_mv_move_6() -> None:
    """Fixture 8, MV-MOVE-2, MV-MOVE-3, MV-MOVE-6: any number of explored rooms crossed for 0 MP, an adjacent
    unexplored room entered; never stopping in an explored non-boss room."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0)
    g.explored += ["a1_1", "a1_2"]
    dest = _dest(r, g)
    assert "a1_3" in dest and "a1_1" not in dest and "a1_2" not in dest and "s" not in dest


def test_stop_short_and_pass_unexplored_mv_move_4_mv_move_7() -> None:
    """MV-MOVE-4: she need not spend all MP; MV-MOVE-7: passing an unexplored room costs 1 and
    leaves it unexplored."""
    r, g = new_game()
    to_move(r, g, agi=1, ins=0)
    dest = _dest(r, g)
    assert "a1_1" in dest and "a1_2" in dest
    act(r, g, "move", to="a1_2")
    assert "a1_1" not in g.explored and "a1_2" in g.explored


def test_entered_room_and_others_do_not_block_mv_move_5_mv_move_8() -> None:
    """MV-MOVE-5: the room where she stops is entered; MV-MOVE-8: maidens never block."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, agi=1, ins=0)
    g.maidens[1].room = "a1_1"
    assert "a1_1" in _dest(r, g) and "a1_2" in _dest(r, g)


def test_boss_rooms_enterable_even_explored_and_passable_mv_move_6_mv_move_9() -> None:
    """MV-MOVE-6: a living boss's room is a destination even when explored; MV-MOVE-9: boss
    rooms do not block passage (explored: 0 MP)."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0)
    g.explored += ["a1_1", "a1_2", "a1_3", "b_warden"]
    dest = _dest(r, g)
    assert "b_warden" in dest and "a3_1" in dest


def test_boss_rooms_block_passage_toggle_oq_7_mv_move_9() -> None:
    """``boss_rooms_block_passage`` on: a living boss's room is a destination, not a passage."""
    r, g = new_game(boss_rooms_block_passage=True)
    to_move(r, g, agi=0, ins=0)
    g.explored += ["a1_1", "a1_2", "a1_3", "b_warden"]
    dest = _dest(r, g)
    assert "b_warden" in dest and "a3_1" not in dest
    g.bosses["warden"].defeated = True
    assert "a3_1" in _dest(r, g)


def test_defeated_boss_room_is_not_a_destination_mv_move_6_mv_boss_9() -> None:
    r, g = new_game()
    to_move(r, g, agi=0, ins=0)
    g.explored.append("b_imp")
    g.bosses["imp"].defeated = True
    assert "b_imp" not in _dest(r, g)


def test_start_square_explored_never_destination_mv_move_10() -> None:
    """MV-MOVE-10, OQ-8: S is explored (crossed for free) and never a destination."""
    r, g = new_game()
    to_move(r, g, agi=2, ins=0)
    g.maidens[0].room = "a1_1"
    g.explored.append("a1_1")
    assert "s" not in _dest(r, g) and "a2_1" in _dest(r, g)  # crossed S for free


def test_no_destination_stay_and_skip_room_phase_mv_move_11() -> None:
    """MV-MOVE-11: only ``stay`` is offered; she enters nothing and skips the room phase."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0)
    g.explored += ["a1_1", "a1_2", "a1_3", "a2_1", "a2_2", "a3_1", "b_imp", "b_warden", "b_urza"]
    for boss in g.bosses.values():
        boss.defeated = True
    assert [c["kind"] for c in r.legal_commands(g, 0) if c["kind"] in {"move", "stay"}] == ["stay"]
    events = act(r, g, "stay")
    assert not any(e.kind == "check.started" for e in events)
    with pytest.raises(IllegalCommand):
        act(r, g, "move", to="s")


def test_stay_refused_when_a_destination_exists_mv_move_11() -> None:
    r, g = new_game()
    to_move(r, g, agi=0, ins=0)
    with pytest.raises(IllegalCommand) as err:
        act(r, g, "stay")
    assert err.value.code == "command/must_move"


def test_boss_fight_no_movement_mv_move_12_mv_turn_2_mv_spec_5() -> None:
    """MV-MOVE-12, MV-TURN-2, MV-SPEC-5: an engaged maiden has no movement step."""
    r, g = new_game()
    to_move(r, g, agi=0, ins=0, wil=4)
    act(r, g, "move", to="b_imp")
    assert g.maidens[0].boss == "imp" and g.step == "pre_roll"
    act(r, g, "roll")
    act(r, g, "resolve")
    if g.maidens[0].boss == "imp" and not g.ended:
        assert g.step == "pre_roll"  # her next turn went straight to the boss fight
        assert _dest(r, g) == []


def test_hidden_passage_needs_ins_or_reveal_mv_move_13_sug_10() -> None:
    """MV-MOVE-13 (default: no passage is usable without Ins), SUG-10: a passage is usable with
    Ins >= min_ins, and revealed to everyone once used."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, agi=0, ins=0)
    g.explored.append("a1_1")
    assert "a3_1" not in _dest(r, g)
    set_stats(g, 0, ins=2)
    assert "a3_1" in _dest(r, g)
    act(r, g, "move", to="a3_1")
    assert g.revealed_passages == ["hid"]
    other = g.maidens[1]
    other.room = "a1_1"
    assert "a3_1" in movement.routes(ctx(r, g), other)


def test_entry_restrictions_default_off_and_walls_when_on_mv_move_14_chg_16() -> None:
    """MV-MOVE-14: no entry restrictions by default; CHG-16 ``entry_restrictions``: a room needing
    JJ is a wall (for passing too) unless the top symbols hold JJ."""
    r, g = new_game()
    to_move(r, g, agi=1, ins=0)
    assert "a1_2" in _dest(r, g)
    r2, g2 = new_game(difficulty="normal", entry_restrictions=True)
    to_move(r2, g2, agi=0, ins=0)
    set_stats(g2, 0, agi=2)
    g2.explored.append("a1_1")
    assert "a1_2" not in _dest(r2, g2) and "a1_3" not in _dest(r2, g2)
    m = g2.maidens[0]
    m.stats["pie"] = ["J"]
    m.stats["wil"] = ["J"]
    g2.decks.action.remove("J")
    g2.decks.action.remove("J")
    assert "a1_2" in _dest(r2, g2)


def test_plain_ways_are_the_content_edges_made_once_per_content_and_edges() -> None:
    """``routes`` takes each room's ways by the content's edges from pairs made once per content
    and edges (not a generator per room visited): the pairs are the edges in their order, the
    same mapping is handed out again for the same edges, and other edges (a context that built
    its own) get their own pairs."""
    r, g = new_game(1)
    c = ctx(r, g)
    base = c.edges()
    pairs = movement._plain_ways(r.content, base)
    assert pairs == {room: tuple((nxt, "") for nxt in rooms) for room, rooms in base.items()}
    assert movement._plain_ways(r.content, base) is pairs
    other = {room: list(rooms)[::-1] for room, rooms in base.items()}
    again = movement._plain_ways(r.content, other)
    assert again is not pairs
    assert again == {room: tuple((nxt, "") for nxt in rooms) for room, rooms in other.items()}
