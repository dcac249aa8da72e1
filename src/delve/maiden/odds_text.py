"""Plain-text rendering of one check's odds (``delve lab odds``): exact fractions and percentages."""

from __future__ import annotations

from fractions import Fraction

from delve.maiden.odds import CheckOdds, Distribution, Variant, ascension_bonus, die_size, pool_colours


def fraction_and_percent(p: Fraction) -> str:
    """``105/128 = 82.03%`` (``0`` and ``1`` stay whole numbers)."""
    return f"{p} = {float(p) * 100:.2f}%"


def render(odds: CheckOdds, *, wil: int, pie: int, agi: int, danger_level: int, variant: Variant) -> str:
    """The answer to one question: P(success) first, then the distributions behind it."""
    colours = pool_colours(pie, odds.slate, restricted=variant.slate_roll_restricted and odds.slate is not None)
    if variant.pie_mode == "boost":
        bonus = f"ascension bonus {variant.bonus(pie)} (Pie counted as 0), then +{pie} onto the dice (pie_mode boost)"
    else:
        rule = "1 + Pie" if variant.ascension_bonus == "one_plus_pie" else "Pie"
        bonus = f"ascension bonus {rule} = {ascension_bonus(pie, variant.ascension_bonus)}"
    dice = f"d{die_size(wil)}"
    if odds.die_size != die_size(wil):
        dice += f", rolling d{odds.die_size} (allow_smaller_die)"
    lines = [
        f"White Maiden check: Wil {wil} → {dice}, Pie {pie} → {odds.dice} dice ({', '.join(colours)}), "
        f"target {odds.target}",
        f"Rules: {bonus}; optimal ascension (MV-ASC-9)",
    ]
    if odds.required_count > 1:
        lines.append(f"Multi-die check: {odds.required_count} remaining dice must each reach the target (CHG-12)")
    if odds.slate is not None:
        per_die = "DL" if variant.slate_damage_per_die == "danger_level" else "1"
        lines.append(
            f"Slate {odds.slate}: AP is the {odds.slate} die + bonuses; damage per remaining non-slate die "
            f"beyond Agi {agi}: {per_die} (DL {danger_level})"
        )
    lines.append(f"P(success) = {fraction_and_percent(odds.p_success)}")
    if len(odds.alternatives) > 1:
        lines.append("Die sizes compared (allow_smaller_die):")
        for alt in odds.alternatives:
            mark = "  ← chosen" if alt.die_size == odds.die_size else ""
            lines.append(
                f"  d{alt.die_size:<3} P(success) {float(alt.p_success) * 100:6.2f}%   "
                f"expected damage {float(alt.expected_damage):.3f}{mark}"
            )
    label = "AP (highest target reached by the required dice)" if odds.required_count > 1 else "AP"
    lines.append(f"{label} distribution:")
    lines.extend(_table(odds.ap, "AP", cumulative=True))
    if odds.slate is not None:
        lines.append(f"Slate damage (expected {_decimal(odds.slate_damage.mean())}):")
        lines.extend(_table(odds.slate_damage, "damage", cumulative=False))
    lines.append(
        f"Expected damage (slate + DL {danger_level} on a failure): {odds.expected_damage} "
        f"≈ {_decimal(odds.expected_damage)}"
    )
    return "\n".join(lines)


def _decimal(p: Fraction) -> str:
    return f"{float(p):.3f}"


def _table(dist: Distribution, name: str, *, cumulative: bool) -> list[str]:
    width = max(len(str(p)) for _, p in dist.outcomes)
    head = f"  {name:>6}  {'P':<{width}}  {'%':>7}" + ("  P(≥)" if cumulative else "")
    rows = [head]
    for value, p in dist.outcomes:
        row = f"  {value:>6}  {p!s:<{width}}  {float(p) * 100:6.2f}%"
        if cumulative:
            row += f"  {float(dist.at_least(value)) * 100:6.2f}%"
        rows.append(row)
    return rows
