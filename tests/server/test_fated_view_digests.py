"""Fated Labyrinth's view digests (``engine.view_digests`` over the ruleset's ``views`` hook, whose
read-only views share parts between audiences and hand out lasting parts kept from earlier
calls) follow their definition for a ruleset that names ``digest_parts`` (``~`` and 15 hex
digits of the SHA-256 of the view's canonical JSON with each named part replaced by its own
SHA-256) on each view as ``ruleset.view`` builds it, for every audience after every step of
random games of both presets: while the views a caller gets are changed, while the lasting memo
forgets parts (a small memo), and against a state decoded afresh (nothing kept beside it)."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import pytest

from delve.fated import view
from delve.kernel import Rng
from delve.kernel.lasting import Lasting
from delve.server.games.engine import _observe, view_digests
from delve.server.games.models import Game
from tests.fated.playout import RULESET, new_playout, step
from tests.server.test_view_digests import expected_digest

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
        assert digests == [expected_digest(RULESET, RULESET.view(state, seat)) for seat in seats], playout.commands
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


def test_whole_view_digests_stored_before_the_parts_were_named_move_no_counter_by_themselves() -> None:
    """A game whose counters were stored with whole-view digests (before Fated Labyrinth named
    its ``digest_parts``): the next change compares each audience's whole-view digest with the
    stored one, so an unchanged view keeps its counter and a changed one moves it, and the new
    digests are stored."""
    playout = new_playout("fated-labyrinth", 21)
    state = playout.state
    rng = Rng.seeded(21)
    for _ in range(30):
        step(playout, rng, check=False)
    seats: list[int | None] = [None, *range(len(state.players))]
    whole = [whole_digest(RULESET.view(state, seat)) for seat in seats]
    game = Game(ruleset="fated", seat_count=len(state.players), version=9)
    game.observed = {"*": [7, whole[0]], "0": [8, "0123456789abcdef"], "1": [6, whole[2]]}
    game.observed.update({str(seat): [5, whole[seat + 1]] for seat in range(2, len(state.players))})
    _observe(game, RULESET, state, [])
    digests = view_digests(RULESET, state, seats)
    assert game.observed == {
        "*": [7, digests[0]],
        "0": [9, digests[1]],
        "1": [6, digests[2]],
        **{str(seat): [5, digests[seat + 1]] for seat in range(2, len(state.players))},
    }
    assert all(entry[1].startswith("~") for entry in game.observed.values())
    _observe(game, RULESET, state, [], actor=1)  # the new digests compare as they are
    assert [game.observed[key][0] for key in ("*", "0", "1")] == [7, 9, 7]
