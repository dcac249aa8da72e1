"""Random legal playouts: invariants after every command, and replay determinism.

FL-MAP-5 (one occupant per tile), FL-STAT-3, FL-STAT-4 and FL-STAT-12 (HP/CP bounds), FL-TURN-11
(a monotonic clock), FL-EXIT-1 and FL-EXIT-5 (the exit exists exactly when someone qualifies),
FL-CARD-4 (every card accounted for), FL-TURN-23, FL-DEATH-4 (the dead hold nothing).
"""

from __future__ import annotations

import pytest

from delve.kernel import replay, state_hash

from .playout import RULESET, START, new_playout, run

SEEDS = range(30)
PER_GAME = 400


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_random_playouts_keep_every_invariant_and_replay_identically(preset):
    """>= 10,000 random legal commands over 60 games in both presets, invariants checked after every
    command and every clock advance; replaying each game's command log gives the same state hash."""
    total = 0
    endings = set()
    for seed in SEEDS:
        playout = run(new_playout(preset, seed), PER_GAME)
        total += playout.commands
        endings.add(playout.state.win_kind or "running")
        replayed, _ = replay(
            RULESET, playout.settings, seed, playout.log, seats=playout.seats, start=START, until=playout.now
        )
        assert state_hash(RULESET, replayed) == state_hash(RULESET, playout.state), f"seed {seed}"
    assert total >= 5_000, total  # both presets together: >= 10,000
    if preset == "fated-labyrinth":
        assert "survivor" in endings  # small games end (mostly by abandonment under random play)


def test_encoding_round_trips_mid_game_and_stays_small():
    """The state serializes to compact JSON (design.md: tens of KB) and decodes to the same game."""
    playout = run(new_playout("level-d", 3), 150)
    data = RULESET.encode(playout.state)
    assert len(data) < 60_000, len(data)
    assert state_hash(RULESET, RULESET.decode(data)) == state_hash(RULESET, playout.state)
