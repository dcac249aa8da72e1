"""The seeded maze generator of Fated Labyrinth and Level D (FL-MAP, AMB-57, AMB-58).

:func:`generate` builds the starting map of a game from the settings ``maze_size``, ``players``,
``ice_rate``, ``treasure_count`` and ``door_rate`` and the game's :class:`~delve.kernel.Rng`.
It is deterministic: the same settings and the same generator state give the same maze. The
generator is advanced; nothing else is read.

The steps, in the order they draw from the generator:

1. **Walls** (AMB-58). A "pillar" maze: a wall pillar stands on every tile whose coordinates
   are both odd (1, 3, ... up to N-2), and each pillar is extended by one wall tile in a uniformly
   random direction. The outer ring is left open (the corners must stay floor). When some floor is
   walled off from the rest, the pillars whose extensions enclose such a pocket draw their
   direction again, until the floor is one connected region. Re-drawing only the walls around a
   pocket, instead of the whole layout, keeps generation fast on large mazes (a whole new layout
   is connected in 80% of the draws at 13x13 but only in 3% at 41x41) and yields the same kind of
   maze. Most pillar mazes are trees with a few loops: long corridors, dead ends and junctions.
2. **Doors**. ``floor(N² x door_rate / 100)`` wall tiles, chosen uniformly among the walls that
   separate two floor tiles in a straight line (floor left and right, or above and below), become
   doors. Doors only replace walls, so the floor stays connected with every door closed; a
   destroyed door opens a shortcut.
3. **Checkpoints** on the four corners (FL-MAP-10).
4. **Start positions** (AMB-57). The maze is split into four equal quadrants of side
   ``(N - 1) // 2`` in its corners; for an odd N the middle row and column (for an even N the two
   middle rows and columns) belong to no quadrant, so every quadrant has the same size and players
   of different quadrants never start next to each other. ``players / 4`` seats, chosen at random,
   start in each quadrant, on random distinct normal-floor tiles that are not the corner and are
   at least 2 tiles (Chebyshev) from every other start. If the random picks leave no room for a
   quadrant's last player, that quadrant is placed again on "room" tiles only (both coordinates
   even: they are never walls and are pairwise 2 apart), which always fits when
   :func:`check_fits` accepts the settings.
5. **Treasures** (FL-MAP-11): ``treasure_count`` normal-floor tiles, never a start, a corner or a
   tile orthogonally adjacent to a corner (so nobody takes a checkpoint and a treasure in one
   step). To spread them fairly, treasures go round the quadrants in pairs of diagonally opposite
   quadrants (two treasures are always in opposite quadrants; four are one per quadrant), each in
   its quadrant's half of the maze (the middle lines count for both sides); and each treasure is
   preferably at least 3 tiles (Chebyshev) from every start and every other treasure, i.e. out of
   every player's starting sight. When no tile meets the preference the quadrant restriction is
   dropped, then the distance.
6. **Ice** (FL-MAP-14): ``floor(N² x ice_rate / 100)`` normal-floor tiles, uniformly among those
   that are not a start (treasures and corners are not normal floor).

Every passable tile is reachable from every start through passable tiles, with the doors closed
(ice, checkpoints and treasures are passable); in particular no start is boxed in, and since
starts are 2 apart, every start has a free neighbouring tile.

Percentages are read as the decimal numbers the operator typed (``0.57`` is exactly 57/100), so
the rounding down of FL-MAP-14 never loses a tile to binary floating point.
"""

from __future__ import annotations

import math
from fractions import Fraction

import msgspec

from delve.fated.grid import CHECKPOINT, DOOR, FLOOR, ICE, TREASURE, WALL, corners, neighbours
from delve.kernel.errors import SettingsError, number_text
from delve.kernel.rng import Rng

START_SPACING = 2
"""Minimum Chebyshev distance between two start positions (AMB-57)."""

TREASURE_CLEARANCE = 3
"""Preferred Chebyshev distance from a treasure to every start and every other treasure: one more
than the base sight radius of 2 (FL-VIS-1), so no treasure is in sight when the game starts."""

MAX_REPAIR_ROUNDS = 1000
"""Safety cap on re-drawing the walls around walled-off pockets. Measured over thousands of
mazes, the first re-draw has always opened every pocket, so the cap is never reached in practice."""


class Maze(msgspec.Struct, frozen=True):
    """A generated starting map.

    ``grid`` holds ``size * size`` terrain characters (see :mod:`delve.fated.grid`), row-major:
    the tile at column ``x``, row ``y`` is ``grid[y * size + x]``. ``starts[s]`` is the start tile
    index of seat ``s``.
    """

    size: int
    grid: str
    starts: tuple[int, ...]

    def at(self, x: int, y: int) -> str:
        """The terrain at column ``x``, row ``y``."""
        return self.grid[y * self.size + x]

    def rows(self) -> list[str]:
        """The grid as one string per row, top to bottom (handy for printing and tests)."""
        n = self.size
        return [self.grid[y * n : (y + 1) * n] for y in range(n)]


def amount(area: int, rate_percent: float) -> int:
    """``floor(area x rate_percent / 100)`` computed exactly on the decimal value of the rate
    (FL-MAP-14, AMB-58): 5% of 169 tiles is 8."""
    return math.floor(Fraction(str(rate_percent)) * area / 100)


def not_multiple_of_4(players: object, rule: str = "") -> SettingsError:
    """The refusal of a number of players that is not 4, 8, 12... (FL-CFG-2), with its words for
    people in both languages."""
    return SettingsError(
        "players",
        f"must be a multiple of 4 (4, 8, 12, ...), got {players!r}" + (f" {rule}" if rule else ""),
        expected="rule",
        got=players,
        words={
            "en": f"enter a multiple of 4: 4, 8, 12 ... (you entered {players}).",
            "ja": f"4の倍数（4、8、12…）で指定してください（入力：{players}）。",
        },
    )


def check_fits(
    *, size: int, players: int, ice_rate_percent: float, treasure_count: int, door_rate_percent: float
) -> None:
    """Refuse settings for which :func:`generate` could fail, before any game is set up.

    The checks hold for every wall layout the generator can draw: at most two wall tiles per
    pillar, "room" tiles (both coordinates even) always floor, every pillar extension a door
    candidate. So settings accepted here always generate.

    :raises SettingsError: naming the setting (``players``, ``maze_size``, ``treasure_count``,
        ``ice_rate`` or ``door_rate``) with the reason and the limit; a limit that comes from the
        other settings (the maze too small for the players, too many doors, treasures or ice) is a
        ``"rule"`` with its words for people in English and Japanese.
    """
    if not _is_int(players) or players < 4 or players % 4:
        raise not_multiple_of_4(players)
    if not _is_int(size) or size < 1:
        raise SettingsError("maze_size", f"must be a positive integer, got {size!r}")
    if not _is_int(treasure_count) or treasure_count < 1:
        raise SettingsError("treasure_count", f"must be a positive integer, got {treasure_count!r}")
    for key, rate in (("ice_rate", ice_rate_percent), ("door_rate", door_rate_percent)):
        if not _is_percentage(rate):
            raise SettingsError(key, f"must be a percentage from 0 to 100, got {rate!r}")

    per_quadrant = players // 4
    if _start_capacity(size) < per_quadrant:
        smallest = size + 1
        while _start_capacity(smallest) < per_quadrant:
            smallest += 1
        raise SettingsError(
            "maze_size",
            f"a {size}x{size} maze has room for {_start_capacity(size)} start(s) per quadrant, "
            f"{players} players need {per_quadrant}: maze_size must be at least {smallest}",
            expected="rule",
            got=size,
            words={
                "en": f"a {size}×{size} maze is too small for {players} players: each corner quarter has room "
                f"for {_start_capacity(size)} start(s), {players} players need {per_quadrant}. Enter at least "
                f"{smallest}, or fewer players.",
                "ja": f"{size}×{size}の迷宮は{players}人には狭すぎます：四隅の各区画のスタート地点は"
                f"{_start_capacity(size)}か所、{players}人には{per_quadrant}か所必要です。{smallest}以上にするか、"
                "プレイ人数を減らしてください。",
            },
        )

    area = size * size
    pillars = _pillar_count(size)
    doors = amount(area, door_rate_percent)
    # Each pillar extension is a door candidate; a tile is the extension of at most two pillars.
    door_room = (pillars + 1) // 2
    if doors > door_room:
        door_pct = number_text(door_rate_percent)
        raise SettingsError(
            "door_rate",
            f"{door_rate_percent}% of a {size}x{size} maze is {doors} doors, but only {door_room} "
            "walls are sure to stand between two floor tiles",
            expected="rule",
            got=door_rate_percent,
            words={
                "en": f"{door_pct}% of a {size}×{size} maze is {doors} doors, but only {door_room} walls are sure "
                "to stand between two floor tiles: enter a lower rate or a larger maze.",
                "ja": f"{size}×{size}の迷宮の{door_pct}%は扉{doors}枚ですが、床と床の間に必ず立つ壁は"
                f"{door_room}枚だけです。率を下げるか、迷宮を広くしてください。",
            },
        )
    # Normal floor that surely remains once walls, corners and starts are placed.
    free = area - 2 * pillars - 4 - players
    treasure_room = free - 8  # treasures never touch a corner
    if treasure_count > treasure_room:
        most = max(treasure_room, 0)
        raise SettingsError(
            "treasure_count",
            f"{treasure_count} treasures do not fit in a {size}x{size} maze with {players} players: at most {most}",
            expected="rule",
            got=treasure_count,
            words={
                "en": f"{treasure_count} treasures do not fit in a {size}×{size} maze with {players} players: "
                f"at most {most}, or a larger maze.",
                "ja": f"{players}人の{size}×{size}の迷宮に財宝{treasure_count}個は置けません：{most}個までにするか、"
                "迷宮を広くしてください。",
            },
        )
    ice = amount(area, ice_rate_percent)
    if ice + treasure_count > free:
        ice_pct = number_text(ice_rate_percent)
        left = max(free - treasure_count, 0)
        raise SettingsError(
            "ice_rate",
            f"{ice_rate_percent}% of a {size}x{size} maze is {ice} frozen tiles, but with {players} "
            f"players and {treasure_count} treasures only {left} floor tiles are sure to be free",
            expected="rule",
            got=ice_rate_percent,
            words={
                "en": f"{ice_pct}% of a {size}×{size} maze is {ice} frozen tiles, but with {players} players and "
                f"{treasure_count} treasures only {left} floor tiles are sure to be free: enter a lower rate, "
                "fewer treasures or a larger maze.",
                "ja": f"{size}×{size}の迷宮の{ice_pct}%は氷床{ice}マスですが、{players}人・財宝{treasure_count}個では"
                f"確実に空く床は{left}マスだけです。率か財宝数を下げるか、迷宮を広くしてください。",
            },
        )


def generate(
    *,
    size: int,
    players: int,
    ice_rate_percent: float,
    treasure_count: int,
    door_rate_percent: float,
    rng: Rng,
) -> Maze:
    """A new maze for these settings, drawn from ``rng`` (which is advanced).

    See the module docstring for the steps and the choices made where the rules leave room.

    :raises SettingsError: as :func:`check_fits`, when the settings cannot give a valid maze.
    """
    check_fits(
        size=size,
        players=players,
        ice_rate_percent=ice_rate_percent,
        treasure_count=treasure_count,
        door_rate_percent=door_rate_percent,
    )
    n = size
    area = n * n
    wall = _walls(n, rng)
    cells = [WALL if w else FLOOR for w in wall]

    candidates = _door_candidates(wall, n)
    for i in _sample(rng, candidates, amount(area, door_rate_percent)):
        cells[i] = DOOR
    for c in corners(n):
        cells[c] = CHECKPOINT

    starts = _place_starts(cells, n, players // 4, rng)
    taken = set(starts)
    for i in _place_treasures(cells, n, starts, treasure_count, rng):
        cells[i] = TREASURE
    ice_pool = [i for i in range(area) if cells[i] == FLOOR and i not in taken]
    for i in _sample(rng, ice_pool, amount(area, ice_rate_percent)):
        cells[i] = ICE
    return Maze(size=n, grid="".join(cells), starts=tuple(starts))


# --- settings helpers -----------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_percentage(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and 0 <= value <= 100


def _pillar_count(n: int) -> int:
    return max(0, (n - 1) // 2) ** 2


# --- quadrants --------------------------------------------------------------------------------


def _quadrant_ranges(n: int, quadrant: int, *, middle: bool = False) -> tuple[range, range]:
    """Columns and rows of a quadrant: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.

    With ``middle`` the quadrant's half of the maze, middle lines included, instead.
    """
    h = (n - 1) // 2
    low, high = (range(n - h), range(h, n)) if middle else (range(h), range(n - h, n))
    return (high if quadrant & 1 else low), (high if quadrant & 2 else low)


def _rooms(n: int, quadrant: int) -> list[int]:
    """The quadrant's tiles with both coordinates even, except its corner: never walls, and
    pairwise at least 2 apart."""
    xs, ys = _quadrant_ranges(n, quadrant)
    corner = corners(n)[quadrant]
    return [y * n + x for y in ys if y % 2 == 0 for x in xs if x % 2 == 0 if y * n + x != corner]


def _start_capacity(n: int) -> int:
    """How many starts every quadrant can hold, whatever the walls."""
    return min(len(_rooms(n, q)) for q in range(4))


# --- walls ------------------------------------------------------------------------------------


def _walls(n: int, rng: Rng) -> bytearray:
    """The pillar maze as a 0/1 wall mask, with every floor tile connected (AMB-58)."""
    pillars = [y * n + x for y in range(1, n - 1, 2) for x in range(1, n - 1, 2)]
    offsets = (-n, n, -1, 1)  # up, down, left, right; pillars are never on the outer ring
    extension: dict[int, int] = {}
    for p in pillars:
        extension[p] = p + offsets[rng.below(4)]
    for _ in range(MAX_REPAIR_ROUNDS):
        wall = bytearray(n * n)
        for p, e in extension.items():
            wall[p] = wall[e] = 1
        pockets = _pockets(wall, n)
        if not pockets:
            return wall
        # The pillars whose extensions wall in a pocket draw their direction again.
        redraw = {p for i in pockets for e in neighbours(i, n) for p in neighbours(e, n) if extension.get(p) == e}
        for p in sorted(redraw):
            extension[p] = p + offsets[rng.below(4)]
    raise RuntimeError(f"could not connect the floor of a {n}x{n} maze in {MAX_REPAIR_ROUNDS} rounds")


def _pockets(wall: bytearray, n: int) -> list[int]:
    """The floor tiles cut off from the largest floor region (empty when the floor is connected)."""
    area = n * n
    label = [0] * area
    sizes = [0]
    for origin in range(area):
        if wall[origin] or label[origin]:
            continue
        mark = len(sizes)
        label[origin] = mark
        stack = [origin]
        count = 0
        while stack:
            i = stack.pop()
            count += 1
            for j in neighbours(i, n):
                if not wall[j] and not label[j]:
                    label[j] = mark
                    stack.append(j)
        sizes.append(count)
    if len(sizes) <= 2:
        return []
    main = max(range(1, len(sizes)), key=sizes.__getitem__)
    return [i for i in range(area) if label[i] and label[i] != main]


def _door_candidates(wall: bytearray, n: int) -> list[int]:
    """Wall tiles with floor on both sides in a straight line (left and right, or up and down)."""
    result = []
    for i in range(n * n):
        if not wall[i]:
            continue
        y, x = divmod(i, n)
        if (0 < x < n - 1 and not wall[i - 1] and not wall[i + 1]) or (
            0 < y < n - 1 and not wall[i - n] and not wall[i + n]
        ):
            result.append(i)
    return result


# --- starts and items -------------------------------------------------------------------------


def _sample(rng: Rng, pool: list[int], k: int) -> list[int]:
    """``k`` distinct elements of ``pool`` in random order (a partial Fisher-Yates shuffle of
    ``pool`` in place: ``k`` draws instead of ``len(pool)``)."""
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def _block(mask: bytearray, i: int, n: int, distance: int) -> None:
    """Mark every tile closer than ``distance`` (Chebyshev) to tile ``i``."""
    y, x = divmod(i, n)
    r = distance - 1
    for yy in range(max(0, y - r), min(n, y + r + 1)):
        row = yy * n
        mask[row + max(0, x - r) : row + min(n, x + r + 1)] = b"\x01" * (min(n, x + r + 1) - max(0, x - r))


def _place_starts(cells: list[str], n: int, per_quadrant: int, rng: Rng) -> list[int]:
    """Start tiles in seat order (AMB-57); see step 4 of the module docstring."""
    seats_quadrant = [q for q in range(4) for _ in range(per_quadrant)]
    rng.shuffle(seats_quadrant)
    corner_tiles = corners(n)
    starts = [0] * len(seats_quadrant)
    for quadrant in range(4):
        xs, ys = _quadrant_ranges(n, quadrant)
        pool = [y * n + x for y in ys for x in xs if cells[y * n + x] == FLOOR and y * n + x != corner_tiles[quadrant]]
        blocked = bytearray(n * n)
        chosen: list[int] = []
        while len(chosen) < per_quadrant and pool:
            pick = pool[rng.below(len(pool))]
            chosen.append(pick)
            _block(blocked, pick, n, START_SPACING)
            pool = [i for i in pool if not blocked[i]]
        if len(chosen) < per_quadrant:
            chosen = _sample(rng, _rooms(n, quadrant), per_quadrant)
        seats = [s for s, q in enumerate(seats_quadrant) if q == quadrant]
        for seat, tile in zip(seats, chosen, strict=True):
            starts[seat] = tile
    return starts


def _place_treasures(cells: list[str], n: int, starts: list[int], count: int, rng: Rng) -> list[int]:
    """Treasure tiles; see step 5 of the module docstring."""
    near_corner = {j for c in corners(n) for j in neighbours(c, n)}
    taken = set(starts)
    eligible = [i for i in range(n * n) if cells[i] == FLOOR and i not in taken and i not in near_corner]
    blocked = bytearray(n * n)
    for s in starts:
        _block(blocked, s, n, TREASURE_CLEARANCE)
    # Pairs of opposite quadrants (top-left/bottom-right, top-right/bottom-left), in random order.
    first = rng.below(4)
    second = rng.choice([q for q in range(4) if q not in (first, 3 - first)])
    order = (first, 3 - first, second, 3 - second)
    treasures: list[int] = []
    for k in range(count):
        xs, ys = _quadrant_ranges(n, order[k % 4], middle=True)
        spaced = [i for i in eligible if not blocked[i]]
        pool = [i for i in spaced if i % n in xs and i // n in ys] or spaced or eligible
        pick = pool[rng.below(len(pool))]
        treasures.append(pick)
        eligible.remove(pick)
        _block(blocked, pick, n, TREASURE_CLEARANCE)
    return treasures
