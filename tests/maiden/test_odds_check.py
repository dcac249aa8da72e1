"""The check a rolled-pool question asks about (delve.maiden.odds.Check): one frozen object for the
keyword arguments every such question takes, validated in one place with the questions' errors."""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest

from delve.maiden.odds import (
    Check,
    CheckOptions,
    DistributionOptions,
    OddsError,
    Variant,
    ap_distribution,
    ascension_plans,
    best_plan,
    reroll_odds,
    success_probability,
)

MULTI = Variant(multi_die_checks=True)


def test_check_options_are_the_fields_of_check_but_pie():
    """The keyword form and the object list the same arguments (MV-ASC-9 questions)."""
    assert set(CheckOptions.__annotations__) == {f.name for f in fields(Check)} - {"pie"}
    assert CheckOptions.__required_keys__ == frozenset()


def test_a_check_is_hashable_and_keeps_removed_as_a_tuple():
    """A check can key a cache: equal arguments give equal, equally hashed checks."""
    a = Check(2, slate="red", target=9, removed=[1, 2])
    b = Check(2, slate="red", target=9, removed=(1, 2))
    assert a == b and hash(a) == hash(b) and a.removed == (1, 2)
    assert {a: 1}[b] == 1
    assert Check(2) != Check(2, target=9)


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"pie": -1}, "pie"),
        ({"pie": 0, "agi": -2}, "agi"),
        ({"pie": 0, "danger_level": 0}, "danger_level"),
        ({"pie": 0, "required_count": 0}, "required_count"),
        ({"pie": 0, "required_count": 2}, "required_count"),  # CHG-12 needs multi_die_checks
        ({"pie": 0, "target": 0}, "target"),
        ({"pie": 0, "slate": "white"}, "slate"),  # MV-SLATE-3
        ({"pie": 0, "bonus": -1}, "bonus"),
        ({"pie": 0, "points": -1}, "points"),
        ({"pie": 0, "ap_bonus": True}, "ap_bonus"),
    ],
)
def test_a_bad_check_raises_the_questions_own_error(options, argument):
    """Quality rule: a bad argument is named (OddsError), with the message the keyword questions give."""
    with pytest.raises(OddsError) as made:
        Check(**options)
    pie = options.pop("pie")
    with pytest.raises(OddsError) as asked:
        best_plan([3, 3, 4], pie, **options)
    assert made.value.argument == asked.value.argument == argument
    assert made.value.message == asked.value.message


def test_what_depends_on_the_dice_is_checked_by_the_question():
    """MV-ASC-6, MV-SLATE-2: removed pairs and the slate die are checked against the pool asked about."""
    check = Check(0, slate="red", removed=[0, 1])  # valid without dice
    assert check.removed == (0, 1)
    with pytest.raises(OddsError) as err:
        ascension_plans([("red", 2), ("blue", 2), ("black", 5)], 0, slate="red", removed=[0, 1])
    assert err.value.argument == "removed"
    with pytest.raises(OddsError) as err:
        reroll_odds([3, 3, 4], 0, 0, size=6, removed=[0, 1])
    assert err.value.argument == "index"


def test_multi_die_checks_accept_several_required_dice():
    """CHG-12: required_count above 1 with multi_die_checks is a valid check."""
    assert Check(1, required_count=2, variant=MULTI).required_count == 2


def test_success_probability_takes_the_keywords_of_ap_distribution():
    """MV-CHECK-9: P(AP ≥ target) reads the AP distribution asked with the same keyword arguments."""
    params = inspect.signature(ap_distribution).parameters
    assert set(DistributionOptions.__annotations__) == {n for n, p in params.items() if p.kind is p.KEYWORD_ONLY}
    for options in ({}, {"slate": True, "white": 2}, {"required_count": 2, "variant": MULTI}, {"bonus": 1}):
        assert success_probability(2, 1, 7, **options) == ap_distribution(2, 1, **options).at_least(7)
    with pytest.raises(OddsError) as err:
        success_probability(2, 1, 0)
    assert err.value.argument == "target"


def test_a_mods_slate_damage_per_die_counts_in_the_plans_order_MV_BOSS_10_MV_SLATE_6():
    """Alms of Lead (+1 slate damage per die, MV-BOSS-10): the plans' slate damage is dealt as
    the engine deals it, (1 + delta) per die left (MV-SLATE-6, at least 0), and the order
    breaks ties between plans of equal AP by that damage: with a bonus of 0 (CHG-11, Pie 0) the
    pair gains no AP, so it is taken only while a die left still hurts."""
    pool = [("red", 2), ("blue", 3), ("black", 3)]
    rule = Variant(ascension_bonus="pie")
    heavy = ascension_plans(pool, 0, slate="red", target=2, variant=rule, slate_per_die_delta=1)
    assert [(p.pairs, p.slate_damage) for p in heavy] == [(((1, 2),), 0), ((), 4)]
    assert best_plan(pool, 0, slate="red", target=2, variant=rule, slate_per_die_delta=1).pairs == ((1, 2),)
    harmless = ascension_plans(pool, 0, slate="red", target=2, variant=rule, slate_per_die_delta=-1)
    assert [(p.pairs, p.slate_damage) for p in harmless] == [((), 0), (((1, 2),), 0)]
    with pytest.raises(OddsError) as err:
        Check(0, slate_per_die_delta="1")  # type: ignore[arg-type]
    assert err.value.argument == "slate_per_die_delta"
