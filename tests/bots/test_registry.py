"""The bot registry: bots by game and name (``delve.bots.named``), for the simulator and the tables."""

from __future__ import annotations

import pytest

from delve.bots import UnknownBot, bot_for, named, names
from delve.bots.fated import FatedBot, RandomFatedBot
from delve.bots.maiden import MaidenBot, RandomMaidenBot
from tests.fated.scenario import Scenario


def test_every_game_lists_its_bots_default_first():
    assert names("fated")[0] == "heuristic"
    assert {"heuristic", "basic", "random"} <= set(names("fated"))
    assert names("maiden") == ("heuristic", "random")


def test_named_builds_a_new_bot_of_the_asked_kind():
    assert isinstance(named("fated", "basic"), FatedBot)
    assert isinstance(named("fated", "random", seed=3), RandomFatedBot)
    assert isinstance(named("maiden", "heuristic"), MaidenBot)
    assert isinstance(named("maiden", "random", seed=3), RandomMaidenBot)
    assert named("fated", "random") is not named("fated", "random")


def test_a_white_maiden_heuristic_takes_its_growth_strategy_after_a_colon():
    bot = named("maiden", "heuristic:piety-first")
    assert isinstance(bot, MaidenBot) and bot.strategy == "piety_first"
    assert named("maiden", "heuristic:balanced").strategy == "balanced"
    with pytest.raises(UnknownBot, match="no strategy 'greedy'"):
        named("maiden", "heuristic:greedy")
    with pytest.raises(UnknownBot, match="takes no option"):
        named("fated", "random:7")


def test_unknown_games_and_names_are_refused_with_the_known_ones():
    with pytest.raises(UnknownBot, match=r"no bot 'genius' for game 'fated'; known: heuristic, basic, random"):
        named("fated", "genius")
    with pytest.raises(UnknownBot, match=r"no bots for game 'chess'; games with bots: fated, maiden"):
        named("chess", "heuristic")
    assert isinstance(UnknownBot("x"), ValueError)


def test_bot_for_gives_the_default_bot_or_none():
    assert bot_for("toy") is None
    assert bot_for("fated") is not None and bot_for("maiden") is not None


def test_the_random_bot_plays_a_legal_command_reproducibly_from_its_seed():
    g = Scenario.new()
    g.start_turn(0)
    view, legal = g.view(0), g.legal(0)
    picks = [named("fated", "random", seed=7).choose(view, legal) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in legal
    assert picks[0]["kind"] not in ("give_up", "comment")
