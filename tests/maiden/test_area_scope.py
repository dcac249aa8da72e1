"""An area's effect applies in its own rooms only (MV-EXPL-8), and a boss room belongs to no
area (SUG-1: boss rooms sit between areas, ``area = null``): the Emperor's Iron Law (SUG-3, A05
"Room difficulty +1") raises the target of a room check in the Emperor's rooms, never a boss
check in a neighbouring boss room; its text says so."""

from __future__ import annotations

from delve.maiden import bosses, checks, rounds
from delve.maiden.content import load
from tests.maiden.helpers import ctx, new_game, to_move


def _shipped():  # type: ignore[no-untyped-def]
    r, g = new_game(1, content=load())
    to_move(r, g, wil=1)
    return r, g


def test_the_iron_law_raises_room_targets_in_the_emperors_rooms_MV_EXPL_8() -> None:
    r, g = _shipped()
    c = ctx(r, g)
    maiden = g.maidens[0]
    assert r.content.rooms["a05_2"].area == "a05"
    card = next(iter(r.content.room_cards.values()))
    maiden.room = "a05_2"
    checks.start_room_check(c, maiden, card.id)
    assert g.check is not None and g.check.target == max(1, rounds.base_target(c) + card.difficulty + 1)


def test_the_iron_law_does_not_reach_the_boss_rooms_at_the_ends_of_its_path_MV_EXPL_8_SUG_1() -> None:
    """Chokmah and Tiphareth, the boss rooms at the two ends of the Emperor's path, are in no area."""
    for boss in ("chokmah", "tiphareth"):
        r, g = _shipped()
        c = ctx(r, g)
        maiden = g.maidens[0]
        assert r.content.rooms[boss].area is None
        maiden.room = boss
        bosses.engage(c, maiden, boss)
        checks.start_boss_check(c, maiden, boss)
        action = bosses.current_action(c, boss)
        assert g.check is not None and g.check.target == max(1, rounds.base_target(c) + action.difficulty)


def test_no_boss_room_is_in_an_area_and_no_area_effect_claims_bosses_MV_EXPL_8_SUG_1() -> None:
    """Every boss room is in no area, so an area effect never applies to a boss check: no area's
    effect text may say it does (the Iron Law said "room and boss targets are +1")."""
    data = load()
    assert all(room.area is None for room in data.rooms.values() if room.type == "boss")
    for area in data.areas.values():
        assert "boss" not in area.effect_text.en.lower(), area.id
        assert "ボス" not in area.effect_text.ja, area.id
    emperor = data.areas["a05"]
    assert emperor.effect_text.en == "The Iron Law: room targets are +1 here."
    assert emperor.effect_text.ja == "鉄の法：このエリアでは、ルームの目標値が+1される。"
