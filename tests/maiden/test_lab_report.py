"""The balance lab (spec §8): every question BQ-1..BQ-23 answered with a number, the exact parts
checked against hand-computed values, the simulated parts from real games, the report page and
``delve lab report``'s bad arguments (one line naming the argument)."""

from __future__ import annotations

import html
import math
import re
import statistics
from fractions import Fraction
from pathlib import Path

import pytest

from delve.bots.maiden import STRATEGIES
from delve.cli import main
from delve.maiden import odds
from delve.maiden.lab import answers, exact, games, report
from delve.maiden.lab.answers import mean, proportion, ratio
from delve.sim.runner import run

ALL_BQ = [f"BQ-{i}" for i in range(1, 24)]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The report with one seed per cell: every tag the lab reads, from real games (64)."""
    out = tmp_path_factory.mktemp("lab")
    page, answers = report.build(out, games_per_cell=1, jobs=1, progress=False)
    return out, page, answers


def test_every_balance_question_is_answered_with_a_finite_number(built):
    """Spec §8: BQ-1..BQ-23 each get at least one answer with a number."""
    _out, _page, answers = built
    answered = {a.bq for a in answers if a.value is not None and math.isfinite(a.value)}
    assert set(ALL_BQ) <= answered
    for answer in answers:
        assert answer.source in ("exact", "simulated")
        assert answer.headline
        if answer.source == "simulated" and answer.interval is not None:
            low, high = answer.interval
            assert low - 1e-9 <= answer.value <= high + 1e-9


def test_which_boss_kills_most_shows_how_often_each_bosss_checks_succeeded_bq_18(built):
    """BQ-18: the by-boss table of the lab has the boss checks made against each boss in play and
    the share that succeeded (the committed report once left the column out)."""
    _out, page, answers = built
    table = next(a for a in answers if a.title == "Which boss kills most").tables[0]
    assert table.header[-1] == "its checks succeeded"
    cells = [row[-1] for row in table.rows]
    assert all(re.fullmatch(r"\d+% of \d+|–", cell) for cell in cells), cells
    assert any(cell != "–" for cell in cells)
    assert "<th>its checks succeeded</th>" in page.read_text(encoding="utf-8")


def test_a_report_from_too_few_games_says_so_and_shows_no_impossible_or_certain_interval(built):
    """Spec §8: at 1 seed per cell the page warns that the games are too few (and how many it
    takes), no difference of win rates leaves [−100, +100] pp and no interval has zero width."""
    _out, page, answers_ = built
    text = html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8").split("<h1>")[1]))
    assert 'class="warning"' in page.read_text(encoding="utf-8")
    assert "Too few games to answer: at 1 seed per cell" in text
    assert f"Use --games {answers.MIN_GAMES} or more" in text and "--games 93" in text
    assert "n too small for an interval" in text
    intervals = re.findall(r"([-+]?\d+\.\d+)( pp|%)? \[([-+]?\d+\.\d+), ([-+]?\d+\.\d+)\]", text)
    assert intervals
    for value, unit, low, high in intervals:
        assert float(low) < float(high), (value, low, high)
        if unit == " pp":
            assert -100 <= float(low) <= float(value) <= float(high) <= 100
    for answer in answers_:
        if answer.source == "simulated" and answer.interval is not None:
            assert answer.interval[0] < answer.interval[1]


def test_a_report_from_enough_games_has_no_warning():
    """Spec §8: the default size (12 seeds per cell) is enough for an interval on every cell."""
    assert report.DEFAULT_GAMES >= answers.MIN_GAMES
    assert "±10 pp takes about 93 games per cell" in report.resolution(12)
    assert report.games_for(0.10) == 93
    assert report.rate_half_width(93) <= 0.10 < report.rate_half_width(92)


def test_the_page_is_self_contained_with_every_question_and_its_plots(built):
    out, page, answers = built
    text = page.read_text(encoding="utf-8")
    for bq in ALL_BQ:
        assert f'id="{bq.lower()}"' in text
    pngs = sorted(out.glob("*.png"))
    assert pngs and len(pngs) == sum(len(a.plots) for a in answers)
    assert text.count('src="data:image/png;base64,') == len(pngs)
    assert "http" not in text.replace("https://", "").split("<body>")[0]  # no external assets
    # run again on the same directory: every game is read back, none played again
    rows = run(games.specs(1), jobs=1, progress=False, out=out / "games")
    assert len(rows) == len(games.specs(1)) and all(r["outcome"] in ("won", "lost") for r in rows)


def test_target_distribution_of_a_game_sums_to_one_and_never_exceeds_16():
    """BQ-1: rooms: markers ⌈r/2⌉ (MV-ROUND-7) + difficulty −1..4, at least 1 (MV-CHECK-3)."""
    dist = exact.target_distribution()
    assert sum(dist.values()) == 1
    assert min(dist) == 1 and max(dist) == 12 + 4
    assert [exact.markers(r) for r in (1, 2, 3, 24)] == [1, 1, 2, 12]
    # round 1 alone: markers 1, so the target is max(1, 1 + d)
    deck = exact.room_deck()
    copies = sum(n for _, _, n in deck)
    first = exact.target_distribution((1,))
    assert first[5] == Fraction(sum(n for d, _, n in deck if d == 4), copies)


def test_exact_headlines_match_the_reference_values():
    """§8.3: 3d8 pair 0.344; 7d4 bonus 4 P(AP ≥ 16) 0.127, bonus 5 0.508; slate Pie 0 unhurt 1/s."""
    by = {a.title: a for a in exact.answers()}
    assert by["How often does ascension happen, by die size?"].value == pytest.approx(0.34375)
    assert by["The designer's Pie 4 example (7d4 vs 3d20)"].value == pytest.approx(0.127, abs=5e-4)
    assert "50.8%" in by["The designer's Pie 4 example (7d4 vs 3d20)"].headline
    # BQ-9: at Pie 0 the damage is 2 × DL unless the two non-slate dice pair (1/s)
    assert by["Variable slate damage at DL 2"].value == pytest.approx(1 - 1 / 8)
    assert by["How often does a target exceed 20?"].value == 0


def test_fight_length_is_a_negative_binomial_when_every_action_has_the_same_odds():
    """BQ-20: with P(success) p at every action, E[checks] = life / p exactly."""
    wil, pie, agi, rnd = 4, 6, 0, 1
    p = odds.check_odds(wil, pie, 1).p_success
    assert p == 1
    checks, damage = exact.fight([(0, False)] * 3, 5, wil, pie, agi, rnd)
    assert (checks, damage) == (5, 0)
    # a d4 with Pie 0 against target 4: P(AP ≥ 4) is the same for the three actions
    p = odds.check_odds(0, 0, 4).p_success
    checks, damage = exact.fight([(3, False)] * 3, 4, 0, 0, 0, 1)
    assert checks == 4 / p
    assert damage == (4 / p) * (1 - p)  # one point of damage per failure at DL 1


def test_best_of_one_card_is_the_deck_average_and_more_cards_never_hurt():
    """BQ-17 (OQ-10): keeping the least damaging of 1 + Ins room cards."""
    rounds = (5,)
    values = exact._card_values(2, 1, 0, rounds)
    deck = exact.room_deck()
    copies = sum(n for _, _, n in deck)
    average = sum((n * values[(d, s)][1] for d, s, n in deck), Fraction(0)) / copies
    assert exact.best_of(1, 2, 1, 0, rounds)[1] == average
    assert exact.best_of(2, 2, 1, 0, rounds)[1] <= average


def test_entry_requirement_odds_by_enumeration():
    """BQ-16 (CHG-16): one card shown holds J with P 1/4; JJ needs two stats."""
    assert exact._tops_probability(("J",), 1) == Fraction(1, 4)
    assert exact._tops_probability(("J", "J"), 1) == 0
    assert exact._tops_probability(("J", "J"), 2) == Fraction(1, 16)
    assert exact.aimed_tops(("J",), 1) == Fraction(1, 4)
    assert exact.random_tops(("J",), 1) == Fraction(1, 4)


def test_the_lab_plays_every_strategy_player_count_and_variant_on_shared_seeds():
    specs = games.specs(2)
    tags = {s.tag for s in specs}
    for strategy in STRATEGIES:
        for p in (1, 2, 3, 4):
            assert f"strategy:{strategy}:{p}p" in tags
    for name in games.VARIANTS:
        assert f"variant:{name}" in tags
    assert "variant:baseline" in tags
    assert len(specs) == 2 * len(tags)
    assert len({s.key() for s in specs}) == len(specs)
    assert {s.seed for s in specs} == {1, 2}
    with pytest.raises(ValueError, match="games"):
        games.specs(0)


def test_estimates_intervals():
    """Spec §8: sampled answers carry a 95% interval (Wilson, Student t, delta method)."""
    assert proportion(0, 0).n == 0 and proportion(0, 0).interval is None
    assert proportion(0, 0).text(percent=True) == "— (no games)"
    p = proportion(5, 10)
    assert p.low < 0.5 < p.high
    values = [1.0, 2.0, 3.0] * 4
    m = mean(values)
    assert m.value == 2 and m.low < 2 < m.high
    assert m.high - m.value == pytest.approx(answers.t95(11) * statistics.stdev(values) / math.sqrt(12))
    r = ratio([1.0, 0.0, 1.0] * 4, [2.0, 1.0, 1.0] * 4, share=True)
    assert r.value == pytest.approx(0.5) and 0 <= r.low <= r.high <= 1


def test_student_t_quantiles():
    """Spec §8: means use Student's t (tabulated to 30 degrees of freedom, a series above)."""
    assert answers.t95(1) == pytest.approx(12.706, abs=1e-3)
    assert answers.t95(11) == pytest.approx(2.201, abs=1e-3)
    for df, t in ((40, 2.0211), (60, 2.0003), (120, 1.9799), (10_000, 1.9602)):
        assert answers.t95(df) == pytest.approx(t, abs=2e-4)
    with pytest.raises(ValueError, match="df"):
        answers.t95(0)


def test_a_mean_from_too_few_games_or_without_spread_has_no_interval():
    """Spec §8: 1-2 games (or games that all agree) are not shown as a zero-width 95% interval."""
    one = mean([24.0])
    assert one.interval is None and one.text(digits=1) == f"24.0 (n=1; {answers.TOO_FEW})"
    assert "10 games" in answers.TOO_FEW
    two = mean([7.0, 7.0])
    assert two.interval is None and "[" not in two.text()
    assert mean([5.0, 9.0] * 4).interval is None  # 8 games: still too few
    same = mean([3.0] * 12)
    assert same.interval is None and "same value" in same.text()
    assert mean([]).text() == "— (no games)"
    assert ratio([1.0, 1.0], [1.0, 1.0], share=True).interval is None
    assert ratio([1.0] * 12, [1.0] * 12).interval is None
    assert ratio([0.0] * 3, [0.0] * 3).text() == "— (n=3, nothing to divide by)"


def test_paired_win_rate_difference_is_newcombes_hybrid_score_interval():
    """Spec §8 (BQ-12, §6.3): Newcombe (1998) paired method 10, against a published example
    (Cavo et al. 2012, in Fagerland, Lydersen and Laake: −0.0621 [−0.1186, −0.0046])."""
    d = answers.paired_proportions(59, 6, 16, 80)
    assert d.value == pytest.approx(-0.0621, abs=1e-4)
    assert d.interval == pytest.approx((-0.1186, -0.0046), abs=1e-4)
    assert d.text(pp=True) == "-6.2 pp [-11.9, -0.5] (n=161)"


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
def test_a_paired_win_rate_difference_stays_in_minus_one_to_one_and_is_never_certain(n):
    """Spec §8: a difference of two win rates lies in [−100, +100] pp; from a few games its
    interval is wide, never of zero width, and always contains the estimate."""
    for both in range(n + 1):
        for on_only in range(n + 1 - both):
            for off_only in range(n + 1 - both - on_only):
                d = answers.paired_proportions(both, on_only, off_only, n - both - on_only - off_only)
                assert -1.0 <= d.low <= d.value <= d.high <= 1.0
                assert d.high - d.low > 0.1
    lost = answers.paired_proportions(0, 0, 2, 0)  # both seeds won under the rulebook, lost with the variant
    assert lost.value == -1 and lost.low == -1 and lost.high < 0
    assert answers.paired_proportions(0, 0, 0, 0).text(pp=True) == "— (no pairs of games)"


def test_a_paired_difference_at_many_games_keeps_its_meaning():
    """Spec §8: at hundreds of pairs the score interval is the usual paired interval."""
    d = answers.paired_proportions(300, 150, 50, 500)
    diffs = [1.0] * 150 + [-1.0] * 50 + [0.0] * 800
    wald = mean(diffs)
    assert d.value == pytest.approx(wald.value)
    assert d.low == pytest.approx(wald.low, abs=0.005) and d.high == pytest.approx(wald.high, abs=0.005)


def test_paired_difference_pairs_the_games_by_seed_and_player_count():
    """Spec §8, §6.3: a variant is compared with the rulebook's games of the same seed and players."""

    def row(seed, seats, won, areas=0):
        return {"seed": seed, "seats": seats, "won": won, "areas_freed": areas}

    on = [row(1, 1, True), row(2, 2, False), row(3, 3, True), row(9, 1, True)]
    off = [row(1, 1, True), row(2, 2, True), row(3, 3, False), row(3, 1, False)]
    d = games.paired_difference(on, off)
    assert (d.n, d.value) == (3, 0.0)
    assert d.interval == pytest.approx(answers.paired_proportions(1, 1, 1, 0).interval)
    areas = games.paired_difference(
        [row(s, 1, True, s + 2) for s in range(12)], [row(s, 1, True, s) for s in range(12)], "areas_freed"
    )
    assert areas.value == 2 and areas.interval is None  # every pair differs by exactly 2: no spread


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["lab", "report", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--out", "DIR", "--games", "0"], "--games"),
        (["--out", "DIR", "--games", "-1"], "--games: -1 is below 1"),
        (["--out", "DIR", "--jobs", "-3"], "--jobs: -3 is below 1"),
        (["--out", "DIR", "--games", "many"], "--games"),
        (["--out", "DIR", "--jobs", "0"], "--jobs"),
        (["--out", "DIR", "--scheduler", "localhost:8786"], "--scheduler"),
        (["--out", "FILE"], "--out"),
        ([], "--out"),
        (["--out", "DIR", "--colour", "red"], "--colour"),
    ],
)
def test_report_bad_arguments_get_one_line_naming_the_argument(capsys, tmp_path, argv, option):
    (tmp_path / "FILE").write_text("not a directory")
    argv = [str(tmp_path / a) if a in ("DIR", "FILE") else a for a in argv]
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("delve lab report: error:")
    assert option in err
    assert not (tmp_path / "DIR").exists()


def test_the_default_report_size_is_the_documented_one():
    assert report.DEFAULT_GAMES == 12
    assert len(games.specs(report.DEFAULT_GAMES)) == 12 * 64


def test_the_fight_length_answer_names_the_mad_kings_shipped_life():
    """BQ-20, MV-SPEC-4, MV-ROUND-7: the headline states the lives the numbers were computed with
    (the shipped content's, and with +⌈L/3⌉ at 2 and 4 players) and his targets in that round
    (⌈22/2⌉ = 11 action markers + each action's difficulty: 20 in round 22, not 21)."""
    from delve.maiden import content

    urza = next(boss for boss in content.load().bosses.values() if boss.final)
    (answer,) = exact.bq20()
    bonus = urza.life + -(-urza.life // 3)
    assert f"{urza.name['en']} takes" in answer.headline
    assert f"at life {urza.life} (1 and 3 players)" in answer.headline
    assert f"at life {bonus} (2 and 4 players: +⌈L/3⌉)" in answer.headline
    targets = sorted({11 + a.difficulty for a in urza.actions})
    assert f"round 22, where his targets are {', '.join(map(str, targets))} (11 action markers" in answer.headline


DOCS = Path(__file__).resolve().parents[2] / "docs" / "lab"


def test_the_lab_readme_quotes_the_committed_report():
    """Spec §8: docs/lab/README.md reads docs/lab/report.html for the designer: each headline it
    quotes is the report's, and every figure of destinations per move it repeats (BQ-12) is the
    report's own table rounded (it once said 7.7 in one place and 7.3 in another)."""
    readme = (DOCS / "README.md").read_text(encoding="utf-8")
    page = (DOCS / "report.html").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "\n", page))
    quoted = re.findall(r"\*(?:exact|simulated)\*: (.*?)(?:<br>| \| )", readme)
    assert len(quoted) > 20
    for headline in quoted:
        assert headline in text, headline
    reach = page.split("<th>destinations offered per move</th></tr>")[1].split("</table>")[0]
    table = dict(re.findall(r"<tr><td>(\d+)</td><td>\d+</td><td>(\d+\.\d+)</td></tr>", reach))
    per_move = re.findall(r"([\d.]+) destinations\s+per\s+move at Agi 0", readme)
    assert per_move and set(per_move) == {f"{float(table['0']):.1f}"}


def test_values_read_as_percentages_with_their_interval_and_exact_rows_keep_their_fraction():
    """Spec §8 for a reader: a rate as a percentage with its 95% interval in the same unit, a
    difference in signed percentage points, an exact probability with its exact fraction."""
    from delve.maiden.lab.answers import Answer

    exact_rate = Answer("BQ-2", "t", "h", 11 / 32, "exact", unit="%", fraction=Fraction(11, 32))
    rate = Answer("BQ-14", "t", "h", 0.45, "simulated", interval=(0.258, 0.658), unit="%")
    diff = Answer("§6.3", "t", "h", 0.5, "simulated", interval=(0.223, 0.676), unit="pp")
    count = Answer("BQ-20", "t", "h", 39.375, "exact", fraction=Fraction(315, 8))
    assert report._value(exact_rate) == "34.4% (exactly 11/32)"
    assert report._value(rate) == "45.0% [25.8–65.8%]"
    assert report._value(diff) == "+50.0 pp [+22.3, +67.6]"
    assert report._value(count) == "39.38 (exactly 315/8)"


def test_player_counts_get_whole_ticks_and_rates_a_percent_axis():
    """BQ-14's chart: players 1-4 on the axis (never 0.5 or 1.5), the win rate in percent."""
    from matplotlib.figure import Figure

    from delve.maiden.lab.answers import Plot, Series

    plot = Plot("p", "t", "players", "win rate", [Series("s", [1.0, 2.0, 3.0, 4.0], [0.4, 0.3, 0.45, 0.4])], kind="bar")
    ax = Figure().subplots()
    ax.bar([1, 2, 3, 4], [0.4, 0.3, 0.45, 0.4])
    report._axes(ax, plot)
    assert list(ax.get_xticks()) == [1, 2, 3, 4]
    assert ax.yaxis.get_major_formatter()(0.4, 0) == "40%"
    assert not report.is_probability(Plot("d", "t", "round", "DL", []))
