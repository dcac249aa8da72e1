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
    ends = Counter("won" if _won(r) else f"lost, round {int(_num(r.get('rounds')) or 0)}" for r in played)
    sections.append(
        Section(
            "When games end",
            paragraphs=[
                "A won game ends the moment Urza falls; a lost one at the end of the last round. The histogram "
                "shows the round of Urza's defeat in the won games."
            ],
            table=[["end", "games"]] + [[k, str(v)] for k, v in sorted(ends.items())],
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

    checks = [
        Rate("room and action checks", int(sum(_values(played, "successes"))), int(sum(_values(played, "checks")))),
        Rate("boss checks", int(sum(_values(played, "boss_successes"))), int(sum(_values(played, "boss_checks")))),
    ]
    sections.append(
        Section(
            "Checks",
            paragraphs=["The share of checks that succeeded, over every check of every game."],
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
