"""The seeded maze generator (FL-MAP, AMB-57 start positions, AMB-58 generation, FL-CFG settings).

Each property is checked on 1,000 seeds of both presets; the mazes are generated once per module.
"""

from __future__ import annotations

from collections import Counter, deque
from functools import cache
from itertools import product

import msgspec
import pytest

from delve.fated.grid import (
    CHECKPOINT,
    DOOR,
    FLOOR,
    ICE,
    PASSABLE,
    TREASURE,
    WALL,
    chebyshev,
    corners,
    index,
    neighbours,
    xy,
)
from delve.fated.maze import Maze, amount, check_fits, generate
from delve.kernel import Rng, SettingsError

FATED_LABYRINTH = {"size": 13, "players": 4, "ice_rate_percent": 5, "treasure_count": 2, "door_rate_percent": 3}
LEVEL_D = {"size": 15, "players": 8, "ice_rate_percent": 5, "treasure_count": 4, "door_rate_percent": 3}
LARGE = {"size": 21, "players": 12, "ice_rate_percent": 5, "treasure_count": 6, "door_rate_percent": 3}
EVEN = {"size": 14, "players": 8, "ice_rate_percent": 5, "treasure_count": 4, "door_rate_percent": 3}
CRAMPED = {"size": 7, "players": 12, "ice_rate_percent": 5, "treasure_count": 1, "door_rate_percent": 3}
SEEDS = range(1000)

PRESETS = {"fated-labyrinth": FATED_LABYRINTH, "level-d": LEVEL_D}
ALL = {**PRESETS, "21x21-12-players": LARGE, "even-14x14": EVEN, "cramped-7x7-12-players": CRAMPED}
FEW_SEEDS = {"21x21-12-players": range(200), "even-14x14": range(200), "cramped-7x7-12-players": range(300)}


@cache
def mazes(name: str) -> tuple[Maze, ...]:
    settings = ALL[name]
    return tuple(generate(**settings, rng=Rng.seeded(seed)) for seed in FEW_SEEDS.get(name, SEEDS))  # type: ignore[arg-type]


def every_setting():
    return pytest.mark.parametrize("name", list(ALL))


def quadrant_of(i: int, n: int) -> int | None:
    """0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right; None on the middle lines."""
    h = (n - 1) // 2
    x, y = xy(i, n)
    col = 0 if x < h else 1 if x >= n - h else None
    row = 0 if y < h else 1 if y >= n - h else None
    if col is None or row is None:
        return None
    return row * 2 + col


def halves_of(i: int, n: int) -> set[int]:
    """The quadrants whose half of the maze (middle lines included) holds tile i."""
    h = (n - 1) // 2
    x, y = xy(i, n)
    cols = {c for c, ok in ((0, x < n - h), (1, x >= h)) if ok}
    rows = {r for r, ok in ((0, y < n - h), (1, y >= h)) if ok}
    return {r * 2 + c for r in rows for c in cols}


def balanced(quadrants: tuple[int, ...]) -> bool:
    """Treasures spread in pairs of opposite quadrants: quadrant counts differ by at most one, and
    opposite quadrants hold the same number (but for one pair when the count is odd)."""
    count = Counter(quadrants)
    per_quadrant = [count[q] for q in range(4)]
    uneven_pairs = sum(count[q] != count[3 - q] for q in (0, 1))
    return max(per_quadrant) - min(per_quadrant) <= 1 and uneven_pairs <= len(quadrants) % 2


def reachable(maze: Maze, start: int) -> set[int]:
    """Tiles reachable from start through passable terrain, doors closed (orthogonal steps)."""
    n = maze.size
    seen = {start}
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for j in neighbours(i, n):
            if j not in seen and maze.grid[j] in PASSABLE:
                seen.add(j)
                queue.append(j)
    return seen


def tiles(maze: Maze, terrain: str) -> list[int]:
    return [i for i, t in enumerate(maze.grid) if t == terrain]


# --- shape and terrain ----------------------------------------------------------------------


@every_setting()
def test_the_maze_is_a_square_of_maze_size_tiles(name):
    """FL-MAP-1, FL-MAP-2: N x N tiles, row-major."""
    n = ALL[name]["size"]
    for maze in mazes(name):
        assert maze.size == n
        assert len(maze.grid) == n * n
        assert maze.rows()[0] == maze.grid[:n]
        assert maze.at(n - 1, 1) == maze.grid[index(n - 1, 1, n)]


@every_setting()
def test_a_new_maze_holds_only_floor_walls_doors_ice_checkpoints_and_treasures(name):
    """FL-MAP-12, FL-MAP-13: no exit and no fake exists at game start."""
    for maze in mazes(name):
        assert set(maze.grid) <= {FLOOR, WALL, DOOR, ICE, CHECKPOINT, TREASURE}


@every_setting()
def test_checkpoints_are_exactly_the_four_corners(name):
    """FL-MAP-10, FL-CFG-7: exactly four checkpoints, one on each corner tile."""
    for maze in mazes(name):
        assert tiles(maze, CHECKPOINT) == sorted(corners(maze.size))


@every_setting()
def test_walls_are_a_pillar_maze(name):
    """FL-MAP-16, AMB-58: a wall pillar on every odd x odd tile inside the outer ring, each extended
    by one wall tile; no other walls (doors included, they were walls)."""
    for maze in mazes(name):
        n = maze.size
        pillars = {index(x, y, n) for y in range(1, n - 1, 2) for x in range(1, n - 1, 2)}
        blocked = set(tiles(maze, WALL)) | set(tiles(maze, DOOR))
        assert pillars <= blocked
        extensions = blocked - pillars
        assert len(extensions) <= len(pillars)
        for e in extensions:
            assert any(p in pillars for p in neighbours(e, n)), xy(e, n)


# --- reachability ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_passable_tile_is_reachable_from_every_start_on_1000_seeds(name):
    """FL-MAP-3, FL-MAP-4, FL-MAP-7, FL-MAP-8, FL-MAP-9, AMB-58: walking orthogonally inside the grid
    through passable tiles only (walls and closed doors block, ice does not), every start reaches
    every passable tile: checkpoints, treasures, ice and the other starts."""
    assert len(mazes(name)) == 1000
    for maze in mazes(name):
        passable = {i for i, t in enumerate(maze.grid) if t in PASSABLE}
        region = reachable(maze, maze.starts[0])
        assert region == passable
        # The region is one connected component, so every other start reaches the same tiles.
        assert set(maze.starts) <= region


@pytest.mark.parametrize("name", ["21x21-12-players", "even-14x14", "cramped-7x7-12-players"])
def test_every_passable_tile_is_reachable_in_other_settings(name):
    """FL-MAP-3, FL-MAP-9, AMB-58"""
    for maze in mazes(name):
        assert reachable(maze, maze.starts[-1]) == {i for i, t in enumerate(maze.grid) if t in PASSABLE}


@every_setting()
def test_no_start_is_boxed_in(name):
    """FL-MAP-3, FL-MAP-5, AMB-57: every start has a passable neighbour that no other player holds."""
    for maze in mazes(name):
        for s in maze.starts:
            assert any(j not in maze.starts and maze.grid[j] in PASSABLE for j in neighbours(s, maze.size))


# --- ice, doors, treasures ------------------------------------------------------------------


@every_setting()
def test_ice_count_is_the_ice_rate_of_the_area_rounded_down(name):
    """FL-MAP-14, AMB-58: floor(N² x ice_rate / 100) frozen tiles (8 at 13x13, 11 at 15x15)."""
    settings = ALL[name]
    expected = amount(settings["size"] ** 2, settings["ice_rate_percent"])
    for maze in mazes(name):
        assert len(tiles(maze, ICE)) == expected
    if name == "fated-labyrinth":
        assert expected == 8
    if name == "level-d":
        assert expected == 11


def test_rates_are_read_as_exact_decimals():
    """FL-MAP-14, AMB-58: rounding down never loses a tile to binary floating point."""
    assert amount(169, 5) == 8
    assert amount(225, 3) == 6
    assert amount(10_000, 0.57) == 57  # 0.57 * 10_000 / 100 is 56.99999999999999 in floats
    assert amount(100, 100) == 100
    assert amount(100, 0) == 0


def test_ice_is_spread_over_the_whole_maze():
    """FL-MAP-14: ice lands on random floor tiles, not always in the same place."""
    where = Counter(i for maze in mazes("fated-labyrinth") for i in tiles(maze, ICE))
    floor_like = {i for maze in mazes("fated-labyrinth") for i in tiles(maze, FLOOR)}
    assert len(where) > 0.9 * len(floor_like)


@every_setting()
def test_doors_stand_between_two_floor_tiles_in_a_straight_line(name):
    """FL-MAP-8, AMB-58: floor(N² x door_rate / 100) doors, each with passable terrain on both
    sides left and right, or up and down."""
    settings = ALL[name]
    expected = amount(settings["size"] ** 2, settings["door_rate_percent"])
    for maze in mazes(name):
        n = maze.size
        doors = tiles(maze, DOOR)
        assert len(doors) == expected
        for d in doors:
            x, y = xy(d, n)
            across = 0 < x < n - 1 and {maze.at(x - 1, y), maze.at(x + 1, y)} <= PASSABLE
            along = 0 < y < n - 1 and {maze.at(x, y - 1), maze.at(x, y + 1)} <= PASSABLE
            assert across or along, (x, y)


@every_setting()
def test_treasure_count_and_placement(name):
    """FL-MAP-11, AMB-58: treasure_count treasures on tiles that are not a start, not a corner and not
    orthogonally adjacent to a corner."""
    settings = ALL[name]
    for maze in mazes(name):
        n = maze.size
        treasures = tiles(maze, TREASURE)
        assert len(treasures) == settings["treasure_count"]
        near_corner = {j for c in corners(n) for j in neighbours(c, n)}
        assert not set(treasures) & (near_corner | set(corners(n)) | set(maze.starts))


@pytest.mark.parametrize("name", [*PRESETS, "21x21-12-players"])
def test_treasures_are_spread_out_and_out_of_starting_sight(name):
    """FL-MAP-11, FL-MAP-16: a preference, not a rule, so it is measured: nearly always every treasure
    is at least 3 tiles (Chebyshev) from every start and every other treasure (out of starting
    sight), and the treasures take turns between the halves of opposite quadrants (two treasures:
    opposite halves; four: one half each)."""
    spaced = spread = 0
    for maze in mazes(name):
        n = maze.size
        treasures = tiles(maze, TREASURE)
        spaced += all(chebyshev(t, u, n) >= 3 for t in treasures for u in [*maze.starts, *treasures] if u != t)
        spread += any(balanced(pick) for pick in product(*(halves_of(t, n) for t in treasures)))
    assert spaced >= 0.99 * len(mazes(name))
    assert spread >= 0.99 * len(mazes(name))


# --- start positions ------------------------------------------------------------------------


@every_setting()
def test_start_positions(name):
    """FL-MAP-5, AMB-57: one start per seat, distinct, on normal floor (not a corner, ice or
    treasure), players/4 in each quadrant, every two at least 2 tiles apart (Chebyshev)."""
    settings = ALL[name]
    players = settings["players"]
    for maze in mazes(name):
        n = maze.size
        assert len(maze.starts) == players
        assert len(set(maze.starts)) == players
        assert all(maze.grid[s] == FLOOR for s in maze.starts)
        assert not set(maze.starts) & set(corners(n))
        assert Counter(quadrant_of(s, n) for s in maze.starts) == {q: players // 4 for q in range(4)}
        for a in maze.starts:
            assert all(chebyshev(a, b, n) >= 2 for b in maze.starts if b != a)


@pytest.mark.parametrize("name", list(PRESETS))
def test_seats_are_assigned_to_quadrants_at_random(name):
    """AMB-57: seat 1 is not always in the same quadrant, and start tiles vary."""
    first_seat = Counter(quadrant_of(m.starts[0], m.size) for m in mazes(name))
    assert set(first_seat) == {0, 1, 2, 3}
    assert min(first_seat.values()) > 150
    assert len({m.starts[0] for m in mazes(name)}) > 50


def test_a_cramped_maze_still_places_every_start():
    """AMB-57: 12 players in a 7x7 maze (3 per quadrant, the most that surely fits) always start."""
    for maze in mazes("cramped-7x7-12-players"):
        assert len(maze.starts) == 12


# --- determinism ----------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_maze_and_leaves_the_rng_in_the_same_state():
    """FL-MAP-16 (generation is seeded; 0.2 Conventions: randomness is injectable)."""
    a, b = Rng.seeded(77), Rng.seeded(77)
    assert generate(**LEVEL_D, rng=a) == generate(**LEVEL_D, rng=b)  # type: ignore[arg-type]
    assert a.state == b.state
    assert generate(**LEVEL_D, rng=a) == generate(**LEVEL_D, rng=b)  # type: ignore[arg-type]


def test_different_seeds_give_different_mazes():
    """FL-MAP-16"""
    assert len({m.grid for m in mazes("fated-labyrinth")}) == 1000


# Pinned: a change here changes the map of every replayed game.
PINNED_2026 = [
    "C......~~...C",
    "##~+.########",
    "...#...#....~",
    ".#######.###.",
    ".T.......#.#.",
    ".###.##+.#.#.",
    ".....#~....#.",
    "#+~#.#.###.#~",
    "...#...#...+.",
    ".+##.###.###.",
    ".......#.#.#.",
    "####.#.#.#.#.",
    "C....#~.T...C",
]


def test_known_maze_never_changes_across_versions():
    """FL-MAP-16, AMB-58"""
    maze = generate(**FATED_LABYRINTH, rng=Rng.seeded(2026))  # type: ignore[arg-type]
    assert maze.rows() == PINNED_2026
    assert maze.starts == (17, 51, 167, 106)


def test_a_maze_round_trips_through_json():
    maze = mazes("level-d")[0]
    assert msgspec.json.decode(msgspec.json.encode(maze), type=Maze) == maze


# --- settings that do not fit ---------------------------------------------------------------


@pytest.mark.parametrize("name", list(ALL))
def test_presets_and_test_settings_fit(name):
    """FL-CFG-2, FL-CFG-3, AMB-54, AMB-55"""
    check_fits(**ALL[name])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "setting", "words"),
    [
        ({"players": 6}, "players", "multiple of 4"),
        ({"players": 0}, "players", "multiple of 4"),
        ({"players": True}, "players", "multiple of 4"),
        ({"size": 0}, "maze_size", "positive integer"),
        ({"size": 13.0}, "maze_size", "positive integer"),
        ({"size": 5}, "maze_size", "at least 7"),
        ({"size": 13, "players": 36}, "maze_size", "at least 15"),
        ({"treasure_count": 0}, "treasure_count", "positive integer"),
        ({"treasure_count": 82}, "treasure_count", "at most 81"),
        ({"ice_rate_percent": -1}, "ice_rate", "percentage"),
        ({"ice_rate_percent": float("nan")}, "ice_rate", "percentage"),
        ({"ice_rate_percent": 60}, "ice_rate", "101 frozen tiles"),
        ({"door_rate_percent": 101}, "door_rate", "percentage"),
        ({"door_rate_percent": 20}, "door_rate", "33 doors"),
    ],
)
def test_check_fits_refuses_impossible_settings_naming_the_setting(changes, setting, words):
    """FL-MAP-1, FL-MAP-11, FL-MAP-14, FL-CFG-2, FL-CFG-3, AMB-54, AMB-55, AMB-58: settings that could
    not give a valid maze are refused up front, with the setting's name and the limit."""
    settings = {**FATED_LABYRINTH, **changes}
    with pytest.raises(SettingsError) as refused:
        check_fits(**settings)
    assert refused.value.setting == setting
    assert setting in str(refused.value)
    assert words in str(refused.value)
    with pytest.raises(SettingsError):
        generate(**settings, rng=Rng.seeded(1))


def largest_accepted(key: str, settings: dict[str, int]) -> int:
    value = 0
    while True:
        try:
            check_fits(**{**settings, key: value + 1})  # type: ignore[arg-type]
        except SettingsError:
            return value
        value += 1


@pytest.mark.parametrize("key", ["ice_rate_percent", "door_rate_percent", "treasure_count"])
@pytest.mark.parametrize("base", [CRAMPED, FATED_LABYRINTH], ids=["cramped", "fated-labyrinth"])
def test_the_most_that_check_fits_accepts_always_generates(key, base):
    """FL-MAP-11, FL-MAP-14, AMB-58: settings at the limit of check_fits generate on every seed,
    with the exact counts."""
    settings = {**base, key: largest_accepted(key, base)}
    n = settings["size"]
    for seed in range(100):
        maze = generate(**settings, rng=Rng.seeded(seed))  # type: ignore[arg-type]
        assert len(tiles(maze, ICE)) == amount(n * n, settings["ice_rate_percent"])
        assert len(tiles(maze, DOOR)) == amount(n * n, settings["door_rate_percent"])
        assert len(tiles(maze, TREASURE)) == settings["treasure_count"]
        assert reachable(maze, maze.starts[0]) == {i for i, t in enumerate(maze.grid) if t in PASSABLE}
