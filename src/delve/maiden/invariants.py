"""What must hold of a White Maiden state after every command and every clock advance: used by the
fuzzer (``delve fuzz --game maiden``).

Each check returns the violations it finds as sentences (empty: all well), so a caller can count
them or fail on the first. The random playout tests (``tests/maiden/playout.py``) assert the same
facts one by one.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from delve.maiden import commands, dice
from delve.maiden.ctx import Ctx
from delve.maiden.state import DIE_SIZES, ROUNDS, Game


def waiting_seat(game: Game) -> int | None:
    """The seat that must act now (any seat answers a decision open to all: seat 0 here)."""
    if game.pending:
        head = game.pending[0].seat
        return 0 if head is None else head
    return game.active_seat


def violations(game: Game, content: Any, previous_clock: int, explored_before: list[str] | None = None) -> list[str]:
    """Life within bounds (0 only in her damage window), maidens in real rooms, bosses
    consistent, dice as the rules allow (MV-ASC-6), every card in exactly one place (MV-DECK-1),
    exploration never undone, a monotonic clock, and someone always able to act while the game
    runs."""
    found: list[str] = []
    dying = {d.seat for d in game.pending[:1] if d.data.get("for") == "death"}
    for m in game.maidens:
        if not (0 < m.life <= m.life_max or (m.life == 0 and m.seat in dying)):
            found.append(f"maiden {m.seat}: life {m.life}/{m.life_max}")
        if m.room not in content.rooms:
            found.append(f"maiden {m.seat} in an unknown room {m.room!r}")
        elif m.boss is not None and m.room != content.bosses[m.boss].id and content.rooms[m.room].boss != m.boss:
            found.append(f"maiden {m.seat} fights {m.boss} away from its room ({m.room})")
    if explored_before is not None and game.explored[: len(explored_before)] != explored_before:
        found.append("exploration was undone")
    if len(set(game.explored)) != len(game.explored):
        found.append("a room explored twice")
    if not 0 <= game.round <= ROUNDS:
        found.append(f"round {game.round}")
    if game.round and game.action_markers != (game.round + 1) // 2:
        found.append(f"{game.action_markers} action markers in round {game.round}")
    if game.danger_level < 1:
        found.append(f"danger level {game.danger_level}")
    for boss_id, boss in game.bosses.items():
        if boss.engaged and not (0 <= boss.life <= boss.life_max and 0 <= boss.pointer <= 2):
            found.append(f"boss {boss_id}: life {boss.life}/{boss.life_max}, pointer {boss.pointer}")
        if boss.engaged and boss.defeated != (boss.life == 0):
            found.append(f"boss {boss_id}: defeated={boss.defeated} with life {boss.life}")
        if boss.defeated and not boss.engaged:
            found.append(f"boss {boss_id} defeated without being engaged")
    if game.sephirot != sum(b.defeated for b in game.bosses.values()):
        found.append(f"{game.sephirot} sephirot for {sum(b.defeated for b in game.bosses.values())} defeated bosses")
    found += _dice(game)
    found += cards(game, content)
    if game.clock < previous_clock:
        found.append(f"the clock went backwards: {previous_clock} -> {game.clock}")
    if not game.ended:
        seat = waiting_seat(game)
        if seat is None or not commands.legal_commands(Ctx(game, game.clock, content), seat):
            found.append(f"the game runs but the waiting seat {seat} has nothing to do (step {game.step})")
    return found


def _dice(game: Game) -> list[str]:
    check = game.check
    if check is None or not check.rolled:
        return []
    found = []
    sizes = {d.size for d in check.dice}
    if len(sizes) != 1 or not sizes <= set(DIE_SIZES):
        found.append(f"dice of sizes {sorted(sizes)}")
    if not all(1 <= (d.face or 0) <= d.size for d in check.dice):
        found.append(f"faces {[d.face for d in check.dice]} outside their dice")
    if all(d.removed for d in check.dice):
        found.append("every die removed (MV-ASC-6a)")
    slate = dice.slate_index(check)
    if slate is not None and check.dice[slate].removed:
        found.append("the slate die removed (MV-ASC-6b)")
    if sum(d.removed for d in check.dice) != 2 * check.ascensions:
        found.append(f"{sum(d.removed for d in check.dice)} dice removed by {check.ascensions} ascensions")
    return found


def cards(game: Game, content: Any) -> list[str]:
    """MV-DECK-1: every action, skill, room and quest card is in exactly one place."""
    found = []
    decks = game.decks
    pending = Counter[str]()
    for d in game.pending:
        if d.kind == "keep_card":
            pending[str(d.data.get("deck"))] += len(d.options)
        if d.kind == "place_card":
            pending["action"] += 1
    actions = (
        len(decks.action)
        + len(decks.action_discard)
        + sum(len(s) for m in game.maidens for s in m.stats.values())
        + pending["action"]
    )
    if actions != sum(content.action_counts.values()):
        found.append(f"{actions} action cards instead of {sum(content.action_counts.values())}")
    in_deck = sum(s.copies for s in content.skills.values() if s.deck)
    owned = sum(1 for m in game.maidens for s in m.skills if content.skills[s.id].deck)
    skills = len(decks.skill) + len(decks.skill_discard) + owned + pending["skill"]
    if skills != in_deck:
        found.append(f"{skills} skill cards instead of {in_deck}")
    rooms = sum(c.copies for c in content.room_cards.values())
    in_check = 1 if game.check is not None and game.check.kind == "room" and not game.check.discarded else 0
    held = len(decks.room) + len(decks.room_discard) + in_check + pending["room"]
    if held != rooms:
        found.append(f"{held} room cards instead of {rooms}")
    quests = (
        len(decks.quest) + len(decks.quest_discard) + len(decks.quests_aside) + len(game.quest_area) + pending["quest"]
    )
    if quests != len(content.quests):
        found.append(f"{quests} quests instead of {len(content.quests)}")
    return found
