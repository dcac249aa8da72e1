"""The engine fuzzer (delve.fuzz): a short run in the suite, and proof that each of its checks
fires. The full run (>= 1,000 games, >= 1,000,000 commands) is ``delve fuzz`` (docs/testing.md)."""

from __future__ import annotations

import json

import pytest

from delve.fated import combat, disclosure
from delve.fuzz import Report, run, run_game
from delve.fuzz.cli import main
from delve.fuzz.fated import FatedTarget
from delve.kernel import IllegalCommand
from tests.fated.cardkit import arena, place_trap
from tests.fated.test_traps_fakes import CORRIDOR, step_on


def test_a_short_fuzz_run_finds_no_crash_violation_or_leak():
    """Both presets, legal, illegal and malformed commands: only IllegalCommand on bad input, the
    state unchanged by every refusal, the invariants kept, and no view shows a hidden fact."""
    report = run(FatedTarget(), games=6, commands=1_500, seed=11)
    assert report.clean, "\n".join(report.summary())
    assert report.games >= 6 and report.commands >= 1_500
    assert set(report.presets) == {"fated-labyrinth", "level-d"}
    assert {"legal", "malformed", "wrong", "stale", "other seat's"} <= set(report.kinds)
    assert report.accepted > 100 and report.refused > 100 and report.views > 1_000
    assert {"command/malformed", "command/unknown_kind", "command/no_such_seat"} <= set(report.codes)


def test_the_command_line_prints_the_numbers_and_exits_0_when_clean(capsys):
    assert main(["--games", "2", "--commands", "200", "--quiet", "--preset", "level-d"]) == 0
    out = capsys.readouterr().out
    assert "crashes: 0   invariant violations: 0   leaks found: 0" in out and "level-d" in out
    assert main(["--game", "chess", "--quiet"]) == 2


def test_a_leaked_trap_setter_is_found(monkeypatch):
    """Put the bug of the outside probe back (a trap hit naming its setter, and no second guard in
    the allow-list): the fuzzer finds it in the defender's view and in the public log."""
    monkeypatch.setattr(combat, "public_source", lambda item: item.source)
    monkeypatch.setattr(disclosure, "data", disclosure.FIELDS.data)
    game = arena(rows=CORRIDOR)
    place_trap(game, 4, 3, "attack-40", setter=0)
    step_on(game, 1, "right")
    target = FatedTarget()
    assert any("trap's setter" in leak for leak in target.leaks(game.state, 1, game.view(1), game.events))
    game.play(1, {"kind": "no_defense"})
    for seat in (None, 2):
        found = target.leaks(game.state, seat, game.view(seat), game.events)
        assert any("names a trap's setter" in leak for leak in found)


@pytest.mark.parametrize(
    ("plant", "finding"),
    [
        (lambda view, g: view["players"][1].update(hand=g.p(1).hand), "own field outside 'you'"),
        (lambda view, g: view["events"].append({"kind": "card.drawn", "time": 1, "card": 7}), "physical card id"),
        (lambda view, g: view["you"].update(rng=[g.state.rng.s0]), "RNG state"),
        (lambda view, g: view["you"].update(peek=list(g.state.deck[-4:])), "draw pile's order"),
        (lambda view, g: view["characters"].append(_far_player(g)), "out of sight"),
        (lambda view, g: view.__setitem__("map", {**view["map"], "tiles": "x" + view["map"]["tiles"][1:]}), "tile 0"),
        (lambda view, g: view["players"][2].pop("hidden", None) or view["players"][2].update(stored_turns=1), "'you'"),
        (lambda view, g: view["events"].insert(0, {"kind": "comment", "time": g.now, "player": 1}), "public log"),
        (lambda view, g: view["you"]["messages"].insert(0, {"kind": "turn.ready", "time": g.now}), "own messages"),
    ],
    ids=[
        "other hand",
        "card id in the log",
        "rng",
        "deck order",
        "unseen player",
        "unseen tile",
        "stored turns",
        "an event not in the log",
        "a message not for the viewer",
    ],
)
def test_each_hidden_fact_planted_in_a_view_is_found(plant, finding):
    """The hidden-facts checker is not vacuous: each kind of leak planted in a real view is found."""
    game = arena()
    view = json.loads(json.dumps(game.view(0)))
    assert FatedTarget().leaks(game.state, 0, view, game.events) == []
    plant(view, game)
    found = FatedTarget().leaks(game.state, 0, view, game.events)
    assert any(finding in text for text in found), found


def _far_player(game):
    far = max(game.state.players[1:], key=lambda p: abs(p.pos - game.p(0).pos))
    x, y = far.pos % game.state.size, far.pos // game.state.size
    game.p(0).memory = game.p(0).memory  # the viewer's memory is untouched
    return {"type": "player", "seat": far.seat, "number": far.number, "tile": [x, y], "you": False, "in_sight": True}


def test_a_crash_and_a_refusal_that_changes_the_state_are_counted(monkeypatch):
    """Anything but IllegalCommand is a crash; a refusal must leave the state as it was."""
    target = FatedTarget()
    real_apply = target.ruleset.apply
    calls = {"n": 0}

    def faulty(state, seat, command, now):
        calls["n"] += 1
        if calls["n"] == 5:
            state.players[0].hp -= 1
            raise IllegalCommand("command/illegal", "refused after a change")
        if calls["n"] == 9:
            raise KeyError("boom")
        return real_apply(state, seat, command, now)

    monkeypatch.setattr(target.ruleset, "apply", faulty)
    report = Report(target="fated")
    run_game(target, "fated-labyrinth", 1, 50, report)
    assert report.crashes == 1 and "KeyError" in report.examples["crashes"][0]
    assert report.violations >= 1 and any("changed the state" in v for v in report.examples["violations"])
