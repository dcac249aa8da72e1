"""The balance questions that need whole games: which games the lab plays (:func:`specs`) and
what their rows answer (:func:`answers`). Every game is a :class:`~delve.sim.spec.GameSpec`
played by :func:`delve.sim.runner.run` through :func:`delve.sim.games.maiden.play`.

Cells (the ``tag`` of each game; every cell plays seeds 1..N, so cells are compared on the same
seeds):

* ``strategy:<strategy>:<p>p``: every seat a heuristic bot with that growth strategy, default
  settings, for each strategy and 1–4 players;
* ``variant:<name>``: one §6.3 variant on (heuristic Will-first bots), players 1–4 by seed
  (seed s plays 1 + (s − 1) mod 4 players), and ``variant:baseline`` the same games with every
  variant off: each variant is compared with its own games played under the rulebook;
* ``bossbonus:<bonus>:<p>p``: a fixed ``boss_life_bonus`` at 2 and 4 players (BQ-14);
* ``rooms:<difficulty>:<reduction>:<p>p``: the special-room valves (CHG-13) at 1–4 players (BQ-13).
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from delve.bots.maiden import STRATEGIES
from delve.maiden import content as maiden_content
from delve.maiden.lab.answers import (
    Answer,
    Estimate,
    Plot,
    Series,
    Table,
    mean,
    paired_proportions,
    pct,
    proportion,
    ratio,
)
from delve.maiden.lab.exact import final_boss_name
from delve.sim.spec import GameSpec

Row = Mapping[str, Any]
PLAYERS = (1, 2, 3, 4)
BASE_BOT = "heuristic:will_first"

VARIANTS: dict[str, tuple[str | None, dict[str, Any]]] = {
    "life_max=4": (None, {"life_max": 4}),
    "life_max=8": (None, {"life_max": 8}),
    "boss_life_bonus=none": (None, {"boss_life_bonus": "none"}),
    "ascension_bonus=pie": (None, {"ascension_bonus": "pie"}),
    "slate_damage_per_die=danger_level": (None, {"slate_damage_per_die": "danger_level"}),
    "danger_room_entry_damage=danger_level": (None, {"danger_room_entry_damage": "danger_level"}),
    "quest_room_skips_check": (None, {"quest_room_skips_check": True}),
    "danger_room_skips_check": (None, {"danger_room_skips_check": True}),
    "difficulty=normal": (None, {"difficulty": "normal"}),
    "room_reduction_2p_4p": (None, {"room_reduction_2p_4p": True}),
    "entry_restrictions (normal)": ("white-maiden-normal", {}),
    "multi_die_checks": (None, {"multi_die_checks": True}),
    "pie_mode=boost": (None, {"pie_mode": "boost"}),
    "agi_skill_level_option": (None, {"agi_skill_level_option": True}),
    "familiar_evolution": (None, {"familiar_evolution": True}),
    "familiars_per_player=2": (None, {"familiars_per_player": 2}),
    "ins_applies_to_room_deck=off": (None, {"ins_applies_to_room_deck": False}),
    "boss_rooms_block_passage": (None, {"boss_rooms_block_passage": True}),
    "allow_smaller_die": (None, {"allow_smaller_die": True}),
    "slate_roll_restricted": (None, {"slate_roll_restricted": True}),
    "base_target=round_number": (None, {"base_target": "round_number"}),
}
"""Every variant toggle of spec §6.3 switched away from its default (``entry_restrictions`` needs
normal difficulty: it is played with the ``white-maiden-normal`` preset)."""

BOSS_BONUSES = (0, 1, 2, 3, 4)
ROOM_CONFIGS = (("easy", False), ("easy", True), ("normal", False), ("normal", True))


def final_boss_life() -> int:
    return maiden_content.load().final_boss.life


def _players_of(seed: int) -> int:
    return 1 + (seed - 1) % 4


Cell = tuple[str, str | None, dict[str, Any], int | None]
"""(tag, preset, settings, players: None for the variant cells, whose players follow the seed)."""


def cells() -> list[Cell]:
    """Every cell of the lab, in report order (each plays seeds 1..N)."""
    out: list[Cell] = [(f"strategy:{strategy}:{p}p", None, {}, p) for strategy in STRATEGIES for p in PLAYERS]
    out.append(("variant:baseline", None, {}, None))
    out += [(f"variant:{name}", preset, settings, None) for name, (preset, settings) in VARIANTS.items()]
    out += [(f"bossbonus:{bonus}:{p}p", None, {"boss_life_bonus": bonus}, p) for bonus in BOSS_BONUSES for p in (2, 4)]
    for difficulty, reduction in ROOM_CONFIGS:
        if (difficulty, reduction) == ("easy", False):
            continue  # the strategy:will_first cells
        settings = {"difficulty": difficulty, "room_reduction_2p_4p": reduction}
        out += [(f"rooms:{difficulty}:{'on' if reduction else 'off'}:{p}p", None, settings, p) for p in PLAYERS]
    return out


def count(games: int) -> int:
    """How many games :func:`iter_specs` yields for ``games`` seeds per cell (without making them)."""
    return len(cells()) * games


def _spec(cell: Cell, seed: int) -> GameSpec:
    tag, preset, settings, players = cell
    strategy = tag.split(":")[1] if tag.startswith("strategy:") else None
    bot = f"heuristic:{strategy}" if strategy else BASE_BOT
    seats = _players_of(seed) if players is None else players
    return GameSpec.of("maiden", seed, (bot,) * seats, preset=preset, settings=settings or None, tag=tag)


def iter_specs(games: int) -> Iterator[GameSpec]:
    """Every game of the lab, ``games`` seeds per cell, made one at a time (a run of a million
    seeds per cell does not build 64 million specs before its first game), seed by seed: every
    cell's game of seed 1, then of seed 2..., so the games played first are a fair sample of the
    whole run (its ETA is measured on them).

    :raises ValueError: when ``games`` is below 1.
    """
    if games < 1:
        raise ValueError(f"games: {games} is below 1")
    return _iter_specs(games)


def _iter_specs(games: int) -> Iterator[GameSpec]:
    every = cells()
    for seed in range(1, games + 1):
        for cell in every:
            yield _spec(cell, seed)


def specs(games: int) -> list[GameSpec]:
    """:func:`iter_specs` as a list.

    :raises ValueError: when ``games`` is below 1.
    """
    return list(iter_specs(games))


# --------------------------------------------------------------------------- reading rows


def _bool(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1")


def _f(value: Any) -> float:
    return 0.0 if value in (None, "") else float(value)


def _j(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) and value else value


class Cells:
    """The finished rows by tag (games that failed are counted apart)."""

    def __init__(self, rows: Sequence[Row]) -> None:
        self.by_tag: dict[str, list[Row]] = defaultdict(list)
        self.errors = 0
        for row in rows:
            if row.get("outcome") == "error":
                self.errors += 1
                continue
            self.by_tag[str(row["tag"])].append(row)

    def get(self, tag: str) -> list[Row]:
        return self.by_tag.get(tag, [])

    def strategy(self, strategy: str, players: int | None = None) -> list[Row]:
        if players is not None:
            return self.get(f"strategy:{strategy}:{players}p")
        return [r for p in PLAYERS for r in self.get(f"strategy:{strategy}:{p}p")]

    def will_first(self, players: int | None = None) -> list[Row]:
        return self.strategy("will_first", players)


def win_rate(rows: Sequence[Row]) -> Estimate:
    return proportion(sum(_bool(r["won"]) for r in rows), len(rows))


def paired_difference(on: Sequence[Row], off: Sequence[Row], column: str = "won") -> Estimate:
    """The change from ``off`` to ``on`` over the games both cells played with the same seed and
    player count (common random numbers: ``n`` counts those pairs), with its 95% interval.

    For ``won`` it is a difference of win rates, in [−1, 1]: Newcombe's hybrid score interval for
    paired proportions (:func:`~delve.maiden.lab.answers.paired_proportions`) over the 2×2 table of
    the pairs, which stays inside [−1, 1] and is never of zero width at small n or when every pair
    agrees. For another column it is the mean of the paired differences
    (:func:`~delve.maiden.lab.answers.mean`: no interval below ten pairs)."""

    def value(row: Row) -> float:
        return float(_bool(row[column])) if column == "won" else _f(row[column])

    base = {(int(r["seed"]), int(r["seats"])): value(r) for r in off}
    pairs = [(value(r), base[k]) for r in on if (k := (int(r["seed"]), int(r["seats"]))) in base]
    if column == "won":
        table = Counter(pairs)
        return paired_proportions(table[(1.0, 1.0)], table[(1.0, 0.0)], table[(0.0, 1.0)], table[(0.0, 0.0)])
    return mean([a - b for a, b in pairs])


def _series(label: str, xs: list[float], estimates: list[Estimate]) -> Series:
    """A sampled series; a point without an interval gets no error bar (NaN), not a zero one."""
    return Series(
        label,
        xs,
        [e.value for e in estimates],
        [math.nan if e.low is None else e.low for e in estimates],
        [math.nan if e.high is None else e.high for e in estimates],
    )


# --------------------------------------------------------------------------- answers


def bq2(cells: Cells) -> list[Answer]:
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for strategy in STRATEGIES:
        for row in cells.strategy(strategy):
            for size, (checks, with_pair, pairs) in _j(row["dice_by_size"]).items():
                cell = totals[int(size)]
                cell[0] += checks
                cell[1] += with_pair
                cell[2] += pairs
    rows = []
    est: dict[int, Estimate] = {}
    for size in sorted(totals):
        checks, with_pair, pairs = totals[size]
        est[size] = proportion(with_pair, checks)
        rows.append([f"d{size}", str(checks), est[size].text(percent=True), f"{pairs / checks:.2f}" if checks else "—"])
    head = est.get(8) or next(iter(est.values()), proportion(0, 0))
    return [
        Answer(
            "BQ-2",
            "Ascension in play (every strategy's games)",
            f"In play, {head.text(percent=True)} of d8 checks show a pair among their non-slate dice "
            f"(the pools grow with Pie, so more than the 3-dice 34%).",
            head.value,
            "simulated",
            unit="%",
            interval=head.interval,
            no_interval=head.missing,
            tables=[Table(["die", "checks", "checks showing a pair", "pairs ascended per check"], rows)],
        )
    ]


def bq7(cells: Cells) -> list[Answer]:
    rows = []
    overall: dict[str, Estimate] = {}
    for strategy in STRATEGIES:
        per = [win_rate(cells.strategy(strategy, p)) for p in PLAYERS]
        overall[strategy] = win_rate(cells.strategy(strategy))
        rows.append([strategy] + [e.text(percent=True) for e in per] + [overall[strategy].text(percent=True)])
    best = max(overall, key=lambda s: overall[s].value)
    plot = Plot(
        "bq07_strategies",
        "BQ-7: win rate by growth strategy (95% Wilson intervals)",
        "players",
        "win rate",
        [
            _series(s, [float(p) for p in PLAYERS], [win_rate(cells.strategy(s, p)) for p in PLAYERS])
            for s in STRATEGIES
        ],
    )
    return [
        Answer(
            "BQ-7",
            "Does Wil dominate growth? (full games)",
            f"Over 1–4 players the best growth strategy is {best} at {overall[best].text(percent=True)}; "
            f"Will-first wins {overall['will_first'].text(percent=True)}.",
            overall[best].value,
            "simulated",
            unit="%",
            interval=overall[best].interval,
            no_interval=overall[best].missing,
            tables=[Table(["strategy"] + [f"{p}p" for p in PLAYERS] + ["all"], rows)],
            plots=[plot],
        )
    ]


def bq12(cells: Cells) -> list[Answer]:
    reach: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for strategy in STRATEGIES:
        for row in cells.strategy(strategy):
            for agi, (moves, offered) in _j(row["reach_by_agi"]).items():
                reach[int(agi)][0] += moves
                reach[int(agi)][1] += offered
    reach_rows = [[str(a), str(m), f"{o / m:.2f}" if m else "—"] for a, (m, o) in sorted(reach.items())]
    rows = []
    for strategy in STRATEGIES:
        games = cells.strategy(strategy)
        slate = ratio([_f(r["slate_damage"]) for r in games], [_f(r["slate_checks"]) for r in games])
        skills = mean([_f(r["skills_gained"]) for r in games])
        first = mean([_f(r["first_rest_turn"]) for r in games if r.get("first_rest_turn") not in (None, "")])
        rows.append([strategy, win_rate(games).text(percent=True), slate.text(), skills.text(), first.text(digits=1)])
    per_move = {a: (o / m if m else 0.0) for a, (m, o) in reach.items()}
    low = per_move.get(0, 0.0)
    high_agi = max(per_move) if per_move else 0
    diff = paired_difference(cells.strategy("agility_first"), cells.will_first())
    return [
        Answer(
            "BQ-12",
            "Agility's value",
            f"A maiden is offered {low:.1f} destinations per move at Agi 0 and {per_move.get(high_agi, 0.0):.1f} "
            f"at Agi {high_agi}; Agility-first wins {win_rate(cells.strategy('agility_first')).text(percent=True)} "
            f"against Will-first's {win_rate(cells.will_first()).text(percent=True)} "
            f"({diff.text(pp=True)} on the same seeds).",
            diff.value,
            "simulated",
            unit="pp",
            interval=diff.interval,
            no_interval=diff.missing,
            tables=[
                Table(["Agi", "moves", "destinations offered per move"], reach_rows),
                Table(
                    [
                        "strategy",
                        "win rate",
                        "slate damage per slate check",
                        "skills gained per game",
                        "own turns to the first rest room",
                    ],
                    rows,
                ),
            ],
            notes=["Headline value: Agility-first's win rate minus Will-first's, paired by seed and player count."],
        )
    ]


def _room_counts(difficulty: str, reduction: bool, players: int) -> tuple[int, int, int]:
    rest = quest = danger = 0
    for room in maiden_content.load().rooms.values():
        kind = room.type
        if kind not in ("rest", "quest", "danger"):
            continue
        if kind == "rest" and difficulty == "normal" and not room.normal_active:
            continue
        if reduction and room.active_player_counts and players not in room.active_player_counts:
            continue
        rest += kind == "rest"
        quest += kind == "quest"
        danger += kind == "danger"
    return rest, quest, danger


def bq13(cells: Cells, target: float = 0.5) -> list[Answer]:
    rows = []
    options: dict[int, list[tuple[str, Estimate]]] = {}
    for difficulty, reduction in ROOM_CONFIGS:
        for p in PLAYERS:
            if (difficulty, reduction) == ("easy", False):
                games = cells.will_first(p)
            else:
                games = cells.get(f"rooms:{difficulty}:{'on' if reduction else 'off'}:{p}p")
            if not games:
                continue
            r, q, d = _room_counts(difficulty, reduction, p)
            wr = win_rate(games)
            label = f"{difficulty}, reduction {'on' if reduction else 'off'} (R{r} Q{q} D{d})"
            dl = mean([_f(row["danger_level"]) for row in games])
            rows.append(
                [
                    label,
                    str(p),
                    wr.text(percent=True),
                    mean([_f(x["deaths"]) for x in games]).text(),
                    ratio([_f(x["life_at_boss_sum"]) for x in games], [_f(x["life_at_boss_n"]) for x in games]).text(),
                    dl.text(),
                    mean([_f(x["quests_resolved"]) for x in games]).text(),
                ]
            )
            options.setdefault(p, []).append((label, wr))
    text = "; ".join(f"{p}p: {target_choice(choices, target)}" for p, choices in sorted(options.items()))
    headline = options.get(2) or next(iter(options.values()), [("", proportion(0, 0))])
    first = min((est for _, est in headline), key=lambda est: abs(est.value - target))
    return [
        Answer(
            "BQ-13",
            "Special-room counts (rest R, quest Q, danger D)",
            f"The room configuration for a {pct(target)} win rate: {text}.",
            first.value,
            "simulated",
            unit="%",
            interval=first.interval,
            no_interval=first.missing,
            tables=[
                Table(
                    [
                        "rooms",
                        "players",
                        "win rate",
                        "deaths per game",
                        "life at boss fights",
                        "final DL",
                        "quests resolved",
                    ],
                    rows,
                    "The shipped map's valves: normal difficulty turns 4 rest rooms normal, the 2p/4p "
                    "reduction removes the rooms marked for 1 and 3 players; D stays 4.",
                )
            ],
            notes=[
                "Headline value: the 2-player win rate of the configuration whose point estimate is nearest the target."
            ],
        )
    ]


def bq14(cells: Cells) -> list[Answer]:
    rows = []
    rates = {}
    for p in PLAYERS:
        games = cells.will_first(p)
        rates[p] = win_rate(games)
        wins = [_f(r["urza_round"]) for r in games if r.get("urza_round") not in (None, "")]
        rows.append(
            [
                f"{p}p",
                rates[p].text(percent=True),
                mean([_f(r["bosses_defeated"]) for r in games]).text(),
                mean(wins).text(digits=1),
            ]
        )
    target = (rates[1].value + rates[3].value) / 2
    bonus_rows = []
    parts = []
    for p in (2, 4):
        options: list[tuple[str, Estimate]] = [("⌈L/3⌉ (default)", rates[p])]
        options += [(str(b), win_rate(cells.get(f"bossbonus:{b}:{p}p"))) for b in BOSS_BONUSES]
        options = [(label, est) for label, est in options if est.n > 0]
        if not options:
            continue
        for label, est in options:
            bonus_rows.append([f"{p}p", f"+{label}", est.text(percent=True), "yes" if _contains(est, target) else "no"])
        parts.append(f"{p}p: " + bonus_choice(options, target))
    text = "; ".join(parts)
    plot = Plot(
        "bq14_players",
        "BQ-14: win rate by player count (Will-first bots)",
        "players",
        "win rate",
        [_series("default boss life", [float(p) for p in PLAYERS], [rates[p] for p in PLAYERS])],
        kind="bar",
    )
    return [
        Answer(
            "BQ-14",
            "Player-count equivalence",
            f"Win rates 1p–4p: {', '.join(rates[p].text(percent=True) for p in PLAYERS)}. The boss-life bonus for "
            f"2p and 4p against the 1p/3p mean ({pct(target)}): {text}.",
            target,
            "simulated",
            unit="%",
            tables=[
                Table(
                    [
                        "players",
                        "win rate",
                        "bosses defeated",
                        f"round in which {final_boss_name()}, falls (won games)",
                    ],
                    rows,
                ),
                Table(
                    ["players", "boss_life_bonus", "win rate", "95% interval contains the 1p/3p mean"],
                    bonus_rows,
                    "Options whose intervals all contain the 1p/3p mean cannot be separated at this number of "
                    "games: the nearest point estimate among them is not 'the best'.",
                ),
            ],
            plots=[plot],
            notes=["Headline value: the 1p/3p mean win rate the 2p/4p bonus aims at."],
        )
    ]


def _contains(est: Estimate, value: float) -> bool:
    return est.low is not None and est.high is not None and est.low <= value <= est.high


def bonus_choice(options: Sequence[tuple[str, Estimate]], target: float) -> str:
    """BQ-14 in words for one player count: the boss-life bonus options (label, win rate) against
    the ``target`` win rate, each label said as a bonus ("+2")."""
    return target_choice([(f"+{label}", est) for label, est in options], target)


def target_choice(options: Sequence[tuple[str, Estimate]], target: float) -> str:
    """Which of ``options`` (label, win rate) gives the ``target`` win rate, in words (BQ-13, BQ-14).
    Several options whose 95% intervals contain the target cannot be told apart at this number of
    games, and the answer says so instead of naming the nearest one best."""
    nearest_label, nearest = min(options, key=lambda o: abs(o[1].value - target))
    consistent = [label for label, est in options if _contains(est, target)]
    if len(consistent) > 1:
        if len(consistent) == len(options):
            which = f"all {len(options)} options"
        else:
            sep = " / " if any("," in label for label in consistent) else ", "
            which = f"{len(consistent)} options ({sep.join(consistent)})"
        return (
            f"not resolved: the 95% intervals of {which} contain it, so these games cannot separate them; "
            f"nearest point estimate {nearest_label} ({nearest.text(percent=True)})"
        )
    if len(consistent) == 1:
        (label,) = consistent
        est = dict(options)[label]
        return f"{label} ({est.text(percent=True)}), the only option whose 95% interval contains it"
    return (
        f"no option's 95% interval contains it; nearest point estimate {nearest_label} ({nearest.text(percent=True)})"
    )


def variant_effect(cells: Cells, name: str) -> tuple[Estimate, Estimate]:
    """(win rate with the variant, paired difference on − off) over the same seeds."""
    on = cells.get(f"variant:{name}")
    return win_rate(on), paired_difference(on, cells.get("variant:baseline"))


def bq15(cells: Cells) -> list[Answer]:
    games = [r for s in STRATEGIES for r in cells.strategy(s)]
    met = ratio([_f(r["skill_uses_met"]) for r in games], [_f(r["skills_used"]) for r in games], share=True)
    exhausted = ratio([_f(r["skills_exhausted"]) for r in games], [_f(r["skills_used"]) for r in games], share=True)
    rate, diff = variant_effect(cells, "familiars_per_player=2")
    return [
        Answer(
            "BQ-15",
            "Skill weight in play",
            f"Skills used in play had their condition met {met.text(percent=True)} of the time and were exhausted "
            f"after {exhausted.text(percent=True)} of uses; two familiars (two initial skills) instead of one change "
            f"the win rate by {diff.text(pp=True)}.",
            diff.value,
            "simulated",
            unit="pp",
            interval=diff.interval,
            no_interval=diff.missing,
            tables=[
                Table(
                    ["measure", "value"],
                    [
                        ["uses per game", mean([_f(r["skills_used"]) for r in games]).text()],
                        ["skills gained per game", mean([_f(r["skills_gained"]) for r in games]).text()],
                        ["condition met per use", met.text(percent=True)],
                        ["exhausted per use", exhausted.text(percent=True)],
                        ["win rate with 2 familiars per player", rate.text(percent=True)],
                    ],
                )
            ],
        )
    ]


def bq16(cells: Cells) -> list[Answer]:
    on = cells.get("variant:entry_restrictions (normal)")
    off = cells.get("variant:difficulty=normal")
    restricted = sorted(r.id for r in maiden_content.load().rooms.values() if r.entry_requirement)
    entered: Counter[str] = Counter()
    for row in on:
        entered.update(_j(row["restricted_entered"]))
    rows = [[room, proportion(entered[room], len(on)).text(percent=True)] for room in restricted]
    areas_on = mean([_f(r["areas_freed"]) for r in on])
    areas_off = mean([_f(r["areas_freed"]) for r in off])
    diff = paired_difference(on, off, "areas_freed")
    share = proportion(sum(entered.values()), len(on) * max(1, len(restricted)))
    return [
        Answer(
            "BQ-16",
            "Entry restrictions in play",
            f"With entry restrictions each restricted room is entered in {share.text(percent=True)} of games on "
            f"average; areas freed {areas_on.text()} against {areas_off.text()} without them (paired difference "
            f"{diff.text(signed=True)}).",
            share.value,
            "simulated",
            unit="%",
            interval=share.interval,
            no_interval=share.missing,
            tables=[
                Table(
                    ["restricted room", "share of games it is entered"],
                    rows,
                    "white-maiden-normal preset (normal difficulty + restrictions) against normal difficulty "
                    "alone, same seeds.",
                )
            ],
        )
    ]


def bq17(cells: Cells) -> list[Answer]:
    games = cells.will_first()
    size = len([c for c in maiden_content.load().room_cards.values() for _ in range(c.copies)])
    drawn = mean([_f(_j(r["cards_drawn"]).get("room", 0)) for r in games])
    actions = mean([_f(_j(r["cards_drawn"]).get("action", 0)) for r in games])
    rate, diff = variant_effect(cells, "ins_applies_to_room_deck=off")
    return [
        Answer(
            "BQ-17",
            "Ins on room draws in play, and deck cycling",
            f"A game draws {drawn.value:.1f} room cards ({drawn.value / size:.2f} passes through the {size}-card "
            f"deck) and {actions.value:.1f} action cards; turning Ins off for room draws changes the win rate by "
            f"{diff.text(pp=True)}.",
            diff.value,
            "simulated",
            unit="pp",
            interval=diff.interval,
            no_interval=diff.missing,
            tables=[
                Table(
                    ["measure", "value"],
                    [
                        ["room cards drawn per game", drawn.text()],
                        ["action cards drawn per game", actions.text()],
                        ["win rate without Ins on room draws", rate.text(percent=True)],
                    ],
                )
            ],
        )
    ]


def bq18(cells: Cells) -> list[Answer]:
    rows = []
    headline: Estimate | None = None
    for p in (*PLAYERS, None):
        games = cells.will_first(p)
        if not games:
            continue
        per_maiden = mean([_f(r["deaths"]) / int(r["seats"]) for r in games])
        tempo = ratio([_f(r["turns_at_life_1_after_death"]) for r in games], [_f(r["deaths"]) for r in games])
        in_boss = ratio([_f(r["deaths_in_boss_fight"]) for r in games], [_f(r["deaths"]) for r in games], share=True)
        dead = [r for r in games if _f(r["deaths"]) > statistics.median(_f(x["deaths"]) for x in games)]
        alive = [r for r in games if r not in dead]
        rows.append(
            [
                "all" if p is None else f"{p}p",
                per_maiden.text(),
                tempo.text(),
                in_boss.text(percent=True),
                win_rate(alive).text(percent=True),
                win_rate(dead).text(percent=True),
            ]
        )
        if p is None:
            headline = per_maiden
            tempo_all, boss_all = tempo, in_boss
    assert headline is not None
    return [
        Answer(
            "BQ-18",
            "Death rate and cost",
            f"A maiden dies {headline.text()} times per game; each death costs {tempo_all.value:.1f} turns at life 1 "
            f"and {pct(boss_all.value)} of deaths throw her out of a boss fight.",
            headline.value,
            "simulated",
            interval=headline.interval,
            no_interval=headline.missing,
            tables=[
                Table(
                    [
                        "players",
                        "deaths per maiden per game",
                        "turns at life 1 per death",
                        "deaths that leave a boss fight",
                        "win rate, deaths ≤ median",
                        "win rate, deaths > median",
                    ],
                    rows,
                    "Will-first bots, default settings.",
                )
            ],
        )
    ]


def bq19(cells: Cells) -> list[Answer]:
    games = [r for s in STRATEGIES for r in cells.strategy(s)]
    by_round: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for row in games:
        for rnd, (checks, wins) in _j(row["room_checks_by_round"]).items():
            by_round[int(rnd)][0] += checks
            by_round[int(rnd)][1] += wins
    ests = {r: proportion(w, c) for r, (c, w) in sorted(by_round.items())}
    urza = win_rate(games)
    plot = Plot(
        "bq19_success",
        "BQ-19: P(room check succeeds) by round, every strategy",
        "round",
        "P(success)",
        [_series("room checks", [float(r) for r in ests], list(ests.values()))],
    )
    late = ests.get(20) or proportion(0, 0)
    return [
        Answer(
            "BQ-19",
            "Target curve against the power curve",
            f"Room checks succeed {ests.get(4, proportion(0, 0)).text(percent=True)} in round 4 and "
            f"{late.text(percent=True)} in round 20; {final_boss_name()}, falls by round 24 in "
            f"{urza.text(percent=True)} of games (every strategy, 1–4 players).",
            urza.value,
            "simulated",
            unit="%",
            interval=urza.interval,
            no_interval=urza.missing,
            tables=[
                Table(
                    ["round", "room checks", "P(success)"],
                    [[str(r), str(by_round[r][0]), e.text(percent=True)] for r, e in ests.items()],
                )
            ],
            plots=[plot],
        )
    ]


def bq21(cells: Cells) -> list[Answer]:
    games = cells.will_first()
    dl: dict[int, list[float]] = defaultdict(list)
    dmg: dict[int, list[float]] = defaultdict(list)
    turns: dict[int, list[float]] = defaultdict(list)
    for row in games:
        for i, level in enumerate(_j(row["dl_by_round"])):
            dl[i + 1].append(float(level))
        failure = _j(row["failure_damage_by_round"])
        for rnd, n in _j(row["turns_by_round"]).items():
            turns[int(rnd)].append(float(n))
            dmg[int(rnd)].append(float(failure.get(rnd, 0)))
    dl_est = {r: mean(v) for r, v in sorted(dl.items())}
    dmg_est = {r: ratio(dmg[r], turns[r]) for r in sorted(turns)}
    rows = [[str(r), dl_est[r].text(), dmg_est[r].text() if r in dmg_est else "—"] for r in dl_est]
    r12 = dl_est.get(12) or mean([])
    r24 = dl_est.get(24) or mean([])
    return [
        Answer(
            "BQ-21",
            "Danger-level trajectory",
            f"Mean DL at the start of round 12: {r12.text()}; of round 24 (games still running): {r24.text()}.",
            r12.value,
            "simulated",
            interval=r12.interval,
            no_interval=r12.missing,
            tables=[
                Table(
                    ["round", "DL at round start", "failure damage per turn"],
                    rows,
                    "Will-first bots, 1–4 players; a won game stops counting after its last round.",
                )
            ],
            plots=[
                Plot(
                    "bq21_dl",
                    "BQ-21: danger level by round (Will-first, 1–4 players)",
                    "round",
                    "DL",
                    [_series("mean DL", [float(r) for r in dl_est], list(dl_est.values()))],
                )
            ],
        )
    ]


def bq22(cells: Cells) -> list[Answer]:
    rows = []
    for p in PLAYERS:
        games = cells.will_first(p)
        turns = 24 * (3 if p == 1 else 4 if p in (2, 4) else 3)
        rows.append(
            [
                f"{p}p ({turns} turns)",
                mean([_f(r["rooms_explored"]) for r in games]).text(),
                mean([_f(r["areas_freed"]) for r in games]).text(),
                mean([_f(r["arcana_gained"]) for r in games]).text(),
            ]
        )
    one = mean([_f(r["areas_freed"]) for r in cells.will_first(1)])
    return [
        Answer(
            "BQ-22",
            "Map budget",
            f"A solo game (72 turns) frees {one.text()} of the 22 areas.",
            one.value,
            "simulated",
            interval=one.interval,
            no_interval=one.missing,
            tables=[
                Table(
                    ["players", "rooms explored", "areas freed", "Arcana gained"],
                    rows,
                    "Will-first bots; a won game ends early, so its budget is not all spent.",
                )
            ],
        )
    ]


def variants(cells: Cells) -> list[Answer]:
    base = cells.get("variant:baseline")
    rows = [
        [
            "baseline (rulebook)",
            win_rate(base).text(percent=True),
            "—",
            mean([_f(r["deaths"]) for r in base]).text(),
            mean([_f(r["rounds"]) for r in base]).text(digits=1),
        ]
    ]
    biggest: tuple[str, Estimate] | None = None
    for name in VARIANTS:
        on = cells.get(f"variant:{name}")
        if not on:
            continue
        rate, diff = variant_effect(cells, name)
        rows.append(
            [
                name,
                rate.text(percent=True),
                diff.text(pp=True),
                mean([_f(r["deaths"]) for r in on]).text(),
                mean([_f(r["rounds"]) for r in on]).text(digits=1),
            ]
        )
        if biggest is None or abs(diff.value) > abs(biggest[1].value):
            biggest = (name, diff)
    name, diff = biggest if biggest is not None else ("", mean([]))
    return [
        Answer(
            "§6.3",
            "Every variant on against the rulebook",
            f"The variant that moves the win rate most is {name}: {diff.text(pp=True)} (paired over the same seeds).",
            diff.value,
            "simulated",
            unit="pp",
            interval=diff.interval,
            no_interval=diff.missing,
            tables=[
                Table(
                    ["variant", "win rate", "change against the rulebook (paired)", "deaths per game", "rounds"],
                    rows,
                    "Will-first bots; seed s plays 1 + (s − 1) mod 4 players.",
                )
            ],
        )
    ]


VARIANT_FOR: dict[str, str] = {
    "BQ-5": "multi_die_checks",
    "BQ-6": "pie_mode=boost",
    "BQ-8": "slate_roll_restricted",
    "BQ-9": "slate_damage_per_die=danger_level",
    "BQ-10": "ascension_bonus=pie",
    "BQ-23": "allow_smaller_die",
}
"""The dice questions whose variant also has a full-game answer."""


def boss_deaths(cells: Cells) -> list[Answer]:
    """Which boss kills most: deaths, fights won and lost, and rounds, boss by boss, over the
    games of every strategy at 1–4 players (default settings)."""
    from delve.sim import maiden_report

    games = [r for s in STRATEGIES for r in cells.strategy(s)]
    if not games or not any(r.get("by_boss") not in (None, "") for r in games):
        return []
    fights = [f for f in maiden_report.boss_fights(games) if f.deaths]
    if not fights:
        return []
    top = max(fights, key=lambda f: f.deaths)
    total = sum(f.deaths for f in fights)
    per_game = mean([float((_j(r.get("by_boss")) or {}).get(top.boss, {}).get("deaths", 0)) for r in games])
    share = proportion(top.deaths, total)
    others = sorted((f for f in fights if f is not top), key=lambda f: -f.deaths)[:2]
    return [
        Answer(
            "BQ-18",
            "Which boss kills most",
            f"{top.label} kills most: {per_game.text()} deaths per game in its fight, {pct(top.deaths / total)} "
            f"of all deaths in boss fights; next "
            + " and ".join(f"{f.label} ({f.deaths_per_game:.2f} a game)" for f in others)
            + ".",
            per_game.value,
            "simulated",
            interval=per_game.interval,
            no_interval=per_game.missing,
            tables=[
                Table(
                    (rows := maiden_report.boss_fight_rows(games))[0],
                    rows[1:],
                    f"Every strategy at 1–4 players, default settings ({len(games)} games). A fight is lost when "
                    "its last maiden dies with the boss alive, once however many die in that command (the boss "
                    "keeps its damage and can be fought again); rounds fighting run from the first engagement to "
                    "the defeat or the game's end; its checks succeeded: the boss checks made against it in play "
                    "that succeeded, of all made (their exact odds are BQ-20's). "
                    f"Share of deaths of the deadliest boss: {share.text(percent=True)}.",
                )
            ],
        )
    ]


def round_limit(cells: Cells) -> list[Answer]:
    """Is the 24-round limit too tight? The rules fix it (MV-END-2, and the action markers are
    defined for rounds 1–24 only, MV-ROUND-7), so no other limit is played: the answer is how games
    end against it."""
    from delve.sim import maiden_report

    games = [r for s in STRATEGIES for r in cells.strategy(s)]
    if not games or not any(r.get("final_boss_life_left") not in (None, "") for r in games):
        return []
    late = proportion(sum(_bool(r["won"]) and _f(r.get("urza_round")) >= 23 for r in games), len(games))
    near = proportion(
        sum(not _bool(r["won"]) and 1 <= _f(r.get("final_boss_life_left")) <= 2 for r in games), len(games)
    )
    lost = proportion(sum(not _bool(r["won"]) for r in games), len(games))
    rows = maiden_report.game_ends(games)
    return [
        Answer(
            "BQ-19",
            "Is the 24-round limit too tight?",
            f"{late.text(percent=True)} of games are won in rounds 23–24, and {near.text(percent=True)} are lost "
            f"at the end of round 24 with {final_boss_name()} at 1–2 life: the games a round or two more would "
            f"most likely turn into wins (of the {pct(lost.value)} lost).",
            near.value,
            "simulated",
            unit="%",
            interval=near.interval,
            no_interval=near.missing,
            tables=[
                Table(
                    rows[0],
                    rows[1:],
                    f"Every strategy at 1–4 players, default settings ({len(games)} games). The limit is a rule, "
                    "not a setting (MV-END-2; the action markers are defined for rounds 1–24 only, MV-ROUND-7), "
                    "so the lab plays no other limit: it shows how close the games come to it instead.",
                )
            ],
        )
    ]


def variant_answers(cells: Cells) -> list[Answer]:
    out = []
    for bq, name in VARIANT_FOR.items():
        if not cells.get(f"variant:{name}"):
            continue
        rate, diff = variant_effect(cells, name)
        out.append(
            Answer(
                bq,
                f"{name} in full games",
                f"With {name} the bots win {rate.text(percent=True)}: {diff.text(pp=True)} against the rulebook "
                "on the same seeds.",
                diff.value,
                "simulated",
                unit="pp",
                interval=diff.interval,
                no_interval=diff.missing,
            )
        )
    return out


def answers(rows: Sequence[Row]) -> list[Answer]:
    """Every simulated answer from the rows of :func:`specs`'s games."""
    cells = Cells(rows)
    out: list[Answer] = []
    parts = (bq2, bq7, bq12, bq13, bq14, bq15, bq16, bq17, bq18, boss_deaths, bq19, round_limit, bq21, bq22)
    for part in (*parts, variants, variant_answers):
        out.extend(part(cells))
    return out
