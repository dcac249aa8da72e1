"""The view as built (``delve.fated.view``: shared parts, card tables) against the plain reference
build (``view_reference.py``), and ``FatedRuleset.views`` against one ``view`` per seat, over many
random positions of both presets: the same dicts, key order included, and no object shared
between two views built for callers (the ``views`` hook's read-only views share parts)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from delve.fated.grid import FAKE_TREASURE
from delve.fated.state import Fake, GameState, Player, Status, Trap
from delve.fated.view import build_many
from delve.kernel import IllegalCommand, Rng
from delve.kernel.lasting import held

from . import view_reference
from .playout import RULESET, new_playout, step

#: (preset, seed): random games played to their end or to ``COMMANDS``, a position checked every
#: ``EVERY`` commands (seeds whose games between them reach every case of ``features``).
GAMES = [("fated-labyrinth", 2), ("fated-labyrinth", 3), ("fated-labyrinth", 6), *(("level-d", s) for s in (1, 3, 4))]
COMMANDS = 1500
EVERY = 9


def positions(preset: str, seed: int) -> Iterator[GameState]:
    playout = new_playout(preset, seed)
    rng = Rng.seeded(seed)
    going = True
    while going and playout.commands < COMMANDS:
        going = step(playout, rng, check=False)
        if playout.commands % EVERY == 0 or not going:
            yield playout.state


def text(view: dict[str, Any]) -> str:
    """The view as JSON with its keys in the order built (what a client receives)."""
    return json.dumps(view, ensure_ascii=False)


def containers(value: Any) -> Iterator[int]:
    """The ids of every dict and list in ``value``, ``value`` included."""
    if isinstance(value, dict):
        yield id(value)
        for item in value.values():
            yield from containers(item)
    elif isinstance(value, list):
        yield id(value)
        for item in value:
            yield from containers(item)


def shared(views: list[dict[str, Any]]) -> int:
    """How many dicts and lists appear more than once in ``views`` (in two views, or twice in one)."""
    seen = Counter(i for view in views for i in containers(view))
    return sum(1 for count in seen.values() if count > 1)


def features(view: dict[str, Any], state: GameState, seat: int | None) -> set[str]:
    """What a position shows that a fast path could get wrong."""
    found = set()
    if state.ended:
        found.add("ended")
    if seat is not None and not state.players[seat].alive:
        found.add("dead viewer")
    if any("hidden" in p for p in view["players"]):
        found.add("stealth")
    if "stale" in view["map"]:
        found.add("stale map")
    if view["map"]["traps"]:
        found.add("known traps")
    if view["map"]["doors"]:
        found.add("damaged doors")
    for c in view["characters"]:
        if not c["in_sight"]:
            found.add("keen ear" if c["type"] == "monster" else "exposed" if not c["you"] else "")
    if "defending" in view.get("you", {}):
        found.add("defending")
    if any(s.get("cancelled") for p in view["players"] for s in p.get("statuses", [])):
        found.add("cancelled status")
    if any(len(card["cp"]) > 1 for card in view.get("you", {}).get("hand", [])):
        found.add("card of two uses")
    return found - {""}


@pytest.mark.parametrize(("preset", "seed"), GAMES, ids=[f"{p}-{s}" for p, s in GAMES])
def test_views_equal_the_reference_build_and_one_view_per_seat(preset, seed):
    """Every audience's view equals the reference build; ``views`` equals ``view`` per seat."""
    for state in positions(preset, seed):
        seats: list[int | None] = [None, *range(len(state.players))]
        many = RULESET.views(state, seats)
        assert len(many) == len(seats)
        for seat, together in zip(seats, many, strict=True):
            expected = text(view_reference.build(state, seat))
            assert text(RULESET.view(state, seat)) == expected, f"seat {seat} at clock {state.clock}"
            assert text(together) == expected, f"views(): seat {seat} at clock {state.clock}"


def test_the_random_positions_reach_what_the_views_must_get_right():
    """The positions above are not all alike: they include ended games, dead viewers, Stealth,
    Exposed, Keen Ear, known traps, damaged doors, stale maps, defense phases, cancelled statuses
    and cards of two uses (else the comparison would prove little)."""
    found: set[str] = set()
    for preset, seed in GAMES:
        for state in positions(preset, seed):
            for seat in [None, *range(len(state.players))]:
                found |= features(RULESET.view(state, seat), state, seat)
    assert found == {
        "ended",
        "dead viewer",
        "stealth",
        "stale map",
        "known traps",
        "damaged doors",
        "keen ear",
        "exposed",
        "defending",
        "cancelled status",
        "card of two uses",
    }


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_views_share_no_object_and_a_changed_view_changes_no_other(preset):
    """Each view built for a caller (``view``, ``build_many`` without ``lasting``) is a tree of
    its own (no dict or list in two places, two cards of a kind included), in one call (any seat
    order, a seat twice) and between successive calls, so a caller may fill in or change one
    view freely; the read-only views of the ``views`` hook share nothing with them either."""
    for state in positions(preset, 5):
        seats: list[int | None] = [2, None, 0, *range(len(state.players)), None, 2]
        lasting = RULESET.views(state, seats)
        kept = [text(view) for view in lasting]
        many = build_many(state, seats)
        assert shared(many) == 0
        in_lasting = {i for view in lasting for i in containers(view)}
        assert in_lasting.isdisjoint(i for view in many for i in containers(view))
        again = [RULESET.view(state, seat) for seat in seats]
        assert shared(many + again) == 0
        before = [text(view) for view in again]
        for view in many:  # what a journal or a screen might do to a view it was handed
            view["events"] = []
            view["game"]["ended"] = "changed"
            view["map"]["doors"]["0,0"] = -1
            for entry in view["players"]:
                entry.clear()
            view["characters"].clear()
            if "you" in view:
                view["you"]["messages"] = []
                for card in view["you"]["hand"]:
                    card["cp"].clear()
        assert [text(view) for view in again] == before
        assert [text(RULESET.view(state, seat)) for seat in seats] == before
        assert [text(view) for view in lasting] == kept
        assert [text(view) for view in RULESET.views(state, seats)] == before


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_the_views_hook_shares_parts_between_audiences_and_calls(preset):
    """The ``views`` hook's views are read-only (the server only hashes them): the game's
    standing and the piles are one object for every audience, a players list or map that
    several audiences or successive calls show alike is one object, and such parts are lasting
    parts (their canonical encoding made once while held)."""
    found: Counter[str] = Counter()
    previous: list[dict[str, Any]] | None = None
    for state in positions(preset, 5):
        seats: list[int | None] = [None, *range(len(state.players))]
        views = RULESET.views(state, seats)
        assert all(view["game"] is views[0]["game"] and view["piles"] is views[0]["piles"] for view in views)
        for key in ("game", "piles", "map", "players"):
            assert all(held(id(view[key])) for view in views), key
        if len({id(view["players"]) for view in views}) < len(views):
            found["players shared by audiences"] += 1
        if previous is not None:
            for key in ("game", "map", "players", "you"):
                if any(key in view and view[key] is old[key] for view, old in zip(views, previous, strict=True)):
                    found[f"{key} kept from the call before"] += 1
        previous = views
    assert set(found) == {
        "players shared by audiences",
        "game kept from the call before",
        "map kept from the call before",
        "players kept from the call before",
        "you kept from the call before",
    }


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_views_equal_the_reference_build_with_images_and_changed_prices(preset):
    """Cases the random games rarely reach: players shown with an image (Level D's registration
    option), and hand prices changed by Magic, Sage and Fool (FL-CP-5), the same hand seen at
    several prices one after another (the card tables are kept per price)."""
    changes = [(0, None), (30, "sage"), (30, None), (55, "fool"), (0, "sage"), (99, "fool"), (0, None)]
    for number, state in enumerate(positions(preset, 7)):
        if number % 5:
            continue
        for i, player in enumerate(state.players):
            if i % 2 == 0:
                player.image = "cat"
        for magic, status in changes:
            for player in state.players:
                player.magic = magic
                player.statuses = [s for s in player.statuses if s.id not in {"sage", "fool"}]
                if status is not None:
                    player.statuses.append(Status(id=status))
            for seat in [None, *range(len(state.players))]:
                expected = text(view_reference.build(state, seat))
                assert text(RULESET.view(state, seat)) == expected, f"seat {seat} at magic {magic}, {status}"


def test_views_equal_the_reference_build_after_changes_made_straight_to_the_state():
    """FL-VIS-8..10: a map shows what the viewer perceives in sight now even when the state was
    changed after its last refresh (a trap set, learned or moved, a tile changed, a player moved,
    its sight changed): the memory its last refresh wrote is used only while nothing it
    perceives in sight changed since."""
    changes: list[Callable[[GameState, Player], object]] = [
        lambda state, p: state.traps.__setitem__(p.pos, Trap(card="attack-10", setter=p.seat)),
        lambda state, p: state.traps[p.pos].__setattr__("setter", (p.seat + 1) % len(state.players)),
        lambda state, p: state.traps[p.pos].known.append(p.seat),
        lambda state, p: state.set_tile(p.pos, FAKE_TREASURE) or state.fakes.__setitem__(p.pos, Fake(setter=p.seat)),
        lambda state, p: state.fakes[p.pos].__setattr__("setter", (p.seat + 1) % len(state.players)),
        lambda state, p: p.statuses.append(Status(id="light", turns=3)),
        lambda state, p: setattr(p, "pos", p.pos + 1 if p.pos % state.size < state.size - 1 else p.pos - 1),
        lambda state, p: None,
    ]
    checked = 0
    for number, state in enumerate(positions("level-d", 1)):
        if number % 10 or state.ended:
            continue
        viewer = next((p for p in state.players if p.alive), None)
        if viewer is None:
            continue
        for change in changes:
            change(state, viewer)
            expected = text(view_reference.build(state, viewer.seat))
            assert text(RULESET.view(state, viewer.seat)) == expected, f"after {number}: {change}"
            checked += 1
    assert checked > 0


def test_views_refuse_a_seat_that_does_not_exist():
    state = new_playout("fated-labyrinth", 1).state
    with pytest.raises(IllegalCommand) as raised:
        RULESET.views(state, [None, len(state.players)])
    assert raised.value.code == "command/no_such_seat"
    assert RULESET.views(state, []) == []


def test_kept_public_entries_follow_every_change_of_what_they_show():
    """FL-INFO-1/2, FL-STS-18: the players' entries and the game's standing, kept beside the
    state between views, show every field changed straight on the state (a status's turns
    changed in place included), and a decoded state keeps nothing of them."""
    changes: list[Callable[[GameState, Player], object]] = [
        lambda state, p: setattr(p, "hp", p.hp - 1),
        lambda state, p: setattr(p, "comment", p.comment + "!"),
        lambda state, p: setattr(p, "name", p.name + "?"),
        lambda state, p: p.hand.append(p.hand[0] if p.hand else 0),
        lambda state, p: setattr(p, "visited", p.visited ^ 5),
        lambda state, p: p.statuses.append(Status(id="stealth", turns=3)),
        lambda state, p: p.statuses[-1].__setattr__("turns", 1),
        lambda state, p: p.statuses[-1].__setattr__("cancelled", True),
        lambda state, p: setattr(p, "image", "cat"),
        lambda state, p: setattr(p, "treasures", p.treasures + 1),
        lambda state, p: setattr(state, "winner", p.seat),
        lambda state, p: setattr(state, "ended", True),
    ]
    checked = 0
    for number, state in enumerate(positions("fated-labyrinth", 2)):
        if number % 20 or state.ended:
            continue
        seats: list[int | None] = [None, *range(len(state.players))]
        for seat in seats:
            RULESET.view(state, seat)
        assert "_view_kept" not in RULESET.decode(RULESET.encode(state)).__dict__
        changed = state.players[number // 20 % len(state.players)]
        for change in changes:
            change(state, changed)
            for seat in seats:
                expected = text(view_reference.build(state, seat))
                assert text(RULESET.view(state, seat)) == expected, f"seat {seat} after {change}"
            checked += 1
        break
    assert checked == len(changes)


def test_views_of_both_presets_built_in_turns_show_their_own_hands_FL_CFG_5():
    """FL-CFG-5 (a preset's card set): a server builds views of Fated Labyrinth and Level D games
    in turn (and in threads side by side); the hand entries kept per preset and price never
    cross: each view equals the reference build of its own game."""
    fated = positions("fated-labyrinth", 2)
    level_d = positions("level-d", 1)
    checked = 0
    for one, other in zip(fated, level_d, strict=False):  # the first 20 of each
        for state in (one, other, one):
            for seat in range(len(state.players)):
                assert text(RULESET.view(state, seat)) == text(view_reference.build(state, seat))
        checked += 1
        if checked >= 20:
            break
    assert checked == 20
