"""The classes and their special abilities (FL-CLS-1..9)."""

from __future__ import annotations

import pytest

from delve.fated import content, moves, statuses
from delve.fated.state import Status

from .cardkit import arena, kind_of, offered_defenses, place_trap, use

DATA = content.load()

#: FL-CLS-1: attack, defense, magic, evasion, max cards (the manual's table).
TABLE = {
    "explorer": (14, 2, 30, 12, 13),
    "warrior": (18, 3, 0, 8, 14),
    "priest": (10, 1, 50, 8, 12),
    "sorcerer": (5, 0, 70, 6, 10),
    "summoner": (9, 0, 50, 6, 12),
    "thief": (12, 1, 20, 20, 14),
    "noble": (15, 2, 10, 10, 14),
    "cat": (10, 0, 30, 20, 13),
}


def test_the_class_table_is_data_and_start_hands_are_max_minus_3_FL_CLS_1():
    """FL-CLS-1: the 8 classes with the manual's numbers, as content data; the start hand is
    max cards - 3 (FL-CARD-5) and the CP factor 1 - magic / 100."""
    assert {k: (c.attack, c.defense, c.magic, c.evasion, c.max_cards) for k, c in DATA.classes.items()} == TABLE
    game = arena(["explorer", "warrior", "sorcerer", "thief"])
    for seat, cls in enumerate(["explorer", "warrior", "sorcerer", "thief"]):
        assert len(game.p(seat).hand) == TABLE[cls][4] - 3


def test_warrior_parries_a_remote_attack_for_20_cp_FL_CLS_2():
    """FL-CLS-2, FL-DEF-3: parry only against a remote attack on the warrior, 20 CP, nullified;
    not against an adjacent attack, and not with less than 20 CP."""
    game = arena(["explorer", "warrior", "priest", "thief"])
    game.to_core(0)
    use(game, 0, "attack-30", use="remote", target=1)
    game.to_core(2)
    use(game, 2, "attack-10", use="remote", target=1)
    game.start_turn(1)
    assert "parry" in offered_defenses(game, 1)
    game.play(1, {"kind": "parry"})
    assert game.p(1).hp == 120 and game.p(1).cp == 100
    game.p(1).cp = 19
    assert "parry" not in offered_defenses(game, 1)

    game = arena(["explorer", "warrior", "priest", "thief"])
    game.to_core(0)
    use(game, 0, "attack-30", use="adjacent", dir="right")
    game.start_turn(1)
    assert "parry" not in offered_defenses(game, 1)
    game = arena(["explorer", "thief", "priest", "warrior"])
    game.to_core(0)
    use(game, 0, "attack-30", use="remote", target=1)
    game.start_turn(1)
    assert "parry" not in offered_defenses(game, 1)  # only a Warrior parries


def test_priest_recovery_cards_are_stronger_FL_CLS_3():
    """FL-CLS-3 (a): some recovery cards have a Priest bonus (Potion 25 -> 40); others do not."""
    for cls, healed in (("priest", 40), ("explorer", 25)):
        game = arena([cls, "warrior", "priest", "thief"])
        game.p(0).hp = 50
        game.to_core(0)
        use(game, 0, "potion")
        assert game.p(0).hp == 50 + healed
    game = arena(["priest", "warrior", "explorer", "thief"])
    game.p(0).cp = 10
    game.to_core(0)
    use(game, 0, "mana-potion")  # no Priest bonus on this one
    assert game.p(0).cp == 10 - 2 + 40


def test_priest_plus_statuses_last_10_turns_and_extend_by_10_FL_CLS_3():
    """FL-CLS-3 (b), FL-STS-6, AMB-31/33: a plus status on a priest lasts 10 (others 7), its
    re-application adds 10; a minus status on a priest lasts 7."""
    game = arena(["priest", "explorer", "warrior", "thief"])
    game.to_core(0)
    use(game, 0, "ironwall")
    assert game.p(0).status("ironwall").turns == 10
    game.to_core(0)
    use(game, 0, "ironwall")
    assert game.p(0).status("ironwall").turns == 20
    game.to_core(1)
    use(game, 1, "nimble")
    assert game.p(1).status("nimble").turns == 7
    game.to_core(2)
    use(game, 2, "blind", use="remote", target=0)
    game.start_turn(0)
    game.play(0, {"kind": "no_defense"})
    assert game.p(0).status("blind").turns == 7


def test_summoner_monsters_have_one_and_a_half_hp_and_one_more_action_FL_CLS_4():
    """FL-CLS-4, FL-MON-3, FL-MON-4 (spec T-9): a Summoner's dragon has floor(70 x 1.5) = 105 HP and
    the action bonus; another class's has 70."""
    from delve.fated import monsters

    for cls, hp, bonus in (("summoner", 105, True), ("warrior", 70, False)):
        game = arena([cls, "explorer", "priest", "thief"])
        game.to_core(0)
        use(game, 0, "summon-dragon", dir="up")
        dragon = game.state.monsters[0]
        assert (dragon.kind, dragon.hp, dragon.summoner_bonus, dragon.owner) == ("dragon", hp, bonus, 0)
        counts = {monsters.action_count(game.ctx, dragon) for _ in range(40)}
        assert counts == ({2, 3} if bonus else {1, 2})


def test_thief_disarms_half_of_the_traps_it_steps_on_FL_CLS_5(monkeypatch):
    """FL-CLS-5 (a), FL-TRAP-6.1: a successful disarm removes the trap without harm or defense."""
    monkeypatch.setattr(moves, "DISARM", (1, 1))  # make the 50% roll succeed
    game = arena(["explorer", "thief", "priest", "warrior"])
    tile = place_trap(game, 3, 4, "attack-40", setter=0)
    game.start_turn(1)
    game.play(1, {"kind": "move", "dir": "down"})
    assert tile not in game.state.traps and game.p(1).hp == 120 and game.p(1).phase == "move"
    monkeypatch.setattr(moves, "DISARM", (0, 1))  # and fail: the trap goes on to a defense phase
    game = arena(["explorer", "thief", "priest", "warrior"])
    place_trap(game, 3, 4, "attack-40", setter=0)
    game.start_turn(1)
    game.play(1, {"kind": "move", "dir": "down"})
    assert game.p(1).phase == "defense"


def test_thief_steals_a_card_from_an_adjacent_player_for_20_cp_FL_CLS_5():
    """FL-CLS-5 (b), FL-CORE-9: 20 CP, a steal item for the target; on no defense one random
    card moves to the thief."""
    game = arena(["thief", "explorer", "priest", "warrior"])
    game.set_hand(1, "potion")
    game.to_core(0)
    game.play(0, {"kind": "steal", "dir": "right"})
    assert game.p(0).cp == 100
    game.start_turn(1)
    game.play(1, {"kind": "no_defense"})
    assert game.p(1).hand == [] and kind_of(game, game.p(0).hand[-1]) == "potion"


def test_noble_takes_two_cards_when_passing_FL_CLS_6():
    """FL-CLS-6: a Noble (Merchant) draws 2 cards as the pass reward, others 1."""
    for cls, drawn in (("noble", 2), ("explorer", 1)):
        game = arena([cls, "warrior", "priest", "thief"])
        before = len(game.p(0).hand)
        game.start_turn(0)
        game.play(0, {"kind": "pass", "reward": "cards"})
        assert len(game.p(0).hand) == before + drawn


def test_cat_sees_one_tile_further_and_jumps_FL_CLS_7():
    """FL-CLS-7: sight radius 3 for the Cat (Ninja), 2 for others; jump over a character for 20 CP."""
    game = arena(["cat", "warrior", "priest", "thief"])
    assert statuses.sight_radius(game.ctx, game.p(0)) == 3
    assert statuses.sight_radius(game.ctx, game.p(1)) == 2
    game.to_core(0)
    game.play(0, {"kind": "jump", "dir": "right"})  # over the warrior next to it
    assert game.p(0).pos == game.at(4, 3) and game.p(0).cp == 100


def test_explorer_and_sorcerer_have_no_ability_FL_CLS_8():
    """FL-CLS-8: no special ability: no parry, steal, jump, and the plain card costs."""
    assert not DATA.classes["explorer"].abilities and not DATA.classes["sorcerer"].abilities
    game = arena(["sorcerer", "explorer", "priest", "thief"])
    game.to_core(0)
    assert not {"jump", "steal"} & game.kinds(0)


@pytest.mark.parametrize("ability", ["jump", "steal"])
def test_abilities_need_20_cp_whatever_the_magic_FL_CLS_9(ability):
    """FL-CLS-9, AMB-22: the flat 20 CP is neither lowered by magic or Sage nor raised by Fool,
    and needs current CP >= 20."""
    cls = {"jump": "cat", "steal": "thief"}[ability]
    game = arena([cls, "warrior", "priest", "explorer"])
    game.p(0).statuses = [Status(id="sage", turns=7)]
    game.p(0).cp = 19
    game.to_core(0)
    assert ability not in game.kinds(0)
    game.p(0).cp = 20
    assert ability in game.kinds(0)
    game.play(0, {"kind": ability, "dir": "right"})
    assert game.p(0).cp == 0
