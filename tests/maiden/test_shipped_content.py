"""The engine on the shipped content (``delve.maiden.content.load()``): seeded random playouts
with every invariant and replay, a whole game by the autopilot, and ``delve check``'s line."""

from __future__ import annotations

import pytest

from delve.kernel import get_ruleset
from delve.maiden.ruleset import MaidenRuleset
from tests.maiden.helpers import T0, seats
from tests.maiden.playout import playout

SHIPPED = MaidenRuleset()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_on_the_shipped_content(players: int) -> None:
    """MV-END-1, MV-END-2 on the real map: the game ends by round 24 or Urza's defeat."""
    playout(SHIPPED, players, 7 + players, views_every=40)


def test_autopilot_plays_a_whole_game_on_the_shipped_content() -> None:
    r = get_ruleset("maiden")
    game = r.setup({"players": 2, "turn_deadline_hours": 1}, seats(2), 3, T0)
    r.advance(game, T0 + 10_000 * 3600)
    assert game.ended and game.result in ("won", "lost")


def test_check_content_line() -> None:
    line = SHIPPED.check_content()[0]
    assert line.startswith("maiden: 82 squares, 22 areas, 10 bosses")


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("block", range(5))
def test_many_playouts_on_the_shipped_content(players: int, block: int) -> None:
    """Slow: 4 x 5 x 10 = 200 more seeded playouts on the shipped content."""
    for k in range(10):
        playout(SHIPPED, players, 5000 + block * 10 + k, views_every=80)
