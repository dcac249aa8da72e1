"""A check's odds without ascension (``delve lab odds --no-ascension``): the baseline of spec §8.3
("3d20, highest die with no ascension") and what a room or boss with ``no_ascension`` leaves.

No pair is ever taken: AP is the highest die (with a slate, the slate die; with N required dice,
the N-th highest), plus the Pie points of ``pie_mode = boost``; a slate's damage counts every
non-slate die beyond Agi. Built on :mod:`delve.maiden.odds`: without a slate, a bonus of 0 per
ascension is the same thing (a pair that adds nothing never raises AP); with a slate, pairs would
still remove damage dice, so the joint distribution is built here.
"""

from __future__ import annotations

from fractions import Fraction

from delve.maiden.odds import (
    CheckOdds,
    JointDistribution,
    Objective,
    SlateColour,
    Variant,
    best_of,
    candidate_sizes,
    check_odds,
)


def no_ascension_odds(
    wil: int,
    pie: int,
    target: int,
    *,
    agi: int = 0,
    slate: SlateColour | None = None,
    danger_level: int = 1,
    required_count: int = 1,
    variant: Variant | None = None,
    objective: Objective = "success",
) -> CheckOdds:
    """The exact odds of one check in which no pair is ascended (arguments as
    :func:`delve.maiden.odds.check_odds`, which checks them)."""
    variant = variant or Variant()
    ordinary = check_odds(
        wil,
        pie,
        target,
        agi=agi,
        slate=slate,
        danger_level=danger_level,
        required_count=required_count,
        variant=variant,
        objective=objective,
        bonus=0,
    )
    if slate is None:
        return ordinary
    candidates = [
        _slate(size, pie, target, agi, slate, danger_level, variant) for size in candidate_sizes(wil, None, variant)
    ]
    return best_of(candidates, objective)


def _slate(
    size: int, pie: int, target: int, agi: int, slate: SlateColour, danger_level: int, variant: Variant
) -> CheckOdds:
    """AP is the slate die (+ boost points); every non-slate die beyond Agi deals damage."""
    others = pie + (0 if variant.slate_roll_restricted else 2)
    damage = max(0, others - agi) * variant.per_die(danger_level)
    boost = variant.boost(pie)
    joint = JointDistribution(tuple(((face + boost, damage), Fraction(1, size)) for face in range(1, size + 1)))
    ap = joint.ap()
    return CheckOdds(
        die_size=size,
        dice=1 + others,
        target=target,
        required_count=1,
        slate=slate,
        p_success=ap.at_least(target),
        ap=ap,
        slate_damage=joint.damage(),
        joint=joint,
        damage=joint.total_damage(target, danger_level),
    )
