"""Views by allow-list: what every seat and a spectator see; nothing hidden leaks (deck order,
undrawn cards, quests set aside, the RNG, unrevealed passages)."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from delve.kernel import IllegalCommand, Recorder
from delve.maiden.ruleset import MaidenRuleset, _timeless
from tests.maiden.helpers import (
    T0,
    act,
    autoplay_one,
    enter_room_check,
    new_game,
    roll,
    seats,
    set_stats,
    to_move,
    waiting,
)
from tests.maiden.playout import hidden_invariant_views


def test_view_shape_per_contract() -> None:
    """The contract's keys; the recent events (``log``) are not the engine view's: whoever shows
    it fills them in from the events (``MaidenRuleset.journal``)."""
    r, g = new_game(2, start_player=0)
    recorder = Recorder(r, g)
    recorder.record(to_move(r, g, wil=1))
    assert "log" not in r.view(g, 0)
    v = recorder.view(g, 0)
    keys = (
        "game",
        "round",
        "rounds",
        "action_markers",
        "base_target",
        "danger_level",
        "phase",
        "active_seat",
        "turn_in_round",
        "turns_per_round",
        "start_player",
        "deadline",
        "map",
        "areas",
        "arcana",
        "bosses",
        "maidens",
        "decks",
        "quest_area",
        "sephirot",
        "check",
        "pending",
        "you",
        "legal",
        "ended",
        "result",
        "summary",
        "log",
    )
    for key in keys:
        assert key in v
    assert v["game"] == "maiden" and v["phase"] == "move" and v["you"] == 0
    assert v["legal"] == r.legal_commands(g, 0)
    assert r.view(g, None)["legal"] == [] and r.view(g, None)["you"] is None
    json.dumps(v)  # plain JSON


def test_decks_show_counts_only_and_rng_absent() -> None:
    r, g = new_game(3)
    v = r.view(g, None)
    assert set(v["decks"]["room"]) == {"count", "discard"}
    assert v["decks"]["quest"]["aside"] == 2 and "q_lost" not in json.dumps(v)
    text = json.dumps(v)
    assert "rng" not in text and str(g.rng.s0) not in text
    hidden_invariant_views(r, g)


def test_passages_only_when_revealed_or_usable_by_the_viewer_sug_10() -> None:
    r, g = new_game(2, start_player=0)
    to_move(r, g, wil=1)
    assert r.view(g, 0)["map"]["passages"] == [] and "hid" not in json.dumps(r.view(g, None))
    set_stats(g, 1, ins=2)
    assert [p["id"] for p in r.view(g, 1)["map"]["passages"]] == ["hid"]
    assert r.view(g, 0)["map"]["passages"] == []
    g.revealed_passages.append("hid")
    assert r.view(g, None)["map"]["passages"][0]["revealed"]


def test_check_panel_with_best_ascension_mv_asc_9() -> None:
    r, g = new_game()
    to_move(r, g, wil=1)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 3, 3, 4)
    check = r.view(g, 0)["check"]
    assert check["ap"] == 4 and check["best_ap"] == 5 and check["target"] == 1
    assert check["suggestion"] == {"pairs": [[0, 1]], "ap": 5, "success": True, "slate_damage": 0}
    assert [d["face"] for d in check["dice"]] == [3, 3, 4]


def test_keep_card_candidates_shown_to_the_table_mv_deck_5() -> None:
    r, g = new_game(2, start_player=0)
    to_move(r, g, wil=1, ins=1)
    act(r, g, "move", to="a1_1")
    pending = r.view(g, 1)["pending"][0]
    assert pending["seat"] == 0 and pending["kind"] == "keep_card" and len(pending["options"]) == 2


def test_summary_at_the_end_mv_end_3() -> None:
    r, g = new_game()
    to_move(r, g)
    g.round = 24
    g.turn_index = 2
    while not g.ended:
        autoplay_one(r, g)
    v = r.view(g, 0)
    assert v["ended"] and v["result"] == "lost" and v["summary"]["rounds"] == 24


def test_state_is_compact_json() -> None:
    r, g = new_game(4)
    to_move(r, g)
    data = r.encode(g)
    assert len(data) < 20_000
    assert msgspec.json.decode(data)["settings"]["players"] == 4
    assert r.encode(r.decode(data)) == data


def test_own_best_ap_agrees_with_the_odds_module_mv_asc_9() -> None:
    """MV-ASC-9: the engine's helper and ``odds.best_ap`` agree on seeded random pools."""
    import random

    from delve.maiden import dice, odds

    rnd = random.Random(4)
    for _ in range(300):
        size = rnd.choice((4, 6, 8, 12, 20))
        pie = rnd.randint(0, 4)
        faces = [rnd.randint(1, size) for _ in range(3 + pie)]
        slate = rnd.choice((None, "red", "blue", "black"))
        bonus = pie + 1
        if slate is None:
            mine = dice.best_ap(faces, bonus)
        else:
            index = ("red", "blue", "black").index(slate)
            mine = dice.best_ap(faces[:index] + faces[index + 1 :], bonus, faces[index])
        assert mine == odds.best_ap(faces, pie, slate)  # type: ignore[arg-type]


def test_views_built_at_once_equal_each_seats_view_over_random_positions() -> None:
    """The ``views`` hook shares the public table between the audiences' views; each must still
    equal that audience's own view, the known passages (by each maiden's Ins) included."""
    ruleset = MaidenRuleset()  # the shipped content, with its hidden passages
    for players in (1, 2, 3, 4):
        chooser = random.Random(players)
        game = ruleset.setup({"players": players, "start_player": 0}, seats(players), players, T0)
        now = T0
        for step in range(120):
            if game.ended:
                break
            if step % 4 == 0:
                for audience in ([None, *range(players)], [*reversed(range(players)), None], [0, 0]):
                    assert ruleset.views(game, audience) == [ruleset.view(game, s) for s in audience]
            now += chooser.choice((0, 1, 60))
            ruleset.advance(game, now)
            if game.ended:
                break
            seat = waiting(game)
            ruleset.apply(game, seat, chooser.choice(ruleset.legal_commands(game, seat)), now)


def test_views_refuse_an_unknown_seat() -> None:
    r, g = new_game(2)
    with pytest.raises(IllegalCommand):
        r.views(g, [None, 2])


def test_lasting_parts_equal_fresh_ones_and_are_kept_while_unchanged() -> None:
    """The ``views`` hook takes the areas, Arcana, bosses and the map's rooms, edges and passages
    from memos of lasting parts (built again only when what they show changed): over long random games they
    equal the parts ``view`` builds afresh, the same object comes back while the part is
    unchanged, and ``view`` never hands out a kept part (its callers may change what they get)."""
    ruleset = MaidenRuleset()
    kept = 0
    for players in (1, 3):
        chooser = random.Random(10 + players)
        game = ruleset.setup({"players": players, "start_player": 0}, seats(players), players, T0)
        audience = [None, *range(players)]
        before = ruleset.views(game, audience)
        now = T0
        for _ in range(300):
            now += chooser.choice((0, 1, 60))
            ruleset.advance(game, now)
            if game.ended:
                break
            seat = waiting(game)
            ruleset.apply(game, seat, chooser.choice(ruleset.legal_commands(game, seat)), now)
            views = ruleset.views(game, audience)
            fresh = [ruleset.view(game, s) for s in audience]
            assert views == fresh
            for old, new, own in zip(before, views, fresh, strict=True):
                for key in ("areas", "arcana", "bosses", "map.rooms", "map.edges", "map.passages"):
                    part, _, sub = key.partition(".")
                    was, now_, afresh = (v[part][sub] if sub else v[part] for v in (old, new, own))
                    assert afresh is not now_
                    if was == now_:
                        kept += was is now_
            before = views
    assert kept > 500


def test_legal_commands_kept_from_the_views_change_nothing_in_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``views`` hook keeps each seat's legal commands by the state without its clock, and
    ``apply`` on that state (the clock moved on) judges by them instead of listing them again:
    a game viewed after every command and its twin never viewed accept and refuse the same
    commands, with the same events, and reach the same states (a refusal restores the clock).
    A move takes its route from the routes that listing kept (the passages it reveals, its
    cost), never searching the map again. ``legal_commands`` of a viewed state finds the kept
    listing too (the server lists a seat's commands in its answer right after the views): equal
    to the twin's fresh listing, and a copy, so that a caller changing what it got (a command's
    dice included) leaves the kept listing as it was."""
    from delve.maiden import commands

    listings = []
    listing = commands.legal_commands

    def counted(*args: object, **kwargs: object) -> object:
        listings.append(1)
        return listing(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(commands, "legal_commands", counted)
    found = changed_dice = 0
    for players in (1, 3):
        viewed, twin = MaidenRuleset(), MaidenRuleset()
        chooser = random.Random(20 + players)
        a = viewed.setup({"players": players, "start_player": 0}, seats(players), players, T0)
        b = twin.setup({"players": players, "start_player": 0}, seats(players), players, T0)
        audience = [None, *range(players)]
        now = T0
        hits = moves = 0
        for _ in range(200):
            if a.ended:
                break
            viewed.views(a, audience)
            for each in range(players):
                listings.clear()
                listed = viewed.legal_commands(a, each)
                made = len(listings)
                assert listed == twin.legal_commands(b, each)
                kept = viewed._legal.find((_timeless(a), each))
                if kept is None:
                    continue
                found += 1
                assert made == 0  # found, not listed again
                assert all(mine is not theirs for mine, theirs in zip(listed, kept, strict=True))
                for command in listed:
                    if isinstance(command.get("dice"), list):
                        changed_dice += 1
                        command["dice"].append(99)
                    command["kind"] = "changed"
                assert viewed.legal_commands(a, each) == twin.legal_commands(b, each)
            now += chooser.choice((0, 1, 60))
            seat = chooser.choice([waiting(a), chooser.randrange(players)])
            legal = viewed.legal_commands(a, seat)
            stale = {"kind": "move", "to": "nowhere"}
            command = chooser.choice(legal) if legal and chooser.random() < 0.8 else stale
            hits += viewed._legal.find((_timeless(a), seat)) is not None
            moves += command["kind"] == "move" and viewed._routes.find(_timeless(a)) is not None
            outcomes = []
            for ruleset, game in ((viewed, a), (twin, b)):
                try:
                    outcomes.append(("ok", [(e.kind, e.data) for e in ruleset.apply(game, seat, command, now)]))
                except IllegalCommand as exc:
                    outcomes.append(("refused", exc.code))
            assert outcomes[0] == outcomes[1]
            assert viewed.encode(a) == twin.encode(b)
        assert hits > 50
        assert moves > 15
    assert found > 100
    assert changed_dice > 0


def test_views_keep_no_listing_of_a_state_listed_quickly() -> None:
    """A state whose legal commands are at most a decision's options (``listed_quickly``) is
    viewed without the snapshot that keys the kept listings: nothing is kept for it, its views
    are those of ``view``, and its listing is indeed a decision's options or nothing; a state
    with a window open keeps its listing for the next command."""
    from delve.maiden import commands, decisions

    for players in (1, 2):
        ruleset = MaidenRuleset()
        chooser = random.Random(40 + players)
        game = ruleset.setup({"players": players, "start_player": 0}, seats(players), players, T0)
        audience = [None, *range(players)]
        quick = kept = 0
        for _ in range(150):
            if game.ended:
                break
            ruleset._legal.clear()
            views = ruleset.views(game, audience)
            assert views == [ruleset.view(game, seat) for seat in audience]
            listed = [ruleset.legal_commands(game, seat) for seat in range(players)]
            if commands.listed_quickly(game):
                quick += 1
                assert len(ruleset._legal) == 0
                head = game.pending[0] if game.pending else None
                for seat, legal in enumerate(listed):
                    mine = head is not None and head.seat in (None, seat)
                    assert legal == (decisions.commands(head) if head is not None and mine else [])
            else:
                kept += 1
                assert [ruleset._legal.find((_timeless(game), seat)) for seat in range(players)] == listed
            seat = waiting(game)
            ruleset.apply(game, seat, chooser.choice(ruleset.legal_commands(game, seat)), game.clock)
        assert quick > 10
        assert kept > 10


def test_a_boss_entry_is_built_again_when_its_boss_changes_and_kept_while_it_does_not() -> None:
    """The ``views`` hook keeps each boss's entry by that boss's state: when one boss's life
    moves, the bosses' part is built again with that boss's new entry (equal to a fresh view's)
    and the other bosses' entries kept as they were."""
    r, g = new_game(1)
    first, other = list(g.bosses)[:2]
    before = r.views(g, [None, 0])[0]["bosses"]
    g.bosses[first].engaged = True
    g.bosses[first].life = g.bosses[first].life_max = 5
    after = r.views(g, [None, 0])[0]["bosses"]
    assert after == r.view(g, None)["bosses"] != before
    index = {entry["id"]: i for i, entry in enumerate(after)}
    assert after[index[first]]["life_left"] == 5
    assert after[index[other]] is before[index[other]]
    g.bosses[first].life = 4
    again = r.views(g, [None, 0])[0]["bosses"]
    assert again[index[first]]["life_left"] == 4
    assert again == r.view(g, None)["bosses"]
    assert again[index[other]] is before[index[other]]


def test_the_rooms_part_is_built_again_exactly_when_what_the_rooms_show_changes_mv_boss_9() -> None:
    """The map's rooms are kept by what they are built from: the explored rooms, where each
    maiden stands, the rooms whose type an effect changed, which bosses are defeated (a defeated
    boss's room plays as a normal room, MV-BOSS-9) and the settings. A boss losing life keeps
    them; each of the others builds them again, equal to a fresh view's."""
    r, g = new_game(1)

    def rooms() -> list[dict[str, object]]:
        found: list[dict[str, object]] = r.views(g, [None, 0])[0]["map"]["rooms"]
        assert found == r.view(g, None)["map"]["rooms"]
        return found

    def room(rooms: list[dict[str, object]], room_id: str) -> dict[str, object]:
        return next(entry for entry in rooms if entry["id"] == room_id)

    before = rooms()
    g.bosses["imp"].engaged = True
    g.bosses["imp"].life = 3
    assert rooms() is before
    g.bosses["imp"].defeated = True
    defeated = rooms()
    assert room(before, "b_imp")["type"] == "boss" and room(defeated, "b_imp")["type"] == "normal"
    g.room_types["a2_2"] = "rest"
    changed = rooms()
    assert room(defeated, "a2_2")["type"] == "danger" and room(changed, "a2_2")["type"] == "rest"
    g.explored.append("a2_2")
    explored = rooms()
    assert not room(changed, "a2_2")["explored"] and room(explored, "a2_2")["explored"]
    g.maidens[0].room = "a2_2"
    moved = rooms()
    assert room(explored, "a2_2")["maidens"] == [] and room(moved, "a2_2")["maidens"] == [0]
    # built again from the rooms before: only the two rooms the move changed are new entries
    assert {new["id"] for old, new in zip(explored, moved, strict=True) if old is not new} == {"s", "a2_2"}
    g.settings = msgspec.structs.replace(g.settings, entry_restrictions=not g.settings.entry_restrictions)
    assert rooms() is not moved


def test_rooms_built_again_from_another_games_rooms_equal_fresh_ones() -> None:
    """The rooms are built again from the rooms last built for the same content, whichever game
    they were built for: views of games played side by side (other seats, other settings)
    still equal fresh views."""
    games = [new_game(players, seed=players)[1] for players in (1, 3)]
    games.append(new_game(2, seed=5, entry_restrictions=True, difficulty="normal")[1])
    ruleset = MaidenRuleset(content=new_game(1)[0].content)
    chooser = random.Random(7)
    now = T0
    for _ in range(150):
        for game in games:
            if game.ended:
                continue
            audience = [None, *range(len(game.maidens))]
            assert ruleset.views(game, audience) == [ruleset.view(game, s) for s in audience]
            now += chooser.choice((0, 1))
            ruleset.advance(game, now)
            if not game.ended:
                seat = waiting(game)
                ruleset.apply(game, seat, chooser.choice(ruleset.legal_commands(game, seat)), now)


def test_the_suggestions_variant_is_the_games_ascension_bonus_mv_asc_9() -> None:
    """The best-ascension suggestion's odds variant is built once per ascension bonus rule
    (CHG-11), and is the variant of that rule."""
    from delve.maiden import odds
    from delve.maiden.view import _variant

    assert _variant("pie") is _variant("pie") == odds.Variant(ascension_bonus="pie")
    assert _variant("one_plus_pie") == odds.Variant() != _variant("pie")
