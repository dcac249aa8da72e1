"""Components as data (MV-COMP-1..15) and the overview of play (MV-OVER-1..6)."""

from __future__ import annotations

import pytest

from delve.kernel import SettingsError
from delve.maiden import dice, settings
from delve.maiden.state import COLOURS, DIE_SIZES, WHITE
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.helpers import act, autoplay_one, finish_setup, new_game, to_move


def test_map_rooms_types_start_and_boss_rooms_mv_comp_1() -> None:
    """MV-COMP-1: rooms with area, type, adjacency and boss id; the start square S."""
    r, g = new_game()
    v = r.view(g, None)["map"]
    types = {room["type"] for room in v["rooms"]}
    assert types == {"start", "normal", "rest", "quest", "danger", "boss"}
    assert v["start"] == "s" and ["s", "a1_1"] in v["edges"]
    assert all(room["boss"] for room in v["rooms"] if room["type"] == "boss")


def test_area_cards_effect_and_arcana_mv_comp_3() -> None:
    """MV-COMP-3: an area card shows its effect on the map; freed, it becomes an Arcana."""
    r, g = new_game()
    to_move(r, g, wil=1)
    v = r.view(g, 0)
    assert {a["id"] for a in v["areas"]} == set(CONTENT.areas) and v["arcana"] == []
    g.freed.append("a3")
    g.arcana.append("a3")
    v = r.view(g, 0)
    assert next(a for a in v["areas"] if a["id"] == "a3")["freed"] and v["arcana"][0]["area"] == "a3"


def test_room_cards_are_a_drawn_deck_mv_comp_4() -> None:
    """MV-COMP-4: room cards (difficulty, slate, event) form a deck not tied to squares."""
    _, g = new_game()
    assert sorted(set(g.decks.room)) == sorted(CONTENT.room_cards)


def test_familiar_cards_mv_comp_6() -> None:
    """MV-COMP-6: a familiar is chosen at the start and never changes; it gives its initial
    skill(s) and a designated action card."""
    r, g = new_game()
    act(r, g, "choose_familiar", familiar="fam_g")
    finish_setup(r, g)
    assert g.maidens[0].familiars == ["fam_g"]
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "choose_familiar"]


def test_48_action_cards_of_four_kinds_mv_comp_7() -> None:
    """MV-COMP-7, MISS-10: 48 action cards, D, J, P (Pray) and G."""
    _, g = new_game()
    assert len(g.decks.action) == 48 and set(g.decks.action) == {"D", "J", "P", "G"}
    assert CONTENT.symbols["P"]["en"] == "Pray"


def test_boss_cards_life_and_three_actions_mv_comp_9() -> None:
    """MV-COMP-9: each boss has a life value and three ordered actions."""
    r, g = new_game()
    for boss in r.view(g, None)["bosses"]:
        assert boss["life"] > 0 and len(boss["actions"]) == 3 and boss["life_left"] is None


def test_dice_sizes_and_colours_unlimited_mv_comp_10() -> None:
    """MV-COMP-10: d4..d20 in red, blue, black and white; unlimited supply (any Pie)."""
    assert DIE_SIZES == (4, 6, 8, 12, 20) and COLOURS == ("red", "blue", "black") and WHITE == "white"
    assert len(dice.pool(20, 9, slate=None, restricted=False)) == 12


def test_player_markers_on_the_map_mv_comp_11() -> None:
    """MV-COMP-11: each maiden's room is shown on the map."""
    r, g = new_game(3)
    rooms = r.view(g, None)["map"]["rooms"]
    assert next(x for x in rooms if x["id"] == "s")["maidens"] == [0, 1, 2]


def test_exploration_markers_uncapped_mv_comp_12() -> None:
    """MV-COMP-12: explored rooms are a list without a cap; boss pointers are separate."""
    r, g = new_game()
    to_move(r, g, wil=1)
    act(r, g, "move", to="a1_1")
    assert g.explored == ["a1_1"]


def test_clock_markers_unused_mv_comp_13() -> None:
    """MV-COMP-13, MISS-8: clock markers have no rule; no setting or state refers to them."""
    assert "clock" not in " ".join(settings.LABELS)


def test_life_tokens_are_integers_mv_comp_14() -> None:
    """MV-COMP-14: maiden and boss life are integers."""
    _, g = new_game()
    assert isinstance(g.maidens[0].life, int) and all(isinstance(b.life, int) for b in g.bosses.values())


def test_story_and_game_name_mv_over_1() -> None:
    """MV-OVER-1: the White Maiden recovers the Sephirot: the view counts recovered Sephirot."""
    r, g = new_game()
    assert r.view(g, None)["game"] == "maiden" and r.view(g, None)["sephirot"] == 0


def test_one_to_four_players_cooperative_mv_over_2() -> None:
    """MV-OVER-2: 1-4 players, all win or lose together."""
    for n in (1, 2, 3, 4):
        new_game(n)
    with pytest.raises(SettingsError):
        settings.resolve({"players": 5})


def test_a_turn_moves_explores_and_checks_mv_over_3() -> None:
    """MV-OVER-3: a turn moves, enters an unexplored room, marks it explored and resolves a check."""
    r, g = new_game()
    to_move(r, g, wil=1)
    events = act(r, g, "move", to="a1_1")
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["maiden.moved", "maiden.entered"] and "check.started" in kinds


def test_entry_gates_are_the_metroidvania_ability_gates_mv_over_6() -> None:
    """MV-OVER-6: action symbols as ability gates (entry-restricted rooms, CHG-16)."""
    r, g = new_game(difficulty="normal", entry_restrictions=True)
    to_move(r, g, wil=1)
    rooms = r.view(g, 0)["map"]["rooms"]
    assert next(x for x in rooms if x["id"] == "a1_2")["entry_requirement"] == ["J", "J"]


def test_game_ends_by_the_last_round_at_the_latest_mv_over_4() -> None:
    """MV-OVER-4: at most 24 rounds."""
    r, g = new_game()
    finish_setup(r, g)
    while not g.ended:
        autoplay_one(r, g)
    assert g.round <= 24
