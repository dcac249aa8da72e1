"""How each game is simulated: ``delve.sim.games.<game>.play(spec) -> row`` plays one complete
game in-process through the Ruleset contract, with bots that see only their seat's view and
legal commands, and returns one CSV-able row (values str, int, float, bool or None; lists and
dicts as JSON strings) with at least :data:`delve.sim.spec.COMMON_COLUMNS`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

from delve.sim.spec import GameSpec

Player = Callable[[GameSpec], dict[str, Any]]


class NoSimulation(LookupError):
    """The game has no simulation module (yet)."""


def available() -> list[str]:
    """The games that have a simulation module."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def player(game: str) -> Player:
    """The ``play`` function of ``delve.sim.games.<game>`` (imported on first use).

    :raises NoSimulation: naming the game and the games that can be simulated.
    """
    if not game.isidentifier() or game not in available():
        raise NoSimulation(
            f"no simulation for game {game!r}: there is no module delve.sim.games.{game} "
            f"(games that can be simulated: {', '.join(available()) or 'none'})"
        )
    module = importlib.import_module(f"delve.sim.games.{game}")
    play: Player = module.play
    return play
