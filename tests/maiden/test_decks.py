"""Decks and draws (MV-DECK-1, MV-DECK-2, MV-DECK-3, MV-DECK-4, MV-DECK-5) and quests (MV-QUEST-1,
MV-QUEST-2, MV-QUEST-3, MV-QUEST-4, MV-QUEST-5, MV-QUEST-6)."""

from __future__ import annotations

from delve.maiden import decks
from tests.maiden.helpers import act, ctx, new_game, set_stats, to_move


def test_four_decks_with_discards_mv_deck_1_mv_comp_15() -> None:
    """MV-DECK-1, MV-COMP-15: action, skill, room and quest decks, discards, quests set aside."""
    _, g = new_game()
    for deck in ("action", "skill", "room", "quest"):
        assert isinstance(getattr(g.decks, deck), list)
        assert getattr(g.decks, f"{deck}_discard") == []
    assert g.decks.quests_aside


def test_ins_draws_one_plus_ins_keep_one_public_discards_mv_deck_2_mv_deck_5_mv_check_2() -> None:
    """MV-DECK-2, MV-CHECK-2: with Ins 2 a room draw shows 3 cards, the player keeps one, the
    others go face up to the discard pile (MV-DECK-5)."""
    r, g = new_game()
    to_move(r, g, ins=2, wil=1)
    act(r, g, "move", to="a1_1")
    decision = g.pending[0]
    assert decision.kind == "keep_card" and len(decision.options) == 3 and decision.data["deck"] == "room"
    kept = decision.options[1]
    others = [c for i, c in enumerate(decision.options) if i != 1]
    events = act(r, g, "keep_card", card=1)
    assert g.check is not None and g.check.source == kept
    assert g.decks.room_discard[-2:] == others
    assert next(e for e in events if e.kind == "card.kept").data["discarded"] == others


def test_draws_use_the_drawing_maidens_ins_mv_deck_3() -> None:
    """MV-DECK-3: the Ins used is the drawing maiden's own (seat 1's Ins 2 does not help seat 0)."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, wil=1)
    set_stats(g, 1, ins=2)
    act(r, g, "move", to="a1_1")
    assert g.step == "pre_roll"  # one candidate: kept at once
    c = ctx(r, g)
    assert decks.draw_count(c, g.maidens[1], "room") == 3


def test_empty_deck_reshuffles_discards_and_short_draws_mv_deck_4() -> None:
    """MV-DECK-4, OQ-28: an empty action/skill/room deck is rebuilt from its shuffled discard
    pile; with fewer cards than 1 + Ins, what there is is drawn."""
    r, g = new_game()
    to_move(r, g)
    c = ctx(r, g)
    g.decks.room_discard.extend(g.decks.room[:-1])
    del g.decks.room[:-1]
    drawn = decks.take(c, "room", 3)
    assert len(drawn) == 3 and any(e.kind == "deck.reshuffled" for e in c.events)
    everything = g.decks.room + g.decks.room_discard
    g.decks.room_discard.clear()
    g.decks.room[:] = everything[:1]
    assert len(decks.take(c, "room", 3)) == 1


def test_quest_deck_never_reshuffled_and_empty_draws_nothing_mv_quest_6() -> None:
    """MV-QUEST-6: an empty quest deck draws nothing at a quest room; discards stay discarded."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.decks.quest_discard.extend(g.decks.quest)
    g.decks.quest.clear()
    events = act(r, g, "move", to="a2_1")
    assert any(e.kind == "deck.empty" and e.data["deck"] == "quest" for e in events)
    assert g.decks.quest == [] and len(g.decks.quest_discard) == 2


def test_follow_up_shuffled_in_only_when_named_mv_quest_4_mv_comp_5() -> None:
    """MV-QUEST-4, CHG-15: q_pilgrim names follow-up #1: it joins the quest deck; #2, never named,
    stays aside (MV-COMP-5: numbered quests wait aside)."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.decks.quest.remove("q_pilgrim")
    g.decks.quest.append("q_pilgrim")
    act(r, g, "move", to="a2_1")
    assert "q_return" in g.decks.quest and g.decks.quests_aside == ["q_lost"]


def test_ongoing_quest_stays_with_its_mods_mv_quest_3_mv_quest_5() -> None:
    """MV-QUEST-3: an ongoing quest stays in the quest area; MV-QUEST-5: quests can weaken bosses
    (q_shrine: bosses set up later have 1 life less)."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.decks.quest.remove("q_shrine")
    g.decks.quest.append("q_shrine")
    act(r, g, "move", to="a2_1")
    assert g.quest_area == ["q_shrine"]
    assert g.boss_life_delta == -1


def test_quest_draw_with_ins_is_a_choice_mv_quest_2_mv_deck_2() -> None:
    r, g = new_game()
    to_move(r, g, ins=1, wil=1)
    act(r, g, "move", to="a2_1")
    assert g.pending[0].kind == "keep_card" and g.pending[0].data["deck"] == "quest"
    assert sorted(g.pending[0].options) == ["q_pilgrim", "q_shrine"]


def test_no_room_card_at_all_skips_the_check_mv_deck_4() -> None:
    """MV-DECK-4: with the room deck and its discards empty nothing is drawn; the turn goes on."""
    r, g = new_game()
    to_move(r, g, wil=1)
    hidden = list(g.decks.room)
    g.decks.room.clear()
    events = act(r, g, "move", to="a1_1")
    assert any(e.kind == "deck.empty" and e.data["deck"] == "room" for e in events)
    assert not any(e.kind == "check.started" for e in events) and g.step == "move"
    g.decks.room.extend(hidden)
