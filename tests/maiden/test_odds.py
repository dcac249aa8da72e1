"""Exact odds of White Maiden checks (delve.maiden.odds): spec §4.6-§4.8, §6.3, §8.3, Appendix B."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from delve.maiden import odds
from delve.maiden.odds import (
    DEFAULT,
    Distribution,
    OddsError,
    Variant,
    adjust_options,
    ap_distribution,
    ascension_options,
    ascension_plans,
    best_ap,
    best_plan,
    check_odds,
    die_size,
    odds_table,
    pool_colours,
    reroll_odds,
    slate_damage,
    slate_joint,
    success_probability,
    target_number,
)

PIE_RULE = Variant(ascension_bonus="pie")
BOOST = Variant(pie_mode="boost")
MULTI = Variant(multi_die_checks=True)
WIL_OF = {4: 0, 6: 1, 8: 2, 12: 3, 20: 4}


def rounded(p: Fraction, places: int = 3) -> float:
    return round(float(p), places)


def every_roll(size: int, dice: int) -> itertools.product[tuple[int, ...]]:
    return itertools.product(range(1, size + 1), repeat=dice)


# --------------------------------------------------------------------------------------------
# Small rules
# --------------------------------------------------------------------------------------------


def test_die_size_follows_wil_with_d20_from_wil_4_on():
    """MV-CHECK-4, MV-STAT-5, MV-LVL-7: Wil 0..3 → d4, d6, d8, d12; 4 or more → d20."""
    assert [die_size(w) for w in range(7)] == [4, 6, 8, 12, 20, 20, 20]


def test_pool_is_red_blue_black_and_one_white_die_per_pie():
    """MV-CHECK-5, MV-STAT-4: three coloured dice plus Pie white dice; CHG-18 restricts a slate roll."""
    assert pool_colours(0) == ("red", "blue", "black")
    assert pool_colours(2) == ("red", "blue", "black", "white", "white")
    assert pool_colours(2, "blue", restricted=True) == ("blue", "white", "white")
    assert pool_colours(1, "blue") == ("red", "blue", "black", "white")


def test_target_is_action_markers_plus_difficulty_and_at_least_one():
    """MV-CHECK-3, OQ-36: target = action markers + difficulty, never below 1."""
    assert target_number(3, 2) == 5
    assert target_number(1, -1) == 1
    assert target_number(0, -4) == 1


def test_ascension_bonus_is_one_plus_pie_or_pie_under_chg_11():
    """MV-ASC-1, MV-STAT-4, CHG-11: 1 + Pie by default, Pie with the variant; boost computes it with Pie 0."""
    assert [odds.ascension_bonus(p) for p in range(4)] == [1, 2, 3, 4]
    assert [odds.ascension_bonus(p, "pie") for p in range(4)] == [0, 1, 2, 3]
    assert (BOOST.bonus(3), BOOST.boost(3)) == (1, 3)
    assert (Variant(pie_mode="boost", ascension_bonus="pie").bonus(3), DEFAULT.boost(3)) == (0, 0)


def test_slate_damage_counts_remaining_non_slate_dice_beyond_agi():
    """MV-SLATE-4, MV-SLATE-5, MV-SLATE-6: max(0, remaining non-slate − Agi) × per-die damage."""
    assert slate_damage(2, 0) == 2
    assert slate_damage(2, 1) == 1
    assert slate_damage(2, 3) == 0
    assert slate_damage(2, 0, per_die=2) == 4
    assert Variant(slate_damage_per_die="danger_level").per_die(3) == 3
    assert DEFAULT.per_die(3) == 1


def test_variant_reads_game_settings_and_rejects_unknown_values():
    """§6.3 toggles: the dice toggles are read from settings; a bad value names the toggle."""
    v = Variant.from_settings({"slate_damage_per_die": 1, "pie_mode": "boost", "life_max": 6})
    assert v == Variant(pie_mode="boost")
    assert Variant.from_settings({"slate_damage_per_die": "danger_level"}).per_die(2) == 2

    class EngineSettings:  # the engine's settings are an object with attributes
        ascension_bonus = "pie"
        multi_die_checks = True
        players = 2

    assert Variant.from_settings(EngineSettings()) == Variant(ascension_bonus="pie", multi_die_checks=True)
    with pytest.raises(OddsError) as err:
        Variant(ascension_bonus="two")  # type: ignore[arg-type]
    assert err.value.argument == "ascension_bonus"
    assert err.value.code == "odds/invalid"


# --------------------------------------------------------------------------------------------
# Appendix B fixtures (default toggles) and the worked examples of MV-ASC-7
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 6])
def test_fixture_1_draft_example_ascends_the_threes(size):
    """Appendix B fixture 1, MV-ASC-7, MV-ASC-1: Pie 0, d4/d6, roll 3, 3, 4 → best AP 5 (ascend the 3s)."""
    assert best_ap([3, 3, 4], 0) == 5
    plan = best_plan([3, 3, 4], 0, target=5)
    assert (plan.pair_values, plan.remaining, plan.ap, plan.success) == ((3,), (2,), 5, True)
    assert best_ap([3, 3, 4], 0, bonus_rule="one_plus_pie") == 5


def test_fixture_2_ascending_would_lower_ap():
    """Appendix B fixture 2, MV-ASC-7, MV-ASC-5: roll 4, 4, 2 → best AP 4 (do not ascend)."""
    assert best_ap([4, 4, 2], 0) == 4
    plan = best_plan([4, 4, 2], 0)
    assert plan.pairs == ()
    assert [p.ap for p in ascension_plans([4, 4, 2], 0)] == [4, 3]


def test_fixture_3_three_of_a_kind_keeps_one():
    """Appendix B fixture 3, MV-ASC-7, MV-ASC-6 (a): roll 4, 4, 4 → AP 5, one 4 remains."""
    assert best_ap([4, 4, 4], 0) == 5
    assert len(best_plan([4, 4, 4], 0).remaining) == 1


def test_fixture_4_designer_pie_4_example():
    """Appendix B fixture 4, MV-ASC-2, MV-ASC-9, CHG-11: 1,1,2,2,3,3,4 → 19 (bonus 5), 16 (bonus 4)."""
    roll = [1, 1, 2, 2, 3, 3, 4]
    assert best_ap(roll, 4) == 19
    assert best_ap(roll, 4, bonus_rule="pie") == 16
    assert best_plan(roll, 4).ascensions == 3


def test_worked_example_pie_1_keeps_the_six():
    """MV-ASC-7 (ours): Wil 1 (d6), Pie 1, roll 5, 5, 2, 6 → remove the 5s, keep 6 → 8."""
    assert best_ap([5, 5, 2, 6], 1) == 8


def test_fixture_5_red_slate_success_with_two_damage():
    """Appendix B fixture 5, MV-SLATE-2, MV-SLATE-4..6, MV-ASC-6 (b), MV-CHECK-9:
    red slate, d6, Pie 0, roll red 5, blue 5, black 2, target 4."""
    roll = [("red", 5), ("blue", 5), ("black", 2)]
    plan = best_plan(roll, 0, slate="red", target=4)
    assert (plan.ap, plan.success, plan.pairs, plan.slate_damage, plan.damage) == (5, True, (), 2, 2)
    assert best_ap(roll, 0, slate="red") == 5
    assert best_plan(roll, 0, slate="red", target=4, agi=1).slate_damage == 1
    danger = Variant(slate_damage_per_die="danger_level")
    assert best_plan(roll, 0, slate="red", target=4, danger_level=2, variant=danger).slate_damage == 4
    # the slate die is never offered as half of a pair (MV-ASC-6 b)
    assert [o.pair for o in ascension_options(roll, 0, slate="red", target=4)] == [None]


def test_fixture_6_blue_slate_ascends_red_and_black_and_fails():
    """Appendix B fixture 6, MV-SLATE-2, MV-ASC-3, MV-CHECK-10, MV-SLATE-7: blue slate, d6, Pie 0,
    roll red 3, blue 2, black 3, target 4, DL 1 → ascend red + black → AP 3, a failure, 1 damage,
    slate damage 0."""
    roll = [("red", 3), ("blue", 2), ("black", 3)]
    plan = best_plan(roll, 0, slate="blue", target=4, danger_level=1)
    assert plan.pairs == ((0, 2),)
    assert (plan.ap, plan.success, plan.slate_damage, plan.damage) == (3, False, 0, 1)


def test_slate_failure_damage_adds_to_slate_damage():
    """MV-SLATE-7, MV-CHECK-10: on failure DL damage is added on top of slate damage."""
    roll = [("red", 1), ("blue", 5), ("black", 2)]
    plan = best_plan(roll, 0, slate="red", target=4, danger_level=3)
    assert (plan.success, plan.slate_damage, plan.damage) == (False, 2, 5)


def test_white_dice_raise_slate_exposure_unless_paired():
    """MV-SLATE-8, MV-SLATE-9: white dice count as remaining dice; their pairs ascend away."""
    roll = [("red", 6), ("blue", 1), ("black", 2), ("white", 3)]
    assert best_plan(roll, 1, slate="red").slate_damage == 3
    paired = [("red", 6), ("blue", 1), ("black", 3), ("white", 3)]
    plan = best_plan(paired, 1, slate="red")
    assert (plan.slate_damage, plan.ap) == (1, 8)


# --------------------------------------------------------------------------------------------
# Section 8.3 reference values
# --------------------------------------------------------------------------------------------

PAIR_TABLE = {
    4: [0.625, 0.906, 1.000, 1.000],
    6: [0.444, 0.722, 0.907, 0.985],
    8: [0.344, 0.590, 0.795, 0.923],
    12: [0.236, 0.427, 0.618, 0.777],
    20: [0.145, 0.273, 0.419, 0.564],
}


@pytest.mark.parametrize("size", sorted(PAIR_TABLE))
def test_reference_probability_of_at_least_one_pair(size):
    """§8.3, BQ-2, MV-ASC-1: P(at least one pair among n dice of size s), n = 3..6."""
    for n, expected in zip(range(3, 7), PAIR_TABLE[size], strict=True):
        counts = dict(odds._pair_counts(size, n))
        at_least_one = Fraction(sum(w for pairs, w in counts.items() if pairs >= 1), size**n)
        assert rounded(at_least_one) == expected, (size, n)


def test_reference_7d4_disjoint_pairs_and_ap_with_bonus_4_and_5():
    """§8.3, BQ-11, MV-ASC-9, CHG-11: 7d4 has 2 pairs (0.4922) or 3 (0.5078); AP with bonus 4 and 5."""
    pairs = dict(odds._pair_counts(4, 7))
    assert {k: round(v / 4**7, 4) for k, v in pairs.items()} == {2: 0.4922, 3: 0.5078}
    bonus_4 = ap_distribution(0, 4, variant=PIE_RULE)
    assert {k: rounded(p) for k, p in bonus_4.outcomes} == {
        11: 0.123,
        12: 0.369,
        13: 0.127,
        14: 0.127,
        15: 0.127,
        16: 0.127,
    }
    assert (rounded(bonus_4.at_least(16)), bonus_4.min(), bonus_4.mode()) == (0.127, 11, 12)
    bonus_5 = ap_distribution(0, 4)
    assert [k for k, _ in bonus_5.outcomes] == [13, 14, 16, 17, 18, 19]
    assert rounded(bonus_5.at_least(16)) == 0.508


def test_reference_3d20_highest_die_without_ascension():
    """§8.3, BQ-1: 3d20, highest die (a bonus of 0: Pie 0 under CHG-11 makes ascension worthless)."""
    highest = ap_distribution(4, 0, variant=PIE_RULE)
    expected = {10: 0.909, 12: 0.834, 14: 0.725, 16: 0.578, 18: 0.386, 20: 0.143}
    assert {t: rounded(highest.at_least(t)) for t in expected} == expected
    assert highest.at_least(20) == 1 - Fraction(19, 20) ** 3


@pytest.mark.parametrize("wil", range(5))
def test_reference_slate_pie_0_agi_0(wil):
    """§8.3, MV-SLATE-6, BQ-9: P(no slate damage) = 1/s; otherwise 2 × per-die damage."""
    size = die_size(wil)
    damage = slate_joint(wil, 0).damage()
    assert damage.as_dict() == {0: Fraction(1, size), 2: 1 - Fraction(1, size)}
    dl2 = slate_joint(wil, 0, danger_level=2, variant=Variant(slate_damage_per_die="danger_level")).damage()
    assert dl2.as_dict() == {0: Fraction(1, size), 4: 1 - Fraction(1, size)}


def test_reference_3d4_and_3d6_optimal_ap():
    """§8.3, MV-ASC-9: 3d4 and 3d6 with Pie 0 (bonus 1)."""
    d4 = ap_distribution(0, 0)
    assert {k: round(float(p), 4) for k, p in d4.outcomes} == {2: 0.0625, 3: 0.25, 4: 0.5312, 5: 0.1562}
    d6 = ap_distribution(1, 0)
    assert {k: rounded(p) for k, p in d6.outcomes} == {2: 0.019, 3: 0.074, 4: 0.157, 5: 0.269, 6: 0.407, 7: 0.074}


# --------------------------------------------------------------------------------------------
# The closed formula against every plan, and the counting engines against every roll
# --------------------------------------------------------------------------------------------


def test_best_ap_formula_equals_the_best_of_every_legal_plan():
    """MV-ASC-9 against MV-ASC-2, MV-ASC-5, MV-ASC-6: the formula is the best of all plans."""
    rng = random.Random(9)
    for _ in range(600):
        size = rng.choice([4, 6, 8])
        pie = rng.randrange(0, 6)
        rule = rng.choice(["one_plus_pie", "pie"])
        mode = rng.choice(["ascension", "boost"])
        roll = [rng.randint(1, size) for _ in range(3 + pie)]
        slate = rng.choice([None, "red", "blue", "black"])
        variant = Variant(ascension_bonus=rule, pie_mode=mode)
        plans = ascension_plans(roll, pie, slate=slate, variant=variant)
        assert best_ap(roll, pie, slate, rule, pie_mode=mode) == plans[0].ap == max(p.ap for p in plans)
        assert all(p.remaining for p in plans)  # MV-ASC-6 (a)
        if slate is not None:
            slate_index = ["red", "blue", "black"].index(slate)
            assert all(slate_index in p.remaining for p in plans)  # MV-ASC-6 (b)
            # every pair is good (MV-ASC-9): the best plan has the most pairs and the least damage
            assert plans[0].slate_damage == min(p.slate_damage for p in plans)


def brute_force(size, pie, variant, *, slate=None, agi=0, dl=1, required=1):
    colours = pool_colours(pie, slate, restricted=variant.slate_roll_restricted)
    counts = Counter()
    for roll in every_roll(size, len(colours)):
        plan = best_plan(
            list(zip(colours, roll, strict=True)),
            pie,
            slate=slate,
            agi=agi,
            danger_level=dl,
            required_count=required,
            variant=variant,
        )
        counts[(plan.ap, plan.slate_damage)] += 1
    return {k: Fraction(v, size ** len(colours)) for k, v in counts.items()}


@pytest.mark.parametrize(
    "variant",
    [
        DEFAULT,
        PIE_RULE,
        BOOST,
        Variant(pie_mode="boost", ascension_bonus="pie"),
    ],
    ids=["default", "pie", "boost", "boost-pie"],
)
def test_ap_distribution_equals_brute_force_over_every_roll(variant):
    """MV-ASC-9, MV-CHECK-8, CHG-11, CHG-17: the face-by-face count equals enumerating all s^n rolls."""
    for size, pie in [(4, 0), (4, 1), (4, 2), (6, 0), (6, 1), (8, 0), (12, 0)]:
        expected = brute_force(size, pie, variant)
        got = ap_distribution(WIL_OF[size], pie, variant=variant)
        assert {(k, 0): p for k, p in got.outcomes} == expected, (size, pie)
        assert sum(p for _, p in got.outcomes) == 1


@pytest.mark.parametrize(
    "variant",
    [
        DEFAULT,
        PIE_RULE,
        BOOST,
        Variant(slate_roll_restricted=True),
        Variant(slate_damage_per_die="danger_level"),
    ],
    ids=["default", "pie", "boost", "restricted", "danger-level"],
)
def test_slate_joint_equals_brute_force_over_every_roll(variant):
    """MV-SLATE-2, MV-SLATE-6, MV-ASC-6 (b), CHG-4b, CHG-17, CHG-18: joint (AP, slate damage)."""
    for size, pie, agi in [(4, 0, 0), (4, 2, 1), (6, 1, 0), (4, 3, 2), (8, 1, 1)]:
        expected = brute_force(size, pie, variant, slate="black", agi=agi, dl=2)
        got = slate_joint(WIL_OF[size], pie, agi=agi, danger_level=2, variant=variant)
        assert got.as_dict() == expected, (size, pie, agi)


@pytest.mark.parametrize(
    "variant",
    [MULTI, Variant(multi_die_checks=True, ascension_bonus="pie"), Variant(multi_die_checks=True, pie_mode="boost")],
    ids=["default", "pie", "boost"],
)
def test_multi_die_checks_equal_brute_force_with_optimal_bonus_placement(variant):
    """CHG-12: success needs N remaining dice ≥ target, each bonus on one die, placed optimally."""
    for size, pie, required in [(4, 0, 2), (4, 1, 2), (4, 2, 3), (6, 1, 2), (6, 1, 3), (8, 0, 2), (4, 2, 1)]:
        expected = brute_force(size, pie, variant, required=required)
        got = ap_distribution(WIL_OF[size], pie, required_count=required, variant=variant)
        assert {(k, 0): p for k, p in got.outcomes} == expected, (size, pie, required)


def test_multi_die_check_with_one_required_die_is_the_normal_check():
    """CHG-12: required_count 1 is the ordinary check; the two counting engines agree."""
    for size in (4, 6, 8):
        for pie in range(3):
            assert dict(odds._multi_counts(size, 3 + pie, 1, pie + 1, 0)) == dict(
                odds._ap_counts(size, 3 + pie, pie + 1)
            )


def test_multi_die_plan_places_each_bonus_on_one_die():
    """CHG-12: Pie 1 (bonus 2), two dice must reach 6. Roll 5, 5, 3, 4: pairing the 5s leaves 3 and 4
    with one bonus, so the best is to keep the 5s (both reach 5, a failure). Roll 6, 4, 3, 3: the
    3s pair and their bonus lifts the 4 to 6 (a success)."""
    plan = best_plan([5, 5, 3, 4], 1, required_count=2, target=6, variant=MULTI)
    assert plan.ap == 5
    assert plan.success is False
    plan = best_plan([6, 4, 3, 3], 1, required_count=2, target=6, variant=MULTI)
    assert (plan.ap, plan.pair_values, plan.success) == (6, (3,), True)
    assert dict(plan.scoring) == {0: 0, 1: 2}


def test_multi_die_needs_the_variant_and_is_forced_to_one_with_a_slate():
    """CHG-12: required_count > 1 needs multi_die_checks; a slate check needs its one die."""
    with pytest.raises(OddsError) as err:
        check_odds(1, 0, 5, required_count=2)
    assert err.value.argument == "required_count"
    slate = check_odds(1, 0, 5, slate="red", required_count=3, variant=MULTI)
    assert slate.required_count == 1
    assert slate.p_success == check_odds(1, 0, 5, slate="red").p_success


def test_boost_mode_adds_pie_to_the_best_die():
    """CHG-17, BQ-6: boost → AP = best AP with the Pie-0 bonus + Pie."""
    roll = [1, 1, 2, 2, 3, 3, 4]
    assert best_ap(roll, 4, pie_mode="boost") == 4 + 3 * 1 + 4
    for wil in range(5):
        for pie in range(4):
            plain = ap_distribution(wil, 0, white=pie)
            boosted = ap_distribution(wil, pie, variant=BOOST)
            assert boosted.outcomes == tuple((k + pie, p) for k, p in plain.outcomes)


# --------------------------------------------------------------------------------------------
# Before the roll: check_odds and the table
# --------------------------------------------------------------------------------------------


def test_check_odds_is_p_ap_at_least_target_and_damage_is_dl_on_failure():
    """MV-CHECK-9, MV-CHECK-10: success = AP ≥ target; a failure costs DL."""
    result = check_odds(2, 1, 7, danger_level=3)
    assert result.die_size == 8 and result.dice == 4
    assert result.p_success == ap_distribution(2, 1).at_least(7) == success_probability(2, 1, 7)
    assert result.damage.as_dict() == {0: result.p_success, 3: 1 - result.p_success}
    assert result.slate_damage == Distribution.certain(0)


def test_check_odds_with_slate_combines_success_and_slate_damage():
    """MV-SLATE-2, MV-SLATE-6, MV-SLATE-7: the joint distribution gives the total damage."""
    result = check_odds(1, 1, 4, slate="blue", agi=1, danger_level=2)
    joint = slate_joint(1, 1, agi=1, danger_level=2)
    assert result.joint == joint
    expected: dict[int, Fraction] = {}
    for (ap, hurt), p in joint.outcomes:
        total = hurt + (0 if ap >= 4 else 2)
        expected[total] = expected.get(total, Fraction(0)) + p
    assert result.damage.as_dict() == expected
    assert result.p_success == joint.ap().at_least(4)


def test_smaller_die_is_off_by_default_and_chosen_optimally_when_allowed():
    """MV-CHECK-6, CHG-10, BQ-23: only Wil's die by default; with the variant the best size wins."""
    assert check_odds(4, 0, 5).alternatives == ()
    allowed = Variant(allow_smaller_die=True)
    result = check_odds(4, 0, 5, variant=allowed)
    assert [a.die_size for a in result.alternatives] == [20, 12, 8, 6, 4]
    assert result.p_success == max(a.p_success for a in result.alternatives)
    # against a slate at DL 2 a player who minimises damage picks a smaller die than one who wants to succeed
    danger = Variant(allow_smaller_die=True, slate_damage_per_die="danger_level")
    succeed = check_odds(4, 2, 7, slate="red", danger_level=2, variant=danger)
    survive = check_odds(4, 2, 7, slate="red", danger_level=2, variant=danger, objective="damage")
    assert succeed.die_size == 20
    assert survive.expected_damage == min(a.expected_damage for a in survive.alternatives)
    assert survive.die_size < succeed.die_size


def test_restricted_slate_roll_rolls_only_the_slate_die_and_whites():
    """CHG-18, BQ-8: at Pie 0 the slate die is alone: no pairs, no slate damage."""
    restricted = Variant(slate_roll_restricted=True)
    result = check_odds(1, 0, 4, slate="red", variant=restricted)
    assert result.dice == 1
    assert result.slate_damage == Distribution.certain(0)
    assert result.p_success == Fraction(3, 6)


def test_odds_table_covers_the_lab_ranges_and_matches_single_questions():
    """§8 common inputs, BQ-1, BQ-3: Wil 0–4, Pie 0–6, Agi 0–4, targets 1–30, with and without slate."""
    rows = list(odds_table())
    assert len(rows) == 5 * 7 * 30 * (1 + 5)
    sample = random.Random(3).sample(rows, 40)
    for row in sample:
        slate = "red" if row.slate else None
        single = check_odds(row.wil, row.pie, row.target, agi=row.agi, slate=slate)
        assert row.p_success == single.p_success
        assert row.expected_slate_damage == single.slate_damage.mean()


def test_white_dice_cost_little_slate_damage_at_d4_and_a_lot_at_d20():
    """BQ-3, MV-SLATE-8, MV-SLATE-9: at d4 pairs absorb the white dice (expected damage
    2 − 2^−(Pie+1), never 2), at d20 each white die adds almost a full point."""
    d4 = [slate_joint(0, pie).damage().mean() for pie in range(7)]
    assert d4 == [2 - Fraction(1, 2 ** (pie + 1)) for pie in range(7)]
    d20 = [slate_joint(4, pie).damage().mean() for pie in range(7)]
    assert d20 == sorted(d20)
    assert d20[0] == Fraction(19, 10) and d20[6] > 5


# --------------------------------------------------------------------------------------------
# Mid-check: options, removed dice, rerolls and ±1
# --------------------------------------------------------------------------------------------


def test_ascension_options_show_each_choice_with_its_outcome():
    """MV-ASC-9, MV-CHECK-7: stop or ascend a face; each with its outcome now and after the best follow-up."""
    options = ascension_options([3, 3, 4, 4, 4], 2, target=12)
    stop, *faces = options
    assert stop.pair is None and stop.now.ap == stop.best.ap == 4
    assert stop.p_success == 0
    assert {o.value: (o.now.ap, o.best.ap, o.best.success) for o in faces} == {
        3: (4 + 3, 4 + 6, False),
        4: (4 + 3, 4 + 6, False),
    }
    assert ascension_options([3, 3, 4, 4, 4], 2, target=10)[1].p_success == 1
    assert ascension_options([3, 3, 4, 4, 4], 2)[1].p_success is None


def test_options_continue_from_dice_already_removed():
    """MV-ASC-2, MV-ASC-6: mid-check, ascended pairs keep their bonus and cannot leave the table empty."""
    roll = [3, 3, 4, 4, 4]
    plan = best_plan(roll, 0, removed=[0, 1])
    assert plan.ascensions == 2 and plan.ap == 4 + 2
    assert best_ap(roll, 0, removed=[0, 1]) == 6
    with pytest.raises(OddsError) as err:
        best_plan(roll, 0, removed=[0, 2])
    assert err.value.argument == "removed"
    with pytest.raises(OddsError):
        best_plan([3, 3], 0, removed=[0, 1])
    with pytest.raises(OddsError) as err:
        best_plan([("red", 2), ("blue", 2), ("black", 5)], 0, slate="red", removed=[0, 1])
    assert "slate die" in err.value.message


def test_reroll_odds_average_the_best_follow_up_over_every_face():
    """MV-SKILL-9, MV-ASC-9: reroll one die (SUG-7 skill), then ascend optimally."""
    roll = [("red", 5), ("blue", 5), ("black", 2)]
    result = reroll_odds(roll, 2, 0, size=6, slate="red", target=6)
    # black 5 pairs with blue 5 → AP 6, no damage; anything else: AP 5 and 2 damage
    assert result.p_success == Fraction(1, 6)
    assert result.slate_damage.as_dict() == {0: Fraction(1, 6), 2: Fraction(5, 6)}
    assert result.keep.ap == 5 and result.keep.success is False
    manual = Counter(best_plan([3, 3, face], 0, target=5).success for face in range(1, 7))
    assert reroll_odds([3, 3, 1], 2, 0, size=6, target=5).p_success == Fraction(manual[True], 6)
    with pytest.raises(OddsError) as err:
        reroll_odds([3, 3, 4], 0, 0, size=6, removed=[0, 1])
    assert err.value.argument == "index"


def test_adjust_options_stay_on_the_die_and_come_best_first():
    """SUG-7 ±1 skills with MV-ASC-8: faces change only through skills and stay within 1..size."""
    results = adjust_options([3, 4, 6], 1, 0, size=6, target=5)
    assert [d for d, _ in results] == [-1, 1]
    assert results[0][1].ap == 7  # 3,3,6: the 3s pair → 6 + 1
    assert adjust_options([6, 6, 1], 0, 0, size=6) == [(-1, best_plan([5, 6, 1], 0))]


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: die_size(-1), "wil"),
        (lambda: check_odds(1, -1, 5), "pie"),
        (lambda: check_odds(1, 0, 0), "target"),
        (lambda: check_odds(1, 0, 5, agi=-2), "agi"),
        (lambda: check_odds(1, 0, 5, danger_level=0), "danger_level"),
        (lambda: check_odds(1, 0, 5, slate="white"), "slate"),  # MV-SLATE-3
        (lambda: check_odds(1, 0, 5, objective="luck"), "objective"),
        (lambda: ap_distribution(1, 0, size=10), "size"),
        (lambda: best_ap([3, 0, 2], 0), "dice[1]"),
        (lambda: best_ap([("green", 3)], 0), "dice[0]"),
        (lambda: best_ap([], 0), "dice"),
        (lambda: best_ap([("white", 3), ("white", 3)], 0, slate="red"), "dice"),
        (lambda: reroll_odds([3, 3, 4], 5, 0, size=6), "index"),
        (lambda: reroll_odds([3, 3, 4], 0, 0, size=7), "size"),
    ],
)
def test_bad_arguments_raise_an_error_naming_the_argument(call, argument):
    """Quality rule: bad input gets a clear error naming the argument (OddsError)."""
    with pytest.raises(OddsError) as err:
        call()
    assert err.value.argument == argument
    assert err.value.as_dict()["code"] == "odds/invalid"


# --------------------------------------------------------------------------------------------
# Effects on a check in progress: bonuses already placed, boost points left, fixed bonuses
# --------------------------------------------------------------------------------------------


def test_boost_points_already_placed_and_left_to_place():
    """CHG-17, MV-CHECK-8: in boost mode a die scores face + the points put on it; pairs match faces."""
    # Pie 3 in boost mode: 2 points already on the red 4, 1 left; the 3s pair (bonus 1, Pie counted as 0)
    roll = [("red", 4, 2), ("blue", 3), ("black", 3)]
    plan = best_plan(roll, 3, variant=BOOST, points=1)
    assert (plan.ap, plan.pair_values) == (4 + 2 + 1 + 1, (3,))
    assert best_ap(roll, 3, pie_mode="boost") == 4 + 2 + 1 + 3  # default: all Pie still to place
    # a die's own bonus never makes it pair with another face
    assert best_plan([("red", 3, 1), ("blue", 4), ("black", 2)], 0).pairs == ()


def test_multi_die_bonuses_of_removed_pairs_are_already_on_the_dice():
    """CHG-12: with multi_die_checks each ascension bonus is placed on a die when taken, so the
    bonus of a removed pair is the die's own ``bonus``, not a bonus still to place."""
    roll = [("red", 6), ("blue", 4, 2), ("black", 3), ("white", 3)]
    plan = best_plan(roll, 1, required_count=2, target=6, variant=MULTI, removed=[2, 3])
    assert (plan.ap, plan.success, plan.ascensions) == (6, True, 1)
    assert dict(plan.scoring) == {0: 0, 1: 0}


def test_effects_fix_the_ascension_bonus_or_add_to_ap():
    """MV-ASC-1 with effects (SUG-3 Justice fixes the bonus at 1; The Sun's +3 AP): ``bonus`` and
    ``ap_bonus`` apply to rolled pools and to the odds before the roll alike."""
    assert best_plan([3, 3, 4], 4, bonus=1).ap == 5
    assert best_plan([3, 3, 4], 0, ap_bonus=3, target=8).success is True
    plain = check_odds(1, 2, 7)
    fixed = check_odds(1, 2, 7, bonus=1)
    assert fixed.ap == ap_distribution(1, 0, white=2)
    shifted = check_odds(1, 2, 10, ap_bonus=3)
    assert shifted.p_success == plain.p_success
    assert check_odds(1, 2, 7, slate="red", ap_bonus=2).p_success == check_odds(1, 2, 5, slate="red").p_success
    with pytest.raises(OddsError) as err:
        check_odds(1, 2, 7, bonus=-1)
    assert err.value.argument == "bonus"


def test_best_reroll_picks_the_die_worth_rerolling_or_none():
    """MV-SKILL-9 (a reroll skill, SUG-7) with MV-ASC-9: the bot rerolls the die that helps most."""
    from delve.maiden.odds import best_reroll

    # 1, 2, 6 against 7: only a pair of low dice beside the 6 helps (6 + 1). Rerolling the 1
    # succeeds on a 2, rerolling the 2 on a 1; rerolling the 6 never reaches 7
    choice = best_reroll([1, 2, 6], 0, size=6, target=7)
    assert choice is not None and choice.index == 0
    assert choice.p_success == Fraction(1, 6)
    assert reroll_odds([1, 2, 6], 2, 0, size=6, target=7).p_success == 0
    # a sure success is never rerolled
    assert best_reroll([6, 6, 6], 0, size=6, target=7) is None


def test_the_engine_suggestion_agrees_with_the_odds():
    """MV-ASC-9: the engine's best-ascension helper (delve.maiden.dice.best_ap) and this module
    give the same best AP on random pools, normal and slate (two readings of one rule must agree)."""
    from delve.maiden import dice as engine_dice

    rng = random.Random(12)
    for _ in range(400):
        size = rng.choice([4, 6, 8, 12, 20])
        pie = rng.randrange(0, 7)
        rule = rng.choice(["one_plus_pie", "pie"])
        faces = [rng.randint(1, size) for _ in range(3 + pie)]
        bonus = odds.ascension_bonus(pie, rule)
        assert engine_dice.best_ap(faces, bonus) == best_ap(faces, pie, None, rule)
        slate = rng.choice(["red", "blue", "black"])
        at = ["red", "blue", "black"].index(slate)
        others = [f for i, f in enumerate(faces) if i != at]
        assert engine_dice.best_ap(others, bonus, faces[at]) == best_ap(faces, pie, slate, rule)


def test_best_plan_is_the_first_of_the_ordered_plans_mv_asc_9() -> None:
    """MV-ASC-9: the suggestion is the first of every plan in their order (the best is picked
    without ordering the rest), over random pools, slates, removed pairs and variants."""
    chooser = random.Random(9)
    for _ in range(400):
        pie = chooser.randrange(4)
        slate = chooser.choice([None, "red", "blue", "black"])
        colours = pool_colours(pie, slate)
        faces = [chooser.randint(1, 6) for _ in colours]
        by_face: dict[int, list[int]] = {}
        for i, face in enumerate(faces):
            if colours[i] != slate:
                by_face.setdefault(face, []).append(i)
        removed = [i for group in by_face.values() if len(group) >= 2 and chooser.random() < 0.3 for i in group[:2]]
        if len(removed) == len(faces):
            removed = []
        variant = chooser.choice([DEFAULT, PIE_RULE, BOOST, MULTI])
        args = ([(c, f) for c, f in zip(colours, faces, strict=True)], pie)
        kwargs = {
            "slate": slate,
            "target": chooser.choice([None, chooser.randint(1, 12)]),
            "agi": chooser.randrange(3),
            "danger_level": chooser.randint(1, 3),
            "variant": variant,
            "removed": removed,
        }
        assert best_plan(*args, **kwargs) == ascension_plans(*args, **kwargs)[0]
