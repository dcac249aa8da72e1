"""Exact odds of White Maiden checks: dice, ascension, slate (spec §4.6-§4.8, §6.3, §8).

Everything here is a pure function of its arguments and returns exact ``Fraction``s. Nothing is
sampled. Three kinds of question are answered:

* **A rolled pool** (the board screen and the engine, mid-check): :func:`best_ap`,
  :func:`best_plan`, :func:`ascension_plans` (every legal way to ascend, with its AP, success and
  slate damage), :func:`ascension_options` (the next choice the player can make, each with the
  outcome of the best follow-up), :func:`slate_damage`, and the skills that touch one die:
  :func:`reroll_odds` (reroll one die, then play optimally), :func:`best_reroll` (which die, if
  any) and :func:`adjust_options` (±1). Each takes the check it asks about as the keyword
  arguments of :class:`Check` (the slate, target, Agi, DL, mid-check state, effects), validated
  there in one place.
* **Before the roll** (the screen's odds, the bots, the lab): :func:`check_odds` (P(success),
  AP, slate damage, their joint distribution and the total damage for one check),
  :func:`ap_distribution`, :func:`success_probability`, :func:`slate_joint`, :func:`pair_distribution`,
  :func:`odds_table`.
* **Small helpers**: :func:`die_size` (MV-CHECK-4), :func:`pool_colours` (MV-CHECK-5),
  :func:`target_number` (MV-CHECK-3), :func:`ascension_bonus` (MV-ASC-1, CHG-11).

Optimal play (the objective), documented in docs/maiden-odds.md:

* A normal check maximises AP (MV-ASC-9); that maximises P(success) for every target at once.
* A slate check removes every disjoint non-slate pair: each pair raises AP (or leaves it, with a
  bonus of 0) *and* removes two damage dice, so "most success" and "least damage" never disagree.
* With ``multi_die_checks`` the "AP" of a pool is the highest target that ``required_count``
  remaining dice can all reach once the bonuses are placed, one bonus per die, optimally.
* Where the player has a real trade-off (``allow_smaller_die``: a smaller die pairs more often
  but rolls lower), :func:`check_odds` maximises P(success), then minimises the expected total
  damage (``objective="success"``), or the reverse (``objective="damage"``); it also returns the
  odds of every size it compared, so a caller can choose otherwise.

Method: the pool's AP depends only on how many dice show each face, so the distributions are
computed by a dynamic programme over the faces (highest first) whose state is a few small
integers; each state carries the number of ordered rolls that reach it (a product of binomial
coefficients), so ``3d20 + 6 white`` costs a few thousand steps instead of 20**9 rolls. Results
are cached per (die size, pool size, bonus, ...).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, lru_cache
from math import comb, lcm
from typing import Final, Literal, NamedTuple, TypedDict, cast, get_args

from typing_extensions import Unpack

from delve.kernel.errors import DelveError

Colour = Literal["red", "blue", "black", "white"]
SlateColour = Literal["red", "blue", "black"]
AscensionBonus = Literal["one_plus_pie", "pie"]
PieMode = Literal["ascension", "boost"]
SlateDamagePerDie = Literal["1", "danger_level"]
Objective = Literal["success", "damage"]

DIE_SIZES: Final = (4, 6, 8, 12, 20)
"""Die size by Wil 0, 1, 2, 3, 4+ (MV-CHECK-4)."""
COLOURS: Final[tuple[Colour, ...]] = ("red", "blue", "black", "white")
SLATE_COLOURS: Final[tuple[SlateColour, ...]] = ("red", "blue", "black")

_IMPOSSIBLE: Final = 1 << 30


class OddsError(DelveError):
    """A question the odds cannot answer as asked; ``argument`` names the bad argument."""

    code = "odds/invalid"

    def __init__(self, argument: str, reason: str) -> None:
        super().__init__(f"{argument}: {reason}", argument=argument)
        self.argument = argument
        self.reason = reason


# --------------------------------------------------------------------------------------------
# Variants and small rules
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """The toggles of spec §6.3 that change the dice (defaults: the rulebook).

    :raises OddsError: for a value the toggle does not have.
    """

    ascension_bonus: AscensionBonus = "one_plus_pie"  # CHG-11
    pie_mode: PieMode = "ascension"  # CHG-17
    slate_damage_per_die: SlateDamagePerDie = "1"  # CHG-4b
    multi_die_checks: bool = False  # CHG-12
    allow_smaller_die: bool = False  # CHG-10 (simulation only)
    slate_roll_restricted: bool = False  # CHG-18 (simulation only)

    def __post_init__(self) -> None:
        for name, allowed in (
            ("ascension_bonus", get_args(AscensionBonus)),
            ("pie_mode", get_args(PieMode)),
            ("slate_damage_per_die", get_args(SlateDamagePerDie)),
        ):
            if getattr(self, name) not in allowed:
                raise OddsError(name, f"{getattr(self, name)!r} is not one of {', '.join(allowed)}")
        for name in ("multi_die_checks", "allow_smaller_die", "slate_roll_restricted"):
            if not isinstance(getattr(self, name), bool):
                raise OddsError(name, f"{getattr(self, name)!r} is not true or false")

    @classmethod
    def from_settings(cls, settings: Mapping[str, object] | object) -> Variant:
        """The dice toggles of a game's settings: a mapping, or an object with those attributes
        (the engine's ``Settings``); other keys are ignored and ``slate_damage_per_die`` may be 1."""
        values: dict[str, object] = {}
        for name in cls.__dataclass_fields__:
            if isinstance(settings, Mapping):
                if name not in settings:
                    continue
                value = settings[name]
            elif hasattr(settings, name):
                value = getattr(settings, name)
            else:
                continue
            values[name] = "1" if name == "slate_damage_per_die" and value == 1 else value
        return cls(**values)  # type: ignore[arg-type]  # validated in __post_init__

    def bonus(self, pie: int) -> int:
        """AP added by one ascension (MV-ASC-1, CHG-11; with ``pie_mode=boost`` computed with Pie 0)."""
        return ascension_bonus(0 if self.pie_mode == "boost" else pie, self.ascension_bonus)

    def boost(self, pie: int) -> int:
        """Points added to remaining dice after the roll (``pie_mode=boost``, CHG-17), else 0."""
        return pie if self.pie_mode == "boost" else 0

    def per_die(self, danger_level: int) -> int:
        """Slate damage per remaining non-slate die (MV-SLATE-6, CHG-4b)."""
        return 1 if self.slate_damage_per_die == "1" else danger_level


DEFAULT: Final = Variant()


def die_size(wil: int) -> int:
    """The die size rolled with this Wil: d4, d6, d8, d12, d20 for 0, 1, 2, 3, 4+ (MV-CHECK-4)."""
    _need_int("wil", wil, minimum=0)
    return DIE_SIZES[min(wil, 4)]


_ASCENSION_BONUSES: Final = get_args(AscensionBonus)


def ascension_bonus(pie: int, rule: AscensionBonus = "one_plus_pie") -> int:
    """AP per ascension: ``1 + Pie`` (MV-ASC-1) or ``Pie`` (CHG-11)."""
    _need_int("pie", pie, minimum=0)
    if rule not in _ASCENSION_BONUSES:
        raise OddsError("ascension_bonus", f"{rule!r} is not one of one_plus_pie, pie")
    return pie + 1 if rule == "one_plus_pie" else pie


def target_number(base: int, difficulty: int) -> int:
    """Target = action markers + difficulty, at least 1 (MV-CHECK-3, OQ-36)."""
    return max(1, base + difficulty)


def pool_colours(
    pie: int, slate: SlateColour | None = None, *, restricted: bool = False, white: int | None = None
) -> tuple[Colour, ...]:
    """The colours rolled: red, blue, black and Pie white dice (MV-CHECK-5).

    With ``restricted`` (``slate_roll_restricted``, CHG-18) a slate check rolls only the slate
    colour and the white dice. ``white`` overrides the number of white dice (effects that add or
    remove white dice); it defaults to Pie.
    """
    _need_int("pie", pie, minimum=0)
    whites = pie if white is None else _need_int("white", white, minimum=0)
    if slate is not None:
        _need_slate(slate)
    coloured: tuple[Colour, ...] = (slate,) if restricted and slate is not None else ("red", "blue", "black")
    return coloured + cast(tuple[Colour, ...], ("white",) * whites)


def slate_damage(remaining_non_slate: int, agi: int, per_die: int = 1) -> int:
    """Slate damage = max(0, remaining non-slate dice − Agi) × per-die damage (MV-SLATE-4..6)."""
    _need_int("remaining_non_slate", remaining_non_slate, minimum=0)
    _need_int("agi", agi, minimum=0)
    _need_int("per_die", per_die, minimum=0)
    return max(0, remaining_non_slate - agi) * per_die


def _need_slate(slate: object) -> None:
    if slate not in SLATE_COLOURS:
        raise OddsError("slate", f"{slate!r} is not a slate colour (red, blue or black)")


def _need_int(argument: str, value: object, *, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise OddsError(argument, f"{value!r} is not a whole number")
    if value < minimum:
        raise OddsError(argument, f"{value} is below {minimum}")
    return value


# --------------------------------------------------------------------------------------------
# Distributions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """An exact distribution over integers: ``outcomes`` in increasing order, probabilities sum to 1."""

    outcomes: tuple[tuple[int, Fraction], ...]

    @classmethod
    def from_counts(cls, counts: Mapping[int, int], total: int) -> Distribution:
        return cls(tuple((k, Fraction(v, total)) for k, v in sorted(counts.items()) if v))

    @classmethod
    def certain(cls, value: int) -> Distribution:
        return cls(((value, Fraction(1)),))

    def probability(self, value: int) -> Fraction:
        return next((p for k, p in self.outcomes if k == value), Fraction(0))

    @cached_property
    def _tails(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """Outcomes, P(≥ outcome) as numerators over one common denominator, that denominator."""
        denominator = lcm(*(p.denominator for _, p in self.outcomes)) if self.outcomes else 1
        tails: list[int] = []
        running = 0
        for _, p in reversed(self.outcomes):
            running += p.numerator * (denominator // p.denominator)
            tails.append(running)
        return tuple(k for k, _ in self.outcomes), tuple(reversed(tails)), denominator

    def at_least(self, value: int) -> Fraction:
        keys, tails, denominator = self._tails
        i = bisect_left(keys, value)
        return Fraction(tails[i], denominator) if i < len(keys) else Fraction(0)

    def at_most(self, value: int) -> Fraction:
        return 1 - self.at_least(value + 1)

    def mean(self) -> Fraction:
        keys, tails, denominator = self._tails
        return Fraction(
            sum(
                k * (t - (tails[i + 1] if i + 1 < len(tails) else 0))
                for i, (k, t) in enumerate(zip(keys, tails, strict=True))
            ),
            denominator,
        )

    def mode(self) -> int:
        return max(self.outcomes, key=lambda kp: (kp[1], -kp[0]))[0]

    def min(self) -> int:
        return self.outcomes[0][0]

    def max(self) -> int:
        return self.outcomes[-1][0]

    def as_dict(self) -> dict[int, Fraction]:
        return dict(self.outcomes)


@dataclass(frozen=True)
class JointDistribution:
    """The exact joint distribution of (AP, slate damage) of one check."""

    outcomes: tuple[tuple[tuple[int, int], Fraction], ...]

    def ap(self) -> Distribution:
        return self._marginal(0)

    def damage(self) -> Distribution:
        return self._marginal(1)

    def _marginal(self, axis: int) -> Distribution:
        denominator = lcm(*(p.denominator for _, p in self.outcomes)) if self.outcomes else 1
        acc: dict[int, int] = {}
        for key, p in self.outcomes:
            acc[key[axis]] = acc.get(key[axis], 0) + p.numerator * (denominator // p.denominator)
        return Distribution.from_counts(acc, denominator)

    def probability(self, ap: int, damage: int) -> Fraction:
        return next((p for k, p in self.outcomes if k == (ap, damage)), Fraction(0))

    def total_damage(self, target: int, failure_damage: int) -> Distribution:
        """Slate damage plus ``failure_damage`` (DL, MV-CHECK-10) when AP < target (MV-SLATE-7)."""
        denominator = lcm(*(p.denominator for _, p in self.outcomes)) if self.outcomes else 1
        acc: dict[int, int] = {}
        for (ap, damage), p in self.outcomes:
            total = damage + (0 if ap >= target else failure_damage)
            acc[total] = acc.get(total, 0) + p.numerator * (denominator // p.denominator)
        return Distribution.from_counts(acc, denominator)

    def as_dict(self) -> dict[tuple[int, int], Fraction]:
        return dict(self.outcomes)


# --------------------------------------------------------------------------------------------
# Counting engines (cached); counts are numbers of ordered rolls out of size ** dice
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _ap_counts(size: int, dice: int, bonus: int, above: int = 0) -> tuple[tuple[int, int], ...]:
    """Best AP of a normal check (MV-ASC-9) → number of ordered rolls, without any boost.

    Best AP = bonus · P + max(H_odd, H_even − bonus), where P is the number of disjoint pairs,
    H_odd the highest face shown an odd number of times and H_even the highest face shown an even
    number (≥ 2) of times: keeping one die m costs a pair exactly when m's count is even. Faces are
    visited from the highest with the state (dice left, pairs so far, highest even face); at the
    first face shown an odd number of times the kept die is fixed, and the dice left on lower
    faces only add pairs, whose distribution is :func:`_pair_counts` of those faces. ``above``: a
    face above ``size`` already shown an even number (≥ 2) of times, whose pairs the caller
    counts (:func:`_reroll_highest_ap_counts`).
    """
    result: dict[int, int] = {}
    states: dict[tuple[int, int, int], int] = {(dice, 0, above): 1}
    for face in range(size, 0, -1):
        nxt: dict[tuple[int, int, int], int] = {}
        for (left, pairs, even), ways in states.items():
            for count in (left,) if face == 1 else range(left + 1):
                weight = ways * comb(left, count)
                rest, pairs_now = left - count, pairs + count // 2
                if count % 2:
                    keep = max(face, even - bonus) if even else face
                    for more, lower in _pair_counts(face - 1, rest) if rest else ((0, 1),):
                        ap = keep + bonus * (pairs_now + more)
                        result[ap] = result.get(ap, 0) + weight * lower
                else:
                    key = (rest, pairs_now, even or (face if count else 0))
                    nxt[key] = nxt.get(key, 0) + weight
        states = nxt
    for (_, pairs, even), ways in states.items():  # every face shown an even number of times
        ap = even - bonus + bonus * pairs
        result[ap] = result.get(ap, 0) + ways
    return tuple(sorted(result.items()))


@lru_cache(maxsize=4096)
def _pair_counts(size: int, dice: int) -> tuple[tuple[int, int], ...]:
    """Maximum number of disjoint pairs among ``dice`` dice of ``size`` → number of ordered rolls."""
    states: dict[tuple[int, int], int] = {(dice, 0): 1}
    for face in range(size, 0, -1):
        nxt: dict[tuple[int, int], int] = {}
        for (left, pairs), ways in states.items():
            for count in (left,) if face == 1 else range(left + 1):
                key = (left - count, pairs + count // 2)
                nxt[key] = nxt.get(key, 0) + ways * comb(left, count)
        states = nxt
    return tuple(sorted((pairs, ways) for (_, pairs), ways in states.items()))


@lru_cache(maxsize=4096)
def _slate_counts(
    size: int, others: int, bonus: int, boost: int, agi: int, per_die: int
) -> tuple[tuple[tuple[int, int], int], ...]:
    """(AP, slate damage) of a slate check → number of ordered rolls out of size ** (others + 1).

    AP = slate die + bonus · pairs among the ``others`` non-slate dice (+ boost); every pair is
    taken (MV-ASC-9); damage counts the unpaired non-slate dice beyond Agi (MV-SLATE-6).
    """
    result: dict[tuple[int, int], int] = {}
    for pairs, ways in _pair_counts(size, others):
        damage = max(0, others - 2 * pairs - agi) * per_die
        for face in range(1, size + 1):
            key = (face + bonus * pairs + boost, damage)
            result[key] = result.get(key, 0) + ways
    return tuple(sorted(result.items()))


def _die_cost(deficit: int, bonus: int, boost: int) -> int:
    """Bonus units a scoring die short by ``deficit`` needs (see :func:`_multi_success_count`)."""
    if deficit <= 0:
        return 0
    if boost:
        return deficit
    if bonus == 0:
        return _IMPOSSIBLE
    return -(-deficit // bonus)


@lru_cache(maxsize=65536)
def _multi_success_count(size: int, dice: int, required: int, target: int, bonus: int, boost: int) -> int:
    """Ordered rolls in which ``required`` remaining dice can all reach ``target`` (CHG-12).

    One ascension bonus goes onto one chosen remaining die. With a set S of scoring dice, the
    check succeeds iff Σ_{x∈S} cost(x) ≤ w · pairs(dice outside S) + points, where (ascension mode)
    cost = ⌈deficit / bonus⌉, w = 1, points = 0, or (boost mode, bonus ∈ {0, 1}) cost = deficit,
    w = bonus, points = Pie. Both sides add up face by face, so the programme keeps, for j = 0 …
    required scoring dice chosen so far, the best value of w · pairs − cost (hopeless values cut).
    """
    weight = 1 if bonus and not boost else bonus
    if boost and bonus > 1:  # boost mode computes the bonus with Pie 0: it is 1 or 0
        raise AssertionError("boost mode has a bonus of 0 or 1")
    floor_value = -_IMPOSSIBLE
    worst = _die_cost(target - 1, bonus, boost)  # no scoring die costs more than a 1
    successes = 0
    states: dict[tuple[int, tuple[int, ...]], int] = {(dice, (0,) + (floor_value,) * required): 1}
    for face in range(size, 0, -1):
        cost = _die_cost(target - face, bonus, boost)
        below = _die_cost(target - face + 1, bonus, boost)  # the cheapest scoring die still to come
        nxt: dict[tuple[int, tuple[int, ...]], int] = {}
        for (left, best), ways in states.items():
            for count in (left,) if face == 1 else range(left + 1):
                rest = left - count
                new = [floor_value] * (required + 1)
                for chosen in range(required + 1):
                    if best[chosen] == floor_value:
                        continue
                    for here in range(min(count, required - chosen) + 1):
                        if here and cost >= _IMPOSSIBLE:
                            break
                        value = best[chosen] + weight * ((count - here) // 2) - here * cost
                        new[chosen + here] = max(new[chosen + here], value)
                weight_here = ways * comb(left, count)
                if new[required] + boost >= 0:  # feasible now, whatever the lower faces show
                    successes += weight_here * (face - 1) ** rest
                    continue
                for chosen in range(required):
                    need = required - chosen
                    if new[chosen] == floor_value:
                        continue
                    if rest < need or below >= _IMPOSSIBLE:
                        new[chosen] = floor_value  # not enough dice left, or none can score
                    elif new[chosen] + weight * ((rest - need) // 2) - need * below + boost < 0:
                        new[chosen] = floor_value  # even the best lower faces cannot make it
                    elif worst < _IMPOSSIBLE:
                        new[chosen] = min(new[chosen], need * worst - boost)  # enough to be sure
                if new[required] + weight * (rest // 2) + boost < 0:
                    new[required] = floor_value  # lower pairs cannot pay for what is missing
                if any(v != floor_value for v in new):
                    key = (rest, tuple(new))
                    nxt[key] = nxt.get(key, 0) + weight_here
        states = nxt
    return successes


@lru_cache(maxsize=4096)
def _multi_counts(size: int, dice: int, required: int, bonus: int, boost: int) -> tuple[tuple[int, int], ...]:
    """The highest target ``required`` dice can all reach → number of ordered rolls (0: never)."""
    total = size**dice
    if required > dice:
        return ((0, total),)
    reach = [total]  # reach[t - 1] = rolls where target t is reachable; target 1 always is
    target = 2
    while True:
        ways = _multi_success_count(size, dice, required, target, bonus, boost)
        if not ways:
            break
        reach.append(ways)
        target += 1
    reach.append(0)
    return tuple((t + 1, reach[t] - reach[t + 1]) for t in range(len(reach) - 1) if reach[t] - reach[t + 1])


# --------------------------------------------------------------------------------------------
# The reroll of the highest die (the mod ``reroll_highest``, MV-BOSS-10)
# --------------------------------------------------------------------------------------------
#
# Right after the roll, before any choice, the engine rerolls the die of the highest face (the
# first in the pool order, red, blue, black, then white, when several show it) once, with the
# same size. Every count below is of ordered rolls out of size ** (dice + 1): the roll, then the
# rerolled die. Condition on the highest face ``top`` and the number ``k`` of dice showing it:
# the other dice are a roll of d(top − 1), and after the reroll the pool is k − 1 dice showing
# ``top``, the fresh die, and those lower dice; a fresh face below ``top`` is one more die of
# d(top − 1). So every case is the programmes above on d(top − 1), started from the few faces
# at or above ``top``.


def _high_faces(top: int, k: int, fresh: int) -> tuple[int, int, int, int]:
    """Pairs, highest face shown an odd number of times, highest shown an even number (≥ 2) of
    times before it (0: none), among k − 1 dice showing ``top`` and a fresh die showing
    ``fresh`` ≥ ``top``, or none (``fresh`` 0); and how many dice those are."""
    counts = Counter({top: k - 1})
    if fresh:
        counts[fresh] += 1
    pairs = odd = even = 0
    for face in sorted(counts, reverse=True):
        c = counts[face]
        pairs += c // 2
        if c % 2 and not odd:
            odd = face
        elif c and not c % 2 and not odd and not even:
            even = face
    return pairs, odd, even, sum(counts.values())


@lru_cache(maxsize=4096)
def _reroll_highest_ap_counts(size: int, dice: int, bonus: int) -> tuple[tuple[int, int], ...]:
    """Best AP of a normal check (MV-ASC-9) after the highest die is rerolled → ordered rolls
    out of size ** (dice + 1), without any boost (the closed formula of :func:`_ap_counts`)."""
    result: dict[int, int] = {}
    for top in range(1, size + 1):
        low = top - 1
        for k in range(1, dice + 1):
            lower = dice - k  # dice below ``top``: a roll of d(low)
            if lower and not low:
                continue
            arrange = comb(dice, k)
            branches = [(0, lower + 1)] if low else []  # the fresh die below ``top`` joins them
            branches += [(fresh, lower) for fresh in range(top, size + 1)]
            for fresh, rolled in branches:
                pairs, odd, even, _ = _high_faces(top, k, fresh)
                if odd:  # the kept die is settled above ``top``: the lower dice only add pairs
                    keep = max(odd, even - bonus) if even else odd
                    for more, ways in _pair_counts(low, rolled):
                        ap = keep + bonus * (pairs + more)
                        result[ap] = result.get(ap, 0) + arrange * ways
                else:
                    for ap, ways in _ap_counts(low, rolled, bonus, even):
                        result[ap + bonus * pairs] = result.get(ap + bonus * pairs, 0) + arrange * ways
    return tuple(sorted(result.items()))


@lru_cache(maxsize=4096)
def _reroll_highest_slate_counts(
    size: int, others: int, before: int, bonus: int, boost: int, agi: int, per_die: int
) -> tuple[tuple[tuple[int, int], int], ...]:
    """(AP, slate damage) of a slate check after the highest die is rerolled → ordered rolls out
    of size ** (others + 2). ``before``: non-slate dice ahead of the slate die in the pool order
    (red, blue, black, white), which are rerolled rather than it when they show the same face.

    Either the slate die shows the highest face and no die ahead of it does: it is rerolled
    (a uniform face) and the other dice stay; or a non-slate die of the highest face is
    rerolled, the slate die showing less, or as much with a die ahead of it showing it too.
    Every non-slate pair is then taken (MV-ASC-9), as in :func:`_slate_counts`.
    """
    result: dict[tuple[int, int], int] = {}

    def add(face: int, pairs: int, ways: int) -> None:
        key = (face + bonus * pairs + boost, max(0, others - 2 * pairs - agi) * per_die)
        result[key] = result.get(key, 0) + ways

    for top in range(1, size + 1):
        low = top - 1
        for k in range(others - before + 1):  # the slate die is rerolled
            lower = others - k
            if lower and not low:
                continue
            for more, ways in _pair_counts(low, lower):
                for face in range(1, size + 1):
                    add(face, k // 2 + more, comb(others - before, k) * ways)
        for k in range(1, others + 1):  # a non-slate die showing ``top`` is rerolled
            lower = others - k
            if lower and not low:
                continue
            after: dict[int, int] = {}
            branches = [(0, lower + 1)] if low else []
            branches += [(fresh, lower) for fresh in range(top, size + 1)]
            for fresh, rolled in branches:
                pairs = _high_faces(top, k, fresh)[0]
                for more, ways in _pair_counts(low, rolled):
                    after[pairs + more] = after.get(pairs + more, 0) + ways
            tie = comb(others, k) - comb(others - before, k)
            for pairs, ways in after.items():
                for face in range(1, top):
                    add(face, pairs, comb(others, k) * ways)
                if tie:
                    add(top, pairs, tie * ways)
    return tuple(sorted(result.items()))


_REROLL_HIGHEST_WORK_LIMIT: Final = 2_000_000
"""The most work :func:`_reroll_highest_multi_counts` takes on: the pools it scores one by one (the
dice left after the reroll, as multisets) times the dice squared (the best plan of a pool costs
about that), about 1.3 µs each: 5d20 (1.06 million, 1.4 s), 7d12, 10d8 and 11d6 are counted,
6d20 (6.4 million, 8 s) is refused."""


def reroll_highest_multi_work(size: int, dice: int) -> int:
    """The work of counting a multi-die check of ``dice`` d``size`` whose highest die is rerolled:
    the pools it can show after the reroll (every multiset of faces, each scored once) times
    ``dice`` squared."""
    return comb(size + dice - 1, dice) * dice * dice


@lru_cache(maxsize=256)
def _reroll_highest_multi_counts(
    size: int, dice: int, required: int, bonus: int, boost: int
) -> tuple[tuple[int, int], ...]:
    """The highest target ``required`` dice can all reach (CHG-12) after the highest die is
    rerolled → ordered rolls out of size ** (dice + 1). The dice other than the highest (a sorted
    ``rest``) are weighted by the orderings of every roll they come from (each highest face ≥
    theirs), the fresh face joins them, and each resulting pool is scored once, as
    :func:`best_plan` scores it: exact, up to the work limit."""
    work = reroll_highest_multi_work(size, dice)
    if work > _REROLL_HIGHEST_WORK_LIMIT:
        raise OddsError(
            "reroll_highest",
            f"{dice}d{size} with {required} required dice (multi_die_checks) after the reroll of the highest die "
            f"is not counted: its exact count would take about {work * 13 // 10_000_000} s (it scores each of the "
            f"{comb(size + dice - 1, dice)} pools of {dice} dice the reroll can leave); the lab counts it up to "
            "about 2 s: at most 5d20 (Pie 2), 7d12, 10d8 or 11d6",
        )
    variant = Variant(ascension_bonus="pie", pie_mode="boost" if boost else "ascension", multi_die_checks=True)
    factorial = [1]
    for n in range(1, dice + 1):
        factorial.append(factorial[-1] * n)

    def orderings(faces: tuple[int, ...]) -> int:
        ways = factorial[len(faces)]
        for c in Counter(faces).values():
            ways //= factorial[c]
        return ways

    weights: Counter[tuple[int, ...]] = Counter()
    for rest in itertools.combinations_with_replacement(range(size, 0, -1), dice - 1):
        ways = sum(orderings((top, *rest)) for top in range(rest[0] if rest else 1, size + 1))
        for fresh in range(1, size + 1):
            weights[tuple(sorted((fresh, *rest), reverse=True))] += ways
    result: dict[int, int] = {}
    for pool, ways in weights.items():
        table = _Table(
            tuple(Die("white", v) for v in pool),
            frozenset(),
            None,
            0,
            0,
            1,
            required,
            None,
            variant,
            bonus,
            boost,
            0,
        )
        ap = min(_unordered_plans(table), key=_order).ap
        result[ap] = result.get(ap, 0) + ways
    return tuple(sorted(result.items()))


# --------------------------------------------------------------------------------------------
# Before the roll
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckOdds:
    """The exact odds of one check before the roll, under optimal play.

    ``ap`` is AP (slate: the slate die plus bonuses; ``multi_die_checks``: the highest target
    ``required_count`` dice can reach), ``slate_damage`` its damage (all 0 without a slate),
    ``joint`` the pair (AP, slate damage), ``damage`` the total damage (slate damage plus DL on a
    failure, MV-SLATE-7). ``alternatives`` holds the odds of every die size compared when
    ``allow_smaller_die`` is on (the chosen one included), largest first.
    """

    die_size: int
    dice: int
    target: int
    required_count: int
    slate: SlateColour | None
    p_success: Fraction
    ap: Distribution
    slate_damage: Distribution
    joint: JointDistribution
    damage: Distribution
    alternatives: tuple[CheckOdds, ...] = field(default=(), compare=False)

    @property
    def expected_damage(self) -> Fraction:
        return self.damage.mean()


def candidate_sizes(wil: int, size: int | None, variant: Variant) -> tuple[int, ...]:
    """The die sizes a check may roll: Wil's die (or ``size``), and every smaller one, largest
    first, when ``allow_smaller_die`` is on (CHG-10)."""
    top = die_size(wil) if size is None else size
    if top not in DIE_SIZES:
        raise OddsError("size", f"{top!r} is not a die size ({', '.join(map(str, DIE_SIZES))})")
    if not variant.allow_smaller_die:
        return (top,)
    return tuple(s for s in reversed(DIE_SIZES) if s <= top)


def _validate_check(pie: int, agi: int, danger_level: int, required_count: int, variant: Variant) -> None:
    _need_int("pie", pie, minimum=0)
    _need_int("agi", agi, minimum=0)
    _need_int("danger_level", danger_level, minimum=1)
    _need_int("required_count", required_count, minimum=1)
    if required_count > 1 and not variant.multi_die_checks:
        raise OddsError("required_count", f"{required_count} needs the multi_die_checks variant")


def slate_joint(
    wil: int,
    pie: int,
    *,
    agi: int = 0,
    danger_level: int = 1,
    variant: Variant = DEFAULT,
    size: int | None = None,
    white: int | None = None,
    bonus: int | None = None,
    ap_bonus: int = 0,
    reroll_highest: bool = False,
    colour: SlateColour = "red",
) -> JointDistribution:
    """Joint (AP, slate damage) of a slate check with every non-slate pair ascended (MV-ASC-9).

    ``bonus`` overrides the per-ascension bonus and ``ap_bonus`` adds a flat bonus (effects).
    ``reroll_highest``: the highest die is rerolled once right after the roll (the mod of that
    name, MV-BOSS-10); which die that is when several show the highest face depends on the pool
    order, hence on the slate's ``colour`` (else the colour changes nothing).
    """
    _validate_check(pie, agi, danger_level, 1, variant)
    (s,) = candidate_sizes(wil, size, Variant())
    whites = pie if white is None else _need_int("white", white, minimum=0)
    others = whites + (0 if variant.slate_roll_restricted else 2)
    b = _bonus(variant, pie, bonus)
    boost = variant.boost(pie) + _need_int("ap_bonus", ap_bonus, minimum=-_IMPOSSIBLE)
    if reroll_highest:
        _need_slate(colour)
        before = 0 if variant.slate_roll_restricted else SLATE_COLOURS.index(colour)
        counts = _reroll_highest_slate_counts(s, others, before, b, boost, agi, variant.per_die(danger_level))
        total = s ** (others + 2)
    else:
        counts = _slate_counts(s, others, b, boost, agi, variant.per_die(danger_level))
        total = s ** (others + 1)
    return JointDistribution(tuple((key, Fraction(ways, total)) for key, ways in counts))


def _bonus(variant: Variant, pie: int, bonus: int | None) -> int:
    return variant.bonus(pie) if bonus is None else _need_int("bonus", bonus, minimum=0)


def pair_distribution(size: int, dice: int) -> Distribution:
    """The number of disjoint pairs (what ascension can remove) among ``dice`` dice of ``size`` (BQ-2)."""
    if size not in DIE_SIZES:
        raise OddsError("size", f"{size!r} is not a die size ({', '.join(map(str, DIE_SIZES))})")
    _need_int("dice", dice, minimum=0)
    return Distribution.from_counts(dict(_pair_counts(size, dice)), size**dice)


def ap_distribution(
    wil: int,
    pie: int,
    *,
    slate: bool | SlateColour = False,
    required_count: int = 1,
    variant: Variant = DEFAULT,
    size: int | None = None,
    white: int | None = None,
    bonus: int | None = None,
    ap_bonus: int = 0,
    reroll_highest: bool = False,
) -> Distribution:
    """The distribution of AP under optimal ascension (MV-ASC-9) for one die size.

    ``size`` overrides Wil's die (the lab, ``allow_smaller_die``, effects that change the size);
    ``white`` overrides the number of white dice (Pie by default); ``bonus`` overrides the
    per-ascension bonus and ``ap_bonus`` adds a flat bonus (effects). With a slate, AP is the
    slate die plus bonuses (MV-SLATE-2) and ``required_count`` is 1 (CHG-12). With
    ``required_count`` N > 1 it is the highest target N remaining dice can all reach once the
    bonuses are placed. ``reroll_highest``: the highest die is rerolled once right after the roll
    (the mod of that name); with a slate, give its colour as ``slate`` (it decides which die
    that is when the slate die ties for the highest face).
    """
    _validate_check(pie, 0, 1, required_count, variant)
    (s,) = candidate_sizes(wil, size, Variant())
    if slate:
        if reroll_highest and slate is True:
            raise OddsError("slate", "the reroll of the highest die needs the slate's colour (red, blue or black)")
        colour: SlateColour = "red" if slate is True else slate
        return slate_joint(
            wil,
            pie,
            variant=variant,
            size=s,
            white=white,
            bonus=bonus,
            ap_bonus=ap_bonus,
            reroll_highest=reroll_highest,
            colour=colour,
        ).ap()
    whites = pie if white is None else _need_int("white", white, minimum=0)
    dice = 3 + whites
    total = s ** (dice + 1) if reroll_highest else s**dice
    b, boost = _bonus(variant, pie, bonus), variant.boost(pie)
    shift = _need_int("ap_bonus", ap_bonus, minimum=-_IMPOSSIBLE)
    if required_count == 1:
        table = _reroll_highest_ap_counts(s, dice, b) if reroll_highest else _ap_counts(s, dice, b)
        counts = {ap + boost + shift: ways for ap, ways in table}
    else:
        if boost and b > 1:
            raise OddsError("bonus", f"{b}: boost mode with several required dice needs a bonus of 0 or 1")
        if reroll_highest:
            multi = _reroll_highest_multi_counts(s, dice, required_count, b, boost)
        else:
            multi = _multi_counts(s, dice, required_count, b, boost)
        counts = {ap + shift: ways for ap, ways in multi}
    return Distribution.from_counts(counts, total)


class DistributionOptions(TypedDict, total=False):
    """The keyword arguments of :func:`ap_distribution` (and :func:`success_probability`)."""

    slate: bool | SlateColour
    required_count: int
    variant: Variant
    size: int | None
    white: int | None
    bonus: int | None
    ap_bonus: int
    reroll_highest: bool


def success_probability(wil: int, pie: int, target: int, **options: Unpack[DistributionOptions]) -> Fraction:
    """P(AP ≥ target) under optimal ascension (MV-CHECK-9) for one die size; ``options`` are
    those of :func:`ap_distribution`."""
    _need_int("target", target, minimum=1)
    return ap_distribution(wil, pie, **options).at_least(target)


def check_odds(
    wil: int,
    pie: int,
    target: int,
    *,
    agi: int = 0,
    slate: SlateColour | None = None,
    danger_level: int = 1,
    required_count: int = 1,
    variant: Variant = DEFAULT,
    objective: Objective = "success",
    size: int | None = None,
    white: int | None = None,
    bonus: int | None = None,
    ap_bonus: int = 0,
    reroll_highest: bool = False,
) -> CheckOdds:
    """Everything about one check before the roll, under optimal play.

    ``target`` is the final target (see :func:`target_number`). With ``allow_smaller_die`` every
    size up to Wil's is compared and the best for ``objective`` is returned: ``"success"``
    maximises P(success) then minimises the expected total damage; ``"damage"`` the reverse.
    Ties go to the larger die. ``size``, ``white``, ``bonus`` and ``ap_bonus`` carry effects on
    the check (see :func:`ap_distribution`). ``reroll_highest``: the highest die is rerolled once
    right after the roll, before any choice (the mod of that name, MV-BOSS-10), as the engine does.

    :raises OddsError: naming the bad argument.
    """
    _need_int("target", target, minimum=1)
    if not isinstance(reroll_highest, bool):
        raise OddsError("reroll_highest", f"{reroll_highest!r} is not true or false")
    _validate_check(pie, agi, danger_level, required_count, variant)
    if slate is not None:
        _need_slate(slate)
    if objective not in get_args(Objective):
        raise OddsError("objective", f"{objective!r} is not one of success, damage")
    whites = pie if white is None else _need_int("white", white, minimum=0)
    required = 1 if slate is not None else required_count  # CHG-12: a slate needs its one die
    candidates = [
        _check_odds_for_size(
            s, pie, whites, target, agi, slate, danger_level, required, variant, bonus, ap_bonus, reroll_highest
        )
        for s in candidate_sizes(wil, size, variant)
    ]
    return best_of(candidates, objective)


def best_of(candidates: Sequence[CheckOdds], objective: Objective = "success") -> CheckOdds:
    """The die size to roll among ``candidates`` (one per size, ``allow_smaller_die``, CHG-10):
    the best chance then the least damage, or the reverse for ``objective = "damage"``; with
    several, the others ride along as ``alternatives``."""
    if objective == "success":
        best = max(candidates, key=lambda c: (c.p_success, -c.expected_damage))
    else:
        best = max(candidates, key=lambda c: (-c.expected_damage, c.p_success))
    if len(candidates) == 1:
        return best
    return replace(best, alternatives=tuple(candidates))


@lru_cache(maxsize=8192)
def _check_odds_for_size(
    size: int,
    pie: int,
    whites: int,
    target: int,
    agi: int,
    slate: SlateColour | None,
    danger_level: int,
    required: int,
    variant: Variant,
    bonus: int | None,
    ap_bonus: int,
    reroll_highest: bool = False,
) -> CheckOdds:
    if slate is not None:
        joint = slate_joint(
            0,
            pie,
            agi=agi,
            danger_level=danger_level,
            variant=variant,
            size=size,
            white=whites,
            bonus=bonus,
            ap_bonus=ap_bonus,
            reroll_highest=reroll_highest,
            colour=slate,
        )
        dice = 1 + whites + (0 if variant.slate_roll_restricted else 2)
    else:
        ap = ap_distribution(
            0,
            pie,
            required_count=required,
            variant=variant,
            size=size,
            white=whites,
            bonus=bonus,
            ap_bonus=ap_bonus,
            reroll_highest=reroll_highest,
        )
        joint = JointDistribution(tuple(((k, 0), p) for k, p in ap.outcomes))
        dice = 3 + whites
    ap_dist = joint.ap()
    return CheckOdds(
        die_size=size,
        dice=dice,
        target=target,
        required_count=required,
        slate=slate,
        p_success=ap_dist.at_least(target),
        ap=ap_dist,
        slate_damage=joint.damage(),
        joint=joint,
        damage=joint.total_damage(target, danger_level),
    )


class TableRow(NamedTuple):
    """One line of :func:`odds_table`."""

    wil: int
    pie: int
    agi: int
    slate: bool
    target: int
    p_success: Fraction
    expected_slate_damage: Fraction
    p_no_slate_damage: Fraction


def odds_table(
    *,
    wils: Sequence[int] = range(5),
    pies: Sequence[int] = range(7),
    agis: Sequence[int] = range(5),
    targets: Sequence[int] = range(1, 31),
    danger_level: int = 1,
    variant: Variant = DEFAULT,
) -> Iterator[TableRow]:
    """The lab's table: every (Wil, Pie, target) without a slate (Agi does not matter there) and
    every (Wil, Pie, Agi, target) with one (the slate's colour does not change the odds)."""
    for wil in wils:
        for pie in pies:
            plain = ap_distribution(wil, pie, variant=variant)
            for target in targets:
                yield TableRow(wil, pie, 0, False, target, plain.at_least(target), Fraction(0), Fraction(1))
            slate_ap = slate_joint(wil, pie, danger_level=danger_level, variant=variant).ap()  # Agi-free
            for agi in agis:
                damage = slate_joint(wil, pie, agi=agi, danger_level=danger_level, variant=variant).damage()
                mean, unhurt = damage.mean(), damage.probability(0)
                for target in targets:
                    yield TableRow(wil, pie, agi, True, target, slate_ap.at_least(target), mean, unhurt)


# --------------------------------------------------------------------------------------------
# A rolled pool
# --------------------------------------------------------------------------------------------


class Die(NamedTuple):
    """One rolled die: its colour, the face it shows, and what has been added to it already
    (``pie_mode=boost`` points, ``multi_die_checks`` ascension bonuses). Pairs match faces; a die
    scores ``value + bonus``."""

    colour: Colour
    value: int
    bonus: int = 0

    @property
    def score(self) -> int:
        return self.value + self.bonus


DieLike = Die | tuple[str, int] | tuple[str, int, int] | int


def as_dice(dice: Sequence[DieLike]) -> tuple[Die, ...]:
    """Normalise a pool: ``Die``, ``(colour, value)``, ``(colour, value, bonus)`` or a bare value,
    which takes the colour of its position in the usual pool order (red, blue, black, then white).

    :raises OddsError: for an unknown colour, a face below 1 or a negative bonus.
    """
    result: list[Die] = []
    for i, item in enumerate(dice):
        bonus: object = 0
        if isinstance(item, int) and not isinstance(item, bool):
            colour: str = COLOURS[min(i, 3)]
            value: object = item
        elif isinstance(item, tuple) and len(item) == 2:
            colour, value = item[0], item[1]
        elif isinstance(item, tuple) and len(item) == 3:
            colour, value, bonus = item[0], item[1], item[2]
        else:
            raise OddsError(f"dice[{i}]", f"{item!r} is not a die")
        if colour not in COLOURS:
            raise OddsError(f"dice[{i}]", f"{colour!r} is not a die colour (red, blue, black, white)")
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise OddsError(f"dice[{i}]", f"face {value!r} is not a whole number of at least 1")
        if not isinstance(bonus, int) or isinstance(bonus, bool) or bonus < 0:
            raise OddsError(f"dice[{i}]", f"bonus {bonus!r} is not a whole number of at least 0")
        result.append(Die(colour, value, bonus))
    if not result:
        raise OddsError("dice", "the pool is empty")
    return tuple(result)


@dataclass(frozen=True)
class Plan:
    """One way to finish a check from a rolled pool, and its outcome.

    ``pairs``: index pairs ascended by this plan (besides those already removed) and
    ``pair_values`` their faces; ``remaining``: indices left on the table; ``ascensions``: all
    pairs removed in this check; ``scoring``: the die (or, with ``required_count`` > 1, dice) AP
    is read from and what is added to each; ``ap``: AP (with ``required_count`` > 1: the highest
    target the scoring dice all reach); ``slate_damage`` (MV-SLATE-6); ``success`` and
    ``damage`` (slate damage plus DL on a failure, MV-SLATE-7) are known only with a target.
    """

    pairs: tuple[tuple[int, int], ...]
    pair_values: tuple[int, ...]
    remaining: tuple[int, ...]
    ascensions: int
    scoring: tuple[tuple[int, int], ...]
    ap: int
    slate_damage: int
    success: bool | None
    damage: int | None


@dataclass(frozen=True)
class _Table:
    """A validated pool in the middle of a check."""

    dice: tuple[Die, ...]
    removed: frozenset[int]
    slate_index: int | None
    pie: int
    agi: int
    danger_level: int
    required: int
    target: int | None
    variant: Variant
    bonus: int
    points: int
    ap_bonus: int
    slate_per_die_delta: int = 0

    @property
    def per_die(self) -> int:
        """Slate damage per remaining non-slate die (MV-SLATE-6, CHG-4b), with what a mod adds
        (``slate_per_die_delta``, MV-BOSS-10), not below 0 (as the engine deals it)."""
        return max(0, self.variant.per_die(self.danger_level) + self.slate_per_die_delta)

    @property
    def counted_pairs(self) -> int:
        """Removed pairs whose bonus is still to be counted: all of them, except with
        ``multi_die_checks``, where each bonus was placed on a die (in its ``bonus``) when taken."""
        return 0 if self.variant.multi_die_checks else len(self.removed) // 2


class _PoolOptions(TypedDict, total=False):
    """:class:`CheckOptions` but the target (:func:`best_reroll` needs one)."""

    slate: SlateColour | None
    agi: int
    danger_level: int
    required_count: int
    variant: Variant
    removed: Sequence[int]
    bonus: int | None
    points: int | None
    ap_bonus: int
    slate_per_die_delta: int


class CheckOptions(_PoolOptions, total=False):
    """The keyword arguments of every question about a rolled pool: the fields of :class:`Check`
    but Pie (``ascension_plans(dice, pie, **options)`` asks about ``Check(pie, **options)``)."""

    target: int | None


@dataclass(frozen=True)
class Check:
    """The check a question about a rolled pool asks about: everything but the dice.

    ``pie``: the maiden's Pie (the ascension bonus, MV-ASC-1, CHG-11; boost points, CHG-17);
    ``slate``: the slate colour of a slate check (MV-SLATE-2), or None; ``target``: the final
    target (None: success and total damage stay unknown); ``agi`` and ``danger_level``: slate
    damage (MV-SLATE-4..6) and the damage of a failure (MV-CHECK-10); ``required_count``: dice
    that must reach the target (CHG-12); ``variant``: the dice toggles. Mid-check state:
    ``removed`` are the indices already ascended in this check (kept as a tuple); ``points`` are
    ``pie_mode=boost`` points not yet placed (default: Pie in boost mode, else 0); ``bonus``
    overrides the per-ascension bonus (an effect that fixes it); ``ap_bonus`` is a flat AP bonus
    from effects. ``slate_per_die_delta``: slate damage per die a mod adds (Alms of Lead: +1,
    MV-BOSS-10), so plans that differ in the dice they leave are told apart by the damage dealt.

    Frozen and hashable, so a caller may key a cache on it.

    :raises OddsError: naming the first bad argument. What depends on the dice (one die of the
        slate colour, ``removed`` being pairs of them) is checked when a question is asked.
    """

    pie: int
    slate: SlateColour | None = None
    target: int | None = None
    agi: int = 0
    danger_level: int = 1
    required_count: int = 1
    variant: Variant = DEFAULT
    removed: Sequence[int] = ()
    bonus: int | None = None
    points: int | None = None
    ap_bonus: int = 0
    slate_per_die_delta: int = 0

    def __post_init__(self) -> None:
        _validate_check(self.pie, self.agi, self.danger_level, self.required_count, self.variant)
        if self.target is not None:
            _need_int("target", self.target, minimum=1)
        if self.slate is not None:
            _need_slate(self.slate)
        if self.bonus is not None:
            _need_int("bonus", self.bonus, minimum=0)
        if self.points is not None:
            _need_int("points", self.points, minimum=0)
        _need_int("ap_bonus", self.ap_bonus, minimum=-_IMPOSSIBLE)
        _need_int("slate_per_die_delta", self.slate_per_die_delta, minimum=-_IMPOSSIBLE)
        object.__setattr__(self, "removed", tuple(self.removed))


def _table(dice: Sequence[DieLike], pie: int, options: CheckOptions) -> _Table:
    """The pool of a question (its dice checked first) and the check asked about."""
    pool = as_dice(dice)
    return _check_table(pool, Check(pie, **options))


def _check_table(pool: tuple[Die, ...], check: Check) -> _Table:
    slate, removed, variant = check.slate, check.removed, check.variant
    slate_index: int | None = None
    if slate is not None:
        holders = [i for i, d in enumerate(pool) if d.colour == slate]
        if len(holders) != 1:
            raise OddsError("dice", f"a {slate} slate check needs exactly one {slate} die, not {len(holders)}")
        slate_index = holders[0]
    gone = frozenset(removed)
    if len(gone) != len(removed) or any(not isinstance(i, int) or not 0 <= i < len(pool) for i in gone):
        raise OddsError("removed", f"{list(removed)!r} are not distinct indices of the {len(pool)} dice")
    if slate_index in gone:
        raise OddsError("removed", "the slate die is never part of a pair (MV-ASC-6)")
    if any(c % 2 for c in Counter(pool[i].value for i in gone).values()):
        raise OddsError("removed", f"dice {sorted(gone)} do not form pairs of equal faces")
    if len(gone) == len(pool):
        raise OddsError("removed", "at least one die must remain (MV-ASC-6)")
    required = 1 if slate is not None else check.required_count
    bonus = variant.bonus(check.pie) if check.bonus is None else check.bonus
    points = variant.boost(check.pie) if check.points is None else check.points
    return _Table(
        pool,
        gone,
        slate_index,
        check.pie,
        check.agi,
        check.danger_level,
        required,
        check.target,
        variant,
        bonus,
        points,
        check.ap_bonus,
        check.slate_per_die_delta,
    )


def _deficit_points(values: Sequence[int], target: int, chunks: int, bonus: int) -> int:
    """Points still needed after placing ``chunks`` bonuses of ``bonus`` on dice short of target."""
    deficits = [max(0, target - v) for v in values]
    if bonus == 0:
        return sum(deficits)
    full = sum(d // bonus for d in deficits)
    if full >= chunks:
        return sum(deficits) - chunks * bonus
    residuals = sorted((d % bonus for d in deficits), reverse=True)
    return sum(residuals[chunks - full :])


def _assign(values: Sequence[int], target: int, chunks: int, bonus: int, points: int) -> list[int]:
    """Bonus per scoring die (same order) reaching ``target``: chunks first, then points."""
    deficits = [max(0, target - v) for v in values]
    added = [0] * len(values)
    if bonus:
        for i, d in enumerate(deficits):  # whole chunks where they are fully used
            use = min(chunks, d // bonus)
            added[i] += use * bonus
            chunks -= use
        for i in sorted(range(len(values)), key=lambda i: -(deficits[i] - added[i])):
            if chunks and deficits[i] > added[i]:
                added[i] += bonus
                chunks -= 1
    for i, d in enumerate(deficits):
        use = min(points, max(0, d - added[i]))
        added[i] += use
        points -= use
    added[0] += chunks * bonus + points  # whatever is left goes onto the best die
    return added


def _score(table: _Table, remaining: Sequence[int], new_pairs: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """AP of the dice ``remaining`` after ``new_pairs`` more ascensions, and who scores what."""
    dice, bonus, points = table.dice, table.bonus, table.points
    if table.slate_index is not None or table.required == 1:
        if table.slate_index is not None:
            kept = table.slate_index
        else:
            kept = min(remaining, key=lambda i: (-dice[i].score, i))
        added = bonus * (table.counted_pairs + new_pairs) + points
        return dice[kept].score + added + table.ap_bonus, ((kept, added),)
    if len(remaining) < table.required:
        return 0, ()
    scorers = sorted(remaining, key=lambda i: (-dice[i].score, i))[: table.required]
    values = [dice[i].score for i in scorers]
    low, high = min(values), max(values) + bonus * new_pairs + points
    while low < high:  # the highest target every scorer can reach
        mid = (low + high + 1) // 2
        if _deficit_points(values, mid, new_pairs, bonus) <= points:
            low = mid
        else:
            high = mid - 1
    placed = _assign(values, low, new_pairs, bonus, points)
    return low + table.ap_bonus, tuple(zip(scorers, placed, strict=True))


def _plans(table: _Table) -> list[Plan]:
    plans = _unordered_plans(table)
    plans.sort(key=_order)
    return plans


def _order(plan: Plan) -> tuple[int, int, int, tuple[tuple[int, int], ...]]:
    """Best first: highest AP, then least slate damage, then fewest new pairs (then the pairs:
    no two plans have the same pairs)."""
    return (-plan.ap, plan.slate_damage, len(plan.pairs), plan.pairs)


def _unordered_plans(table: _Table) -> list[Plan]:
    dice = table.dice
    on_table = [i for i in range(len(dice)) if i not in table.removed]
    pairable: dict[int, list[int]] = {}
    for i in reversed(on_table):  # pair white dice first, so coloured dice stay on the table
        if i != table.slate_index:
            pairable.setdefault(dice[i].value, []).append(i)
    faces = sorted(face for face, group in pairable.items() if len(group) > 1)  # (a lone die pairs with none)
    per_die = table.per_die
    plans = []
    for choice in itertools.product(*(range(len(pairable[v]) // 2 + 1) for v in faces)):
        pairs: list[tuple[int, int]] = []
        for face, count in zip(faces, choice, strict=True):
            group = pairable[face]
            pairs.extend((min(group[2 * k : 2 * k + 2]), max(group[2 * k : 2 * k + 2])) for k in range(count))
        gone = {i for pair in pairs for i in pair}
        remaining = tuple(i for i in on_table if i not in gone)
        if not remaining:
            continue  # MV-ASC-6 (a)
        ascensions = len(table.removed) // 2 + len(pairs)
        ap, scoring = _score(table, remaining, len(pairs))
        damage = 0
        if table.slate_index is not None:
            damage = slate_damage(len(remaining) - 1, table.agi, per_die)
        success = None if table.target is None else ap >= table.target
        total = None if success is None else damage + (0 if success else table.danger_level)
        values = tuple(dice[p[0]].value for p in pairs)
        plans.append(Plan(tuple(pairs), values, remaining, ascensions, scoring, ap, damage, success, total))
    return plans


def ascension_plans(
    dice: Sequence[DieLike],
    pie: int,
    **options: Unpack[CheckOptions],
) -> list[Plan]:
    """Every legal way to finish ascending (MV-ASC-2, -5, -6), best first.

    Plans that differ only in which die of a face is paired are listed once. Order: highest AP
    (hence success), then least slate damage, then fewest new pairs.

    ``options`` describe the check with Pie (:class:`Check`: the slate, target, mid-check state
    such as ``removed``, effects). A die's ``bonus`` is what was already placed on it; with
    ``multi_die_checks`` the bonuses of removed pairs are taken to be on the dice already.
    """
    return _plans(_table(dice, pie, options))


def best_plan(
    dice: Sequence[DieLike],
    pie: int,
    **options: Unpack[CheckOptions],
) -> Plan:
    """The best-ascension suggestion (MV-ASC-9): the first of :func:`ascension_plans` (the best
    by their order, without ordering the others)."""
    table = _table(dice, pie, options)
    return min(_unordered_plans(table), key=_order)


def best_ap(
    dice: Sequence[DieLike],
    pie: int,
    slate: SlateColour | None = None,
    bonus_rule: AscensionBonus = "one_plus_pie",
    *,
    pie_mode: PieMode = "ascension",
    removed: Sequence[int] = (),
) -> int:
    """Best AP of a rolled pool (MV-ASC-9), by the closed formula.

    Normal check: max over shown faces m of m + b · (Σ_{v≠m} ⌊c_v/2⌋ + ⌊(c_m − 1)/2⌋), one die
    always remaining. Slate check: the slate die + b · (disjoint non-slate pairs); the slate die
    is never paired. With ``pie_mode="boost"`` b is computed with Pie 0 and Pie is added.
    """
    variant = Variant(ascension_bonus=bonus_rule, pie_mode=pie_mode)
    table = _table(dice, pie, {"slate": slate, "variant": variant, "removed": removed})
    bonus = table.bonus
    on_table = [i for i in range(len(table.dice)) if i not in table.removed]
    counts = Counter(table.dice[i].value for i in on_table if i != table.slate_index)
    pairs = sum(c // 2 for c in counts.values())
    if table.slate_index is not None:
        keep = table.dice[table.slate_index].score
    else:  # keeping a die breaks a pair exactly when its face shows an even number of times
        keep = max(table.dice[i].score - (bonus if counts[table.dice[i].value] % 2 == 0 else 0) for i in on_table)
    return keep + bonus * (table.counted_pairs + pairs) + table.points


@dataclass(frozen=True)
class Option:
    """A choice the player has now: ascend the pair ``pair`` (showing ``value``), or stop (``None``).

    ``now``: the outcome if no further pair is ascended after this choice; ``best``: the outcome
    of the best follow-up (for "stop", the same as ``now``). Any other pair of the same face
    gives the same outcomes.
    """

    pair: tuple[int, int] | None
    value: int | None
    now: Plan
    best: Plan

    @property
    def p_success(self) -> Fraction | None:
        """The exact probability of success after this choice and the best follow-up (1 or 0:
        the dice are known), or None without a target."""
        return None if self.best.success is None else Fraction(int(self.best.success))


def ascension_options(
    dice: Sequence[DieLike],
    pie: int,
    **options: Unpack[CheckOptions],
) -> list[Option]:
    """The next choices mid-check: stop first, then each face that still has a legal pair, best
    first (the first of those is the suggestion when it beats stopping).

    With a target, each option's ``best.success`` is its exact probability of success (1 or 0:
    the dice are known); use :func:`reroll_odds` when a skill would reroll a die.
    """
    table = _table(dice, pie, options)
    plans = _plans(table)
    stop = next(p for p in plans if not p.pairs)
    choices = [Option(None, None, stop, stop)]
    faces: dict[int, tuple[int, int]] = {}
    for plan in plans:
        for pair, value in zip(plan.pairs, plan.pair_values, strict=True):
            faces.setdefault(value, pair)
    ascended = []
    for value, pair in faces.items():
        after = _plans(replace(table, removed=table.removed | set(pair)))
        ascended.append(Option(pair, value, next(p for p in after if not p.pairs), after[0]))
    ascended.sort(key=lambda o: (-o.best.ap, o.best.slate_damage, -o.now.ap, -(o.value or 0)))
    return choices + ascended


@dataclass(frozen=True)
class RerollOdds:
    """Odds after rerolling one die and then playing optimally, next to keeping the dice."""

    index: int
    p_success: Fraction | None
    ap: Distribution
    slate_damage: Distribution
    damage: Distribution | None
    keep: Plan
    indices: tuple[int, ...] = ()
    """Every die rerolled (:func:`reroll_dice_odds`); ``index`` is the first of them."""

    @property
    def expected_slate_damage(self) -> Fraction:
        return self.slate_damage.mean()


def reroll_odds(
    dice: Sequence[DieLike],
    index: int,
    pie: int,
    *,
    size: int,
    **options: Unpack[CheckOptions],
) -> RerollOdds:
    """Reroll die ``index`` (a d``size``), then ascend optimally: P(success) and distributions.

    ``keep`` is the best plan without the reroll, for comparison. The one-die case of
    :func:`reroll_dice_odds` (one counting for both).
    """
    if isinstance(index, bool) or not isinstance(index, int):
        raise OddsError("index", f"{index!r} is not a die still on the table")
    try:
        return reroll_dice_odds(
            dice,
            (index,),
            pie,
            size=size,
            **options,
        )
    except OddsError as exc:
        if exc.argument == "indices":
            raise OddsError("index", f"{index!r} is not a die still on the table") from None
        raise


def best_reroll(
    dice: Sequence[DieLike],
    pie: int,
    *,
    size: int,
    target: int,
    **options: Unpack[_PoolOptions],
) -> RerollOdds | None:
    """The die whose reroll gives the most P(success), then the least expected damage; None when
    no reroll beats keeping the dice (for a bot deciding whether to use a reroll skill)."""
    removed = set(options.get("removed", ()))
    rerolls = [
        reroll_odds(dice, i, pie, size=size, target=target, **options) for i in range(len(dice)) if i not in removed
    ]
    best = max(rerolls, key=lambda r: (r.p_success or 0, -(r.damage.mean() if r.damage else 0), -r.index))
    keep = best.keep
    keep_value = (Fraction(int(bool(keep.success))), -Fraction(keep.damage or 0))
    best_value = (best.p_success or Fraction(0), -(best.damage.mean() if best.damage else Fraction(0)))
    return best if best_value > keep_value else None


def adjust_options(
    dice: Sequence[DieLike],
    index: int,
    pie: int,
    *,
    size: int,
    deltas: Sequence[int] = (-1, 1),
    **options: Unpack[CheckOptions],
) -> list[tuple[int, Plan]]:
    """For a skill that changes one die by a delta: (delta, best plan afterwards) for each delta
    that keeps the face on the die (1 … ``size``), best first."""
    table = _table(dice, pie, options)
    if not isinstance(index, int) or not 0 <= index < len(table.dice) or index in table.removed:
        raise OddsError("index", f"{index!r} is not a die still on the table")
    if size not in DIE_SIZES:
        raise OddsError("size", f"{size!r} is not a die size ({', '.join(map(str, DIE_SIZES))})")
    results = []
    for delta in deltas:
        face = table.dice[index].value + delta
        if 1 <= face <= size:
            rolled = list(table.dice)
            rolled[index] = rolled[index]._replace(value=face)
            results.append((delta, _plans(replace(table, dice=tuple(rolled)))[0]))
    results.sort(key=lambda dp: (-dp[1].ap, dp[1].slate_damage, abs(dp[0])))
    return results


# --------------------------------------------------------------------------------------------
# Skills and Arcana that change a rolled check in other ways (several dice, colours, near pairs)
# --------------------------------------------------------------------------------------------

_REROLL_BRUTE_LIMIT: Final = 20_000
"""The most ordered rolls :func:`reroll_dice_odds` scores one by one (multi-die checks, dice
already carrying points); beyond it the question is refused (``OddsError``) rather than slow."""


def reroll_dice_odds(
    dice: Sequence[DieLike],
    indices: Sequence[int],
    pie: int,
    *,
    size: int,
    **options: Unpack[CheckOptions],
) -> RerollOdds:
    """Reroll the dice ``indices`` together (each a d``size``), then ascend optimally: the same
    model as :func:`reroll_odds` (which it equals for one die), for skills and Arcana that reroll
    two dice or more (SUG-7 "+1 die per level", SUG-3 Wheel of Fortune).

    Exact, and without visiting the size ** k rolls one by one in the usual case (one scoring
    die, no points already on dice): only the faces' counts matter, so a programme visits the
    faces from the highest down with the state (rerolled dice left, pairs, highest face shown an
    odd number of times, highest shown an even number), as :func:`best_ap`'s formula reads them;
    a rerolled slate die is uniform and independent of the rest. Otherwise (``multi_die_checks``
    with several scoring dice, dice carrying bonuses) every roll is scored by the best plan, up
    to 20,000 rolls.

    :raises OddsError: ``indices`` empty, repeated or not on the table, a bad ``size``, or a
        roll count beyond that limit for the general case.
    """
    table = _table(dice, pie, options)
    target = table.target
    chosen = tuple(indices)
    if (
        not chosen
        or len(set(chosen)) != len(chosen)
        or any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(table.dice) for i in chosen)
        or any(i in table.removed for i in chosen)
    ):
        raise OddsError("indices", f"{list(chosen)!r} are not distinct dice still on the table")
    if size not in DIE_SIZES:
        raise OddsError("size", f"{size!r} is not a die size ({', '.join(map(str, DIE_SIZES))})")
    on_table = [i for i in range(len(table.dice)) if i not in table.removed]
    if table.required == 1 and all(table.dice[i].bonus == 0 for i in on_table):
        joint = _reroll_joint_fast(table, chosen, size)
    else:
        joint = _reroll_joint_brute(table, chosen, size)
    total = size ** len(chosen)
    ap: Counter[int] = Counter()
    hurt: Counter[int] = Counter()
    paid: Counter[int] = Counter()
    for (value, damage), ways in joint.items():
        ap[value] += ways
        hurt[damage] += ways
        if target is not None:
            paid[damage + (0 if value >= target else table.danger_level)] += ways
    ap_dist = Distribution.from_counts(ap, total)
    return RerollOdds(
        index=chosen[0],
        p_success=None if target is None else ap_dist.at_least(target),
        ap=ap_dist,
        slate_damage=Distribution.from_counts(hurt, total),
        damage=Distribution.from_counts(paid, total) if target is not None else None,
        keep=_plans(table)[0],
        indices=chosen,
    )


def _reroll_joint_fast(table: _Table, chosen: tuple[int, ...], size: int) -> Counter[tuple[int, int]]:
    """(AP, slate damage) → ordered rolls of the rerolled dice, one scoring die, no die bonus."""
    dice, slate, bonus = table.dice, table.slate_index, table.bonus
    on_table = [i for i in range(len(dice)) if i not in table.removed]
    kept = tuple(sorted(Counter(dice[i].value for i in on_table if i not in chosen and i != slate).items()))
    rolled = sum(1 for i in chosen if i != slate)
    base = bonus * table.counted_pairs + table.points + table.ap_bonus
    joint: Counter[tuple[int, int]] = Counter()
    if slate is None:
        for (keep, pairs), ways in _reroll_keep_counts(size, kept, rolled, bonus).items():
            joint[(keep + bonus * pairs + base, 0)] += ways
        return joint
    others = sum(1 for i in on_table if i != slate)
    per_die = table.per_die
    slate_faces = range(1, size + 1) if slate in chosen else (dice[slate].value,)
    for pairs, ways in _reroll_pair_counts(size, kept, rolled).items():
        damage = slate_damage(others - 2 * pairs, table.agi, per_die)
        for face in slate_faces:
            joint[(face + bonus * pairs + base, damage)] += ways
    return joint


@lru_cache(maxsize=4096)
def _reroll_pair_counts_cached(
    size: int, kept: tuple[tuple[int, int], ...], rolled: int
) -> tuple[tuple[int, int], ...]:
    counts = dict(kept)
    top = max(size, max(counts, default=0))
    states: dict[tuple[int, int], int] = {(rolled, 0): 1}
    for face in range(top, 0, -1):
        here = counts.get(face, 0)
        nxt: dict[tuple[int, int], int] = {}
        for (left, pairs), ways in states.items():
            shown = (0,) if face > size else (left,) if face == 1 else range(left + 1)
            for count in shown:
                key = (left - count, pairs + (here + count) // 2)
                nxt[key] = nxt.get(key, 0) + ways * comb(left, count)
        states = nxt
    return tuple(sorted((pairs, ways) for (left, pairs), ways in states.items() if not left))


def _reroll_pair_counts(size: int, kept: tuple[tuple[int, int], ...], rolled: int) -> dict[int, int]:
    """Disjoint pairs among the kept faces (``kept``: (face, count)) and ``rolled`` fresh dice →
    ordered rolls of the fresh dice."""
    return dict(_reroll_pair_counts_cached(size, kept, rolled))


@lru_cache(maxsize=4096)
def _reroll_keep_cached(
    size: int, kept: tuple[tuple[int, int], ...], rolled: int, bonus: int
) -> tuple[tuple[tuple[int, int], int], ...]:
    counts = dict(kept)
    top = max(size, max(counts, default=0))
    # state: (fresh dice left, pairs, highest face shown an odd number of times, highest shown
    # an even number (≥ 2) of times before it); 0 = none yet. Once an odd face is found, lower
    # faces only add pairs (the kept die is settled): the even face is then frozen.
    states: dict[tuple[int, int, int, int], int] = {(rolled, 0, 0, 0): 1}
    for face in range(top, 0, -1):
        here = counts.get(face, 0)
        nxt: dict[tuple[int, int, int, int], int] = {}
        for (left, pairs, odd, even), ways in states.items():
            shown = (0,) if face > size else (left,) if face == 1 else range(left + 1)
            for count in shown:
                c = here + count
                new_odd = odd or (face if c % 2 else 0)
                new_even = even or (face if not odd and c and c % 2 == 0 else 0)
                key = (left - count, pairs + c // 2, new_odd, new_even)
                nxt[key] = nxt.get(key, 0) + ways * comb(left, count)
        states = nxt
    result: dict[tuple[int, int], int] = {}
    for (left, pairs, odd, even), ways in states.items():
        if left:
            continue
        # keep the highest odd-count face, or break a pair of the highest even-count face (MV-ASC-9)
        keep = max(odd if odd else -_IMPOSSIBLE, even - bonus if even else -_IMPOSSIBLE)
        result[(keep, pairs)] = result.get((keep, pairs), 0) + ways
    return tuple(sorted(result.items()))


def _reroll_keep_counts(
    size: int, kept: tuple[tuple[int, int], ...], rolled: int, bonus: int
) -> dict[tuple[int, int], int]:
    """(value of the die kept after the pair it may cost, pairs) → ordered rolls of ``rolled``
    fresh dice next to the kept faces, for a check without slate: best AP = that value + bonus ·
    pairs (the closed formula of :func:`best_ap`)."""
    return dict(_reroll_keep_cached(size, kept, rolled, bonus))


def _reroll_joint_brute(table: _Table, chosen: tuple[int, ...], size: int) -> Counter[tuple[int, int]]:
    """Every roll of the rerolled dice, each scored by the best plan (the general case)."""
    if size ** len(chosen) > _REROLL_BRUTE_LIMIT:
        raise OddsError(
            "indices",
            f"rerolling {len(chosen)} d{size} here needs every roll scored one by one "
            f"({size ** len(chosen)} rolls, more than {_REROLL_BRUTE_LIMIT})",
        )
    joint: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(range(1, size + 1), repeat=len(chosen)):
        rolled = list(table.dice)
        for i, face in zip(chosen, faces, strict=True):
            rolled[i] = rolled[i]._replace(value=face)
        plan = min(_unordered_plans(replace(table, dice=tuple(rolled))), key=_order)
        joint[(plan.ap, plan.slate_damage)] += 1
    return joint


def swap_colours_plan(
    dice: Sequence[DieLike],
    pair: Sequence[int],
    pie: int,
    **options: Unpack[CheckOptions],
) -> Plan:
    """The best plan (MV-ASC-9) after two remaining dice of different colours swap colours (SUG-7
    "swap the colours of two dice (for slates)"): on a slate check the slate die is then the
    other one (MV-SLATE-2). The dice are known, so success is certain or impossible.

    :raises OddsError: ``pair`` is not two remaining dice of different colours.
    """
    table = _table(dice, pie, options)
    i, j = _two_on_table(table, pair)
    a, b = table.dice[i], table.dice[j]
    if a.colour == b.colour:
        raise OddsError("pair", f"dice {i} and {j} are both {a.colour}: swapping changes nothing")
    swapped = list(table.dice)
    swapped[i], swapped[j] = a._replace(colour=b.colour), b._replace(colour=a.colour)
    slate_index = table.slate_index
    if slate_index in (i, j):
        slate_index = j if slate_index == i else i
    return min(_unordered_plans(replace(table, dice=tuple(swapped), slate_index=slate_index)), key=_order)


def near_pair_plan(
    dice: Sequence[DieLike],
    pair: Sequence[int],
    pie: int,
    *,
    onto: int | None = None,
    **options: Unpack[CheckOptions],
) -> Plan:
    """The best plan (MV-ASC-9) after ascending two dice whose faces differ by 1 as if they were a
    pair (SUG-7 "treat two dice that differ by 1 as a pair"): they leave the table and the check
    gains one ascension bonus (MV-ASC-1/4), onto the die ``onto`` with ``multi_die_checks``
    (CHG-12). Legal as an ascension is (MV-ASC-6): never the slate die, and without a slate one
    die must remain.

    The odds model knows only pairs of equal faces among ``removed``, so the near pair is taken
    out of the pool instead: the plan's indices are those of ``dice`` all the same, and its
    ``ascensions`` count the near pair.

    :raises OddsError: ``pair`` is not a legal near pair, or ``onto`` is missing or wrong.
    """
    table = _table(dice, pie, options)
    i, j = _two_on_table(table, pair)
    if abs(table.dice[i].value - table.dice[j].value) != 1:
        raise OddsError("pair", f"dice {i} and {j} show {table.dice[i].value} and {table.dice[j].value}, not 1 apart")
    if table.slate_index in (i, j):
        raise OddsError("pair", "the slate die is never part of a pair (MV-ASC-6)")
    left = [k for k in range(len(table.dice)) if k not in table.removed and k not in (i, j)]
    if not left:
        raise OddsError("pair", "at least one die must remain (MV-ASC-6)")
    multi = table.variant.multi_die_checks
    if multi and (onto is None or onto not in left):
        raise OddsError("onto", f"{onto!r} is not a remaining die to place the bonus on (CHG-12)")
    keep = [k for k in range(len(table.dice)) if k not in (i, j)]
    pool = [table.dice[k] for k in keep]
    extra_ap = 0
    if multi:
        assert onto is not None
        pool[keep.index(onto)] = pool[keep.index(onto)]._replace(bonus=pool[keep.index(onto)].bonus + table.bonus)
    else:
        extra_ap = table.bonus
    smaller = replace(
        table,
        dice=tuple(pool),
        removed=frozenset(keep.index(k) for k in table.removed),
        slate_index=None if table.slate_index is None else keep.index(table.slate_index),
        ap_bonus=table.ap_bonus + extra_ap,
    )
    plan = min(_unordered_plans(smaller), key=_order)
    return replace(
        plan,
        pairs=tuple((keep[a], keep[b]) for a, b in plan.pairs),
        remaining=tuple(keep[k] for k in plan.remaining),
        ascensions=plan.ascensions + 1,
        scoring=tuple((keep[k], added) for k, added in plan.scoring),
    )


def _two_on_table(table: _Table, pair: Sequence[int]) -> tuple[int, int]:
    chosen = tuple(pair)
    if (
        len(chosen) != 2
        or chosen[0] == chosen[1]
        or any(not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(table.dice) for k in chosen)
        or any(k in table.removed for k in chosen)
    ):
        raise OddsError("pair", f"{list(chosen)!r} are not two dice still on the table")
    return min(chosen), max(chosen)
