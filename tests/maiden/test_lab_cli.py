"""``delve lab odds``: one check's exact odds on the command line (no Django, no database)."""

from __future__ import annotations

import pytest

from delve.cli import main
from delve.maiden.odds import Variant, check_odds


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["lab", "odds", *argv])
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_prints_p_success_as_fraction_and_percentage_with_the_ap_distribution(capsys):
    """MV-CHECK-4, MV-CHECK-5, MV-CHECK-9, MV-ASC-9: Wil 2 (d8), Pie 1, target 7."""
    code, out, err = run(capsys, "--wil", "2", "--pie", "1", "--target", "7")
    expected = check_odds(2, 1, 7)
    assert (code, err) == (0, "")
    assert "Wil 2 → d8, Pie 1 → 4 dice (red, blue, black, white), target 7" in out
    assert f"P(success) = {expected.p_success} = {float(expected.p_success) * 100:.2f}%" in out
    assert "P(success) = 105/128 = 82.03%" in out
    rows = [line.split() for line in out.splitlines() if line.strip() and line.split()[0].isdigit()]
    assert {int(r[0]): r[1] for r in rows} == {k: str(p) for k, p in expected.ap.outcomes}


def test_slate_options_print_the_slate_damage_and_the_total(capsys):
    """MV-SLATE-2, MV-SLATE-6, MV-SLATE-7, CHG-11: red slate, Agi 1, DL 2, bonus Pie."""
    code, out, _ = run(
        capsys,
        "--wil",
        "2",
        "--pie",
        "1",
        "--target",
        "7",
        "--slate",
        "red",
        "--agi",
        "1",
        "--dl",
        "2",
        "--bonus",
        "pie",
    )
    expected = check_odds(2, 1, 7, slate="red", agi=1, danger_level=2, variant=Variant(ascension_bonus="pie"))
    assert code == 0
    assert f"P(success) = {expected.p_success} = " in out
    assert "Slate red" in out and "ascension bonus Pie = 1" in out
    assert f"Expected total damage (slate damage + DL 2 on a failure, MV-SLATE-7): {expected.expected_damage}" in out
    for damage, p in expected.slate_damage.outcomes:
        assert any(line.split()[:2] == [str(damage), str(p)] for line in out.splitlines() if line.strip())


def test_target_from_base_and_difficulty_is_at_least_one(capsys):
    """MV-CHECK-3, OQ-36: --base 2 --difficulty -5 gives target 1: a sure success; the answer says the
    sum was raised to the minimum of 1, and shows the sum when it was not."""
    code, out, _ = run(capsys, "--wil", "0", "--pie", "0", "--base", "2", "--difficulty", "-5")
    assert code == 0
    assert "target 1 (base 2 + difficulty -5 = -3, raised to the minimum of 1: OQ-36)\n" in out
    assert "P(success) = 1 = 100.00%" in out
    code, out, _ = run(capsys, "--wil", "0", "--pie", "0", "--base", "3", "--difficulty", "2")
    assert code == 0 and "target 5 (base 3 + difficulty 2)\n" in out and "OQ-36" not in out
    code, out, _ = run(capsys, "--wil", "0", "--pie", "0", "--target", "5")
    assert code == 0 and "target 5\n" in out


def test_labels_say_only_what_applies_and_explain_optimal_ascension(capsys):
    """MV-ASC-9, MV-SLATE-7, CHG-12, CHG-10: an ordinary check's damage is DL on a failure (no slate
    named); a slate check's is the total; every answer says in plain words what optimal ascension is
    (docs/maiden-odds.md, "The objective"), and allow_smaller_die how the size is chosen."""
    code, out, _ = run(capsys, *BASE, "--dl", "2")
    assert code == 0
    assert "Expected damage (DL 2 on a failure): " in out and "slate" not in out.lower()
    assert "Optimal ascension (MV-ASC-9): after the roll, the pairs of equal faces ascended are those giving " in out
    assert "highest AP (one die must remain)" in out
    code, out, _ = run(capsys, *BASE, "--slate", "red")
    assert "every pair of equal non-slate dice is ascended" in out
    assert "Expected total damage (slate damage + DL 1 on a failure, MV-SLATE-7): " in out
    code, out, _ = run(capsys, "--wil", "2", "--pie", "2", "--target", "6", "--required", "2")
    assert "their bonuses placed so that 2 remaining dice reach the highest target they can" in out
    code, out, _ = run(capsys, *BASE, "--smaller-die")
    assert "chosen before the roll for the highest P(success), then the least expected damage" in out
    code, out, _ = run(capsys, *BASE, "--smaller-die", "--objective", "damage")
    assert "chosen before the roll for the least expected damage, then the highest P(success)" in out


def test_variants_on_the_command_line(capsys):
    """CHG-10, CHG-12, CHG-17, CHG-18, CHG-4b: every dice toggle has an option."""
    code, out, _ = run(capsys, "--wil", "2", "--pie", "2", "--target", "6", "--required", "2")
    assert code == 0 and "2 remaining dice must each reach the target" in out
    multi = check_odds(2, 2, 6, required_count=2, variant=Variant(multi_die_checks=True))
    assert f"P(success) = {multi.p_success} = " in out
    code, out, _ = run(capsys, "--wil", "1", "--pie", "3", "--target", "9", "--pie-mode", "boost")
    assert code == 0 and "then +3 onto the dice (pie_mode boost)" in out
    code, out, _ = run(
        capsys,
        *("--wil", "4", "--pie", "2", "--target", "9", "--slate", "red", "--dl", "2"),
        *("--slate-damage", "danger_level", "--smaller-die", "--objective", "damage"),
    )
    assert code == 0 and "rolling d4 (allow_smaller_die)" in out and "← chosen" in out
    code, out, _ = run(capsys, "--wil", "1", "--pie", "0", "--target", "4", "--slate", "blue", "--restricted-slate")
    assert code == 0 and "1 dice (blue)" in out and "P(success) = 1/2 = 50.00%" in out


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--wil", "x", "--pie", "1", "--target", "7"], "--wil"),
        (["--wil", "1", "--pie", "-1", "--target", "7"], "--pie"),
        (["--wil", "1", "--pie", "1", "--target", "0"], "--target"),
        (["--wil", "1", "--pie", "1"], "--target"),
        (["--wil", "1", "--pie", "1", "--target", "5", "--base", "3"], "--target"),
        (["--pie", "1", "--target", "7"], "--wil"),
        (["--wil", "1", "--pie", "1", "--target", "7", "--slate", "white"], "--slate"),
        (["--wil", "1", "--pie", "1", "--target", "7", "--agi", "2"], "--agi"),
        (["--wil", "1", "--pie", "1", "--target", "7", "--dl", "0"], "--dl"),
        (["--wil", "1", "--pie", "1", "--target", "7", "--bonus", "two"], "--bonus"),
        (["--wil", "1", "--pie", "1", "--target", "7", "--required", "0"], "--required"),
        (["--wil", "1", "--pie", "1", "--target", "7", "--colour", "red"], "--colour"),
    ],
)
def test_bad_arguments_get_one_line_naming_the_argument_and_exit_2(capsys, argv, option):
    """Quality rule: a one-line error naming the argument, exit status 2, nothing on stdout."""
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("delve lab odds: error:")
    assert option in err


BASE = ["--wil", "2", "--pie", "1", "--target", "7"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--target", "0"], "argument --target: 0 is below 1"),
        (["--target", "-5"], "argument --target: -5 is below 1"),
        ([*BASE, "--dl", "0"], "argument --dl: 0 is below 1"),
        ([*BASE, "--dl", "-5"], "argument --dl: -5 is below 1"),
        ([*BASE, "--required", "-2"], "argument --required: -2 is below 1"),
        ([*BASE, "--agi", "-1"], "argument --agi: -1 is below 0"),
    ],
)
def test_a_bound_is_named_as_it_is_whatever_the_value(capsys, argv, message):
    """Quality rule: one message per bound, always the real bound (not 'below 0' for a 1)."""
    if argv[0] == "--target":
        argv = ["--wil", "2", "--pie", "1", *argv]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == f"delve lab odds: error: {message}\n"


@pytest.mark.parametrize(
    ("extra", "option", "needs"),
    [
        (["--agi", "1"], "--agi", "--slate"),
        (["--agi", "0"], "--agi", "--slate"),
        (["--slate-damage", "danger_level"], "--slate-damage", "--slate"),
        (["--slate-damage", "1"], "--slate-damage", "--slate"),
        (["--restricted-slate"], "--restricted-slate", "--slate"),
        (["--objective", "damage"], "--objective", "--smaller-die"),
        (["--objective", "success"], "--objective", "--smaller-die"),
    ],
)
def test_an_option_that_needs_another_is_refused_without_it_naming_both(capsys, extra, option, needs):
    """CHG-10, CHG-18, CHG-4b, MV-SLATE-6: a dependent option is never silently ignored."""
    code, out, err = run(capsys, *BASE, *extra)
    assert (code, out) == (2, "")
    assert err.startswith(f"delve lab odds: error: argument {option}: only matters with {needs}")
    assert err.count("\n") == 1


def test_base_without_difficulty_is_refused_naming_both(capsys):
    """MV-CHECK-3: --base is the action markers of target = max(1, base + difficulty)."""
    code, out, err = run(capsys, "--wil", "2", "--pie", "1", "--base", "3")
    assert (code, out) == (2, "")
    assert err.startswith("delve lab odds: error: argument --base: only matters with --difficulty")


def test_required_dice_with_a_slate_are_refused_as_the_spec_forces_one(capsys):
    """CHG-12: a slate check always needs exactly one die (the slate's), so --required N > 1 with
    --slate would be ignored: it is refused, naming both options."""
    assert (
        check_odds(2, 1, 7, slate="red", required_count=2, variant=Variant(multi_die_checks=True)).required_count == 1
    )
    code, out, err = run(capsys, *BASE, "--required", "2", "--slate", "red")
    assert (code, out) == (2, "")
    assert err.startswith("delve lab odds: error: argument --required: a slate check needs exactly one die")
    assert "--slate" in err and err.count("\n") == 1
    code, out, _ = run(capsys, *BASE, "--required", "1", "--slate", "red")
    assert code == 0 and "P(success) = 43/128" in out


def test_more_required_dice_than_the_check_rolls_are_refused(capsys):
    """CHG-12: N of n dice must reach the target; n is 3 + Pie, so N > 3 + Pie can never succeed."""
    code, out, err = run(capsys, "--wil", "2", "--pie", "0", "--target", "7", "--required", "4")
    assert (code, out) == (2, "")
    assert err == (
        "delve lab odds: error: argument --required: 4 dice must reach the target but the check rolls only 3 "
        "(3 + Pie 0)\n"
    )
    code, out, _ = run(capsys, *BASE, "--required", "4")
    assert code == 0 and "4 remaining dice must each reach the target" in out


def test_lab_without_a_command_names_the_choices(capsys):
    code = main(["lab"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == "delve lab: error: argument command: choose one of: odds, report"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--wil", "4", "--pie", "100", "--target", "30"], "argument --pie: 100 is above 13, the lab's limit"),
        (["--wil", "13", "--pie", "1", "--target", "7"], "argument --wil: 13 is above 12, the lab's limit"),
        ([*BASE, "--slate", "red", "--agi", "13"], "argument --agi: 13 is above 12, the lab's limit"),
        ([*BASE, "--dl", "13"], "argument --dl: 13 is above 12, the lab's limit"),
        (["--wil", "2", "--pie", "1", "--target", "61"], "argument --target: 61 is above 60, the lab's limit"),
        (["--wil", "2", "--pie", "1", "--base", "41", "--difficulty", "0"], "argument --base: 41 is above 40"),
        (["--wil", "2", "--pie", "1", "--base", "3", "--difficulty", "41"], "argument --difficulty: 41 is above 40"),
        (["--wil", "2", "--pie", "1", "--base", "3", "--difficulty", "-41"], "argument --difficulty: -41 is below -40"),
        (["--wil", "2", "--pie", "4", "--target", "7", "--required", "5"], "argument --required: 5 is above 4"),
        (
            ["--wil", "4", "--pie", "9", "--target", "7", "--required", "2"],
            "argument --pie: 9 is above 8 with --required 2",
        ),
    ],
)
def test_every_numeric_option_has_an_upper_limit_refused_in_one_line(capsys, argv, message):
    """MV-LVL-7 (at most 12 stat cards: familiar, first level-up, 10 bosses), CHG-12 (N at most about 3),
    MV-SPEC-9 (DL uncapped, but BQ-3/BQ-9 ask about DL 1-5), MV-CHECK-3: a huge input is refused at once,
    in one line naming the option, its limit and why, exit status 2 (it used to count silently for minutes)."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"delve lab odds: error: {message}"), err
    assert err.count("\n") == 1 and "(" in err


def test_the_largest_pool_allowed_answers_quickly_with_percentages_for_long_fractions(capsys):
    """MV-CHECK-9, MV-ASC-9: Pie 13 (16 d20 dice, the lab's limit) answers in well under two seconds of
    counting; its 40-digit fractions are shown as percentages only, --fractions prints them exactly."""
    import time

    started = time.process_time()
    code, out, err = run(capsys, "--wil", "4", "--pie", "13", "--target", "30")
    assert (code, err) == (0, "")
    assert time.process_time() - started < 2.0
    expected = check_odds(4, 13, 30)
    assert len(str(expected.p_success)) > 20
    assert f"P(success) = {float(expected.p_success) * 100:.2f}%\n" in out
    assert str(expected.p_success) not in out
    assert max(len(line) for line in out.splitlines()) < 200
    assert "--fractions prints them" in out
    code, out, _ = run(capsys, "--wil", "4", "--pie", "13", "--target", "30", "--fractions")
    assert code == 0 and f"P(success) = {expected.p_success} = " in out
    assert all(str(p) in out for _, p in expected.ap.outcomes)
    assert "--fractions prints them" not in out


def test_short_fractions_stay_and_tiny_probabilities_never_read_as_zero(capsys):
    """MV-CHECK-9: a probability that is neither 0 nor 1 is never printed as 0.00% or 100.00%."""
    code, out, _ = run(capsys, "--wil", "4", "--pie", "6", "--target", "48")
    assert code == 0
    table = out.split("AP distribution:")[1].split("Expected damage")[0]
    assert "<0.01%" in table and "0.00%" not in table.replace("100.00%", "")
    code, out, _ = run(capsys, *BASE)
    assert "P(success) = 105/128 = 82.03%" in out and "--fractions" not in out


@pytest.mark.parametrize(
    "argv",
    [
        ["lab", "odds", "--wil", "4", "--pie", "13", "--target", "30", "--fractions"],
        ["lab", "odds", *BASE],
        ["cards"],
        ["maiden", "play", "--players", "1", "--seed", "3"],
    ],
)
def test_a_closed_stdout_stops_quietly_without_a_traceback(argv):
    """Quality rule: ``delve ... | head`` stops quietly (exit status 141, as a shell reports for
    SIGPIPE), without a BrokenPipeError traceback, whether the pipe closes on a write or on the
    last flush."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "src"
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first line
    try:
        done = subprocess.run(
            [sys.executable, "-m", "delve.cli", *argv],
            stdout=writer,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(src)},
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)
    assert done.stderr.decode() == ""
    assert done.returncode == 141


def test_slate_checks_print_the_total_damage_distribution_and_p_death_from_life_1_to_6(capsys):
    """BQ-3, BQ-9, MV-SLATE-7, MV-DEATH-1, CHG-4b: the total damage (slate damage + DL on a failure) is
    printed as a distribution with P(≥), and P(death) from life L = P(total damage ≥ L) for L = 1..6,
    exactly as odds.check_odds(...).damage says (a maiden dies when her life reaches 0)."""
    argv = [
        "--wil",
        "2",
        "--pie",
        "1",
        "--target",
        "7",
        "--slate",
        "red",
        "--dl",
        "2",
        "--slate-damage",
        "danger_level",
    ]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    expected = check_odds(2, 1, 7, slate="red", danger_level=2, variant=Variant(slate_damage_per_die="danger_level"))
    section = out.split("Total damage (slate damage + DL 2 on a failure, MV-SLATE-7):\n")[1].split("Expected")[0]
    rows = [line.split() for line in section.splitlines()[1:]]
    assert [(int(r[0]), r[1]) for r in rows] == [(d, str(p)) for d, p in expected.damage.outcomes]
    assert [r[3] for r in rows] == [
        f"{float(expected.damage.at_least(d)) * 100:.2f}%" for d, _ in expected.damage.outcomes
    ]
    assert "P(death) from life L = P(total damage ≥ L) (MV-DEATH-1, BQ-3, BQ-9):" in out
    line = out.split("(MV-DEATH-1, BQ-3, BQ-9):\n")[1].splitlines()[0]
    assert line.split() == [
        part for life in range(1, 7) for part in (f"L={life}", f"{float(expected.damage.at_least(life)) * 100:.2f}%")
    ]
    assert "L=4 82.81%" in line  # BQ-9: P(damage >= 4) at DL 2
    code, out, _ = run(capsys, *BASE, "--dl", "3")
    assert "Total damage" not in out  # without a slate the damage is DL on a failure: one line says it
    assert "L=1 17.97%   L=2 17.97%   L=3 17.97%   L=4 0.00%" in out


@pytest.mark.parametrize(
    ("target", "reference"), [(10, 0.909), (12, 0.834), (14, 0.725), (16, 0.578), (18, 0.386), (20, 0.143)]
)
def test_no_ascension_gives_the_spec_8_3_baseline_of_3d20(capsys, target, reference):
    """Spec §8.3 "3d20, highest die with no ascension" (BQ-11): P(max ≥ T) = 0.909, 0.834, 0.725,
    0.578, 0.386, 0.143 for T = 10..20 step 2, through `delve lab odds --no-ascension`."""
    from fractions import Fraction

    code, out, err = run(capsys, "--wil", "4", "--pie", "0", "--target", str(target), "--no-ascension")
    assert (code, err) == (0, "")
    line = next(line for line in out.splitlines() if line.startswith("P(success) = "))
    exact = Fraction(line.split()[2])
    assert exact == 1 - Fraction(target - 1, 20) ** 3
    assert round(float(exact), 3) == reference
    assert "No ascension: AP is the highest die as rolled." in out
    assert "ascension bonus" not in out


def test_no_ascension_with_a_slate_or_several_dice_takes_no_pair(capsys):
    """MV-SLATE-2, MV-SLATE-6, CHG-12, the no_ascension mod: with a slate, AP is the slate die as rolled
    and every non-slate die beyond Agi deals damage (no pair removes any); with N required dice, the N
    highest dice must reach the target (checked against every roll); --bonus is refused with it."""
    from fractions import Fraction
    from itertools import product

    code, out, _ = run(capsys, "--wil", "2", "--pie", "2", "--target", "6", "--no-ascension", "--slate", "red")
    assert code == 0 and "P(success) = 3/8 = 37.50%" in out
    assert "AP is the red die as rolled, and every non-slate die counts for slate damage" in out
    assert "       4  1  100.00%" in out  # slate damage: the 4 non-slate dice, always
    code, out, _ = run(capsys, "--wil", "2", "--pie", "2", "--target", "6", "--no-ascension", "--required", "2")
    wins = sum(1 for roll in product(range(1, 9), repeat=5) if sorted(roll)[-2] >= 6)
    assert code == 0 and f"P(success) = {Fraction(wins, 8**5)} = " in out
    code, out, err = run(capsys, *BASE, "--no-ascension", "--bonus", "pie")
    assert (code, out) == (2, "")
    assert err.startswith("delve lab odds: error: argument --bonus: does not matter with --no-ascension")


def _p_success(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("P(success) = "))


def test_a_named_cards_required_count_is_not_a_rulebook_rule_and_multi_die_counts_it_chg_12(capsys):
    """CHG-12: required_count (r04 Empty Barracks: 3) is a rule of the multi_die_checks variant only,
    off by default. --room alone gives the rulebook's odds (one die reaching the target) and a line
    says the count is not counted and how to count it; --multi-die counts the card's own count,
    the same odds as --required 3; --required N replaces it and says so; --multi-die without a
    named check is refused in one line."""
    round5 = ("--room", "r04", "--round", "5", "--wil", "1", "--pie", "1")  # target 3 + 0
    code, out, err = run(capsys, *round5)
    assert (code, err) == (0, "")
    assert f"P(success) = {check_odds(1, 1, 3).p_success}" in out
    assert (
        "Rulebook: the required_count 3 of room card r04 Empty Barracks is not counted (it is a rule of the "
        "multi_die_checks variant, CHG-12, off by default); --multi-die counts it"
    ) in out
    multi = check_odds(1, 1, 3, required_count=3, variant=Variant(multi_die_checks=True))
    code, out, err = run(capsys, *round5, "--multi-die")
    assert (code, err) == (0, "")
    assert "Multi-die check: 3 remaining dice must each reach the target (CHG-12)" in out
    assert f"P(success) = {multi.p_success} =" in out and "Rulebook:" not in out
    code, same, _ = run(capsys, *round5, "--required", "3")
    assert code == 0 and _p_success(same) == _p_success(out)
    code, out, _ = run(capsys, *round5, "--required", "2")
    assert code == 0 and "--required 2 replaces the required_count 3 of room card r04 Empty Barracks" in out
    code, out, _ = run(capsys, *round5, "--multi-die", "--slate", "red")
    assert code == 0 and "is 1 with a slate (the slate die alone)" in out
    code, out, err = run(capsys, "--wil", "1", "--pie", "1", "--target", "4", "--multi-die")
    assert (code, out) == (2, "")
    assert err.startswith("delve lab odds: error: argument --multi-die: counts a named room card's")


def test_multi_die_odds_with_the_highest_die_rerolled_are_exact_at_5d20_and_refused_beyond_chg_12(capsys):
    """CHG-12 with reroll_highest (MV-BOSS-10): 5d20 needing 2 dice (Pie 2) was refused above 4d20;
    it is now counted (the fraction is the one the former count of every sorted roll and fresh face
    gives, 850,080 cases, run once without its limit); 6d20 (Pie 3) is refused in one line
    naming the dice, the time it would take and the largest pools the lab counts."""
    from fractions import Fraction

    multi = Variant(multi_die_checks=True)
    result = check_odds(4, 2, 12, required_count=2, variant=multi, reroll_highest=True)
    assert sum(p for _, p in result.ap.outcomes) == 1
    assert result.p_success == Fraction(4992219, 8000000)
    code, out, err = run(capsys, "--wil", "4", "--pie", "2", "--target", "12", "--required", "2", "--reroll-highest")
    assert (code, err) == (0, "") and "P(success) = 4992219/8000000 = 62.40%" in out
    code, out, err = run(capsys, "--wil", "4", "--pie", "3", "--target", "12", "--required", "2", "--reroll-highest")
    assert (code, out) == (2, "")
    assert err.startswith(
        "delve lab odds: error: argument --reroll-highest: 6d20 with 2 required dice (multi_die_checks) after "
        "the reroll of the highest die is not counted: its exact count would take about 8 s"
    )
    assert "at most 5d20 (Pie 2), 7d12, 10d8 or 11d6" in err
