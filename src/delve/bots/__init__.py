"""Computer players. A bot sees exactly what a human in its seat sees: the seat's view and its
legal commands (plus the public content: card and monster tables). It never reads a state.

Bots are found by game and name through one registry:

- ``names(game)``: the bot names a game (a ruleset name: ``fated``, ``maiden``) has, the default first;
- ``named(game, name, seed=..., settings=...)``: a new bot of that name. ``seed`` feeds the bots
  that draw at random (``random``); ``settings`` are the game's public settings (White Maiden's
  heuristic reads its variants from them). A name may carry an option after a colon: White
  Maiden's ``heuristic:piety_first`` (or ``piety-first``) is the heuristic with that growth strategy.
  Unknown games, names and options raise :class:`UnknownBot`;
- ``bot_for(game)``: the default bot of a game (the one live tables use), or None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The command to play now, or None to wait (nothing worth doing)."""
        ...


class UnknownBot(ValueError):
    """A game or bot name the registry does not know; the message lists the known ones."""


Factory = Callable[[int, Mapping[str, Any], str | None], Bot]


def _no_option(name: str, option: str | None) -> None:
    if option is not None:
        raise UnknownBot(f"the bot {name!r} takes no option (got {option!r})")


def _fated_heuristic(seed: int, settings: Mapping[str, Any], option: str | None) -> Bot:
    from delve.bots.fated import HeuristicFatedBot

    _no_option("heuristic", option)
    return HeuristicFatedBot()


def _fated_basic(seed: int, settings: Mapping[str, Any], option: str | None) -> Bot:
    from delve.bots.fated import FatedBot

    _no_option("basic", option)
    return FatedBot()


def _fated_random(seed: int, settings: Mapping[str, Any], option: str | None) -> Bot:
    from delve.bots.fated import RandomFatedBot

    _no_option("random", option)
    return RandomFatedBot(seed)


def _maiden_heuristic(seed: int, settings: Mapping[str, Any], option: str | None) -> Bot:
    from delve.bots.maiden import STRATEGIES, MaidenBot

    strategy = (option or STRATEGIES[0]).replace("-", "_")
    if strategy not in STRATEGIES:
        raise UnknownBot(f"no strategy {option!r} for the heuristic; known: {', '.join(STRATEGIES)}")
    return MaidenBot(strategy, settings=settings)


def _maiden_random(seed: int, settings: Mapping[str, Any], option: str | None) -> Bot:
    from delve.bots.maiden import RandomMaidenBot

    _no_option("random", option)
    return RandomMaidenBot(seed)


#: game -> bot name -> factory; the first name of a game is its default bot.
REGISTRY: Mapping[str, Mapping[str, Factory]] = {
    "fated": {"heuristic": _fated_heuristic, "basic": _fated_basic, "random": _fated_random},
    "maiden": {"heuristic": _maiden_heuristic, "random": _maiden_random},
}


def names(game: str) -> tuple[str, ...]:
    """The bot names of ``game``, its default first.

    :raises UnknownBot: when the game has no bots.
    """
    try:
        return tuple(REGISTRY[game])
    except KeyError:
        raise UnknownBot(f"no bots for game {game!r}; games with bots: {', '.join(REGISTRY)}") from None


def named(game: str, name: str, *, seed: int = 0, settings: Mapping[str, Any] | None = None) -> Bot:
    """A new bot called ``name`` for ``game`` (e.g. ``named("fated", "heuristic")``).

    :raises UnknownBot: naming the game or the bot and listing the known ones.
    """
    known = names(game)
    base, colon, option = name.partition(":")
    if base not in known:
        raise UnknownBot(f"no bot {base!r} for game {game!r}; known: {', '.join(known)}")
    return REGISTRY[game][base](seed, dict(settings or {}), option if colon else None)


def bot_for(ruleset: str, settings: Mapping[str, Any] | None = None) -> Bot | None:
    """The default bot of a ruleset (the first of :func:`names`), or None when it has none."""
    if ruleset not in REGISTRY:
        return None
    return named(ruleset, names(ruleset)[0], settings=settings)
