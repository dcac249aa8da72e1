"""Reports: 95% Wilson intervals, charts, the self-contained HTML page and the Fated report's
numbers (win rates by class and seat, victory kinds, causes of death, cards of winners)."""

from __future__ import annotations

import json

import pytest

from delve.sim import fated_report, report
from delve.sim.report import Rate, Section


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (300, 400, 0.7053, 0.7899)],
)
def test_wilson_gives_the_95_percent_score_interval(wins, games, low, high):
    lo, hi = report.wilson(wins, games)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_no_games_give_the_whole_interval():
    assert report.wilson(0, 0) == (0.0, 1.0)
    assert Rate("x", 0, 0).value == 0.0


def test_the_page_embeds_its_charts_and_escapes_text(tmp_path):
    chart = report.rate_chart(tmp_path / "c.png", [Rate("a<b", 3, 10), Rate("c", 5, 10)], title="t", reference=0.25)
    assert chart.read_bytes()[:4] == b"\x89PNG"
    page = report.write_html(
        tmp_path / "r.html", "T & U", [Section("S", ["p <i>"], [["h"], ["1"]], [chart])], intro=["x"]
    )
    text = page.read_text()
    assert "T &amp; U" in text and "p &lt;i&gt;" in text and "<td class=n>1</td>" in text
    assert text.count("data:image/png;base64,") == 1


def seat(seat: int, won: bool, cls: str = "cat", cards=None, cause: str = "") -> dict:
    return {
        "seat": seat,
        "class": cls,
        "bot": "heuristic",
        "won": won,
        "fate": "escaped" if won else "died",
        "cause": cause,
        "turns": 10,
        "commands": 30,
        "kills": 0,
        "treasures": 0,
        "corners": 1,
        "cards": cards or {},
    }


def row(seed: int, winner: int, outcome: str, players: list[dict], days: float = 2.0) -> dict:
    return {
        "game": "fated",
        "preset": "fated-labyrinth",
        "seed": seed,
        "seats": len(players),
        "bots": "heuristic,heuristic",
        "outcome": outcome,
        "winner": str(winner),
        "turns": 8,
        "days": days,
        "commands": 60,
        "wait_time": 21600,
        "players": json.dumps(players),
    }


ROWS = [
    row(1, 0, "escape-A", [seat(0, True, "cat", {"potion": 3}), seat(1, False, "noble", {"potion": 1}, "poison")]),
    row(2, 1, "survivor", [seat(0, False, "cat", {"attack-5": 2}, "monster:imp"), seat(1, True, "noble", {})]),
    row(3, 1, "survivor", [seat(0, False, "noble", {}, "trap:pitfall"), seat(1, True, "cat", {"potion": 1})]),
]


def test_the_fated_summary_counts_wins_by_class_and_seat():
    summary = fated_report.summary(ROWS)
    assert summary["outcomes"] == {"survivor": 2, "escape-A": 1}
    assert [(r.label, r.wins, r.games) for r in summary["by_class"]] == [("cat", 2, 3), ("noble", 1, 3)]
    assert [(r.label, r.wins, r.games) for r in summary["by_seat"]] == [("1", 1, 3), ("2", 2, 3)]
    assert summary["days_mean"] == 2.0


def test_a_cards_share_of_winners_is_against_the_winners_share_of_all_uses():
    shares, baseline = fated_report.card_shares(fated_report.seats_of(ROWS), minimum=1)
    assert baseline == pytest.approx(4 / 7)
    assert [(r.label, r.wins, r.games) for r in shares] == [("potion", 4, 5), ("attack-5", 0, 2)]


def test_the_fated_report_has_every_chart(tmp_path):
    page = fated_report.write(ROWS, tmp_path)
    text = page.read_text()
    for heading in ("Victory kinds", "Win rate by class", "Win rate by seat", "Game length", "Causes of death"):
        assert f"<h2>{heading}</h2>" in text
    assert text.count("data:image/png;base64,") == 8
    assert {p.name for p in (tmp_path / "charts").iterdir()} >= {
        "victory_kinds.png",
        "win_rate_by_class.png",
        "win_rate_by_seat.png",
        "length_days.png",
        "causes_of_death.png",
        "card_usage.png",
        "cards_of_winners.png",
    }


def test_the_generic_report_needs_only_the_common_columns(tmp_path):
    rows = [
        {"outcome": "won", "winner": "0", "bots": "a,b", "turns": 3},
        {"outcome": "lost", "winner": "", "bots": "a,b", "turns": 5},
    ]
    text = report.generic(rows, tmp_path, title="Toy").read_text()
    assert "<h1>Toy</h1>" in text and text.count("data:image/png") == 3


def test_level_d_classes_are_shown_with_the_names_its_players_know():
    assert fated_report.class_label("cat", ["level-d"]) == "cat (Ninja)"
    assert fated_report.class_label("noble", ["level-d"]) == "noble (Merchant)"
    assert fated_report.class_label("cat", ["fated-labyrinth"]) == "cat"


def test_line_ups_are_told_shortly():
    rows = [{"bots": "heuristic,heuristic"}, {"bots": "heuristic,random"}, {"bots": "heuristic,heuristic"}]
    assert fated_report.line_ups(rows) == "heuristic x2; heuristic,random"
