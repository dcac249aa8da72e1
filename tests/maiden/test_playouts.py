"""Seeded random playouts over 1-4 players with invariants after every command and replay to
the same state hash (``delve.kernel.replay``).

The default suite plays a few dozen games; the long run (>= 1,000 games over 1-4 players) is
marked ``slow``::

    .venv/bin/pytest tests/maiden/test_playouts.py -m slow -n 2 -q
"""

from __future__ import annotations

import pytest

from delve.maiden.ruleset import MaidenRuleset
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.playout import playout

FIXTURE = MaidenRuleset(content=CONTENT)
VARIANTS = [
    {},
    {"ascension_bonus": "pie", "slate_damage_per_die": "danger_level", "danger_room_entry_damage": "danger_level"},
    {
        "difficulty": "normal",
        "entry_restrictions": True,
        "room_reduction_2p_4p": True,
        "boss_rooms_block_passage": True,
    },
    {"multi_die_checks": True, "pie_mode": "boost", "agi_skill_level_option": True, "familiar_evolution": True},
    {"allow_smaller_die": True, "slate_roll_restricted": True, "ins_applies_to_room_deck": False},
    {"quest_room_skips_check": True, "danger_room_skips_check": True, "base_target": "round_number"},
]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_keep_invariants_and_replay(players: int, seed: int) -> None:
    """MV-END-1, MV-END-2: every game ends by round 24 or Urza's defeat; invariants hold after
    every command; the replay gives the same state hash."""
    playout(FIXTURE, players, seed)


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_random_playouts_under_variants(variant: int) -> None:
    for players in (1, 2, 3, 4):
        playout(FIXTURE, players, 100 + variant, settings=VARIANTS[variant])


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("block", range(10))
def test_thousand_random_playouts(players: int, block: int) -> None:
    """>= 1,000 seeded playouts: 4 player counts x 10 blocks x 25 seeds, variants rotating."""
    for k in range(25):
        seed = 1000 + block * 25 + k
        playout(FIXTURE, players, seed, settings=VARIANTS[seed % len(VARIANTS)], views_every=60)
