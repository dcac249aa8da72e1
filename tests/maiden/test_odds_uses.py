"""Exact odds of skills and Arcana that change a rolled check beyond one die (delve.maiden.odds):
rerolling several dice (SUG-7 "+1 die per level", SUG-3 A11 Wheel of Fortune), swapping two dice's
colours (SUG-7, A13) and ascending a near pair (SUG-7, A13), each followed by the best ascensions
(MV-ASC-9). Every number is checked against brute force: every roll of the rerolled dice, each
scored by trying every legal set of disjoint equal pairs (MV-ASC-1..6), AP from the slate die or
the highest remaining die (MV-CHECK-8, MV-SLATE-2), slate damage per remaining non-slate die
beyond Agi (MV-SLATE-4..6)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from delve.maiden.odds import (
    OddsError,
    Variant,
    best_plan,
    near_pair_plan,
    reroll_dice_odds,
    reroll_odds,
    swap_colours_plan,
)

POOL = ("red", "blue", "black")


def outcomes(faces, colours, *, slate, bonus, agi, removed=(), ap_bonus=0, per_die=1):
    """(AP, slate damage) of every legal set of pairs, trying them all."""
    slate_index = colours.index(slate) if slate else None
    done = len(removed) // 2
    out = []

    def walk(left, pairs):
        base = faces[slate_index] if slate_index is not None else max(faces[i] for i in left)
        others = sum(1 for i in left if i != slate_index)
        damage = max(0, others - agi) * per_die if slate_index is not None else 0
        out.append((base + bonus * (pairs + done) + ap_bonus, damage))
        for a, b in itertools.combinations(left, 2):
            if slate_index in (a, b) or faces[a] != faces[b]:
                continue
            rest = [i for i in left if i not in (a, b)]
            if rest:
                walk(rest, pairs + 1)

    walk([i for i in range(len(faces)) if i not in removed], 0)
    return out


def brute(faces, chosen, *, size, slate=None, bonus=1, target, agi=0, dl=1, removed=(), ap_bonus=0):
    """P(success) and expected total damage after rerolling ``chosen``, over every roll."""
    colours = [*POOL, *["white"] * (len(faces) - 3)]
    hits, paid, rolls = 0, 0, 0
    for roll in itertools.product(range(1, size + 1), repeat=len(chosen)):
        now = list(faces)
        for i, face in zip(chosen, roll, strict=True):
            now[i] = face
        ap, damage = max(
            outcomes(now, colours, slate=slate, bonus=bonus, agi=agi, removed=removed, ap_bonus=ap_bonus),
            key=lambda o: (o[0], -o[1]),
        )
        rolls += 1
        hits += ap >= target
        paid += damage + (0 if ap >= target else dl)
    return Fraction(hits, rolls), Fraction(paid, rolls)


@pytest.mark.parametrize(
    ("faces", "chosen", "slate", "target", "removed"),
    [
        ([2, 5, 3], (0, 2), None, 6, ()),
        ([2, 5, 3, 1], (0, 1, 3), None, 7, ()),
        ([1, 4, 4, 2], (0, 3), "red", 5, ()),  # the slate die rerolled with another
        ([6, 2, 3, 3], (1, 2), "red", 8, ()),  # not the slate die
        ([3, 3, 6, 1, 2], (2, 4), None, 8, (0, 1)),  # a pair already ascended
        ([4, 4, 1, 2, 6], (0, 1, 2, 3, 4), "black", 4, ()),  # every die
    ],
)
def test_rerolling_several_dice_equals_brute_force_over_every_roll(faces, chosen, slate, target, removed):
    """SUG-7 Quick Hands at level 1+ and SUG-3 A11 (reroll any number), then MV-ASC-9."""
    result = reroll_dice_odds(
        faces, chosen, 0, size=6, slate=slate, target=target, agi=1, danger_level=2, removed=removed
    )
    p, paid = brute(faces, chosen, size=6, slate=slate, target=target, agi=1, dl=2, removed=removed)
    assert result.p_success == p
    assert result.damage is not None and result.damage.mean() == paid
    assert result.indices == tuple(chosen) and result.index == chosen[0]
    assert result.keep == best_plan(faces, 0, slate=slate, target=target, agi=1, danger_level=2, removed=removed)


def test_rerolling_several_dice_equals_brute_force_on_random_pools():
    """MV-ASC-9 with every bonus rule (MV-ASC-1, CHG-11: a bonus of 0 too), AP bonuses of skills
    (MV-CHECK-8), slates and Agi: 150 random pools, d4 to d8."""
    rng = random.Random(7)
    for _ in range(150):
        size = rng.choice((4, 6, 8))
        n = rng.randint(3, 5)
        faces = [rng.randint(1, size) for _ in range(n)]
        slate = rng.choice((None, "red", "blue", "black"))
        chosen = tuple(sorted(rng.sample(range(n), rng.randint(1, min(3, n)))))
        pie, rule = rng.randint(0, 2), rng.choice(("one_plus_pie", "pie"))
        bonus = pie + 1 if rule == "one_plus_pie" else pie
        target, agi, extra = rng.randint(1, size + 6), rng.randint(0, 2), rng.randint(0, 2)
        result = reroll_dice_odds(
            faces,
            chosen,
            pie,
            size=size,
            slate=slate,
            target=target,
            agi=agi,
            variant=Variant(ascension_bonus=rule),
            ap_bonus=extra,
        )
        p, paid = brute(faces, chosen, size=size, slate=slate, bonus=bonus, target=target, agi=agi, ap_bonus=extra)
        assert (result.p_success, result.damage.mean()) == (p, paid), (faces, chosen, slate, pie, rule)


def test_rerolling_one_die_this_way_is_the_one_die_reroll():
    """SUG-7 Quick Hands at level 0: the same model, the same numbers as reroll_odds."""
    roll = [("red", 5), ("blue", 5), ("black", 2), ("white", 2)]
    for die in range(4):
        assert reroll_dice_odds(roll, [die], 1, size=6, slate="red", target=7, agi=1) == reroll_odds(
            roll, die, 1, size=6, slate="red", target=7, agi=1
        )


def test_dice_carrying_bonuses_are_scored_roll_by_roll_and_refused_beyond_the_limit():
    """CHG-12 (multi_die_checks: bonuses on chosen dice) and CHG-17 (boost points on dice): every
    roll is scored by the best plan, which for one scoring die is the brute force's AP plus the
    points; beyond 20,000 rolls the question is refused, naming ``indices``."""
    dice = [("red", 2, 1), ("blue", 5), ("black", 3)]  # one point already on the red die
    result = reroll_dice_odds(dice, [1, 2], 0, size=6, target=6, variant=Variant(pie_mode="boost"), points=0)
    hits = 0
    for b, c in itertools.product(range(1, 7), repeat=2):
        hits += best_plan([("red", 2, 1), ("blue", b), ("black", c)], 0, target=6, points=0).success
    assert result.p_success == Fraction(hits, 36)
    with pytest.raises(OddsError) as err:
        reroll_dice_odds([("red", 2, 1), 5, 3, 4], [0, 1, 2, 3], 0, size=20, target=6, points=0)
    assert err.value.argument == "indices"


@pytest.mark.parametrize(("indices", "removed"), [((), ()), ((1, 1), ()), ((0, 5), ()), ((0, 2), (0, 1))])
def test_a_reroll_of_dice_not_on_the_table_is_refused(indices, removed):
    with pytest.raises(OddsError) as err:
        reroll_dice_odds([3, 3, 4], indices, 0, size=6, removed=removed)
    assert err.value.argument == "indices"


def test_swapping_colours_moves_the_slate_to_the_other_die():
    """SUG-7 / A13 swap colours, MV-SLATE-2: the slate die's face is AP; after a swap the other
    die is the slate die (and the old one may pair, MV-ASC-6b)."""
    roll = [("red", 1), ("blue", 5), ("black", 3), ("white", 3)]
    plan = swap_colours_plan(roll, (0, 1), 0, slate="red", target=6, agi=0)
    assert (plan.ap, plan.success, plan.slate_damage) == (6, True, 1)  # blue 5 + the 3s; the 1 hurts
    colours = ["blue", "red", "black", "white"]
    faces = [1, 5, 3, 3]
    best = max(outcomes(faces, colours, slate="red", bonus=1, agi=0), key=lambda o: (o[0], -o[1]))
    assert (plan.ap, plan.slate_damage) == best
    with pytest.raises(OddsError) as err:
        swap_colours_plan([("white", 1), ("white", 2), ("red", 3)], (0, 1), 0)
    assert err.value.argument == "pair"


def test_a_near_pair_ascends_like_a_pair_and_stays_legal():
    """SUG-7 / A13 near pair with MV-ASC-1/4/6: the two dice 1 apart leave with one bonus; never
    the slate die; without a slate one die must remain."""
    plan = near_pair_plan([4, 3, 2, 2], (0, 1), 1, target=6)
    # left: 2 2, which cannot pair (no die would remain): a 2 + the near pair's bonus 2 = 4
    left = [2, 2]
    best = max(ap for ap, _ in outcomes(left, ["black", "white"], slate=None, bonus=2, agi=0)) + 2
    assert plan.ap == best == 4 and plan.success is False
    assert plan.ascensions == 1 + len(plan.pairs) and set(plan.remaining) <= {2, 3}
    with pytest.raises(OddsError):
        near_pair_plan([4, 2, 2], (0, 1), 0)  # 4 and 2 are not 1 apart
    with pytest.raises(OddsError):
        near_pair_plan([("red", 4), ("blue", 3), ("black", 1)], (0, 1), 0, slate="red")  # the slate die
    with pytest.raises(OddsError):
        near_pair_plan([4, 3], (0, 1), 0)  # no die would remain
