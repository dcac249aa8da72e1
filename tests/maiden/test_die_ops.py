"""The post_roll die ops of skills and Arcana (MV-ASC-8: after the roll, dice change only through
skills and Arcana; MV-SKILL-9: in the post_roll window): die_adjust, reroll, set_die,
swap_colours, near_pair. Their pick is a command param (each legal pick is offered by
``legal_commands``) or, when an op list has a second pick, a ``choose`` decision."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from delve.kernel import IllegalCommand
from delve.maiden import checks, effects
from delve.maiden.state import SkillState
from tests.maiden.fixtures.content import CONTENT, Skill, text
from tests.maiden.helpers import act, ctx, enter_room_check, new_game, roll, to_move


def _game(ops: list[dict[str, Any]], card: str = "r_zero", *, arcana: bool = False, **settings: Any):  # type: ignore[no-untyped-def]
    """A 1-player game with a post_roll skill (or the Arcana of area a1) running ``ops``, in the
    post_roll window of a check on ``card``; Wil 1 (d6), Pie 0: red, blue, black."""
    skills = dict(CONTENT.skills)
    skills["k_test"] = Skill("k_test", text("Test"), text("test"), (), "post_roll", tuple(ops), deck=False)
    areas = dict(CONTENT.areas)
    areas["a1"] = msgspec.structs.replace(areas["a1"], arcana=tuple(ops), arcana_timing="post_roll")
    content = msgspec.structs.replace(CONTENT, skills=skills, areas=areas)
    r, g = new_game(content=content, **settings)
    to_move(r, g, wil=1)
    if arcana:
        g.arcana = ["a1"]
    else:
        g.maidens[0].skills = [SkillState(id="k_test")]
    enter_room_check(r, g, card)
    return r, g


def _uses(r, g) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    return [c for c in r.legal_commands(g, 0) if c["kind"] in ("use_skill", "use_arcana")]


def _faces(g) -> list[int | None]:  # type: ignore[no-untyped-def]
    return [d.face for d in g.check.dice]


def test_die_ops_are_not_offered_before_the_roll_mv_skill_9() -> None:
    """MV-SKILL-9: a post_roll die op has no pick before the roll (pre_roll window)."""
    r, g = _game([{"op": "set_die"}])
    assert g.step == "pre_roll" and not _uses(r, g)
    assert effects.param_options(ctx(r, g), [{"op": "set_die"}], g.maidens[0]) == []


def test_die_adjust_offers_each_resulting_face_clamped_mv_asc_8() -> None:
    """MV-ASC-8: die_adjust ±1 on one remaining die, within 1..size: each legal face is a param
    set (a 6 on d6 can only go down, a 1 only up)."""
    r, g = _game([{"op": "die_adjust", "amount": 1}])
    roll(r, g, 6, 1, 3)
    offered = {(c["die"], c["face"]) for c in _uses(r, g)}
    assert offered == {(0, 5), (1, 2), (2, 2), (2, 4)}
    events = act(r, g, "use_skill", skill="k_test", die=2, face=4)
    assert _faces(g) == [6, 1, 4]
    assert [e.data for e in events if e.kind == "check.die_changed"] == [
        {"seat": 0, "die": 2, "before": 3, "face": 4, "op": "die_adjust"}
    ]


def test_die_adjust_refuses_a_face_out_of_reach_and_changes_nothing_mv_asc_8() -> None:
    """MV-ASC-8: a face the op cannot reach (or beyond the die) is refused; nothing changes."""
    r, g = _game([{"op": "die_adjust", "amount": 1}])
    roll(r, g, 6, 1, 3)
    before = msgspec.json.encode(g)
    for bad in ({"die": 2, "face": 6}, {"die": 0, "face": 7}, {"die": 5, "face": 2}):
        with pytest.raises(IllegalCommand):
            act(r, g, "use_skill", skill="k_test", **bad)
    assert msgspec.json.encode(g) == before


def test_die_adjust_scales_with_the_skill_level_mv_skill_10() -> None:
    """MV-SKILL-10: ``amount`` grows with the level (scale 1, level 1: ±2)."""
    skills = dict(CONTENT.skills)
    skills["k_adj"] = Skill("k_adj", text("A"), text("a"), (), "post_roll", ({"op": "die_adjust", "amount": 1},), 1)
    r, g = new_game(content=msgspec.structs.replace(CONTENT, skills=skills))
    to_move(r, g, wil=1)
    g.maidens[0].skills = [SkillState(id="k_adj", level=1)]
    enter_room_check(r, g, "r_zero")
    roll(r, g, 3, 3, 3)
    assert {c["face"] for c in _uses(r, g) if c["die"] == 0} == {1, 5}


def test_set_die_turns_one_die_to_any_face_and_wins_the_check_mv_asc_8() -> None:
    """MV-ASC-8: set_die puts one chosen die on any other face; AP follows (MV-CHECK-8)."""
    r, g = _game([{"op": "set_die"}], card="r_one")
    roll(r, g, 1, 1, 2)
    assert len(_uses(r, g)) == 3 * 5
    act(r, g, "use_skill", skill="k_test", die=1, face=6)
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 6


def test_reroll_count_offers_sets_of_that_size_and_rolls_them_mv_asc_8() -> None:
    """MV-ASC-8: reroll count 1 offers each single remaining die; the chosen die is rolled again
    with the game's seeded RNG and the new face is public."""
    r, g = _game([{"op": "reroll", "count": 1}])
    roll(r, g, 2, 2, 2)
    assert sorted(c["dice"] for c in _uses(r, g)) == [[0], [1], [2]]
    events = act(r, g, "use_skill", skill="k_test", dice=[1])
    rerolled = [e.data for e in events if e.kind == "check.rerolled"]
    assert rerolled == [{"seat": 0, "dice": [1], "faces": [g.check.dice[1].face]}]
    assert g.check.dice[0].face == g.check.dice[2].face == 2


def test_reroll_any_offers_every_non_empty_set_of_remaining_dice_mv_asc_8() -> None:
    """MV-ASC-8: reroll "any" (Turn of Fate): every non-empty set of the remaining dice; dice
    removed by ascension are not rerolled."""
    r, g = _game([{"op": "reroll", "count": "any"}], arcana=True)
    roll(r, g, 4, 4, 1)
    assert len(_uses(r, g)) == 7
    g.check.dice[0].removed = g.check.dice[1].removed = True
    assert [c["dice"] for c in _uses(r, g)] == [[2]]


def test_swap_colours_moves_the_slate_to_another_die_mv_slate_2_mv_asc_8() -> None:
    """MV-SLATE-2, MV-ASC-8: the slate die is the die of the slate colour, so swapping the red
    die's colour with the blue one makes the blue die's face the AP."""
    r, g = _game([{"op": "swap_colours"}], card="r_red")
    roll(r, g, 1, 6, 2)
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 1
    assert {tuple(c["dice"]) for c in _uses(r, g)} == {(0, 1), (0, 2), (1, 2)}
    events = act(r, g, "use_skill", skill="k_test", dice=[0, 1])
    assert [d.colour for d in g.check.dice] == ["blue", "red", "black"]
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 6
    assert any(e.kind == "check.colours_swapped" for e in events)


def test_near_pair_ascends_two_dice_one_apart_mv_asc_1_mv_asc_8() -> None:
    """MV-ASC-1, MV-ASC-8: near_pair removes two remaining dice whose faces differ by 1 and
    adds one ascension bonus (1 + Pie = 1 here)."""
    r, g = _game([{"op": "near_pair"}])
    roll(r, g, 3, 4, 6)
    assert [c["dice"] for c in _uses(r, g)] == [[0, 1]]
    act(r, g, "use_skill", skill="k_test", dice=[0, 1])
    assert g.check.ascensions == 1 and g.check.dice[0].removed and g.check.dice[1].removed
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 7


def test_near_pair_keeps_the_ascension_limits_mv_asc_3_mv_asc_6() -> None:
    """MV-ASC-6: never the slate die, and without a slate one die must remain; MV-ASC-3: only
    remaining dice. No legal pair: the skill is not offered."""
    r, g = _game([{"op": "near_pair"}], card="r_red")
    roll(r, g, 3, 4, 5)
    assert [c["dice"] for c in _uses(r, g)] == [[1, 2]]
    r, g = _game([{"op": "near_pair"}])
    roll(r, g, 3, 4, 1)
    g.check.dice[2].removed = True
    assert _uses(r, g) == []


def test_two_picks_in_one_arcana_the_second_is_a_choose_decision_mv_asc_8() -> None:
    """MV-ASC-8: an Arcana with swap_colours then near_pair: the swap is the command's pick,
    the near pair is chosen afterwards by a choose decision (the first pick is not reused)."""
    r, g = _game([{"op": "swap_colours"}, {"op": "near_pair"}], card="r_red", arcana=True)
    roll(r, g, 3, 4, 6)
    act(r, g, "use_arcana", area="a1", dice=[0, 2])  # the red slate moves to the 6
    decision = g.pending[0]
    assert decision.kind == "choose" and decision.options == [{"dice": [0, 1]}]
    assert r.legal_commands(g, 0) == [{"kind": "choose", "option": 0}]
    act(r, g, "choose", option=0)
    assert not g.pending and g.check.ascensions == 1
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 6 + 1


def test_an_automatic_die_op_without_a_pick_does_nothing_and_says_so() -> None:
    """An automatic effect (event) whose op has nothing legal to pick is reported, not applied."""
    r, g = _game([{"op": "near_pair"}])
    roll(r, g, 1, 3, 5)
    before = _faces(g)
    c = ctx(r, g)
    effects.run(c, [{"op": "near_pair"}], "room:r_zero", {}, actor=g.maidens[0], strict=False)
    assert _faces(g) == before and not g.pending and g.check.ascensions == 0


def test_the_view_after_a_near_pair_has_no_odds_suggestion_mv_asc_9() -> None:
    """MV-ASC-9: the suggested plan assumes pairs of equal faces; after a near pair it is
    withheld (None) rather than wrong, and the view still builds."""
    r, g = _game([{"op": "near_pair"}])
    roll(r, g, 3, 4, 6)
    assert r.view(g, 0)["check"]["suggestion"] is not None
    act(r, g, "use_skill", skill="k_test", dice=[0, 1])
    assert r.view(g, 0)["check"]["suggestion"] is None
