"""The per-audience view digests behind the change counters (``engine.view_digests``): the first
16 hex digits of the SHA-256 of each view's canonical JSON, whether the ruleset builds its views
one by one or several at once with shared parts (``views``, ``delve.kernel.views_of``)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec

from delve.kernel import Ruleset, SeatInfo, get_ruleset, views_of
from delve.kernel.lasting import Lasting
from delve.server.games.engine import _observe, view_digests
from delve.server.games.models import Game
from tests.kernel.toy import ToyRuleset, ToyState

T0 = 1_700_000_000
canonical = msgspec.json.Encoder(order="sorted")


def whole_digest(view: Any) -> str:
    """The digest as stored by every earlier version: the whole view encoded, then hashed."""
    return hashlib.sha256(canonical.encode(view)).hexdigest()[:16]


def expected_digest(ruleset: Any, view: dict[str, Any]) -> str:
    """The digest by its definition: the whole view's, or for a ruleset that names
    ``digest_parts``, ``~`` and 15 hex digits of the view with each named part it has (a
    spectator's Fated Labyrinth view has no ``you``) replaced by the string ``"#"`` + the SHA-256
    of its canonical JSON."""
    parts = getattr(ruleset, "digest_parts", ())
    if not parts:
        return whole_digest(view)
    form = json.loads(canonical.encode(view))  # a deep copy
    for part in parts:
        top, _, sub = part.partition(".")
        holder, key = (form.get(top, {}), sub) if sub else (form, top)
        if key not in holder:
            continue
        holder[key] = "#" + hashlib.sha256(canonical.encode(holder[key])).hexdigest()
    return "~" + hashlib.sha256(canonical.encode(form)).hexdigest()[:15]


class SharingToy(ToyRuleset):
    """Views built at once: the public parts are the same objects in every view, the seat's own
    part differs."""

    name = "sharing-toy"

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "z": {"rules": ["roll", "wait"], "seats": len(state.seats)}}

    def views(self, state: ToyState, seats: list[int | None]) -> list[dict[str, Any]]:
        public = self.view(state, None)
        out = []
        for seat in seats:
            view = dict(public)
            view["stored"] = state.seats[seat].stored if seat is not None else None
            out.append(view)
        return out


def random_play(
    ruleset: Ruleset[Any], state: Any, seat_count: int, rng: random.Random, steps: int, gaps: tuple[int, ...] = (7,)
) -> Iterator[dict[str, Any]]:
    """Up to ``steps`` random legal commands (a seeded choice among every seat's, the clock moved
    on by one of ``gaps`` seconds before each), each yielded once applied to ``state``."""
    now = T0
    for _ in range(steps):
        now += rng.choice(gaps) if len(gaps) > 1 else gaps[0]
        ruleset.advance(state, now)
        choices = [
            (seat, command)
            for seat in range(seat_count)
            for command in ruleset.legal_commands(state, seat)
            if command["kind"] not in {"give_up", "comment"}
        ]
        if not choices or ruleset.outcome(state).ended:
            return
        seat, command = rng.choice(choices)
        ruleset.apply(state, seat, command, now)
        yield command


def played(ruleset: Ruleset[Any], settings: dict[str, Any], seats: list[SeatInfo], steps: int, seed: int) -> Any:
    """A position after ``steps`` random legal commands (a seeded choice among every seat's)."""
    state = ruleset.setup(settings, seats, seed, T0)
    for _ in random_play(ruleset, state, len(seats), random.Random(seed), steps):
        pass
    return state


def audiences(count: int) -> list[int | None]:
    return [None, *range(count)]


def test_the_digests_are_those_of_each_whole_view_for_views_built_one_by_one() -> None:
    ruleset = ToyRuleset()
    state = played(ruleset, {}, [SeatInfo("a"), SeatInfo("b")], 12, seed=3)
    seats = audiences(2)
    assert view_digests(ruleset, state, seats) == [whole_digest(ruleset.view(state, s)) for s in seats]


def test_shared_parts_give_the_same_digests_as_the_whole_views() -> None:
    ruleset = SharingToy()
    for seed in range(5):
        state = played(ruleset, {}, [SeatInfo("a"), SeatInfo("b"), SeatInfo("c")], 10 + seed, seed=seed)
        seats = audiences(3)
        views = views_of(ruleset, state, seats)
        assert views == [ruleset.view(state, s) for s in seats]
        assert views[0]["z"] is views[1]["z"]  # shared, so encoded once
        assert view_digests(ruleset, state, seats) == [whole_digest(ruleset.view(state, s)) for s in seats]
        # seats whose views are equal have equal digests, a differing seat a differing one
        digests = view_digests(ruleset, state, seats)
        for a, view_a in zip(digests, views, strict=True):
            for b, view_b in zip(digests, views, strict=True):
                assert (a == b) == (view_a == view_b)


class WholeLastingToy(ToyRuleset):
    """Views handed out again whole while what they show is unchanged (lasting parts)."""

    name = "whole-lasting-toy"

    def __init__(self, parts: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.memo: Lasting[dict[str, Any]] = Lasting(8)
        if parts:
            self.digest_parts = parts

    def views(self, state: ToyState, seats: list[int | None]) -> list[dict[str, Any]]:
        out = []
        for seat in seats:
            view = {**self.view(state, seat), "z": {"seats": len(state.seats)}}
            out.append(self.memo.get(canonical.encode([seat, view]), lambda view=view: view))
        return out


def test_a_view_handed_out_again_whole_keeps_its_digest_computed_once() -> None:
    """A whole view that is a lasting part gives the digest of its definition (in both digest
    forms), computed once while it is held: a probe that changes a held view in place (which no
    ruleset may do) still gets the digest of the view as it was."""
    for parts in ((), ("z",)):
        ruleset = WholeLastingToy(parts)
        state = played(ruleset, {}, [SeatInfo("a"), SeatInfo("b")], 9, seed=4)
        seats = audiences(2)
        views = views_of(ruleset, state, seats)
        expected = [expected_digest(ruleset, view) for view in views]
        assert view_digests(ruleset, state, seats) == expected
        views[1]["probe"] = True  # the held view, changed behind the memo's back
        assert views_of(ruleset, state, seats)[1] is views[1]
        assert view_digests(ruleset, state, seats) == expected
        assert expected_digest(ruleset, views[1]) != expected[1]
        ruleset.memo.clear()  # no longer held: its digest is computed from it again
        assert view_digests(ruleset, state, seats) == [
            expected_digest(ruleset, v) for v in views_of(ruleset, state, seats)
        ]


def test_fated_and_maiden_digests_follow_their_definition() -> None:
    """Both name their large parts in ``digest_parts``: Fated Labyrinth its game's standing, map,
    characters, players and ``you``; White Maiden its areas, Arcana, bosses and the map's rooms,
    edges and passages."""
    classes = ["explorer", "warrior", "priest", "thief"]
    games: list[tuple[str, dict[str, Any], list[SeatInfo]]] = [
        (
            "fated",
            {"preset": "fated-labyrinth", "players": 4, "maze_size": 13},
            [SeatInfo(f"P{i}", {"class": classes[i]}) for i in range(4)],
        ),
        ("maiden", {"preset": "white-maiden", "players": 2, "start_player": 0}, [SeatInfo("A"), SeatInfo("B")]),
    ]
    for name, settings, seats in games:
        ruleset = get_ruleset(name)
        for seed, steps in [(1, 0), (2, 15), (3, 40)]:
            state = played(ruleset, settings, seats, steps, seed=seed)
            who = audiences(len(seats))
            expected = [expected_digest(ruleset, ruleset.view(state, s)) for s in who]
            assert view_digests(ruleset, state, who) == expected, name


def test_an_empty_view_and_no_audience() -> None:
    class Empty(ToyRuleset):
        def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
            return {}

    ruleset = Empty()
    state = ruleset.setup({}, [SeatInfo("a")], 1, T0)
    assert view_digests(ruleset, state, [None, 0]) == [whole_digest({})] * 2
    assert view_digests(ruleset, state, []) == []


def digests_follow_views(
    ruleset: Ruleset[Any], settings: dict[str, Any], seats: list[SeatInfo], seed: int, steps: int
) -> int:
    """Play a random game and check after every command, for every audience, that the digest is
    that of the whole view and that it moved exactly when the view changed; the number of times
    an audience's view stayed the same (so the check is not vacuous)."""
    rng = random.Random(seed)
    state = ruleset.setup(settings, seats, seed, T0)
    who = audiences(len(seats))
    before_views = [ruleset.view(state, s) for s in who]
    before = view_digests(ruleset, state, who)
    unchanged = 0
    for command in random_play(ruleset, state, len(seats), rng, steps, (1, 7, 60)):
        views = [ruleset.view(state, s) for s in who]
        digests = view_digests(ruleset, state, who)
        assert digests == [expected_digest(ruleset, view) for view in views]
        for audience, old, new, old_view, new_view in zip(who, before, digests, before_views, views, strict=True):
            assert (old == new) == (old_view == new_view), (audience, command)
            unchanged += old_view == new_view
        before, before_views = digests, views
    return unchanged


def test_each_audience_digest_moves_exactly_when_its_view_changes() -> None:
    """FL-UI-5 / change counters: over random White Maiden and Fated Labyrinth games, each
    audience's digest changes iff its whole view changed (White Maiden's lasting parts, the areas,
    bosses and map parts kept from earlier views, included)."""
    classes = ["explorer", "warrior", "priest", "thief"]
    unchanged = 0
    for seed in range(3):
        unchanged += digests_follow_views(
            get_ruleset("maiden"),
            {"preset": "white-maiden", "players": 1 + seed, "start_player": 0},
            [SeatInfo(f"M{i}") for i in range(1 + seed)],
            seed,
            300,  # long enough for maidens to come back to rooms after exploring others
        )
        unchanged += digests_follow_views(
            get_ruleset("fated"),
            {"preset": "fated-labyrinth", "players": 4, "maze_size": 13, "wait_time": 10},
            [SeatInfo(f"P{i}", {"class": classes[i]}) for i in range(4)],
            seed,
            120,
        )
    assert unchanged > 0


def test_a_changed_view_does_not_change_later_views_or_digests() -> None:
    """White Maiden hands its lasting parts out only to the read-only ``views`` hook: a page that
    changes the view it got from ``view`` (as pages add keys) changes nothing kept."""
    ruleset = get_ruleset("maiden")
    state = played(
        ruleset, {"preset": "white-maiden", "players": 2, "start_player": 0}, [SeatInfo("A"), SeatInfo("B")], 20, 5
    )
    who = audiences(2)
    digests = view_digests(ruleset, state, who)
    lasting = views_of(ruleset, state, who)
    for seat in who:
        view = ruleset.view(state, seat)
        for key in ("areas", "arcana", "bosses"):
            assert view[key] is not lasting[0][key]
        for key in ("rooms", "edges", "passages"):
            assert view["map"][key] is not lasting[0]["map"][key]
        view["map"]["rooms"].clear()
        view["map"]["extra"] = True
        view["areas"][0]["name"]["en"] = "changed"
        view["bosses"].clear()
    assert view_digests(ruleset, state, who) == digests
    assert views_of(ruleset, state, who) == [ruleset.view(state, s) for s in who]


def test_digests_stored_before_the_parts_were_named_move_no_counter_by_themselves() -> None:
    """A game whose counters were stored with whole-view digests (before White Maiden named its
    ``digest_parts``): the next change compares each audience's whole-view digest with the stored
    one, so an unchanged view keeps its counter and a changed one moves it, and the new digests
    are stored."""
    ruleset = get_ruleset("maiden")
    state = played(
        ruleset, {"preset": "white-maiden", "players": 2, "start_player": 0}, [SeatInfo("A"), SeatInfo("B")], 15, 4
    )
    who = audiences(2)
    whole = [whole_digest(ruleset.view(state, s)) for s in who]
    game = Game(ruleset="maiden", seat_count=2, version=9)
    game.observed = {"*": [7, whole[0]], "0": [8, "0123456789abcdef"], "1": [6, whole[2]]}
    _observe(game, ruleset, state, [])
    assert game.observed == {
        "*": [7, view_digests(ruleset, state, who)[0]],
        "0": [9, view_digests(ruleset, state, who)[1]],
        "1": [6, view_digests(ruleset, state, who)[2]],
    }
    assert all(entry[1].startswith("~") for entry in game.observed.values())
    _observe(game, ruleset, state, [], actor=1)  # the new digests compare as they are
    assert [game.observed[k][0] for k in ("*", "0", "1")] == [7, 9, 7]
