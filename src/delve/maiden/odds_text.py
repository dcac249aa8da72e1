"""Plain-text rendering of one check's odds (``delve lab odds``): exact fractions and percentages."""

from __future__ import annotations

from fractions import Fraction

from delve.maiden.odds import CheckOdds, Distribution, Variant, ascension_bonus, die_size, pool_colours

#: An exact fraction longer than this many characters is shown as a percentage only, unless asked
#: for (``--fractions``): a nine-die d20 pool's fractions still fit, a sixteen-die pool's 40 digits do not.
FRACTION_WIDTH = 20
#: The lives P(death) is printed for (BQ-9: "P(death) from life L = 1…6").
LIVES = range(1, 7)


def percent(p: Fraction) -> str:
    """``82.03%``; a probability that is neither 0 nor 1 never reads as ``0.00%`` or ``100.00%``."""
    if 0 < p < Fraction(1, 10_000):
        return "<0.01%"
    if Fraction(9_999, 10_000) < p < 1:
        return ">99.99%"
    return f"{float(p) * 100:.2f}%"


def short(p: Fraction, *, exact: bool = False) -> bool:
    """Whether ``p``'s fraction is short enough to print (or every fraction is asked for)."""
    return exact or len(str(p)) <= FRACTION_WIDTH


def fraction_and_percent(p: Fraction, *, exact: bool = False) -> str:
    """``105/128 = 82.03%`` (``0`` and ``1`` stay whole numbers); a long fraction is left out
    (``72.45%``) unless ``exact``."""
    return f"{p} = {percent(p)}" if short(p, exact=exact) else percent(p)


def render(
    odds: CheckOdds,
    *,
    wil: int,
    pie: int,
    agi: int,
    danger_level: int,
    variant: Variant,
    fractions: bool = False,
    target_from: tuple[int, int] | None = None,
    objective: str = "success",
    no_ascension: bool = False,
    notes: tuple[str, ...] = (),
    failure_damage: int | None = None,
    white: int | None = None,
    die_step: int = 0,
    slate_per_die_delta: int = 0,
) -> str:
    """The answer to one question: P(success) first, then the distributions behind it. Exact
    fractions longer than :data:`FRACTION_WIDTH` are shown as percentages only, unless ``fractions``.
    ``target_from`` is (base, difficulty) when the target was given that way (MV-CHECK-3);
    ``no_ascension``: the odds are :func:`delve.maiden.odds_baseline.no_ascension_odds`.
    ``notes``: lines printed under the rules (the room card or boss action named, its mods);
    ``failure_damage``: the damage of a failure when mods change it from the DL; ``white``: the
    white dice rolled when not Pie (``no_white_dice``); ``die_step``: the ``die_step`` mod;
    ``slate_per_die_delta``: the mod of that name, in the slate line."""
    restricted = variant.slate_roll_restricted and odds.slate is not None
    colours = pool_colours(pie, odds.slate, restricted=restricted, white=white)
    failure = (
        f"DL {danger_level}"
        if failure_damage is None or failure_damage == danger_level
        else (f"DL {danger_level} {failure_damage - danger_level:+d} (failure_damage_delta) = {failure_damage}")
    )
    if no_ascension:
        boost = f", then +{pie} onto the dice (pie_mode boost)" if variant.pie_mode == "boost" and pie else ""
        bonus = f"no ascension (no pair is taken: the §8.3 baseline, or a no_ascension room){boost}"
    elif variant.pie_mode == "boost":
        bonus = f"ascension bonus {variant.bonus(pie)} (Pie counted as 0), then +{pie} onto the dice (pie_mode boost)"
    else:
        rule = "1 + Pie" if variant.ascension_bonus == "one_plus_pie" else "Pie"
        bonus = f"ascension bonus {rule} = {ascension_bonus(pie, variant.ascension_bonus)}"
    dice = f"d{die_size(wil)}"
    if odds.die_size != die_size(wil):
        why = "allow_smaller_die" if variant.allow_smaller_die and not die_step else f"die_step {die_step}"
        dice += f", rolling d{odds.die_size} ({why})"
    lines = [
        f"White Maiden check: Wil {wil} → {dice}, Pie {pie} → {odds.dice} dice ({', '.join(colours)}), "
        f"target {odds.target}{_target_note(odds.target, target_from)}",
        f"Rules: {bonus}",
        *notes,
    ]
    if odds.required_count > 1:
        lines.append(f"Multi-die check: {odds.required_count} remaining dice must each reach the target (CHG-12)")
    if odds.slate is not None:
        per_die = "DL" if variant.slate_damage_per_die == "danger_level" else "1"
        if slate_per_die_delta:
            dealt = max(0, variant.per_die(danger_level) + slate_per_die_delta)
            per_die = f"{per_die} {slate_per_die_delta:+d} (slate_per_die_delta) = {dealt}"
        lines.append(
            f"Slate {odds.slate}: AP is the {odds.slate} die{'' if no_ascension else ' + bonuses'}; damage per "
            "remaining non-slate die "
            f"beyond Agi {agi}: {per_die} (DL {danger_level})"
        )
    lines.append(_no_ascension(odds, variant.boost(pie)) if no_ascension else _optimal(odds))
    if odds.alternatives:
        first, then = ("the highest P(success)", "the least expected damage")
        if objective == "damage":
            first, then = ("the least expected damage", "the highest P(success)")
        lines.append(f"The die size is chosen before the roll for {first}, then {then} (allow_smaller_die).")
    lines.append(f"P(success) = {fraction_and_percent(odds.p_success, exact=fractions)}")
    if len(odds.alternatives) > 1:
        lines.append("Die sizes compared (allow_smaller_die):")
        for alt in odds.alternatives:
            mark = "  ← chosen" if alt.die_size == odds.die_size else ""
            lines.append(
                f"  d{alt.die_size:<3} P(success) {percent(alt.p_success):>7}   "
                f"expected damage {float(alt.expected_damage):.3f}{mark}"
            )
    label = "AP (highest target reached by the required dice)" if odds.required_count > 1 else "AP"
    lines.append(f"{label} distribution:")
    lines.extend(_table(odds.ap, "AP", cumulative=True, exact=fractions))
    if odds.slate is not None:
        lines.append(f"Slate damage (expected {_decimal(odds.slate_damage.mean())}):")
        lines.extend(_table(odds.slate_damage, "damage", cumulative=False, exact=fractions))
    expected = odds.expected_damage
    exact = f"{expected} ≈ " if short(expected, exact=fractions) else "≈ "
    if odds.slate is None:
        lines.append(f"Expected damage ({failure} on a failure): {exact}{_decimal(expected)}")
    else:
        lines.append(f"Total damage (slate damage + {failure} on a failure, MV-SLATE-7):")
        lines.extend(_table(odds.damage, "damage", cumulative=True, exact=fractions))
        lines.append(
            f"Expected total damage (slate damage + {failure} on a failure, MV-SLATE-7): {exact}{_decimal(expected)}"
        )
    lines.append("P(death) from life L = P(total damage ≥ L) (MV-DEATH-1, BQ-3, BQ-9):")
    lines.append("  " + "   ".join(f"L={life} {percent(odds.damage.at_least(life))}" for life in LIVES))
    if not fractions and _shortened(odds):
        lines.append(
            f"(Fractions longer than {FRACTION_WIDTH} characters are shown as percentages: --fractions prints them.)"
        )
    return "\n".join(lines)


def _target_note(target: int, target_from: tuple[int, int] | None) -> str:
    """How a target given as base and difficulty was reached, and whether it was raised to 1 (OQ-36)."""
    if target_from is None:
        return ""
    base, difficulty = target_from
    total = base + difficulty
    sum_text = f"base {base} + difficulty {difficulty}"
    if total < target:
        return f" ({sum_text} = {total}, raised to the minimum of 1: OQ-36)"
    return f" ({sum_text})"


def _no_ascension(odds: CheckOdds, boost: int) -> str:
    """What the check is without ascension, in plain words (``boost``: Pie points of pie_mode boost)."""
    points = f" (plus the {boost} Pie points of pie_mode boost)" if boost else ""
    if odds.required_count > 1:
        return f"No ascension: the {odds.required_count} highest dice must each reach the target as rolled{points}."
    if odds.slate is not None:
        return (
            f"No ascension: AP is the {odds.slate} die as rolled{points}, and every non-slate die counts for "
            "slate damage."
        )
    return f"No ascension: AP is the highest die as rolled{points}."


def _optimal(odds: CheckOdds) -> str:
    """What optimal ascension means for this check, in plain words (docs/maiden-odds.md)."""
    if odds.required_count > 1:
        return (
            "Optimal ascension (MV-ASC-9): after the roll, pairs of equal faces are ascended and their bonuses "
            f"placed so that {odds.required_count} remaining dice reach the highest target they can."
        )
    if odds.slate is not None:
        return (
            "Optimal ascension (MV-ASC-9): after the roll, every pair of equal non-slate dice is ascended: each "
            "pair adds the bonus to AP and takes two dice out of the slate damage, so success and damage never "
            "pull apart."
        )
    return (
        "Optimal ascension (MV-ASC-9): after the roll, the pairs of equal faces ascended are those giving the "
        "highest AP (one die must remain), which is the highest chance of success whatever the target."
    )


def _shortened(odds: CheckOdds) -> bool:
    """Whether some exact fraction of the answer was left out."""
    values = [odds.p_success, odds.expected_damage, *(p for _, p in odds.ap.outcomes)]
    if odds.slate is not None:
        values.extend(p for _, p in (*odds.slate_damage.outcomes, *odds.damage.outcomes))
    return not all(short(p) for p in values)


def _decimal(p: Fraction) -> str:
    return f"{float(p):.3f}"


def _table(dist: Distribution, name: str, *, cumulative: bool, exact: bool) -> list[str]:
    """One row per value: the exact fraction (when every one of the table is short, or ``exact``),
    the percentage and, if ``cumulative``, P(≥ value)."""
    with_fraction = all(short(p, exact=exact) for _, p in dist.outcomes)
    width = max(len(str(p)) for _, p in dist.outcomes) if with_fraction else 0
    head = f"  {name:>6}  " + (f"{'P':<{width}}  " if with_fraction else "") + f"{'%':>7}"
    rows = [head + ("  P(≥)" if cumulative else "")]
    for value, p in dist.outcomes:
        row = f"  {value:>6}  " + (f"{p!s:<{width}}  " if with_fraction else "") + f"{percent(p):>7}"
        if cumulative:
            row += f"  {percent(dist.at_least(value)):>7}"
        rows.append(row)
    return rows
