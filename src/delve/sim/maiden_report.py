"""The report of White Maiden simulations (``DIR/report.html``), from the rows of
:mod:`delve.sim.games.maiden`: the team's win rate (all games, by number of players and by bot
line-up) with 95% intervals, the round of Urza's defeat, which bosses fall and when, the danger
level by round, deaths and where the damage comes from, check success rates, and exploration
and growth per game.

White Maiden is cooperative: a game is won or lost by the whole table (MV-END-1/2), so the unit
of every rate here is a game, not a seat. The designer's balance questions (spec §8) need games
played cell by cell under controlled settings: ``delve lab report`` plays those and answers them.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from delve.sim.report import (
    Rate,
    Section,
    count_chart,
    histogram,
    horizontal_rate_chart,
    line_ups,
    rate_chart,
    write_html,
)

Row = Mapping[str, Any]

#: Per-game counts shown in the exploration and growth table: (column, what it counts).
PER_GAME = (
    ("rooms_explored", "rooms explored"),
    ("areas_freed", "areas freed"),
    ("arcana_gained", "Arcana gained"),
    ("arcana_used", "Arcana used"),
    ("quests_resolved", "quests drawn"),
    ("rest_visits", "rest rooms entered"),
    ("levelups", "stat level-ups"),
    ("skills_gained", "skills learned after setup"),
    ("skills_used", "skills used"),
    ("first_boss_turn", "team turn of the first boss fight"),
    ("first_rest_turn", "own turns before a maiden first rests"),
)

#: Damage columns: (column, where the damage came from).
DAMAGE = (
    ("failure_damage", "failed checks"),
    ("slate_damage", "slate dice"),
    ("danger_room_damage", "entering danger rooms"),
    ("effect_damage", "room, boss and area effects"),
)


def _j(value: Any) -> Any:
    """A JSON-valued column (a string in the CSV) as its value; empty for a missing cell."""
    if value is None or value == "":
        return None
    return json.loads(value) if isinstance(value, str) else value


def _num(value: Any) -> float | None:
    """A numeric cell, or None when the game left it empty (a boss never fought, say)."""
    if value is None or value == "":
        return None
    return float(value)


def _won(row: Row) -> bool:
    value = row.get("won", row.get("outcome") == "won")
    return value if isinstance(value, bool) else str(value).lower() in ("true", "1", "won")


def _played(rows: Sequence[Row]) -> list[Row]:
    return [r for r in rows if r.get("outcome") not in ("error",)]


def _values(rows: Sequence[Row], column: str) -> list[float]:
    return [v for v in (_num(r.get(column)) for r in rows) if v is not None]


def _stats(values: Sequence[float]) -> tuple[float, float, float, float] | None:
    if not values:
        return None
    return statistics.fmean(values), statistics.median(values), min(values), max(values)


def _rate_by(rows: Sequence[Row], key: Callable[[Row], Any]) -> list[Rate]:
    tally: dict[Any, list[int]] = {}
    for row in rows:
        entry = tally.setdefault(key(row), [0, 0])
        entry[0] += int(_won(row))
        entry[1] += 1
    return [Rate(str(k), w, n) for k, (w, n) in sorted(tally.items())]


def _bots_label(row: Row) -> str:
    """The bots a game was played by, whatever the number of seats ("heuristic" for a table of
    heuristic bots of any size; "+" joins different bots)."""
    return "+".join(sorted(set(str(row.get("bots") or "").split(","))))


def _players_label(row: Row) -> str:
    return f"{int(row.get('seats') or 0)}p"


def boss_names() -> dict[str, str]:
    """Boss id -> its English name with its Sephirah, in the content's order (weakest first)."""
    from delve.maiden import content

    data = content.load()
    bosses = sorted(data.bosses.values(), key=lambda b: (b.tier, b.id))
    return {b.id: f"{b.name.en} ({b.sephirah.en.split(',')[0]})" for b in bosses}


def summary(rows: Sequence[Row]) -> dict[str, Any]:
    """The numbers the terminal lines and the page share."""
    played = _played(rows)
    won = [r for r in played if _won(r)]
    urza = _values(won, "urza_round")
    return {
        "games": len(rows),
        "errors": len(rows) - len(played),
        "won": Rate("all games", len(won), len(played)),
        "by_players": _rate_by(played, _players_label),
        "by_bots": _rate_by(played, _bots_label),
        "urza_round": _stats(urza),
        "rounds_lost": _stats(_values([r for r in played if not _won(r)], "rounds")),
        "bosses": _stats(_values(played, "bosses_defeated")),
        "areas": _stats(_values(played, "areas_freed")),
        "deaths": _stats(_values(played, "deaths")),
        "danger": _stats(_values(played, "danger_level")),
    }


def _mean(stats: tuple[float, float, float, float] | None) -> str:
    return f"{stats[0]:.1f}" if stats else "–"


def lines(rows: Sequence[Row]) -> list[str]:
    """A few lines for the terminal."""
    s = summary(rows)
    out = [
        f"{s['games']} games ({s['errors']} failed): the table won {s['won'].wins} ({s['won'].text()}, 95% interval)"
    ]
    ends = []
    if s["urza_round"]:
        ends.append(f"Urza fell in round {s['urza_round'][0]:.1f} on average (median {s['urza_round'][1]:.0f})")
    if s["rounds_lost"]:
        ends.append(f"lost games ended in round {s['rounds_lost'][0]:.1f} on average")
    if ends:
        out.append("; ".join(ends))
    out.append(
        f"per game: bosses defeated {_mean(s['bosses'])}, areas freed {_mean(s['areas'])}, "
        f"deaths {_mean(s['deaths'])}, final danger level {_mean(s['danger'])}"
    )
    if any(r.get("by_boss") not in (None, "") for r in _played(rows)):
        out.append(deadliest(rows))
    if len(s["by_players"]) > 1:
        out.append("win rate by players: " + "; ".join(f"{r.label} {r.text()}" for r in s["by_players"]))
    if len(s["by_bots"]) > 1:
        out.append("win rate by line-up: " + "; ".join(f"{r.label} {r.text()}" for r in s["by_bots"]))
    return out


def boss_rates(rows: Sequence[Row]) -> list[tuple[Rate, float | None]]:
    """For each boss (weakest first): the games in which it was defeated, and the median round of
    its defeat (None when it never fell)."""
    played = _played(rows)
    rounds: dict[str, list[int]] = defaultdict(list)
    for row in played:
        for boss, round_ in (_j(row.get("boss_rounds")) or {}).items():
            rounds[str(boss)].append(int(round_))
    names = boss_names()
    known = list(names) + sorted(set(rounds) - set(names))
    return [
        (Rate(names.get(b, b), len(rounds[b]), len(played)), statistics.median(rounds[b]) if rounds[b] else None)
        for b in known
    ]


class BossFights:
    """One boss over many games (which boss kills most): the games in which it was fought and
    won, the deaths in its fight, the times its fight emptied with the boss alive (the last maiden
    in it died), the rounds from its first engagement to its defeat or the game's end, and its
    boss checks."""

    def __init__(self, boss: str, label: str) -> None:
        self.boss = boss
        self.label = label
        self.games = 0
        self.fought = 0
        self.won = 0
        self.joined = 0
        self.deaths = 0
        self.lost = 0
        self.rounds: list[int] = []
        self.checks = 0
        self.successes = 0

    @property
    def deaths_per_game(self) -> float:
        return self.deaths / self.games if self.games else 0.0


def boss_fights(rows: Sequence[Row]) -> list[BossFights]:
    """Every boss (weakest first) over the games played: fights, deaths, losses and rounds (the
    ``by_boss`` column; games without it count no fight)."""
    played = _played(rows)
    names = boss_names()
    table = {b: BossFights(b, label) for b, label in names.items()}
    for row in played:
        for boss, fight in (_j(row.get("by_boss")) or {}).items():
            cell = table.setdefault(str(boss), BossFights(str(boss), str(boss)))
            cell.fought += 1
            cell.won += int(fight.get("won", 0))
            cell.joined += int(fight.get("joined", 0))
            cell.deaths += int(fight.get("deaths", 0))
            cell.lost += int(fight.get("lost", 0))
            cell.checks += int(fight.get("checks", 0))
            cell.successes += int(fight.get("successes", 0))
            if fight.get("fight_rounds"):
                cell.rounds.append(int(fight["fight_rounds"]))
    for cell in table.values():
        cell.games = len(played)
    return list(table.values())


def boss_fight_rows(rows: Sequence[Row]) -> list[list[str]]:
    """The table of :func:`boss_fights`, with its header row (the last column: the boss checks
    against it that succeeded, of all made)."""
    out = [
        [
            "boss",
            "games fought",
            "fights won",
            "deaths in its fight (per game)",
            "share of boss-fight deaths",
            "fights lost (last maiden died)",
            "rounds fighting (mean)",
            "its checks succeeded",
        ]
    ]
    fights = boss_fights(rows)
    all_deaths = sum(f.deaths for f in fights)
    for f in fights:
        out.append(
            [
                f.label,
                str(f.fought),
                str(f.won),
                f"{f.deaths} ({f.deaths_per_game:.2f})",
                f"{100 * f.deaths / all_deaths:.0f}%" if all_deaths else "–",
                str(f.lost),
                f"{statistics.fmean(f.rounds):.1f}" if f.rounds else "–",
                f"{100 * f.successes / f.checks:.0f}% of {f.checks}" if f.checks else "–",
            ]
        )
    return out


def deadliest(rows: Sequence[Row]) -> str:
    """One sentence: the boss in whose fight most maidens die."""
    fights = [f for f in boss_fights(rows) if f.deaths]
    if not fights:
        return "No maiden died in a boss fight."
    total = sum(f.deaths for f in fights)
    top = max(fights, key=lambda f: f.deaths)
    return (
        f"The boss that kills most: {top.label}, {top.deaths} of the {total} deaths in boss fights "
        f"({100 * top.deaths / total:.0f}%, {top.deaths_per_game:.2f} a game); its fight emptied with it alive "
        f"{top.lost} times."
    )


def game_ends(rows: Sequence[Row]) -> list[list[str]]:
    """How games end (is the 24-round limit tight?): won games by the round of Urza's fall, and
    lost games (all at the end of round 24) by the bosses left and Urza's life left."""
    played = _played(rows)
    out = [["end", "games", "share"]]
    n = len(played) or 1
    won = Counter(int(_num(r.get("urza_round")) or _num(r.get("rounds")) or 0) for r in played if _won(r))
    for bands, label in (
        ((1, 16), "won by round 16"),
        ((17, 20), "won in rounds 17–20"),
        ((21, 22), "won in rounds 21–22"),
    ):
        k = sum(v for r, v in won.items() if bands[0] <= r <= bands[1])
        out.append([label, str(k), f"{100 * k / n:.1f}%"])
    for r in (23, 24):
        out.append([f"won in round {r}", str(won[r]), f"{100 * won[r] / n:.1f}%"])
    lost = [r for r in played if not _won(r)]
    life = Counter(int(_num(r.get("final_boss_life_left")) or 0) for r in lost if r.get("final_boss_life_left") != "")
    if life:
        for lo, hi, label in ((1, 2, "1–2"), (3, 5, "3–5"), (6, 99, "6 or more")):
            k = sum(v for x, v in life.items() if lo <= x <= hi)
            out.append([f"lost at round 24, Urza's life left {label}", str(k), f"{100 * k / n:.1f}%"])
    else:
        out.append(["lost at round 24", str(len(lost)), f"{100 * len(lost) / n:.1f}%"])
    left = Counter(int(_num(r.get("bosses_left")) or 0) for r in lost if r.get("bosses_left") not in (None, ""))
    for k in sorted(left):
        out.append(
            [
                f"lost at round 24 with {k} boss{'es' if k != 1 else ''} left (Urza among them)",
                str(left[k]),
                f"{100 * left[k] / n:.1f}%",
            ]
        )
    return out


def danger_by_round(rows: Sequence[Row]) -> list[tuple[int, int, float, int]]:
    """(round, games that reached it, mean danger level at its start, highest) for each round."""
    levels: dict[int, list[int]] = defaultdict(list)
    for row in _played(rows):
        for i, level in enumerate(_j(row.get("dl_by_round")) or []):
            levels[i + 1].append(int(level))
    return [(r, len(v), statistics.fmean(v), max(v)) for r, v in sorted(levels.items())]


def _table_stats(label: str, values: Sequence[float]) -> list[str]:
    stats = _stats(values)
    if stats is None:
        return [label, "0", "–", "–", "–", "–"]
    mean, median, low, high = stats
    return [label, str(len(values)), f"{mean:.2f}", f"{median:g}", f"{low:g}", f"{high:g}"]


def write(rows: Sequence[Row], directory: Path) -> Path:
    directory = Path(directory)
    charts = directory / "charts"
    played = _played(rows)
    s = summary(rows)
    presets = sorted({str(r.get("preset") or "") or "the rulebook's settings" for r in played})
    settings = sorted({str(r.get("settings") or "{}") for r in played} - {"{}"})
    seeds = [int(r["seed"]) for r in rows if r.get("seed") not in (None, "")]
    title = f"Simulation: White Maiden ({len(rows)} games)"
    intro = [
        f"Preset: {', '.join(presets) or '–'}"
        + (f"; settings: {', '.join(settings)}" if settings else "")
        + f". Bots: {line_ups(played) or 'none'}."
        + (f" Seeds {min(seeds)}..{max(seeds)}." if seeds else ""),
        "White Maiden is cooperative: the table wins or loses together (Urza defeated, or round 24 ends with "
        "him alive), so every rate below counts games, with its 95% Wilson interval.",
        *lines(rows),
        "The designer's balance questions (spec §8) are answered by `delve lab report --out DIR`, which "
        "plays its own games cell by cell (strategies, player counts, each variant against its baseline).",
    ]
    sections: list[Section] = []

    by_players = s["by_players"]
    sections.append(
        Section(
            "Outcome",
            table=[["players", "games", "won", "win rate [95% interval]"]]
            + [[r.label, str(r.games), str(r.wins), r.text()] for r in [*by_players, s["won"]]],
            images=[rate_chart(charts / "win_rate_by_players.png", by_players, title="Team win rate by players")],
        )
    )
    if len(s["by_bots"]) > 1:
        items = s["by_bots"]
        sections.append(
            Section(
                "Win rate by bot line-up",
                table=[["bots", "games", "won", "win rate [95% interval]"]]
                + [[r.label, str(r.games), str(r.wins), r.text()] for r in items],
                images=[rate_chart(charts / "win_rate_by_bots.png", items, title="Team win rate by bot line-up")],
            )
        )

    won = [r for r in played if _won(r)]
    urza = _values(won, "urza_round")
    sections.append(
        Section(
            "When games end",
            paragraphs=[
                "A won game ends the moment Urza falls; a lost one at the end of round 24, the limit of the rules "
                "(MV-END-2: the round track and the action markers stop there, so no other limit can be played). "
                "Whether 24 rounds is tight reads from the two ends of this table: the games won in the last "
                "rounds, and the games lost with Urza nearly dead (1–2 life left), which a round or two more "
                "would likely have won. The histogram shows the round of Urza's defeat in the won games."
            ],
            table=game_ends(rows),
            images=[histogram(charts / "urza_round.png", urza, title="Round of Urza's defeat", xlabel="round")]
            if urza
            else [],
        )
    )

    bosses = boss_rates(rows)
    sections.append(
        Section(
            "Bosses",
            paragraphs=["The share of games in which each boss was defeated, and the median round of its defeat."],
            table=[["boss", "defeated in [95% interval]", "median round"]]
            + [[r.label, r.text(), f"{m:g}" if m is not None else "–"] for r, m in bosses],
            images=[
                horizontal_rate_chart(
                    charts / "bosses_defeated.png",
                    [r for r, _ in bosses],
                    title="Games in which each boss was defeated",
                    xlabel="% of games",
                ),
                histogram(
                    charts / "bosses_per_game.png",
                    _values(played, "bosses_defeated"),
                    title="Bosses defeated per game",
                    xlabel="bosses",
                    bins=12,
                ),
            ],
        )
    )

    sections.append(
        Section(
            "Which boss kills most",
            paragraphs=[
                deadliest(rows),
                "Every boss over all games: in how many games it was fought and beaten, the deaths that threw a "
                "maiden out of its fight, the times its fight emptied with the boss alive (the last maiden in it "
                "died: a fight lost, to be taken up again), the rounds from its first engagement to its defeat "
                "(or to the game's end), and the share of the checks against it that succeeded.",
            ],
            table=boss_fight_rows(rows),
        )
    )

    danger = danger_by_round(rows)
    sections.append(
        Section(
            "Danger level",
            paragraphs=["The danger level at the start of each round, over the games that reached that round."],
            table=[["round", "games", "mean DL", "highest DL"]]
            + [[str(r), str(n), f"{m:.2f}", str(h)] for r, n, m, h in danger],
            images=[
                histogram(
                    charts / "danger_level.png",
                    _values(played, "danger_level"),
                    title="Danger level at the end of the game",
                    xlabel="danger level",
                    bins=12,
                )
            ],
        )
    )

    turns = sum(_num(r.get("turns")) or 0 for r in played)
    at_one = sum(_num(r.get("turns_at_life_1")) or 0 for r in played)
    sections.append(
        Section(
            "Life and death",
            paragraphs=[
                f"Turns begun at life 1: {100 * at_one / turns:.1f}% of all turns." if turns else "No turn played.",
                "Damage per game by where it came from (every maiden together):",
            ],
            table=[["per game", "games", "mean", "median", "min", "max"]]
            + [
                _table_stats("deaths", _values(played, "deaths")),
                _table_stats("deaths in a boss fight", _values(played, "deaths_in_boss_fight")),
            ]
            + [_table_stats(f"damage from {label}", _values(played, column)) for column, label in DAMAGE],
            images=[
                histogram(
                    charts / "deaths.png",
                    _values(played, "deaths"),
                    title="Deaths per game (every maiden)",
                    xlabel="deaths",
                    bins=15,
                )
            ],
        )
    )

    room = [0, 0]
    for row in played:
        for checks_, successes in (_j(row.get("room_checks_by_round")) or {}).values():
            room[0] += int(checks_)
            room[1] += int(successes)
    checks = [
        Rate("room checks", room[1], room[0]),
        Rate("boss checks", int(sum(_values(played, "boss_successes"))), int(sum(_values(played, "boss_checks")))),
        Rate(
            "every check (rooms and bosses)",
            int(sum(_values(played, "successes"))),
            int(sum(_values(played, "checks"))),
        ),
    ]
    sections.append(
        Section(
            "Checks",
            paragraphs=[
                "The share of checks that succeeded, over every check of every game. Room checks and boss "
                "checks are counted apart: boss actions have far higher targets (Urza's reach 21), so the line "
                "for every check sits well below the room checks alone. The balance lab's BQ-19 (room checks "
                "86–94% from round 4 to round 20) counts room checks only, in those rounds."
            ],
            table=[["checks", "succeeded [95% interval]"]] + [[r.label, r.text()] for r in checks],
        )
    )

    sections.append(
        Section(
            "Exploration and growth",
            table=[["per game", "games", "mean", "median", "min", "max"]]
            + [_table_stats(label, _values(played, column)) for column, label in PER_GAME],
            images=[
                count_chart(
                    charts / "rooms_entered.png",
                    _room_types(played),
                    title="Rooms entered by type (all games)",
                    xlabel="entries",
                )
            ],
        )
    )

    failed = [r for r in rows if r.get("outcome") == "error"]
    if failed:
        sections.append(
            Section(
                "Failed games",
                table=[["seed", "error"]] + [[str(r.get("seed")), str(r.get("error", ""))] for r in failed[:50]],
            )
        )
    return write_html(directory / "report.html", title, sections, intro=intro)


def _room_types(rows: Sequence[Row]) -> Counter[str]:
    total: Counter[str] = Counter()
    for row in rows:
        total.update({str(k): int(v) for k, v in (_j(row.get("rooms_entered_by_type")) or {}).items()})
    return total
