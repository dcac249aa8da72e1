"""Death checks, death, kill credit and abandonment: FL-DEATH, FL-KILL, FL-ABN, FL-LOGIN-4."""

from __future__ import annotations

import pytest

from delve.fated import combat, monsters
from delve.fated.grid import CHECKPOINT, FLOOR, ICE, TREASURE
from delve.fated.state import DEAD, Status, Trap
from delve.kernel import IllegalCommand

from .scenario import RULESET, Scenario

MAP = [
    "C.......C",
    ".........",
    "...12....",
    ".........",
    "..~......",
    "....3....",
    ".........",
    ".......4.",
    "C.......C",
]


def game() -> Scenario:
    return Scenario.from_map(MAP, classes=["warrior", "explorer", "priest", "thief"])


def hit(g: Scenario, target: int, power: int, source: int | None = 0, label: str = "normal") -> None:
    item = combat.attack_item(g.ctx, row="dmg_remote", power=power, source=source, label=label, use="remote")
    combat.queue(g.ctx, g.p(target), item)


def take(g: Scenario, seat: int, *, evade=False, rest=()):
    g.script(evade, *rest)
    g.start_turn(seat)
    g.play(seat, {"kind": "no_defense"})


def test_rising_from_the_brink_of_death_with_10_hp():
    """FL-DEATH-1, FL-DEATH-2: at 0 HP a 25% check; success leaves the player with 10 HP."""
    g = game()
    g.p(1).hp = 5
    hit(g, 1, 50)
    take(g, 1, rest=(True,))
    assert g.p(1).alive and g.p(1).hp == 10
    assert "death.survived" in g.kinds_of()


def test_dying_removes_cards_drops_treasure_and_credits_the_killer():
    """FL-DEATH-3, FL-DEATH-4, FL-CARD-11, FL-KILL-1: the hand leaves the game, the treasure drops
    on the tile, the attacker's kill count rises."""
    g = game()
    victim = g.p(1)
    victim.hp, victim.treasures = 5, 1
    hand = list(victim.hand)
    hit(g, 1, 50, source=0)
    take(g, 1, rest=(False,))
    assert not victim.alive and victim.phase == DEAD
    assert victim.hand == [] and set(hand) <= set(g.state.removed)
    assert g.state.grid[victim.pos] == TREASURE
    assert g.p(0).kills == 1
    assert g.card_total() == 500
    died = [e for e in g.events if e.kind == "player.died"][-1]
    assert died.data["credited"] == [0] and died.public


def test_extra_treasures_are_flung_and_clear_ice_and_traps_where_they_land():
    """FL-DEATH-4, AMB-48, Appendix T-6: the first treasure drops, the second finds one there and is
    flung; a trap or ice under a landing treasure disappears."""
    g = game()
    victim = g.p(1)
    victim.hp, victim.treasures = 1, 2
    ice = g.at(2, 4)
    for i, terrain in enumerate(g.state.grid):  # leave one place to fling to: the ice
        if terrain in (FLOOR, ICE) and i not in (victim.pos, ice) and g.state.occupant(i) is None:
            g.state.set_tile(i, CHECKPOINT)
    g.state.traps[victim.pos] = Trap(card="attack-10", setter=3)  # a trap under the victim
    hit(g, 1, 50)
    take(g, 1, rest=(False,))
    assert g.state.grid[victim.pos] == TREASURE and victim.pos not in g.state.traps
    assert g.state.grid[ice] == TREASURE


def test_a_treasure_dropped_on_a_checkpoint_is_flung():
    """FL-DEATH-4: a death on a checkpoint, exit or treasure tile flings every treasure."""
    g = game()
    victim = g.p(1)
    victim.pos = g.at(0, 0)
    victim.hp, victim.treasures = 1, 1
    trap_tile = g.at(6, 6)
    g.state.traps[trap_tile] = Trap(card="attack-10", setter=3)
    hit(g, 1, 50)
    take(g, 1, rest=(False,))
    assert g.state.grid[0] == CHECKPOINT
    assert g.state.grid.count(TREASURE) == 1


def test_monsters_vanish_with_their_owner_and_items_from_the_dead_still_resolve():
    """FL-DEATH-4 (5), FL-DEATH-6, FL-MON-18, FL-ATK-21: the owner's monsters vanish; an attack
    the dead player sent still lands; traps they set remain."""
    g = game()
    monsters.summon(g.ctx, g.p(1), "slime", g.at(4, 3))
    g.state.traps[g.at(6, 6)] = Trap(card="attack-10", setter=1)
    hit(g, 2, 30, source=1)  # player 2 (seat 1) attacks the priest
    g.p(1).hp = 1
    hit(g, 1, 50, source=0)
    take(g, 1, rest=(False,))
    assert not g.p(1).alive and g.state.monsters == [] and g.at(6, 6) in g.state.traps
    take(g, 2)
    assert g.p(2).hp == 120 - (30 - 1)


def test_items_aimed_at_a_dead_player_are_void():
    """FL-DEATH-6, AMB-73: pending items of the dead are dropped."""
    g = game()
    hit(g, 1, 10)
    g.play(1, {"kind": "give_up"})
    assert g.p(1).pending == [] and not g.p(1).alive


def test_the_dead_can_only_comment():
    """FL-DEATH-5, FL-LOGIN-4, FL-COM-3: after death only the comment remains."""
    g = game()
    g.play(1, {"kind": "give_up"})
    assert RULESET.legal_commands(g.state, 1) == [{"kind": "comment"}]
    with pytest.raises(IllegalCommand) as info:
        g.play(1, {"kind": "start_turn"})
    assert info.value.code == "player/dead"
    g.play(1, {"kind": "comment", "text": "gg"})
    assert g.p(1).comment == "gg"


def test_monster_kills_credit_the_owner():
    """FL-KILL-2, FL-MON-19: the monster's owner gets the kill."""
    g = game()
    slime = monsters.summon(g.ctx, g.p(3), "slime", g.at(5, 2))
    monsters.attack(g.ctx, slime, g.p(1))
    g.p(1).hp = 1
    g.script(False, False)  # no evasion, death check fails
    g.start_turn(1)
    g.play(1, {"kind": "no_defense"})
    assert g.p(3).kills == 1


def test_trap_kills_credit_the_setter():
    """FL-KILL-3, FL-TRAP-14: a trap's finishing blow counts for whoever set it."""
    g = game()
    item = combat.attack_item(g.ctx, kind="trap", row="dmg_trap", power=40, source=2, label="trap", use="trap")
    combat.queue(g.ctx, g.p(1), item)
    g.p(1).hp = 1
    take(g, 1, rest=(False,))
    assert g.p(2).kills == 1


def test_a_dead_killer_means_everyone_alive_is_credited():
    """FL-KILL-4, FL-KILL-7: if the credited player is dead, every survivor's kill count rises."""
    g = game()
    hit(g, 1, 50, source=3)
    g.play(3, {"kind": "give_up"})
    g.p(1).hp = 1
    take(g, 1, rest=(False,))
    assert [p.kills for p in g.state.players] == [1, 0, 1, 0]


def test_death_by_poison_credits_every_survivor():
    """FL-KILL-5, FL-STS-14, AMB-72: HP Poison at a turn-start event may kill after a failed death
    check; all survivors are credited."""
    g = game()
    victim = g.p(1)
    victim.hp = 2
    victim.statuses.append(Status(id="hp_poison"))
    victim.first_at = g.now + 5
    g.script(False)
    g.tick(5)
    assert not victim.alive
    assert [p.kills for p in g.state.players] == [1, 0, 1, 1]


def test_self_inflicted_death_credits_every_survivor():
    """FL-KILL-7, AMB-49: a death with nobody else responsible counts for all survivors."""
    g = game()
    hit(g, 1, 50, source=1)
    g.p(1).hp = 1
    take(g, 1, rest=(False,))
    assert [p.kills for p in g.state.players] == [1, 0, 1, 1]


def test_abandonment_by_timeout_with_pending_damage_kills_without_a_death_check():
    """FL-ABN-1, FL-ABN-2, FL-ABN-5, FL-ABN-6, FL-KILL-6, Appendix T-7: after abandon_time without an
    action, pending attacks are taken with no defense; reaching 0 HP is death with no check and
    the attacker is credited."""
    g = game()
    p = g.p(1)
    g.make_ready(1)
    p.hp = 30
    hit(g, 1, 52, source=0)  # 50 after the explorer's defense 2
    g.script(True)  # a death check would succeed: it must not be made
    g.tick(g.state.settings.abandon_time)
    assert not p.alive and p.fate == "abandoned"
    assert g.p(0).kills == 1
    assert "death.survived" not in g.kinds_of()


def test_abandonment_without_lethal_damage_credits_nobody():
    """FL-ABN-5 (3), FL-KILL-6, Appendix T-7: HP stays above 0: the player gave up; no kill."""
    g = game()
    g.make_ready(1)
    g.p(1).hp = 80
    hit(g, 1, 52, source=0)
    g.tick(g.state.settings.abandon_time)
    assert not g.p(1).alive and g.p(1).hp == 30
    assert [p.kills for p in g.state.players] == [0, 0, 0, 0]


def test_the_abandon_clock_does_not_run_while_waiting_and_logging_in_is_not_an_action():
    """FL-ABN-2, FL-ABN-3, FL-LOGIN-3, AMB-50: the deadline is max(last action, end of the last
    wait phase) + abandon_time, only outside the wait phase; consuming a turn is not an action."""
    from delve.fated import clock

    g = game()
    p = g.p(1)
    abandon = g.state.settings.abandon_time
    p.first_at = g.now + 10
    assert clock.abandon_deadline(g.state, p) is None  # waiting: no clock
    g.tick(10)
    end_of_wait = g.now
    assert clock.abandon_deadline(g.state, p) == end_of_wait + abandon
    g.play(1, {"kind": "start_turn"}, dt=100)
    assert clock.abandon_deadline(g.state, p) == end_of_wait + abandon
    g.play(1, {"kind": "comment", "text": "hello"}, dt=100)
    assert clock.abandon_deadline(g.state, p) == end_of_wait + abandon  # FL-COM-5
    g.play(1, {"kind": "stay"}, dt=50)
    assert clock.abandon_deadline(g.state, p) == g.now + abandon


def test_the_give_up_button_works_in_every_phase():
    """FL-ABN-4, FL-WAIT-4, AMB-50: give up is offered while alive, even while waiting."""
    g = game()
    assert "give_up" in g.kinds(2)
    g.play(2, {"kind": "give_up"})
    assert g.p(2).fate == "abandoned" and not g.p(2).alive
