"""The defense phase: FL-DEF-1..7 with normal attacks and the core defense cards."""

from __future__ import annotations

from delve.fated import combat
from delve.fated.state import DEFENSE, MOVE, Status

from .scenario import Scenario

MAP = [
    "C.......C",
    ".........",
    "...12....",
    ".........",
    ".........",
    "....3....",
    ".........",
    ".......4.",
    "C.......C",
]


def game(classes=("warrior", "explorer", "priest", "thief")) -> Scenario:
    return Scenario.from_map(MAP, classes=list(classes))


def attacked(g: Scenario, target: int, *, row="dmg_adjacent", power=18, source=0, use=None, label="normal"):
    item = combat.attack_item(g.ctx, row=row, power=power, source=source, label=label, use=use)
    combat.queue(g.ctx, g.p(target), item)
    return item


def test_a_defense_card_reduces_damage_and_is_not_replaced():
    """FL-DEF-1, FL-CARD-7, FL-ATK-11, AMB-25: reduction = base defense + the card's value; the
    used card goes to the discard pile and no card is drawn."""
    g = game()
    attacked(g, 1, power=30)
    (card,) = g.set_hand(1, "defense-10")
    g.script(False)
    g.start_turn(1)
    assert {"kind": "defend", "card": card} in g.legal(1)
    g.play(1, {"kind": "defend", "card": card})
    assert g.p(1).hp == 120 - (30 - 2 - 10)
    assert g.p(1).hand == [] and g.state.discard[-1] == card
    cost = g.ctx.card(card).cost
    assert g.p(1).cp == 120 - -(-cost * 70 // 100)  # cost x (1 - 30/100), rounded up (FL-CP-1, FL-CP-6)


def test_no_defense_takes_the_damage_reduced_by_base_defense():
    """FL-DEF-2, FL-STAT-6, FL-STAT-1: HP falls by max(0, B - base defense)."""
    g = game()
    attacked(g, 0, power=2)  # warrior defense 3: nothing gets through
    g.script(False)
    g.start_turn(0)
    g.play(0, {"kind": "no_defense"})
    assert g.p(0).hp == 120


def test_ineffective_cards_are_not_offered():
    """FL-DEF-1, FL-ATK-8, AMB-28: a trap countermeasure or special defense cannot be chosen
    against a plain damage attack; no defense is always possible."""
    g = game()
    attacked(g, 1)
    g.set_hand(1, "trap-disarm", "special-defense", "complete-defense")
    g.script(False)
    g.start_turn(1)
    offered = {g.state.players[1].hand.index(c["card"]) for c in g.legal(1) if c["kind"] == "defend"}
    assert offered == {2}
    assert {"kind": "no_defense"} in g.legal(1)


def test_cards_the_player_cannot_pay_for_are_not_offered():
    """FL-DEF-1, FL-CP-4: CP consumption must not exceed current CP (equal is fine)."""
    g = game()
    attacked(g, 1)
    (card,) = g.set_hand(1, "complete-defense")
    need = -(-g.ctx.card(card).cost * 70 // 100)
    g.p(1).cp = need - 1
    g.script(False)
    g.start_turn(1)
    assert {"kind": "defend", "card": card} not in g.legal(1)
    g.p(1).cp = need
    assert {"kind": "defend", "card": card} in g.legal(1)


def test_warrior_parries_a_remote_attack_for_20_cp():
    """FL-DEF-3, FL-CLS-2, FL-CLS-9, FL-ATK-17: parry nullifies a 《遠隔》 attack aimed at the
    warrior; it is not offered against adjacent attacks."""
    g = game()
    attacked(g, 0, row="dmg_remote", power=40, source=1, use="remote", label="remote")
    g.script(False)
    g.start_turn(0)
    assert {"kind": "parry"} in g.legal(0)
    g.play(0, {"kind": "parry"})
    assert (g.p(0).hp, g.p(0).cp) == (120, 100)
    attacked(g, 0, power=40, source=1)
    g.script(False)
    g.start_turn(0)
    assert {"kind": "parry"} not in g.legal(0)


def test_evasion_is_rolled_when_the_defense_phase_starts():
    """FL-DEF-6, FL-ATK-12, FL-STAT-8, AMB-24: a successful d100 under evasion resolves the
    attack as a miss with no choice offered."""
    g = game()
    attacked(g, 1, power=50)
    g.script(True)
    g.start_turn(1)
    assert g.p(1).phase == MOVE and g.p(1).hp == 120
    assert any(e.kind == "defense.result" and e.data["outcome"] == "evaded" for e in g.events)


def test_sluggish_and_nimble_change_effective_evasion():
    """FL-STAT-12, FL-STS (Nimble +20, Sluggish 0): effective evasion is derived when used."""
    from delve.fated import statuses

    g = game()
    thief = g.p(3)
    assert statuses.evasion(g.ctx, thief) == 20
    thief.statuses.append(Status(id="nimble", turns=7))
    assert statuses.evasion(g.ctx, thief) == 40
    thief.statuses = [Status(id="sluggish", turns=7)]
    assert statuses.evasion(g.ctx, thief) == 0


def test_outcomes_become_public_only_when_the_defense_phase_ends():
    """FL-DEF-7, FL-CARD-14, FL-INFO-4: the log shows the attack at once and its outcome after."""
    g = game()
    g.to_core(0)
    g.play(0, {"kind": "attack", "dir": "right"})
    kinds = [e.kind for e in g.events]
    assert "attack.normal" in kinds and "defense.result" not in kinds
    g.script(False)
    g.start_turn(1)
    assert g.p(1).phase == DEFENSE
    g.play(1, {"kind": "no_defense"})
    assert [e.kind for e in g.events].count("defense.result") == 1


def test_several_pending_items_get_one_defense_phase_each():
    """FL-TURN-22, FL-DEF (each pending item gets its own defense phase)."""
    g = game()
    attacked(g, 1, power=10, label="a")
    attacked(g, 1, power=20, label="b")
    g.script(False, False)
    g.start_turn(1)
    assert g.p(1).pending[0].label == "a"
    g.play(1, {"kind": "no_defense"})
    assert g.p(1).phase == DEFENSE and g.p(1).pending[0].label == "b"
    g.play(1, {"kind": "no_defense"})
    assert g.p(1).phase == MOVE
    assert g.p(1).hp == 120 - 8 - 18
