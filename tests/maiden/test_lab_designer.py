"""The balance lab's report as the designer reads it (spec §8): what each answer shows beside the
spec's own questions and reference values (§8.3), the labels of its tables, the full BQ-9 grid,
one name for the final boss and the baseline settings (exact answers only: no games played)."""

from __future__ import annotations

import csv
import itertools
import re
from fractions import Fraction
from pathlib import Path

from delve.maiden import odds
from delve.maiden.lab import exact, games, report
from delve.maiden.lab.answers import Answer, proportion

DOCS = Path(__file__).resolve().parents[2] / "docs" / "lab"


def one(answers: list[Answer], title: str) -> Answer:
    (answer,) = [a for a in answers if a.title == title]
    return answer


# --------------------------------------------------------------------------- BQ-11 / §8.3


def test_bq11_shows_the_spec_no_ascension_3d20_beside_the_with_ascension_value():
    """BQ-11, §8.3: the 3d20 baseline of §8.3 is the highest die with no ascension (0.578 at T 16,
    0.143 at T 20); the report shows it beside the rulebook's value with ascension (58.4%, 14.9%),
    both labelled, and says in words why they differ (MV-ASC-9)."""
    (answer,) = exact.bq11()
    (table,) = answer.tables
    no_asc = next(i for i, h in enumerate(table.header) if "no ascension" in h)
    with_asc = next(i for i, h in enumerate(table.header) if "with ascension" in h)
    by_t = {int(row[0]): row for row in table.rows}
    assert (by_t[16][no_asc], by_t[20][no_asc]) == ("57.8%", "14.3%")
    assert (by_t[16][with_asc], by_t[20][with_asc]) == ("58.4%", "14.9%")
    for t in range(8, 21):  # §8.3: P(max of 3d20 ≥ T) = 1 − ((T − 1)/20)³
        assert by_t[t][no_asc] == f"{100 * (1 - ((t - 1) / 20) ** 3):.1f}%"
    assert "§8.3" in table.caption and "15, 4, 4 → 16" in table.caption
    assert any("ascension" in note and "§8.3" in note for note in answer.notes)
    assert "57.8% with no ascension" in answer.headline and "58.4% with it" in answer.headline
    labels = [s.label for s in answer.plots[0].series]
    assert "3d20, no ascension (§8.3)" in labels and "3d20, with ascension" in labels


# --------------------------------------------------------------------------------- BQ-9


def brute_death(wil: int, pie: int, agi: int, dl: int, life: int) -> Fraction:
    """P(death) from the odds module's own total damage (MV-SLATE-7), averaged by hand."""
    variant = odds.Variant(slate_damage_per_die="danger_level")
    total = Fraction(0)
    for t, p in exact.slate_target_distribution().items():
        check = odds.check_odds(wil, pie, t, agi=agi, slate="red", danger_level=dl, variant=variant)
        total += p * check.damage.at_least(life)
    return total


def test_bq9_death_counts_slate_and_failure_damage_over_the_slate_targets():
    """BQ-9, MV-SLATE-6, MV-SLATE-7, MV-CHECK-10: P(death) = P(slate damage + failure damage ≥ L),
    the failure's DL applying on a slate check too; at d8 Pie 0 Agi 0 DL 2 from life 4 it is the
    chance of no pair (7/8: slate damage 4), from life 1 also a pair whose check fails."""
    assert sum(exact.slate_target_distribution().values()) == 1
    d8 = exact.death_probabilities(2, 0, 0, 2)
    assert d8[3] == Fraction(7, 8)
    assert d8[0] > Fraction(7, 8)  # failing is death from life ≤ DL even without slate damage
    for wil, pie, agi, dl, life in [(2, 0, 0, 2, 1), (0, 2, 1, 3, 5), (4, 4, 3, 1, 2), (1, 1, 0, 4, 6)]:
        assert exact.death_probabilities(wil, pie, agi, dl)[life - 1] == brute_death(wil, pie, agi, dl, life)


def test_bq9_answer_has_the_key_cases_on_the_page_and_the_full_grid_as_a_csv(tmp_path):
    """BQ-9 asks every die size, Pie 0..4, Agi 0..3, DL 1..4 and L = 1..6: the key cases are tables
    on the page and the whole grid (2,400 values) a CSV file beside the report, linked."""
    (answer,) = exact.bq9()
    grid = next(t for t in answer.tables if t.file)
    assert grid.file == "bq09_death.csv" and len(grid.rows) == 5 * 5 * 4 * 4 * 6
    keys = {tuple(row[:5]) for row in grid.rows}
    assert len(keys) == len(grid.rows)
    assert {r[0] for r in grid.rows} == {"d4", "d6", "d8", "d12", "d20"}
    assert {r[1] for r in grid.rows} == set("01234") and {r[2] for r in grid.rows} == set("0123")
    assert {r[3] for r in grid.rows} == set("1234") and {r[4] for r in grid.rows} == set("123456")
    shown = [t for t in answer.tables if not t.file and any("P(death)" in h for h in t.header)]
    assert len(shown) == 2 and all("failure damage" in t.caption for t in shown)
    page = report.write(tmp_path, [answer], [], report.TITLES)
    text = page.read_text(encoding="utf-8")
    assert '<a href="bq09_death.csv">bq09_death.csv</a>' in text and "2400 rows" in text
    with (tmp_path / "bq09_death.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == grid.header and len(rows) == 1 + 2400
    d8 = next(r for r in rows if r[:5] == ["d8", "0", "0", "2", "4"])
    assert Fraction(d8[6]) == Fraction(7, 8)
    assert {p.name for p in answer.plots} == {"bq09_death", "bq09_death_pie"}
    assert all("slate + failure damage" in p.ylabel for p in answer.plots)


def test_plot_lines_each_get_their_own_marker_and_line_style():
    """BQ-9: DL 3 and DL 4 give the same P(death) at most lives; each line is drawn with its own
    marker and line style, large hollow and small filled markers in turn, so neither hides."""
    styles = [report.line_style(i) for i in range(4)]
    assert len({(s["marker"], s["linestyle"]) for s in styles}) == 4
    assert styles[2]["fillstyle"] == "none" and styles[3]["fillstyle"] == "full"
    assert styles[2]["markersize"] > styles[3]["markersize"]


# -------------------------------------------------------------------------------- BQ-23


def test_bq23_shows_every_case_grouped_and_says_when_the_headline_cuts():
    """BQ-23: the 268 cases where a smaller die wins are all in the table, grouped per (Wil, Pie,
    smaller die) with the target ranges and the largest gain; the headline's six examples say
    they are the first six."""
    (answer,) = exact.bq23()
    (table,) = answer.tables
    total = int(re.search(r"in (\d+) of \d+", answer.headline).group(1))
    assert sum(int(row[5]) for row in table.rows) == total == 268
    assert f"the first 6; the table lists all {total}" in answer.headline
    assert f"all {total} cases, none left out" in table.caption
    first = table.rows[0]
    assert first[:5] == ["1", "d6", "2", "d4", "6–7"] and first[6].startswith("+")
    assert exact._ranges([6, 7, 10, 12, 13, 14]) == "6–7, 10, 12–14"


# ------------------------------------------------------------------------- BQ-1 / BQ-3


def test_bq1_plots_both_ascension_bonus_rules():
    """BQ-1, CHG-11: P(AP ≥ T) at d20 under bonus 1 + Pie and under bonus Pie, Pie 0..6."""
    answer = one(exact.bq1(), "Is Pie worth anything at d20?")
    plots = {p.name: p for p in answer.plots}
    assert set(plots) == {"bq01_d20_pie", "bq01_d20_pie_rule"}
    assert "bonus 1+Pie" in plots["bq01_d20_pie"].title and "bonus Pie" in plots["bq01_d20_pie_rule"].title
    pie3 = plots["bq01_d20_pie_rule"].series[3]
    assert pie3.ys == [float(odds.success_probability(4, 3, t, variant=exact.PIE_RULE)) for t in range(1, 31)]
    assert pie3.ys != plots["bq01_d20_pie"].series[3].ys


def test_bq3_table_covers_agi_0_to_4_and_bq3_bq8_say_what_p_success_averages_over():
    """BQ-3 (Agi 0..4) and BQ-8: P(success) in the slate tables is averaged over the game's
    target distribution, and the tables say so."""
    (bq3,) = exact.bq3()
    (table,) = bq3.tables
    assert {row[1] for row in table.rows} == set("01234") and len(table.rows) == 5 * 5
    (bq8,) = exact.bq8()
    for t in (table, bq8.tables[0]):
        assert "averaged over the game's target distribution" in t.caption
        assert any("averaged" in h for h in t.header if h.startswith("P(success)"))


# ----------------------------------------------------------------------- names, baseline


def test_the_final_boss_has_one_name_the_contents():
    """The report names the final boss as the content does ("Urza, the Mad King"), never by its
    id (kether) or half its name."""
    name = exact.final_boss_name()
    assert name == "Urza, the Mad King"
    texts = []
    for answer in exact.answers():
        texts += [answer.headline, *answer.notes]
        for table in answer.tables:
            texts += [table.caption, *table.header, *itertools.chain.from_iterable(table.rows)]
    joined = "\n".join(texts).replace(name, "")
    assert "kether" not in joined.lower() and "Mad King" not in joined and "Urza" not in joined
    assert name in exact.bq20()[0].headline
    assert any(row[0] == name for row in exact.bq20()[0].tables[0].rows)


def test_the_report_header_states_the_baseline_settings():
    """The header names the settings every simulated game uses unless its cell changes one."""
    text = report.baseline()
    for part in (
        "Difficulty: easy (the rulebook)",
        "Ascension bonus: 1 + Piety",
        "Slate damage per die: 1",
        "Boss life bonus at 2/4 players: a third of its life, rounded up",
        "Maximum life: 6",
        "Urza, the Mad King (life 11",
        "heuristic:will_first",
    ):
        assert part in text, part


# -------------------------------------------------------------------------------- BQ-14


def test_bq14_says_when_its_intervals_cannot_separate_the_boss_life_bonuses():
    """BQ-14, SUG-9: options whose 95% intervals all contain the 1p/3p mean are 'not resolved',
    not the best; one such option is named as the only one; none: the nearest, said as such."""
    wide = [("⌈L/3⌉ (default)", proportion(7, 20)), ("2", proportion(9, 20)), ("3", proportion(6, 20))]
    text = games.bonus_choice(wide, 0.45)
    assert text.startswith("not resolved") and "cannot separate" in text and "best" not in text
    assert "the 95% intervals of all 3 options contain it" in text and "nearest point estimate +2" in text
    some = [*wide, ("5", proportion(19, 20))]
    assert "of 3 options (+⌈L/3⌉ (default), +2, +3) contain it" in games.bonus_choice(some, 0.45)
    narrow = [("⌈L/3⌉ (default)", proportion(700, 1000)), ("3", proportion(450, 1000))]
    assert games.bonus_choice(narrow, 0.45).startswith("+3 (45.0%") and "only option" in games.bonus_choice(
        narrow, 0.45
    )
    assert games.bonus_choice([("0", proportion(950, 1000))], 0.45).startswith("no option's 95% interval")


def _room_rows(tag: str, won: int, n: int) -> list[dict[str, object]]:
    return [
        {
            "tag": tag,
            "outcome": "won" if i < won else "lost",
            "won": i < won,
            "deaths": 1,
            "life_at_boss_sum": 4,
            "life_at_boss_n": 1,
            "danger_level": 3,
            "quests_resolved": 2,
        }
        for i in range(n)
    ]


def _room_cells(wins: dict[tuple[str, bool], int], n: int) -> games.Cells:
    rows = []
    for (difficulty, reduction), won in wins.items():
        for p in games.PLAYERS:
            if (difficulty, reduction) == ("easy", False):
                tag = f"strategy:will_first:{p}p"
            else:
                tag = f"rooms:{difficulty}:{'on' if reduction else 'off'}:{p}p"
            rows += _room_rows(tag, won, n)
    return games.Cells(rows)


def test_bq13_says_when_its_intervals_cannot_separate_the_room_configurations():
    """BQ-13, as BQ-14: the configuration for the target win rate is named only when the games
    can tell it from the others; 20 games a cell cannot, and the answer says "not resolved"."""
    wide = _room_cells({("easy", False): 8, ("easy", True): 10, ("normal", False): 11, ("normal", True): 14}, 20)
    (answer,) = games.bq13(wide)
    assert answer.headline.count("not resolved: the 95% intervals of all 4 options") == len(games.PLAYERS)
    assert "Closest" not in answer.headline
    assert "nearest point estimate easy, reduction on" in answer.headline
    assert answer.value == 0.5  # the headline: the 2p configuration nearest 50% (10 of 20)
    narrow = _room_cells(
        {("easy", False): 300, ("easy", True): 500, ("normal", False): 700, ("normal", True): 900}, 1000
    )
    (answer,) = games.bq13(narrow)
    assert answer.headline.count("the only option whose 95% interval contains it") == len(games.PLAYERS)
    assert "1p: easy, reduction on (R" in answer.headline


# ----------------------------------------------------------------- docs/lab/README.md


def test_the_lab_readme_reads_bq14_as_the_report_does():
    """BQ-14: the README does not call a boss-life bonus best where the report's intervals cannot
    separate the options, and names the 500-game run as a separate measurement."""
    readme = (DOCS / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| BQ-14 |"))
    assert "cannot separate" in row and "500-game" in row
