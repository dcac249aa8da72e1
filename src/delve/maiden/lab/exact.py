"""The balance questions that the dice alone answer, exactly (fractions from
:mod:`delve.maiden.odds`, never sampled): BQ-1..11, BQ-15/16 (symbols), BQ-17, BQ-20, BQ-23.

"Averaged over the game's targets" means over the room checks of a whole game: a round 1..24
equally likely (action markers ⌈r/2⌉, MV-ROUND-7) and a room card drawn from the shipped room
deck (its copies counted; SUG-4), target = max(1, markers + difficulty).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache

from delve.maiden import content as maiden_content
from delve.maiden import odds
from delve.maiden.lab.answers import Answer, Plot, Series, Table, num, pct, pp
from delve.maiden.odds import Variant
from delve.maiden.state import DIE_SIZES, SYMBOLS


def _exact(value: object) -> Fraction | None:
    """An answer's exact fraction, when its value is one (the page prints it beside the percentage)."""
    return value if isinstance(value, Fraction) else None


ROUNDS = range(1, 25)
SIZES = DIE_SIZES
PIE_RULE = Variant(ascension_bonus="pie")
BOOST = Variant(pie_mode="boost")
MULTI = Variant(multi_die_checks=True)
RESTRICTED = Variant(slate_roll_restricted=True)


def final_boss_name() -> str:
    """The final boss as the content names it ("Urza, the Mad King"): the one name the report uses."""
    return maiden_content.load().final_boss.name["en"]


def markers(round_number: int) -> int:
    """Action markers during round r: one more on every odd round (MV-ROUND-7)."""
    return (round_number + 1) // 2


@cache
def room_deck() -> tuple[tuple[int, bool, int], ...]:
    """(difficulty, has a slate, copies) of every room card of the shipped deck."""
    cards = maiden_content.load().room_cards.values()
    return tuple((c.difficulty, c.slate is not None, c.copies) for c in cards)


@cache
def target_distribution(rounds: tuple[int, ...] = tuple(ROUNDS)) -> dict[int, Fraction]:
    """P(T = t) of a room check over ``rounds`` (equally likely) and the room deck."""
    deck = room_deck()
    copies = sum(n for _, _, n in deck)
    out: Counter[int] = Counter()
    for r in rounds:
        for difficulty, _slate, n in deck:
            out[max(1, markers(r) + difficulty)] += n
    total = copies * len(rounds)
    return {t: Fraction(w, total) for t, w in sorted(out.items())}


def averaged(
    wil: int, pie: int, *, variant: Variant = odds.DEFAULT, rounds: Sequence[int] = ROUNDS, size: int | None = None
) -> Fraction:
    """P(success) of a normal check averaged over the game's targets."""
    dist = odds.ap_distribution(wil, pie, variant=variant, size=size)
    return sum((p * dist.at_least(t) for t, p in target_distribution(tuple(rounds)).items()), Fraction(0))


def _size_name(size: int) -> str:
    return f"d{size}"


# ------------------------------------------------------------------------------------- BQ-1


def bq1() -> list[Answer]:
    gains: dict[tuple[int, str], list[Fraction]] = {}
    for size in SIZES:
        wil = SIZES.index(size)
        for rule, variant in (("1+Pie", odds.DEFAULT), ("Pie", PIE_RULE)):
            values = [averaged(wil, pie, variant=variant) for pie in range(7)]
            gains[(size, rule)] = [values[p + 1] - values[p] for p in range(6)]
    d20 = {
        rule: [averaged(4, pie, variant=v) for pie in range(7)]
        for rule, v in (("1+Pie", odds.DEFAULT), ("Pie", PIE_RULE))
    }
    rows = [
        [str(pie), pct(d20["1+Pie"][pie]), pct(d20["Pie"][pie])]
        + [pp(gains[(s, "1+Pie")][pie]) if pie < 6 else "" for s in SIZES]
        for pie in range(7)
    ]
    table = Table(
        ["Pie", "d20 P(success), bonus 1+Pie", "d20, bonus Pie"] + [f"gain of Pie+1 at {_size_name(s)}" for s in SIZES],
        rows,
        "P(success) averaged over the game's targets; the gain columns: one more Pie level (bonus 1+Pie).",
    )
    plots = [
        Plot(
            name,
            f"BQ-1: P(AP ≥ T) with a d20 (Wil 4), bonus {rule}",
            "target T",
            "P(success)",
            [
                Series(
                    f"Pie {pie}",
                    list(range(1, 31)),
                    [float(odds.success_probability(4, pie, t, variant=variant)) for t in range(1, 31)],
                )
                for pie in range(7)
            ],
        )
        for name, rule, variant in (("bq01_d20_pie", "1+Pie", odds.DEFAULT), ("bq01_d20_pie_rule", "Pie", PIE_RULE))
    ]
    first = gains[(20, "1+Pie")][0]
    answer = Answer(
        "BQ-1",
        "Is Pie worth anything at d20?",
        f"At d20 the first Pie level adds {pp(first)} of P(success) over the game's targets (bonus 1+Pie; "
        f"{pp(gains[(20, 'Pie')][0])} with bonus Pie), against {pp(gains[(4, '1+Pie')][0])} at d4 and "
        f"{pp(gains[(8, '1+Pie')][0])} at d8.",
        float(first),
        "exact",
        unit="pp",
        fraction=_exact(first),
        tables=[table],
        plots=plots,
    )
    # the distribution of T in play
    dist = target_distribution()
    above = sum((p for t, p in dist.items() if t > 20), Fraction(0))
    bosses = maiden_content.load().bosses.values()
    boss_targets = [max(1, markers(r) + a.difficulty) for b in bosses for a in b.actions for r in ROUNDS]
    boss_above = Fraction(sum(1 for t in boss_targets if t > 20), len(boss_targets))
    urza = maiden_content.load().final_boss
    urza_targets = [max(1, markers(r) + a.difficulty) for a in urza.actions for r in ROUNDS]
    t_table = Table(["T", "P(T) of a room check"], [[str(t), pct(p)] for t, p in dist.items()])
    t_plot = Plot(
        "bq01_targets",
        "BQ-1: the distribution of room-check targets over a game",
        "target T",
        "P(T)",
        [Series("room checks", list(dist), [float(p) for p in dist.values()])],
        kind="bar",
    )
    answers = [answer]
    answers.append(
        Answer(
            "BQ-1",
            "How often does a target exceed 20?",
            f"P(T > 20) = {pct(above)} for room checks (the highest room target is {max(dist)}); boss actions over "
            f"rounds 1–24: {pct(boss_above)}; the targets of {final_boss_name()}, reach "
            f"{max(urza_targets)} in round 24.",
            float(above),
            "exact",
            unit="%",
            fraction=_exact(above),
            tables=[t_table],
            plots=[t_plot],
        )
    )
    return answers


# ------------------------------------------------------------------------------------- BQ-2


def bq2() -> list[Answer]:
    rows = []
    gain_rows = []
    series = []
    for size in SIZES:
        p_pair = []
        for n in range(3, 11):
            pairs = odds.pair_distribution(size, n)
            p_pair.append(1 - pairs.probability(0))
            rows.append(
                [
                    _size_name(size),
                    str(n),
                    pct(1 - pairs.probability(0)),
                    num(pairs.mean()),
                    ", ".join(f"{k}: {pct(pairs.probability(k))}" for k in range(pairs.max() + 1)),
                ]
            )
            best = odds.ap_distribution(0, n - 3, size=size).mean()
            highest = odds.ap_distribution(0, n - 3, size=size, bonus=0).mean()
            gain_rows.append([_size_name(size), str(n), num(best - highest)])
        series.append(Series(_size_name(size), list(range(3, 11)), [float(p) for p in p_pair]))
    d8 = 1 - odds.pair_distribution(8, 3).probability(0)
    d12 = 1 - odds.pair_distribution(12, 3).probability(0)
    return [
        Answer(
            "BQ-2",
            "How often does ascension happen, by die size?",
            f"With 3 dice a pair shows {pct(d8)} of the time at d8 and {pct(d12)} at d12 "
            f"(d4 {pct(1 - odds.pair_distribution(4, 3).probability(0))}, "
            f"d20 {pct(1 - odds.pair_distribution(20, 3).probability(0))}).",
            float(d8),
            "exact",
            unit="%",
            fraction=_exact(d8),
            tables=[
                Table(["die", "dice n", "P(≥ 1 pair)", "E[pairs]", "P(max disjoint pairs = k)"], rows),
                Table(["die", "dice n", "E[AP gain from ascension] (bonus 1+Pie, Pie = n−3)"], gain_rows),
            ],
            plots=[Plot("bq02_pairs", "BQ-2: P(at least one pair)", "dice rolled n", "P", series)],
        )
    ]


# ------------------------------------------------------------------------------------- BQ-3


AVERAGED = (
    "P(success) is averaged over the game's target distribution: a round 1–24 equally likely, action "
    "markers ⌈r/2⌉ (MV-ROUND-7), a room card of the shipped deck (copies counted), "
    "target = max(1, markers + difficulty)."
)


def slate_success(wil: int, pie: int, *, variant: Variant = odds.DEFAULT, size: int | None = None) -> Fraction:
    dist = odds.slate_joint(wil, pie, variant=variant, size=size).ap()
    return sum((p * dist.at_least(t) for t, p in target_distribution().items()), Fraction(0))


def bq3() -> list[Answer]:
    rows = []
    raises = lowers = 0
    deltas_a0: list[Fraction] = []
    for size in SIZES:
        wil = SIZES.index(size)
        for agi in range(5):
            means = [odds.slate_joint(wil, pie, agi=agi).damage().mean() for pie in range(7)]
            for pie in range(6):
                delta = means[pie + 1] - means[pie]
                raises += delta > 0
                lowers += delta < 0
                if agi == 0:
                    deltas_a0.append(delta)
            rows.append(
                [_size_name(size), str(agi)]
                + [num(m) for m in means]
                + [pct(slate_success(wil, 0)), pct(slate_success(wil, 3))]
            )
    table = Table(
        ["die", "Agi"]
        + [f"E[slate dmg] Pie {p}" for p in range(7)]
        + [f"P(success) Pie {p}, averaged over the game's targets" for p in (0, 3)],
        rows,
        f"Agi 0–4 (spec BQ-3). slate_damage_per_die = 1 at DL 1; with slate_damage_per_die = danger_level every "
        f"damage is × DL. {AVERAGED} (P(success) does not depend on Agi or DL.)",
    )
    series = [
        Series(
            _size_name(s),
            list(range(7)),
            [float(odds.slate_joint(SIZES.index(s), pie).damage().mean()) for pie in range(7)],
        )
        for s in SIZES
    ]
    return [
        Answer(
            "BQ-3",
            "Is Pie purely a liability against slate?",
            f"Yes for damage: one more Pie level raises expected slate damage in {raises} of {raises + lowers + 0} "
            f"(size, Pie, Agi) cells that change and lowers it in {lowers}; at Agi 0 by "
            f"{num(min(deltas_a0))} to {num(max(deltas_a0))} per level (per-die damage 1).",
            float(sum(deltas_a0) / len(deltas_a0)),
            "exact",
            fraction=_exact(sum(deltas_a0) / len(deltas_a0)),
            tables=[table],
            plots=[Plot("bq03_slate", "BQ-3: expected slate damage at Agi 0, DL 1", "Pie", "E[slate damage]", series)],
            notes=["The headline value is the mean change of expected slate damage per Pie level at Agi 0."],
        )
    ]


# ------------------------------------------------------------------------------------- BQ-4


def bq4() -> list[Answer]:
    rows = []
    dice_win = cells = 0
    for wil in range(4):
        for pie in range(6):
            base = averaged(wil, pie)
            more_dice = averaged(wil, pie + 1) - base
            bigger = averaged(wil + 1, pie) - base
            cells += 1
            dice_win += more_dice > bigger
            rows.append(
                [_size_name(SIZES[wil]), str(pie), pp(more_dice), pp(bigger), "dice" if more_dice > bigger else "size"]
            )
    return [
        Answer(
            "BQ-4",
            "Is there any reason to roll many dice when only the highest counts?",
            f"One more die beats one more die size in {dice_win} of {cells} (Wil 0–3, Pie 0–5) starting points "
            f"(P(success) averaged over the game's targets).",
            dice_win / cells,
            "exact",
            unit="%",
            fraction=Fraction(dice_win, cells),
            tables=[Table(["die", "Pie", "ΔP one more die (Pie+1)", "ΔP next size (Wil+1)", "better"], rows)],
        )
    ]


# ------------------------------------------------------------------------------------- BQ-5


def _at_least(n: int, k: int, size: int, x: int) -> Fraction:
    """P(at least k of n dice of ``size`` show ≥ x)."""
    p = Fraction(max(0, size - x + 1), size)
    return sum((math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)), Fraction(0))


def bq5() -> list[Answer]:
    dice_win = total = 0
    region: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for s_index, size in enumerate(SIZES[:-1]):
        nxt = SIZES[s_index + 1]
        for n in range(3, 10):
            for k in (1, 2, 3):
                for x in range(1, 21):
                    more = _at_least(n + 1, k, size, x)
                    bigger = _at_least(n, k, nxt, x)
                    if more == bigger:
                        continue
                    total += 1
                    if more > bigger:
                        dice_win += 1
                        if n == 3:
                            region[k].append(x)
    rows = []
    for k in (2, 3):
        for size in SIZES:
            wil = SIZES.index(size)
            for pie in range(3):
                base = odds.ap_distribution(wil, pie, required_count=k, variant=MULTI)
                more_dist = odds.ap_distribution(wil, pie + 1, required_count=k, variant=MULTI)
                bigger_dist = odds.ap_distribution(min(wil + 1, 4), pie, required_count=k, variant=MULTI)
                rows.append(
                    [
                        str(k),
                        _size_name(size),
                        str(pie),
                        num(base.mean()),
                        num(more_dist.mean()),
                        num(bigger_dist.mean()) if wil < 4 else "—",
                    ]
                )
    region_text = "; ".join(
        f"N={k}: X ∈ {{{', '.join(map(str, sorted(set(xs))[:12]))}{'…' if len(set(xs)) > 12 else ''}}}"
        for k, xs in region.items()
        if xs
    )
    return [
        Answer(
            "BQ-5",
            "'N dice of at least X' checks",
            f"Without bonuses, one more die beats the next die size in {dice_win} of {total} (size, n, N, X) cases "
            f"that differ; at n = 3 that is {region_text or 'never'}.",
            dice_win / total,
            "exact",
            unit="%",
            fraction=Fraction(dice_win, total),
            tables=[
                Table(
                    ["N", "die", "Pie", "E[highest N-dice target]", "with Pie+1", "with Wil+1"],
                    rows,
                    "With bonuses (multi_die_checks, ascension bonuses placed optimally one per die).",
                ),
            ],
        )
    ]


# ------------------------------------------------------------------------------------- BQ-6


def bq6() -> list[Answer]:
    rows = []
    deltas = []
    for total in range(9):
        best_default = max(((w, total - w) for w in range(min(total, 4) + 1)), key=lambda wp: averaged(wp[0], wp[1]))
        best_boost = max(
            ((w, total - w) for w in range(min(total, 4) + 1)), key=lambda wp: averaged(wp[0], wp[1], variant=BOOST)
        )
        for w in range(min(total, 4) + 1):
            deltas.append(averaged(w, total - w, variant=BOOST) - averaged(w, total - w))
        rows.append(
            [
                str(total),
                f"Wil {best_default[0]} Pie {best_default[1]}: {pct(averaged(*best_default))}",
                f"Wil {best_boost[0]} Pie {best_boost[1]}: {pct(averaged(*best_boost, variant=BOOST))}",
            ]
        )
    mean_delta = sum(deltas, Fraction(0)) / len(deltas)
    return [
        Answer(
            "BQ-6",
            "Pie raising the best die (pie_mode = boost)",
            f"Over every (Wil ≤ 4, Pie) with up to 8 cards, boost mode changes P(success) by {pp(mean_delta)} on "
            f"average (best split per card count in the table).",
            float(mean_delta),
            "exact",
            unit="pp",
            fraction=_exact(mean_delta),
            tables=[Table(["Wil+Pie cards", "best split, default", "best split, boost"], rows)],
        )
    ]


# ------------------------------------------------------------------------------------- BQ-7


def bq7() -> list[Answer]:
    rows = []
    regrets = []
    beats = 0
    checked = 0
    round_sets = {
        "whole game": tuple(ROUNDS),
        "rounds 1–8": tuple(range(1, 9)),
        "rounds 9–16": tuple(range(9, 17)),
        "rounds 17–24": tuple(range(17, 25)),
    }
    for k in range(2, 13):
        row = [str(k)]
        for label, rounds in round_sets.items():
            splits = [(w, k - w) for w in range(min(k, 4) + 1)]
            values = {wp: averaged(wp[0], wp[1], rounds=rounds) for wp in splits}
            best = max(splits, key=lambda wp: values[wp])
            wil_first = (min(k, 4), k - min(k, 4))
            regret = values[best] - values[wil_first]
            if label == "whole game":
                regrets.append((k, regret))
            row.append(f"W{best[0]}/P{best[1]} {pct(values[best])} (regret {pp(regret)})")
        rows.append(row)
    for wil in range(4):
        for pie in range(9):
            checked += 1
            beats += averaged(wil, pie + 1) > averaged(wil + 1, pie)
    worst = max(regrets, key=lambda kr: kr[1])
    return [
        Answer(
            "BQ-7",
            "Does Wil dominate growth? (dice only)",
            f"All-Wil-until-4-then-Pie is the best split at {sum(1 for _, r in regrets if r == 0)} of "
            f"{len(regrets)} card counts k = 2–12 (largest regret {pp(worst[1])} at k = {worst[0]}); "
            f"a Pie card beats a Wil card before Wil 4 in {beats} of {checked} (Wil, Pie) positions.",
            float(worst[1]),
            "exact",
            unit="pp",
            fraction=_exact(worst[1]),
            tables=[
                Table(
                    ["k cards on Wil/Pie"] + [f"best split, {label}" for label in round_sets],
                    rows,
                    "Cards not on Wil or Pie (Agi, Ins) do not change a normal check; the full-game "
                    "simulation below values them.",
                )
            ],
        )
    ]


# ------------------------------------------------------------------------------------- BQ-8


def bq8() -> list[Answer]:
    rows = []
    for size in SIZES:
        wil = SIZES.index(size)
        for pie in range(5):
            default = odds.slate_joint(wil, pie)
            restricted = odds.slate_joint(wil, pie, variant=RESTRICTED)
            rows.append(
                [
                    _size_name(size),
                    str(pie),
                    pct(slate_success(wil, pie)),
                    pct(slate_success(wil, pie, variant=RESTRICTED)),
                    num(default.damage().mean()),
                    num(restricted.damage().mean()),
                    pct(restricted.damage().probability(0)),
                ]
            )
    d8_default = slate_success(2, 0)
    d8_restricted = slate_success(2, 0, variant=RESTRICTED)
    return [
        Answer(
            "BQ-8",
            "'Don't let them roll': slate with the slate colour plus white only",
            f"At Pie 0 the restricted roll is the slate die alone: P(success) at d8 {pct(d8_restricted)} "
            f"(default {pct(d8_default)}), with no damage dice at all; the designer's 'huge luck at Pie 0' is the "
            f"single die, and pairs vanish (only white dice can pair).",
            float(d8_restricted - d8_default),
            "exact",
            unit="pp",
            fraction=_exact(d8_restricted - d8_default),
            tables=[
                Table(
                    [
                        "die",
                        "Pie",
                        "P(success) default, averaged over the game's targets",
                        "P(success) restricted, averaged",
                        "E[slate dmg] default",
                        "restricted",
                        "P(no dmg) restricted",
                    ],
                    rows,
                    AVERAGED,
                )
            ],
            notes=["Headline value: the change of P(success) at d8, Pie 0 (restricted − default)."],
        )
    ]


# ------------------------------------------------------------------------------------- BQ-9


LIVES = range(1, 7)
DANGER_LEVELS = range(1, 5)
DL_SLATE = Variant(slate_damage_per_die="danger_level")


@cache
def slate_target_distribution() -> dict[int, Fraction]:
    """P(T = t) of a slate room check over rounds 1..24 (equally likely) and the room cards with
    a slate (copies counted)."""
    out: Counter[int] = Counter()
    for r in ROUNDS:
        for difficulty, slate, n in room_deck():
            if slate:
                out[max(1, markers(r) + difficulty)] += n
    total = sum(out.values())
    return {t: Fraction(w, total) for t, w in sorted(out.items())}


@cache
def death_probabilities(wil: int, pie: int, agi: int, danger_level: int) -> tuple[Fraction, ...]:
    """P(death) from life L = 1..6 of one slate room check under ``slate_damage_per_die =
    danger_level`` (BQ-9): P(slate damage + failure damage ≥ L), the failure damage DL applying on
    a failed slate check too (MV-CHECK-10, MV-SLATE-7), averaged over the game's slate-check
    targets (:func:`slate_target_distribution`)."""
    joint = odds.slate_joint(wil, pie, agi=agi, danger_level=danger_level, variant=DL_SLATE)
    targets = slate_target_distribution()
    out = []
    for life in LIVES:
        total = Fraction(0)
        for (ap, damage), p in joint.outcomes:
            fails = sum((q for t, q in targets.items() if ap < t), Fraction(0))
            total += p * ((1 - fails) * (damage >= life) + fails * (damage + danger_level >= life))
        out.append(total)
    return tuple(out)


def bq9() -> list[Answer]:
    rows = []
    for size in SIZES:
        wil = SIZES.index(size)
        rows.append(
            [_size_name(size)]
            + [
                pct(odds.slate_joint(wil, pie, agi=0, danger_level=2, variant=DL_SLATE).damage().at_least(4))
                for pie in range(5)
            ]
        )
    agi_rows = []
    for agi in range(4):
        agi_rows.append(
            [str(agi)]
            + [
                pct(odds.slate_joint(2, pie, agi=agi, danger_level=2, variant=DL_SLATE).damage().at_least(4))
                for pie in range(5)
            ]
        )
    lives = [f"L = {life}" for life in LIVES]
    key_sizes = [
        [_size_name(size), str(dl)] + [pct(p) for p in death_probabilities(SIZES.index(size), 0, 0, dl)]
        for size in SIZES
        for dl in DANGER_LEVELS
    ]
    key_d8 = [
        [str(pie), str(agi)] + [pct(p) for p in death_probabilities(2, pie, agi, 2)]
        for pie in range(5)
        for agi in range(4)
    ]
    grid = [
        [_size_name(size), str(pie), str(agi), str(dl), str(life), f"{float(p):.6f}", str(p)]
        for size in SIZES
        for pie in range(5)
        for agi in range(4)
        for dl in DANGER_LEVELS
        for life, p in zip(LIVES, death_probabilities(SIZES.index(size), pie, agi, dl), strict=True)
    ]
    death_series = [
        Series(f"DL {dl}", list(LIVES), [float(p) for p in death_probabilities(2, 0, 0, dl)]) for dl in DANGER_LEVELS
    ]
    pie_series = [
        Series(f"Pie {pie}", list(LIVES), [float(p) for p in death_probabilities(2, pie, 0, 2)]) for pie in range(5)
    ]
    value = odds.slate_joint(2, 0, danger_level=2, variant=DL_SLATE).damage().at_least(4)
    death4 = death_probabilities(2, 0, 0, 2)[3]
    averaged_over = (
        "P(death) = P(slate damage + failure damage ≥ L): slate damage × DL per remaining non-slate die "
        "beyond Agi (slate_damage_per_die = danger_level, MV-SLATE-6) plus DL when the check fails (MV-CHECK-10, "
        "also on a slate check, MV-SLATE-7), averaged over the game's slate room-check targets (rounds 1–24 "
        "equally likely, the room cards with a slate)."
    )
    return [
        Answer(
            "BQ-9",
            "Variable slate damage at DL 2",
            f"With slate damage × DL, P(slate damage ≥ 4) at DL 2 is {pct(value)} for a d8 maiden with Pie 0 and "
            f"Agi 0 (1 − 1/s at Pie 0: only a pair of the two other dice saves her); with the failure damage "
            f"too, one slate room check kills her from life 4 with P = {pct(death4)}.",
            float(value),
            "exact",
            unit="%",
            fraction=_exact(value),
            tables=[
                Table(["die \\ Pie"] + [str(p) for p in range(5)], rows, "P(slate damage ≥ 4), DL 2, Agi 0."),
                Table(["Agi \\ Pie"] + [str(p) for p in range(5)], agi_rows, "P(slate damage ≥ 4), d8, DL 2."),
                Table(
                    ["die", "DL"] + [f"P(death) {x}" for x in lives],
                    key_sizes,
                    f"Pie 0, Agi 0, every die size and DL 1–4. {averaged_over}",
                ),
                Table(
                    ["Pie", "Agi"] + [f"P(death) {x}" for x in lives],
                    key_d8,
                    f"d8, DL 2, Pie 0–4, Agi 0–3. {averaged_over}",
                ),
                Table(
                    ["die", "Pie", "Agi", "DL", "life L", "P(death)", "P(death) exact"],
                    grid,
                    f"Every die size, Pie 0–4, Agi 0–3, DL 1–4, L = 1–6. {averaged_over}",
                    file="bq09_death.csv",
                ),
            ],
            plots=[
                Plot(
                    "bq09_death",
                    "BQ-9: P(one slate room check kills from life L), d8, Pie 0, Agi 0, slate damage × DL",
                    "life L",
                    "P(slate + failure damage ≥ L)",
                    death_series,
                ),
                Plot(
                    "bq09_death_pie",
                    "BQ-9: P(one slate room check kills from life L), d8, DL 2, Agi 0, by Pie",
                    "life L",
                    "P(slate + failure damage ≥ L)",
                    pie_series,
                ),
            ],
            notes=[
                "Headline value: P(slate damage ≥ 4) at DL 2, d8, Pie 0, Agi 0 (the spec's 'in particular'). "
                "At Pie 0 and Agi 0 the slate damage is 0 or 2 × DL, so from life ≤ 6 DL 3 and DL 4 kill alike "
                "except at L = 4: their lines meet in the first plot, drawn with distinct markers and line styles."
            ],
        )
    ]


# ------------------------------------------------------------------------------------ BQ-10


def bq10() -> list[Answer]:
    rows = []
    matches = {}
    for size in SIZES:
        wil = SIZES.index(size)
        old = [averaged(wil, pie) for pie in range(7)]
        new = [averaged(wil, pie, variant=PIE_RULE) for pie in range(7)]
        match = next((p for p in range(7) if new[p] >= old[1]), None)
        matches[size] = match
        rows.append(
            [_size_name(size)] + [pp(new[p] - old[p]) for p in range(7)] + ["never" if match is None else str(match)]
        )
    return [
        Answer(
            "BQ-10",
            "Ascension bonus Pie vs 1 + Pie",
            f"Under bonus = Pie a maiden needs Pie {matches[8]} at d8 (d4: {matches[4]}, d20: {matches[20]}) to "
            f"match the old rule's P(success) at Pie 1; per ascension the new rule gives Pie 2 what the old gave "
            f"Pie 1 (+2).",
            float(matches[8] if matches[8] is not None else -1),
            "exact",
            tables=[
                Table(
                    ["die"] + [f"ΔP Pie {p}" for p in range(7)] + ["Pie matching old Pie 1"],
                    rows,
                    "ΔP = P(success, bonus Pie) − P(success, bonus 1+Pie), averaged over the game's targets.",
                )
            ],
        )
    ]


# ------------------------------------------------------------------------------------ BQ-11


def bq11() -> list[Answer]:
    b4 = odds.ap_distribution(0, 4, bonus=4)
    b5 = odds.ap_distribution(0, 4, bonus=5)
    d20 = odds.ap_distribution(4, 0)
    d20_plain = odds.ap_distribution(4, 0, bonus=0)
    # 3d20 without ascension: the highest die alone, §8.3's baseline table
    targets = range(8, 21)
    rows = [
        [str(t), pct(b4.at_least(t)), pct(b5.at_least(t)), pct(d20_plain.at_least(t)), pct(d20.at_least(t))]
        for t in targets
    ]
    slate_d4 = odds.slate_joint(0, 4).damage().mean()
    slate_d20 = odds.slate_joint(4, 0).damage().mean()
    return [
        Answer(
            "BQ-11",
            "The designer's Pie 4 example (7d4 vs 3d20)",
            f"7d4 with bonus 4 reaches 16 with P = {pct(b4.at_least(16))} (mode {b4.mode()}, minimum {b4.min()}); "
            f"with bonus 5: {pct(b5.at_least(16))}; 3d20: {pct(d20_plain.at_least(16))} with no ascension "
            f"(§8.3's highest die), {pct(d20.at_least(16))} with it. Slate: 7d4 (Agi 0) expects "
            f"{num(slate_d4)} damage, 3d20 {num(slate_d20)}.",
            float(b4.at_least(16)),
            "exact",
            unit="%",
            fraction=_exact(b4.at_least(16)),
            tables=[
                Table(
                    [
                        "T",
                        "7d4, bonus 4",
                        "7d4, bonus 5",
                        "3d20 (Wil 4, Pie 0), no ascension (§8.3)",
                        "3d20 (Wil 4, Pie 0), with ascension (bonus 1)",
                    ],
                    rows,
                    "§8.3's 3d20 table is the highest die with no ascension (P(max ≥ T): 0.578 at T 16, 0.143 at "
                    "T 20). The rulebook lets a 3d20 roll ascend too (bonus 1 + Pie = 1, MV-ASC-9): when the two "
                    "lower dice pair, removing them gives the highest die + 1 (15, 4, 4 → 16), so the "
                    f"with-ascension column is higher by {pp(d20.at_least(16) - d20_plain.at_least(16))} at T 16 "
                    f"and {pp(d20.at_least(20) - d20_plain.at_least(20))} at T 20.",
                )
            ],
            plots=[
                Plot(
                    "bq11_7d4",
                    "BQ-11: P(AP ≥ T)",
                    "target T",
                    "P(AP ≥ T)",
                    [
                        Series("7d4 bonus 4", list(targets), [float(b4.at_least(t)) for t in targets]),
                        Series("7d4 bonus 5", list(targets), [float(b5.at_least(t)) for t in targets]),
                        Series(
                            "3d20, no ascension (§8.3)", list(targets), [float(d20_plain.at_least(t)) for t in targets]
                        ),
                        Series("3d20, with ascension", list(targets), [float(d20.at_least(t)) for t in targets]),
                    ],
                )
            ],
            notes=[
                "The two 3d20 columns differ only by ascension: §8.3 gives the highest die alone as its "
                "baseline, while a maiden at the table may also remove a pair of the lower dice for +1, "
                "which is worth a little at every target (about half a percentage point)."
            ],
        )
    ]


# --------------------------------------------------------------------------- BQ-15 / BQ-16


def _tops_probability(requirement: Sequence[str], stats: int) -> Fraction:
    """P(the top cards of ``stats`` non-empty stats, each a uniform random symbol, contain the
    multiset ``requirement``)."""
    need = Counter(requirement)
    hits = 0
    for tops in itertools.product(SYMBOLS, repeat=stats):
        have = Counter(tops)
        hits += all(have[s] >= n for s, n in need.items())
    return Fraction(hits, len(SYMBOLS) ** stats)


def _occupied(cards: int) -> dict[int, Fraction]:
    """P(exactly j of the 4 stats hold a card) after ``cards`` placed uniformly at random."""
    out: Counter[int] = Counter()
    for placement in itertools.product(range(4), repeat=cards):
        out[len(set(placement))] += 1
    return {j: Fraction(w, 4**cards) for j, w in out.items()}


def random_tops(requirement: Sequence[str], cards: int) -> Fraction:
    """P(the top cards meet ``requirement``) after ``cards`` placed on random stats."""
    return sum((p * _tops_probability(requirement, j) for j, p in _occupied(cards).items()), Fraction(0))


def aimed_tops(requirement: Sequence[str], cards: int) -> Fraction:
    """P(a maiden who aims for ``requirement`` can show it after ``cards`` draws): the needed
    symbols appear among the cards drawn (each card a uniform symbol) and fit on the 4 stats."""
    if len(requirement) > 4:
        return Fraction(0)
    need = Counter(requirement)
    hits = 0
    for drawn in itertools.product(SYMBOLS, repeat=cards):
        have = Counter(drawn)
        hits += all(have[s] >= n for s, n in need.items())
    return Fraction(hits, len(SYMBOLS) ** cards)


def bq15() -> list[Answer]:
    skills = maiden_content.load().skills.values()
    conditions = Counter(tuple(sorted(s.condition)) for s in skills)
    rows = []
    weighted = Fraction(0)
    for condition, n in sorted(conditions.items()):
        by_stats = [_tops_probability(condition, j) for j in range(1, 5)]
        weighted += n * by_stats[3]
        rows.append(["".join(condition) or "—", str(n)] + [pct(p) for p in by_stats])
    mean_met = weighted / sum(conditions.values())
    return [
        Answer(
            "BQ-15",
            "Skill weight: how often a skill's condition is met (random top cards)",
            f"With four stats showing random top cards, a skill of the shipped list has its condition met "
            f"{pct(mean_met)} of the time on average.",
            float(mean_met),
            "exact",
            unit="%",
            fraction=_exact(mean_met),
            tables=[Table(["condition", "skills", "1 stat shown", "2 stats", "3 stats", "4 stats"], rows)],
        )
    ]


def bq16() -> list[Answer]:
    rooms = maiden_content.load().rooms.values()
    requirements = sorted({tuple(r.entry_requirement) for r in rooms if r.entry_requirement})
    rows = []
    for req in requirements:
        rows.append(["".join(req)] + [f"{pct(random_tops(req, k))} / {pct(aimed_tops(req, k))}" for k in (2, 4, 6, 8)])
    first = requirements[0] if requirements else ("J", "J")
    value = random_tops(first, 6)
    return [
        Answer(
            "BQ-16",
            "Entry restrictions: P(the top cards show the requirement)",
            f"After 6 cards on random stats the tops show {''.join(first)} with P = {pct(value)}; a maiden aiming "
            f"for it: {pct(aimed_tops(first, 6))}.",
            float(value),
            "exact",
            unit="%",
            fraction=_exact(value),
            tables=[
                Table(
                    ["requirement", "k=2 random / aimed", "k=4", "k=6", "k=8"],
                    rows,
                    "k cards placed; each card a uniform symbol (the action deck holds 12 of each).",
                )
            ],
        )
    ]


# ------------------------------------------------------------------------------------ BQ-17


def _card_values(
    wil: int, pie: int, agi: int, rounds: Iterable[int]
) -> dict[tuple[int, bool], tuple[Fraction, Fraction]]:
    """(difficulty, slate) -> (P(success), E[damage]) averaged over ``rounds`` at DL 1."""
    rounds = list(rounds)
    out = {}
    for difficulty, slate, _ in room_deck():
        succ = Fraction(0)
        dmg = Fraction(0)
        for r in rounds:
            c = odds.check_odds(wil, pie, max(1, markers(r) + difficulty), agi=agi, slate="red" if slate else None)
            succ += c.p_success
            dmg += c.expected_damage
        out[(difficulty, slate)] = (succ / len(rounds), dmg / len(rounds))
    return out


def best_of(draws: int, wil: int, pie: int, agi: int, rounds: Iterable[int] = ROUNDS) -> tuple[Fraction, Fraction]:
    """(P(success), E[damage]) when the maiden keeps the least damaging of ``draws`` room cards
    drawn without replacement (ties: the likelier success); per round the choice is made with that
    round's odds, here averaged over the rounds."""
    deck: Counter[tuple[int, bool]] = Counter()
    for difficulty, slate, n in room_deck():
        deck[(difficulty, slate)] += n
    kinds = sorted(deck)
    total = sum(deck.values())
    succ = Fraction(0)
    dmg = Fraction(0)
    rounds = list(rounds)
    for r in rounds:
        values = _card_values(wil, pie, agi, [r])
        for combo in itertools.combinations_with_replacement(range(len(kinds)), draws):
            counts = Counter(combo)
            ways = math.prod(math.comb(deck[kinds[i]], c) for i, c in counts.items())
            if ways == 0:
                continue
            p = Fraction(ways, math.comb(total, draws))
            chosen = min((kinds[i] for i in counts), key=lambda kd: (values[kd][1], -values[kd][0]))
            succ += p * values[chosen][0]
            dmg += p * values[chosen][1]
    return succ / len(rounds), dmg / len(rounds)


def bq17() -> list[Answer]:
    rows = []
    results = {}
    for label, (wil, pie, agi) in {"Wil 2, Pie 1, Agi 0": (2, 1, 0), "Wil 4, Pie 2, Agi 1": (4, 2, 1)}.items():
        for ins in range(4):
            succ, dmg = best_of(1 + ins, wil, pie, agi)
            results[(label, ins)] = (succ, dmg)
            rows.append([label, str(ins), pct(succ), num(dmg)])
    s0, d0 = results[("Wil 2, Pie 1, Agi 0", 0)]
    s1, d1 = results[("Wil 2, Pie 1, Agi 0", 1)]
    return [
        Answer(
            "BQ-17",
            "Ins on room draws: the easiest of 1 + Ins room cards",
            f"For a Wil 2 / Pie 1 maiden, Ins 1 lowers the expected damage of a room check from {num(d0)} to "
            f"{num(d1)} ({pp(s1 - s0)} of P(success)).",
            float(d0 - d1),
            "exact",
            fraction=_exact(d0 - d1),
            tables=[
                Table(
                    ["maiden", "Ins", "P(success)", "E[damage] per check (DL 1)"],
                    rows,
                    "The least damaging card is kept; rounds 1–24 equally likely.",
                )
            ],
        )
    ]


# ------------------------------------------------------------------------------------ BQ-20


REFERENCE_BY_TIER = {1: (2, 0, 0, 4), 2: (3, 1, 0, 10), 3: (4, 1, 1, 16), 4: (4, 2, 1, 22)}
"""tier -> (Wil, Pie, Agi, round) of the maiden the fight-length table assumes."""


def fight(
    actions: Sequence[tuple[int, bool]],
    life: int,
    wil: int,
    pie: int,
    agi: int,
    round_number: int,
    danger_level: int = 1,
) -> tuple[Fraction, Fraction]:
    """(E[checks], E[damage]) to take ``life`` from a boss whose cyclic actions are
    (difficulty, slate): a Markov chain on (life left, pointer), solved exactly."""
    checks = []
    for difficulty, slate in actions:
        c = odds.check_odds(
            wil,
            pie,
            max(1, markers(round_number) + difficulty),
            agi=agi,
            slate="red" if slate else None,
            danger_level=danger_level,
        )
        checks.append((c.p_success, c.expected_damage))
    n = len(checks)

    def solve(cost: list[Fraction]) -> Fraction:
        below = [Fraction(0)] * n  # E at life l-1 for each pointer
        for _ in range(life):
            # E_l(j) = cost_j + p_j * below[j+1] + (1 - p_j) * E_l(j+1): unroll the cycle from j = 0
            a, b = Fraction(0), Fraction(1)
            for j in range(n):
                p = checks[j][0]
                a += b * (cost[j] + p * below[(j + 1) % n])
                b *= 1 - p
            if b == 1:
                return Fraction(-1)
            e0 = a / (1 - b)
            current = [Fraction(0)] * n
            current[0] = e0
            # back-substitute E_l(j) for j = n-1 .. 1 from E_l(0)
            nxt = e0
            for j in range(n - 1, 0, -1):
                p = checks[j][0]
                current[j] = cost[j] + p * below[(j + 1) % n] + (1 - p) * nxt
                nxt = current[j]
            below = current
        return below[0]

    expected_checks = solve([Fraction(1)] * n)
    expected_damage = solve([d for _, d in checks])
    return expected_checks, expected_damage


def _targets(rnd: int, difficulties: Sequence[int]) -> str:
    """A boss's targets in round ``rnd``: action markers ⌈r/2⌉ (MV-ROUND-7) + each difficulty."""
    markers = math.ceil(rnd / 2)
    targets = sorted({max(1, markers + d) for d in difficulties})
    values = ", ".join(str(t) for t in targets)
    return f"{values} ({markers} action markers + difficulty {', '.join(str(d) for d in difficulties)})"


def bq20() -> list[Answer]:
    rows = []
    urza_checks, urza_life = Fraction(0), 0
    urza_checks_b, urza_life_b, urza_round, urza_difficulties = Fraction(0), 0, 0, [0]
    for boss in sorted(maiden_content.load().bosses.values(), key=lambda b: (b.tier, b.id)):
        wil, pie, agi, rnd = REFERENCE_BY_TIER[min(4, max(1, boss.tier))]
        actions = [(a.difficulty, a.slate is not None) for a in boss.actions]
        bonus_life = boss.life + -(-boss.life // 3)
        checks, damage = fight(actions, boss.life, wil, pie, agi, rnd)
        checks_b, damage_b = fight(actions, bonus_life, wil, pie, agi, rnd)
        if boss.final:
            urza_checks, urza_life = checks, boss.life
            urza_checks_b, urza_life_b, urza_round = checks_b, bonus_life, rnd
            urza_difficulties = sorted({int(a.difficulty) for a in boss.actions})
        rows.append(
            [
                boss.name["en"],
                str(boss.tier),
                f"W{wil} P{pie} A{agi}, round {rnd}",
                str(boss.life),
                num(checks),
                num(damage),
                str(bonus_life),
                num(checks_b),
                num(damage_b),
            ]
            + [num(checks / m) for m in range(1, 5)]
        )
    return [
        Answer(
            "BQ-20",
            "Boss fight length",
            f"{final_boss_name()} takes {num(urza_checks)} checks on average at life {urza_life} (1 and 3 players) "
            f"and {num(urza_checks_b)} at life {urza_life_b} (2 and 4 players: +⌈L/3⌉) from a Wil 4 / Pie 2 maiden in "
            f"round {urza_round}, where his targets are {_targets(urza_round, urza_difficulties)} (the team's checks: "
            "split them over the maidens fighting).",
            float(urza_checks),
            "exact",
            fraction=_exact(urza_checks),
            tables=[
                Table(
                    [
                        "boss",
                        "tier",
                        "maiden",
                        "life",
                        "E[checks]",
                        "E[damage]",
                        "life +⌈L/3⌉",
                        "E[checks]",
                        "E[damage]",
                    ]
                    + [f"turns per maiden, m={m}" for m in range(1, 5)],
                    rows,
                    "Exact Markov chain over (life left, action pointer); DL 1; the reference maiden grows "
                    "with the boss's tier.",
                )
            ],
        )
    ]


# ------------------------------------------------------------------------------------ BQ-23


def _ranges(values: Sequence[int]) -> str:
    """Sorted whole numbers as ranges: 6–7, 10, 12–14."""
    out: list[str] = []
    for _, run in itertools.groupby(enumerate(sorted(values)), key=lambda iv: iv[1] - iv[0]):
        run_values = [v for _, v in run]
        first, last = run_values[0], run_values[-1]
        out.append(str(first) if first == last else f"{first}–{last}")
    return ", ".join(out)


def bq23() -> list[Answer]:
    wins = []
    cells = 0
    groups: dict[tuple[int, int, int], list[tuple[int, Fraction]]] = {}
    for wil in range(1, 5):
        for pie in range(7):
            top = odds.ap_distribution(wil, pie)
            for size in SIZES[:wil]:
                smaller = odds.ap_distribution(wil, pie, size=size)
                for t in range(1, 31):
                    cells += 1
                    if smaller.at_least(t) > top.at_least(t):
                        wins.append((wil, pie, t, size))
                        groups.setdefault((wil, pie, size), []).append((t, smaller.at_least(t) - top.at_least(t)))
    group_rows = []
    for (wil, pie, size), hits in sorted(groups.items()):
        best_t, best_gain = max(hits, key=lambda tg: (tg[1], -tg[0]))
        group_rows.append(
            [
                str(wil),
                _size_name(SIZES[wil]),
                str(pie),
                _size_name(size),
                _ranges([t for t, _ in hits]),
                str(len(hits)),
                f"{100 * float(best_gain):+.2f} pp at T {best_t}",
            ]
        )
    damage_wins = 0
    damage_cells = 0
    for wil in range(1, 5):
        for pie in range(7):
            for agi in range(3):
                top_damage = odds.slate_joint(wil, pie, agi=agi).damage().mean()
                for size in SIZES[:wil]:
                    damage_cells += 1
                    damage_wins += odds.slate_joint(wil, pie, agi=agi, size=size).damage().mean() < top_damage
    shown = 6
    examples = ", ".join(f"Wil {w} Pie {p} T {t} (d{s})" for w, p, t, s in wins[:shown])
    if len(wins) > shown:
        examples += f" (the first {shown}; the table lists all {len(wins)}, grouped by Wil, Pie and die)"
    return [
        Answer(
            "BQ-23",
            "The removed 'smaller die' rule",
            f"A smaller die gives a higher P(success) in {len(wins)} of {cells} (Wil, Pie, T, smaller size) normal "
            f"checks{': ' + examples if wins else ''}; against slate it lowers expected damage in {damage_wins} of "
            f"{damage_cells} cases (fewer faces pair more often).",
            len(wins) / cells,
            "exact",
            unit="%",
            fraction=Fraction(len(wins), cells),
            tables=[
                Table(
                    ["Wil", "Wil die", "Pie", "smaller die", "targets T where it wins", "targets", "largest gain"],
                    group_rows,
                    f"Every case, grouped: per (Wil, Pie, smaller die) the targets T (1–30) at which the smaller "
                    f"die gives a higher P(success) than the Wil die under optimal ascension, and its largest gain "
                    f"in percentage points; {len(group_rows)} groups holding all {len(wins)} cases, none left out.",
                )
            ]
            if wins
            else [],
        )
    ]


def answers() -> list[Answer]:
    """Every exact answer, in question order."""
    out: list[Answer] = []
    for part in (bq1, bq2, bq3, bq4, bq5, bq6, bq7, bq8, bq9, bq10, bq11, bq15, bq16, bq17, bq20, bq23):
        out.extend(part())
    return out
