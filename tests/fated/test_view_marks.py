"""The ``views`` hook's read-only views hand out again, without looking at them, the parts of each
audience's view made under the same change marks (``view._Kept.marks``: a copy of every player,
of the maze and of the monsters, compared whole). A part must be made again as soon as anything
it shows changed, however the state was changed: here the state is changed in place between two
calls (lists appended to, structs' fields set, as no rule does it), and every audience's view is
compared with the reference build after each change, and checked to show the change."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec

from delve.fated import view as view_module
from delve.fated import visibility
from delve.fated.ctx import Ctx
from delve.fated.grid import DOOR, FLOOR
from delve.fated.state import DEFENSE, GameState, Monster, Pending, Status, Trap
from delve.fated.view import build_many
from delve.kernel import Rng, lasting
from delve.kernel.lasting import Lasting, held

from . import view_reference
from .playout import new_playout, step

VIEWER = 0
OTHER = 1


def mid_game(seed: int = 4, commands: int = 60) -> GameState:
    """A running 4-player game after some random commands, the viewer and another seat alive."""
    playout = new_playout("fated-labyrinth", seed)
    rng = Rng.seeded(seed)
    while playout.commands < commands and step(playout, rng, check=False):
        pass
    state = playout.state
    assert not state.ended and state.players[VIEWER].alive and state.players[OTHER].alive
    return state


def seats(state: GameState) -> list[int | None]:
    return [None, *range(len(state.players))]


def checked(state: GameState) -> list[dict[str, Any]]:
    """The read-only views of every audience, asserted equal to the reference build (as JSON,
    key order included)."""
    views = build_many(state, seats(state), lasting=True)
    for seat, view in zip(seats(state), views, strict=True):
        assert json.dumps(view) == json.dumps(view_reference.build(state, seat)), f"seat {seat}"
    return views


def sight(state: GameState, seat: int) -> frozenset[int]:
    return visibility.sight(Ctx(state, state.clock), state.players[seat])


def free_tile(state: GameState, tiles: frozenset[int] | set[int], *, terrain: str = FLOOR) -> int:
    """A tile among ``tiles`` of ``terrain`` that nobody stands on and that holds no trap."""
    for tile in sorted(tiles):
        if state.grid[tile] == terrain and state.occupant(tile) is None and tile not in state.traps:
            return tile
    raise AssertionError("no free tile")


def key(state: GameState, tile: int) -> str:
    y, x = divmod(tile, state.size)
    return f"{x},{y}"


def far_tile(state: GameState) -> int:
    """A free floor tile out of the viewer's sight."""
    everything = set(range(state.size * state.size))
    return free_tile(state, everything - sight(state, VIEWER))


def test_parts_are_handed_out_again_while_nothing_changed():
    """The premise of the tests below: with nothing changed, each audience gets the very parts it
    got before (held lasting parts, the characters included) and the very view (a lasting part
    too, whose digest the server makes once), so a change the marks missed would show an
    outdated part; a view with a part changed is another object."""
    state = mid_game()
    first = checked(state)
    again = checked(state)
    for old, new in zip(first, again, strict=True):
        assert new is old and held(id(new))
        for name in old:
            assert new[name] is old[name], name
            assert held(id(new[name])), name
    state.players[OTHER].hand.append(state.deck[-1])  # its hand size is public (FL-INFO-1)
    changed = checked(state)
    for old, new in zip(first, changed, strict=True):
        assert new is not old and held(id(new))
        assert new["players"] is not old["players"] and new["map"] is old["map"]


def test_a_trap_learnt_in_place_shows_on_the_map():
    """FL-VIS-8: another player's trap in sight looks like floor; FL-VIS-10, FL-UI-2: once the
    viewer knows it (the trap's ``known`` list appended to in place), its map shows it."""
    state = mid_game()
    tile = free_tile(state, sight(state, VIEWER))
    checked(state)
    state.traps[tile] = Trap(card="bear_trap", setter=OTHER)
    before = checked(state)[1 + VIEWER]["map"]
    assert key(state, tile) not in before["traps"]
    assert before["tiles"][tile] == FLOOR
    state.traps[tile].known.append(VIEWER)
    after = checked(state)[1 + VIEWER]["map"]
    assert after["traps"][key(state, tile)] == {"card": "bear_trap", "own": False}
    assert after["tiles"][tile] == visibility.KNOWN_TRAP
    state.traps[tile].setter = VIEWER  # FL-VIS-9: an own trap (the struct changed in place)
    assert checked(state)[1 + VIEWER]["map"]["traps"][key(state, tile)]["own"] is True


def test_a_door_damaged_in_place_shows_on_the_map():
    """FL-VIS-2, FL-UI-2: a door in sight shows its hit points as they are now (the doors' dict
    changed in place)."""
    state = mid_game()
    tile = free_tile(state, sight(state, VIEWER))
    state.set_tile(tile, DOOR)
    state.door_hp[tile] = 9
    assert checked(state)[1 + VIEWER]["map"]["doors"][key(state, tile)] == 9
    state.door_hp[tile] = 4
    assert checked(state)[1 + VIEWER]["map"]["doors"][key(state, tile)] == 4


def test_players_moved_or_exposed_in_place_show_in_the_characters():
    """FL-VIS-6: another player shows in the viewer's characters when it stands in sight, not
    after it left; Exposed (a status appended in place) shows it anywhere (AMB-38)."""
    state = mid_game()
    other = state.players[OTHER]
    other.statuses = [s for s in other.statuses if s.id != "exposed"]

    def shown() -> list[dict[str, Any]]:
        found = checked(state)[1 + VIEWER]["characters"]
        return [c for c in found if c["type"] == "player" and c["seat"] == OTHER]

    other.pos = free_tile(state, sight(state, VIEWER))
    assert [c["in_sight"] for c in shown()] == [True]
    other.pos = far_tile(state)
    assert shown() == []
    other.statuses.append(Status(id="exposed", turns=3))
    assert [c["in_sight"] for c in shown()] == [False]
    other.statuses[-1].cancelled = True  # a status changed in place
    assert shown() == []


def test_the_sight_metric_changed_shows_in_the_map_and_the_characters():
    """FL-VIS-1, AMB-14: the sight is measured by the game's metric; a player two tiles away
    diagonally is in Chebyshev sight, not in Manhattan sight (the settings replaced, nothing
    else changed)."""
    state = mid_game()
    assert state.settings.sight_metric == "chebyshev"
    viewer, other = state.players[VIEWER], state.players[OTHER]
    n = state.size
    x, y = divmod(viewer.pos, n)[1], divmod(viewer.pos, n)[0]
    corners = [(x + dx, y + dy) for dx in (-2, 2) for dy in (-2, 2) if 0 <= x + dx < n and 0 <= y + dy < n]
    tile = free_tile(state, {cy * n + cx for cx, cy in corners} & sight(state, VIEWER))
    other.pos = tile

    def shown() -> list[bool]:
        found = checked(state)[1 + VIEWER]["characters"]
        return [c["in_sight"] for c in found if c["type"] == "player" and c["seat"] == OTHER]

    other.statuses = [s for s in other.statuses if s.id != "exposed"]
    assert shown() == [True]
    state.settings = msgspec.structs.replace(state.settings, sight_metric="manhattan")
    assert shown() == []


def test_monsters_changed_in_place_show_in_the_characters():
    """FL-UI-2, FL-MON-22: a monster in sight shows its hit points and statuses as they are now;
    out of sight it is not shown, unless the viewer has Keen Ear (appended to its statuses in
    place), which shows where it is."""
    state = mid_game()
    viewer = state.players[VIEWER]
    viewer.statuses = [s for s in viewer.statuses if s.id != "keen_ear"]
    monster = Monster(
        id=state.new_id(),
        kind="slime",
        owner=OTHER,
        pos=free_tile(state, sight(state, VIEWER)),
        hp=30,
        attack=6,
        defense=0,
        evasion=0,
        heading="up",
    )
    state.monsters.append(monster)

    def shown() -> list[dict[str, Any]]:
        found = checked(state)[1 + VIEWER]["characters"]
        return [c for c in found if c["type"] == "monster" and c["id"] == monster.id]

    assert [c["hp"] for c in shown()] == [30]
    monster.hp = 21
    assert [c["hp"] for c in shown()] == [21]
    monster.statuses.append(Status(id="blind"))
    assert [[s["id"] for s in c["statuses"]] for c in shown()] == [["blind"]]
    monster.pos = far_tile(state)
    assert shown() == []
    viewer.statuses.append(Status(id="keen_ear", turns=3))
    assert [c["in_sight"] for c in shown()] == [False]


def test_hands_statuses_and_pending_items_changed_in_place_show():
    """FL-UI-14: the viewer's hand (appended to in place) in its own view; FL-INFO-1: its size
    for everyone; FL-STS-18, FL-INFO-2: Stealth appended in place hides another player's status
    fields from others, not from itself; a status's turns changed in place show in its own
    entry; FL-DEF: an item to defend against appended in place shows in ``you``."""
    state = mid_game()
    viewer = state.players[VIEWER]
    card = state.deck[-1]
    size = len(viewer.hand)
    checked(state)
    viewer.hand.append(card)
    views = checked(state)
    assert [c["id"] for c in views[1 + VIEWER]["you"]["hand"]][-1] == card
    assert all(view["players"][VIEWER]["hand_size"] == size + 1 for view in views)

    other = state.players[OTHER]
    other.statuses = [s for s in other.statuses if s.id != "stealth"]
    checked(state)
    other.statuses.append(Status(id="stealth", turns=2))
    views = checked(state)
    assert views[1 + VIEWER]["players"][OTHER].get("hidden") is True
    assert "hidden" not in views[1 + OTHER]["players"][OTHER]
    other.statuses[-1].turns = 5
    views = checked(state)
    assert [s.get("turns") for s in views[1 + OTHER]["players"][OTHER]["statuses"]][-1] == 5

    viewer.phase = DEFENSE
    checked(state)
    viewer.pending.append(Pending(id=state.new_id(), kind="attack", created=state.clock, row="dmg_adjacent", power=7))
    assert checked(state)[1 + VIEWER]["you"]["defending"]["kind"] == "attack"
    viewer.pending[0].power = 9
    checked(state)


def test_the_end_of_the_game_set_in_place_shows_to_everyone():
    """FL-WIN: once the game ended, every audience sees the whole maze and everyone."""
    state = mid_game()
    checked(state)
    state.ended = True
    state.ended_at = state.clock
    state.win_kind = "none"
    views = checked(state)
    assert all(view["map"]["lit"] == "1" * (state.size * state.size) for view in views)


def test_parts_the_memo_forgot_are_held_again_when_handed_out_again(monkeypatch):
    """A part handed out again unlooked at may have been forgotten by the lasting memo meanwhile
    (it forgets the part held longest ago): it is held again, as is every view, so that the
    server finds their encodings and digests kept; the views are still those of the reference."""
    memo: Lasting[Any] = Lasting(40)
    monkeypatch.setattr(view_module, "_LASTING", memo)
    state = mid_game()
    first = checked(state)
    for index in range(40):  # other parts, held later: the memo forgets every part of the views
        memo.hold({"other": index})
    assert not any(held(id(part)) for view in first for part in (view, *view.values()))
    again = checked(state)
    for old, new in zip(first, again, strict=True):
        assert new is old and held(id(new))
        assert all(held(id(part)) for part in new.values())


def test_a_new_players_list_is_encoded_from_the_entries_kept_encoded():
    """The players' entries of a players list are lasting parts too, so that a new list (one
    player's entry changed) is encoded with the other entries' encodings made before: the
    unchanged entries are the very objects, held, and the list's encoding and digest are those
    of its canonical JSON."""
    state = mid_game()
    first = checked(state)
    before = first[0]["players"]
    assert all(held(id(entry)) for entry in before)
    encoded = lasting.encoded(before)
    assert encoded is not None
    state.players[OTHER].hand.append(state.deck[-1])  # its hand size is public (FL-INFO-1)
    changed = checked(state)[0]["players"]
    assert changed is not before
    for index, (old, new) in enumerate(zip(before, changed, strict=True)):
        assert (new is old) == (index != OTHER), index
        assert held(id(new))
    canonical = msgspec.json.Encoder(order="sorted").encode(changed)
    assert bytes(lasting.encoded(changed) or b"") == canonical
    assert lasting.digest(changed) == hashlib.sha256(canonical).hexdigest()
