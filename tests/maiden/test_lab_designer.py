"""The balance lab's report as the designer reads it (spec §8): what each answer shows beside the
spec's own questions and reference values (§8.3), the labels of its tables, the full BQ-9 grid,
one name for the final boss and the baseline settings (exact answers only: no games played)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from delve.maiden import odds
from delve.maiden.lab import exact, report
from delve.maiden.lab.answers import Answer

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
