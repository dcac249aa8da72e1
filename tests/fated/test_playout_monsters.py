"""Random playouts with monsters of both rosters (FL-MON, FL-MAP-5, FL-STAT-12, FL-VIS-6).

Each game plays random legal commands at random times; between them the test summons random
roster monsters for random living players through ``monsters.summon`` (summon cards, where the
catalogue has them, are among the legal commands too). After every command, clock advance and
summon the invariants below must hold, and replaying the same script gives the same state.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from delve.fated import monsters, visibility
from delve.fated.ctx import Ctx
from delve.fated.grid import DIRECTIONS, FAKE_EXIT, FAKE_TREASURE, FLOOR, PASSABLE
from delve.fated.ruleset import FatedRuleset
from delve.fated.state import GameState
from delve.kernel import Rng, SeatInfo, state_hash

RULESET = FatedRuleset()
T0 = 1_800_000_000
SEEDS = range(20)
STEPS = 320
CLASSES = ("explorer", "warrior", "priest", "sorcerer", "summoner", "thief", "noble", "cat")
SUMMON_CHANCE = (1, 6)
GIVE_UP_CHANCE = (1, 400)


@dataclass
class Playout:
    state: GameState
    script: list[tuple[Any, ...]] = field(default_factory=list)
    commands: int = 0
    summoned: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)


def _seats(preset: str) -> list[SeatInfo]:
    players = RULESET.seat_count({"preset": preset})
    return [SeatInfo(f"p{i + 1}", {"class": CLASSES[i % len(CLASSES)]}) for i in range(players)]


def check(state: GameState, *, views: bool) -> None:
    """The invariants: positions, one occupant per tile, bounds, monsters' health, terrain and
    owners, traps and fakes where they may be, cards conserved, monsters in views."""
    n = state.size
    roster = set(state.settings.monster_roster)
    taken: dict[int, str] = {}
    for p in state.players:
        assert 0 <= p.cp <= p.max_cp and 0 <= p.hp <= p.max_hp, p.number
        if not p.alive:
            assert not p.pending and not p.hand
            continue
        assert p.hp > 0, f"player {p.number} alive at 0 HP"
        assert 0 <= p.pos < n * n and state.grid[p.pos] in PASSABLE, f"player {p.number} on {state.grid[p.pos]!r}"
        assert p.pos not in taken, f"player {p.number} shares a tile with {taken[p.pos]}"
        taken[p.pos] = p.number
    for m in state.monsters:
        label = f"monster {m.id} ({m.kind} of {m.owner + 1:02d})"
        assert m.kind in roster and m.heading in DIRECTIONS, label
        assert m.hp > 0, f"{label} present at {m.hp} HP"
        assert state.players[m.owner].alive, f"{label} outlived its owner"
        assert 0 <= m.pos < n * n and state.grid[m.pos] in PASSABLE, f"{label} on {state.grid[m.pos]!r}"
        assert m.pos not in taken, f"{label} shares a tile with {taken[m.pos]}"
        taken[m.pos] = label
    assert all(state.grid[t] == FLOOR for t in state.traps), "a trap off normal floor"
    fakes = {i for i, t in enumerate(state.grid) if t in (FAKE_TREASURE, FAKE_EXIT)}
    assert fakes == set(state.fakes), "fake tiles and fake records differ"
    cards = len(state.deck) + len(state.discard) + len(state.removed) + sum(len(p.hand) for p in state.players)
    assert cards == 500 * state.settings.decks
    if views:
        for p in state.players:
            _check_view(state, p.seat)
        spectator = RULESET.view(state, None)["characters"]
        assert state.ended or not [c for c in spectator if c["type"] == "monster"]


def _check_view(state: GameState, seat: int) -> None:
    """FL-VIS-6, FL-MON-22: a view shows the monsters in sight, and others only under Keen Ear
    (then without details)."""
    ctx = Ctx(state, state.clock)
    viewer = state.players[seat]
    shown = {c["id"]: c for c in RULESET.view(state, seat)["characters"] if c["type"] == "monster"}
    if state.ended:
        assert set(shown) == {m.id for m in state.monsters}
        return
    sight = visibility.sight(ctx, viewer)
    keen = viewer.alive and any(s.id == "keen_ear" for s in viewer.statuses)
    for m in state.monsters:
        if m.pos in sight:
            assert shown[m.id]["in_sight"] and shown[m.id]["own"] == (m.owner == seat)
        elif keen:
            assert not shown[m.id]["in_sight"] and not {"hp", "owner", "statuses"} & set(shown[m.id])
        else:
            assert m.id not in shown, f"monster {m.id} outside the sight of {viewer.number} is shown"


def _summon(state: GameState, seat: int, kind: str, tile: int) -> None:
    ctx = Ctx(state, state.clock)
    monsters.summon(ctx, state.players[seat], kind, tile)
    visibility.refresh(ctx)


def play(preset: str, seed: int) -> Playout:
    seats = _seats(preset)
    state = RULESET.setup({"preset": preset}, seats, seed, T0)
    run = Playout(state)
    rng = Rng.seeded(10_000 + seed)
    roster = state.settings.monster_roster
    wait = state.settings.wait_time
    now = T0
    for step in range(STEPS):
        if state.ended:
            break
        living = [p for p in state.players if p.alive]
        if rng.chance(*SUMMON_CHANCE):
            owner = rng.choice(living)
            tiles = sorted(monsters.summon_tiles(Ctx(state, state.clock), owner).values())
            if tiles:
                kind = rng.choice(roster)
                tile = rng.choice(tiles)
                _summon(state, owner.seat, kind, tile)
                run.script.append(("summon", owner.seat, kind, tile))
                run.summoned[kind] += 1
                check(state, views=False)
        choices = {
            p.seat: [c for c in RULESET.legal_commands(state, p.seat) if c["kind"] not in {"comment", "give_up"}]
            for p in living
        }
        actors = [seat for seat, legal in choices.items() if legal]
        if actors and not rng.chance(1, 10):
            seat = rng.choice(actors)
            command = {"kind": "give_up"} if rng.chance(*GIVE_UP_CHANCE) else rng.choice(choices[seat])
            now += rng.randint(1, 900)
            run.events.update(e.kind for e in RULESET.apply(state, seat, command, now))
            run.script.append(("apply", now, seat, command))
            run.commands += 1
        else:
            due = RULESET.next_due(state)
            now = max(now + rng.randint(1, wait), due or now)
            run.events.update(e.kind for e in RULESET.advance(state, now))
            run.script.append(("advance", now))
        check(state, views=step % 8 == 0)
    return run


def replay(preset: str, seed: int, script: list[tuple[Any, ...]]) -> GameState:
    state = RULESET.setup({"preset": preset}, _seats(preset), seed, T0)
    for entry in script:
        if entry[0] == "summon":
            _summon(state, *entry[1:])
        elif entry[0] == "apply":
            RULESET.apply(state, entry[2], entry[3], entry[1])
        else:
            RULESET.advance(state, entry[1])
    return state


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_random_playouts_with_monsters_keep_the_invariants_and_replay(preset):
    """FL-MAP-5 (one occupant per tile), FL-STAT-12 (bounds), FL-MON-11 (never on walls or
    doors), FL-MON-15 (present means HP > 0), FL-MON-18 (owners alive), FL-VIS-6 (views), and
    replay determinism, over 20 seeds; every roster monster is summoned and the specials occur."""
    summoned: Counter[str] = Counter()
    log: Counter[str] = Counter()
    commands = 0
    for seed in SEEDS:
        run = play(preset, seed)
        again = replay(preset, seed, run.script)
        assert state_hash(RULESET, again) == state_hash(RULESET, run.state), f"seed {seed} does not replay"
        summoned += run.summoned
        commands += run.commands
        log += run.events
    assert commands >= 20 * 100
    assert set(summoned) == set(run.state.settings.monster_roster)
    for kind in ("monster.attack", "monster.magic", "monster.breath", "monster.set_trap", "monster.vanished"):
        assert log[kind] > 0, f"no {kind} in {preset} playouts"
