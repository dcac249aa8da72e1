"""Fog of war (FL-VIS): sight, what each player perceives on a tile, remembered tiles and
knowledge of traps and fakes.

Memory is a string per player with one character per tile: ``?`` unexplored, a terrain code as
perceived (a fake shows as the real thing unless known), ``o`` an own trap, ``x`` a known enemy
trap. It is refreshed after every change, so a tile out of sight keeps the last terrain its
player saw there (FL-VIS-3, AMB-15). A refresh visits only the tiles in sight that changed since
the player's last one (see "incremental refresh" below); the result is the same as visiting all.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

import msgspec

from delve.fated import statuses
from delve.fated.ctx import Ctx
from delve.fated.grid import EXIT, FAKE_EXIT, FAKE_TREASURE, TREASURE, xy
from delve.fated.state import Fake, GameState, Player, Status, Trap

UNEXPLORED, OWN_TRAP, KNOWN_TRAP = "?", "o", "x"
_FAKES = frozenset({FAKE_TREASURE, FAKE_EXIT})


def sight(ctx: Ctx, player: Player) -> frozenset[int]:
    """FL-VIS-1, AMB-14: tiles within the sight radius (Chebyshev by default, not blocked by
    walls). A dead player sees nothing."""
    if not player.alive:
        return frozenset()
    return within(ctx.state, player.pos, statuses.sight_radius(ctx, player))


def within(state: GameState, center: int, radius: int) -> frozenset[int]:
    """The tiles within ``radius`` of ``center`` by the game's sight metric (FL-VIS-1, AMB-14)."""
    return _area(center, radius, state.size, state.settings.sight_metric == "manhattan")


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


def perceived_in(state: GameState, player: Player, tiles: Iterable[int]) -> str:
    """The player's memory with ``tiles`` as it perceives them now."""
    memory = player.memory
    grid, traps = state.grid, state.traps
    changes = []
    for tile in tiles:
        terrain = grid[tile]
        if tile in traps or terrain in _FAKES:
            terrain = perceived(state, player.seat, tile)
        if memory[tile] != terrain:
            changes.append((tile, terrain))
    return _written(memory, changes) if changes else memory


def memory_in_sight(state: GameState, player: Player, radius: int, tiles: Iterable[int]) -> str:
    """:func:`perceived_in` for the tiles of the player's sight now (``radius``: its sight
    radius now): its memory itself when its last refresh wrote those tiles in the world as it is
    now (nothing it perceives there changed since), else found again."""
    cache: _Cache | None = state.__dict__.get("_sight_cache")
    if cache is not None:
        seen = cache.seats.get(player.seat)
        if (
            seen is not None
            and seen.memory is player.memory
            and seen.key[0] == player.pos
            and seen.key[1] == radius
            and seen.key[2] == (state.settings.sight_metric == "manhattan")
            and cache.current(state) is seen.world
        ):
            return player.memory
    return perceived_in(state, player, tiles)


def learn_trap(state: GameState, seat: int, tile: int) -> bool:
    """``seat`` knows the trap on ``tile`` from now on; returns whether that is news."""
    trap = state.traps.get(tile)
    if trap is not None and trap.setter != seat and seat not in trap.known:
        trap.known.append(seat)
        return True
    return False


def learn_fake(state: GameState, seat: int, tile: int) -> bool:
    """``seat`` knows the fake on ``tile`` from now on; returns whether that is news."""
    fake = state.fakes.get(tile)
    if fake is not None and fake.setter != seat and seat not in fake.known:
        fake.known.append(seat)
        return True
    return False


def refresh_player(ctx: Ctx, player: Player) -> None:
    """Update one player's knowledge (Insight, FL-STS-17) and memory of the tiles in sight."""
    if not player.alive:
        return
    state = ctx.state
    cache = _cache(state)
    world = cache.current(state)
    if _refresh(ctx, player, cache, world, state.settings.sight_metric == "manhattan"):
        cache.settle(state, (player.seat,))


def stale(state: GameState, player: Player) -> list[int]:
    """Tiles in a living player's sight whose memory differs from what it perceives there (none
    after any refresh: an invariant of the engine)."""
    if not player.alive:
        return []
    radius = statuses.sight_radius(Ctx(state, state.clock), player)
    tiles = _area(player.pos, radius, state.size, state.settings.sight_metric == "manhattan")
    return sorted(t for t in tiles if player.memory[t] != perceived(state, player.seat, t))


def refresh(ctx: Ctx) -> None:
    """:func:`refresh_player` for every living player, in seat order."""
    state = ctx.state
    cache = _cache(state)
    world = cache.current(state)
    manhattan = state.settings.sight_metric == "manhattan"
    seats = cache.seats
    learned = False
    for player in state.players:
        if not player.alive:
            continue
        seen = seats.get(player.seat)
        if (
            seen is not None
            and seen.world is world
            and seen.memory is player.memory
            and seen.seen_since_exit is player.seen_since_exit
            and seen.key[0] == player.pos
            and (
                (seen.statuses == player.statuses and seen.cls == player.cls and seen.key[2] == manhattan)
                or _same_sight(ctx, cache, seen, player, manhattan)
            )
        ):
            continue  # nothing it sees or remembers changed (what ``_refresh`` would find)
        learned = _refresh(ctx, player, cache, world, manhattan) or learned
    if learned:
        cache.settle(state, [p.seat for p in state.players if p.alive])


# ---------------------------------------------------------------- incremental refresh
#
# A refresh writes, for every tile in a player's sight, what the player perceives there into its
# memory (and learns the traps and fakes there under Insight). What a player perceives on a tile
# depends only on that tile: its terrain, its trap (setter and knowers) and its fake (setter and
# knowers). So after a refresh, a later refresh changes nothing on the tiles of an unchanged
# sight whose terrain, trap and fake are unchanged. The cache below remembers, per seat, the
# sight, the world and the memory of its last refresh, and the next refresh only visits the tiles
# of its sight that changed since, and those that were not in its last sight when the sight moved
# or changed its radius (all of them when Insight began or ended, or the memory or the
# seen-since-exit marks were written elsewhere). Changes are found by comparing
# snapshots, not by hooks in the rules, so a state changed in any way still refreshes exactly.
# The cache lives beside the state (never serialized); a decoded or copied state starts without
# one and its first refresh visits every tile in sight.

_Snapshot = dict[int, tuple[int, tuple[int, ...]]]
_World = tuple[str, _Snapshot, _Snapshot]


class _Seen(msgspec.Struct, frozen=True):
    """What a seat's memory was made from at its last refresh. A struct, not a named tuple: its
    fields are read at every refresh of every player, and in Python 3.11 a named tuple's field
    is read through a generic attribute lookup (about three times the cost of a slot)."""

    key: tuple[int, int, bool, bool]  # position, sight radius, Manhattan metric, Insight
    world: _World
    memory: str
    seen_since_exit: str
    statuses: list[Status]  # copies of the statuses and the class the radius was read from
    cls: str


class _Cache:
    __slots__ = ("copies", "last_change", "seats", "world")

    def __init__(self) -> None:
        self.world: _World | None = None
        self.copies: tuple[dict[int, Trap], dict[int, Fake]] = ({}, {})
        self.seats: dict[int, _Seen] = {}
        self.last_change: tuple[_World, _World, frozenset[int]] | None = None

    def changed(self, old: _World, new: _World) -> frozenset[int]:
        """:func:`_changed`, found once for the seats that last refreshed in the same world."""
        last = self.last_change
        if last is None or last[0] is not old or last[1] is not new:
            last = self.last_change = (old, new, frozenset(_changed(old, new)))
        return last[2]

    def current(self, state: GameState) -> _World:
        """The world as it is now; the previous snapshot object itself when nothing changed.
        The traps and fakes are first compared with copies of them as they were (equal traps and
        fakes give equal snapshots), and the snapshot is only made again when they differ."""
        world = self.world
        traps_then, fakes_then = self.copies
        if world is not None and state.traps == traps_then and state.fakes == fakes_then and world[0] == state.grid:
            return world
        self.copies = (
            {t: msgspec.structs.replace(trap, known=list(trap.known)) for t, trap in state.traps.items()},
            {t: msgspec.structs.replace(fake, known=list(fake.known)) for t, fake in state.fakes.items()},
        )
        traps = {t: (trap.setter, tuple(trap.known)) for t, trap in state.traps.items()}
        fakes = {t: (fake.setter, tuple(fake.known)) for t, fake in state.fakes.items()}
        if world is not None and world[0] == state.grid and world[1] == traps and world[2] == fakes:
            return world
        self.world = (state.grid, traps, fakes)
        return self.world

    def settle(self, state: GameState, seats: Iterable[int]) -> None:
        """Learning under Insight changed who knows some traps and fakes; that changes only what
        the learners perceive, which their refresh already wrote: the refreshed seats are up to
        date with the world as it is now."""
        world = self.current(state)
        for seat in seats:
            seen = self.seats.get(seat)
            if seen is not None:
                self.seats[seat] = msgspec.structs.replace(seen, world=world)


def _cache(state: GameState) -> _Cache:
    cache = state.__dict__.get("_sight_cache")
    if cache is None:
        cache = state.__dict__["_sight_cache"] = _Cache()
    return cache


def _refresh(ctx: Ctx, player: Player, cache: _Cache, world: _World, manhattan: bool) -> bool:
    """Refresh one living player; returns whether it learned a trap or a fake."""
    state = ctx.state
    key = _key(ctx, player, manhattan)
    _, radius, _, insight = key
    seen = cache.seats.get(player.seat)
    tiles: AbstractSet[int] = _area(player.pos, radius, state.size, manhattan)
    if (
        seen is not None
        and seen.key[2:] == key[2:]
        and seen.memory is player.memory
        and seen.seen_since_exit is player.seen_since_exit
    ):
        if seen.key == key and seen.world is world:
            # the statuses changed, not the sight: remember them as read now
            cache.seats[player.seat] = msgspec.structs.replace(seen, statuses=_copies(player.statuses), cls=player.cls)
            return False
        # The tiles of the last refresh's sight are up to date where the world did not change.
        before = seen.key
        fresh = tiles - _area(before[0], before[1], state.size, manhattan) if before != key else frozenset()
        if seen.world is not world:
            fresh |= tiles & cache.changed(seen.world, world)
        tiles = fresh
    learned = False
    if insight:
        for tile in tiles:
            if tile in state.traps:
                learned = learn_trap(state, player.seat, tile) or learned
            if tile in state.fakes:
                learned = learn_fake(state, player.seat, tile) or learned
    player.memory = perceived_in(state, player, tiles)
    marks = player.seen_since_exit
    if marks:
        unmarked = [(tile, "1") for tile in tiles if marks[tile] != "1"]
        if unmarked:
            player.seen_since_exit = _written(marks, unmarked)
    copies = _copies(player.statuses)
    cache.seats[player.seat] = _Seen(key, world, player.memory, player.seen_since_exit, copies, player.cls)
    return learned


def _copies(found: list[Status]) -> list[Status]:
    return [msgspec.structs.replace(status) for status in found]


def _same_sight(ctx: Ctx, cache: _Cache, seen: _Seen, player: Player, manhattan: bool) -> bool:
    """Whether the player's sight key is still the one of its last refresh (its radius and
    Insight are read again only when its statuses or class changed since; when the key is the
    same, the statuses and class are remembered as read now, as :func:`_refresh` does)."""
    key = seen.key
    if key[0] != player.pos or key[2] != manhattan:
        return False
    if seen.statuses == player.statuses and seen.cls == player.cls:
        return True
    if key != _key(ctx, player, manhattan):
        return False
    cache.seats[player.seat] = msgspec.structs.replace(seen, statuses=_copies(player.statuses), cls=player.cls)
    return True


def _key(ctx: Ctx, player: Player, manhattan: bool) -> tuple[int, int, bool, bool]:
    """What a player's sight depends on: position, sight radius, metric and Insight."""
    radius, insight = statuses.sight(ctx, player)
    return (player.pos, radius, manhattan, insight)


def _written(text: str, changes: list[tuple[int, str]]) -> str:
    """``text`` with single characters replaced (the memory strings hold ASCII only)."""
    if len(changes) == 1:
        tile, char = changes[0]
        return text[:tile] + char + text[tile + 1 :]
    buffer = bytearray(text, "ascii")
    for tile, char in changes:
        buffer[tile] = ord(char)
    return buffer.decode("ascii")


def _changed(old: _World, new: _World) -> set[int]:
    """The tiles whose terrain, trap or fake differs between two snapshots."""
    tiles: set[int] = set()
    if old[0] != new[0]:
        tiles.update(_differing(old[0], new[0]))
    for before, after in ((old[1], new[1]), (old[2], new[2])):
        if before != after:
            tiles.update(t for t in before.keys() | after.keys() if before.get(t) != after.get(t))
    return tiles


def _differing(a: str, b: str) -> list[int]:
    """The indexes where two strings of the same length differ (found between the common prefix
    and the common suffix, which are located by comparing slices)."""
    if len(a) != len(b):
        return list(range(max(len(a), len(b))))
    low, high = 0, len(a)
    while low < high:  # the longest common prefix
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    first = low
    low, high = 0, len(a) - first
    while low < high:  # the longest common suffix after it
        middle = (low + high + 1) // 2
        if a[len(a) - middle :] == b[len(b) - middle :]:
            low = middle
        else:
            high = middle - 1
    return [i for i in range(first, len(a) - low) if a[i] != b[i]]
