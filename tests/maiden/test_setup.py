"""Setup (MV-SETUP-1, MV-SETUP-2, MV-SETUP-3, MV-SETUP-4, MV-SETUP-5, MV-SETUP-6, MV-SETUP-7,
MV-SETUP-8, MV-SETUP-9, MV-SETUP-10, MV-SETUP-11, MV-SETUP-12, MV-SETUP-13, MV-SETUP-14,
MV-SETUP-15, MV-SETUP-16, MV-SETUP-17): decks, quests set aside, maidens on S, familiars,
designated cards, the first level-up, the start player, per-seat steps in seat order from the
start player."""

from __future__ import annotations

from collections import Counter

import pytest

from delve.kernel import IllegalCommand, SettingsError
from delve.maiden.state import STATS
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.helpers import act, finish_setup, new_game


def test_decks_shuffled_and_quests_aside_mv_setup_1_mv_setup_2_mv_quest_1() -> None:
    """MV-SETUP-1: action/skill/room decks; MV-SETUP-2, MV-QUEST-1: only initial quests in the
    quest deck, numbered quests set aside."""
    _, g = new_game(2, seed=5)
    assert Counter(g.decks.action) == Counter({"D": 12, "J": 12, "P": 12, "G": 12})
    assert sorted(g.decks.quest) == ["q_pilgrim", "q_shrine"]
    assert sorted(g.decks.quests_aside) == ["q_lost", "q_return"]
    assert sorted(g.decks.skill) == sorted(s.id for s in CONTENT.skills.values() if s.deck)
    assert len(g.decks.room) == 8  # r_zero has 2 copies
    _, other = new_game(2, seed=6)
    assert other.decks.action != g.decks.action or other.decks.room != g.decks.room


def test_game_wide_state_before_play_mv_setup_3_4_5_6() -> None:
    """MV-SETUP-3: every area effect active; MV-SETUP-4: round 0, DL 1, no action markers;
    MV-SETUP-5: bosses face up, not engaged; MV-SETUP-6: unlimited stock (nothing to count)."""
    _, g = new_game(1)
    assert g.freed == [] and g.round == 0 and g.danger_level == 1 and g.action_markers == 0
    assert all(not b.engaged and b.life == 0 for b in g.bosses.values())


def test_maidens_on_start_with_six_life_mv_setup_7_mv_setup_8_mv_life_1() -> None:
    """MV-SETUP-7, MV-SETUP-8, MV-LIFE-1, CHG-1: each maiden on S with 6 life of 6."""
    _, g = new_game(3)
    assert [(m.room, m.life, m.life_max) for m in g.maidens] == [("s", 6, 6)] * 3


def test_familiar_choice_in_seat_order_from_start_player_mv_setup_9_mv_setup_16() -> None:
    """MV-SETUP-9, OQ-40: each seat picks one familiar, a familiar only once; MV-SETUP-16: seat
    by seat from the start player."""
    r, g = new_game(3, start_player=1)
    assert g.pending[0].kind == "choose_familiar" and g.pending[0].seat == 1
    with pytest.raises(IllegalCommand) as err:
        r.apply(g, 0, {"kind": "choose_familiar", "familiar": "fam_d"}, g.clock)
    assert err.value.code == "command/not_your_decision"
    act(r, g, "choose_familiar", familiar="fam_d")
    assert g.pending[0].kind == "place_card" and g.pending[0].seat == 1
    act(r, g, "place_card", stat="pie")
    assert g.pending[0].kind == "choose_familiar" and g.pending[0].seat == 2
    assert "fam_d" not in g.pending[0].options


def test_initial_skill_and_designated_card_mv_setup_10_mv_setup_11() -> None:
    """MV-SETUP-10: the familiar's initial skill, ready at level 0; MV-SETUP-11, OQ-29: a card of
    the designated kind is searched out of the action deck, which is then reshuffled."""
    r, g = new_game(1)
    before = Counter(g.decks.action)
    act(r, g, "choose_familiar", familiar="fam_j")
    m = g.maidens[0]
    assert [(s.id, s.level, s.exhausted) for s in m.skills] == [("f_jump", 0, False)]
    assert g.pending[0].data["card"] == "J"
    assert Counter(g.decks.action) == before - Counter({"J": 1})
    act(r, g, "place_card", stat="wil")
    assert m.stats["wil"] == ["J"]


def test_placement_on_agi_learns_a_skill_mv_setup_12() -> None:
    """MV-SETUP-12: a card on Agi draws a skill (Ins 0: one card, kept at once)."""
    r, g = new_game(1)
    act(r, g, "choose_familiar", familiar="fam_d")
    act(r, g, "place_card", stat="agi")
    assert len(g.maidens[0].skills) == 2


def test_placement_on_ins_gives_bigger_draws_mv_setup_12_mv_stat_7() -> None:
    """MV-SETUP-12, MV-STAT-7: a card on Ins makes the next draw (the first level-up) 2 cards."""
    r, g = new_game(1)
    act(r, g, "choose_familiar", familiar="fam_d")
    act(r, g, "place_card", stat="ins")
    assert g.pending[0].kind == "keep_card" and len(g.pending[0].options) == 2


def test_first_level_up_after_everyone_mv_setup_13_mv_setup_17_mv_stat_9() -> None:
    """MV-SETUP-13: after steps 11-12 for everyone, each seat's first level-up; MV-SETUP-17,
    MV-STAT-9: two stat cards each, at least one skill, round 0, DL 1."""
    r, g = new_game(2, start_player=1)
    for familiar in ("fam_d", "fam_j"):
        act(r, g, "choose_familiar", familiar=familiar)
        act(r, g, "place_card", stat="wil")
    kinds = [(d.kind, d.seat) for d in g.pending]
    assert kinds == [("place_card", 1)]  # first level-up of the start player
    assert g.pending[0].data["why"] == "first"
    act(r, g, "place_card", stat="pie")
    act(r, g, "place_card", stat="pie")
    assert g.step == "move"
    for m in g.maidens:
        assert sum(len(m.stats[s]) for s in STATS) == 2
        assert m.skills


def test_stacking_newest_on_top_mv_setup_14_mv_stat_2_mv_stat_3() -> None:
    """MV-SETUP-14, MV-STAT-2, MV-STAT-3: the newest card on top; level = count; top symbols."""
    r, g = new_game(1)
    act(r, g, "choose_familiar", familiar="fam_d")
    act(r, g, "place_card", stat="wil")
    card = g.pending[0].data["card"]
    act(r, g, "place_card", stat="wil")
    m = g.maidens[0]
    assert m.stats["wil"] == ["D", card] and m.level("wil") == 2 and m.top_symbols() == [card]


def test_start_player_random_choose_seat_mv_setup_15() -> None:
    """MV-SETUP-15: random by default (seeded), chosen by any seat, or a fixed seat."""
    r, g = new_game(3, start_player="choose")
    assert g.pending[0].kind == "choose_start_player" and g.pending[0].seat is None
    r.apply(g, 2, {"kind": "choose_start_player", "seat": 1}, g.clock)
    assert g.start_player == 1 and g.pending[0].seat == 1
    starts = {new_game(4, seed=s, start_player="random")[1].start_player for s in range(12)}
    assert len(starts) > 1
    with pytest.raises(SettingsError):
        new_game(2, start_player=3)


def test_setup_finishes_into_round_one_mv_setup_17() -> None:
    r, g = new_game(4)
    finish_setup(r, g)
    assert g.round == 1 and g.action_markers == 1 and g.step == "move"
