"""Views never show hidden cards (FL-CARD-13, FL-INFO-3..5, FL-VIS-8): another seat's hand,
the deck order, traps and fakes the viewer does not know, private card messages."""

from __future__ import annotations

import json
import re
from typing import Any

from delve.fated import visibility
from delve.fated.grid import FLOOR, TREASURE

from .cardkit import arena, use


def walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, leaf) of a view."""
    if isinstance(value, dict):
        return [item for key, v in value.items() for item in walk(v, f"{path}/{key}")]
    if isinstance(value, list):
        return [item for i, v in enumerate(value) for item in walk(v, f"{path}[{i}]")]
    return [(path, value)]


def card_paths(view: dict[str, Any]) -> set[str]:
    """Paths of every field that names a physical card (``card``/``cards``/``hand`` ids)."""
    return {p for p, _ in walk(view) if re.search(r"/(hand|cards?)(\[|$)", p)}


def test_other_hands_and_the_deck_order_are_never_in_a_view_FL_CARD_13_FL_INFO_3():
    """FL-CARD-13, FL-INFO-3: a hand is private (its size is public); the draw pile is a count."""
    game = arena()
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view["piles"] == {"deck": len(game.state.deck), "discard": len(game.state.discard)}
        for entry in view["players"]:
            assert "hand" not in entry and entry["hand_size"] == len(game.p(entry["seat"]).hand)
        if seat is None:
            assert "you" not in view
        else:
            assert [c["id"] for c in view["you"]["hand"]] == game.p(seat).hand
            assert all(p.startswith("/you/") for p in card_paths(view)), card_paths(view)
        assert str(game.state.deck[-10:])[1:-1] not in json.dumps(view)


def test_unknown_traps_and_fakes_are_invisible_in_views_FL_VIS_8_FL_INFO_3():
    """FL-VIS-8, FL-INFO-3: a trap looks like floor and a fake like the real thing to every
    viewer who does not know it, on the map, in the memory and in the log; the setter sees
    them as such."""
    game = arena()
    game.to_core(0)
    trap_tile = game.p(0).pos
    use(game, 0, "hp-poison", use="trap")
    game.p(0).pos = game.at(2, 2)
    game.to_core(0)
    use(game, 0, "fake")
    fake_tile = game.at(2, 2)
    visibility.refresh(game.ctx)
    mine, theirs, spectator = game.view(0), game.view(1), game.view(None)
    assert mine["map"]["tiles"][trap_tile] == visibility.OWN_TRAP
    assert mine["map"]["tiles"][fake_tile] == "t"
    assert theirs["map"]["tiles"][trap_tile] == FLOOR and theirs["map"]["tiles"][fake_tile] == TREASURE
    assert set(spectator["map"]["tiles"]) == {"?"}
    for view in (theirs, spectator):
        text = json.dumps(view, ensure_ascii=False)
        assert "hp-poison" not in text and '"fake"' not in text
        own_tile = [e for e in view["events"] if e["kind"] == "card.used_on_own_tile"]
        assert len(own_tile) == 2 and all(set(e) == {"time", "kind", "player"} for e in own_tile)
    assert {m["kind"] for m in mine["you"]["messages"]} >= {"trap.set", "fake.made"}


def test_private_card_messages_reach_only_their_seats_FL_INFO_5():
    """FL-INFO-5, FL-CARD-13: Peek shows the hand to the peeker only; a stolen card's identity is
    known to the thief and the victim only; drawn cards only to the drawer."""
    game = arena(["thief", "explorer", "priest", "warrior"])
    game.set_hand(1, "complete-defense")
    game.to_core(2)
    use(game, 2, "peek", target=1)
    game.to_core(0)
    game.play(0, {"kind": "steal", "dir": "right"})
    game.start_turn(1)
    game.play(1, {"kind": "no_defense"})

    def messages(seat: int) -> set[str]:
        return {m["kind"] for m in game.view(seat)["you"]["messages"]}

    assert "hand.seen" in messages(2) and "hand.seen" not in messages(0) | messages(1) | messages(3)
    assert "steal.card" in messages(0) and "steal.card" in messages(1) and "steal.card" not in messages(2)
    for seat in (3, None):  # neither the log nor an uninvolved seat learns the stolen card
        assert "complete-defense" not in json.dumps(game.view(seat))
    assert "cards.drawn" in messages(2) and "cards.drawn" not in messages(3)


def test_influence_and_terrain_uses_are_logged_without_coordinates_FL_INFO_4():
    """FL-INFO-4: card uses name the player, the card and the target (a player number, a monster,
    self, an area) but never a position."""
    game = arena()
    game.to_core(0)
    use(game, 0, "quake")
    game.to_core(0)
    use(game, 0, "potion")
    game.to_core(0)
    use(game, 0, "summon-slime", dir="up")
    used = [e for e in game.view(3)["events"] if e["kind"] == "card.used"]
    assert {e["card"] for e in used} == {"quake", "potion", "summon-slime"}
    for event in game.view(3)["events"]:
        assert not {"x", "y", "tile", "pos"} & set(event), event
