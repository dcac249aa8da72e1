"""The movement op warp (contract OPS; MV-MOVE-5, MV-MOVE-12): to an explored room then the
movement goes on from there, or into an unexplored room that she enters."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.maiden.fixtures.content import CONTENT
from tests.maiden.helpers import act, new_game, to_move


def _game(to: str):  # type: ignore[no-untyped-def]
    areas = dict(CONTENT.areas)
    areas["a1"] = msgspec.structs.replace(areas["a1"], arcana=({"op": "warp", "to": to},), arcana_timing="movement")
    r, g = new_game(content=msgspec.structs.replace(CONTENT, areas=areas))
    to_move(r, g, wil=1)
    g.arcana = ["a1"]
    return r, g


def _warps(r, g) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    return [c for c in r.legal_commands(g, 0) if c["kind"] == "use_arcana"]


def test_warp_to_explored_then_the_movement_goes_on_mv_move_5() -> None:
    """MV-MOVE-5: warp to an explored room (no living boss there); she is still in the movement
    step and moves on from the new room."""
    r, g = _game("explored")
    assert _warps(r, g) == []  # only the start is explored, and she stands on it
    g.explored.append("a3_1")
    assert _warps(r, g) == [{"kind": "use_arcana", "area": "a1", "room": "a3_1"}]
    events = act(r, g, "use_arcana", area="a1", room="a3_1")
    assert g.maidens[0].room == "a3_1" and g.step == "move"
    assert [e.kind for e in events if e.kind.startswith("maiden.")] == ["maiden.warped"]
    assert "a3_1" not in [c.get("to") for c in r.legal_commands(g, 0) if c["kind"] == "move"]


def test_warp_to_unexplored_enters_the_room_mv_move_5_mv_expl_1() -> None:
    """MV-MOVE-5, MV-EXPL-1: warp into an unexplored room (never a boss room): she enters and
    explores it and its room phase follows."""
    r, g = _game("unexplored")
    rooms = [c["room"] for c in _warps(r, g)]
    assert "a3_1" in rooms and "s" not in rooms and not any(x.startswith("b_") for x in rooms)
    act(r, g, "use_arcana", area="a1", room="a3_1")
    assert g.maidens[0].room == "a3_1" and "a3_1" in g.explored and g.step != "move"


def test_no_warp_in_a_boss_fight_mv_move_12() -> None:
    """MV-MOVE-12: a maiden in a boss fight cannot move, so no warp is offered."""
    r, g = _game("unexplored")
    g.maidens[0].boss = "imp"
    assert _warps(r, g) == []
