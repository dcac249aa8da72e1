"""``delve maiden play`` (watch bots play, or play seats from the keyboard) and ``delve maiden
eval`` (the heuristic bots' win rates): end to end on the command line, no Django."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from delve.bots import maiden_eval
from delve.cli import main
from delve.maiden.ruleset import MaidenRuleset
from tests.maiden.fixtures.content import CONTENT


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["maiden", *argv])
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_watch_mode_plays_a_whole_seeded_game(capsys: Any) -> None:
    """MV-ROUND-3, MV-END-1..3: bots play every seat of a 2-player game to its end; every event
    is a sentence; the summary closes the game."""
    code, out, err = run(capsys, "play", "--players", "2", "--seed", "7")
    assert (code, err) == (0, "")
    assert out.startswith("White Maiden: 2 player(s), seed 7; the bots play every seat.")
    assert "Round 1 begins: 1 action marker, base target 1." in out
    assert re.search(r"^Result: (WON|LOST)\. Rounds \d+, bosses defeated \d+", out, re.M)
    assert "Event “" not in out  # no event fell back to the generic sentence
    again = run(capsys, "play", "--players", "2", "--seed", "7")
    assert again[1] == out  # the same seed plays the same game


def test_watch_mode_in_japanese(capsys: Any) -> None:
    code, out, _ = run(capsys, "play", "--players", "1", "--seed", "7", "--lang", "ja")
    assert code == 0
    assert out.startswith("白き乙女：1人、シード7。全員ボットが担当。")
    assert "第1ラウンド開始。" in out
    assert re.search(r"^結果：(勝利|敗北)。", out, re.M)


def test_play_mode_reads_numbered_choices_from_stdin(capsys: Any, monkeypatch: Any) -> None:
    """The human seat sees the turn header, the map (when moving), the maidens, the check with
    its odds and numbered commands; typing a number plays that command; bad input is asked
    again; the bots play the other seat."""
    answers = "x\n99\n" + "1\n" * 6000
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code, out, err = run(capsys, "play", "--players", "2", "--seed", "7", "--seats", "0")
    assert (code, err) == (0, "")
    assert "you play Alba" in out
    assert out.count("Please type a number from 1 to") == 2
    assert "Map (✓ explored, · unexplored; R rest, Q quest, ! danger; @n maiden n):" in out
    assert re.search(r"^  1\. Move to .+ \(.+, unexplored\)$", out, re.M)
    assert re.search(r"^  1\. Roll the dice$", out, re.M)
    assert re.search(r"^  Odds: success \d+\.\d%, expected damage \d+\.\d\d$", out, re.M)
    assert re.search(r"^  1\. Resolve the check — AP \d+ → (success|failure), damage \d+$", out, re.M)
    assert re.search(r"^  → Place .+ on Piety \(\d → \d\)$", out, re.M)
    assert "Bianca's turn" in out  # the bot's seat
    assert re.search(r"^Result: (WON|LOST)\.", out, re.M)


def test_play_mode_quits_on_q_and_on_end_of_input(capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _ = run(capsys, "play", "--players", "1", "--seed", "2", "--seats", "0")
    assert code == 1 and out.rstrip().endswith("Game left unfinished.")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "--players", "1", "--seed", "2", "--seats", "0", "--lang", "ja")
    assert code == 1 and out.rstrip().endswith("ゲームを中断しました。")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5"], "argument --players: invalid choice: 5"),
        (["--players", "2", "--seats", "2"], "argument --seats: seat 2 does not exist in a 2-player game"),
        (["--seats", "a"], "argument --seats: 'a' is not a seat number"),
        (["--seats", "0,0"], "argument --seats: '0,0' names a seat twice"),
        (["--difficulty", "hard"], "argument --difficulty: invalid choice: 'hard'"),
        (["--lang", "fr"], "argument --lang: invalid choice: 'fr'"),
        (["--seed", "-1"], "argument --seed: -1 is below 0"),
        (["--set", "colour=red"], "argument --set: setting 'colour': unknown setting"),
        (["--set", "life_max=0"], "argument --set: setting 'life_max': must be between 1 and 20, got 0"),
        (["--set", "nonsense"], "argument --set: 'nonsense' is not KEY=VALUE"),
        (["--whatever"], "unrecognized arguments: --whatever"),
    ],
)
def test_bad_arguments_are_one_line_naming_the_argument(capsys: Any, argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "play", *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err, err
    assert err.startswith("delve maiden play: error: ")


def test_maiden_without_a_subcommand_says_what_to_choose(capsys: Any) -> None:
    code, _, err = run(capsys)
    assert code == 2 and err == "delve maiden: error: argument command: choose one of: play, eval\n"


def test_eval_prints_win_rates_with_wilson_intervals(capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(maiden_eval, "MaidenRuleset", lambda: MaidenRuleset(content=CONTENT))
    code, out, err = run(capsys, "eval", "--games", "3", "--players", "1,3", "--processes", "1", "--quiet")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "White Maiden win rates: heuristic (will_first) bots, seeds 1..3"
    assert lines[1] == maiden_eval.HEADER
    rows = [line.split() for line in lines[2:]]
    assert [r[0] for r in rows] == ["1", "3"]
    for line, row in zip(lines[2:], rows, strict=True):
        games, wins = int(row[1]), int(row[2])
        low, high = maiden_eval.wilson(wins, games)
        assert games == 3
        assert row[3] == f"{100 * wins / games:.1f}%"
        assert f"[{100 * low:5.1f}%, {100 * high:5.1f}%]" in line


def test_eval_shows_progress_with_an_eta_on_stderr(capsys: Any, monkeypatch: Any) -> None:
    """Quality rule (a long run says how long it will take): delve maiden eval shows the games done,
    games/s and the ETA on stderr (the same progress line as delve simulate and delve lab report),
    never on stdout, and a last line with the time taken; --quiet shows none; --help says how long
    the default run takes."""
    import itertools
    import types

    from delve.sim import runner

    clock = itertools.count(start=1000, step=11)  # each look at the clock: 11 seconds later
    monkeypatch.setattr(runner, "time", types.SimpleNamespace(monotonic=lambda: float(next(clock))))
    monkeypatch.setattr(maiden_eval, "play_game", lambda players, seed, **kw: _FakeRecord(players, seed))
    code, out, err = run(capsys, "eval", "--games", "8", "--players", "1,2", "--processes", "1")
    assert code == 0
    assert "ETA" not in out and "games/s" not in out
    lines = err.splitlines()
    # the ETA waits for the first games (runner.ESTIMATE_AFTER), then is measured
    assert lines[0].startswith("[") and "games/s  ETA estimating..." in lines[0]
    assert any(" 15/16 " in line and "ETA 0m" in line for line in lines), lines
    assert " 16/16 100.0%" in lines[-1] and "  in " in lines[-1] and "ETA" not in lines[-1]
    code, out, err = run(capsys, "eval", "--games", "3", "--players", "1,2", "--processes", "1", "--quiet")
    assert (code, err) == (0, "")
    with pytest.raises(SystemExit):
        main(["maiden", "eval", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "takes about 90 minutes" in help_text and "ETA" in help_text


class _FakeRecord:
    def __init__(self, players: int, seed: int) -> None:
        self.won, self.rounds, self.summary = seed % 2 == 0, 20, {}


def test_eval_reports_games_that_could_not_finish(capsys: Any, monkeypatch: Any) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(maiden_eval, "play_game", broken)
    code, _, err = run(capsys, "eval", "--games", "2", "--players", "2", "--processes", "1")
    assert code == 1
    assert "error: 2 players, seed 1: RuntimeError: engine exploded" in err
    assert "2 game(s) could not be finished (not counted above)" in err


def test_eval_refuses_bad_settings(capsys: Any) -> None:
    code, _, err = run(capsys, "eval", "--set", "difficulty=impossible")
    assert code == 2
    assert err.startswith("delve maiden eval: error: argument --set: setting 'difficulty'")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "1", "--set", "players=3"], "argument --set: players=3: the player count is given by --players"),
        (["--players", "2", "--set", "players=2"], "argument --set: players=2: the player count is given by --players"),
        (
            ["--players", "1,2", "--set", "start_player=1"],
            "argument --set: setting 'start_player': seat 1 does not exist in a 1-player game (with --players 1)",
        ),
        (["--set", "life_max=0"], "argument --set: setting 'life_max': must be between 1 and 20, got 0"),
        (["--set", "difficulty=easy", "--set", "entry_restrictions=true"], "setting 'entry_restrictions'"),
    ],
)
def test_eval_refuses_a_contradictory_or_invalid_setup_before_playing(
    capsys: Any, monkeypatch: Any, argv: list[str], message: str
) -> None:
    """MV-SETUP-1, CHG-16: one line, exit 2, no table and no game played (the old run printed
    '0 games 0.0% [0.0%, 100.0%]' and a SettingsError per seed)."""

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played")

    monkeypatch.setattr(maiden_eval, "play_game", never)
    code, out, err = run(capsys, "eval", "--games", "2", "--processes", "1", *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("delve maiden eval: error: ")
    assert message in err, err


def test_eval_checks_settings_at_the_player_counts_it_plays() -> None:
    """MV-SETUP-16: start_player=1 is fine at 2 players (it was refused, checked at 1 player)."""
    assert maiden_eval.setup_error([2, 3, 4], {"start_player": "1"}) is None
    assert maiden_eval.setup_error([1, 2], {"start_player": "1"}) == (
        "--set",
        "setting 'start_player': seat 1 does not exist in a 1-player game (with --players 1)",
    )
    # wrong at every count: no player count named
    assert maiden_eval.setup_error([1, 2], {"life_max": "0"}) == (
        "--set",
        "setting 'life_max': must be between 1 and 20, got 0",
    )


def test_eval_row_without_a_finished_game_shows_no_interval() -> None:
    row = maiden_eval.Row(players=2, games=0, wins=0, rounds=0, bosses=0, areas=0, deaths=0, errors=["x"])
    assert "[" not in row.line() and "no game finished" in row.line()


@pytest.mark.parametrize(
    ("argv", "option", "message"),
    [
        (["--players", "2", "--set", "players=3"], "--set", "players=3: the player count is given by --players"),
        (["--players", "2", "--set", "players=2"], "--set", "players=2: the player count is given by --players"),
        (["--players", "1", "--set", "start_player=1"], "--set", "seat 1 does not exist in a 1-player game"),
        (["--difficulty", "normal", "--set", "difficulty=easy"], "--difficulty", "not both"),
        (["--set", "entry_restrictions=true"], "--set", "setting 'entry_restrictions'"),
    ],
)
def test_play_refuses_a_contradictory_setup_like_eval(capsys: Any, argv: list[str], option: str, message: str) -> None:
    """MV-SETUP-1, CHG-16: --set players=3 with --players 2 ended in a traceback."""
    code, out, err = run(capsys, "play", *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith(f"delve maiden play: error: argument {option}: ")
    assert message in err, err
