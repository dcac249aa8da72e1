"""Seeded random playouts with invariants checked after every command (used by test_playouts).

A playout picks uniformly among the legal commands of the seat that must act (a seeded
``random.Random``, never the game's RNG), records ``(time, seat, command)`` and checks, after
every command: life within bounds, dice as the rules allow, cards and markers conserved,
exploration never undone, views revealing nothing hidden; at the end, the replay of the log
reaches the same state hash.
"""

from __future__ import annotations

import random
from typing import Any

from delve.kernel import Event, replay, state_hash
from delve.maiden import dice, journal
from delve.maiden.ruleset import MaidenRuleset
from delve.maiden.state import DIE_SIZES, ROUNDS, Game
from tests.maiden.helpers import T0, cards_conserved, seats, waiting

MAX_COMMANDS = 6000


def check_invariants(ruleset: MaidenRuleset, game: Game, explored_before: list[str]) -> None:
    dying = {d.seat for d in game.pending[:1] if d.data.get("for") == "death"}
    for m in game.maidens:
        # life 0 means dead (she revives at 1), or dying while her damage window is open
        assert 0 < m.life <= m.life_max or (m.life == 0 and m.seat in dying), (m.seat, m.life)
        assert m.room in ruleset.content.rooms
        assert (
            m.boss is None
            or m.room == ruleset.content.bosses[m.boss].id
            or ruleset.content.rooms[m.room].boss == m.boss
        )
    assert game.explored[: len(explored_before)] == explored_before  # exploration never undone
    assert len(set(game.explored)) == len(game.explored)
    assert 0 <= game.round <= ROUNDS
    if game.round:
        assert game.action_markers == (game.round + 1) // 2
    assert game.danger_level >= 1
    for boss_id, boss in game.bosses.items():
        if boss.engaged:
            assert 0 <= boss.life <= boss.life_max and 0 <= boss.pointer <= 2
            assert boss.defeated == (boss.life == 0)
        assert not (boss.defeated and not boss.engaged), boss_id
    assert game.sephirot == sum(b.defeated for b in game.bosses.values())
    check = game.check
    if check is not None and check.rolled:
        sizes = {d.size for d in check.dice}
        assert len(sizes) == 1 and sizes <= set(DIE_SIZES)
        assert all(1 <= (d.face or 0) <= d.size for d in check.dice)
        assert any(not d.removed for d in check.dice)  # MV-ASC-6(a)
        slate = dice.slate_index(check)
        assert slate is None or not check.dice[slate].removed  # MV-ASC-6(b)
        assert sum(d.removed for d in check.dice) == 2 * check.ascensions
    cards_conserved(ruleset, game)
    if not game.ended:
        assert ruleset.legal_commands(game, waiting(game)), "the waiting seat has nothing to do"


def hidden_invariant_views(ruleset: MaidenRuleset, game: Game) -> None:
    """Shuffling every deck and reseeding the RNG must not change any view (nothing hidden leaks)."""
    views = [ruleset.view(game, s) for s in [None, *range(len(game.maidens))]]
    assert ruleset.views(game, [None, *range(len(game.maidens))]) == views  # built at once, shared
    other = ruleset.decode(ruleset.encode(game))
    mixer = random.Random(game.clock)
    for name in ("action", "skill", "room", "quest", "quests_aside"):
        mixer.shuffle(getattr(other.decks, name))
    other.rng.s0 ^= 0x5DEECE66D
    assert views == [ruleset.view(other, s) for s in [None, *range(len(game.maidens))]]


def playout(
    ruleset: MaidenRuleset,
    players: int,
    seed: int,
    *,
    settings: dict[str, Any] | None = None,
    views_every: int = 25,
    events: list[Event] | None = None,
) -> Game:
    """A whole game of random legal commands, checked as it goes; every event of the game (the
    setup's own first) goes to ``events`` if given."""
    chooser = random.Random(seed * 7919 + players)
    all_settings = {"players": players, **(settings or {})}
    game = ruleset.setup(all_settings, seats(players), seed, T0)
    if events is not None:
        events += journal.started(game)
    log: list[tuple[int, int | None, dict[str, Any] | None]] = []
    now = T0
    for step in range(MAX_COMMANDS):
        if game.ended:
            break
        seat = waiting(game)
        legal = ruleset.legal_commands(game, seat)
        command = chooser.choice(legal)
        now += chooser.choice((0, 1, 60))
        explored = list(game.explored)
        applied = ruleset.apply(game, seat, command, now)
        if events is not None:
            events += applied
        log.append((now, seat, command))
        check_invariants(ruleset, game, explored)
        if step % views_every == 0:
            hidden_invariant_views(ruleset, game)
    assert game.ended, "the game did not end"
    assert game.result == "won" or game.round == ROUNDS
    replayed, _ = replay(ruleset, all_settings, seed, log, seats=seats(players), start=T0)
    assert state_hash(ruleset, replayed) == state_hash(ruleset, game)
    return game
