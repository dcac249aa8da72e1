"""Helpers for card tests: an open arena, finding the legal command for a card kind, and
defending with a card kind. Everything goes through ``legal_commands``/``apply``."""

from __future__ import annotations

from typing import Any

from delve.fated.state import Trap

from .scenario import Scenario

#: Seats 1 and 2 stand side by side in the middle; 3 and 4 far away in the bottom corners.
ARENA = [
    ".......",
    ".......",
    ".......",
    "..12...",
    ".......",
    ".......",
    "3.....4",
]


def arena(classes: list[str] | None = None, rows: list[str] | None = None, **settings: Any) -> Scenario:
    """A scenario on ``rows`` (default ARENA) where nobody evades (evasion 0) unless a test
    says otherwise."""
    game = Scenario.from_map(rows or ARENA, classes=classes or ["explorer", "warrior", "priest", "thief"], **settings)
    for player in game.state.players:
        player.evasion = 0
    return game


def kind_of(game: Scenario, card: int) -> str:
    return game.ctx.card(card).id


def card_command(game: Scenario, seat: int, kind: str, **params: Any) -> dict[str, Any]:
    """The legal ``use_card`` command for a card of ``kind`` in the seat's hand with exactly
    these parameters (``use``, ``dir``, ``target``, ``monster``)."""
    for command in game.legal(seat):
        if command["kind"] != "use_card" or kind_of(game, command["card"]) != kind:
            continue
        extra = {k: v for k, v in command.items() if k not in {"kind", "card"}}
        if extra == params:
            return command
    offered = [c for c in game.legal(seat) if c["kind"] == "use_card" and kind_of(game, c["card"]) == kind]
    raise AssertionError(f"no legal use of {kind} with {params}; offered: {offered}")


def has_use(game: Scenario, seat: int, kind: str, **params: Any) -> bool:
    try:
        card_command(game, seat, kind, **params)
    except AssertionError:
        return False
    return True


def use(game: Scenario, seat: int, kind: str, **params: Any) -> list[Any]:
    """Play a card of ``kind`` (given to the seat first if it has none) with these parameters;
    the seat must be in its core phase."""
    if kind not in [kind_of(game, c) for c in game.p(seat).hand]:
        game.give(seat, kind)
    return game.play(seat, card_command(game, seat, kind, **params))


def defend(game: Scenario, seat: int, kind: str) -> list[Any]:
    """Defend the current item with a card of ``kind`` from the seat's hand."""
    for command in game.legal(seat):
        if command["kind"] == "defend" and kind_of(game, command["card"]) == kind:
            return game.play(seat, command)
    raise AssertionError(f"{kind} is not offered: {game.legal(seat)}")


def offered_defenses(game: Scenario, seat: int) -> set[str]:
    """The defense methods offered now: card kinds, plus no_defense / parry."""
    out = set()
    for command in game.legal(seat):
        if command["kind"] == "defend":
            out.add(kind_of(game, command["card"]))
        elif command["kind"] in {"no_defense", "parry"}:
            out.add(command["kind"])
    return out


def place_trap(game: Scenario, x: int, y: int, kind: str, setter: int) -> int:
    tile = game.at(x, y)
    game.state.traps[tile] = Trap(card=kind, setter=setter)
    return tile


def events(game: Scenario, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in game.events if e.kind == kind]
