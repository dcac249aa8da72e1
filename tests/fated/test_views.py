"""What each seat may see: FL-INFO-1..6, FL-UI (engine side), FL-CARD-12/13, FL-STS-18."""

from __future__ import annotations

import json

from delve.fated import combat, monsters
from delve.fated.grid import FAKE_EXIT
from delve.fated.state import Fake, Status, Trap

from .scenario import Scenario

MAP = [
    "C.......C",
    ".........",
    "...12....",
    ".........",
    ".........",
    ".........",
    "....3....",
    ".......4.",
    "C.......C",
]


def game() -> Scenario:
    return Scenario.from_map(MAP, classes=["warrior", "explorer", "priest", "thief"])


def text(view: dict) -> str:
    return json.dumps(view, ensure_ascii=False)


def test_always_public_facts():
    """FL-INFO-1, FL-UI-9, FL-REC-3, FL-UI-4, FL-CARD-12: numbers, names, classes, alive, comments,
    the practice mark, pile sizes and hand sizes are public, also to spectators."""
    g = game()
    g.p(2).keep_record = False
    spectator = g.view(None)
    assert [p["number"] for p in spectator["players"]] == ["01", "02", "03", "04"]
    assert spectator["players"][2]["practice"] is True and spectator["players"][0]["practice"] is False
    assert spectator["piles"] == {"deck": len(g.state.deck), "discard": 0}
    assert spectator["players"][1]["hand_size"] == len(g.p(1).hand)
    assert "you" not in spectator


def test_status_fields_are_public_unless_stealth():
    """FL-INFO-2, FL-STS-18, AMB-18: HP, CP, stats, statuses and progress are public unless the
    player is under Stealth; the player always sees their own."""
    g = game()
    assert g.view(0)["players"][1]["hp"] == 120
    g.p(1).statuses.append(Status(id="stealth", turns=7))
    other = g.view(0)["players"][1]
    assert other.get("hidden") is True and "hp" not in other and "statuses" not in other
    assert g.view(1)["players"][1]["hp"] == 120
    assert g.view(None)["players"][1].get("hidden") is True


def test_hands_deck_order_stored_turns_and_clocks_are_private():
    """FL-INFO-3, FL-UI-14, FL-CARD-13: only the owner sees their hand; nobody sees the deck order,
    others' stored turns or clock times."""
    g = game()
    g.make_ready(1)
    mine = g.view(0)
    assert "you" in mine and mine["you"]["seat"] == 0
    assert [c["id"] for c in mine["you"]["hand"]] == g.p(0).hand
    serialized = text(mine)
    assert "stored_turns" not in text(mine["players"])
    for field in ("first_at", "acc_next", 'deck": [', "pending"):
        assert field not in serialized
    assert str(g.p(1).first_at) not in serialized
    assert all("hand" not in p for p in mine["players"])


def test_positions_outside_sight_traps_and_fakes_are_not_in_the_view():
    """FL-INFO-3, FL-VIS-8, FL-UI-2, FL-INFO-6: positions outside sight, unknown traps and fakes
    never appear; details of monsters only in sight."""
    g = game()
    g.set_hand(0, "defense-5")
    g.state.traps[g.at(2, 1)] = Trap(card="attack-20", setter=3)
    g.state.set_tile(g.at(4, 1), FAKE_EXIT)
    g.state.fakes[g.at(4, 1)] = Fake(setter=3)
    view = g.view(0)
    assert "attack-20" not in text(view)
    assert view["map"]["tiles"][g.at(4, 1)] == "E"
    assert {c["seat"] for c in view["characters"] if c["type"] == "player"} == {0, 1}
    monsters.summon(g.ctx, g.p(3), "golem", g.at(7, 6))
    assert all(c["type"] != "monster" for c in g.view(0)["characters"])


def test_the_event_log_is_one_public_list_newest_first_without_coordinates():
    """FL-INFO-4, FL-UI-3, AMB-17: the same list for every viewer, newest first, capped at 50;
    trap uses show only as "used a card on their own tile"."""
    g = game()
    (card,) = g.set_hand(0, "attack-20")
    g.to_core(0)
    g.play(0, {"kind": "use_card", "card": card, "use": "trap"})
    events = g.view(1)["events"]
    assert events == g.view(3)["events"] == g.view(None)["events"]
    assert events[0]["kind"] == "card.used_on_own_tile" and "card" not in events[0]
    assert events[-1]["kind"] == "game.started"
    for _ in range(60):
        g.play(0, {"kind": "comment", "text": "x"}, dt=61)
    assert len(g.view(0)["events"]) == 50
    assert all("tile" not in e and "pos" not in e for e in g.view(0)["events"])


def test_private_messages_reach_only_their_player():
    """FL-INFO-5: a player's own results (a trap set, cards drawn) are private messages."""
    g = game()
    (card,) = g.set_hand(0, "attack-20")
    g.to_core(0)
    g.play(0, {"kind": "use_card", "card": card, "use": "trap"})
    mine = [m["kind"] for m in g.view(0)["you"]["messages"]]
    assert "trap.set" in mine and "cards.drawn" in mine
    assert "trap.set" not in text(g.view(1))
    trap_events = [e for e in g.events if e.kind == "trap.set"]
    assert trap_events[0].to == (0,)


def test_the_defense_screen_shows_what_is_being_defended():
    """FL-UI-5, FL-DEF (display): source, card/label and basic damage of the current item."""
    g = game()
    item = combat.attack_item(g.ctx, row="dmg_remote", power=25, source=2, label="remote", use="remote")
    combat.queue(g.ctx, g.p(1), item)
    g.script(False)
    g.start_turn(1)
    defending = g.view(1)["you"]["defending"]
    choices = defending.pop("choices")
    assert defending == {"kind": "attack", "label": "remote", "source": 2, "use": "remote", "power": 25, "defense": 2}
    assert choices[0] == {
        "kind": "no_defense",
        "method": "none",
        "cp": 0,
        "result": "hit",
        "damage": 23,
        "hp": 97,
        "reduction": 2,
    }


def test_the_own_status_panel_has_progress_and_costs():
    """FL-UI-5, FL-UI-10, FL-UI-12, FL-CP-3: current/max values, the 2x2 checkpoint marks and the
    CP each card use would consume."""
    g = game()
    g.p(0).visited = 1 | 8
    you = g.view(0)
    me = you["players"][0]
    assert (me["hp"], me["max_hp"], me["cp"], me["max_cp"]) == (120, 120, 120, 120)
    assert me["visited"] == [[True, False], [False, True]]
    (card,) = g.set_hand(0, "attack-20")
    hand = g.view(0)["you"]["hand"]
    assert hand[0]["cp"] == g.ctx.card(card).uses  # warrior: magic 0, cost = consumption


def test_the_abandon_countdown_and_the_wait_countdown_are_shown():
    """FL-UI-5, FL-UI-13, FL-ABN-1: time left before abandonment outside the wait phase; the time
    of the next turn in the wait phase."""
    g = game()
    assert "abandon_at" in g.view(0)["you"] and g.view(0)["you"]["abandon_at"] is None
    assert g.view(0)["you"]["next_turn_at"] == g.p(0).first_at
    g.start_turn(0)
    assert g.view(0)["you"]["abandon_at"] == g.p(0).wait_ended_at + g.state.settings.abandon_time


def test_after_the_end_everyone_sees_the_whole_maze():
    """AMB-75: when the game is over the result stays visible; the maze is revealed."""
    g = game()
    for seat in (1, 2, 3):
        g.play(seat, {"kind": "give_up"})
    view = g.view(None)
    assert view["game"]["ended"] and view["game"]["winner"] == 0
    assert "?" not in view["map"]["tiles"]
