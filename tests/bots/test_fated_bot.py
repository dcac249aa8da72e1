"""The Fated bot: it plays only legal commands, from its own view, and finishes games."""

from __future__ import annotations

import inspect

import pytest

from delve.bots import bot_for
from delve.bots.fated import FatedBot, first_step
from tests.fated.playout import RULESET, new_playout
from tests.fated.scenario import Scenario


def bots_play(preset: str, seed: int, limit: int = 4000) -> tuple[int, object]:
    playout = new_playout(preset, seed, abandon_time="100h")
    state, now, bot, played = playout.state, playout.now, FatedBot(), 0
    while not state.ended and played < limit:
        now += 7
        playout.record(RULESET.advance(state, now))
        for seat in range(len(state.players)):
            legal = RULESET.legal_commands(state, seat)
            command = bot.choose(playout.view(seat), legal)
            if command is None:
                continue
            assert command in legal, (command, legal)
            playout.record(RULESET.apply(state, seat, command, now))
            played += 1
    return played, state


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_bots_play_whole_games_with_legal_commands_only(preset):
    """Four (eight) bots finish a game: every choice is one of the seat's legal commands."""
    endings = set()
    for seed in range(3):
        played, state = bots_play(preset, seed)
        assert state.ended, f"seed {seed}: still running after {played} commands"
        endings.add(state.win_kind)
    assert endings <= {"survivor", "escape", "none"}


def test_a_bot_decides_from_the_view_and_legal_commands_only():
    """design.md: bots use only the public engine API and views (never the state)."""
    parameters = list(inspect.signature(FatedBot.choose).parameters)
    assert parameters == ["self", "view", "legal"]
    assert bot_for("fated") is not None and bot_for("toy") is None


def test_a_bot_is_deterministic_for_the_same_view():
    g = Scenario.new()
    g.start_turn(0)
    view, legal = g.view(0), g.legal(0)
    assert FatedBot().choose(view, legal) == FatedBot().choose(view, legal)


def test_a_bot_starts_its_turn_grabs_treasure_and_waits_when_nothing_is_left():
    g = Scenario.from_map(
        [
            "C.......C",
            ".........",
            "...1T....",
            ".........",
            "....2....",
            ".........",
            "...3.....",
            "....4....",
            "C.......C",
        ]
    )
    bot = FatedBot()
    g.make_ready(0)
    assert bot.choose(g.view(0), g.legal(0)) == {"kind": "start_turn"}
    g.play(0, {"kind": "start_turn"})
    assert bot.choose(g.view(0), g.legal(0)) == {"kind": "move", "dir": "right"}
    g.play(0, {"kind": "move", "dir": "right"})
    assert bot.choose(g.view(0), g.legal(0)) == {"kind": "stay"}
    g.play(0, {"kind": "stay"})
    assert bot.choose(g.view(0), g.legal(0)) == {"kind": "pick_up"}
    g.play(0, {"kind": "pick_up"})
    assert bot.choose(g.view(0), g.legal(0)) is None  # waiting: nothing to do


def test_the_path_avoids_walls_and_known_traps():
    view = {
        "map": {"size": 3, "tiles": ".#.\n.x.\n...".replace("\n", "")},
        "you": {"tile": [0, 0]},
        "characters": [],
    }
    assert first_step(view, [2]) == "down"
