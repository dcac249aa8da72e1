"""look_rooms (contract OPS): look at the top N room cards and put them back in a chosen order;
the cards below the top N are never shown (the room deck of MV-DECK-1 keeps its order hidden;
no reshuffle, unlike a draw under MV-DECK-4)."""

from __future__ import annotations

from delve.maiden import effects
from tests.maiden.helpers import act, cards_conserved, ctx, new_game, to_move


def test_look_rooms_reorders_only_the_top_cards_mv_deck_1() -> None:
    """MV-DECK-1: the player sees the top 3 cards only (the options) and picks them top first; the
    rest of the deck keeps its order; every card stays in the deck."""
    r, g = new_game()
    to_move(r, g, wil=1)
    deck = g.decks.room
    below, top = list(deck[:-3]), list(deck[-3:])  # the top card is the last one
    effects.run(ctx(r, g), [{"op": "look_rooms", "count": 3}], "room:test", {}, actor=g.maidens[0], strict=False)
    shown = [o["look_card"] for o in g.pending[0].options]
    assert sorted(shown) == sorted(top) and not set(below) & set(shown) - set(top)
    assert len(g.pending[0].options) == 3
    bottom_choice = top[0]  # put the current bottom of the three on top
    act(r, g, "choose", option=shown.index(bottom_choice))
    assert len(g.pending[0].options) == 2
    last = act(r, g, "choose", option=0)
    assert not g.pending
    assert g.decks.room[:-3] == below and g.decks.room[-1] == bottom_choice
    assert sorted(g.decks.room[-3:]) == sorted(top)
    cards_conserved(r, g)
    assert [e.kind for e in last[-1:]] == ["rooms.reordered"]


def test_look_rooms_with_a_short_deck_looks_at_what_is_there_mv_deck_4() -> None:
    """MV-DECK-4 reshuffles only to draw: looking at 3 of a 1-card deck shows that one card."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.decks.room_discard.extend(g.decks.room[:-1])
    del g.decks.room[:-1]
    effects.run(ctx(r, g), [{"op": "look_rooms", "count": 3}], "room:test", {}, actor=g.maidens[0], strict=False)
    assert not g.pending and len(g.decks.room) == 1
