"""Random playouts with cards (FL-CARD-4..11): invariants after every command, and replay.

Card conservation: after every command, deck + discard + hands + removed = 500 x decks, and
every physical card id appears exactly once. The issue's "cards in traps" term is 0 by rule: a
card used as a trap goes to the discard pile at once (FL-CARD-6) and the trap on the map records
the card's kind, not the physical card; likewise the Fake card and every other used card.
Dead players' hands are removed from the game (FL-CARD-11).

The playouts choose uniformly among the seats that can act and, for the chosen seat, among its
legal commands with card use, defense and moves weighted up (never give_up). Each game is
replayed from its command log with ``delve.kernel.replay``; the state hashes must match.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from delve.fated import content
from delve.fated.grid import FAKE_EXIT, FAKE_TREASURE, FLOOR, PASSABLE
from delve.fated.ruleset import FatedRuleset
from delve.fated.state import CORE, DEFENSE, MOVE, READY, GameState
from delve.kernel import Rng, SeatInfo, replay, state_hash

RULESET = FatedRuleset()
T0 = 1_800_000_000
CLASSES = ("explorer", "warrior", "priest", "sorcerer", "summoner", "thief", "noble", "cat")
ACTIVE = (READY, MOVE, CORE, DEFENSE)
WEIGHTS = {"use_card": 8, "defend": 4, "parry": 2, "move": 3, "attack": 2, "steal": 2}
TRAP_WEIGHT = 40  # set many traps, so that the random walkers step on some
COUNTED_EVENTS = frozenset(
    {
        "trap.triggered",
        "trap.evaded",
        "trap.disarmed",
        "defense.result",
        "player.died",
        "monster.summoned",
        "deck.reshuffled",
    }
)
SEEDS_PER_PRESET = 30
COMMANDS_PER_GAME = 200


def check_invariants(state: GameState) -> None:
    total = content.CARDS_PER_SET * state.settings.decks
    piles = [state.deck, state.discard, state.removed, *(p.hand for p in state.players)]
    cards = [c for pile in piles for c in pile]
    assert len(cards) == total, f"card count {len(cards)} != {total}"
    assert sorted(cards) == list(range(total)), "a card is duplicated or missing"
    seen: set[int] = set()
    for player in state.players:
        if not player.alive:
            assert not player.hand, "a dead player's hand leaves the game (FL-CARD-11)"
            continue
        assert 0 < player.hp <= player.max_hp, (player.seat, player.hp)
        assert 0 <= player.cp <= player.max_cp, (player.seat, player.cp)
        assert state.grid[player.pos] in PASSABLE
        assert player.pos not in seen, "two characters on one tile"
        seen.add(player.pos)
    for monster in state.monsters:
        assert monster.hp > 0 and state.grid[monster.pos] in PASSABLE
        assert monster.pos not in seen, "two characters on one tile"
        seen.add(monster.pos)
    for tile in state.traps:
        assert state.grid[tile] == FLOOR, "a trap lies only on normal floor (FL-TRAP-10)"
    fakes = {i for i, t in enumerate(state.grid) if t in (FAKE_TREASURE, FAKE_EXIT)}
    assert fakes == set(state.fakes)


def _weight(command: dict[str, Any]) -> int:
    if command.get("use") == "trap":
        return TRAP_WEIGHT
    return WEIGHTS.get(command["kind"], 1)


def _pick(chooser: Rng, legal: list[dict[str, Any]]) -> dict[str, Any]:
    weights = [_weight(c) for c in legal]
    roll = chooser.below(sum(weights))
    for command, weight in zip(legal, weights, strict=True):
        if roll < weight:
            return command
        roll -= weight
    raise AssertionError("unreachable")


def settings_for(preset: str, seed: int) -> dict[str, Any]:
    """Odd seeds play with 40 HP and a smaller maze, so that players meet, die and leave cards."""
    if seed % 2:
        return {"preset": preset, "start_hp": 40, "maze_size": 9 if preset == "fated-labyrinth" else 11}
    return {"preset": preset}


def playout(preset: str, seed: int, budget: int) -> tuple[GameState, list[Any], Counter[str]]:
    overrides = settings_for(preset, seed)
    players = RULESET.seat_count(overrides)
    seats = [SeatInfo(f"p{i}", {"class": CLASSES[(seed + i) % len(CLASSES)]}) for i in range(players)]
    state = RULESET.setup(overrides, seats, seed, T0)
    chooser = Rng.seeded(seed * 7919 + 13)
    now = T0
    log: list[Any] = []
    stats: Counter[str] = Counter()
    check_invariants(state)
    while stats["commands"] < budget and not state.ended:
        actors = [p.seat for p in state.players if p.alive and p.phase in ACTIVE]
        if not actors:
            due = RULESET.next_due(state)
            if due is None:
                break
            now = max(now, due)
            RULESET.advance(state, now)
            log.append((now, None, None))
            check_invariants(state)
            continue
        now += chooser.randint(1, 90)
        RULESET.advance(state, now)
        actors = [p.seat for p in state.players if p.alive and p.phase in ACTIVE]
        if not actors:
            log.append((now, None, None))
            continue
        seat = chooser.choice(actors)
        legal = [c for c in RULESET.legal_commands(state, seat) if c["kind"] not in {"comment", "give_up"}]
        command = _pick(chooser, legal)
        for event in RULESET.apply(state, seat, command, now):
            if event.kind in COUNTED_EVENTS:
                stats[event.kind] += 1
        log.append((now, seat, command))
        stats["commands"] += 1
        stats[command["kind"]] += 1
        if command["kind"] == "use_card":
            stats[f"use:{command.get('use', 'effect')}"] += 1
            stats[f"category:{content.load().card(command['card'], preset).category}"] += 1
        check_invariants(state)
    stats["ended"] += int(state.ended)
    return state, log, stats


def test_card_conservation_and_invariants_over_random_playouts_of_both_presets():
    """FL-CARD-4, FL-CARD-6, FL-CARD-7, FL-CARD-8, FL-CARD-9, FL-CARD-11: >= 10,000 random legal
    commands over 60 seeds and both presets, with card use, defense and traps; the invariants
    hold after every command; every game replays to the same state hash."""
    total: Counter[str] = Counter()
    games = 0
    for preset in ("fated-labyrinth", "level-d"):
        for seed in range(1, SEEDS_PER_PRESET + 1):
            state, log, stats = playout(preset, seed, COMMANDS_PER_GAME)
            total += stats
            games += 1
            seats = [SeatInfo(p.name, {"class": p.cls}) for p in state.players]
            again, _ = replay(RULESET, settings_for(preset, seed), seed, log, seats=seats, start=T0)
            assert state_hash(RULESET, again) == state_hash(RULESET, state), (preset, seed)
    assert games >= 50
    assert total["commands"] >= 10_000, total
    assert total["use:trap"] >= 100 and total["use:adjacent"] + total["use:remote"] >= 500, total
    assert total["use:effect"] >= 500 and total["defend"] >= 300, total
    assert total["trap.triggered"] >= 20 and total["player.died"] >= 5, total  # traps stepped on; deaths
    categories = {k for k in total if k.startswith("category:")}
    assert len(categories) == 9, categories  # every core-phase category was played
