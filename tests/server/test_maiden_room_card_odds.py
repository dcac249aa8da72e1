"""The odds of each room card a draw offers (MV-CHECK-2) count the rules in force in the drawing
maiden's room as the engine gives them in the view (``pending[0].room_check``: the mods, the
danger level with ``dl_delta``, the failure damage they add; MV-EXPL-8, MV-CHECK-10), over
seeded positions in every area with a mod, a freed area, a raised danger level, The Lovers with
and without a partner in the area, and a partner in a fight against Geburah's Iron Verdict (a
boss action that adds failure damage to its own check only)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from delve.maiden import board, bosses, checks
from delve.maiden import view as maiden_view
from delve.maiden.content import load
from delve.maiden.ruleset import MaidenRuleset
from delve.maiden.state import Game
from delve.server.play import maiden_odds
from tests.maiden.helpers import T0, autoplay_one, ctx, seats, set_stats

SEEDS = (3, 11, 29)


def _room_draw(game: Game) -> bool:
    head = game.pending[0] if game.pending else None
    return head is not None and head.kind == "keep_card" and head.data.get("deck") == "room"


def room_draw_game(ruleset: MaidenRuleset, seed: int, **settings: Any) -> Game:
    """A two-maiden game of the shipped content at its first room card draw with a choice."""
    game = ruleset.setup({"players": 2, "start_player": 0, **settings}, seats(2), seed, T0)
    for _ in range(600):
        if _room_draw(game):
            return game
        autoplay_one(ruleset, game)
    raise AssertionError(f"seed {seed} never offers a choice of room cards")


def _positions(ruleset: MaidenRuleset, game: Game) -> Iterator[tuple[str, Game]]:
    """The drawing maiden moved into a room of every area with a mod, and the positions named in
    the module's docstring; each a copy of ``game``."""
    data = ruleset.content
    drawer = game.pending[0].seat
    other = 1 - drawer

    def placed(room: str, **edit: Any) -> Game:
        g = copy.deepcopy(game)
        g.maidens[drawer].room = room
        set_stats(g, drawer, pie=1, wil=2, agi=1, ins=0)
        if "partner" in edit:
            g.maidens[other].room = edit["partner"]
        g.danger_level = edit.get("danger_level", g.danger_level)
        g.freed = list(edit.get("freed", g.freed))
        return g

    yield "as drawn", copy.deepcopy(game)
    for area in data.areas.values():
        if area.mods.active():
            room = next(r.id for r in data.rooms.values() if r.area == area.id)
            yield f"in {area.id}", placed(room, partner=data.start)
    yield "Strength, danger level 4", placed("a09_1", partner=data.start, danger_level=4)
    yield "Strength freed", placed("a09_1", partner=data.start, freed=["a09"])
    yield "the Lovers, a partner in the area", placed("a07_1", partner="a07_3")
    yield "the Lovers, alone", placed("a07_1", partner="a09_2", danger_level=3)
    yield "a dl_delta area, danger level 5", placed("a17_1", partner=data.start, danger_level=5)
    fight = placed("a09_1", partner="geburah", danger_level=3)
    partner = fight.maidens[other]
    bosses.engage(ctx(ruleset, fight), partner, "geburah")
    fight.bosses["geburah"].pointer = 0  # the Iron Verdict: failure damage +1 on its check
    assert data.bosses["geburah"].actions[0].mods.failure_damage_delta == 1
    yield "Strength, a partner fighting Geburah", fight
    quest = placed("a14_1", partner=data.start, danger_level=2)
    quest.quest_area.append("q_pilgrims_vigil")  # an ongoing quest's mods (MV-QUEST-3)
    yield "Death, a quest with mods", quest


def test_the_room_check_is_the_engines_own_count_of_the_rules_in_force_MV_EXPL_8() -> None:
    """``room_check`` is what ``board.mods_in_force``, the danger level with ``dl_delta`` and
    ``checks.failure_delta`` give in her room, and what the check panel shows once she keeps a
    card (the same danger level and failure damage, MV-CHECK-10)."""
    ruleset = MaidenRuleset(content=load())
    deltas: set[int] = set()
    for seed in SEEDS:
        for name, position in _positions(ruleset, room_draw_game(ruleset, seed)):
            seat = position.pending[0].seat
            room_check = ruleset.view(position, seat)["pending"][0]["room_check"]
            c, maiden = ctx(ruleset, position), position.maidens[seat]
            assert room_check == {
                "mods": board.mods_in_force(c, maiden.room, maiden_view.ROOM_CHECK_MODS),
                "danger_level": position.danger_level + board.mod_sum(c, maiden.room, "dl_delta"),
                "failure_damage_delta": checks.failure_delta(c, maiden, maiden.room),
            }, (seed, name)
            deltas.add(room_check["failure_damage_delta"])
            kept = copy.deepcopy(position)
            ruleset.apply(kept, seat, {"kind": "keep_card", "card": 0}, kept.clock)
            check = ruleset.view(kept, seat)["check"]
            assert check["kind"] == "room", (seed, name)
            assert check["danger_level"] == room_check["danger_level"], (seed, name)
            assert check["failure_damage_delta"] == room_check["failure_damage_delta"], (seed, name)
    assert deltas == {0, 1}  # the Lovers with a partner, and a failure damage added


def test_each_room_cards_odds_are_the_odds_of_its_check_once_kept_MV_CHECK_2() -> None:
    """The odds a card shows when offered equal the odds the check panel shows once that card is
    kept (``pre_roll`` of the check the engine started), in every position, under both ascension
    bonus rules (MV-ASC-1, CHG-11)."""
    compared = 0
    for ascension_bonus in ("one_plus_pie", "pie"):
        ruleset = MaidenRuleset(content=load())
        for seed in SEEDS:
            game = room_draw_game(ruleset, seed, ascension_bonus=ascension_bonus)
            settings = ruleset.validate_settings({"players": 2, "ascension_bonus": ascension_bonus})
            for name, position in _positions(ruleset, game):
                seat = position.pending[0].seat
                public = ruleset.view(position, seat)
                room_check = public["pending"][0]["room_check"]
                for index, card_id in enumerate(public["pending"][0]["options"]):
                    card = ruleset.content.room_cards[card_id]
                    offered = maiden_odds.room_card_odds(public, settings, card, seat, room_check)
                    kept = copy.deepcopy(position)
                    ruleset.apply(kept, seat, {"kind": "keep_card", "card": index}, kept.clock)
                    started = ruleset.view(kept, seat)
                    assert started["check"]["source"] == card_id and not started["check"]["rolled"]
                    assert offered is not None
                    assert offered == maiden_odds.pre_roll(started, settings), (seed, name, card_id)
                    compared += 1
    assert compared > 100
