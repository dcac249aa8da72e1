"""Helpers for the White Maiden rule tests: a game on the fixture content, driving it to a
step, forcing dice, and the invariants checked after every command of the playouts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from delve.kernel import Event, SeatInfo
from delve.maiden import autopilot
from delve.maiden.ctx import Ctx
from delve.maiden.ruleset import MaidenRuleset
from delve.maiden.state import Game
from tests.maiden.fixtures.content import CONTENT

T0 = 1_700_000_000
NAMES = ("Alba", "Bianca", "Candida", "Dalia")


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(NAMES[i]) for i in range(n)]


def new_game(players: int = 1, *, seed: int = 1, content: Any = CONTENT, **settings: Any) -> tuple[MaidenRuleset, Game]:
    ruleset = MaidenRuleset(content=content)
    settings.setdefault("start_player", 0)
    game = ruleset.setup({"players": players, **settings}, seats(players), seed, T0)
    return ruleset, game


def ctx(ruleset: MaidenRuleset, game: Game) -> Ctx:
    return Ctx(game, game.clock, ruleset.content)


def waiting(game: Game) -> int:
    if game.pending:
        return game.pending[0].seat if game.pending[0].seat is not None else 0
    seat = game.active_seat
    assert seat is not None
    return seat


def autoplay_one(ruleset: MaidenRuleset, game: Game, events: list[Event] | None = None) -> dict[str, Any]:
    """One command of the autopilot for the waiting seat; its events go to ``events`` if given."""
    seat = waiting(game)
    command = autopilot.choose(ctx(ruleset, game), seat)
    assert command is not None
    applied = ruleset.apply(game, seat, command, game.clock)
    if events is not None:
        events += applied
    return command


def play_until(ruleset: MaidenRuleset, game: Game, predicate: Any, limit: int = 2000) -> list[Event]:
    """Let the autopilot play until ``predicate(game)`` holds; the events of its commands."""
    events: list[Event] = []
    for _ in range(limit):
        if predicate(game):
            return events
        autoplay_one(ruleset, game, events)
    raise AssertionError("predicate never held")


def finish_setup(ruleset: MaidenRuleset, game: Game) -> list[Event]:
    """The setup played out by the autopilot; the events of its commands (those of ``setup``
    itself, which it does not return, are ``journal.started``)."""
    return play_until(ruleset, game, lambda g: g.step != "setup")


def set_dice(game: Game, *faces: int) -> None:
    """Force the faces of the rolled dice (in pool order: red, blue, black, white...)."""
    assert game.check is not None and game.check.rolled
    assert len(faces) == len(game.check.dice), f"pool has {len(game.check.dice)} dice"
    for die, face in zip(game.check.dice, faces, strict=True):
        die.face = face


def cards_conserved(ruleset: MaidenRuleset, game: Game) -> None:
    """Every action, skill, room and quest card is in exactly one place."""
    content = ruleset.content
    decks = game.decks
    pending_cards = Counter[str]()
    for d in game.pending:
        if d.kind == "keep_card":
            pending_cards[d.data["deck"]] += len(d.options)
        if d.kind == "place_card":
            pending_cards["action"] += 1
    actions = (
        len(decks.action) + len(decks.action_discard) + sum(len(s) for m in game.maidens for s in m.stats.values())
    )
    assert actions + pending_cards["action"] == sum(content.action_counts.values())
    deck_skills = Counter(s.id for s in content.skills.values() if s.deck for _ in range(s.copies))
    owned = Counter(s.id for m in game.maidens for s in m.skills if content.skills[s.id].deck)
    total = len(decks.skill) + len(decks.skill_discard) + sum(owned.values()) + pending_cards["skill"]
    assert total == sum(deck_skills.values())
    rooms = sum(c.copies for c in content.room_cards.values())
    in_check = 1 if game.check is not None and game.check.kind == "room" and not game.check.discarded else 0
    assert len(decks.room) + len(decks.room_discard) + in_check + pending_cards["room"] == rooms
    quests = len(content.quests)
    assert (
        len(decks.quest)
        + len(decks.quest_discard)
        + len(decks.quests_aside)
        + len(game.quest_area)
        + pending_cards["quest"]
        == quests
    )


def to_move(ruleset: MaidenRuleset, game: Game, **stats: int) -> list[Event]:
    """Finish setup and reach the first move window; given ``stats`` (pie=2, ...), every
    maiden gets exactly those levels, 0 for the stats not named (cards moved between the action
    deck and her stacks, so the counts stay right). The events of the setup's commands."""
    events = finish_setup(ruleset, game)
    assert game.step == "move"
    if stats:
        levels = {"pie": 0, "wil": 0, "agi": 0, "ins": 0, **stats}
        for maiden in game.maidens:
            set_stats(game, maiden.seat, **levels)
    return events


def set_stats(game: Game, seat: int, **levels: int) -> None:
    """Give a maiden exactly these stat levels (cards moved between the deck and her stacks)."""
    maiden = game.maidens[seat]
    for stat in ("pie", "wil", "agi", "ins"):
        want = levels.get(stat, len(maiden.stats[stat]))
        stack = maiden.stats[stat]
        while len(stack) > want:
            game.decks.action.append(stack.pop())
        while len(stack) < want:
            stack.append(game.decks.action.pop())


def enter_room_check(ruleset: MaidenRuleset, game: Game, card: str, room: str = "a1_1") -> list[Event]:
    """From the move window: put ``card`` on top of the room deck and move into ``room``; the
    events of the move (and of keeping the card)."""
    game.decks.room.remove(card) if card in game.decks.room else game.decks.room_discard.remove(card)
    game.decks.room.append(card)
    seat = game.active_seat
    assert seat is not None
    events = ruleset.apply(game, seat, {"kind": "move", "to": room}, game.clock)
    if game.pending and game.pending[0].kind == "keep_card" and game.pending[0].data["deck"] == "room":
        index = game.pending[0].options.index(card)
        events += ruleset.apply(game, seat, {"kind": "keep_card", "card": index}, game.clock)
    assert game.step == "pre_roll", game.step
    return events


def roll(ruleset: MaidenRuleset, game: Game, *faces: int) -> None:
    seat = game.active_seat
    assert seat is not None
    ruleset.apply(game, seat, {"kind": "roll"}, game.clock)
    if faces:
        set_dice(game, *faces)


def act(ruleset: MaidenRuleset, game: Game, kind: str, **params: Any) -> list[Any]:
    seat = waiting(game)
    return ruleset.apply(game, seat, {"kind": kind, **params}, game.clock)


def result_of(events: list[Any]) -> str:
    """The result of the check resolved in these events."""
    return str(next(e.data["result"] for e in events if e.kind == "check.resolved"))
