"""Traps and fakes (FL-TRAP-1..14, FL-FAKE-1..8), set with cards 《罠》 and the Fake card."""

from __future__ import annotations

import pytest

from delve.fated import core, death, monsters, moves, visibility
from delve.fated.grid import EXIT, FAKE_EXIT, FAKE_TREASURE, FLOOR, ICE, TREASURE
from delve.kernel import IllegalCommand

from .cardkit import arena, defend, events, has_use, place_trap, use

#: Seat 1 stands on (3, 3); the corridor below it leads to (3, 5); walls keep things in line.
CORRIDOR = [
    ".......",
    ".......",
    ".......",
    "..12...",
    "...#...",
    ".......",
    "3.....4",
]


def set_trap(game, seat: int, kind: str) -> int:
    """``seat`` sets a ``kind`` trap on its own tile in its core phase; returns the tile."""
    game.to_core(seat)
    tile = game.p(seat).pos
    use(game, seat, kind, use="trap")
    return tile


def step_on(game, seat: int, direction: str) -> None:
    game.start_turn(seat)
    game.play(seat, {"kind": "move", "dir": direction})


def test_a_trap_card_sets_a_trap_of_its_kind_on_the_own_tile_FL_TRAP_1_FL_USE_2():
    """FL-TRAP-1, FL-USE-2: the trap records the card kind and its setter; the card itself goes
    to the discard pile (FL-CARD-6); the setter knows it."""
    game = arena()
    tile = set_trap(game, 0, "attack-20")
    trap = game.state.traps[tile]
    assert (trap.card, trap.setter) == ("attack-20", 0)
    assert game.ctx.card(game.state.discard[-1]).id == "attack-20"
    assert visibility.perceived(game.state, 0, tile) == visibility.OWN_TRAP


def test_the_setter_never_triggers_its_own_trap_FL_TRAP_2():
    """FL-TRAP-2: a player never triggers a trap they set."""
    game = arena()
    tile = set_trap(game, 0, "attack-40")
    game.start_turn(0)
    game.play(0, {"kind": "move", "dir": "up"})
    game.play(0, {"kind": "move", "dir": "down"})
    assert game.p(0).pos == tile and game.p(0).hp == 120 and tile in game.state.traps


def test_monsters_never_trigger_traps_FL_TRAP_3():
    """FL-TRAP-3: monsters walk over traps without triggering them."""
    game = arena(rows=["#.#....", "#.#....", "#1#2...", ".......", ".......", ".......", "3.....4"])
    tile = place_trap(game, 1, 0, "attack-40", setter=1)
    game.to_core(0)
    use(game, 0, "summon-slime", dir="up")
    slime = game.state.monsters[0]
    monsters.move(game.ctx, slime)  # the only way is up, onto the trap
    assert slime.pos == tile and tile in game.state.traps and slime.hp == 30


def test_an_enemy_trap_looks_like_floor_FL_TRAP_4():
    """FL-TRAP-4, FL-VIS-9: another player's trap looks like normal floor; the setter sees an own trap."""
    game = arena()
    tile = set_trap(game, 0, "attack-20")
    assert visibility.perceived(game.state, 1, tile) == FLOOR
    assert game.view(1)["map"]["tiles"][tile] == FLOOR  # in seat 1's sight, shown as floor
    assert game.view(0)["map"]["tiles"][tile] == visibility.OWN_TRAP


def test_only_the_move_command_triggers_a_trap_FL_TRAP_5():
    """FL-TRAP-5, AMB-70: arriving by a card's effect (Dash, Switch), by a jump or a pass-by does
    not trigger; a move does, and Float prevents it."""
    game = arena(["explorer", "cat", "priest", "thief"])
    tile = place_trap(game, 3, 1, "attack-40", setter=2)
    game.to_core(1)
    use(game, 1, "dash", dir="up")  # (3, 3) -> (3, 0) over the trap
    game.to_core(1)
    game.play(1, {"kind": "jump", "dir": "down"})  # lands on (3, 2)
    game.to_core(1)
    game.play(1, {"kind": "jump", "dir": "up"})  # (3, 0)
    assert game.p(1).pending == [] and game.p(1).hp == 120
    game.p(0).pos = tile
    game.to_core(1)
    use(game, 1, "switch", target=0)  # seat 1 lands on the trap by a card
    assert game.p(1).pos == tile and game.p(1).pending == []
    game.start_turn(1)
    game.play(1, {"kind": "move", "dir": "left"})
    game.play(1, {"kind": "move", "dir": "right"})  # back onto it by a move: it triggers
    assert game.p(1).phase == "defense" and game.p(1).pending[0].kind == "trap"


def test_trap_checks_disarm_then_evasion_then_defense_FL_TRAP_6(monkeypatch):
    """FL-TRAP-6 (spec T-5): a Thief's failed disarm, then a successful evasion: no harm, the trap
    stays and is known; else a defense phase, after which the trap is gone."""
    monkeypatch.setattr(moves, "DISARM", (0, 1))
    game = arena(["explorer", "thief", "priest", "warrior"], rows=CORRIDOR)
    game.p(1).evasion = 100
    tile = place_trap(game, 4, 3, "attack-40", setter=0)
    step_on(game, 1, "right")
    assert tile in game.state.traps and visibility.knows_trap(game.state, 1, tile)
    assert game.p(1).hp == 120 and game.p(1).phase == "move"
    assert events(game, "trap.evaded")
    game.p(1).evasion = 0
    game.play(1, {"kind": "move", "dir": "left"})
    game.play(1, {"kind": "move", "dir": "right"})  # seeing it does not make it harmless (FL-TRAP-8)
    assert game.p(1).phase == "defense"
    game.play(1, {"kind": "no_defense"})
    assert tile not in game.state.traps and game.p(1).hp == 120 - 39


def test_a_trap_has_the_card_effect_without_base_attack_FL_TRAP_7():
    """FL-TRAP-7: a damage trap deals the card's power (no base attack), reduced as usual; a
    special attack trap applies its special."""
    game = arena(["warrior", "explorer", "priest", "thief"])
    set_trap(game, 0, "attack-20")  # a Warrior's trap: still 20, not 38
    game.p(0).pos = game.at(0, 0)
    step_on(game, 1, "left")
    game.play(1, {"kind": "no_defense"})
    assert game.p(1).hp == 120 - (20 - 2)
    game = arena()
    place_trap(game, 3, 4, "cp-poison", setter=0)
    step_on(game, 1, "down")
    assert "no_defense" in game.kinds(1)
    game.play(1, {"kind": "no_defense"})
    assert game.p(1).has("cp_poison") and game.p(1).hp == 120


def test_a_remaining_trap_becomes_known_insight_too_FL_TRAP_8():
    """FL-TRAP-8, AMB-16: Trap Sidestep nullifies the trap and leaves it, known to the player (a
    red tile); Insight makes traps in sight known."""
    game = arena()
    tile = place_trap(game, 3, 4, "attack-40", setter=0)
    game.set_hand(1, "trap-sidestep")
    step_on(game, 1, "down")
    defend(game, 1, "trap-sidestep")
    assert tile in game.state.traps and game.p(1).hp == 120
    assert visibility.perceived(game.state, 1, tile) == visibility.KNOWN_TRAP
    assert visibility.perceived(game.state, 2, tile) == FLOOR
    other = place_trap(game, 1, 5, "blind", setter=0)  # in sight of seat 2 at (0, 6)
    game.to_core(2)
    use(game, 2, "insight")
    assert visibility.knows_trap(game.state, 2, other)


def test_a_new_trap_replaces_the_old_one_FL_TRAP_9():
    """FL-TRAP-9: setting a trap where one lies replaces it (the cheap way: Attack 5, 0 CP)."""
    game = arena()
    tile = place_trap(game, 2, 3, "attack-40", setter=1)
    set_trap(game, 0, "attack-5")
    assert game.state.traps[tile].card == "attack-5" and game.state.traps[tile].setter == 0
    assert game.p(0).cp == 120


@pytest.mark.parametrize("terrain", [ICE, TREASURE, EXIT, FAKE_TREASURE, "C"])
def test_traps_only_on_normal_floor_FL_TRAP_10(terrain):
    """FL-TRAP-10, AMB-71: no trap on ice, treasure, exit, fake or checkpoint."""
    game = arena()
    tile = game.p(0).pos
    game.state.set_tile(tile, terrain)
    game.to_core(0)
    game.set_hand(0, "attack-20")
    assert not has_use(game, 0, "attack-20", use="trap")
    assert has_use(game, 0, "attack-20", use="adjacent", dir="right")


def test_a_terrain_change_destroys_the_trap_FL_TRAP_11():
    """FL-TRAP-11, FL-MAP-15: freezing a trapped tile (Freeze, Blizzard) or making a fake on it
    destroys the trap."""
    game = arena()
    tile = place_trap(game, 2, 2, "attack-40", setter=1)
    game.to_core(0)
    use(game, 0, "freeze", dir="up")
    assert game.state.grid[tile] == ICE and tile not in game.state.traps
    game = arena()
    near = [place_trap(game, x, y, "blind", setter=1) for x, y in ((1, 2), (1, 4), (3, 4))]
    game.to_core(0)
    use(game, 0, "blizzard")
    assert not set(near) & set(game.state.traps)
    game = arena()
    tile = set_trap(game, 0, "attack-20")
    game.to_core(0)
    use(game, 0, "fake")
    assert tile not in game.state.traps and tile in game.state.fakes


def test_a_trap_outlives_its_setter_and_credits_the_kill_FL_TRAP_12_FL_TRAP_14(monkeypatch):
    """FL-TRAP-12: a trap stays after its setter's death. FL-TRAP-14: the trap's setter gets the
    kill (a dead setter: every survivor, FL-KILL-4)."""
    monkeypatch.setattr(death, "DEATH_CHECK_SUCCESS", (0, 1))
    game = arena()
    tile = place_trap(game, 3, 4, "attack-20", setter=0)
    game.p(1).hp = 5
    step_on(game, 1, "down")
    game.play(1, {"kind": "no_defense"})
    assert not game.p(1).alive and game.p(0).kills == 1
    tile = place_trap(game, 4, 4, "attack-20", setter=0)
    death.die(game.ctx, game.p(0), credit=death.CREDIT_NONE, cause="test")
    assert tile in game.state.traps
    game.p(2).pos = game.at(4, 3)
    game.p(2).hp = 5
    step_on(game, 2, "down")
    game.play(2, {"kind": "no_defense"})
    assert game.state.ended or not game.p(2).alive
    assert game.p(3).kills == 1


@pytest.mark.parametrize(("preset", "cancelled"), [("level-d", True), ("fated-labyrinth", False)])
def test_a_forced_move_cancels_a_triggered_trap_in_level_d_only_FL_TRAP_13(preset, cancelled):
    """FL-TRAP-13, AMB-63: seat 1 stepped on a trap and waits in its defense phase; seat 0 pushes
    it away with Knockback. Level D: the trap is cancelled, stays and is known; Fated Labyrinth:
    it resolves and the trap is removed."""
    game = arena(preset=preset)
    tile = place_trap(game, 3, 4, "attack-20", setter=2)
    step_on(game, 1, "down")
    assert game.p(1).phase == "defense"
    game.p(0).pos = game.at(2, 4)
    game.to_core(0)
    use(game, 0, "knockback", dir="right")
    assert game.p(1).pos == game.at(6, 4)
    if cancelled:
        assert game.p(1).pending == [] and tile in game.state.traps
        assert visibility.knows_trap(game.state, 1, tile)
    else:
        assert game.p(1).pending[0].kind == "trap"
        game.play(1, {"kind": "no_defense"})
        assert tile not in game.state.traps and game.p(1).hp == 120 - 20 + 3


# ---------------------------------------------------------------- fakes


def test_the_fake_card_makes_a_fake_treasure_or_a_fake_exit_FL_FAKE_1_FL_FAKE_8():
    """FL-FAKE-1, FL-FAKE-8, AMB-68: on the own normal-floor tile; a fake exit if the real exit
    exists, else a fake treasure; logged only as a card used on the own tile (FL-INFO-4)."""
    game = arena()
    game.to_core(0)
    use(game, 0, "fake")
    tile = game.p(0).pos
    assert game.state.grid[tile] == FAKE_TREASURE and game.state.fakes[tile].setter == 0
    assert events(game, "card.used_on_own_tile") == [{"player": 0}]
    assert not [e for e in events(game, "card.used") if e.get("card") == "fake"]
    game = arena()
    game.state.set_tile(game.at(6, 0), EXIT)
    game.state.exit = game.at(6, 0)
    game.to_core(0)
    use(game, 0, "fake")
    assert game.state.grid[game.p(0).pos] == FAKE_EXIT
    game.to_core(0)  # standing on the fake now: not normal floor, no second Fake here
    game.set_hand(0, "fake")
    assert not has_use(game, 0, "fake")


def test_falling_for_a_fake_treasure_FL_FAKE_2_to_FL_FAKE_5_FL_FAKE_7():
    """FL-FAKE-2: it looks real to others; FL-FAKE-3, FL-FAKE-4: picking it up = falling for it: one random
    minus status of the seven, undefendable, the turn is spent; FL-FAKE-5: it stays; FL-FAKE-7:
    the victim knows it from then on."""
    game = arena()
    game.to_core(0)
    use(game, 0, "fake")
    tile = game.p(0).pos
    assert visibility.perceived(game.state, 1, tile) == TREASURE
    assert visibility.perceived(game.state, 0, tile) == FAKE_TREASURE  # FL-FAKE-6: the maker knows
    game.p(0).pos = game.at(0, 0)
    game.p(1).pos = tile
    game.to_core(1)
    assert "pick_up" in game.kinds(1)
    game.play(1, {"kind": "pick_up"})
    gained = [s.id for s in game.p(1).statuses]
    assert len(gained) == 1 and gained[0] in core.FAKE_STATUSES
    assert game.p(1).pending == [] and game.p(1).phase == "wait" and game.p(1).treasures == 0
    assert game.state.grid[tile] == FAKE_TREASURE
    assert visibility.perceived(game.state, 1, tile) == FAKE_TREASURE
    game.to_core(1)
    assert "pick_up" not in game.kinds(1)
    assert events(game, "fake.fell") == [{"player": 1}]


def test_insight_sees_through_fakes_FL_FAKE_6():
    """FL-FAKE-6: a player under Insight sees through a fake in sight; others do not."""
    game = arena()
    game.to_core(0)
    use(game, 0, "fake")
    tile = game.p(0).pos
    game.to_core(1)
    use(game, 1, "insight")
    assert visibility.perceived(game.state, 1, tile) == FAKE_TREASURE
    assert visibility.perceived(game.state, 2, tile) == TREASURE


def test_fake_random_statuses_are_the_seven_player_minus_statuses_FL_FAKE_4():
    """FL-FAKE-4, AMB-68: the random status is one of the seven minus statuses that work on players."""
    assert set(core.FAKE_STATUSES) == {"hp_poison", "cp_poison", "stripped", "sluggish", "fool", "blind", "exposed"}


def test_an_illegal_fake_is_refused_with_a_reason():
    game = arena()
    game.state.set_tile(game.p(0).pos, ICE)
    game.to_core(0)
    game.set_hand(0, "fake")
    with pytest.raises(IllegalCommand) as refused:
        game.play(0, {"kind": "use_card", "card": game.p(0).hand[0]})
    assert refused.value.code == "command/invalid_target"
