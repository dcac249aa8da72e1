"""CP consumption (FL-CP-1..7): cost x (1 - magic / 100) rounded up once, Sage and Fool, the
current-CP limit, defense cards, and the flat 20 CP of the class abilities."""

from __future__ import annotations

import pytest

from delve.fated import cards
from delve.fated.state import Status
from delve.kernel import IllegalCommand

from .cardkit import arena, card_command, defend, has_use, use


def cost_for(cls: str, cost: int, *statuses: str) -> int:
    game = arena([cls, "warrior", "priest", "thief"])
    player = game.p(0)
    player.statuses = [Status(id=s, turns=7) for s in statuses]
    return cards.cp_cost(game.ctx, player, cost)


@pytest.mark.parametrize(
    ("cls", "cost", "expected"),
    [("warrior", 13, 13), ("sorcerer", 10, 3), ("sorcerer", 13, 4), ("thief", 13, 11), ("explorer", 7, 5)],
)
def test_consumption_is_cost_times_one_minus_magic_rounded_up_FL_CP_1_FL_CP_2(cls, cost, expected):
    """FL-CP-1, FL-CP-2: Warrior (magic 0) pays the cost; Sorcerer (70) pays 30% rounded up; spec T-3:
    Thief (20) cost 13 -> ceil(10.4) = 11."""
    assert cost_for(cls, cost) == expected


def test_sage_and_fool_round_once_at_the_end_FL_CP_5():
    """FL-CP-5, AMB-22 (spec T-3): Thief cost 13 with Fool: ceil(20.8) = 21; Sorcerer cost 10 with
    Sage: ceil(1.5) = 2 (not ceil(ceil(3) / 2)); Sage and Fool together (Level D) = 1."""
    assert cost_for("thief", 13, "fool") == 21
    assert cost_for("sorcerer", 10, "sage") == 2
    assert cost_for("warrior", 9, "sage") == 5
    game = arena(["warrior", "warrior", "priest", "thief"], preset="level-d")
    game.p(0).statuses = [Status(id="sage", turns=7), Status(id="fool", turns=7)]
    assert cards.cp_cost(game.ctx, game.p(0), 9) == 9


def test_playing_a_card_pays_its_consumption_for_the_chosen_use_FL_CP_6_FL_USE_5():
    """FL-CP-6, FL-USE-5: the three uses of one card cost differently (trap < adjacent < remote),
    and the consumption is what is paid."""
    for use_, params, paid in (("trap", {}, 3), ("adjacent", {"dir": "right"}, 7), ("remote", {"target": 2}, 12)):
        game = arena(["warrior", "explorer", "priest", "thief"])
        game.to_core(0)
        use(game, 0, "attack-15", use=use_, **params)
        assert game.p(0).cp == 120 - paid


def test_a_card_costing_more_than_the_current_cp_is_not_offered_equal_is_FL_CP_4():
    """FL-CP-4: consumption greater than the current CP cannot be used; equal can. A 0-cost card
    stays usable at 0 CP (FL-STAT-2)."""
    game = arena(["warrior", "explorer", "priest", "thief"])
    game.to_core(0)
    game.set_hand(0, "attack-20", "first-aid", "potion")
    game.p(0).cp = 16
    assert has_use(game, 0, "attack-20", use="remote", target=1)
    game.p(0).cp = 15
    assert not has_use(game, 0, "attack-20", use="remote", target=1)
    assert has_use(game, 0, "attack-20", use="adjacent", dir="right")
    with pytest.raises(IllegalCommand) as refused:
        game.play(0, {"kind": "use_card", "card": game.p(0).hand[0], "use": "remote", "target": 1})
    assert refused.value.code == "command/not_enough_cp"
    game.p(0).cp = 0
    assert has_use(game, 0, "first-aid") and not has_use(game, 0, "potion")
    with pytest.raises(IllegalCommand) as refused:
        game.play(0, {"kind": "use_card", "card": game.p(0).hand[2]})
    assert refused.value.code == "command/not_enough_cp"
    game.play(0, card_command(game, 0, "first-aid"))
    assert game.p(0).cp == 0


def test_defense_cards_pay_consumption_too_FL_CP_6():
    """FL-CP-6: the formula applies to defense cards (Thief, Damage Defense cost 13 -> 11)."""
    game = arena(["explorer", "thief", "priest", "warrior"])
    game.to_core(0)
    use(game, 0, "attack-20", use="remote", target=1)
    game.set_hand(1, "damage-defense")
    game.start_turn(1)
    defend(game, 1, "damage-defense")
    assert game.p(1).cp == 120 - 11


def test_the_hand_shows_the_consumption_per_use_FL_CP_3():
    """FL-CP-3, FL-UI-5: the player's view shows each card's CP consumption for each use (a
    special attack / utility card shows both its attack uses and its own use)."""
    game = arena(["sorcerer", "warrior", "priest", "thief"])
    game.set_hand(0, "attack-20", "potion", "flash", "defense-10")
    hand = {c["kind"]: c["cp"] for c in game.view(0)["you"]["hand"]}
    assert hand["attack-20"] == {"trap": 2, "adjacent": 3, "remote": 5}
    assert hand["potion"] == {"use": 2}
    assert hand["flash"] == {"trap": 1, "adjacent": 2, "remote": 3, "use": 1}
    assert hand["defense-10"] == {"use": 1}


def test_class_abilities_cost_a_flat_20_FL_CP_7():
    """FL-CP-7, FL-CLS-9: jump costs 20 whatever the magic, Sage or Fool."""
    game = arena(["cat", "warrior", "priest", "thief"])
    game.p(0).statuses = [Status(id="fool", turns=7)]
    game.to_core(0)
    game.play(0, {"kind": "jump", "dir": "up"})
    assert game.p(0).cp == 100
