"""The runner (delve.sim.runner.run): the same rows whatever the number of processes, rows in
the order of the specs, results.csv written as games finish, interrupted runs resumed, a failing
game recorded rather than hidden, and a progress bar with games/s and an ETA."""

from __future__ import annotations

import io

import pytest

from delve.sim import runner
from delve.sim.games import fated
from delve.sim.spec import GameSpec, SpecError, seeded_specs

FAST = {"maze_size": 9}


def specs(seeds=range(1, 5), **kwargs):
    return seeded_specs("fated", seeds, ["heuristic"], 4, settings=FAST, **kwargs)


def without_time(rows):
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.fixture(scope="module")
def serial():
    return runner.run(specs(), jobs=1, progress=False)


def test_rows_come_in_the_order_of_the_specs_with_their_keys(serial):
    assert [r["seed"] for r in serial] == [1, 2, 3, 4]
    assert [r["key"] for r in serial] == [s.key() for s in specs()]


def test_two_processes_give_the_same_rows_as_one(serial):
    assert without_time(runner.run(specs(), jobs=2, progress=False)) == without_time(serial)


def test_results_csv_holds_every_game_and_a_second_run_plays_nothing(tmp_path, serial, monkeypatch):
    first = runner.run(specs(), out=tmp_path, progress=False)
    assert without_time(first) == without_time(serial)
    assert len((tmp_path / "results.csv").read_text().splitlines()) == 1 + 4

    def fail(game):
        raise AssertionError("a finished game was played again")

    monkeypatch.setattr(runner, "player", fail)
    monkeypatch.setattr(runner, "check", lambda specs: None)
    assert runner.run(specs(), out=tmp_path, progress=False) == first


def test_an_interrupted_run_resumes_with_the_games_it_has_not_played(tmp_path, serial, monkeypatch):
    played: list[int] = []

    def interrupted_after_two(game):
        def play(spec):
            if len(played) == 2:
                raise KeyboardInterrupt
            played.append(spec.seed)
            return fated.play(spec)

        return play

    monkeypatch.setattr(runner, "player", interrupted_after_two)
    with pytest.raises(KeyboardInterrupt):
        runner.run(specs(), out=tmp_path, progress=False)
    assert len((tmp_path / "results.csv").read_text().splitlines()) == 1 + 2

    def counting(game):
        def play(spec):
            played.append(spec.seed)
            return fated.play(spec)

        return play

    monkeypatch.setattr(runner, "player", counting)
    resumed = runner.run(specs(), out=tmp_path, progress=False)
    assert played == [1, 2, 3, 4]  # seeds 1 and 2 before the interruption, 3 and 4 after it
    assert without_time(resumed) == without_time(serial)


def test_a_game_that_fails_gets_an_error_row_and_the_others_go_on(monkeypatch):
    def flaky(game):
        def play(spec):
            if spec.seed == 2:
                raise RuntimeError("the engine broke")
            return fated.play(spec)

        return play

    monkeypatch.setattr(runner, "player", flaky)
    rows = runner.run(specs(range(1, 4)), progress=False)
    assert [r["outcome"] == "error" for r in rows] == [False, True, False]
    assert rows[1]["error"].startswith("RuntimeError: the engine broke (test_runner.py:")
    assert rows[1]["seed"] == 2 and rows[1]["winner"] == ""


def test_a_spec_the_game_refuses_stops_the_run_before_any_game_is_played(tmp_path):
    bad = [*specs(range(1, 3)), GameSpec.of("fated", 3, ["heuristic"] * 3)]
    with pytest.raises(SpecError, match="3 bots for the 4 seats"):
        runner.run(bad, out=tmp_path, progress=False)
    assert not (tmp_path / "results.csv").exists()
    with pytest.raises(SpecError, match="jobs"):
        runner.run(specs(), jobs=0, progress=False)


def test_the_same_spec_twice_is_played_once(monkeypatch):
    played: list[int] = []

    def counting(game):
        def play(spec):
            played.append(spec.seed)
            return fated.play(spec)

        return play

    monkeypatch.setattr(runner, "player", counting)
    twice = [*specs(range(1, 2)), *specs(range(1, 2))]
    rows = runner.run(twice, progress=False)
    assert played == [1] and rows[0] == rows[1]


def test_the_progress_bar_shows_games_per_second_and_the_eta():
    stream = io.StringIO()
    bar = runner.Progress(10, 4, stream=stream, estimate_after=2)
    bar.started -= 3.0  # three seconds ago
    bar.shown = -100.0
    bar.advance(2)
    assert "6/10" in stream.getvalue() and "(4 resumed)" in stream.getvalue()
    assert "0.67 games/s" in stream.getvalue() and "ETA 0m06s" in stream.getvalue()
    bar.close()
    assert stream.getvalue().splitlines()[-1].endswith("in 0m03s")
    runner.run(specs(range(1, 2)), stream=stream, progress=True)
    assert "1/1 100.0%" in stream.getvalue()
