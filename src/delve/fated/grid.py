"""Terrain characters and small helpers for the square maze grid (FL-MAP-1..5).

A maze of side ``n`` is stored row-major: the tile at column ``x`` and row ``y`` (``(0, 0)`` is
the top-left corner, FL-MAP-2) has index ``y * n + x``. Every helper here works on such indices.
Adjacency is orthogonal only (FL-MAP-3) and nothing exists outside the grid (FL-MAP-4).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

FLOOR = "."
WALL = "#"
DOOR = "+"
ICE = "~"
CHECKPOINT = "C"
TREASURE = "T"
EXIT = "E"
FAKE_TREASURE = "t"
FAKE_EXIT = "e"

TERRAIN = frozenset({FLOOR, WALL, DOOR, ICE, CHECKPOINT, TREASURE, EXIT, FAKE_TREASURE, FAKE_EXIT})
"""Every terrain character (FL §5.2)."""

PASSABLE = frozenset({FLOOR, ICE, CHECKPOINT, TREASURE, EXIT, FAKE_TREASURE, FAKE_EXIT})
"""Terrain a character may stand on and walk through. Walls and (closed) doors are not."""

DIRECTIONS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
)
"""The four move directions as ``(dx, dy)``, in the order up, down, left, right (read-only)."""


def index(x: int, y: int, n: int) -> int:
    """The index of column ``x``, row ``y`` in a grid of side ``n`` (no bounds check)."""
    return y * n + x


def xy(i: int, n: int) -> tuple[int, int]:
    """The ``(x, y)`` coordinates of index ``i`` in a grid of side ``n``."""
    y, x = divmod(i, n)
    return x, y


def step(i: int, direction: str, n: int) -> int | None:
    """The tile one step from ``i`` in ``direction``, or ``None`` when that leaves the grid.

    :raises KeyError: if ``direction`` is not one of :data:`DIRECTIONS`.
    """
    dx, dy = DIRECTIONS[direction]
    y, x = divmod(i, n)
    x += dx
    y += dy
    if 0 <= x < n and 0 <= y < n:
        return y * n + x
    return None


def adjacent(i: int, n: int) -> tuple[tuple[str, int], ...]:
    """The ``(direction, tile)`` pairs of the tiles next to ``i`` that exist, in the order up,
    down, left, right: :func:`step` in every direction, read from a table made once per ``n``."""
    table = _ADJACENT.get(n)
    if table is None:
        table = _ADJACENT[n] = tuple(
            tuple((d, j) for d in DIRECTIONS if (j := step(t, d, n)) is not None) for t in range(n * n)
        )
    return table[i]


_ADJACENT: dict[int, tuple[tuple[tuple[str, int], ...], ...]] = {}


def neighbours(i: int, n: int) -> list[int]:
    """The orthogonally adjacent tiles of ``i`` that exist, in the order up, down, left, right."""
    y, x = divmod(i, n)
    result = []
    if y > 0:
        result.append(i - n)
    if y < n - 1:
        result.append(i + n)
    if x > 0:
        result.append(i - 1)
    if x < n - 1:
        result.append(i + 1)
    return result


def chebyshev(a: int, b: int, n: int) -> int:
    """The Chebyshev (king-move) distance between tiles ``a`` and ``b``."""
    ay, ax = divmod(a, n)
    by, bx = divmod(b, n)
    return max(abs(ax - bx), abs(ay - by))


def corners(n: int) -> tuple[int, int, int, int]:
    """The four corner tiles: top-left, top-right, bottom-left, bottom-right (FL-MAP-10)."""
    return (0, n - 1, n * (n - 1), n * n - 1)


OPPOSITE: Mapping[str, str] = MappingProxyType({"up": "down", "down": "up", "left": "right", "right": "left"})
"""The reverse of each direction."""


def direction_between(a: int, b: int, n: int) -> str | None:
    """The direction from ``a`` to an orthogonally adjacent ``b`` (``None`` if not adjacent)."""
    for direction in DIRECTIONS:
        if step(a, direction, n) == b:
            return direction
    return None


def manhattan(a: int, b: int, n: int) -> int:
    """The Manhattan distance between tiles ``a`` and ``b``."""
    ay, ax = divmod(a, n)
    by, bx = divmod(b, n)
    return abs(ax - bx) + abs(ay - by)
