"""Attacks and their resolution beyond the matrix cells (FL-ATK-1..3, 5, 11, 12, 16, 18..21)."""

from __future__ import annotations

from delve.fated import combat, content, death, monsters
from delve.fated.grid import FLOOR

from .cardkit import arena, defend, events, offered_defenses, use

DATA = content.load()

WALLED = [
    ".......",
    ".......",
    ".......",
    "..12+..",
    ".......",
    ".......",
    "3.....4",
]


def test_the_cards_that_attack_directly_FL_ATK_1_FL_ATK_2():
    """FL-ATK-1, FL-ATK-2: damage cards (with or without a special) and special attack cards attack with
    their uses (rows 1-9); some terrain-change cards attack (row 10)."""
    rows = set()
    for card in DATA.cards.values():
        for use_ in card.uses:
            rows.add(combat.row_for(card, use_))
    assert rows == set(combat.ROWS) - {"terrain"}
    assert combat.row_for(DATA.cards["attack-20"], "remote") == "dmg_remote"
    assert combat.row_for(DATA.cards["attack-10-blind"], "trap") == "dmgsp_trap"
    assert combat.row_for(DATA.cards["blind"], "adjacent") == "sp_adjacent"
    attacking_terrain = [c.id for c in DATA.cards.values() if any(e.op == "blast" for e in c.effects)]
    assert attacking_terrain and all(DATA.cards[c].category == "terrain" for c in attacking_terrain)
    assert len(attacking_terrain) < len([c for c in DATA.cards.values() if c.category == "terrain"])


def test_special_attacks_are_minus_statuses_or_special_effects_FL_ATK_3():
    """FL-ATK-3: a special attack is a minus status or an instant special effect."""
    for card in DATA.cards.values():
        if card.special is not None:
            assert card.special in content.SPECIAL_EFFECTS or DATA.statuses[card.special].kind == "minus"


def test_non_card_attacks_take_their_rows_FL_ATK_5():
    """FL-ATK-5: a monster's attack is a normal attack (row 4); a steal is a special attack used
    adjacent (AMB-29); poison ticks and fakes are not attacks (no pending item)."""
    game = arena()
    game.to_core(0)
    use(game, 0, "summon-golem", dir="up")
    golem = game.state.monsters[0]
    golem.pos = game.at(3, 2)  # next to seat 1
    golem.evasion = 0
    monsters.attack(game.ctx, golem, game.p(1))
    item = game.p(1).pending[0]
    assert (item.row, item.power, item.source, item.monster) == ("dmg_adjacent", 18, 0, golem.id)
    game.set_hand(1, "counter")
    game.start_turn(1)
    defend(game, 1, "counter")  # bounced back onto the monster, at once (AMB-30)
    assert golem.hp == 50 - (18 - 2) and events(game, "monster.attacked")[-1]["label"] == "reflected"


def test_evasion_is_rolled_before_any_choice_and_not_against_terrain_FL_ATK_12():
    """FL-ATK-12, AMB-24: an evadable attack misses entirely on a successful roll (no choice is
    offered, the outcome is logged); terrain damage is never evaded."""
    game = arena()
    game.p(1).evasion = 100
    game.to_core(0)
    use(game, 0, "attack-50", use="remote", target=1)
    game.p(2).pos = game.at(2, 4)
    game.to_core(2)
    use(game, 2, "quake")
    game.start_turn(1)
    assert events(game, "defense.result")[0]["outcome"] == "evaded"
    assert game.p(1).phase == "defense" and game.p(1).pending[0].row == "terrain"


def test_a_finishing_blow_leads_to_the_death_check_and_credits_the_attacker_FL_ATK_18(monkeypatch):
    """FL-ATK-18, FL-DEATH-1..3: HP 0 after resolution means a death check; on failure the item's source is credited."""
    monkeypatch.setattr(death, "DEATH_CHECK_SUCCESS", (1, 1))  # survives the check: HP 10
    game = arena()
    game.p(1).hp = 10
    game.to_core(0)
    use(game, 0, "attack-30", use="remote", target=1)
    game.start_turn(1)
    game.play(1, {"kind": "no_defense"})
    assert game.p(1).alive and game.p(1).hp == 10 and events(game, "death.survived")
    monkeypatch.setattr(death, "DEATH_CHECK_SUCCESS", (0, 1))
    game.p(1).hp = 10
    game.play(1, {"kind": "stay"})
    game.play(1, {"kind": "nothing"})
    game.to_core(0)
    use(game, 0, "attack-30", use="remote", target=1)
    game.start_turn(1)
    game.play(1, {"kind": "no_defense"})
    assert not game.p(1).alive and game.p(0).kills == 1


def test_attacks_on_monsters_resolve_at_once_with_their_defense_and_statuses_FL_ATK_19():
    """FL-ATK-19: evasion with the monster's evasion, D = floor(max(0, B - def) x m), only
    statuses that work on monsters; at 0 HP it vanishes."""
    game = arena(["warrior", "explorer", "priest", "thief"])
    game.to_core(1)
    use(game, 1, "summon-golem", dir="up")  # at (3, 2); defense 2
    golem = game.state.monsters[0]
    golem.evasion = 0
    game.p(0).pos = game.at(2, 2)
    game.to_core(0)
    use(game, 0, "attack-10-stripped", use="adjacent", dir="right")  # 10 + 18 - 2 = 26
    assert golem.hp == 50 - 26 and golem.statuses[0].id == "stripped"
    game.to_core(0)
    game.play(0, {"kind": "attack", "dir": "right"})  # (18 - 2) x 1.5 = 24 -> vanished
    assert golem not in game.state.monsters
    assert events(game, "monster.vanished")[-1]["reason"] == "destroyed"
    golem2 = monsters.summon(game.ctx, game.p(1), "golem", game.at(3, 2))
    golem2.evasion = 100
    report = combat.hit_monster(game.ctx, 0, golem2, 40, None, label="adjacent")
    assert report["outcome"] == "evaded" and golem2.hp == 50


def test_doors_take_full_damage_no_evasion_and_break_at_0_FL_ATK_20():
    """FL-ATK-20, FL-MAP-8, AMB-74: door HP 100, defense 0, evasion 0; damage persists; at 0 the
    door becomes normal floor (logged)."""
    game = arena(["explorer", "warrior", "priest", "thief"], rows=WALLED)
    door = game.at(4, 3)
    game.to_core(1)
    use(game, 1, "attack-50", use="adjacent", dir="right")  # 50 + 18
    assert game.state.door_hp[door] == 32
    game.to_core(1)
    game.play(1, {"kind": "attack", "dir": "right"})
    assert game.state.door_hp[door] == 14
    game.to_core(1)
    game.play(1, {"kind": "attack", "dir": "right"})
    assert game.state.grid[door] == FLOOR and door not in game.state.door_hp
    assert events(game, "door.destroyed")


def test_items_resolve_after_moves_void_on_dead_targets_and_outlive_their_source_FL_ATK_21():
    """FL-ATK-21, AMB-73: adjacency is checked at use; the item resolves after the target moved
    away; an item from a dead source still resolves."""
    game = arena()
    game.to_core(0)
    use(game, 0, "attack-20", use="adjacent", dir="right")
    game.p(1).pos = game.at(6, 0)
    death.die(game.ctx, game.p(0), credit=death.CREDIT_NONE, cause="test")
    game.start_turn(1)
    game.play(1, {"kind": "no_defense"})
    assert game.p(1).hp == 120 - (20 + 14 - 3)
    game.to_core(2)
    use(game, 2, "attack-20", use="remote", target=3)
    death.die(game.ctx, game.p(3), credit=death.CREDIT_NONE, cause="test")
    assert game.p(3).pending == []


def test_counter_cards_bounce_the_attack_FL_ATK_16():
    """FL-ATK-16, AMB-30: Counter returns the attack to its source; Deflect sends it to a random
    other living player (not the source); Drag Along hurts both; a reflected attack cannot be
    reflected again; the reflecting player is the new source."""
    game = arena()
    game.to_core(0)
    use(game, 0, "attack-20", use="remote", target=1)
    game.set_hand(1, "deflect")
    game.start_turn(1)
    defend(game, 1, "deflect")
    assert game.p(1).hp == 120 and not game.p(0).pending
    bounced = [p for p in game.state.players if p.pending]
    assert len(bounced) == 1 and bounced[0].seat in (2, 3)
    item = bounced[0].pending[0]
    assert item.reflected and item.source == 1 and item.power == 20
    seat = bounced[0].seat
    game.set_hand(seat, "counter", "drag-along", "defense-5")
    game.start_turn(seat)
    assert offered_defenses(game, seat) == {"no_defense", "defense-5"}  # no counter on a reflection

    game = arena()
    game.to_core(0)
    use(game, 0, "attack-20", use="remote", target=1)
    game.set_hand(1, "drag-along")
    game.start_turn(1)
    defend(game, 1, "drag-along")
    assert game.p(1).hp == 120 - 17 and game.p(0).pending[0].source == 1
