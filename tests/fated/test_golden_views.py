"""Golden per-seat view transcripts (FL-INFO-1..6, FL-VIS, FL-UI): for a few seeded games, what
every seat and a spectator see at fixed points, compared with files under tests/fated/golden.

Any leak (a new field, another seat's card, an unseen position) or any change of behaviour shows
as a diff. After an intended change, regenerate and review the diff:

    DELVE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/fated/test_golden_views.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from delve.kernel import Rng

from .playout import RULESET, new_playout, step

GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("fated-labyrinth", 1, (1, 60, 160)),
    ("fated-labyrinth", 4, (40, 120)),
    ("level-d", 2, (1, 90)),
]


def readable(view: dict[str, Any]) -> dict[str, Any]:
    """The view with its map strings cut into rows, so that diffs are easy to read."""
    out = dict(view)
    grid = dict(view["map"])
    n = grid["size"]
    grid["tiles"] = [grid["tiles"][y * n : (y + 1) * n] for y in range(n)]
    grid["lit"] = [grid["lit"][y * n : (y + 1) * n] for y in range(n)]
    out["map"] = grid
    return out


def transcript(preset: str, seed: int, points: tuple[int, ...]) -> list[dict[str, Any]]:
    playout = new_playout(preset, seed)
    rng = Rng.seeded(seed)
    snapshots = []
    for point in points:
        while playout.commands < point and step(playout, rng, check=False):
            pass
        state = playout.state
        views = {f"{p.seat + 1:02d}": readable(playout.view(p.seat)) for p in state.players}
        views["spectator"] = readable(playout.view(None))
        snapshots.append({"commands": playout.commands, "time": playout.now, "views": views})
    return snapshots


@pytest.mark.parametrize(("preset", "seed", "points"), GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_views_match_the_golden_transcript(preset, seed, points):
    """FL-INFO-1, FL-INFO-2, FL-INFO-3, FL-INFO-4, FL-INFO-5, FL-INFO-6, FL-VIS-2, FL-VIS-3,
    FL-VIS-4: every seat's view of a seeded game, byte for byte."""
    path = GOLDEN / f"{preset}-{seed}.json"
    actual = json.dumps(transcript(preset, seed, points), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if os.environ.get("DELVE_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    assert actual == expected, f"{path.name} differs; review and regenerate with DELVE_UPDATE_GOLDEN=1"


def test_no_view_contains_another_seats_hand_or_unseen_positions():
    """FL-INFO-3, FL-UI-14: checked on every view of the golden games: a seat's view names only
    its own cards, and shows only characters in sight (or Exposed)."""
    for preset, seed, points in GAMES:
        playout = new_playout(preset, seed)
        rng = Rng.seeded(seed)
        while playout.commands < points[-1] and step(playout, rng, check=False):
            state = playout.state
            for p in state.players:
                view = RULESET.view(state, p.seat)
                assert {c["id"] for c in view["you"]["hand"]} == set(p.hand)
                assert all("hand" not in other for other in view["players"])
                for c in view["characters"]:
                    if c["type"] == "player" and not c["you"] and c["in_sight"] is False:
                        assert any(s.id == "exposed" for s in state.players[c["seat"]].statuses)
