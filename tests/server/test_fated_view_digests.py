"""Fated Labyrinth's view digests (``engine.view_digests`` over the ruleset's ``views`` hook, whose
read-only views share parts between audiences and hand out lasting parts kept from earlier
calls) are the first 16 hex digits of the SHA-256 of each whole view's canonical JSON, as
``ruleset.view`` builds it, for every audience after every step of random games of both presets:
while the views a caller gets are changed, while the lasting memo forgets parts (a small memo),
and against a state decoded afresh (nothing kept beside it)."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import pytest

from delve.fated import view
from delve.kernel import Rng
from delve.kernel.lasting import Lasting
from delve.server.games.engine import view_digests
from tests.fated.playout import RULESET, new_playout, step

canonical = msgspec.json.Encoder(order="sorted")

#: (preset, seed, lasting memo size): games played to their end or to ``COMMANDS``.
GAMES = [("fated-labyrinth", 11, 2048), ("fated-labyrinth", 12, 3), ("level-d", 13, 2048), ("level-d", 14, 5)]
COMMANDS = 500


def whole_digest(value: Any) -> str:
    return hashlib.sha256(canonical.encode(value)).hexdigest()[:16]


@pytest.mark.parametrize(("preset", "seed", "size"), GAMES, ids=[f"{p}-{s}-memo{m}" for p, s, m in GAMES])
def test_digests_are_those_of_the_whole_views_after_every_command(
    preset: str, seed: int, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(view, "_LASTING", Lasting(size))
    playout = new_playout(preset, seed)
    state = playout.state
    seats: list[int | None] = [None, *range(len(state.players))]
    rng = Rng.seeded(seed)
    going = True
    checked = 0
    while going and playout.commands < COMMANDS:
        going = step(playout, rng, check=False)
        digests = view_digests(RULESET, state, seats)
        assert digests == [whole_digest(RULESET.view(state, seat)) for seat in seats], playout.commands
        if playout.commands % 7 == 0:
            # what a page does to the views it is handed changes no later digest
            for seat in seats:
                shown = RULESET.view(state, seat)
                shown["events"] = []
                shown["game"]["ended"] = "changed"
                shown["players"].clear()
                shown["map"]["doors"]["0,0"] = -1
            assert view_digests(RULESET, state, seats) == digests
            # nothing kept beside the state: a state decoded afresh has the same digests
            fresh = RULESET.decode(RULESET.encode(state))
            assert view_digests(RULESET, fresh, seats) == digests
        checked += 1
    assert checked > 100
