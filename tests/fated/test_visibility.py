"""Fog of war: FL-VIS-1..11, AMB-14..16, AMB-38."""

from __future__ import annotations

import json
from itertools import product

from delve.fated import monsters, statuses, visibility
from delve.fated import state as state_module
from delve.fated.ctx import Ctx
from delve.fated.grid import FAKE_TREASURE, FLOOR, ICE, TREASURE, WALL
from delve.fated.state import Fake, Status, Trap

from .scenario import Scenario

MAP = [
    "C.........C",
    "...........",
    "...........",
    "...1.......",
    "...........",
    "...........",
    "........2..",
    "...........",
    ".3.........",
    "........4..",
    "C.........C",
]


def game(classes=("explorer", "cat", "warrior", "thief")) -> Scenario:
    return Scenario.from_map(MAP, classes=list(classes))


def lit(g: Scenario, seat: int) -> set[tuple[int, int]]:
    view = g.view(seat)["map"]
    n = view["size"]
    return {(i % n, i // n) for i, flag in enumerate(view["lit"]) if flag == "1"}


def test_sight_is_a_chebyshev_square_of_radius_two_three_for_the_cat():
    """FL-VIS-1, AMB-14, FL-CLS-7: radius 2 (a 5x5 square, not blocked by walls); Cat/Ninja 3."""
    g = game()
    g.state.set_tile(g.at(4, 3), WALL)  # walls do not block sight
    assert lit(g, 0) == {(x, y) for x in range(1, 6) for y in range(1, 6)}
    g.p(1).pos = g.at(6, 6)
    assert lit(g, 1) == {(x, y) for x in range(3, 10) for y in range(3, 10)}


def test_light_widens_and_blind_narrows_sight_never_below_zero():
    """FL-VIS-1, FL-STS-17: Light +1, Blind -1 (min 0)."""
    g = game()
    me = g.p(0)
    me.statuses = [Status(id="light", turns=7)]
    assert len(lit(g, 0)) == 49
    me.statuses = [Status(id="blind", turns=7)]
    assert len(lit(g, 0)) == 9
    g.state.settings = type(g.state.settings)(**{**_fields(g.state.settings), "sight_metric": "manhattan"})
    assert len(lit(g, 0)) == 5  # the sight_metric parameter (AMB-14)


def _fields(settings):
    return {f: getattr(settings, f) for f in settings.__struct_fields__}


def test_sight_never_goes_below_zero():
    """FL-VIS-1: radius 2 - 1 (Blind) never falls below 0; a radius 0 still shows the own tile."""
    from delve.fated import statuses

    g = game()
    me = g.p(0)
    me.statuses = [Status(id="blind", turns=7)]
    assert statuses.sight_radius(g.ctx, me) == 1
    g.state.settings = type(g.state.settings)(**{**_fields(g.state.settings), "sight_metric": "manhattan"})
    assert lit(g, 0) == {(3, 3), (2, 3), (4, 3), (3, 2), (3, 4)}


def test_tiles_are_bright_remembered_or_unexplored():
    """FL-VIS-2, FL-VIS-3, FL-VIS-4, AMB-15: in sight: current terrain; seen before: the terrain
    as last seen (even if it changed since); never seen: unexplored."""
    g = game()
    n = g.state.size
    g.start_turn(0)
    g.play(0, {"kind": "move", "dir": "right"})  # (4,3): column 1 leaves sight
    g.state.set_tile(g.at(1, 3), ICE)  # changes while out of sight
    tiles = g.view(0)["map"]["tiles"]
    assert tiles[g.at(1, 3)] == FLOOR  # remembered as it was
    assert tiles[g.at(10, 10)] == visibility.UNEXPLORED
    assert g.view(0)["map"]["lit"][g.at(1, 3)] == "0"
    g.play(0, {"kind": "move", "dir": "left"})
    assert g.view(0)["map"]["tiles"][g.at(1, 3)] == ICE
    assert len(g.view(0)["map"]["tiles"]) == n * n


def test_characters_show_only_in_sight_and_exposed_players_everywhere():
    """FL-VIS-6, AMB-38, FL-STS-17: others' positions only in sight; an Exposed player is shown on
    every map (not the terrain around them)."""
    g = game()
    seats = {c["seat"] for c in g.view(0)["characters"] if c["type"] == "player"}
    assert seats == {0}
    g.p(3).statuses.append(Status(id="exposed", turns=7))
    chars = [c for c in g.view(0)["characters"] if c["type"] == "player"]
    assert {c["seat"] for c in chars} == {0, 3}
    exposed = next(c for c in chars if c["seat"] == 3)
    assert exposed["in_sight"] is False
    assert g.view(0)["map"]["tiles"][g.p(3).pos] == visibility.UNEXPLORED


def test_own_marker_numbers_and_monster_colours():
    """FL-VIS-7, FL-MON-22: the viewer is marked as themselves, others by two-digit number,
    monsters by glyph, own or enemy."""
    g = game()
    monsters.summon(g.ctx, g.p(0), "dragon", g.at(3, 2))
    monsters.summon(g.ctx, g.p(2), "slime", g.at(4, 4))
    chars = g.view(0)["characters"]
    me = next(c for c in chars if c["type"] == "player")
    assert me["you"] and me["number"] == "01"
    glyphs = {c["glyph"]: c["own"] for c in chars if c["type"] == "monster"}
    assert glyphs == {"龍": True, "粘": False}


def test_keen_ear_shows_every_monster_without_details():
    """FL-VIS-6, FL-STS-17, FL-MON-22: under Keen Ear all monsters appear; details only in sight."""
    g = game()
    far = monsters.summon(g.ctx, g.p(2), "golem", g.at(9, 8))
    assert all(c["type"] != "monster" for c in g.view(0)["characters"])
    g.p(0).statuses.append(Status(id="keen_ear", turns=7))
    (seen,) = [c for c in g.view(0)["characters"] if c["type"] == "monster"]
    assert seen["id"] == far.id and seen["in_sight"] is False and "hp" not in seen


def test_unknown_traps_look_like_floor_and_fakes_like_the_real_thing():
    """FL-VIS-8, FL-TRAP-4, FL-FAKE-2, AMB-16: a trap set by another looks like normal floor; a
    fake looks like a treasure, except to its maker."""
    g = game()
    trap_tile, fake_tile = g.at(2, 2), g.at(4, 4)
    g.state.traps[trap_tile] = Trap(card="attack-10", setter=2)
    g.state.set_tile(fake_tile, FAKE_TREASURE)
    g.state.fakes[fake_tile] = Fake(setter=2)
    tiles = g.view(0)["map"]["tiles"]
    assert tiles[trap_tile] == FLOOR and tiles[fake_tile] == TREASURE
    g.p(2).pos = g.at(3, 4)
    tiles2 = g.view(2)["map"]["tiles"]
    assert tiles2[fake_tile] == FAKE_TREASURE


def test_own_traps_are_marked_and_known_traps_are_red_but_still_trigger():
    """FL-VIS-9, FL-VIS-10, FL-TRAP-2, FL-TRAP-8: own traps show as own traps and never trigger on
    their setter; a known enemy trap shows as a trap and still triggers."""
    g = game()
    own, known = g.at(4, 3), g.at(3, 4)
    g.state.traps[own] = Trap(card="attack-10", setter=0)
    g.state.traps[known] = Trap(card="attack-10", setter=2, known=[0])
    tiles = g.view(0)["map"]["tiles"]
    assert tiles[own] == visibility.OWN_TRAP and tiles[known] == visibility.KNOWN_TRAP
    g.start_turn(0)
    g.play(0, {"kind": "move", "dir": "right"})
    assert g.p(0).pending == []  # own trap: nothing
    g.play(0, {"kind": "move", "dir": "left"})
    g.script(False)  # no evasion
    g.play(0, {"kind": "move", "dir": "down"})
    assert g.p(0).pending and g.p(0).pending[0].kind == "trap"


def test_insight_reveals_traps_and_fakes_in_sight_for_good():
    """FL-STS-17, FL-TRAP-8, FL-FAKE-6, AMB-16: knowledge gained under Insight stays."""
    g = game()
    tile = g.at(2, 2)
    g.state.traps[tile] = Trap(card="attack-10", setter=2)
    g.p(0).statuses.append(Status(id="insight", turns=7))
    g.refresh()
    assert g.view(0)["map"]["tiles"][tile] == visibility.KNOWN_TRAP
    g.p(0).statuses.clear()
    g.refresh()
    assert g.view(0)["map"]["tiles"][tile] == visibility.KNOWN_TRAP


def test_memory_keeps_fakes_as_believed():
    """FL-VIS-5: the remembered terrain is the perceived one: a fake as the real thing."""
    g = game()
    tile = g.at(2, 2)
    g.state.set_tile(tile, FAKE_TREASURE)
    g.state.fakes[tile] = Fake(setter=2)
    g.refresh()
    assert g.p(0).memory[tile] == TREASURE


def test_the_palette_hints_are_in_the_view():
    """FL-VIS-11, FL-UI-11: statuses carry plus/minus so the screen can colour them."""
    g = game()
    g.p(0).statuses = [Status(id="light", turns=7), Status(id="blind", turns=3)]
    you = next(p for p in g.view(0)["players"] if p["seat"] == 0)
    assert {s["id"]: s["kind"] for s in you["statuses"]} == {"light": "plus", "blind": "minus"}
    json.dumps(g.view(0))  # a view is plain JSON


def test_tile_details_name_known_traps_in_sight_only():
    """FL-UI-2, FL-INFO-6, AMB-16: the details of an in-sight tile name a trap the viewer knows
    (card and whether it is their own); unknown traps and out-of-sight tiles say nothing."""
    g = game()
    own, known, unknown, far = g.at(4, 3), g.at(3, 4), g.at(2, 2), g.at(9, 9)
    g.state.traps[own] = Trap(card="attack-10", setter=0)
    g.state.traps[known] = Trap(card="blind", setter=2, known=[0])
    g.state.traps[unknown] = Trap(card="attack-20", setter=2)
    g.state.traps[far] = Trap(card="attack-30", setter=0)
    traps = g.view(0)["map"]["traps"]
    assert traps == {"4,3": {"card": "attack-10", "own": True}, "3,4": {"card": "blind", "own": False}}
    assert g.view(None)["map"]["traps"] == {}


def test_a_refresh_visits_only_changes_yet_equals_a_refresh_from_scratch():
    """FL-VIS-3, AMB-15, FL-STS-17: a refresh only revisits the tiles in sight that changed since
    the player's last one. After every kind of change made straight to the state (terrain,
    traps and who knows them, fakes, positions, sight statuses, Insight, the metric, the
    seen-since-exit marks, the memory itself), it leaves the state exactly as a refresh of a
    decoded copy, which has no record of earlier refreshes and visits every tile in sight."""
    g = game()
    near, other = g.at(3, 2), g.at(4, 4)
    changes = [
        lambda: g.state.traps.__setitem__(near, Trap(card="attack-10", setter=2)),
        lambda: g.p(0).statuses.append(Status(id="insight", turns=7)),
        lambda: g.state.set_tile(other, WALL),
        lambda: g.state.traps[near].known.remove(0),
        lambda: g.state.set_tile(g.at(5, 3), FAKE_TREASURE) or g.state.fakes.__setitem__(g.at(5, 3), Fake(setter=1)),
        lambda: setattr(g.p(0), "pos", g.at(5, 5)),
        lambda: g.p(0).statuses.append(Status(id="light", turns=7)),
        lambda: setattr(g.p(0), "memory", "?" * len(g.state.grid)),
        lambda: setattr(g.p(1), "seen_since_exit", "0" * len(g.state.grid)),
        lambda: g.state.traps.pop(near),
        lambda: setattr(g.state.traps.setdefault(g.at(6, 6), Trap(card="blind", setter=0)), "setter", 3),
        lambda: setattr(
            g.state, "settings", type(g.state.settings)(**{**_fields(g.state.settings), "sight_metric": "manhattan"})
        ),
        lambda: setattr(g.p(0), "pos", g.at(5, 4)),  # one step: the sights overlap
        lambda: (setattr(g.p(0), "pos", g.at(5, 3)), g.state.set_tile(g.at(4, 4), ICE)),  # a change in the overlap
        lambda: (g.p(0).statuses.append(Status(id="blind", turns=7)), setattr(g.p(0), "pos", g.at(6, 3))),
        lambda: setattr(g.p(0).statuses[-1], "turns", 6),  # a status changed, the sight is the same
        lambda: setattr(g.p(0).statuses[-1], "cancelled", True),  # Blind loses its effect in place
        lambda: g.state.traps[g.at(6, 6)].known.append(0),  # a trap learned in place
        lambda: None,
    ]
    for change in changes:
        change()
        fresh = state_module.decode(state_module.encode(g.state))
        g.refresh()
        visibility.refresh(Ctx(fresh, g.now))
        assert state_module.encode(g.state) == state_module.encode(fresh)
        assert all(not visibility.stale(g.state, p) for p in g.state.players)
    assert g.p(0).memory[near] == FLOOR and g.p(0).memory[g.at(5, 3)] == FAKE_TREASURE  # seen under Insight


def test_sight_reads_light_blind_and_insight_as_active_does_FL_STS_17():
    """``statuses.sight`` (radius and Insight from one pass over the statuses) agrees with
    ``sight_radius`` and ``active``: a status listed as cancelled (FL-STS-12) has no effect,
    and the first entry of a status decides."""
    g = game()
    me = g.p(0)
    entries = [None, Status(id="light", turns=7), Status(id="light", turns=7, cancelled=True)]
    blinds = [None, Status(id="blind", turns=7), Status(id="blind", turns=7, cancelled=True)]
    insights = [None, Status(id="insight", turns=7), Status(id="insight", turns=7, cancelled=True)]
    for light, blind, insight in product(entries, blinds, insights):
        listed = [s for s in (blind, Status(id="haste", turns=3), light, insight) if s is not None]
        for extra in ([], [Status(id="light", turns=7, cancelled=not (light and light.cancelled))]):
            me.statuses = listed + extra
            radius = 2 + bool(light and not light.cancelled) - bool(blind and not blind.cancelled)
            works = bool(insight and not insight.cancelled)
            assert statuses.sight(g.ctx, me) == (radius, works)
            assert statuses.sight_radius(g.ctx, me) == radius
            assert statuses.active(me, "insight", g.ctx) is works
    me.statuses = []
    assert statuses.sight(g.ctx, me) == (2, False)
    assert statuses.sight(g.ctx, g.p(1)) == (3, False)  # the Cat's wide sight
