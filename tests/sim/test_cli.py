"""``delve simulate``: a run writes results.csv and report.html, the same command resumes it,
and a bad argument is one line naming it, with nothing written."""

from __future__ import annotations

import pytest

from delve.cli import main
from delve.sim.store import ResultStore

BASE = ["simulate", "--games", "3", "--set", "maze_size=9"]


def exit_code(argv: list[str]) -> int:
    """What ``delve`` exits with (argparse's own errors exit through SystemExit)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_a_run_writes_results_and_a_report_and_the_same_command_resumes(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*BASE, "--seed", "11", "--out", str(out), "--bots", "heuristic,random,random,random", "--rotate"]) == 0
    printed = capsys.readouterr()
    assert "3 fated games (fated-labyrinth) on 1 process(es)" in printed.out
    assert "3 games (0 failed, 0 unfinished)" in printed.out
    assert "win rate by bot (per seat): heuristic" in printed.out
    assert f"report: {out / 'report.html'}" in printed.out
    assert "3/3" in printed.err and "games/s" in printed.err
    rows = ResultStore(out).load()
    assert sorted(r["seed"] for r in rows.values()) == [11, 12, 13]
    assert [r["bots"].split(",").index("heuristic") for r in sorted(rows.values(), key=lambda r: r["seed"])] == [
        3,
        0,
        1,
    ]
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= 7
    assert (out / "charts" / "win_rate_by_class.png").stat().st_size > 1000

    assert (
        main(
            [
                *BASE[:2],
                "5",
                *BASE[3:],
                "--seed",
                "11",
                "--out",
                str(out),
                "--bots",
                "heuristic,random,random,random",
                "--rotate",
                "--no-report",
            ]
        )
        == 0
    )
    assert "5/5 100.0% (3 resumed)" in capsys.readouterr().err
    assert len(ResultStore(out).load()) == 5


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "argument --games: 0 is below 1"),
        (["--games", "many"], "argument --games: 'many' is not a whole number"),
        (["--seed", "-1"], "argument --seed: -1 is below 0"),
        (["--jobs", "0"], "argument --jobs: 0 is below 1"),
        (["--bots", "nope"], "argument --bots: no bot 'nope' for game 'fated'; known: heuristic, basic, random"),
        (["--bots", "heuristic,random"], "argument --bots: 2 names for 4 seats"),
        (["--bots", "heuristic,,random"], "argument --bots: 'heuristic,,random' is not a comma-separated list"),
        (
            ["--preset", "level-x"],
            "argument --preset: unknown preset 'level-x' of fated; known: fated-labyrinth, level-d",
        ),
        (
            ["--game", "chess"],
            "argument --game: no simulation for game 'chess': there is no module delve.sim.games.chess",
        ),
        (["--set", "maze_size=2"], "argument --set: setting 'maze_size': must be between 7 and 61, got 2"),
        (["--set", "maze_size"], "argument --set: 'maze_size' is not KEY=VALUE"),
        (["--set", "classes=wizard"], "argument --set: classes: unknown class 'wizard'"),
        (["--players", "3"], "argument --players: setting 'players': must be a multiple of 4"),
        (
            ["--scheduler", "localhost"],
            "argument --scheduler: 'localhost' is not a scheduler address like tcp://HOST:PORT",
        ),
        (["--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"], "argument --jobs: the Dask cluster's workers play"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it_and_nothing_is_written(tmp_path, capsys, argv, message):
    out = tmp_path / "run"
    assert exit_code(["simulate", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("delve simulate: error: ")
    assert message in err
    assert not out.exists()


def test_out_must_be_a_directory(tmp_path, capsys):
    target = tmp_path / "file.csv"
    target.write_text("x")
    assert main(["simulate", "--out", str(target)]) == 2
    assert (
        capsys.readouterr().err
        == f"delve simulate: error: argument --out: {str(target)!r} exists and is not a directory\n"
    )


def test_out_is_required(capsys):
    assert exit_code(["simulate", "--games", "1"]) == 2
    assert capsys.readouterr().err == "delve simulate: error: the following arguments are required: --out\n"


def test_an_interrupted_run_says_how_far_it_got_and_reports_the_games_finished(tmp_path, capsys, monkeypatch):
    from delve.sim import runner

    real_run = runner.run

    def interrupted(specs, **kwargs):
        real_run(specs[:2], **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run", interrupted)
    out = tmp_path / "run"
    assert main([*BASE, "--out", str(out), "--quiet"]) == 130
    printed = capsys.readouterr()
    assert f"interrupted after 2 of 3 games (in {out / 'results.csv'}); run the same command again" in printed.err
    assert "2 games (0 failed, 0 unfinished)" in printed.out
    assert (out / "report.html").exists()


def test_a_run_stopped_by_SIGTERM_keeps_its_games_stops_its_workers_and_resumes(tmp_path):
    """A real `delve simulate` process with two workers: SIGTERM after the first finished game
    stops it with the games so far reported; the same command plays only the rest."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    command = [sys.executable, "-m", "delve.cli", *BASE[:2], "40", *BASE[3:], "--jobs", "2", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = out / "results.csv"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 2):
        time.sleep(0.2)
    workers = [
        int(p) for p in subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    ]
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted after" in stderr and "run the same command again" in stderr
    assert "report:" in stdout
    done = len(ResultStore(out).load())
    assert 1 <= done < 40
    time.sleep(1)
    for pid in workers:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        with open(f"/proc/{pid}/stat") as stat:
            assert stat.read().split()[2] == "Z", f"worker {pid} still runs"
    again = subprocess.run(
        [*command[:3], *BASE[:2], "2" if done < 2 else str(done + 1), *BASE[3:], "--out", str(out), "--no-report"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr
    assert f"({done} resumed)" in again.stderr


def test_a_white_maiden_run_reports_the_tables_wins_in_its_own_terms(tmp_path, capsys):
    """MV-END-1/2: a White Maiden simulation prints and reports the table's win rate (games won
    together), Urza's round, bosses, areas and deaths, not a per-seat winner that never exists."""
    out = tmp_path / "maiden"
    assert main(["simulate", "--game", "maiden", "--games", "3", "--players", "2", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    rows = ResultStore(out).load().values()
    won = sum(1 for r in rows if r["outcome"] == "won")
    assert f"3 games (0 failed): the table won {won} (" in printed
    assert "per game: bosses defeated" in printed and "final danger level" in printed
    html = (out / "report.html").read_text()
    assert "<h1>Simulation: White Maiden (3 games)</h1>" in html
    assert "<h2>Bosses</h2>" in html and "Urza, the Mad King (Kether)" in html
    assert (out / "charts" / "bosses_defeated.png").stat().st_size > 1000
