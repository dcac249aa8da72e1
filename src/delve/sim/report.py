"""Charts and the HTML report of a simulation: 95% Wilson intervals, matplotlib PNGs (drawn
without pyplot, so any thread or process may draw) and a self-contained HTML page with the PNGs
embedded as ``data:`` URIs (the PNG files are written beside it as well).

Game modules build their reports from these pieces (``delve.sim.games.<game>.report``);
:func:`generic` is the report of a game that has none of its own.
"""

from __future__ import annotations

import base64
import html
import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Z95 = 1.959964


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``z`` for other levels); (0, 1) for no games."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # At 0 or every game the interval ends exactly at 0 or 1 (rounding would put it a hair inside,
    # and a chart's error bar would then be negative).
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class Rate:
    """A proportion with its interval: ``wins`` of ``games`` for ``label``."""

    label: str
    wins: int
    games: int

    @property
    def value(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def text(self) -> str:
        low, high = self.interval
        return f"{100 * self.value:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {self.games}"


def rates(pairs: Mapping[str, tuple[int, int]]) -> list[Rate]:
    return [Rate(label, wins, games) for label, (wins, games) in pairs.items()]


def line_ups(rows: Sequence[Mapping[str, Any]]) -> str:
    """The bots of the rows, shortly: ``heuristic x8`` or the line-ups seen."""
    seen = sorted({str(r.get("bots") or "") for r in rows})
    out = []
    for bots in seen:
        names = bots.split(",")
        out.append(f"{names[0]} x{len(names)}" if len(set(names)) == 1 else bots)
    return "; ".join(out)


# ---------------------------------------------------------------------- charts


def _figure(width: float = 7.0, height: float = 4.0) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(figure: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
    return path


def rate_chart(
    path: Path, items: Sequence[Rate], *, title: str, xlabel: str = "", reference: float | None = None
) -> Path:
    """Bars of proportions with their 95% Wilson intervals (and a dashed ``reference`` line,
    e.g. the fair share of a seat)."""
    figure = _figure(max(5.0, 0.6 * len(items) + 2), 4.0)
    ax = figure.subplots()
    values = [100 * r.value for r in items]
    lows = [100 * (r.value - r.interval[0]) for r in items]
    highs = [100 * (r.interval[1] - r.value) for r in items]
    positions = range(len(items))
    ax.bar(positions, values, color="#4c72b0", yerr=[lows, highs], capsize=4, ecolor="#333333")
    ax.set_xticks(list(positions), [f"{r.label}\n(n={r.games})" for r in items], fontsize=8)
    if reference is not None:
        ax.axhline(100 * reference, color="#c44e52", linestyle="--", linewidth=1, label=f"{100 * reference:.1f}%")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_ylabel("%")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.set_ylim(0, max([100 * r.interval[1] for r in items] + [100 * (reference or 0)] + [1]) * 1.15)
    return _save(figure, path)


def histogram(path: Path, values: Sequence[float], *, title: str, xlabel: str, bins: int = 30) -> Path:
    """A histogram with the mean and median marked."""
    figure = _figure()
    ax = figure.subplots()
    if values:
        ax.hist(values, bins=bins, color="#55a868", edgecolor="white")
        mean, median = statistics.fmean(values), statistics.median(values)
        ax.axvline(mean, color="#c44e52", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
        ax.axvline(median, color="#333333", linestyle=":", linewidth=1, label=f"median {median:.1f}")
        ax.legend(fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    return _save(figure, path)


def count_chart(path: Path, counts: Mapping[str, int], *, title: str, xlabel: str = "count", top: int = 25) -> Path:
    """Horizontal bars of the ``top`` largest counts, largest on top."""
    items = Counter(counts).most_common(top)
    figure = _figure(7.0, max(2.5, 0.28 * len(items) + 1.2))
    ax = figure.subplots()
    labels = [label for label, _ in reversed(items)]
    ax.barh(range(len(items)), [n for _, n in reversed(items)], color="#8172b2")
    ax.set_yticks(range(len(items)), labels, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return _save(figure, path)


def horizontal_rate_chart(
    path: Path, items: Sequence[Rate], *, title: str, xlabel: str, reference: float | None = None
) -> Path:
    """Proportions as horizontal bars with 95% Wilson intervals (first item on top)."""
    figure = _figure(7.0, max(2.5, 0.3 * len(items) + 1.2))
    ax = figure.subplots()
    shown = list(reversed(items))
    values = [100 * r.value for r in shown]
    errors = [
        [100 * (r.value - r.interval[0]) for r in shown],
        [100 * (r.interval[1] - r.value) for r in shown],
    ]
    ax.barh(range(len(shown)), values, xerr=errors, color="#dd8452", capsize=3, ecolor="#333333")
    ax.set_yticks(range(len(shown)), [f"{r.label} (n={r.games})" for r in shown], fontsize=8)
    if reference is not None:
        ax.axvline(100 * reference, color="#c44e52", linestyle="--", linewidth=1, label=f"{100 * reference:.1f}%")
        ax.legend(fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return _save(figure, path)


# ---------------------------------------------------------------------- HTML


@dataclass
class Section:
    """A part of the report: a heading, paragraphs, an optional table and charts (PNG paths)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    table: list[list[str]] = field(default_factory=list)
    """Rows of cells; the first row is the header."""
    images: list[Path] = field(default_factory=list)


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.9rem; }
td, th { border: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: left; }
th { background: #f3f3f3; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; display: block; margin: 0.5rem 0; }
"""


def _cell(text: str, tag: str) -> str:
    numeric = tag == "td" and text[:1].isdigit()
    return f"<{tag}{' class=n' if numeric else ''}>{html.escape(text)}</{tag}>"


def write_html(path: Path, title: str, sections: Sequence[Section], *, intro: Sequence[str] = ()) -> Path:
    """A self-contained page: every chart embedded as a ``data:`` URI."""
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    parts += [f"<p>{html.escape(p)}</p>" for p in intro]
    for section in sections:
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in section.paragraphs]
        if section.table:
            head, *body = section.table
            parts.append("<table><tr>" + "".join(_cell(c, "th") for c in head) + "</tr>")
            parts += ["<tr>" + "".join(_cell(c, "td") for c in row) + "</tr>" for row in body]
            parts.append("</table>")
        for image in section.images:
            data = base64.b64encode(image.read_bytes()).decode("ascii")
            parts.append(f'<img alt="{html.escape(image.stem)}" src="data:image/png;base64,{data}">')
    parts.append("</body></html>")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------------- a report for any game


def generic(rows: Sequence[Mapping[str, Any]], directory: Path, *, title: str = "Simulation") -> Path:
    """Outcomes, win rate by bot and game length: what every game's rows have (``winner`` is a
    seat, or ``all`` when the table won together, as in a cooperative game)."""
    charts = Path(directory) / "charts"
    played = [r for r in rows if r.get("outcome") not in ("error",)]
    outcomes = Counter(str(r.get("outcome")) for r in played)
    by_bot: dict[str, list[int]] = {}
    for row in played:
        winner = str(row.get("winner") or "")
        for seat, bot in enumerate(str(row.get("bots", "")).split(",")):
            entry = by_bot.setdefault(bot, [0, 0])
            entry[1] += 1
            entry[0] += int(winner in (str(seat), "all"))
    sections = [
        Section(
            "Outcomes",
            table=[["outcome", "games"], *[[k, str(v)] for k, v in outcomes.most_common()]],
            images=[count_chart(charts / "outcomes.png", outcomes, title="Outcomes", xlabel="games")],
        ),
        Section(
            "Win rate by bot (per seat played)",
            images=[
                rate_chart(
                    charts / "win_rate_by_bot.png",
                    rates({k: (v[0], v[1]) for k, v in sorted(by_bot.items())}),
                    title="Win rate by bot, 95% Wilson intervals",
                )
            ],
        ),
        Section(
            "Game length",
            images=[
                histogram(
                    charts / "turns.png",
                    [float(r.get("turns") or 0) for r in played],
                    title="Game length",
                    xlabel="turns",
                )
            ],
        ),
    ]
    errors = len(rows) - len(played)
    intro = [f"{len(rows)} games ({errors} failed)."]
    return write_html(Path(directory) / "report.html", title, sections, intro=intro)
