"""The balance lab's report as the designer reads it (spec §8): what each answer shows beside the
spec's own questions and reference values (§8.3), the labels of its tables, the full BQ-9 grid,
one name for the final boss and the baseline settings (exact answers only: no games played)."""

from __future__ import annotations

import re
from pathlib import Path

from delve.maiden.lab import exact
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
