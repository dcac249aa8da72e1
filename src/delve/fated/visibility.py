"""Fog of war (FL-VIS): sight, what each player perceives on a tile, remembered tiles and
knowledge of traps and fakes.

Memory is a string per player with one character per tile: ``?`` unexplored, a terrain code as
perceived (a fake shows as the real thing unless known), ``o`` an own trap, ``x`` a known enemy
trap. It is refreshed after every change, so a tile out of sight keeps the last terrain its
player saw there (FL-VIS-3, AMB-15).
"""

from __future__ import annotations

import functools

from delve.fated import statuses
from delve.fated.ctx import Ctx
from delve.fated.grid import EXIT, FAKE_EXIT, FAKE_TREASURE, TREASURE, xy
from delve.fated.state import GameState, Player

UNEXPLORED, OWN_TRAP, KNOWN_TRAP = "?", "o", "x"
_FAKES = frozenset({FAKE_TREASURE, FAKE_EXIT})


def sight(ctx: Ctx, player: Player) -> frozenset[int]:
    """FL-VIS-1, AMB-14: tiles within the sight radius (Chebyshev by default, not blocked by
    walls). A dead player sees nothing."""
    if not player.alive:
        return frozenset()
    radius = statuses.sight_radius(ctx, player)
    return _area(player.pos, radius, ctx.state.size, ctx.state.settings.sight_metric == "manhattan")


@functools.lru_cache(maxsize=8192)
def _area(center: int, radius: int, n: int, manhattan: bool) -> frozenset[int]:
    """The tiles within ``radius`` of ``center`` (a pure function of its arguments, cached)."""
    px, py = xy(center, n)
    tiles = set()
    for y in range(max(0, py - radius), min(n, py + radius + 1)):
        for x in range(max(0, px - radius), min(n, px + radius + 1)):
            if manhattan and abs(x - px) + abs(y - py) > radius:
                continue
            tiles.add(y * n + x)
    return frozenset(tiles)


def knows_trap(state: GameState, seat: int, tile: int) -> bool:
    trap = state.traps.get(tile)
    return trap is not None and (trap.setter == seat or seat in trap.known)


def knows_fake(state: GameState, seat: int, tile: int) -> bool:
    fake = state.fakes.get(tile)
    return fake is not None and (fake.setter == seat or seat in fake.known)


def perceived(state: GameState, seat: int, tile: int) -> str:
    """What ``seat`` sees on ``tile`` now: fakes look real unless known (FL-VIS-8), own traps
    are ``o`` (FL-VIS-9), known enemy traps ``x`` (FL-VIS-10), unknown traps look like floor."""
    terrain = state.grid[tile]
    if terrain == FAKE_TREASURE and not knows_fake(state, seat, tile):
        return TREASURE
    if terrain == FAKE_EXIT and not knows_fake(state, seat, tile):
        return EXIT
    trap = state.traps.get(tile)
    if trap is not None:
        if trap.setter == seat:
            return OWN_TRAP
        if seat in trap.known:
            return KNOWN_TRAP
    return terrain


def learn_trap(state: GameState, seat: int, tile: int) -> None:
    trap = state.traps.get(tile)
    if trap is not None and trap.setter != seat and seat not in trap.known:
        trap.known.append(seat)


def learn_fake(state: GameState, seat: int, tile: int) -> None:
    fake = state.fakes.get(tile)
    if fake is not None and fake.setter != seat and seat not in fake.known:
        fake.known.append(seat)


def refresh_player(ctx: Ctx, player: Player) -> None:
    """Update one player's knowledge (Insight, FL-STS-17) and memory of the tiles in sight."""
    if not player.alive:
        return
    state = ctx.state
    tiles = sight(ctx, player)
    if statuses.active(player, "insight", ctx):
        for tile in tiles:
            if tile in state.traps:
                learn_trap(state, player.seat, tile)
            if tile in state.fakes:
                learn_fake(state, player.seat, tile)
    memory = list(player.memory)
    grid, traps = state.grid, state.traps
    for tile in tiles:
        terrain = grid[tile]
        if tile in traps or terrain in _FAKES:
            terrain = perceived(state, player.seat, tile)
        memory[tile] = terrain
    player.memory = "".join(memory)
    if player.seen_since_exit:
        seen = list(player.seen_since_exit)
        for tile in tiles:
            seen[tile] = "1"
        player.seen_since_exit = "".join(seen)


def refresh(ctx: Ctx) -> None:
    for player in ctx.state.players:
        refresh_player(ctx, player)
