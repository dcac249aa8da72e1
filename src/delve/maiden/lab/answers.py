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
    file: str = ""
    """When set, the table is written beside the report as this CSV file (a full grid too long for
    the page) and the page links it with its caption and row count instead of showing the rows."""


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
    no_interval: str = ""
    """Why a simulated answer has no interval (too few games, no spread), shown in its place."""
    tables: list[Table] = field(default_factory=list)
    plots: list[Plot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unit: str = ""
    """How the value reads: ``%`` (a probability or a rate), ``pp`` (a difference of two, in
    percentage points) or ``""`` (a count, a mean, a level)."""
    fraction: Fraction | None = None
    """An exact answer's value as its exact fraction, when it is one."""


def pct(value: Fraction | float) -> str:
    return f"{100 * float(value):.1f}%"


def pp(value: Fraction | float) -> str:
    """A difference of probabilities in percentage points, signed."""
    return f"{100 * float(value):+.1f} pp"


def num(value: Fraction | float, digits: int = 2) -> str:
    return f"{float(value):.{digits}f}"


MIN_GAMES = 10
"""Games a mean or a ratio over games needs before the lab gives it a 95% interval. Below that
the interval of a skewed count (deaths, rounds, areas) is unreliable and the spread itself is a
guess (two games with the same value would make a zero-width interval): the answer then says
"n too small" and how many games it needs. Win rates (Wilson) and differences of win rates
(Newcombe) stay honest at any n and always get their interval."""

TOO_FEW = f"n too small for an interval: it needs {MIN_GAMES} games"

# Student's t, 97.5% quantile, by degrees of freedom 1..30 (above: the Cornish-Fisher series).
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError(f"df: {df} is below 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


@dataclass(frozen=True)
class Estimate:
    """A sampled mean, proportion or difference with its 95% interval, or without one (``low``
    and ``high`` None) and the reason in ``missing`` ("n too small ...", "no spread ..."): the lab
    never shows a zero-width interval as if a handful of games were certain."""

    value: float
    low: float | None
    high: float | None
    n: int
    missing: str = ""
    """Why there is no interval; empty when there is one."""
    defined: bool = True
    """False when there is nothing to estimate (no games, nothing to divide by): ``value`` is 0."""

    @classmethod
    def without_interval(cls, value: float, n: int, why: str) -> Estimate:
        return cls(value, None, None, n, why)

    @classmethod
    def undefined(cls, n: int, why: str) -> Estimate:
        return cls(0.0, None, None, n, why, defined=False)

    def text(self, *, percent: bool = False, pp: bool = False, digits: int = 2, signed: bool = False) -> str:
        """``percent``: a rate (``41.2% [31.1, 52.2] (n=80)``); ``pp``: a difference of rates in
        signed percentage points; otherwise a number with ``digits`` decimals (``signed``: +/-)."""
        if not self.defined:
            return f"— ({self.missing})"
        scale = 100 if percent or pp else 1
        places = 1 if percent or pp else digits
        sign = "+" if pp or signed else ""

        def f(x: float) -> str:
            return f"{scale * x:{sign}.{places}f}"

        head = f(self.value) + ("%" if percent else " pp" if pp else "")
        if self.low is None or self.high is None:
            return f"{head} (n={self.n}; {self.missing})"
        return f"{head} [{f(self.low)}, {f(self.high)}] (n={self.n})"

    @property
    def interval(self) -> tuple[float, float] | None:
        if self.low is None or self.high is None:
            return None
        return (self.low, self.high)


def proportion(hits: int, n: int) -> Estimate:
    """A proportion with its 95% Wilson interval (honest at any n > 0: 2 of 2 gives [34%, 100%])."""
    if n <= 0:
        return Estimate.undefined(0, "no games")
    low, high = wilson(hits, n)
    return Estimate(hits / n, low, high, n)


def paired_proportions(both: int, on_only: int, off_only: int, neither: int) -> Estimate:
    """The difference p(on) − p(off) of two proportions measured on the same units (here: the
    same seed and player count played with and without a change), from the paired 2×2 table:
    ``both`` units succeed in both, ``on_only`` only with the change, ``off_only`` only without,
    ``neither`` in neither.

    The interval is Newcombe's hybrid score interval for paired data (Newcombe 1998, "Improved
    confidence intervals for the difference between binomial proportions based on paired data",
    method 10; Altman et al., *Statistics with Confidence*, 2000): the Wilson intervals of the two
    proportions combined by square-and-add with their estimated correlation φ (corrected toward 0
    by n/2 when positive). Why this one: the lab plays each cell on the same seeds, so the games
    are pairs and the pairing is what narrows the interval (a Wald interval of the differences
    ignores that 0/1 outcomes are bounded, gives a zero width when every pair agrees, and leaves
    [−1, 1] at small n); the hybrid score interval stays within [−1, 1], is never of zero width,
    and keeps close to 95% coverage at small n and at 0% or 100%, where Wald intervals fail.
    """
    counts = (both, on_only, off_only, neither)
    if any(c < 0 for c in counts):
        raise ValueError(f"counts: {counts} has a negative count")
    n = sum(counts)
    if n == 0:
        return Estimate.undefined(0, "no pairs of games")
    on, off = both + on_only, both + off_only
    p1, p2 = on / n, off / n
    l1, u1 = wilson(on, n)
    l2, u2 = wilson(off, n)
    margins = on * (n - on) * off * (n - off)
    phi = 0.0
    if margins:
        a = both * neither - on_only * off_only
        phi = (a - n / 2) / math.sqrt(margins) if a > n / 2 else min(0.0, a) / math.sqrt(margins)
    diff = p1 - p2
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    return Estimate(diff, max(-1.0, diff - below), min(1.0, diff + above), n)


def mean(values: list[float]) -> Estimate:
    """A mean with its 95% Student t interval, from :data:`MIN_GAMES` values up; fewer values, or
    values that are all equal (no spread to estimate from), give no interval and say why."""
    n = len(values)
    if n == 0:
        return Estimate.undefined(0, "no games")
    m = sum(values) / n
    if n < MIN_GAMES:
        return Estimate.without_interval(m, n, TOO_FEW)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    if sd == 0:
        return Estimate.without_interval(m, n, "every game gave the same value: no spread for an interval")
    half = t95(n - 1) * sd / math.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def ratio(numerator: list[float], denominator: list[float], *, share: bool = False) -> Estimate:
    """A ratio of sums over games (e.g. turns at life 1 per death) with a 95% interval by the
    delta method over the games (the games are the independent units, t quantile), from
    :data:`MIN_GAMES` games up; a ``share`` (a part of a whole) keeps its interval within [0, 1]."""
    n = len(numerator)
    total_d = sum(denominator)
    if n == 0:
        return Estimate.undefined(0, "no games")
    if total_d == 0:
        return Estimate.undefined(n, f"n={n}, nothing to divide by")
    r = sum(numerator) / total_d
    if n < MIN_GAMES:
        return Estimate.without_interval(r, n, TOO_FEW)
    mean_d = total_d / n
    residuals = [a - r * b for a, b in zip(numerator, denominator, strict=True)]
    var = sum(x * x for x in residuals) / (n - 1)
    if var == 0:
        return Estimate.without_interval(r, n, "every game gave the same ratio: no spread for an interval")
    half = t95(n - 1) * math.sqrt(var / n) / mean_d
    if share:
        return Estimate(r, max(0.0, r - half), min(1.0, r + half), n)
    return Estimate(r, r - half, r + half, n)
