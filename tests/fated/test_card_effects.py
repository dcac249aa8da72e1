"""Playing cards (FL-CORE-1, FL-USE-1..6, FL-CARD-2, FL-CARD-5..15) and what each effect
primitive does (spec §20: MC-9..MC-17), through real commands."""

from __future__ import annotations

import pytest

from delve.fated.grid import DOOR, FLOOR, ICE, TREASURE
from delve.fated.state import Status

from .cardkit import arena, events, has_use, kind_of, place_trap, use

#: A door right of seat 1 (at (3, 3)), walls around; seats 3 and 4 far away.
WALLED = [
    ".......",
    "...#...",
    "..#....",
    "..12+..",
    "...#...",
    ".......",
    "3.....4",
]


def kinds(game, seat: int) -> list[str]:
    return [kind_of(game, c) for c in game.p(seat).hand]


# ---------------------------------------------------------------- the three uses


def test_adjacent_use_adds_base_attack_and_hits_players_monsters_and_doors_FL_USE_3():
    """FL-USE-3, AMB-13: 《隣接》 adds the user's base attack; targets an adjacent player, an
    adjacent enemy monster (at once) or, for damage cards only, a door; never an own monster."""
    game = arena(["warrior", "explorer", "priest", "thief"], rows=WALLED)
    game.to_core(1)
    use(game, 1, "attack-20", use="adjacent", dir="right")  # the door: 100 - (20 + 14)
    assert game.state.door_hp[game.at(4, 3)] == 66
    game.to_core(1)
    game.set_hand(1, "stripped")
    assert not has_use(game, 1, "stripped", use="adjacent", dir="right")  # no specials on doors
    game.to_core(0)
    use(game, 0, "attack-20", use="adjacent", dir="right")
    assert game.p(1).pending[0].power == 20 + 18
    game.to_core(0)
    use(game, 0, "summon-slime", dir="down")
    game.to_core(0)
    game.set_hand(0, "attack-10")
    assert not has_use(game, 0, "attack-10", use="adjacent", dir="down")  # own monster
    game.p(2).pos = game.at(2, 5)
    game.to_core(2)
    game.state.monsters[0].evasion = 0
    use(game, 2, "attack-10", use="adjacent", dir="up")  # an enemy monster: at once
    assert game.state.monsters[0].hp == 30 - (10 + 10)


def test_remote_use_targets_any_other_living_player_only_FL_USE_4():
    """FL-USE-4: any other living player wherever they are; not oneself, the dead, monsters or
    doors."""
    game = arena()
    game.to_core(0)
    use(game, 0, "summon-slime", dir="up")
    game.p(3).alive = False
    game.state.removed.extend(game.p(3).hand)
    game.p(3).hand = []
    game.to_core(0)
    game.set_hand(0, "attack-10")
    remote = [c.get("target") for c in game.legal(0) if c.get("use") == "remote"]
    assert sorted(remote) == [1, 2]


def test_non_attack_cards_have_no_use_choice_FL_USE_6():
    """FL-USE-6: other categories name their own target instead of a use."""
    game = arena()
    game.to_core(0)
    game.set_hand(0, "potion", "summon-slime", "switch")
    for command in game.legal(0):
        if command["kind"] == "use_card":
            assert "use" not in command
    assert has_use(game, 0, "potion") and has_use(game, 0, "switch", target=2)
    assert has_use(game, 0, "summon-slime", dir="up")


def test_defense_cards_only_in_the_defense_phase_others_only_in_the_core_FL_CARD_2():
    """FL-CARD-2: defense cards only in the defense phase, every other card only in the core phase."""
    game = arena()
    game.set_hand(1, "defense-10", "potion")
    game.to_core(1)
    assert [kind_of(game, c["card"]) for c in game.legal(1) if c["kind"] == "use_card"] == ["potion"]
    game.to_core(0)
    use(game, 0, "attack-20", use="remote", target=1)
    game.start_turn(1)
    offered = {c["kind"] for c in game.legal(1)}
    assert "use_card" not in offered and {"no_defense", "defend"} <= offered


# ---------------------------------------------------------------- the piles


def test_a_used_card_is_discarded_and_replaced_in_the_core_phase_only_FL_CARD_6_FL_CARD_7():
    """FL-CARD-6: used cards go to the discard pile (traps and defense cards too); FL-CARD-7: one
    replacement is drawn only after a core-phase use; AMB-20: discarded before the draw."""
    game = arena()
    game.to_core(0)
    hand = len(game.p(0).hand)
    card = game.give(0, "attack-20")[0]
    use(game, 0, "attack-20", use="trap")
    assert game.state.discard[-1] == card  # the trap lives on the map, the card is discarded
    assert len(game.p(0).hand) == hand + 1  # given one, used it, drew one replacement
    game.set_hand(1, "defense-10")
    game.to_core(2)
    use(game, 2, "attack-10", use="remote", target=1)
    game.start_turn(1)
    card = game.p(1).hand[0]
    game.play(1, {"kind": "defend", "card": card})
    assert game.p(1).hand == [] and game.state.discard[-1] == card  # no replacement (FL-DEF-1)


def test_drawing_reshuffles_the_discard_pile_and_yields_nothing_when_both_are_empty_FL_CARD_8():
    """FL-CARD-8, AMB-19/20: an empty draw pile is refilled by shuffling the discard pile; with
    both empty a draw yields nothing and the command still completes."""
    game = arena()
    state = game.state
    potion, first, second = game.set_hand(0, "potion", "windfall", "windfall")
    state.discard.extend(state.deck)
    state.deck = []
    game.to_core(0)
    game.play(0, {"kind": "use_card", "card": first})
    assert events(game, "deck.reshuffled") and len(state.deck) > 400
    assert len(game.p(0).hand) == 3 - 1 + 2 + 1
    # park every other card in seat 3's hand: both piles are empty now
    game.p(3).hand.extend(state.deck + state.discard + [c for c in game.p(0).hand if c not in (potion, second)])
    game.p(0).hand = [potion, second]
    state.deck, state.discard = [], []
    game.to_core(0)
    game.play(0, {"kind": "use_card", "card": potion})
    assert game.p(0).hand == [second, potion]  # discarded, reshuffled and drawn back (AMB-20)
    game.to_core(0)
    game.play(0, {"kind": "use_card", "card": second})  # draw 2 + refill: only itself comes back
    assert game.p(0).hand == [potion, second] and game.p(0).phase == "wait"
    assert [e for e in game.events if e.kind == "cards.none_left" and e.to == (0,)]
    assert game.card_total() == 500


def test_the_hand_limit_applies_at_the_end_of_the_core_phase_FL_CARD_9_FL_CARD_10():
    """FL-CARD-9, FL-CARD-10, AMB-21: over max cards, random cards are discarded down to the limit, at the
    end of the core phase only (holding more meanwhile is allowed)."""
    game = arena(["sorcerer", "warrior", "priest", "thief"])
    game.to_core(0)
    game.set_hand(0, *(["potion"] * 5), *(["defense-10"] * 4), "windfall")
    assert len(game.p(0).hand) == 10 == game.p(0).max_cards
    use(game, 0, "windfall")  # 9 + 2 drawn + 1 refill = 12, back to 10 at the end of the phase
    assert len(game.p(0).hand) == 10
    assert events(game, "cards.over_limit")
    game.set_hand(0, *(["potion"] * 6), *(["defense-10"] * 5))
    game.start_turn(0)
    assert len(game.p(0).hand) == 11  # during the move phases


def test_a_dead_players_hand_leaves_the_game_FL_CARD_11():
    """FL-CARD-11: a dead player's cards are removed from the game, not discarded."""
    from delve.fated import death

    game = arena()
    hand = list(game.p(1).hand)
    death.die(game.ctx, game.p(1), credit=0, cause="test")
    assert game.p(1).hand == [] and game.state.removed[-len(hand) :] == hand
    assert game.card_total() == 500


def test_the_piles_are_counted_in_every_view_FL_CARD_12():
    """FL-CARD-12, FL-UI-4: every view shows the draw and discard pile sizes (never their order)."""
    game = arena()
    game.to_core(0)
    use(game, 0, "potion")
    for seat in (0, 1, None):
        assert game.view(seat)["piles"] == {"deck": len(game.state.deck), "discard": len(game.state.discard)}


def test_an_attack_on_a_player_becomes_known_after_the_defense_phase_FL_CARD_14():
    """FL-CARD-14, FL-DEF-7: the use is logged at once; the damage only when the defender's
    defense phase has ended. Attacks on monsters are known at once."""
    game = arena()
    game.to_core(0)
    use(game, 0, "attack-20", use="remote", target=1)
    assert events(game, "card.used")[-1] == {"player": 0, "card": "attack-20", "use": "remote", "target": 1}
    assert not events(game, "defense.result")
    game.start_turn(1)
    game.play(1, {"kind": "no_defense"})
    assert events(game, "defense.result")[-1]["damage"] == 17


def test_influence_cards_take_effect_at_once_and_cannot_be_defended_FL_CARD_15():
    """FL-CARD-15, AMB-36: no pending item, no defense phase; the outcome is immediate."""
    game = arena()
    game.p(1).cp = 50
    game.p(0).cp = 100
    game.to_core(0)
    use(game, 0, "siphon", target=1)
    assert game.p(1).pending == [] and game.p(1).cp == 35 and game.p(0).cp == 100 - 4 + 15


# ---------------------------------------------------------------- recovery and utility


def test_recovery_stops_at_max_and_poison_needs_its_cure_MC_11():
    game = arena()
    game.p(0).hp = 110
    game.p(0).cp = 100
    game.to_core(0)
    use(game, 0, "elixir")
    assert (game.p(0).hp, game.p(0).cp) == (120, 120)
    game.p(0).statuses = [Status(id="hp_poison"), Status(id="cp_poison"), Status(id="blind", turns=3)]
    game.to_core(0)
    use(game, 0, "remedy")
    assert {s.id for s in game.p(0).statuses} == {"hp_poison", "cp_poison"}
    game.to_core(0)
    use(game, 0, "panacea")
    assert game.p(0).statuses == []


def test_stat_raises_are_permanent_and_capped_FL_STAT_13():
    """FL-STAT-13, MC-12: utility cards raise statistics for good, up to their cap."""
    game = arena(["warrior", "explorer", "priest", "thief"])
    game.p(0).hp = 100
    for kind in ("strength", "strength", "strength", "vitality", "big-pouch"):
        game.to_core(0)
        use(game, 0, kind)
    player = game.p(0)
    assert player.attack == 18 + 9 and player.max_hp == 140 and player.hp == 120 and player.max_cards == 15
    player.attack = 29
    game.to_core(0)
    use(game, 0, "strength")
    assert player.attack == 30  # the cap


# ---------------------------------------------------------------- monsters: summon and influence


def test_summon_on_an_adjacent_free_tile_only_AMB_46():
    """AMB-46, FL-MON-1: the summoner picks an adjacent valid move destination; the monster's
    heading points away; with no free tile the card cannot be used."""
    game = arena(rows=WALLED)
    game.to_core(0)
    game.set_hand(0, "summon-imp")
    dirs = sorted(c["dir"] for c in game.legal(0) if c["kind"] == "use_card")
    assert dirs == ["down", "left"]  # up is a wall, right is seat 1
    use(game, 0, "summon-imp", dir="left")
    imp = game.state.monsters[0]
    assert (imp.kind, imp.owner, imp.pos, imp.heading) == ("imp", 0, game.at(1, 3), "left")
    assert events(game, "monster.summoned")
    game = arena(rows=["###....", "#1#....", "###2...", ".......", ".......", ".......", "3.....4"])
    game.to_core(0)
    game.set_hand(0, "summon-slime")
    assert not has_use(game, 0, "summon-slime", dir="up")
    assert not [c for c in game.legal(0) if c["kind"] == "use_card"]


def test_influence_on_monsters_paralyze_dispel_feed_charm_MC_13():
    """MC-11, MC-13, FL-MON-21: Paralysis (monsters only) stops a monster; Dispel clears its
    statuses; Feed heals it beyond its summoned HP; Charm makes it yours."""
    from delve.fated import monsters

    game = arena()
    game.to_core(1)
    use(game, 1, "summon-golem", dir="up")
    golem = game.state.monsters[0]
    game.to_core(0)
    assert not has_use(game, 0, "feed", monster=999)
    use(game, 0, "paralyze", monster=golem.id)
    assert golem.statuses == [Status(id="paralysis")]
    before = golem.pos
    monsters.act(game.ctx, golem)
    assert golem.pos == before and not game.p(0).pending  # a paralysed monster does nothing
    game.to_core(1)
    use(game, 1, "dispel", monster=golem.id)
    assert golem.statuses == []
    game.to_core(1)
    use(game, 1, "feed", monster=golem.id)
    assert golem.hp == 80
    game.to_core(0)
    use(game, 0, "charm", monster=golem.id)
    assert golem.owner == 0 and events(game, "monster.charmed")
    game.to_core(0)
    game.set_hand(0, "charm", "paralyze")
    assert not has_use(game, 0, "charm", monster=golem.id)  # own now: not an enemy monster


# ---------------------------------------------------------------- terrain


def test_terrain_cards_open_walls_and_doors_freeze_and_seal_MC_9():
    game = arena(["explorer", "warrior", "priest", "thief"], rows=WALLED)
    game.p(0).pos = game.at(2, 3)
    game.to_core(0)
    use(game, 0, "tunnel", dir="up")
    assert game.state.grid[game.at(2, 2)] == FLOOR
    game.to_core(1)
    use(game, 1, "unlock", dir="right")
    assert game.state.grid[game.at(4, 3)] == FLOOR
    game.to_core(1)
    use(game, 1, "demolish", dir="down")
    assert game.state.grid[game.at(3, 4)] == FLOOR
    game.to_core(1)
    use(game, 1, "seal", dir="down")
    assert game.state.grid[game.at(3, 4)] == DOOR and game.at(3, 4) not in game.state.door_hp
    game.to_core(1)
    use(game, 1, "freeze", dir="right")
    assert game.state.grid[game.at(4, 3)] == ICE
    game.to_core(1)
    game.set_hand(1, "seal", "tunnel")
    assert not has_use(game, 1, "seal", dir="left")  # occupied by seat 0
    assert not [c for c in game.legal(1) if c["kind"] == "use_card" and kind_of(game, c["card"]) == "tunnel"]


def test_area_damage_hits_players_as_items_and_enemy_monsters_at_once_FL_ATK_1():
    """FL-ATK-1, MC-9: an attacking terrain card (Quake) gives every other player in the area a
    row-10 item (not evadable) and hits enemy monsters at once with no evasion; the user and
    the user's monsters are spared."""
    game = arena()
    game.to_core(0)
    use(game, 0, "summon-slime", dir="up")
    game.to_core(3)
    game.p(3).pos = game.at(1, 4)
    use(game, 3, "summon-ghost", dir="up")
    ghost = next(m for m in game.state.monsters if m.kind == "ghost")
    ghost.evasion = 100
    game.p(1).evasion = 100
    game.to_core(0)
    use(game, 0, "quake")
    assert game.state.monsters[0].hp == 30  # own slime spared
    assert ghost.hp == 25 - 15  # no evasion roll
    assert [i.row for i in game.p(1).pending] == ["terrain"] and [i.row for i in game.p(3).pending] == ["terrain"]
    game.start_turn(1)
    assert game.p(1).phase == "defense"  # evasion 100 does not help against terrain
    game.play(1, {"kind": "no_defense"})
    assert game.p(1).hp == 120 - 12


def test_eruption_melts_ice_blizzard_freezes_lightning_goes_through_walls():
    game = arena(rows=[".......", ".......", "..~....", "..12...", "...~...", "...#...", "3..4..."])
    game.to_core(0)
    use(game, 0, "eruption")
    assert ICE not in game.state.grid
    game = arena()
    game.to_core(0)
    use(game, 0, "blizzard")
    assert all(game.state.grid[game.at(x, y)] == ICE for x in (1, 2) for y in (2, 3, 4))
    assert game.state.grid[game.at(3, 3)] == ICE  # under seat 1 too (it slips only when moving)
    game = arena(rows=[".......", ".......", ".......", ".1#.2..", ".......", ".......", "3.....4"])
    game.to_core(0)
    use(game, 0, "lightning", dir="right")
    assert [i.row for i in game.p(1).pending] == ["terrain"] and game.p(1).pending[0].power == 20


def test_trap_sweep_clears_every_trap_around():
    game = arena()
    traps = [place_trap(game, 0, 1, "blind", 1), place_trap(game, 4, 5, "blind", 0), place_trap(game, 5, 5, "blind", 1)]
    game.to_core(0)
    use(game, 0, "sweep")
    assert set(game.state.traps) == {traps[2]}


# ---------------------------------------------------------------- moving characters


def test_cards_move_characters_without_triggering_traps_MC_10():
    """MC-10: Dash (straight, stops before an obstacle), Teleport, Switch, Banish, Knockback."""
    game = arena(rows=WALLED)
    game.p(0).pos = game.at(1, 3)
    game.to_core(0)
    use(game, 0, "dash", dir="up")
    assert game.p(0).pos == game.at(1, 0)
    game.to_core(0)
    use(game, 0, "teleport")
    assert game.p(0).pos != game.at(1, 0) and game.state.grid[game.p(0).pos] == FLOOR
    start0, start1 = game.p(0).pos, game.p(1).pos
    game.to_core(0)
    use(game, 0, "switch", target=1)
    assert (game.p(0).pos, game.p(1).pos) == (start1, start0)
    game.to_core(2)
    use(game, 2, "banish", target=0)
    assert game.p(0).pos != start1
    game = arena()
    game.to_core(0)
    use(game, 0, "knockback", dir="right")
    assert game.p(1).pos == game.at(6, 3)


def test_knockback_pushes_an_enemy_monster():
    game = arena()
    game.to_core(1)
    use(game, 1, "summon-zombie", dir="down")  # at (3, 4)
    game.p(0).pos = game.at(3, 5)
    game.to_core(0)
    use(game, 0, "knockback", dir="up")  # pushed up: blocked by seat 1 at once
    assert game.state.monsters[0].pos == game.at(3, 4)
    game.p(0).pos = game.at(2, 4)
    game.to_core(0)
    use(game, 0, "knockback", dir="right")
    assert game.state.monsters[0].pos == game.at(6, 4)


# ---------------------------------------------------------------- players: information and cards


def test_peek_barter_map_dowse_draw_MC_16():
    game = arena()
    game.set_hand(1, "potion", "counter")
    game.to_core(0)
    use(game, 0, "peek", target=1)
    seen = [e for e in game.events if e.kind == "hand.seen"]
    assert seen[-1].to == (0,) and seen[-1].data["kinds"] == ["counter", "potion"]
    game.set_hand(0, "barter", "attack-50")
    game.to_core(0)
    use(game, 0, "barter", target=1)
    assert sorted(kinds(game, 1)) in (["attack-50", "counter"], ["attack-50", "potion"])
    game.to_core(0)
    use(game, 0, "map")
    assert "?" not in "".join(game.p(0).memory)  # radius 5 covers the 7x7 arena
    game.state.set_tile(game.at(6, 0), TREASURE)
    game.state.set_tile(game.at(0, 0), TREASURE)
    game.p(2).pos = game.at(6, 5)
    game.p(2).memory = "?" * 49
    game.to_core(2)
    use(game, 2, "dowsing")
    assert game.p(2).memory[game.at(6, 0)] == TREASURE and game.p(2).memory[game.at(0, 0)] == "?"


# ---------------------------------------------------------------- special effects


def test_special_effects_cp_drain_loss_misfortune_treasure_toss_pickpocket_MC_17():
    """C-4/C-5 CP Drain (20), C-13 Loss (2 cards), C-14 Misfortune (every plus status), C-15
    Treasure Toss (flung; the exit may close), MC-17 Pickpocket (a card to the attacker)."""
    game = arena()

    def hit(kind: str) -> None:
        game.to_core(0)
        use(
            game,
            0,
            kind,
            use="remote" if kind != "pickpocket" else "adjacent",
            **({"target": 1} if kind != "pickpocket" else {"dir": "right"}),
        )
        game.start_turn(1)
        game.play(1, {"kind": "no_defense"})
        game.play(1, {"kind": "stay"})
        game.play(1, {"kind": "nothing"})

    hit("attack-15-cp-drain")
    assert (game.p(1).hp, game.p(1).cp) == (120 - 12, 100)
    game.set_hand(1, "potion", "potion", "potion")
    hit("loss")
    assert len(game.p(1).hand) == 1
    game.p(1).statuses = [Status(id="haste", turns=5), Status(id="float", turns=5), Status(id="blind", turns=5)]
    hit("misfortune")
    assert [s.id for s in game.p(1).statuses] == ["blind"]
    game.p(1).treasures = 1
    hit("treasure-toss")
    assert game.p(1).treasures == 0 and TREASURE in game.state.grid
    game.set_hand(1, "counter")
    hand0 = len(game.p(0).hand)
    hit("pickpocket")
    assert game.p(1).hand == [] and "counter" in kinds(game, 0) and len(game.p(0).hand) == hand0 + 1


def test_deadly_poison_stacks_twice_on_a_monster_too():
    game = arena()
    game.to_core(1)
    use(game, 1, "summon-zombie", dir="down")
    game.state.monsters[0].evasion = 0
    game.p(0).pos = game.at(2, 4)
    game.to_core(0)
    use(game, 0, "deadly-poison", use="adjacent", dir="right")
    assert game.state.monsters[0].statuses == [Status(id="hp_poison", strength=2)]


@pytest.mark.parametrize("kind", ["flash", "quicksilver", "riddle", "transmute", "flare", "whirlwind"])
def test_special_attack_utility_cards_work_both_ways_C_28(kind):
    """C-28: usable as a special attack (its uses) or as a utility card (its own cost)."""
    game = arena()
    card = game.ctx.content.cards[kind]
    game.to_core(0)
    game.set_hand(0, kind)
    assert has_use(game, 0, kind) and has_use(game, 0, kind, use="remote", target=1)
    use(game, 0, kind)
    assert game.p(0).has(card.effects[0].status or "")
    game.to_core(0)
    use(game, 0, kind, use="remote", target=1)
    assert game.p(1).pending[0].special == card.special and game.p(1).pending[0].row == "sp_remote"


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_every_core_card_kind_can_be_played_somewhere(preset):
    """No card is dead weight: every non-defense kind has a legal use in a plain situation."""
    game = arena(rows=WALLED, preset=preset)
    game.to_core(0)
    use(game, 0, "summon-slime", dir="down")
    in_set = game.ctx.content.copies(preset)
    for kind, card in game.ctx.content.cards.items():
        if card.category == "defense" or kind not in in_set:
            continue
        seat = 1  # next to a wall, a door, a floor, seat 0 and its slime
        game.to_core(seat)
        game.set_hand(seat, kind)
        assert [c for c in game.legal(seat) if c["kind"] == "use_card"], kind
