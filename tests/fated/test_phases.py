"""Phases within a turn and the move phase: FL-TURN-15..22, FL-MOVE, FL-WAIT, FL-CORE-11."""

from __future__ import annotations

import pytest

from delve.fated import combat, monsters
from delve.fated.state import CORE, DEFENSE, MOVE, WAIT, Status
from delve.kernel import IllegalCommand

from .scenario import Scenario

MAP = [
    "C.......C",
    "..1~~~.#.",
    ".........",
    ".+#..T...",
    "....2....",
    ".........",
    "...3.....",
    "......4..",
    "C.......C",
]


def game(**kw) -> Scenario:
    return Scenario.from_map(MAP, classes=["explorer", "warrior", "noble", "thief"], **kw)


def test_a_turn_is_three_moves_then_one_core_command():
    """FL-TURN-1, FL-TURN-2, FL-TURN-15, FL-TURN-16, FL-TURN-17, AMB-7: WAIT -> READY -> MOVE(1..3)
    -> CORE -> WAIT, the per-player state machine."""
    g = game()
    g.start_turn(4 - 3)  # seat 1 (warrior) stands in the open
    p = g.p(1)
    for n in (1, 2, 3):
        assert (p.phase, p.move_no) == (MOVE, n)
        g.play(1, {"kind": "move", "dir": "down" if n % 2 else "up"})
    assert p.phase == CORE
    g.play(1, {"kind": "nothing"})
    assert p.phase == WAIT


def test_haste_gives_one_more_move_phase_fixed_at_move_one():
    """FL-TURN-16, FL-STS-16, AMB-5: M + 1 with Haste, fixed when move phase 1 begins."""
    g = game()
    g.p(1).statuses.append(Status(id="haste", turns=7))
    g.start_turn(1)
    assert g.p(1).moves_total == 4
    g.p(1).statuses.clear()
    for _ in range(4):
        g.play(1, {"kind": "move", "dir": "right"} if g.p(1).phase == MOVE else {"kind": "nothing"})
    assert g.p(1).phase == CORE


def test_stay_skips_every_remaining_move_phase():
    """FL-MOVE-5, FL-TURN-19, AMB-5: stay in any move phase goes straight to the core phase."""
    g = game()
    g.start_turn(1)
    g.play(1, {"kind": "move", "dir": "down"})
    g.play(1, {"kind": "stay"})
    assert g.p(1).phase == CORE
    assert {"kind": "pass", "reward": "cp"} not in g.legal(1)  # moved first: no core pass (AMB-6)


def test_pass_in_move_phase_one_ends_the_turn_with_a_reward():
    """FL-MOVE-7, FL-TURN-18, FL-CLS-6: take 1 card (Noble 2) or 25 CP; only before moving."""
    g = game()
    g.p(2).cp = 50
    g.start_turn(2)
    hand = len(g.p(2).hand)
    g.play(2, {"kind": "pass", "reward": "cards"})
    assert len(g.p(2).hand) == min(hand + 2, g.p(2).max_cards) and g.p(2).phase == WAIT
    g.start_turn(2)
    g.play(2, {"kind": "pass", "reward": "cp"})
    assert g.p(2).cp == 75
    g.start_turn(1)
    g.play(1, {"kind": "move", "dir": "down"})
    assert "pass" not in g.kinds(1)
    with pytest.raises(IllegalCommand) as info:
        g.play(1, {"kind": "pass", "reward": "cp"})
    assert info.value.code == "command/pass_not_allowed"


def test_level_d_move_phase_pass_gives_20_cp_and_core_pass_25():
    """FL-MOVE-7, FL-CORE-8, Appendix T-2: Level D pass in move phase 1: CP 50 -> 70; pass in the
    core phase after "stay": +25, capped at max CP (FL-STAT-4)."""
    g = Scenario.new(preset="level-d")
    g.p(0).cp = 50
    g.start_turn(0)
    g.play(0, {"kind": "pass", "reward": "cp"})
    assert g.p(0).cp == 70
    g.to_core(0)
    assert g.p(0).stayed
    g.play(0, {"kind": "pass", "reward": "cp"})
    assert g.p(0).cp == 95
    g.p(0).cp = 110
    g.to_core(0)
    g.play(0, {"kind": "pass", "reward": "cp"})
    assert g.p(0).cp == 120


def test_moves_are_refused_into_walls_doors_edges_and_characters():
    """FL-MOVE-8 (the quick-move buttons issue exactly these move commands), FL-MOVE-1, FL-MAP-4,
    FL-MAP-5, FL-MAP-7, FL-MAP-8: a wall, a door, outside the grid or an
    occupied tile is not a destination; the refusal says why and changes nothing."""
    g = Scenario.from_map(
        [
            "C.....C",
            "......#",
            "....21#",
            ".....+.",
            ".......",
            ".3.....",
            "C..4..C",
        ]
    )
    g.start_turn(0)
    offered = {c["dir"] for c in g.legal(0) if c["kind"] == "move"}
    assert offered == {"up"}  # right: wall, down: door, left: player 2
    before = g.p(0).pos
    for direction in ("right", "down", "left"):
        with pytest.raises(IllegalCommand) as info:
            g.play(0, {"kind": "move", "dir": direction})
        assert info.value.code == "command/blocked"
    assert g.p(0).pos == before and g.p(0).move_no == 1
    g.play(0, {"kind": "move", "dir": "up"})
    g.play(0, {"kind": "move", "dir": "up"})  # now on the top edge
    assert "up" not in {c["dir"] for c in g.legal(0) if c["kind"] == "move"}


def test_moving_onto_a_treasure_does_not_pick_it_up():
    """FL-MOVE-2, FL-MAP-11: treasure tiles are floor-like; picking up is a core command."""
    g = game()
    g.p(1).pos = g.at(5, 4)
    g.start_turn(1)
    g.play(1, {"kind": "move", "dir": "up"})
    assert g.p(1).pos == g.at(5, 3) and g.p(1).treasures == 0
    g.play(1, {"kind": "stay"})
    assert {"kind": "pick_up"} in g.legal(1)


def test_ice_slips_in_the_same_direction_and_chains():
    """FL-MOVE-3, FL-MAP-9, AMB-11: 50% to slip one more tile; each ice tile rolls again; a slip
    uses no move phase; it stops before a wall."""
    g = game()
    g.start_turn(0)  # seat 0 at (2,1); ice at (3..5, 1); wall at (7,1)
    g.script(True, True, True, False)
    g.play(0, {"kind": "move", "dir": "right"})
    assert g.p(0).pos == g.at(6, 1)  # 3 -> 4 -> 5 -> 6 (floor: no more slipping)
    assert g.p(0).move_no == 2
    assert [m.kind for m in g.messages(0)].count("move.slipped") == 3


def test_no_slip_when_the_dice_say_so_or_with_float():
    """FL-MOVE-3, FL-MAP-9, FL-STS-17: a failed roll stays on the ice; Float never slips."""
    g = game()
    g.start_turn(0)
    g.script(False)
    g.play(0, {"kind": "move", "dir": "right"})
    assert g.p(0).pos == g.at(3, 1)
    g2 = game()
    g2.p(0).statuses.append(Status(id="float", turns=7))
    g2.start_turn(0)
    g2.script(True, True, True)
    g2.play(0, {"kind": "move", "dir": "right"})
    assert g2.p(0).pos == g2.at(3, 1)


def test_a_slip_stops_on_the_ice_before_an_obstacle():
    """FL-MOVE-3: a slip happens only if the next tile is a valid destination."""
    g = game()
    g.p(1).pos = g.at(6, 1)  # warrior stands right after the ice
    g.start_turn(0)
    g.script(True, True, True)
    g.play(0, {"kind": "move", "dir": "right"})
    assert g.p(0).pos == g.at(5, 1)


def test_swap_places_with_an_own_monster_in_the_move_phase():
    """FL-MOVE-4, FL-MON-20: swapping uses the move phase; no trap, no slip."""
    g = game()
    monster = monsters.summon(g.ctx, g.p(1), "slime", g.at(4, 5))
    g.start_turn(1)
    assert {"kind": "swap", "dir": "down"} in g.legal(1)
    g.play(1, {"kind": "swap", "dir": "down"})
    assert g.p(1).pos == g.at(4, 5) and monster.pos == g.at(4, 4)
    assert g.p(1).move_no == 2


def test_defense_phases_wait_for_the_end_of_the_move_phase():
    """FL-TURN-20, FL-MOVE-6, AMB-8: an item arriving during a move phase gets its defense phase
    after that move; one arriving in the core phase waits for the next turn (FL-TURN-21)."""
    g = game()
    g.start_turn(1)
    item = combat.attack_item(g.ctx, row="dmg_remote", power=10, source=3, label="remote", use="remote")
    combat.queue(g.ctx, g.p(1), item)
    assert g.p(1).phase == MOVE
    g.script(False)  # no evasion
    g.play(1, {"kind": "move", "dir": "down"})
    assert g.p(1).phase == DEFENSE
    g.play(1, {"kind": "no_defense"})
    assert (g.p(1).phase, g.p(1).move_no) == (MOVE, 2)
    g.play(1, {"kind": "stay"})
    combat.queue(g.ctx, g.p(1), combat.attack_item(g.ctx, row="dmg_remote", power=5, source=3, label="remote"))
    assert g.p(1).phase == CORE
    g.play(1, {"kind": "nothing"})
    assert g.p(1).phase == WAIT and len(g.p(1).pending) == 1
    g.script(False)
    g.start_turn(1)
    assert g.p(1).phase == DEFENSE  # inserted at the start of the turn


def test_a_trap_comes_first_then_the_other_items_in_order():
    """FL-TURN-22, AMB-8: at an insertion point the trap stepped on comes first, then FIFO."""
    g = game()
    g.give(2, "attack-10")
    g.state.traps[g.at(4, 5)] = __import__("delve.fated.state", fromlist=["Trap"]).Trap(card="attack-10", setter=2)
    g.start_turn(1)
    first = combat.attack_item(g.ctx, row="dmg_remote", power=10, source=3, label="first")
    second = combat.attack_item(g.ctx, row="dmg_remote", power=10, source=3, label="second")
    combat.queue(g.ctx, g.p(1), first)
    combat.queue(g.ctx, g.p(1), second)
    g.script(False, False)  # trap: no evasion; first item: no evasion
    g.play(1, {"kind": "move", "dir": "down"})
    assert [i.label for i in g.p(1).pending] == ["trap", "first", "second"]


def test_the_wait_phase_allows_only_refresh_comment_and_give_up():
    """FL-TURN-10, FL-WAIT-1, FL-WAIT-2, FL-WAIT-3, FL-WAIT-4, AMB-50: nothing else; the view
    shows when the next turn comes (refresh = reading the view again)."""
    g = game()
    assert g.p(0).phase == WAIT
    assert g.kinds(0) == {"give_up", "comment"}
    with pytest.raises(IllegalCommand) as info:
        g.play(0, {"kind": "move", "dir": "right"})
    assert info.value.code == "command/not_your_phase"
    you = g.view(0)["you"]
    assert you["phase"] == "wait" and you["next_turn_at"] == g.p(0).first_at
    g.play(0, {"kind": "comment", "text": "waiting"})
    assert g.p(0).comment == "waiting"


def test_the_core_phase_offers_only_commands_whose_preconditions_hold():
    """FL-CORE-11, FL-CORE-7: no attack without a target, no pick-up without treasure, draw
    only with 3 cards or fewer, pass only after staying."""
    g = game()
    g.start_turn(0)
    g.play(0, {"kind": "move", "dir": "down"})
    g.play(0, {"kind": "stay"})
    kinds = g.kinds(0)
    assert "attack" not in kinds and "pick_up" not in kinds and "escape" not in kinds
    assert "draw" not in kinds and "pass" not in kinds and "nothing" in kinds
    g.set_hand(0, "attack-10", "attack-10", "attack-10")
    assert "draw" in g.kinds(0)


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ({"kind": "stay", "dir": "up"}, '"stay" takes no field but kind, not dir'),
        ({"kind": "move", "dir": "up", "card": 1}, '"move" takes only dir, not card'),
        ({"kind": "give_up", "text": "bye"}, '"give_up" takes no field but kind, not text'),
    ],
)
def test_a_field_the_kind_does_not_take_is_malformed_like_an_unknown_field(command, says):
    """A field the command's kind does not take is refused as ``command/malformed`` in any phase,
    as an unknown field is (and as White Maiden does): it used to reach the legality check and
    come back as ``command/invalid_target``, a refusal a bot would take for a bad target."""
    g = game()
    g.start_turn(1)
    for data in (command, {"kind": "stay", "unknown": 1}):
        with pytest.raises(IllegalCommand) as info:
            g.play(1, data)
        assert info.value.code == "command/malformed"
    with pytest.raises(IllegalCommand) as info:
        g.play(1, command)
    assert says in info.value.message
    g.play(1, {"kind": "stay"})  # nothing changed: the command as listed is still legal


def test_every_kind_says_which_fields_it_takes():
    from delve.fated.commands import KIND_FIELDS, KINDS, Command

    assert set(KIND_FIELDS) == KINDS
    assert set().union(*KIND_FIELDS.values()) == set(Command.__struct_fields__) - {"kind"}


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "move", "dir": "up"},
        {"dir": "up", "kind": "move"},
        {"kind": "use_card", "card": 7, "use": "remote", "target": 2},
        {"kind": "use_card", "card": True, "use": "remote", "target": 2},  # True equals 1: no card number
        {"kind": "use_card", "card": 1, "use": "remote", "target": 2},
        {"kind": "use_card", "card": 1.0},
        {"kind": "use_card", "card": "1"},
        {"kind": "use_card", "card": 3, "dir": None, "monster": None},
        {"kind": "pass", "reward": "cp"},
        {"kind": "pass", "reward": "gold"},
        {"kind": "stay", "dir": "up"},
        {"kind": "stay", "unknown": 1},
        {"kind": "fly"},
        {"kind": "comment", "text": "hello"},
        {"kind": "comment", "text": ["not", "a", "text"]},
        {"kind": "defend", "card": {"id": 3}},
        {1: "move"},
    ],
)
def test_a_command_parsed_again_is_parsed_as_the_first_time(data):
    """``commands.parse`` looks a plain dict up among those parsed before: what it finds is what
    parsing afresh (``_parse``) gives, a value of another type (``True`` for ``1``) is not taken
    for an equal one, a refusal is made again each time, and every result is a dict of its own."""
    from delve.fated import commands

    def outcome(parse):
        try:
            return parse(data)
        except IllegalCommand as exc:
            return (exc.code, exc.message)

    fresh = outcome(commands._parse)
    for _ in range(3):  # the first parse, then from the memo
        found = outcome(commands.parse)
        assert found == fresh and type(found) is type(fresh)
        if isinstance(found, dict):
            assert list(found) == list(fresh)  # the canonical order of the fields
            found["kind"] = "changed"  # a caller's change reaches no later parse


def test_a_parsed_command_is_not_found_again_for_an_equal_value_of_another_type():
    """``{"card": 1}`` parsed and kept; ``{"card": True}`` (equal, and of equal hash) is still refused."""
    from delve.fated import commands

    assert commands.parse({"kind": "defend", "card": 1}) == {"kind": "defend", "card": 1}
    for other in (True, 1.0):
        with pytest.raises(IllegalCommand) as info:
            commands.parse({"kind": "defend", "card": other})
        assert info.value.code == "command/malformed"
