"""``delve lab report --out DIR``: every balance question of spec §8 answered with a number, in
one self-contained HTML page (``DIR/report.html``, the plots embedded) with the plots also
written beside it as PNG files.

The exact answers come from :mod:`delve.maiden.lab.exact`; the simulated ones from the games of
:mod:`delve.maiden.lab.games`, played by :func:`delve.sim.runner.run` (local processes, or a Dask
cluster given by ``scheduler``) with their rows kept in ``DIR/games/results.csv``: a report run
again on the same directory plays only the games that are missing.
"""

from __future__ import annotations

import base64
import csv
import html
import math
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from delve.maiden.lab import exact, games
from delve.maiden.lab.answers import MIN_GAMES, Z95, Answer, Plot, Table

DEFAULT_GAMES = 12
"""Seeds per cell in the default report (768 games: a few minutes on two cores)."""

MAX_GAMES = 2000
"""The most seeds per cell a report plays (128,000 games, about 7 hours of CPU at 0.2 s a game):
the report reads every game's row in memory at once, so a larger run would exhaust it; ±5 pp on
a win rate takes 385 (see :func:`resolution`)."""

ORDER = [f"BQ-{i}" for i in range(1, 24)] + ["§6.3"]

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 68rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05rem; margin-bottom: 0.3rem; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.85rem; }
td, th { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } caption { caption-side: bottom; font-size: 0.8rem; color: #555; text-align: left; }
.headline { font-weight: 600; }
.warning { background: #fff3cd; border: 1px solid #e0b252; padding: 0.5rem 0.8rem; font-weight: 600; }
.source { color: #666; font-size: 0.8rem; }
img { max-width: 100%; display: block; margin: 0.5rem 0; }
"""

MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
LINESTYLES = ["-", "--", "-.", ":"]
COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b2", "#937860", "#da8bc3", "#8c8c8c"]


def rate_half_width(n: int) -> float:
    """Half the width of a 95% Wilson interval for a win rate of 50% measured on ``n`` games (the
    widest case)."""
    z = Z95
    return z * math.sqrt(0.25 / n + z * z / (4 * n * n)) / (1 + z * z / n)


def games_for(half_width: float) -> int:
    """Games a 50% win rate needs for a 95% Wilson interval of at most ± ``half_width``."""
    n = 1
    while rate_half_width(n) > half_width:
        n += 1
    return n


def resolution(games_per_cell: int) -> str:
    """What a cell of ``games_per_cell`` games can tell, in words."""
    return (
        f"Resolution: a win rate measured on one cell ({games_per_cell} game{'s' if games_per_cell > 1 else ''}) "
        f"has a 95% interval up to ±{100 * rate_half_width(games_per_cell):.0f} pp wide; ±10 pp takes about "
        f"{games_for(0.10)} games per cell (--games {games_for(0.10)}), ±5 pp about {games_for(0.05)}. A difference "
        f"whose interval contains 0 is not resolved, not 'no effect'."
    )


def too_few_games(games_per_cell: int) -> str:
    return (
        f"Too few games to answer: at {games_per_cell} seed{'s' if games_per_cell > 1 else ''} per cell the "
        f"simulated answers are not meaningful. Means and ratios over fewer than {MIN_GAMES} games are shown "
        f"without an interval ('n too small'), win rates and their differences with intervals that span most "
        f"of the possible range. Use --games {MIN_GAMES} or more (the default is {DEFAULT_GAMES}) for an "
        f"interval on every cell, and about {games_for(0.10)} for a win rate within ±10 pp."
    )


def warnings(games_per_cell: int) -> list[str]:
    """What the page shows above everything (and ``delve lab report`` prints at its end)."""
    return [too_few_games(games_per_cell)] if games_per_cell < MIN_GAMES else []


def draw(plot: Plot, path: Path) -> Path:
    """One plot as a PNG (matplotlib without pyplot: safe in any process or thread)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.5, 4.2), dpi=100, layout="constrained")
    ax = figure.subplots()
    count = max(1, len(plot.series))
    for i, series in enumerate(plot.series):
        colour = COLOURS[i % len(COLOURS)]
        errors = None
        if series.low is not None and series.high is not None:
            # a point without an interval (NaN bounds) gets no error bar rather than a zero one
            errors = [
                [math.nan if math.isnan(lo) else max(0.0, y - lo) for y, lo in zip(series.ys, series.low, strict=True)],
                [
                    math.nan if math.isnan(hi) else max(0.0, hi - y)
                    for y, hi in zip(series.ys, series.high, strict=True)
                ],
            ]
        if plot.kind == "bar":
            width = 0.8 / count
            xs = [x + (i - (count - 1) / 2) * width for x in series.xs]
            ax.bar(xs, series.ys, width=width, color=colour, label=series.label, yerr=errors, capsize=3)
        else:
            ax.errorbar(
                series.xs,
                series.ys,
                yerr=errors,
                color=colour,
                label=series.label,
                linewidth=1.2,
                capsize=2,
                **line_style(i),
            )
    ax.set_title(plot.title, fontsize=10)
    ax.set_xlabel(plot.xlabel)
    ax.set_ylabel(plot.ylabel)
    _axes(ax, plot)
    ax.grid(alpha=0.3)
    if len(plot.series) > 1:
        ax.legend(fontsize=7)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
    return path


def is_probability(plot: Plot) -> bool:
    """Whether the plot's y axis is a probability or a rate (shown in percent)."""
    label = plot.ylabel.strip()
    return label == "P" or label.startswith("P(") or "rate" in label


def _axes(ax: Any, plot: Plot) -> None:
    """Ticks a reader can take in at a glance: whole numbers on an axis of whole numbers (players
    1–4, never 0.5 or 1.5), the categories' names when given, and a probability in percent."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    xs = sorted({x for series in plot.series for x in series.xs})
    if plot.xticks is not None and len(plot.xticks) == len(xs):
        ax.set_xticks(xs, plot.xticks)
    elif xs and all(float(x).is_integer() for x in xs):
        if len(xs) <= 12:
            ax.set_xticks(xs, [f"{x:g}" for x in xs])
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if is_probability(plot):
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_ylim(bottom=0)


def line_style(index: int) -> dict[str, Any]:
    """The marker and line style of the ``index``-th series of a line plot: each its own, large
    hollow and small filled markers in turn, so two series with the same values (DL 3 and DL 4
    of BQ-9 at most lives) both stay visible, the small marker inside the large one."""
    return {
        "marker": MARKERS[index % len(MARKERS)],
        "markersize": 9 if index % 2 == 0 else 4,
        "fillstyle": "none" if index % 2 == 0 else "full",
        "linestyle": LINESTYLES[index % len(LINESTYLES)],
    }


#: An exact fraction longer than this is left out of the value column (its percentage stays).
FRACTION_WIDTH = 20


def _number(value: float, unit: str) -> str:
    if unit == "%":
        return f"{100 * value:.1f}%"
    if unit == "pp":
        return f"{100 * value:+.1f} pp"
    return f"{value:.4g}"


def _value(answer: Answer) -> str:
    """The value as a reader takes it: a percentage (or percentage points) with its 95% interval
    in the same unit; an exact value with its exact fraction when that is short."""
    if answer.value is None:
        return "—"
    text = _number(answer.value, answer.unit)
    if answer.source == "exact":
        fraction = answer.fraction
        if fraction is not None and fraction.denominator != 1 and len(str(fraction)) <= FRACTION_WIDTH:
            return f"{text} (exactly {fraction})"
        return text
    if answer.interval is not None:
        low, high = answer.interval
        if answer.unit == "%":
            return f"{text} [{100 * low:.1f}–{100 * high:.1f}%]"
        if answer.unit == "pp":
            return f"{text} [{100 * low:+.1f}, {100 * high:+.1f}]"
        return f"{text} [{low:.4g}–{high:.4g}]"
    return text


def _interval(answer: Answer) -> str:
    if answer.interval is None:
        return "exact: no sampling error" if answer.source == "exact" else answer.no_interval or "—"
    low, high = answer.interval
    return f"95% interval [{_number(low, answer.unit)}, {_number(high, answer.unit)}]"


def _key(bq: str) -> int:
    return ORDER.index(bq) if bq in ORDER else len(ORDER)


def _slug(bq: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", bq.lower()).strip("-") or "variants"


def write_csv(path: Path, table: Table) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(table.header)
        writer.writerows(table.rows)
    return path


def write(
    out: Path,
    answers: Sequence[Answer],
    intro: Sequence[str],
    titles: dict[str, str],
    warnings: Sequence[str] = (),
    method: Sequence[str] = (),
) -> Path:
    """The page and its PNGs in ``out`` (``warnings`` stand out above the summary; ``method``:
    the paragraphs of the closing section on how the numbers were made)."""
    out.mkdir(parents=True, exist_ok=True)
    ordered = sorted(answers, key=lambda a: (_key(a.bq), a.source != "exact"))
    e = html.escape
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8"><title>White Maiden balance lab</title>',
        f"<style>{_STYLE}</style></head><body>",
        "<h1>White Maiden balance lab: the designer's questions (spec §8) answered</h1>",
    ]
    parts += [f'<p class="warning">{e(w)}</p>' for w in warnings]
    parts += [f"<p>{e(p)}</p>" for p in intro]
    parts.append(
        "<h2>Summary</h2><table><tr><th>question</th><th>answer</th><th>value [95% interval]</th><th>source</th></tr>"
    )
    for answer in ordered:
        parts.append(
            f'<tr><td><a href="#{_slug(answer.bq)}">{e(answer.bq)}</a></td><td>{e(answer.headline)}</td>'
            f"<td>{e(_value(answer))}</td><td>{e(answer.source)}</td></tr>"
        )
    parts.append("</table>")
    current = None
    for answer in ordered:
        if answer.bq != current:
            current = answer.bq
            parts.append(f'<h2 id="{_slug(answer.bq)}">{e(answer.bq)} {e(titles.get(answer.bq, ""))}</h2>')
        parts.append(f"<h3>{e(answer.title)}</h3>")
        interval = f" ({answer.no_interval})" if answer.interval is None and answer.no_interval else ""
        parts.append(f'<p class="headline">{e(answer.headline)}</p>')
        parts.append(f'<p class="source">{e(answer.source)}: {e(_value(answer))}{e(interval)}</p>')
        for table in answer.tables:
            if table.file:
                write_csv(out / table.file, table)
                parts.append(
                    f'<p class="file">The full grid ({len(table.rows)} rows): <a href="{e(table.file)}">'
                    f"{e(table.file)}</a>, beside this page. {e(table.caption)}</p>"
                )
                continue
            parts.append("<table>")
            if table.caption:
                parts.append(f"<caption>{e(table.caption)}</caption>")
            parts.append("<tr>" + "".join(f"<th>{e(h)}</th>" for h in table.header) + "</tr>")
            parts += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in table.rows]
            parts.append("</table>")
        for plot in answer.plots:
            png = draw(plot, out / f"{plot.name}.png")
            data = base64.b64encode(png.read_bytes()).decode("ascii")
            parts.append(f'<img alt="{e(plot.title)}" src="data:image/png;base64,{data}">')
        parts += [f"<p>{e(note)}</p>" for note in answer.notes]
    if method:
        parts.append('<h2 id="method">How the numbers were made</h2>')
        parts += [f"<p>{e(p)}</p>" for p in method]
    parts.append("</body></html>")
    page = out / "report.html"
    page.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return page


TITLES = {
    "BQ-1": "Is Pie worth anything at d20?",
    "BQ-2": "How often does ascension happen, by die size?",
    "BQ-3": "Is Pie purely a liability against slate?",
    "BQ-4": "Many dice when only the highest counts?",
    "BQ-5": "'N dice of at least X' checks",
    "BQ-6": "Pie raising a die above its maximum",
    "BQ-7": "Does Wil dominate growth?",
    "BQ-8": "'Don't let them roll'",
    "BQ-9": "Variable slate damage at DL 2",
    "BQ-10": "Ascension bonus Pie vs 1 + Pie",
    "BQ-11": "The designer's Pie 4 example",
    "BQ-12": "Agility's value",
    "BQ-13": "Special-room counts",
    "BQ-14": "Player-count equivalence",
    "BQ-15": "Skill weight",
    "BQ-16": "Entry restrictions as a difficulty valve",
    "BQ-17": "Ins on room draws",
    "BQ-18": "Death rate and cost",
    "BQ-19": "Target curve against the power curve",
    "BQ-20": "Boss fight length",
    "BQ-21": "Danger-level trajectory",
    "BQ-22": "Map budget",
    "BQ-23": "Removed 'smaller die' rule",
    "§6.3": "Variants",
}


def baseline() -> str:
    """The settings every simulated game uses unless its cell changes one, from the rulebook
    preset's defaults (the exact answers use the same dice rules), in words."""
    from delve.maiden import settings

    label, _ = settings.PRESETS[settings.DEFAULT_PRESET]
    shown = [
        f"{name['en']}: {value['en']}"
        for key, name, _raw, value in settings.describe(settings.resolve({}), every=True)
        if key not in ("players", "start_player", "turn_deadline_hours")
    ]
    return (
        f"Baseline settings (every simulated game unless its cell changes one; the exact answers use the same dice "
        f"rules, DL 1 unless a table says otherwise): preset {label['en']}; {'; '.join(shown)}. "
        f"The final boss is {exact.final_boss_name()} (life {games.final_boss_life()} on the shipped content); "
        f"the bots are the heuristic bot ({games.BASE_BOT} where a cell does not name a strategy), "
        f"1–4 players."
    )


def build(
    out: Path,
    *,
    games_per_cell: int = DEFAULT_GAMES,
    jobs: int = 2,
    scheduler: str | Any | None = None,
    progress: bool = True,
    stream: IO[str] | None = None,
) -> tuple[Path, list[Answer]]:
    """Compute every answer and write the report; returns the page and the answers.

    :raises ValueError: when ``games_per_cell`` or ``jobs`` is below 1, or ``games_per_cell`` is
        above :data:`MAX_GAMES`.
    """
    from delve.sim.runner import check, run

    if jobs < 1:
        raise ValueError(f"jobs: {jobs} is below 1")
    if games_per_cell > MAX_GAMES:
        raise ValueError(f"games: {games_per_cell} is above the limit of {MAX_GAMES} seeds per cell")
    stream = stream or sys.stderr
    started = time.monotonic()

    def say(text: str) -> None:
        if progress:
            stream.write(text + "\n")
            stream.flush()

    specs = games.iter_specs(games_per_cell)  # made one at a time while the games are played
    check(games.specs(min(games_per_cell, len(games.PLAYERS))))  # every kind of game, before any is played
    say("[1/3] exact answers (delve.maiden.odds) ...")
    exact_answers = exact.answers()
    say(f"[2/3] {games.count(games_per_cell)} games ({games_per_cell} seeds per cell) ...")
    rows = run(
        specs,
        jobs=jobs,
        scheduler=scheduler,
        out=out / "games",
        progress=progress,
        stream=stream,
        total=games.count(games_per_cell),
        estimate_after=len(games.cells()),  # one game of every cell: the ETA is measured on a fair sample
    )
    sim_answers = games.answers(rows)
    failed = sum(1 for r in rows if r.get("outcome") == "error")
    seconds = sum(float(r.get("seconds") or 0) for r in rows)
    say("[3/3] plots and page ...")
    seeds = f"{games_per_cell} seed{'s' if games_per_cell > 1 else ''} per cell"
    intro = [
        "How to read this page: every balance question of the designer (spec §8) has one row in the summary, "
        "with its answer in words and its value. An answer marked 'exact' is computed from the dice themselves: "
        "it is the true chance, not an estimate, and its exact fraction is shown beside the percentage when it is "
        f"short. An answer marked 'simulated' comes from {len(rows)} games played by bots ({seeds}); its "
        "value is followed by a 95% interval in brackets, the range in which the true value lies with 95% "
        "confidence: a wide bracket means more games are needed, and a difference whose bracket contains 0 is "
        "'not resolved', not 'no effect'.",
        resolution(games_per_cell),
        baseline(),
        "'The game's targets': a round 1–24 equally likely, action markers ⌈r/2⌉ (MV-ROUND-7), a room card "
        "from the shipped deck (copies counted), target = max(1, markers + difficulty).",
    ]
    method = [
        "In plain words: the exact answers count every way the dice can fall, so they carry no error. The "
        "simulated answers are averages over games played by the heuristic bots, and each comes with the range "
        "that 95 times in 100 contains the value an endless number of games would give. When a variant is "
        "compared with the rulebook, both are played on the same seeds and player counts, so the difference "
        "measures the variant and not the luck of the draw.",
        f"The methods by name: exact answers are fractions from delve.maiden.odds (the code the board screen "
        f"shows odds with). Simulated answers: {len(rows)} games ({seeds}, seeds 1–{games_per_cell}; {failed} "
        f"failed); Wilson score intervals for rates, Student's t for means and the delta method for ratios "
        f"(from {MIN_GAMES} games up; fewer games get no interval), Newcombe's paired score interval for "
        "differences of win rates over the same seeds and player counts.",
        f"Games played in {seconds:.0f} s (the sum of each game's wall-clock time); rebuild with: "
        f"delve lab report --out DIR --games {games_per_cell} (more seeds per cell narrow the intervals; "
        "resumes from DIR/games/results.csv).",
    ]
    answers = exact_answers + sim_answers
    page = write(out, answers, intro, TITLES, warnings(games_per_cell), method)
    say(f"report: {page} ({time.monotonic() - started:.0f} s)")
    return page, answers
