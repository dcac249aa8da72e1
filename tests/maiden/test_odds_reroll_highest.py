"""The odds before the roll count the reroll of the highest die (the mod ``reroll_highest``, a
boss action's mod: MV-BOSS-10; Gilded Glare). Checked exactly against the engine's own dice:
every roll and every face of the rerolled die, the die picked by ``dice.highest`` (what
``checks.roll`` rerolls), then every legal ascension (MV-ASC-1..6) scored by ``dice.ap``
(MV-CHECK-8, MV-SLATE-2) and ``dice.slate_damage_dice`` (MV-SLATE-4..6), best play kept
(MV-ASC-9)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from delve.maiden import dice as engine_dice
from delve.maiden import odds
from delve.maiden.state import Check, Settings


def _outcomes(check: Check, bonus: int, multi: bool, agi: int, per_die: int) -> set[tuple[int, int]]:
    """(AP, slate damage) of every way to finish ascending (the engine's legal pairs; with
    ``multi_die_checks`` the bonus goes onto a chosen remaining die, as ``checks.ascend``)."""
    ap = engine_dice.ap(check, bonus, multi)
    damage = engine_dice.slate_damage_dice(check, agi) * per_die
    found = {(ap, damage)}
    for i, j in engine_dice.legal_pairs(check):
        targets = [k for k in engine_dice.remaining(check) if k not in (i, j)] if multi else [None]
        for onto in targets:
            check.dice[i].removed = check.dice[j].removed = True
            check.ascensions += 1
            if onto is not None:
                check.dice[onto].bonus += bonus
            found |= _outcomes(check, bonus, multi, agi, per_die)
            if onto is not None:
                check.dice[onto].bonus -= bonus
            check.ascensions -= 1
            check.dice[i].removed = check.dice[j].removed = False
    return found


def _engine_joint(
    size: int,
    white: int,
    *,
    slate: str | None = None,
    restricted: bool = False,
    bonus: int = 1,
    agi: int = 0,
    per_die: int = 1,
    required: int = 1,
    boost: int = 0,
) -> Counter[tuple[int, int]]:
    """Every roll, then the engine's reroll of its highest die, each with its best outcome."""
    multi = required > 1
    joint: Counter[tuple[int, int]] = Counter()
    pool = engine_dice.pool(size, white, slate=slate, restricted=restricted)
    for faces in itertools.product(range(1, size + 1), repeat=len(pool)):
        for fresh in range(1, size + 1):
            check = Check(kind="boss", source="x", target=1, room="r", slate=slate, required=required)
            check.dice = [type(d)(colour=d.colour, size=size, face=f) for d, f in zip(pool, faces, strict=True)]
            check.dice[engine_dice.highest(check)].face = fresh
            check.ap_bonus = boost  # pie_mode boost: Pie points on the scoring die (one required die)
            best = max(_outcomes(check, bonus, multi, agi, per_die), key=lambda o: (o[0], -o[1]))
            joint[best] += 1
    return joint


def _check(joint: Counter[tuple[int, int]], result: odds.CheckOdds, size: int, dice: int) -> None:
    total = size ** (dice + 1)
    assert sum(joint.values()) == total
    expected = odds.JointDistribution(tuple((k, Fraction(v, total)) for k, v in sorted(joint.items())))
    assert result.joint.as_dict() == expected.as_dict()
    target = result.target
    assert result.p_success == Fraction(sum(v for (ap, _), v in joint.items() if ap >= target), total)


@pytest.mark.parametrize("size", [4, 6])
@pytest.mark.parametrize("white", [0, 1])
def test_normal_check_counts_the_reroll_exactly(size: int, white: int) -> None:
    """MV-BOSS-10 reroll_highest, MV-ASC-9, MV-CHECK-8/9: P(success) and AP before the roll
    equal the engine's rolls, rerolled and ascended at best, die for die."""
    joint = _engine_joint(size, white, bonus=1 + white)
    for target in (2, size, size + 2):
        result = odds.check_odds(0, white, target, size=size, reroll_highest=True)
        _check(joint, result, size, 3 + white)
    plain = odds.check_odds(0, white, size, size=size)
    assert plain.p_success != odds.check_odds(0, white, size, size=size, reroll_highest=True).p_success


@pytest.mark.parametrize("bonus_rule", ["one_plus_pie", "pie"])
def test_the_bonus_rule_and_boost_are_counted_after_the_reroll(bonus_rule: str) -> None:
    """CHG-11 (bonus Pie) and CHG-17 (pie_mode boost) with the reroll (MV-BOSS-10)."""
    variant = odds.Variant(ascension_bonus=bonus_rule)  # type: ignore[arg-type]
    joint = _engine_joint(4, 1, bonus=variant.bonus(1))
    _check(joint, odds.check_odds(0, 1, 4, size=4, variant=variant, reroll_highest=True), 4, 4)
    boost = odds.Variant(pie_mode="boost")
    joint = _engine_joint(4, 1, bonus=boost.bonus(1), boost=1)
    _check(joint, odds.check_odds(0, 1, 5, size=4, variant=boost, reroll_highest=True), 4, 4)


@pytest.mark.parametrize("slate", ["red", "blue", "black"])
@pytest.mark.parametrize(("size", "white", "agi"), [(4, 0, 0), (4, 1, 1), (6, 0, 0)])
def test_slate_check_counts_the_reroll_exactly(slate: str, size: int, white: int, agi: int) -> None:
    """MV-SLATE-2/4/5/6 with the reroll (MV-BOSS-10): which die is rerolled when the slate die
    ties for the highest face follows the pool order, so the colour matters."""
    joint = _engine_joint(size, white, slate=slate, bonus=1 + white, agi=agi)
    for target in (3, size + 1):
        result = odds.check_odds(0, white, target, size=size, slate=slate, agi=agi, reroll_highest=True)  # type: ignore[arg-type]
        _check(joint, result, size, 3 + white)


def test_restricted_slate_and_damage_per_die_with_the_reroll() -> None:
    """CHG-18 (the slate die and the whites only) and CHG-4b (DL per die) with the reroll."""
    variant = odds.Variant(slate_roll_restricted=True, slate_damage_per_die="danger_level")
    joint = _engine_joint(4, 2, slate="black", restricted=True, bonus=3, per_die=2)
    result = odds.check_odds(0, 2, 4, size=4, slate="black", danger_level=2, variant=variant, reroll_highest=True)
    _check(joint, result, 4, 3)


@pytest.mark.parametrize(("size", "white", "required"), [(4, 0, 2), (4, 1, 2), (4, 1, 3), (4, 2, 2), (6, 1, 3)])
def test_multi_die_check_counts_the_reroll_exactly(size: int, white: int, required: int) -> None:
    """CHG-12 (required dice, bonuses onto chosen dice) with the reroll (MV-BOSS-10)."""
    variant = odds.Variant(multi_die_checks=True)
    joint = _engine_joint(size, white, bonus=1 + white, required=required)
    result = odds.check_odds(0, white, 3, size=size, required_count=required, variant=variant, reroll_highest=True)
    _check(joint, result, size, 3 + white)


def test_the_slate_colour_is_needed_for_the_reroll() -> None:
    """A bare ``slate=True`` cannot say which die a tie rerolls: a clear error."""
    with pytest.raises(odds.OddsError) as err:
        odds.ap_distribution(0, 1, slate=True, size=4, reroll_highest=True)
    assert err.value.argument == "slate"
    with pytest.raises(odds.OddsError) as err:
        odds.check_odds(0, 1, 4, reroll_highest=1)  # type: ignore[arg-type]
    assert err.value.argument == "reroll_highest"


def test_engine_rerolls_the_first_of_the_highest_dice() -> None:
    """MV-BOSS-10: ``dice.highest`` (what ``checks.roll`` rerolls) is the first highest die."""
    check = Check(kind="boss", source="x", target=1, room="r")
    check.dice = engine_dice.pool(6, 2, slate=None, restricted=False)
    for die, face in zip(check.dice, (3, 6, 2, 6, 1), strict=True):
        die.face = face
    assert engine_dice.highest(check) == 1
    assert Settings().multi_die_checks is False
