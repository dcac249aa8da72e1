"""Dice pools and Action Points (MV-CHECK-4..9, MV-ASC-1..9, MV-SLATE-2..6; CHG-11/12/17).

Pure functions of a check and a maiden's stats; ``checks.py`` owns the flow.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from delve.maiden.state import COLOURS, DIE_SIZES, WHITE, Check, Die, Settings


def die_size(wil: int, step: int = 0) -> int:
    """MV-CHECK-4: Wil 0..4+ gives d4, d6, d8, d12, d20; ``step`` moves along that ladder
    (the ``die_step`` mod, min d4; the ``die_bonus_size`` op)."""
    index = max(0, min(wil, 4) + step)
    return DIE_SIZES[min(index, len(DIE_SIZES) - 1)]


def pool(size: int, pie: int, *, slate: str | None, restricted: bool) -> list[Die]:
    """MV-CHECK-5: one red, one blue, one black and ``pie`` white dice, all of one size.
    CHG-18 (``slate_roll_restricted``): a slate check rolls only the slate colour and white."""
    colours = [slate] if restricted and slate is not None else list(COLOURS)
    return [Die(colour=c, size=size) for c in colours] + [Die(colour=WHITE, size=size) for _ in range(max(0, pie))]


def slate_index(check: Check) -> int | None:
    """The index of the slate-colour die, when the check has a slate that is not ignored."""
    if check.slate is None or check.ignore_slate:
        return None
    for i, die in enumerate(check.dice):
        if die.colour == check.slate:
            return i
    return None


def remaining(check: Check) -> list[int]:
    return [i for i, d in enumerate(check.dice) if not d.removed]


def value(die: Die) -> int:
    return (die.face or 0) + die.bonus


def highest(check: Check) -> int:
    """The die the mod ``reroll_highest`` rerolls right after the roll: the highest value, the
    first in the pool order (red, blue, black, then white) when several show it; white dice and
    the slate die included (MV-BOSS-10)."""
    return max(range(len(check.dice)), key=lambda i: (value(check.dice[i]), -i))


def ascension_bonus(settings: Settings, pie: int, fixed: int | None = None) -> int:
    """MV-ASC-1, CHG-11, CHG-17: 1 + Pie (rulebook) or Pie; with pie_mode boost, Pie counts as 0;
    the ``ascension_bonus_fixed`` mod overrides."""
    if fixed is not None:
        return fixed
    if settings.pie_mode == "boost":
        pie = 0
    return pie + 1 if settings.ascension_bonus == "one_plus_pie" else pie


def ap(check: Check, bonus: int, multi: bool) -> int:
    """MV-CHECK-8, MV-SLATE-2: the slate die (or the highest remaining die) plus the ascension
    bonuses and AP bonuses. With ``multi_die_checks`` (CHG-12) the bonuses sit on chosen dice
    and AP is the ``required``-th highest remaining value (success iff it reaches the target)."""
    slate = slate_index(check)
    if multi:
        if slate is not None:
            return value(check.dice[slate]) + check.ap_bonus
        values = sorted((value(check.dice[i]) for i in remaining(check)), reverse=True)
        if len(values) < check.required:
            return 0
        return values[check.required - 1] + check.ap_bonus
    base = value(check.dice[slate]) if slate is not None else max(value(check.dice[i]) for i in remaining(check))
    return base + check.ascensions * bonus + check.ap_bonus


def legal_pairs(check: Check) -> list[tuple[int, int]]:
    """MV-ASC-1/3/6: two remaining dice with equal faces (any colours); never the slate die
    (6b); in a check without slate at least one die must remain (6a)."""
    slate = slate_index(check)
    left = remaining(check)
    if slate is None and len(left) <= 2:
        return []
    pairs = []
    for i, j in combinations(left, 2):
        if slate in (i, j):
            continue
        if check.dice[i].face == check.dice[j].face:
            pairs.append((i, j))
    return pairs


def best_ap(faces: list[int], bonus: int, slate_face: int | None = None) -> int:
    """MV-ASC-9: the best AP reachable by ascension alone. ``faces`` are the non-slate dice when
    ``slate_face`` is given (then every disjoint pair is taken)."""
    counts = Counter(faces)
    if slate_face is not None:
        return slate_face + bonus * sum(c // 2 for c in counts.values())
    best = 0
    for m in counts:
        pairs = sum(c // 2 for v, c in counts.items() if v != m) + (counts[m] - 1) // 2
        best = max(best, m + bonus * pairs)
    return best


def slate_damage_dice(check: Check, agi: int) -> int:
    """MV-SLATE-4..6: remaining non-slate dice minus Agi (and ``ignore_slate_dice``), not below 0."""
    slate = slate_index(check)
    if slate is None:
        return 0
    others = sum(1 for i in remaining(check) if i != slate)
    return max(0, others - agi - check.ignore_slate_dice)
