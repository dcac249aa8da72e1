"""The passive area modifiers (contract MODS) applied by the flow while an area is not freed
(MV-EXPL-8: to maidens standing in its rooms and to checks made there)."""

from __future__ import annotations

from typing import Any

from delve.maiden import checks, decks, movement
from delve.maiden.state import SkillState
from tests.maiden.fixtures.content import CONTENT, Mods, with_mods
from tests.maiden.helpers import act, ctx, enter_room_check, new_game, roll, to_move


def _game(area: str = "a1", players: int = 1, **mods: Any):  # type: ignore[no-untyped-def]
    r, g = new_game(players, start_player=0, content=with_mods(CONTENT, area, **mods))
    to_move(r, g, wil=1)
    return r, g


def test_explored_pass_cost() -> None:
    r, g = _game(explored_pass_cost=1)
    g.explored.append("a1_1")
    assert "a1_2" not in movement.destinations(ctx(r, g), g.maidens[0])
    g.freed.append("a1")  # MV-EXPL-3: the effect ends with the area
    assert "a1_2" in movement.destinations(ctx(r, g), g.maidens[0])


def test_mp_delta_min_one() -> None:
    r, g = _game(mp_delta=-1)
    g.maidens[0].room = "a1_1"
    assert movement.movement_points(ctx(r, g), g.maidens[0]) == 1
    r2, g2 = _game(mp_delta=1)
    g2.maidens[0].room = "a1_1"
    assert movement.movement_points(ctx(r2, g2), g2.maidens[0]) == 2


def test_stop_at_first_unexplored() -> None:
    r, g = _game(stop_at_first_unexplored=True)
    g.turn.mp_bonus = 3
    dest = movement.destinations(ctx(r, g), g.maidens[0])
    assert "a1_1" in dest and "a1_2" not in dest


def test_one_maiden_per_room() -> None:
    r, g = _game(players=2, one_maiden_per_room=True)
    g.maidens[1].room = "a1_1"
    assert "a1_1" not in movement.destinations(ctx(r, g), g.maidens[0])


def test_difficulty_and_dl_and_failure_damage_deltas() -> None:
    r, g = _game(difficulty_delta=2, dl_delta=1, failure_damage_delta=1)
    enter_room_check(r, g, "r_zero")
    assert g.check is not None and g.check.target == 3
    roll(r, g, 1, 1, 2)
    g.check.target = 20
    act(r, g, "resolve")
    assert g.maidens[0].life == 6 - (1 + 1 + 1)


def test_failure_damage_unless_partner() -> None:
    r, g = _game(players=2, failure_damage_delta=2, failure_damage_unless_partner=True)
    g.maidens[1].room = "a1_2"
    enter_room_check(r, g, "r_zero")
    roll(r, g, 1, 1, 2)
    g.check.target = 20  # type: ignore[union-attr]
    act(r, g, "resolve")
    assert g.maidens[0].life == 5  # the partner in the area cancels the +2


def test_slate_per_die_delta_and_default_slate() -> None:
    r, g = _game(default_slate="black", slate_per_die_delta=1)
    enter_room_check(r, g, "r_zero")
    assert g.check is not None and g.check.slate == "black"
    roll(r, g, 6, 1, 5)
    act(r, g, "resolve")
    assert g.maidens[0].life == 6 - 2 * 2


def test_die_step_and_no_white_dice() -> None:
    r, g = _game(die_step=-1, no_white_dice=True)
    from tests.maiden.helpers import set_stats

    set_stats(g, 0, pie=2, wil=2)
    enter_room_check(r, g, "r_zero")
    roll(r, g)
    assert [(d.colour, d.size) for d in g.check.dice] == [("red", 6), ("blue", 6), ("black", 6)]  # type: ignore[union-attr]


def test_no_ascension_and_fixed_bonus() -> None:
    r, g = _game(no_ascension=True)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 3, 3, 4)
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "ascend"]
    r2, g2 = _game(ascension_bonus_fixed=1)
    from tests.maiden.helpers import set_stats

    set_stats(g2, 0, pie=3)
    enter_room_check(r2, g2, "r_zero")
    roll(r2, g2)
    assert checks.bonus(ctx(r2, g2), g2.maidens[0]) == 1


def test_reroll_highest_is_automatic_and_shown() -> None:
    r, g = _game(reroll_highest=True)
    enter_room_check(r, g, "r_zero")
    events = act(r, g, "roll")
    assert g.check is not None and g.check.rerolled_highest
    assert any(e.kind == "check.rerolled" for e in events)


def test_skills_always_exhaust() -> None:
    r, g = _game(skills_always_exhaust=True)
    m = g.maidens[0]
    m.room = "a1_1"
    m.skills = [SkillState(id="k_heal")]
    m.stats["pie"] = ["P"]
    act(r, g, "use_skill", skill="k_heal")
    assert m.skills[0].exhausted


def test_ins_draws_disabled_and_blind_draw() -> None:
    r, g = _game(ins_draws_disabled=True)
    from tests.maiden.helpers import set_stats

    set_stats(g, 0, ins=2)
    g.maidens[0].room = "a1_1"
    assert decks.draw_count(ctx(r, g), g.maidens[0], "action") == 1
    r2, g2 = _game(blind_draw=True)
    set_stats(g2, 0, ins=2)
    g2.maidens[0].room = "a1_1"
    assert decks.draw_count(ctx(r2, g2), g2.maidens[0], "room") == 1
    assert decks.draw_count(ctx(r2, g2), g2.maidens[0], "skill") == 3


def test_rest_heal_cap_and_no_refresh() -> None:
    r, g = _game(rest_heal_cap=3, rest_no_refresh=True)
    g.explored += ["a1_1"]
    m = g.maidens[0]
    m.life = 1
    m.skills[0].exhausted = True
    g.turn.mp_bonus = 1
    act(r, g, "move", to="a1_3")  # a1_2 stays unexplored: the area is not freed
    assert m.life == 3 and m.skills[0].exhausted


def test_failure_exhausts_skill_asks_which() -> None:
    r, g = _game(failure_exhausts_skill=True)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 1, 1, 2)
    g.check.target = 20  # type: ignore[union-attr]
    act(r, g, "resolve")
    assert g.pending[0].kind == "choose" and g.pending[0].data["for"] == "exhaust"
    act(r, g, "choose", option=0)
    assert g.maidens[0].skills[0].exhausted


def test_boss_action_mods_apply_only_to_its_check() -> None:
    """Contract: a boss action's mods change only the check made against that action."""
    import msgspec

    bosses = dict(CONTENT.bosses)
    imp = bosses["imp"]
    first = msgspec.structs.replace(imp.actions[0], mods=Mods(difficulty_delta=2, no_ascension=True))
    bosses["imp"] = msgspec.structs.replace(imp, actions=(first, *imp.actions[1:]))
    r, g = new_game(content=msgspec.structs.replace(CONTENT, bosses=bosses))
    to_move(r, g, wil=1)
    act(r, g, "move", to="b_imp")
    assert g.check is not None and g.check.target == 1 + 0 + 2
    roll(r, g, 3, 3, 4)
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "ascend"]
    act(r, g, "resolve")
    if g.step == "pre_roll":  # her next turn, against the middle action: no extra mods
        assert g.check is not None and g.check.action == 1 and g.check.target == 1 + 1


def test_valued_mods_combine_by_smallest() -> None:
    """Contract "Combining MODS": rest_heal_cap and ascension_bonus_fixed take the smallest value;
    integers add up (area + ongoing quest)."""
    import msgspec

    from delve.maiden import board

    quests = dict(CONTENT.quests)
    quests["q_shrine"] = msgspec.structs.replace(quests["q_shrine"], mods=Mods(rest_heal_cap=2, difficulty_delta=1))
    content = msgspec.structs.replace(with_mods(CONTENT, "a1", rest_heal_cap=4, difficulty_delta=2), quests=quests)
    r, g = new_game(content=content)
    to_move(r, g)
    g.quest_area.append("q_shrine")
    g.decks.quest.remove("q_shrine")
    c = ctx(r, g)
    assert board.mod_value(c, "a1_3", "rest_heal_cap") == 2
    assert board.mod_sum(c, "a1_3", "difficulty_delta") == 3
    assert board.mod_sum(c, "a2_1", "difficulty_delta") == 1  # quest mods are global
