"""Core-phase commands other than playing a card: FL-CORE-2..10, FL-CLS-7, FL-MAP-8, FL-FAKE-4."""

from __future__ import annotations

import pytest

from delve.fated import monsters
from delve.fated.grid import EXIT, FAKE_TREASURE, FLOOR, TREASURE
from delve.fated.state import CORE, DEFENSE, WAIT, Fake
from delve.kernel import IllegalCommand

from .scenario import Scenario

MAP = [
    "C...#...C",
    ".........",
    "...12....",
    "...#.....",
    "...+.....",
    ".........",
    "....3....",
    ".......4.",
    "C.......C",
]


def game(classes=("warrior", "explorer", "cat", "thief")) -> Scenario:
    return Scenario.from_map(MAP, classes=list(classes))


def test_normal_attack_on_a_player_waits_for_their_defense_phase():
    """FL-CORE-2, FL-CARD-14, FL-DEF-7: the attack becomes the target's pending item; its outcome
    is known only when their defense phase ends."""
    g = game()
    g.to_core(0)
    g.play(0, {"kind": "attack", "dir": "right"})
    target = g.p(1)
    assert target.hp == 120 and len(target.pending) == 1
    assert target.pending[0].power == 18 and target.pending[0].row == "dmg_adjacent"
    assert not any(e.kind == "defense.result" for e in g.events)
    g.script(False)  # no evasion
    g.start_turn(1)
    assert target.phase == DEFENSE
    g.play(1, {"kind": "no_defense"})
    assert target.hp == 120 - (18 - 2)  # base attack 18 reduced by base defense 2 (FL-DEF-2)
    result = [e for e in g.events if e.kind == "defense.result"][-1]
    assert result.data["damage"] == 16 and result.data["source"] == 0 and result.public


def test_normal_attack_on_a_door_and_on_an_enemy_monster_resolves_at_once():
    """FL-CORE-2, FL-MAP-8, FL-MAP-15, FL-ATK-19, FL-ATK-20, FL-DEATH-7: doors (HP 100, def 0, eva 0)
    and monsters take the attack immediately; a door at 0 HP becomes floor; a monster at 0 HP
    vanishes with no death check."""
    g = game()
    g.p(1).pos = g.at(3, 5)  # explorer below the door at (3,4)
    g.to_core(1)
    g.play(1, {"kind": "attack", "dir": "up"})
    assert g.state.door_hp[g.at(3, 4)] == 100 - 14
    for _ in range(7):
        g.to_core(1)
        g.play(1, {"kind": "attack", "dir": "up"})
    assert g.state.grid[g.at(3, 4)] == FLOOR and g.at(3, 4) not in g.state.door_hp
    slime = monsters.summon(g.ctx, g.p(2), "slime", g.at(4, 6 - 1))
    g.p(0).pos = g.at(4, 4)
    g.to_core(0)
    g.script(False)  # the slime does not evade
    g.play(0, {"kind": "attack", "dir": "down"})
    assert slime.hp == 30 - 18
    g.to_core(0)
    g.script(False, True)  # no evasion; a death check would succeed, but monsters make none
    g.play(0, {"kind": "attack", "dir": "down"})
    assert g.state.monsters == [] and "death.survived" not in g.kinds_of()


def test_own_monsters_cannot_be_attacked():
    """FL-MON-20, AMB-13: a player never attacks their own monster."""
    g = game()
    monsters.summon(g.ctx, g.p(0), "slime", g.at(3, 1))
    g.to_core(0)
    assert {c.get("dir") for c in g.legal(0) if c["kind"] == "attack"} == {"right"}


def test_pass_by_request_swap_on_acceptance():
    """FL-CORE-3, FL-DEF-4, AMB-9, AMB-10: the request ends the requester's turn; the target swaps
    places by accepting in their defense phase."""
    g = game()
    g.to_core(0)
    g.play(0, {"kind": "pass_by", "dir": "right"})
    assert g.p(0).phase == WAIT
    g.start_turn(1)
    assert g.kinds(1) >= {"accept_pass_by", "decline_pass_by"}
    assert "no_defense" not in g.kinds(1)
    a, b = g.p(0).pos, g.p(1).pos
    g.play(1, {"kind": "accept_pass_by"})
    assert (g.p(0).pos, g.p(1).pos) == (b, a)
    assert "pass_by.accepted" in g.kinds_of()


def test_pass_by_refused_or_cancelled_when_someone_moved():
    """FL-DEF-5, FL-CORE-3, AMB-9: refusing blocks the way; a move by either player cancels it."""
    g = game()
    g.to_core(0)
    g.play(0, {"kind": "pass_by", "dir": "right"})
    g.start_turn(1)
    g.play(1, {"kind": "decline_pass_by"})
    assert g.p(0).pos == g.at(3, 2) and "pass_by.declined" in g.kinds_of()
    g.to_core(0)
    g.play(0, {"kind": "pass_by", "dir": "right"})
    g.start_turn(0)
    g.play(0, {"kind": "move", "dir": "up"})
    assert g.p(1).pending == [] and "pass_by.cancelled" in g.kinds_of()


def test_a_new_pass_by_request_replaces_the_older_one():
    """AMB-9: a requester has at most one outstanding request."""
    g = game()
    g.to_core(0)
    g.play(0, {"kind": "pass_by", "dir": "right"})
    g.to_core(0)
    g.play(0, {"kind": "pass_by", "dir": "right"})
    assert len(g.p(1).pending) == 1


def test_picking_up_treasure_counts_and_clears_the_tile():
    """FL-CORE-4, FL-MAP-11: the treasure leaves the map and the count rises."""
    g = game()
    g.state.set_tile(g.p(0).pos, TREASURE)
    g.to_core(0)
    g.play(0, {"kind": "pick_up"})
    assert g.p(0).treasures == 1 and g.state.grid[g.p(0).pos] == FLOOR
    assert any(e.kind == "treasure.found" and e.public for e in g.events)


def test_picking_up_a_fake_treasure_gives_a_random_minus_status():
    """FL-CORE-4, FL-FAKE-2, FL-FAKE-3, FL-FAKE-4, FL-FAKE-5, FL-FAKE-7: the command is spent, one
    random minus status lands, the fake stays and is known from then on."""
    g = game()
    tile = g.p(0).pos
    g.state.set_tile(tile, FAKE_TREASURE)
    g.state.fakes[tile] = Fake(setter=2)
    g.to_core(0)
    assert {"kind": "pick_up"} in g.legal(0)
    g.play(0, {"kind": "pick_up"})
    assert g.p(0).treasures == 0 and g.state.grid[tile] == FAKE_TREASURE
    assert len(g.p(0).statuses) == 1
    assert g.p(0).statuses[0].id in {"hp_poison", "cp_poison", "stripped", "sluggish", "fool", "blind", "exposed"}
    assert 0 in g.state.fakes[tile].known
    g.to_core(0)
    assert {"kind": "pick_up"} not in g.legal(0)  # now seen as a fake


def test_escape_needs_a_condition_and_an_exit():
    """FL-CORE-5, FL-WIN-4: only a qualifying player standing on the exit may escape."""
    g = game()
    g.state.set_tile(g.p(0).pos, EXIT)
    g.state.exit = g.p(0).pos
    g.to_core(0)
    assert "escape" not in g.kinds(0)
    with pytest.raises(IllegalCommand) as info:
        g.play(0, {"kind": "escape"})
    assert info.value.code == "command/cannot_escape"


def test_do_nothing_and_draw():
    """FL-CORE-6, FL-CORE-7, FL-CARD-8: draw needs 3 cards or fewer and takes the top card."""
    g = game()
    g.to_core(0)
    g.play(0, {"kind": "nothing"})
    assert g.p(0).phase == WAIT
    g.set_hand(0, "attack-10")
    top = g.state.deck[-1]
    g.to_core(0)
    g.play(0, {"kind": "draw"})
    assert g.p(0).hand[-1] == top and len(g.p(0).hand) == 2


def test_draw_reshuffles_the_discard_pile_and_yields_nothing_when_both_are_empty():
    """FL-CARD-8, AMB-19: an empty draw pile is refilled from the shuffled discard pile; with
    both empty the draw yields nothing and the command still completes."""
    g = game()
    g.set_hand(0)
    g.state.discard.extend(g.state.deck)
    g.state.deck.clear()
    g.to_core(0)
    g.play(0, {"kind": "draw"})
    assert len(g.p(0).hand) == 1 and g.state.deck
    g.state.removed.extend(g.state.deck + g.state.discard)
    g.state.deck.clear()
    g.state.discard.clear()
    g.to_core(0)
    g.play(0, {"kind": "draw"})
    assert len(g.p(0).hand) == 1 and g.p(0).phase == WAIT


def test_cat_jumps_over_a_character_for_20_cp():
    """FL-CORE-10, FL-CLS-7, FL-CLS-9, AMB-12: two tiles, over a player, 20 CP flat."""
    g = game(classes=("cat", "explorer", "warrior", "thief"))
    g.to_core(0)
    assert {"kind": "jump", "dir": "right"} in g.legal(0)
    g.play(0, {"kind": "jump", "dir": "right"})
    assert g.p(0).pos == g.at(5, 2) and g.p(0).cp == 100


def test_jump_cannot_cross_walls_or_land_on_occupied_tiles():
    """FL-CORE-10, AMB-12: the middle tile must not be a wall or door; the landing must be free."""
    g = game(classes=("cat", "explorer", "warrior", "thief"))
    g.p(0).pos = g.at(3, 0)  # a wall at (4,0) to the right, floor beyond it
    g.to_core(0)
    assert "right" not in {c["dir"] for c in g.legal(0) if c["kind"] == "jump"}
    g.p(0).pos = g.at(3, 1)  # down: over (3,2) onto the wall at (3,3)
    assert "down" not in {c["dir"] for c in g.legal(0) if c["kind"] == "jump"}
    g.p(0).pos = g.at(3, 2)
    g.p(2).pos = g.at(5, 2)  # the landing tile is taken
    assert "right" not in {c["dir"] for c in g.legal(0) if c["kind"] == "jump"}
    g.p(0).cp = 19
    assert "jump" not in g.kinds(0)


def test_only_the_cat_class_can_jump():
    """FL-CORE-10, FL-CLS-8: other classes have no jump."""
    g = game()
    g.to_core(0)
    assert "jump" not in g.kinds(0)
    with pytest.raises(IllegalCommand) as info:
        g.play(0, {"kind": "jump", "dir": "down"})
    assert info.value.code in {"command/not_your_class", "command/invalid_target"}
    assert g.p(0).phase == CORE


def test_using_an_attack_card_pays_cp_discards_it_and_draws_a_replacement():
    """FL-CORE-1, FL-CARD-6, FL-CARD-7, AMB-20, FL-USE-3, FL-STAT-5: pay CP, the card goes to the
    discard pile, the effect is created (a pending item with card power + base attack for an
    adjacent damage card), one replacement card is drawn."""
    g = game()
    (card,) = g.set_hand(0, "attack-20")
    top = g.state.deck[-1]
    g.to_core(0)
    g.play(0, {"kind": "use_card", "card": card, "use": "adjacent", "dir": "right"})
    assert g.state.discard[-1] == card and g.p(0).hand == [top]
    assert g.p(0).cp == 120 - g.ctx.card(card).uses["adjacent"]
    (item,) = g.p(1).pending
    assert (item.power, item.row, item.card) == (20 + 18, "dmg_adjacent", "attack-20")
