"""The report of Fated Labyrinth / Level D simulations (``DIR/report.html``): win rates by class,
seat and bot with 95% intervals, game length in turns and real days, victory kinds, causes of
death and card usage, from the rows of :mod:`delve.sim.games.fated`."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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

#: A card needs this many uses before its winners' share is shown.
MIN_CARD_USES = 60


@dataclass
class Seat:
    """One seat of one game."""

    seat: int
    cls: str
    bot: str
    won: bool
    cause: str
    cards: dict[str, int]


def seats_of(rows: Sequence[Mapping[str, Any]]) -> list[Seat]:
    out = []
    for row in rows:
        for p in json.loads(str(row["players"])):
            out.append(
                Seat(int(p["seat"]), str(p["class"]), str(p["bot"]), bool(p["won"]), str(p["cause"]), p["cards"])
            )
    return out


def _rates(seats: Sequence[Seat], key: Any) -> list[Rate]:
    tally: dict[Any, list[int]] = {}
    for s in seats:
        entry = tally.setdefault(key(s), [0, 0])
        entry[0] += int(s.won)
        entry[1] += 1
    return [Rate(str(k), w, n) for k, (w, n) in sorted(tally.items())]


def card_shares(seats: Sequence[Seat], minimum: int = MIN_CARD_USES) -> tuple[list[Rate], float]:
    """For each card used at least ``minimum`` times: the share of its uses made by the game's
    winner (a card that decides games is used by winners more than their share of all card uses),
    best first; and that overall share."""
    uses: Counter[str] = Counter()
    by_winners: Counter[str] = Counter()
    for s in seats:
        uses.update(s.cards)
        if s.won:
            by_winners.update(s.cards)
    total = sum(uses.values())
    baseline = sum(by_winners.values()) / total if total else 0.0
    shares = [Rate(card, by_winners[card], n) for card, n in uses.items() if n >= minimum]
    shares.sort(key=lambda r: (-r.value, r.label))
    return shares, baseline


def cause_group(cause: str) -> str:
    """``monster:ghost`` -> ``monster``; ``poison`` stays."""
    return cause.split(":", 1)[0]


def class_label(class_id: str, presets: Sequence[str]) -> str:
    """A class as the players of a preset know it: ``cat (Ninja)`` in Level D, ``cat`` where the
    preset keeps the class's own name."""
    from delve.fated import content

    data = content.load()
    names = {data.class_name(class_id, p, "en") for p in presets if p in data.presets and class_id in data.classes}
    shown = [n for n in sorted(names) if n.lower() != class_id]
    return f"{class_id} ({', '.join(shown)})" if shown else class_id


def summary(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The numbers of the report, for the command line and the docs."""
    played = [r for r in rows if r.get("outcome") not in ("error",)]
    presets = sorted({str(r["preset"]) for r in played})
    finished = [r for r in played if r.get("outcome") != "unfinished"]
    seats = seats_of(played)
    days = [float(r["days"]) for r in finished]
    turns = [float(r["turns"]) for r in finished]
    return {
        "games": len(rows),
        "errors": len(rows) - len(played),
        "unfinished": len(played) - len(finished),
        "outcomes": dict(Counter(str(r["outcome"]) for r in played).most_common()),
        "turns_mean": statistics.fmean(turns) if turns else 0.0,
        "turns_median": statistics.median(turns) if turns else 0.0,
        "days_mean": statistics.fmean(days) if days else 0.0,
        "days_median": statistics.median(days) if days else 0.0,
        "days_p90": statistics.quantiles(days, n=10)[-1] if len(days) >= 2 else (days[0] if days else 0.0),
        "commands_mean": statistics.fmean(float(r["commands"]) for r in played) if played else 0.0,
        "by_class": _rates(seats, lambda s: class_label(s.cls, presets)),
        "by_seat": _rates(seats, lambda s: s.seat + 1),
        "by_bot": _rates(seats, lambda s: s.bot),
    }


def lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """A few lines for the terminal."""
    s = summary(rows)
    out = [
        f"{s['games']} games ({s['errors']} failed, {s['unfinished']} unfinished); outcomes: "
        + ", ".join(f"{k} {v}" for k, v in s["outcomes"].items()),
        f"length: {s['turns_mean']:.1f} turns on average (median {s['turns_median']:.0f}), "
        f"{s['days_mean']:.1f} days (median {s['days_median']:.1f}, 90% within {s['days_p90']:.1f})",
    ]
    if len(s["by_bot"]) > 1:
        out.append("win rate by bot (per seat): " + "; ".join(f"{r.label} {r.text()}" for r in s["by_bot"]))
    return out


def write(rows: Sequence[Mapping[str, Any]], directory: Path) -> Path:
    directory = Path(directory)
    charts = directory / "charts"
    played = [r for r in rows if r.get("outcome") not in ("error",)]
    finished = [r for r in played if r.get("outcome") != "unfinished"]
    s = summary(rows)
    seats = seats_of(played)
    n_seats = max((int(r["seats"]) for r in played), default=1)
    fair = 1 / n_seats
    presets = sorted({str(r["preset"]) for r in played})
    wait = sorted({int(r["wait_time"]) for r in played})
    title = f"Simulation: {', '.join(presets) or 'fated'} ({len(rows)} games)"
    intro = [
        f"Bots: {line_ups(played)}. Seeds {min((int(r['seed']) for r in rows), default=0)}"
        f"..{max((int(r['seed']) for r in rows), default=0)}. Turn time (wait_time): "
        f"{', '.join(f'{w / 3600:g} h' for w in wait)}; the players act as soon as they can, so real days are "
        "the shortest a game can take at that turn time.",
        *lines(rows),
    ]
    sections = []

    outcomes = Counter(str(r["outcome"]) for r in played)
    sections.append(
        Section(
            "Victory kinds",
            paragraphs=[
                "escape-A: escaped with a treasure, two diagonal corners and a kill (FL-WIN-1); escape-B: "
                "a treasure and all four corners (FL-WIN-2); survivor: the last one alive (FL-WIN-6); none: "
                "nobody left; unfinished: still running at the command limit."
            ],
            table=[["victory", "games", "share"]]
            + [[k, str(v), f"{100 * v / max(1, len(played)):.1f}%"] for k, v in outcomes.most_common()],
            images=[count_chart(charts / "victory_kinds.png", outcomes, title="Victory kinds", xlabel="games")],
        )
    )
    for name, label, key in (("by_class", "class", "win_rate_by_class"), ("by_seat", "seat", "win_rate_by_seat")):
        items: list[Rate] = s[name]
        sections.append(
            Section(
                f"Win rate by {label}",
                paragraphs=[
                    f"Per seat played, with 95% Wilson intervals; the dashed line is a fair share (1/{n_seats})."
                ],
                table=[[label, "seats", "wins", "win rate [95% interval]"]]
                + [[r.label, str(r.games), str(r.wins), r.text()] for r in items],
                images=[rate_chart(charts / f"{key}.png", items, title=f"Win rate by {label}", reference=fair)],
            )
        )
    if len(s["by_bot"]) > 1:
        items = s["by_bot"]
        sections.append(
            Section(
                "Win rate by bot",
                table=[["bot", "seats", "wins", "win rate [95% interval]"]]
                + [[r.label, str(r.games), str(r.wins), r.text()] for r in items],
                images=[rate_chart(charts / "win_rate_by_bot.png", items, title="Win rate by bot", reference=fair)],
            )
        )
    sections.append(
        Section(
            "Game length",
            paragraphs=[
                f"Finished games: {s['turns_mean']:.1f} turns on average (median {s['turns_median']:.0f}); "
                f"{s['days_mean']:.1f} real days (median {s['days_median']:.1f}; 90% of games within "
                f"{s['days_p90']:.1f} days)."
            ],
            images=[
                histogram(
                    charts / "length_days.png",
                    [float(r["days"]) for r in finished],
                    title="Game length in real days",
                    xlabel="days",
                ),
                histogram(
                    charts / "length_turns.png",
                    [float(r["turns"]) for r in finished],
                    title="Game length in turns (most turns of a player)",
                    xlabel="turns",
                ),
            ],
        )
    )
    causes = Counter(s_.cause for s_ in seats if s_.cause)
    groups = Counter(cause_group(c) for c in causes.elements())
    sections.append(
        Section(
            "Causes of death",
            paragraphs=[
                "trap:<card> a trap; card:<card> an attack card; monster:<kind> a monster; attack a player's "
                "normal attack; poison; abandoned. The last blow counts."
            ],
            table=[["cause", "deaths", "share"]]
            + [[k, str(v), f"{100 * v / max(1, groups.total()):.1f}%"] for k, v in groups.most_common()],
            images=[count_chart(charts / "causes_of_death.png", causes, title="Causes of death", xlabel="deaths")],
        )
    )
    uses: Counter[str] = Counter()
    for s_ in seats:
        uses.update(s_.cards)
    shares, baseline = card_shares(seats)
    shown = shares[:15] + [r for r in shares[-5:] if r not in shares[:15]]
    sections.append(
        Section(
            "Card usage",
            paragraphs=[
                f"Cards played or used in defense: {uses.total()} uses, {len(uses)} kinds. Which cards decide "
                f"games: the share of a card's uses made by the game's eventual winner, against the winners' "
                f"share of all card uses ({100 * baseline:.1f}%, dashed); cards with at least {MIN_CARD_USES} uses, "
                "the 15 highest and the 5 lowest."
            ],
            images=[
                count_chart(charts / "card_usage.png", uses, title="Card usage (top 30)", xlabel="uses", top=30),
                horizontal_rate_chart(
                    charts / "cards_of_winners.png",
                    shown,
                    title="Share of a card's uses made by the winner",
                    xlabel="% of the card's uses",
                    reference=baseline,
                ),
            ],
        )
    )
    failed = [r for r in rows if r.get("outcome") == "error"]
    if failed:
        sections.append(
            Section(
                "Failed games",
                table=[["seed", "error"]] + [[str(r["seed"]), str(r.get("error", ""))] for r in failed[:50]],
            )
        )
    return write_html(directory / "report.html", title, sections, intro=intro)
