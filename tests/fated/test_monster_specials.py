"""The monsters' special behaviours: the Imp's traps and fakes (FL-MON-23..27, AMB-44), the
Necromancer's magic (FL-MON-28/29, AMB-43) and the Dragon / Gargoyle breath (FL-MON-30..35,
AMB-42). Every random outcome is taken from seeded runs of the same situation."""

from __future__ import annotations

from collections import Counter

from delve.fated import combat, monsters
from delve.fated.grid import EXIT, FAKE_EXIT, FAKE_TREASURE, FLOOR, TREASURE
from delve.fated.state import Trap
from delve.fated.visibility import OWN_TRAP, perceived

from .monster_kit import activate, kinds, put, reseeded, runs, xy_of
from .scenario import Scenario
from .test_monsters import SUMMONER_FIRST, corridor

IMP_EVENTS = {"monster.set_trap", "monster.made_fake"}


def _imp_game(row: str = "#.......#", **kw) -> tuple[Scenario, int]:
    game = corridor(row, **kw)
    imp = put(game, 0, "imp", 3, 1)
    return game, imp.id


# ---------------------------------------------------------------- the imp


def test_the_imp_sets_something_instead_of_moving_one_time_in_four():
    """FL-MON-23, FL-MON-27: on normal floor with no target next to it, 1/4; setting uses the
    action (a one-action imp then stays), it is not an attack; the owner is told privately."""
    game, imp = _imp_game()
    sets = 0
    for copy, events in runs(game, 0, seeds=200):
        done = [e for e in events if e.kind in IMP_EVENTS]
        if done:
            sets += 1
            assert xy_of(copy, imp) == (3, 1)
            assert [e.to for e in done] == [(0,)]
            assert not any(e.kind.startswith("monster.") and e.to is None for e in events)
        else:
            assert xy_of(copy, imp) == (4, 1)
    assert 30 <= sets <= 70


def test_the_imp_chooses_uniformly_among_the_thirteen_options():
    """FL-MON-24: the twelve named traps and a fake, each about 1/13 of the time."""
    game, imp_id = _imp_game()
    ctx = game.ctx
    state = game.state
    imp = state.monster(imp_id)
    counts: Counter[str] = Counter()
    attempts = 0
    while sum(counts.values()) < 1300:
        attempts += 1
        state.traps.clear()
        state.fakes.clear()
        state.set_tile(imp.pos, FLOOR)
        if monsters.imp_sets(ctx, imp):
            trap = state.traps.get(imp.pos)
            counts[trap.card if trap else "fake"] += 1
    assert set(counts) == set(ctx.content.monsters["imp"].sets)
    assert all(60 <= n <= 140 for n in counts.values()), counts
    assert 0.22 <= 1300 / attempts <= 0.28


def _imp_result(game: Scenario, want: str, seeds: int = 600) -> Scenario:
    """A copy in which the imp has just set ``want`` (a card id, "trap" for any trap, "fake")."""
    for seed in range(seeds):
        copy = reseeded(game, seed)
        imp = copy.state.monster(copy.state.monsters[0].id)
        ctx = copy.ctx
        if not monsters.imp_sets(ctx, imp):
            continue
        copy.events.extend(ctx.events)
        copy.refresh()
        trap = copy.state.traps.get(imp.pos)
        got = "fake" if trap is None else trap.card
        if want == got or (want == "trap" and trap is not None):
            return copy
    raise AssertionError(f"the imp never set {want!r}")


def test_an_imp_trap_is_the_owners_trap_for_every_rule():
    """FL-MON-26, AMB-44, FL-TRAP-1, FL-VIS-9: recorded with the card, the owner as setter and
    the imp flag; the owner sees it as an own trap, others see plain floor."""
    game, _ = _imp_game()
    copy = _imp_result(game, "trap")
    tile = copy.at(3, 1)
    trap = copy.state.traps[tile]
    assert trap.setter == 0 and trap.imp and trap.known == []
    assert trap.card in copy.ctx.content.monsters["imp"].sets
    assert perceived(copy.state, 0, tile) == OWN_TRAP
    assert perceived(copy.state, 1, tile) == FLOOR
    [told] = [e for e in copy.events if e.kind == "monster.set_trap"]
    assert told.to == (0,) and told.data == {"monster": "imp", "card": trap.card}


def test_an_imp_trap_replaces_a_trap_already_there():
    """FL-MON-23, AMB-44, FL-TRAP-9: a trapped floor counts as normal floor."""
    game, _ = _imp_game()
    game.state.traps[game.at(3, 1)] = Trap(card="blind", setter=1)
    copy = _imp_result(game, "attack-20")
    assert copy.state.traps[copy.at(3, 1)] == Trap(card="attack-20", setter=0, imp=True)


def test_an_imp_fake_is_a_fake_treasure_or_while_the_exit_is_out_a_fake_exit():
    """FL-MON-25, FL-MON-26, FL-FAKE-6, AMB-44: a trap under it is destroyed; the owner sees the
    fake as a fake, others as the real thing."""
    game, _ = _imp_game()
    tile = game.at(3, 1)
    game.state.traps[tile] = Trap(card="blind", setter=1)
    copy = _imp_result(game, "fake")
    assert copy.state.grid[tile] == FAKE_TREASURE and tile not in copy.state.traps
    fake = copy.state.fakes[tile]
    assert fake.setter == 0 and fake.imp
    assert perceived(copy.state, 0, tile) == FAKE_TREASURE
    assert perceived(copy.state, 1, tile) == TREASURE

    game, _ = _imp_game("#......E#")
    game.state.exit = game.at(7, 1)
    copy = _imp_result(game, "fake")
    assert copy.state.grid[tile] == FAKE_EXIT
    assert perceived(copy.state, 0, tile) == FAKE_EXIT and perceived(copy.state, 1, tile) == EXIT
    [told] = [e for e in copy.events if e.kind == "monster.made_fake"]
    assert told.to == (0,) and told.data == {"monster": "imp", "fake": "exit"}


def test_the_imp_sets_nothing_off_normal_floor_or_with_a_target_next_to_it():
    """FL-MON-23: not on ice, treasure, checkpoint, exit or a fake; and when a player other than
    the owner is adjacent it attacks instead."""
    for terrain in "~TCEt":
        game, _ = _imp_game("#.." + terrain + "....#")
        for copy, events in runs(game, 0, seeds=40):
            assert not IMP_EVENTS & set(kinds(events)), terrain
            assert copy.state.grid == game.state.grid and not copy.state.traps
    game, _ = _imp_game("#...2...#")
    for copy, events in runs(game, 0, seeds=40):
        assert "monster.attack" in kinds(events)
        assert not IMP_EVENTS & set(kinds(events)) and not copy.state.traps and not copy.state.fakes


def test_the_owner_next_to_the_imp_is_no_target():
    """FL-MON-23: only an attack target stops the check; the owner is none (FL-MON-8)."""
    game, _ = _imp_game("#.1.....#")
    assert any(IMP_EVENTS & set(kinds(events)) for _, events in runs(game, 0, seeds=40))


def test_a_summoners_imp_can_set_and_move_in_one_activation():
    """FL-MON-27, FL-MON-4: setting is not an attack, the imp goes on with its other action."""
    game = corridor("#.......#", classes=SUMMONER_FIRST)
    imp = put(game, 0, "imp", 3, 1)
    for copy, events in runs(game, 0, seeds=60):
        if IMP_EVENTS & set(kinds(events)) and xy_of(copy, imp.id) != (3, 1):
            assert copy.at(3, 1) in copy.state.traps or copy.at(3, 1) in copy.state.fakes
            return
    raise AssertionError("no run where the imp set something and moved on")


def test_an_imp_trap_never_catches_its_owner_and_works_like_the_cards_trap_on_others():
    """FL-MON-26, FL-TRAP-2, FL-TRAP-14, FL-TRAP-7: the owner walks over it; another player
    triggers the card's 《罠》 effect, credited to the owner."""
    game = Scenario.from_map(
        [
            "#########",
            "#.1.....#",
            "#########",
            "#.......#",
            "#########",
            "#3#4#####",
            "#########",
            "#2.######",
            "#########",
        ]
    )
    put(game, 0, "imp", 3, 1)
    copy = _imp_result(game, "attack-20")
    tile = copy.at(3, 1)
    copy.state.monsters.clear()
    copy.start_turn(0)
    copy.play(0, {"kind": "move", "dir": "right"})
    assert copy.p(0).pos == tile and not copy.p(0).pending and tile in copy.state.traps
    # another player on the same tile
    copy.p(0).pos = copy.at(1, 3)
    copy.p(1).pos = copy.at(2, 1)
    copy.p(1).evasion = 0
    copy.start_turn(1)
    copy.play(1, {"kind": "move", "dir": "right"})
    [item] = copy.p(1).pending
    assert (item.kind, item.card, item.row, item.power, item.source) == ("trap", "attack-20", "dmg_trap", 20, 0)


def test_a_kill_by_an_imp_trap_credits_the_owner_even_after_the_imp_is_gone():
    """FL-KILL-3, FL-TRAP-14, AMB-44."""
    game = corridor("#2......#")
    put(game, 0, "imp", 3, 1)
    copy = _imp_result(game, "attack-20")
    combat.vanish(copy.ctx, copy.state.monsters[0], reason="destroyed")
    victim = copy.p(1)
    victim.evasion = 0
    victim.hp = 3
    copy.start_turn(1)
    copy.play(1, {"kind": "move", "dir": "right"})
    assert copy.p(1).phase == "move" and not copy.p(1).pending  # nothing yet: the trap is at x=3
    copy.play(1, {"kind": "move", "dir": "right"})
    assert copy.p(1).phase == "defense"
    for seed in range(40):
        run = reseeded(copy, seed)
        run.play(1, {"kind": "no_defense"})
        if not run.p(1).alive:
            assert [p.kills for p in run.state.players] == [1, 0, 0, 0]
            return
    raise AssertionError("the death check never failed")


# ---------------------------------------------------------------- the necromancer


def test_the_necromancer_casts_magic_instead_of_an_attack_one_time_in_three():
    """FL-MON-28, FL-MON-5, AMB-43: on the player it would have attacked; a pending special
    attack (row of a special attack card used 《隣接》) credited to the owner; it ends the
    actions, even for a Summoner's necromancer."""
    game = corridor("#...2...#", classes=SUMMONER_FIRST)
    necro = put(game, 0, "necromancer", 3, 1)
    magic = 0
    for copy, events in runs(game, 0, seeds=150):
        [item] = copy.p(1).pending
        assert xy_of(copy, necro.id) == (3, 1)
        if item.label == "magic":
            magic += 1
            assert (item.row, item.power, item.source, item.monster) == ("sp_adjacent", 0, 0, necro.id)
            assert item.card in copy.ctx.content.monsters["necromancer"].magic
            assert item.special == copy.ctx.content.cards[item.card].special
            [event] = [e for e in events if e.kind == "monster.magic"]
            assert event.to is None and event.data == {"owner": 0, "monster": "necromancer", "target": 1}
        else:
            assert (item.label, item.row, item.power) == ("monster", "dmg_adjacent", 11)
    assert 30 <= magic <= 70


def test_magic_copies_one_of_the_ten_special_attack_cards_uniformly():
    """FL-MON-28."""
    game = corridor("#...2...#")
    necro = put(game, 0, "necromancer", 3, 1)
    ctx = game.ctx
    for _ in range(1000):
        monsters.cast_magic(ctx, necro, game.p(1))
    counts = Counter(item.card for item in game.p(1).pending)
    assert set(counts) == set(ctx.content.monsters["necromancer"].magic)
    assert all(60 <= n <= 140 for n in counts.values()), counts


def _magic_on(game: Scenario, card: str) -> Scenario:
    """A copy where the necromancer's magic with ``card`` is waiting for player 2."""
    for seed in range(200):
        copy = reseeded(game, seed)
        monsters.cast_magic(copy.ctx, copy.state.monsters[0], copy.p(1))
        if copy.p(1).pending[0].card == card:
            return copy
    raise AssertionError(f"no magic {card!r}")


def test_magic_is_defended_only_by_special_complete_and_counter_defenses():
    """FL-MON-29, AMB-43, FL-ATK-8, FL-ATK-10: reduction and trap cards are not offered and
    "no defense" takes the special attack in full; special defense blocks it."""
    game = corridor("#...2...#", classes=["explorer", "warrior", "explorer", "explorer"])
    put(game, 0, "necromancer", 3, 1)
    hand = game.set_hand(1, "defense-10", "trap-disarm", "special-defense", "complete-defense", "counter")
    copy = _magic_on(game, "stripped")
    copy.p(1).evasion = 0
    copy.start_turn(1)
    offered = {c["card"] for c in copy.legal(1) if c["kind"] == "defend"}
    assert offered == set(hand[2:])
    assert "parry" not in copy.kinds(1)
    blocked = reseeded(copy, 1)
    blocked.play(1, {"kind": "defend", "card": hand[2]})
    assert not blocked.p(1).statuses and blocked.p(1).hp == 120
    copy.play(1, {"kind": "no_defense"})
    assert [s.id for s in copy.p(1).statuses] == ["stripped"] and copy.p(1).hp == 120


def test_magic_can_be_evaded():
    """AMB-43, FL-ATK-12: the defender's evasion applies to magic."""
    game = corridor("#...2...#")
    put(game, 0, "necromancer", 3, 1)
    copy = _magic_on(game, "fool")
    copy.p(1).evasion = 100
    events = copy.start_turn(1)
    assert not copy.p(1).pending and copy.p(1).phase == "move"
    [result] = [e for e in events if e.kind == "defense.result"]
    assert result.data["outcome"] == "evaded" and result.data["label"] == "magic"


def test_a_counter_returns_magic_to_the_necromancer():
    """FL-MON-29, FL-MON-19, AMB-30, AMB-35: a status that works on monsters lands on it; one
    that does not is lost."""
    for card, lands in (("stripped", True), ("fool", False)):
        game = corridor("#...2...#")
        put(game, 0, "necromancer", 3, 1)
        game.state.monsters[0].evasion = 0
        [counter] = game.set_hand(1, "counter")
        copy = _magic_on(game, card)
        copy.p(1).evasion = 0
        copy.start_turn(1)
        copy.play(1, {"kind": "defend", "card": counter})
        necro = copy.state.monsters[0]
        assert not copy.p(1).statuses and necro.hp == 40
        assert [s.id for s in necro.statuses] == ([card] if lands else [])


# ---------------------------------------------------------------- breath


def _breath_runs(game: Scenario, seeds: int = 60):
    """For each seed, a copy after one breath check of the game's first monster."""
    for seed in range(seeds):
        copy = reseeded(game, seed)
        ctx = copy.ctx
        breathed = monsters.breathe(ctx, copy.state.monsters[0])
        copy.events.extend(ctx.events)
        yield copy, breathed


def _breathed(game: Scenario) -> Scenario:
    for copy, breathed in _breath_runs(game):
        if breathed:
            return copy
    raise AssertionError("no breath")


def test_breath_one_time_in_three_with_a_player_in_range():
    """FL-MON-30, FL-MON-32, AMB-42: a pending terrain-row item of power 17, credited to the
    owner; the public event names the targets, no tile."""
    game = corridor("#....2..#")
    dragon = put(game, 0, "dragon", 1, 1)
    breaths = 0
    for copy, breathed in _breath_runs(game, seeds=150):
        if not breathed:
            assert not copy.p(1).pending and not copy.events
            continue
        breaths += 1
        [item] = copy.p(1).pending
        assert (item.kind, item.row, item.power, item.label, item.source, item.monster) == (
            "attack",
            "terrain",
            17,
            "breath",
            0,
            dragon.id,
        )
        [event] = copy.events
        assert event.to is None and event.data == {"owner": 0, "monster": "dragon", "targets": [1]}
    assert 30 <= breaths <= 70


def test_breath_goes_through_walls_and_doors_and_ends_the_actions():
    """FL-MON-31, FL-MON-5, FL-MON-34: the player 4 tiles ahead behind a door and a wall is
    hit; the door takes nothing; a boxed-in dragon with two actions breathes at most once."""
    game = corridor("#.#+#2..#")
    dragon = put(game, 0, "dragon", 1, 1)
    game.state.door_hp[game.at(3, 1)] = 60
    seen = 0
    for copy, events in runs(game, 0, seeds=60):
        breaths = [e for e in events if e.kind == "monster.breath"]
        assert len(breaths) <= 1 and len(copy.p(1).pending) == len(breaths)
        seen += len(breaths)
        assert xy_of(copy, dragon.id) == (1, 1)
        assert copy.state.door_hp == {copy.at(3, 1): 60} and copy.state.grid == game.state.grid
    assert seen


def test_breath_turns_ice_and_traps_in_range_into_floor_and_nothing_else():
    """FL-MON-33, FL-MON-34, AMB-42, FL-MAP-15, FL-TRAP-11: ice and traps within 4 tiles become
    normal floor; a fake, and ice and traps beyond the range stay."""
    game = corridor("#.t.~2.~#")
    game.state.traps[game.at(3, 1)] = Trap(card="attack-20", setter=1)
    game.state.traps[game.at(6, 1)] = Trap(card="attack-20", setter=1)
    put(game, 0, "dragon", 1, 1)
    copy = _breathed(game)
    row = copy.state.grid[copy.at(0, 1) : copy.at(8, 1) + 1]
    assert row == "#.t....~#"
    assert set(copy.state.traps) == {copy.at(6, 1)}


def test_breath_spares_treasures_and_exits():
    """AMB-42: treasures and exits in range are untouched."""
    game = corridor("#.TE.2..#")
    game.state.exit = game.at(3, 1)
    put(game, 0, "dragon", 1, 1)
    copy = _breathed(game)
    assert copy.state.grid == game.state.grid and copy.state.exit == game.at(3, 1)


def test_breath_spares_the_owner_and_other_monsters_and_needs_a_non_owner_target():
    """FL-MON-30, FL-MON-34: only non-owner players in range are hit; a monster in range is
    unharmed; with only the owner in range it never breathes."""
    game = corridor("#..1.2..#")
    put(game, 0, "dragon", 1, 1)
    slime = put(game, 2, "slime", 2, 1)
    copy = _breathed(game)
    assert copy.events[-1].data["targets"] == [1]
    assert not copy.p(0).pending and copy.state.monster(slime.id).hp == 30
    game = corridor("#....1..#")
    put(game, 0, "dragon", 1, 1)
    assert not any(breathed for _, breathed in _breath_runs(game, seeds=40))


def test_breath_reaches_four_tiles_straight_ahead_only():
    """FL-MON-31, AMB-42: the range is 4 tiles along the heading (the last move's direction):
    not 5 tiles ahead, not behind, not to the side."""
    for row, x, heading in (("#.....2.#", 1, "right"), ("#.2.....#", 4, "right"), ("#....2..#", 7, "up")):
        game = corridor(row)
        put(game, 0, "dragon", x, 1, heading=heading)
        assert not any(breathed for _, breathed in _breath_runs(game, seeds=40)), row
    game = corridor("#.......#", classes=SUMMONER_FIRST)
    dragon = put(game, 0, "dragon", 7, 1, heading="right")
    activate(game, 0)  # blocked ahead, it turns back: the heading is now "left"
    assert game.state.monster(dragon.id).heading == "left"
    assert monsters.breath_tiles(game.ctx, game.state.monster(dragon.id))[0] == game.state.monster(dragon.id).pos - 1


def test_breath_hits_every_player_in_range():
    """FL-MON-33: each non-owner player in range gets an item, nearest first."""
    game = corridor("#..3.2..#")
    put(game, 0, "dragon", 1, 1)
    copy = _breathed(game)
    assert copy.events[-1].data["targets"] == [2, 1]
    assert [i.label for i in copy.p(2).pending] == ["breath"]
    assert [i.label for i in copy.p(1).pending] == ["breath"]


def test_breath_comes_before_the_adjacent_attack():
    """AMB-41, AMB-42, FL-MON-5: with a player right ahead, each activation is either a breath
    or an adjacent attack, never both."""
    game = corridor("#..2....#", classes=SUMMONER_FIRST)
    put(game, 0, "dragon", 2, 1)
    outcomes = set()
    for copy, _ in runs(game, 0, seeds=60):
        [item] = copy.p(1).pending
        outcomes.add(item.label)
    assert outcomes == {"breath", "monster"}


def test_breath_is_defended_as_a_terrain_attack_and_cannot_be_evaded():
    """FL-MON-35, FL-ATK-12, FL-ATK-16: reduction and complete defense only; no counter; even
    100% evasion does not dodge it; damage 17 - base defense."""
    game = corridor("#....2..#", classes=["explorer", "warrior", "explorer", "explorer"])
    put(game, 0, "dragon", 1, 1)
    hand = game.set_hand(1, "defense-5", "trap-disarm", "special-defense", "complete-defense", "counter")
    copy = _breathed(game)
    copy.p(1).evasion = 100
    copy.start_turn(1)
    assert copy.p(1).phase == "defense"
    offered = {c["card"] for c in copy.legal(1) if c["kind"] == "defend"}
    assert offered == {hand[0], hand[3]}
    assert "parry" not in copy.kinds(1)
    copy.play(1, {"kind": "no_defense"})
    assert copy.p(1).hp == 120 - (17 - 3)
    assert combat.MATRIX["terrain"]["counter"] == combat.NO


def test_a_summoners_gargoyle_breathes_for_17_in_level_d():
    """FL-MON-32, AMB-64: Level D's Gargoyle takes the Dragon's breath rules."""
    game = corridor("#....2..#", preset="level-d", classes=["summoner", "explorer", "explorer", "explorer"])
    gargoyle = put(game, 0, "gargoyle", 1, 1)
    assert gargoyle.hp == 105 and gargoyle.attack == 17
    copy = _breathed(game)
    assert [(i.power, i.row) for i in copy.p(1).pending] == [(17, "terrain")]
    assert copy.events[-1].data["monster"] == "gargoyle"
