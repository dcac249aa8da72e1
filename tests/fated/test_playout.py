"""Random legal playouts: invariants after every command, and replay determinism.

FL-MAP-5 (one occupant per tile), FL-STAT-3, FL-STAT-4 and FL-STAT-12 (HP/CP bounds), FL-TURN-11
(a monotonic clock), FL-EXIT-1 and FL-EXIT-5 (the exit exists exactly when someone qualifies),
FL-CARD-4 (every card accounted for), FL-TURN-23, FL-DEATH-4 (the dead hold nothing).
"""

from __future__ import annotations

import json

import msgspec
import pytest

from delve.fated.state import Pile
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


def test_a_mid_game_state_keeps_no_copy_of_the_events_and_packs_its_card_piles():
    """A 4-player Fated Labyrinth state in the middle of a game stays under 6 KB: no log or messages
    (the events are the record), settings at their defaults left out, the card piles packed; every
    card is still in exactly one place after a round trip, and a state stored with plain lists of
    card ids (and with a log and messages) decodes to the same game."""
    playout = run(new_playout("fated-labyrinth", 2), 300)
    state = playout.state
    data = RULESET.encode(state)
    assert len(data) <= 6_000, len(data)
    plain = json.loads(data)
    assert "log" not in plain and not any("messages" in p for p in plain["players"])
    assert isinstance(plain["deck"], str) and "start_hp" not in plain["settings"]
    again = RULESET.decode(data)
    assert (again.deck, again.discard, again.removed) == (state.deck, state.discard, state.removed)
    held = again.deck + again.discard + again.removed + [c for p in again.players for c in p.hand]
    assert sorted(held) == list(range(500))
    older = {**plain, "deck": list(state.deck), "discard": list(state.discard), "removed": list(state.removed)}
    older["log"] = [[state.t0, "game.started", {"players": 4}]]
    older["players"] = [{**p, "messages": [[state.t0, "turn.ready", {}]]} for p in plain["players"]]
    assert RULESET.encode(RULESET.decode(json.dumps(older))) == data


@pytest.mark.parametrize("pile", ['"not base64!"', "[1, -2]", '[1, "2"]', "{}"])
def test_a_malformed_card_pile_is_refused(pile):
    plain = json.loads(RULESET.encode(new_playout("fated-labyrinth", 1).state))
    with pytest.raises(msgspec.ValidationError):
        RULESET.decode(json.dumps(plain).replace(json.dumps(plain["deck"]), pile))


def test_a_card_pile_is_stored_as_it_is_now_after_every_change():
    """A pile remembers its last stored form (a state is encoded at every durable command): every
    change of the pile in place (a card drawn, put back, the order changed at the same length,
    the pile emptied) gives the stored form of the pile as it is then, the same bytes as packing
    a fresh copy, and a state encoded after such changes decodes to the changed piles."""
    state = new_playout("fated-labyrinth", 1).state
    deck = state.deck
    fresh = Pile.packed  # packs a plain list: nothing remembered

    def stored_now() -> bytes | list[int]:
        return Pile.packed(deck)

    first = stored_now()
    assert first == fresh(list(deck)) and stored_now() is first
    deck.pop()
    assert stored_now() == fresh(list(deck)) != first
    deck.append(7)
    assert stored_now() == fresh(list(deck))
    deck[0], deck[1] = deck[1], deck[0]
    assert stored_now() == fresh(list(deck))
    assert RULESET.decode(RULESET.encode(state)).deck == deck
    deck.clear()
    assert stored_now() == [] and RULESET.decode(RULESET.encode(state)).deck == []
