"""Ability values, classes and registration on the engine side: FL-STAT, FL-CLS-1, FL-REG,
FL-LOGIN."""

from __future__ import annotations

import pytest

from delve.kernel import SeatInfo, SettingsError

from .scenario import RULESET, Scenario
from .test_classes import TABLE  # FL-CLS-1: the manual's class table


def test_everyone_starts_with_120_and_max_cards_minus_3():
    """FL-STAT-1, FL-STAT-5, FL-STAT-6, FL-STAT-7, FL-STAT-8, FL-STAT-9, FL-STAT-10, FL-CARD-4,
    FL-CARD-5: HP = CP = max = 120; class values; a hand of max - 3
    cards dealt from one shuffled 500-card set; the rest is the draw pile."""
    classes = list(TABLE)
    g = Scenario.new(preset="level-d", classes=classes)
    for player, cls in zip(g.state.players, classes, strict=True):
        attack, defense, magic, evasion, max_cards = TABLE[cls]
        assert (player.hp, player.cp, player.max_hp, player.max_cp) == (120, 120, 120, 120)
        assert (player.attack, player.defense, player.magic, player.evasion) == (attack, defense, magic, evasion)
        assert len(player.hand) == max_cards - 3
    dealt = sum(len(p.hand) for p in g.state.players)
    assert len(g.state.deck) == 500 - dealt
    assert g.card_total() == 500


def test_two_decks_mean_a_thousand_cards():
    """FL-CARD-4: `decks` sets of 500."""
    g = Scenario.new(decks=2)
    assert g.card_total() == 1000


def test_start_values_follow_the_settings():
    """FL-STAT-11: the start values are basic rules an operator may change."""
    g = Scenario.new(start_hp=80, start_cp=60)
    assert (g.p(0).hp, g.p(0).max_hp, g.p(0).cp) == (80, 80, 60)


def test_hp_and_cp_never_exceed_their_maximum():
    """FL-STAT-3, FL-STAT-4, FL-STAT-12: recovery never passes the maximum."""
    g = Scenario.new()
    g.p(0).cp = 110
    g.start_turn(0)
    g.play(0, {"kind": "pass", "reward": "cp"})
    assert g.p(0).cp == 120


def test_cards_in_hand_may_exceed_the_limit_until_the_end_of_the_core_phase():
    """FL-STAT-9, FL-CARD-9, FL-CARD-10, AMB-21: over the limit, random cards are discarded at
    the end of the core phase until the hand fits."""
    g = Scenario.new(classes=["sorcerer", "explorer", "explorer", "explorer"])
    for _ in range(5):
        g.give(0, "attack-10")
    assert len(g.p(0).hand) == 12
    g.to_core(0)
    assert len(g.p(0).hand) == 12
    g.play(0, {"kind": "nothing"})
    assert len(g.p(0).hand) == 10
    assert "cards.over_limit" in [m.kind for m in g.messages(0)]
    assert g.card_total() == 500


def test_registration_needs_a_known_class_and_unique_names():
    """FL-REG-2, FL-REG-3, AMB-60: unknown classes and duplicate names are refused."""
    seats = [SeatInfo(f"p{i}", {"class": "explorer"}) for i in range(4)]
    with pytest.raises(SettingsError) as info:
        RULESET.setup({}, [*seats[:3], SeatInfo("p4", {"class": "bard"})], 1, 0)
    assert "class" in info.value.setting and "bard" in str(info.value)
    with pytest.raises(SettingsError):
        RULESET.setup({}, [*seats[:3], SeatInfo("p1", {"class": "cat"})], 1, 0)


def test_player_numbers_follow_seat_order_and_options_are_kept():
    """FL-REG-10, AMB-59, FL-REG-2, FL-REC-2, FL-REG-4: numbers 01.. in seat order; the record flag
    has no effect on play; Level D keeps the chosen image."""
    seats = [SeatInfo(f"n{i}", {"class": "explorer", "keep_record": i != 2, "image": "cat"}) for i in range(8)]
    state = RULESET.setup({"preset": "level-d"}, seats, 5, 0)
    assert [p.number for p in state.players] == [f"{i:02d}" for i in range(1, 9)]
    assert [p.keep_record for p in state.players] == [True, True, False, *[True] * 5]
    assert state.players[0].image == "cat"
    fl = RULESET.setup({}, seats[:4], 5, 0)
    assert fl.players[0].image == ""


def test_the_class_cannot_change_during_a_game():
    """FL-REG-9: there is no command that changes the class."""
    from delve.fated.commands import KINDS

    assert not any("class" in kind for kind in KINDS)


def test_withdrawal_and_late_registration_are_a_server_concern():
    """FL-REG-1, FL-REG-5, FL-REG-6, FL-REG-8, FL-LOGIN-1, FL-LOGIN-2: the engine starts a game
    only when every seat is filled (the server handles registering, withdrawing and logging
    in; see tests/server)."""
    assert RULESET.seat_count({}) == 4
    with pytest.raises(SettingsError):
        RULESET.setup({}, [SeatInfo("a", {"class": "cat"})] * 5, 1, 0)


def test_at_zero_cp_only_zero_cost_cards_remain_usable():
    """FL-STAT-2, FL-CP-4, AMB-23: a card is usable only if its consumption is at most the CP."""
    g = Scenario.new(classes=["warrior", "explorer", "explorer", "explorer"])
    (card,) = g.set_hand(0, "attack-10")
    g.to_core(0)
    g.p(0).cp = 0
    assert not [c for c in g.legal(0) if c["kind"] == "use_card"]
    g.p(0).cp = g.ctx.card(card).uses["trap"]
    assert {"kind": "use_card", "card": card, "use": "trap"} in g.legal(0)


def test_base_magic_lowers_what_cards_consume():
    """FL-STAT-7, FL-CP-1, FL-CP-2: consumption = cost x (1 - magic/100) rounded up: the warrior
    pays the cost, the sorcerer 30% of it."""
    g = Scenario.new(classes=["warrior", "sorcerer", "explorer", "explorer"])
    g.set_hand(0, "attack-30")
    g.set_hand(1, "attack-30")
    costs = g.ctx.card(g.p(0).hand[0]).uses
    warrior = g.view(0)["you"]["hand"][0]["cp"]
    sorcerer = g.view(1)["you"]["hand"][0]["cp"]
    assert warrior == costs
    assert sorcerer == {use: -(-cost * 30 // 100) for use, cost in costs.items()}
