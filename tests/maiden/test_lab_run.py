"""``delve lab report`` as a run (spec §8's lab): its games made one at a time while they are
played, a progress line at once and an honest ETA, a documented limit on --games and the page's
warnings printed in the terminal too."""

from __future__ import annotations

import io
import itertools
import time

import pytest

from delve.cli import main
from delve.maiden.lab import games, report
from delve.maiden.lab.answers import Answer, Table
from delve.sim import runner
from delve.sim.spec import GameSpec, seeded_specs


def test_the_lab_makes_its_games_one_at_a_time_seed_by_seed():
    """A million seeds per cell is 64 million games: they are made as they are played, and the
    first ones are one of every cell (a fair sample for the ETA)."""
    started = time.monotonic()
    first = list(itertools.islice(games.iter_specs(1_000_000), 2 * len(games.cells())))
    assert time.monotonic() - started < 5
    assert games.count(1_000_000) == 64_000_000 == 64 * 1_000_000
    cells = len(games.cells())
    assert [s.seed for s in first] == [1] * cells + [2] * cells
    assert len({s.tag for s in first[:cells]}) == cells
    assert len(games.specs(3)) == games.count(3)
    with pytest.raises(ValueError, match="below 1"):
        games.iter_specs(0)


def test_a_streamed_run_shows_its_progress_line_before_the_first_game(tmp_path):
    """Games given as an iterator with their count: the progress line is written at once, the
    games are taken as they are played, and a second run reads them all back (resumed)."""
    made: list[int] = []

    def lazily():
        for spec in seeded_specs("fated", range(1, 3), ["heuristic"], 4, settings={"maze_size": 9}):
            made.append(spec.seed)
            yield spec

    stream = io.StringIO()
    original = runner.play_one

    def play(spec: GameSpec):
        assert "0/2" in stream.getvalue() and "ETA estimating..." in stream.getvalue()
        return original(spec)

    runner.play_one = play  # type: ignore[assignment]
    try:
        rows = runner.run(lazily(), total=2, out=tmp_path, stream=stream)
    finally:
        runner.play_one = original  # type: ignore[assignment]
    assert [r["seed"] for r in rows] == [1, 2] and made == [1, 2]
    stream = io.StringIO()
    again = runner.run(lazily(), total=2, out=tmp_path, stream=stream)
    assert [r["key"] for r in again] == [r["key"] for r in rows]
    assert stream.getvalue().splitlines()[-1].startswith("[########################] 2/2 100.0% (2 resumed)")


def test_the_eta_waits_for_measured_progress():
    """The ETA is measured on the games played, once estimate_after of them are done: before,
    the line says "estimating..." rather than promise a time from the first fast games."""
    stream = io.StringIO()
    bar = runner.Progress(100, stream=stream, estimate_after=10)
    bar.started -= 10.0
    bar.advance(5)
    assert "ETA estimating..." in bar.line()
    bar.advance(5)
    assert "1.00 games/s" in bar.line() and "ETA 1m30s" in bar.line()


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["lab", "report", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_report_games_above_the_limit_is_one_line_naming_it(capsys, tmp_path):
    """--games above report.MAX_GAMES: one line naming --games and the limit, exit 2, at once,
    nothing made; the help states the same limit."""
    started = time.monotonic()
    code, out, err = cli(capsys, "--out", str(tmp_path / "DIR"), "--games", "1000000")
    assert time.monotonic() - started < 5
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("delve lab report: error: argument --games: 1000000 is above the limit of 2000")
    assert report.MAX_GAMES == 2000 and "128,000 games" in err
    assert not (tmp_path / "DIR").exists()
    with pytest.raises(ValueError, match="above the limit"):
        report.build(tmp_path / "DIR", games_per_cell=report.MAX_GAMES + 1, progress=False)
    code, out, _ = cli(capsys, "--help")
    assert code == 0 and "at most 2000" in out


def test_the_too_few_games_warning_is_printed_in_the_terminal(capsys, monkeypatch, tmp_path):
    """The page's warning ("Too few games to answer ...") is printed at the end of the run too."""

    def build(out, **kwargs):
        page = out / "report.html"
        page.write_text("", encoding="utf-8")
        return page, [Answer("BQ-1", "t", "h", 0.0, "exact", tables=[Table(["a"], [])])]

    monkeypatch.setattr(report, "build", build)
    code, out, _ = cli(capsys, "--out", str(tmp_path), "--games", "3", "--quiet")
    assert code == 0
    assert "1 answers" in out and "warning: Too few games to answer: at 3 seeds per cell" in out
    code, out, _ = cli(capsys, "--out", str(tmp_path), "--games", "12", "--quiet")
    assert code == 0 and "warning:" not in out
