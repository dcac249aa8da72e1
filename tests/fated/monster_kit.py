"""Helpers for monster tests: put monsters anywhere, run an owner's activation, and replay one
situation under many seeds (the monsters' choices are random; every run is seeded)."""

from __future__ import annotations

from collections.abc import Iterator

from delve.fated import monsters, visibility
from delve.fated.grid import DIRECTIONS, OPPOSITE, step
from delve.fated.state import Monster, decode, encode
from delve.kernel import Event, Rng

from .scenario import Scenario


def put(game: Scenario, seat: int, kind: str, x: int, y: int, heading: str = "right") -> Monster:
    """A monster of ``seat`` on (x, y) heading ``heading``, summoned through ``monsters.summon``
    as if its owner stood right behind it (the owner goes back to where it was)."""
    owner = game.p(seat)
    home = owner.pos
    n = game.state.size
    tile = game.at(x, y)
    behind = step(tile, OPPOSITE[heading], n)
    if behind is None:
        behind = next(t for d in DIRECTIONS if (t := step(tile, d, n)) is not None)
    owner.pos = behind
    try:
        ctx = game.ctx
        monster = monsters.summon(ctx, owner, kind, tile)
        game.events.extend(ctx.events)
    finally:
        owner.pos = home
    monster.heading = heading
    game.refresh()
    return monster


def activate(game: Scenario, seat: int) -> list[Event]:
    """Run the monsters of ``seat`` as at its turn-start event."""
    ctx = game.ctx
    monsters.activate(ctx, seat)
    visibility.refresh(ctx)
    game.events.extend(ctx.events)
    return ctx.events


def reseeded(game: Scenario, seed: int) -> Scenario:
    """An independent copy of the game whose RNG is seeded with ``seed``."""
    copy = Scenario(decode(encode(game.state)))
    copy.now = game.now
    copy.state.rng = Rng.seeded(seed)
    return copy


def runs(game: Scenario, seat: int, seeds: int = 60) -> Iterator[tuple[Scenario, list[Event]]]:
    """For each seed, a copy of ``game`` after one activation of ``seat``'s monsters."""
    for seed in range(seeds):
        copy = reseeded(game, seed)
        yield copy, activate(copy, seat)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def xy_of(game: Scenario, monster_id: int) -> tuple[int, int] | None:
    monster = game.state.monster(monster_id)
    if monster is None:
        return None
    y, x = divmod(monster.pos, game.state.size)
    return x, y
