"""The attack/defense matrix of spec §10.3 (FL-ATK-4..17): the one table ``combat.MATRIX``
drives both which defenses are offered and how an item resolves.

``test_every_attack_method_against_every_defense_method`` plays all 11 x 7 combinations
through real commands: the 11 attack methods (FL-ATK-4: 3 card kinds x 3 uses, terrain-change
cards, the normal attack) against the 7 defense methods (FL-ATK-7: reduction, no defense, trap
countermeasure, special defense, complete defense, counter, parry) and checks each against the
spec's ○ / × / △.
"""

from __future__ import annotations

import pytest

from delve.fated import combat
from delve.fated.state import Status

from .cardkit import arena, defend, offered_defenses, place_trap, use

# Spec §10.3, transcribed cell by cell (columns: reduction/no defense, trap countermeasure,
# special defense, complete defense, counter, parry).
SPEC_MATRIX = """
dmg_trap        ○ ○ × ○ × ×
dmgsp_trap      △ ○ ○ ○ × ×
sp_trap         × ○ ○ ○ × ×
dmg_adjacent    ○ × × ○ ○ ×
dmgsp_adjacent  △ × ○ ○ ○ ×
sp_adjacent     × × ○ ○ ○ ×
dmg_remote      ○ × × ○ ○ ○
dmgsp_remote    △ × ○ ○ ○ ○
sp_remote       × × ○ ○ ○ ○
terrain         ○ × × ○ × ×
"""
SYMBOLS = {"○": combat.YES, "×": combat.NO, "△": combat.PART}
SPEC = {
    line.split()[0]: dict(zip(combat.COLUMNS, (SYMBOLS[s] for s in line.split()[1:]), strict=True))
    for line in SPEC_MATRIX.strip().splitlines()
}

ATTACKS = [*combat.ROWS, "normal"]  # the 11 attack methods (FL-ATK-4)
DEFENSES = list(combat.DEFENSE_METHODS)  # the 7 defense methods (FL-ATK-7)
#: The defense card used for each card method.
DEFENSE_CARD = {
    "reduction": "defense-10",
    "trap": "trap-disarm",
    "special": "special-defense",
    "complete": "complete-defense",
    "counter": "counter",
}
#: The card used for each attack row: plain damage, damage + Stripped, Stripped.
ATTACK_CARD = {"dmg": "attack-20", "dmgsp": "attack-10-stripped", "sp": "stripped"}


def test_the_matrix_table_is_the_spec_table_FL_ATK_8():
    """FL-ATK-8: the matrix is normative; the engine's table equals the spec's, cell by cell."""
    assert combat.MATRIX == SPEC
    assert len(ATTACKS) == 11 and len(DEFENSES) == 7
    assert combat.ATTACK_METHODS["normal"] == "dmg_adjacent"  # normal attack shares row 4


def _attack(game, method: str) -> None:
    """Seat 0 makes an attack of ``method`` on seat 1 (a Warrior, base defense 3)."""
    if method == "normal":
        game.to_core(0)
        game.play(0, {"kind": "attack", "dir": "right"})
    elif method == "terrain":
        game.to_core(0)
        use(game, 0, "quake")
    else:
        kind, use_ = method.split("_")
        card = ATTACK_CARD[kind]
        if use_ == "trap":
            place_trap(game, 3, 4, card, setter=0)
        else:
            game.to_core(0)
            params = {"use": use_, "dir": "right"} if use_ == "adjacent" else {"use": use_, "target": 1}
            use(game, 0, card, **params)


def _basic_damage(game, method: str) -> int:
    if method == "normal":
        return game.p(0).attack
    if method == "terrain":
        return 15
    kind, use_ = method.split("_")
    power = {"dmg": 20, "dmgsp": 10, "sp": 0}[kind]
    return power + (game.p(0).attack if use_ == "adjacent" and power else 0)


@pytest.mark.parametrize("method", ATTACKS)
@pytest.mark.parametrize("defense", DEFENSES)
def test_every_attack_method_against_every_defense_method(method: str, defense: str):
    """FL-ATK-4..17: offered iff the cell is not × (no defense always, FL-ATK-8, FL-ATK-10), and the
    resolution follows the cell: ○ effective, △ special lands unless D = 0 (FL-ATK-9),
    × for reduction/no defense = the special is received in full (FL-ATK-10)."""
    game = arena(["explorer", "warrior", "priest", "thief"])
    game.set_hand(1, *DEFENSE_CARD.values())
    _attack(game, method)
    game.start_turn(1)
    if method.endswith("_trap"):
        game.play(1, {"kind": "move", "dir": "down"})  # onto the trap: a defense phase follows
    defender, attacker = game.p(1), game.p(0)
    assert defender.phase == "defense"
    row = combat.ATTACK_METHODS[method]
    cell = combat.symbol(row, defense)
    offered = offered_defenses(game, 1)
    option = {"none": "no_defense", "parry": "parry"}.get(defense, DEFENSE_CARD.get(defense))
    if defense == "none":
        assert option in offered  # "no defense" is always selectable (FL-ATK-8)
    else:
        assert (option in offered) == (cell != combat.NO), (method, defense, offered)
    if option not in offered:
        return

    hp, cp = defender.hp, defender.cp
    pending_before = len(attacker.pending)
    if defense == "none":
        game.play(1, {"kind": "no_defense"})
    elif defense == "parry":
        game.play(1, {"kind": "parry"})
    else:
        defend(game, 1, option)
    b = _basic_damage(game, method)
    has_damage, has_special = combat.has_damage(row), combat.has_special(row)
    reduction = defender.defense + (10 if defense == "reduction" else 0)
    expected_damage = max(0, b - reduction) if has_damage else 0
    stripped = defender.has("stripped")
    taken = hp - defender.hp

    if defense in {"trap", "complete", "parry", "counter"}:
        # FL-ATK-14, FL-ATK-15, FL-ATK-16, FL-ATK-17: nothing reaches the defender
        assert taken == 0 and not stripped
        if defense == "parry":
            assert defender.cp == cp - combat.ABILITY_CP  # FL-CLS-2: exactly 20 CP
        if defense == "counter":
            assert len(attacker.pending) == pending_before + 1  # returned to its source (AMB-30)
            assert attacker.pending[-1].reflected
    elif defense == "special":
        # FL-ATK-13: the special part is blocked, the damage is taken as with no defense
        assert not stripped
        assert taken == (max(0, b - defender.defense) if has_damage else 0)
    else:  # reduction or no defense: ○, △ or ×
        assert taken == expected_damage
        if cell == combat.PART:
            assert stripped == (expected_damage >= 1)  # FL-ATK-9, AMB-26
        elif cell == combat.NO:
            assert stripped  # FL-ATK-10: received in full
        else:
            assert not has_special and not stripped
    if method.endswith("_trap"):
        assert game.at(3, 4) not in game.state.traps  # the trap is gone after a defense (FL-TRAP-6)


def test_the_triangle_rule_both_ways_FL_ATK_9():
    """FL-ATK-9 (spec T-4): Attack 10 + Stripped remote on a Warrior: with Defense 10 the damage
    is 0 (10 - 13) and the special part is stopped; adjacent (B = 10 + 14) it gets through."""
    game = arena()
    game.to_core(0)
    use(game, 0, "attack-10-stripped", use="remote", target=1)
    game.set_hand(1, "defense-10")
    game.start_turn(1)
    defend(game, 1, "defense-10")
    assert game.p(1).hp == 120 and not game.p(1).has("stripped")

    game = arena()
    game.to_core(0)
    use(game, 0, "attack-10-stripped", use="adjacent", dir="right")
    game.set_hand(1, "defense-10")
    game.start_turn(1)
    defend(game, 1, "defense-10")
    assert game.p(1).hp == 120 - 11 and game.p(1).has("stripped")


def test_ironwall_halves_after_reduction_and_stripped_multiplies_FL_ATK_11():
    """FL-ATK-11, AMB-25 (spec T-4): D = floor(max(0, B - R) x m): Attack 15 remote on a Warrior
    with Ironwall: floor(12 / 2) = 6, and the + special still lands (D >= 1)."""
    game = arena()
    game.to_core(0)
    use(game, 0, "attack-10-stripped", use="remote", target=1)
    game.to_core(2)
    use(game, 2, "attack-15", use="remote", target=1)
    game.p(1).statuses.append(Status(id="ironwall", turns=7))
    game.start_turn(1)
    game.play(1, {"kind": "no_defense"})  # 10 - 3 = 7, halved: 3; Stripped replaces Ironwall (FL)
    assert game.p(1).hp == 117
    assert game.p(1).has("stripped") and not game.p(1).has("ironwall")
    game.play(1, {"kind": "no_defense"})  # 15 - 3 = 12, x1.5 = 18
    assert game.p(1).hp == 117 - 18
