"""Exact agreement of delve.maiden.odds with icepool (an independent dice-probability library,
test-only dependency) on 240 seeded random pool questions.

Kinds of question (each drawn at random: die size, number of dice, Pie, Agi, target, rule):

* ``highest``: P(highest die ≥ T) — icepool's ``pool.highest(1)``.
* ``pairs``: the distribution of disjoint pairs (BQ-2) — icepool's ``(pool // 2).size()``.
* ``ap``: P(AP ≥ T) under optimal ascension (MV-ASC-9) — icepool evaluates the multiset
  expressions (pairs, highest odd-count face, highest even-count face) jointly.
* ``plans``: the AP distribution of small pools — icepool enumerates the sorted rolls
  (``pool.expand()``) and each is scored by trying every legal plan (MV-ASC-2/5/6), for the
  default, ``pie``, ``boost`` and ``multi_die_checks`` rules.
* ``slate``: P(success) and the slate-damage distribution (MV-SLATE-2, -6) — icepool combines
  the slate die with the pairs of the other dice.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import icepool
import pytest

from delve.maiden.odds import (
    Variant,
    ap_distribution,
    ascension_bonus,
    best_plan,
    pair_distribution,
    slate_joint,
)

SIZES = (4, 6, 8, 12, 20)
WIL_OF = {4: 0, 6: 1, 8: 2, 12: 3, 20: 4}
QUESTIONS = 240


def as_fractions(die: Any) -> dict[Any, Fraction]:
    return {k: Fraction(die.quantity(k), die.denominator()) for k in die.outcomes() if die.quantity(k)}


@icepool.multiset_function
def _ascension_parts(a):  # type: ignore[no-untyped-def]
    even = a.map_counts(function=lambda outcome, count: 1 if count >= 2 and count % 2 == 0 else 0)
    return (a // 2).size(), (a % 2).highest(1).sum(), even.highest(1).sum()


def icepool_ap(size: int, dice: int, bonus: int) -> Any:
    """AP = bonus · pairs + max(highest odd-count face, highest even-count face − bonus)."""
    parts = _ascension_parts(icepool.d(size).pool(dice))
    return parts.map(lambda pairs, odd, even: bonus * pairs + (max(odd, even - bonus) if odd else even - bonus))


def question(index: int) -> dict[str, Any]:
    rng = random.Random(20261201 + index)
    kind = ("highest", "pairs", "ap", "plans", "slate")[index % 5]
    q: dict[str, Any] = {"kind": kind}
    if kind == "plans":
        q["size"] = rng.choice((4, 6, 8))
        q["pie"] = rng.randrange(0, 3 if q["size"] < 8 else 2)
        q["variant"] = rng.choice(
            [
                Variant(),
                Variant(ascension_bonus="pie"),
                Variant(pie_mode="boost"),
                Variant(multi_die_checks=True),
            ]
        )
        q["required"] = rng.choice((2, 3)) if q["variant"].multi_die_checks else 1
    else:
        q["size"] = rng.choice(SIZES)
        q["pie"] = rng.randrange(0, 7)
        q["rule"] = rng.choice(("one_plus_pie", "pie"))
    q["agi"] = rng.randrange(0, 5)
    q["target"] = rng.randrange(1, 31)
    return q


@pytest.mark.parametrize("index", range(QUESTIONS))
def test_odds_agree_exactly_with_icepool(index):
    """MV-ASC-9, MV-CHECK-8, MV-CHECK-9, MV-SLATE-2, MV-SLATE-6, CHG-11, CHG-12, CHG-17, §8 BQ-1..BQ-3."""
    q = question(index)
    size, pie, target = q["size"], q["pie"], q["target"]
    dice = 3 + pie
    pool = icepool.d(size).pool(dice)
    if q["kind"] == "highest":
        theirs = as_fractions(pool.highest(1).sum())
        # a bonus of 0 (Pie 0 under CHG-11) makes AP the highest die
        ours = ap_distribution(WIL_OF[size], 0, white=pie, variant=Variant(ascension_bonus="pie"))
        assert ours.as_dict() == theirs
        assert ours.at_least(target) == sum((p for k, p in theirs.items() if k >= target), Fraction(0))
    elif q["kind"] == "pairs":
        assert pair_distribution(size, dice).as_dict() == as_fractions((pool // 2).size())
    elif q["kind"] == "ap":
        theirs = as_fractions(icepool_ap(size, dice, ascension_bonus(pie, q["rule"])))
        ours = ap_distribution(WIL_OF[size], pie, variant=Variant(ascension_bonus=q["rule"]))
        assert ours.as_dict() == theirs
        assert ours.at_least(target) == sum((p for k, p in theirs.items() if k >= target), Fraction(0))
    elif q["kind"] == "plans":
        variant, required = q["variant"], q["required"]

        def score(*faces: int) -> int:
            return best_plan(list(faces), pie, required_count=required, variant=variant).ap

        theirs = as_fractions(pool.expand().map(lambda faces: score(*faces)))
        ours = ap_distribution(WIL_OF[size], pie, required_count=required, variant=variant)
        assert ours.as_dict() == theirs
    else:
        bonus = ascension_bonus(pie, q["rule"])
        others = dice - 1
        pairs = (icepool.d(size).pool(others) // 2).size()
        success = icepool.map(lambda face, p: face + bonus * p >= target, icepool.d(size), pairs)
        damage = pairs.map(lambda p: max(0, others - 2 * p - q["agi"]))
        joint = slate_joint(WIL_OF[size], pie, agi=q["agi"], variant=Variant(ascension_bonus=q["rule"]))
        assert joint.ap().at_least(target) == as_fractions(success).get(True, Fraction(0))
        assert joint.damage().as_dict() == as_fractions(damage)


def test_questions_cover_every_kind_and_die_size():
    """The seeded questions are varied: every kind, every die size, Pie up to 6."""
    drawn = [question(i) for i in range(QUESTIONS)]
    assert {q["kind"] for q in drawn} == {"highest", "pairs", "ap", "plans", "slate"}
    assert {q["size"] for q in drawn} == set(SIZES)
    assert max(q["pie"] for q in drawn) == 6
