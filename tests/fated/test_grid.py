"""The grid helpers: coordinates, adjacency, distances, corners, passable terrain (FL-MAP-1..10)."""

import pytest

from delve.fated.grid import (
    CHECKPOINT,
    DIRECTIONS,
    DOOR,
    EXIT,
    FAKE_EXIT,
    FAKE_TREASURE,
    FLOOR,
    ICE,
    PASSABLE,
    TERRAIN,
    TREASURE,
    WALL,
    adjacent,
    chebyshev,
    corners,
    index,
    neighbours,
    step,
    xy,
)


def test_index_is_row_major_with_the_origin_top_left():
    """FL-MAP-1, FL-MAP-2: x is the column left to right, y the row top to bottom."""
    assert index(0, 0, 13) == 0
    assert index(12, 0, 13) == 12
    assert index(0, 1, 13) == 13
    assert index(3, 2, 13) == 29


def test_xy_inverts_index_on_every_tile():
    """FL-MAP-2"""
    n = 7
    assert [xy(index(x, y, n), n) for y in range(n) for x in range(n)] == [(x, y) for y in range(n) for x in range(n)]


def test_directions_are_the_four_orthogonal_steps_in_a_fixed_order():
    """FL-MAP-3: up, down, left, right; y grows downwards."""
    assert list(DIRECTIONS) == ["up", "down", "left", "right"]
    assert dict(DIRECTIONS) == {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def test_directions_cannot_be_changed_at_run_time():
    with pytest.raises(TypeError):
        DIRECTIONS["up"] = (0, 1)  # type: ignore[index]


def test_step_moves_one_tile_in_each_direction():
    """FL-MAP-3"""
    n = 5
    middle = index(2, 2, n)
    assert {d: xy(step(middle, d, n) or 0, n) for d in DIRECTIONS} == {
        "up": (2, 1),
        "down": (2, 3),
        "left": (1, 2),
        "right": (3, 2),
    }


@pytest.mark.parametrize(
    ("x", "y", "direction"),
    [(0, 2, "left"), (4, 2, "right"), (2, 0, "up"), (2, 4, "down"), (0, 0, "up"), (4, 4, "right")],
)
def test_step_off_the_grid_is_none_and_never_wraps(x, y, direction):
    """FL-MAP-4: tiles outside the grid do not exist (no wrapping to the next row)."""
    assert step(index(x, y, 5), direction, 5) is None


def test_step_with_an_unknown_direction_raises():
    with pytest.raises(KeyError):
        step(0, "north", 5)


def test_neighbours_are_orthogonal_and_inside_only():
    """FL-MAP-3, FL-MAP-4: diagonal tiles are never adjacent; a corner has two neighbours."""
    n = 5
    assert neighbours(index(2, 2, n), n) == [index(2, 1, n), index(2, 3, n), index(1, 2, n), index(3, 2, n)]
    assert neighbours(index(0, 0, n), n) == [index(0, 1, n), index(1, 0, n)]
    assert neighbours(index(4, 4, n), n) == [index(4, 3, n), index(3, 4, n)]
    assert neighbours(index(4, 2, n), n) == [index(4, 1, n), index(4, 3, n), index(3, 2, n)]


def test_neighbours_agree_with_step():
    """FL-MAP-3"""
    n = 6
    for i in range(n * n):
        stepped = [step(i, d, n) for d in DIRECTIONS]
        assert neighbours(i, n) == [j for j in stepped if j is not None]


def test_adjacent_pairs_each_direction_with_its_step_inside_the_grid_only():
    """FL-MAP-3, FL-MAP-4: the table of adjacent tiles is ``step`` in every direction, in the
    order up, down, left, right, with the steps off the grid left out."""
    for n in (1, 2, 5, 13):
        for i in range(n * n):
            assert adjacent(i, n) == tuple((d, j) for d in DIRECTIONS if (j := step(i, d, n)) is not None)
    assert adjacent(0, 5) == (("down", 5), ("right", 1))


def test_chebyshev_distance_is_the_larger_coordinate_difference():
    n = 9
    a = index(1, 1, n)
    assert chebyshev(a, a, n) == 0
    assert chebyshev(a, index(2, 2, n), n) == 1
    assert chebyshev(a, index(4, 2, n), n) == 3
    assert chebyshev(index(8, 0, n), index(0, 8, n), n) == 8


def test_corners_are_top_left_top_right_bottom_left_bottom_right():
    """FL-MAP-10"""
    n = 13
    assert corners(n) == (index(0, 0, n), index(12, 0, n), index(0, 12, n), index(12, 12, n))


def test_walls_and_doors_are_the_only_impassable_terrain():
    """FL-MAP-6, FL-MAP-7, FL-MAP-8, FL-MAP-9, FL-MAP-10..13: floor, ice, checkpoint, treasure, exit
    and the fakes can be stood on; walls and closed doors cannot."""
    impassable = TERRAIN - PASSABLE
    passable = set(PASSABLE)
    assert impassable == {WALL, DOOR}
    assert passable == {FLOOR, ICE, CHECKPOINT, TREASURE, EXIT, FAKE_TREASURE, FAKE_EXIT}
    assert len(TERRAIN) == 9
    assert all(len(t) == 1 for t in TERRAIN)
