"""What the lab answers with: one :class:`Answer` per balance question part (spec §8), holding
its headline number, where it comes from (exact odds or simulated games), tables and plot data.
Pure data: the report draws the plots and writes the page."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from delve.sim.report import wilson

Z95 = 1.959964


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass
class Series:
    label: str
    xs: list[float]
    ys: list[float]
    low: list[float] | None = None
    """Lower 95% bounds (sampled series), drawn as error bars with ``high``."""
    high: list[float] | None = None


@dataclass
class Plot:
    name: str
    """File stem of the PNG (unique in the report)."""
    title: str
    xlabel: str
    ylabel: str
    series: list[Series]
    kind: str = "line"
    """``line`` or ``bar`` (bars grouped by series, ``xs`` used as category positions)."""
    xticks: list[str] | None = None


@dataclass
class Answer:
    """One answer to a balance question: ``value`` is the headline number (a probability, a
    rate, a mean...), ``interval`` its 95% interval when it was sampled."""

    bq: str
    title: str
    headline: str
    value: float | None
    source: str
    """``exact`` (fractions from delve.maiden.odds) or ``simulated`` (games)."""
    interval: tuple[float, float] | None = None
    tables: list[Table] = field(default_factory=list)
    plots: list[Plot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def pct(value: Fraction | float) -> str:
    return f"{100 * float(value):.1f}%"


def pp(value: Fraction | float) -> str:
    """A difference of probabilities in percentage points, signed."""
    return f"{100 * float(value):+.1f} pp"


def num(value: Fraction | float, digits: int = 2) -> str:
    return f"{float(value):.{digits}f}"


@dataclass(frozen=True)
class Estimate:
    """A sampled mean or proportion with its 95% interval."""

    value: float
    low: float
    high: float
    n: int

    def text(self, *, percent: bool = False, digits: int = 2) -> str:
        if percent:
            return f"{100 * self.value:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}] (n={self.n})"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}] (n={self.n})"

    @property
    def interval(self) -> tuple[float, float]:
        return (self.low, self.high)


def proportion(hits: int, n: int) -> Estimate:
    """A proportion with its 95% Wilson interval."""
    low, high = wilson(hits, n)
    return Estimate(hits / n if n else 0.0, low, high, n)


def mean(values: list[float]) -> Estimate:
    """A mean with its 95% normal-approximation interval (t would change little at n >= 30)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    m = sum(values) / n
    if n == 1:
        return Estimate(m, m, m, 1)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def ratio(numerator: list[float], denominator: list[float], *, share: bool = False) -> Estimate:
    """A ratio of sums over games (e.g. turns at life 1 per death) with a 95% interval by the
    delta method over the games (the games are the independent units); a ``share`` (a part of
    a whole) keeps its interval within [0, 1]."""
    n = len(numerator)
    total_d = sum(denominator)
    if n == 0 or total_d == 0:
        return Estimate(0.0, 0.0, 0.0, n)
    r = sum(numerator) / total_d
    if n == 1:
        return Estimate(r, r, r, 1)
    mean_d = total_d / n
    residuals = [a - r * b for a, b in zip(numerator, denominator, strict=True)]
    var = sum(x * x for x in residuals) / (n - 1)
    half = Z95 * math.sqrt(var / n) / mean_d
    if share:
        return Estimate(r, max(0.0, r - half), min(1.0, r + half), n)
    return Estimate(r, r - half, r + half, n)
