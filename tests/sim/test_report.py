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


def test_the_generic_report_credits_every_seat_of_a_table_that_won_together(tmp_path):
    rows = [{"outcome": "won", "winner": "all", "bots": "a,b", "turns": 3}]
    text = report.generic(rows, tmp_path, title="Co-op").read_text()
    assert "<h1>Co-op</h1>" in text


def maiden_row(seed: int, players: int, won: bool, **extra) -> dict:
    row = {
        "game": "maiden",
        "preset": "",
        "seed": seed,
        "seats": players,
        "bots": ",".join(["heuristic"] * players),
        "settings": "{}",
        "winner": "all" if won else "",
        "outcome": "won" if won else "lost",
        "won": won,
        "turns": 60,
        "rounds": 20 if won else 24,
        "urza_round": 20 if won else None,
        "bosses_defeated": 10 if won else 6,
        "boss_rounds": json.dumps({"malkuth": 1, "kether": 20} if won else {"malkuth": 2}),
        "deaths": 3,
        "deaths_in_boss_fight": 1,
        "turns_at_life_1": 6,
        "danger_level": 5,
        "dl_by_round": json.dumps([1, 1, 2]),
        "failure_damage": 10,
        "checks": 40,
        "successes": 30,
        "boss_checks": 10,
        "boss_successes": 5,
        "areas_freed": 7,
        "rooms_entered_by_type": json.dumps({"normal": 5, "boss": 2}),
    }
    row.update(extra)
    return row


MAIDEN_ROWS = [
    maiden_row(1, 1, True),
    maiden_row(2, 1, False),
    maiden_row(3, 2, True),
    maiden_row(4, 2, True, dl_by_round=json.dumps([1, 3])),
    {"game": "maiden", "seed": 5, "seats": 2, "bots": "heuristic,heuristic", "outcome": "error", "error": "Boom"},
]


def test_the_white_maiden_report_counts_games_won_by_the_table_MV_END_1():
    """MV-END-1/2: the table wins or loses together, so a win rate counts games, not seats; a
    failed game is counted apart, not as a loss."""
    from delve.sim import maiden_report

    s = maiden_report.summary(MAIDEN_ROWS)
    assert (s["won"].wins, s["won"].games, s["errors"]) == (3, 4, 1)
    assert [(r.label, r.wins, r.games) for r in s["by_players"]] == [("1p", 1, 2), ("2p", 2, 2)]
    assert s["urza_round"][0] == 20 and s["rounds_lost"][0] == 24
    lines = maiden_report.lines(MAIDEN_ROWS)
    assert lines[0].startswith("5 games (1 failed): the table won 3 (75.0% [")
    assert "win rate by players: 1p 50.0% [9.5, 90.5] of 2; 2p 100.0% [34.2, 100.0] of 2" in lines
    assert not any(line.startswith("win rate by line-up") for line in lines)  # one bot, any table size


def test_the_white_maiden_report_names_each_boss_and_the_danger_by_round():
    from delve.sim import maiden_report

    bosses = {r.label: (r.wins, r.games, m) for r, m in maiden_report.boss_rates(MAIDEN_ROWS)}
    assert len(bosses) == 10  # every boss of the content, the ones never defeated too
    malkuth = next(v for k, v in bosses.items() if "(Malkuth)" in k)
    urza = next(v for k, v in bosses.items() if k.startswith("Urza"))
    assert malkuth == (4, 4, 1) and urza == (3, 4, 20)
    assert maiden_report.danger_by_round(MAIDEN_ROWS) == [(1, 4, 1.0, 1), (2, 4, 1.5, 3), (3, 3, 2.0, 2)]


def test_the_white_maiden_report_has_every_section(tmp_path):
    from delve.sim import maiden_report

    text = maiden_report.write(MAIDEN_ROWS, tmp_path).read_text()
    assert "<h1>Simulation: White Maiden (5 games)</h1>" in text
    for heading in (
        "Outcome",
        "When games end",
        "Bosses",
        "Danger level",
        "Life and death",
        "Checks",
        "Exploration and growth",
        "Failed games",
    ):
        assert f"<h2>{heading}</h2>" in text
    assert "<td>every check (rooms and bosses)</td><td class=n>75.0% [" in text
    assert "delve lab report" in text
    assert text.count("data:image/png;base64,") == 7


def test_the_interval_of_no_wins_or_all_wins_ends_exactly_at_0_or_1():
    for games in range(1, 80):
        assert report.wilson(games, games)[1] == 1.0 and report.wilson(0, games)[0] == 0.0


def test_the_white_maiden_report_breaks_deaths_down_by_boss_and_shows_how_games_end(tmp_path):
    """MV-END-2: which boss kills most (deaths, fights lost and won, rounds by boss) and how
    games end against the 24-round limit (won in rounds 23-24, lost with Urza at 1-2 life); room
    checks and every check counted apart."""
    from delve.sim import maiden_report

    fight = {"joined": 3, "deaths": 2, "lost": 1, "won": 0, "engaged": 20, "fight_rounds": 5, "checks": 4}
    rows = [
        maiden_row(1, 2, False, by_boss=json.dumps({"kether": {**fight, "successes": 1}}), final_boss_life_left=2),
        maiden_row(2, 2, True, by_boss=json.dumps({"kether": {**fight, "won": 1, "successes": 4}}), urza_round=24),
    ]
    fights = {f.boss: f for f in maiden_report.boss_fights(rows)}
    assert (fights["kether"].deaths, fights["kether"].lost, fights["kether"].won) == (4, 2, 1)
    assert fights["kether"].deaths_per_game == 2.0
    assert "The boss that kills most: Urza, the Mad King" in maiden_report.deadliest(rows)
    ends = {r[0]: r[1] for r in maiden_report.game_ends(rows)}
    assert ends["won in round 24"] == "1"
    assert ends["lost at round 24, Urza's life left 1–2"] == "1"
    page = maiden_report.write(rows, tmp_path).read_text(encoding="utf-8")
    assert "Which boss kills most" in page and "fights lost (last maiden died)" in page
    assert "every check (rooms and bosses)" in page and "room checks" in page
