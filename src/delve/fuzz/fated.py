"""The fuzzer's knowledge of Fated Labyrinth and Level D: game setup, wrong commands, invariants
(:mod:`delve.fated.invariants`) and the hidden-facts checker.

The checker compares a view with the true state, independently of how ``view.py`` builds it:

- other hands: no hand outside ``you``; outside ``you`` a ``card`` is a card kind (never a physical
  card id) and ``cards`` a count; ``you.hand`` is exactly the viewer's hand (FL-CARD-13);
- the deck order and the RNG: the piles are counts; no list in the view is a run of the draw pile;
  no word of the RNG state appears (FL-INFO-3);
- unseen tiles: outside sight a tile shows the viewer's own memory; lit tiles lie within the
  viewer's sight radius; a spectator sees no tile while the game runs (FL-VIS);
- traps and fakes the viewer does not know: a trap looks like its floor and a fake like the real
  thing; ``map.traps`` lists only known traps, ``own`` only for the setter (FL-VIS-8..10);
- unseen characters: another player is shown only in sight or Exposed, a monster only in sight or
  under Keen Ear, and a monster's details only in sight (FL-VIS-6/7);
- secrets of other players: stored turns, clock times, pending items and messages only in ``you``;
  statuses of a player under Stealth are hidden (FL-INFO-2/3);
- a trap's setter: no event, message or defended item about a trap names its ``source``, and no
  public event shows a trap use (FL-INFO-3/4);
- every event and message carries only the fields of its kind's allow-list
  (:mod:`delve.fated.disclosure`); given the game's events, the log is exactly the newest public
  ones (from the start) and a player's messages exactly the newest events for that player only
  (FL-INFO-4/5).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from delve.fated import disclosure, invariants, journal, statuses
from delve.fated.ctx import Ctx
from delve.fated.grid import DIRECTIONS, EXIT, FAKE_EXIT, FAKE_TREASURE, TREASURE, xy
from delve.fated.ruleset import FatedRuleset
from delve.fated.state import GameState, Player
from delve.kernel import Event, Rng, SeatInfo

CLASSES = ("explorer", "warrior", "priest", "sorcerer", "summoner", "thief", "noble", "cat")
PRESETS = ("fated-labyrinth", "level-d")
#: Keys that only the viewer's own part (``you``) may hold.
OWN_ONLY = frozenset(
    {"hand", "stored_turns", "next_turn_at", "abandon_at", "messages", "defending", "first_at", "memory", "pending"}
)
HIDDEN_ANYWHERE = frozenset({"rng", "deck", "setter", "known", "acc_next", "last_action_at", "seed"})


class FatedTarget:
    name = "fated"
    presets = PRESETS

    def __init__(self) -> None:
        self.ruleset = FatedRuleset()

    # ------------------------------------------------------------------ setup

    def new_game(self, preset: str, seed: int, now: int) -> GameState:
        """A game with a fast clock (turns every minute, abandonment after hours) so that much
        happens; odd seeds play smaller mazes so that players meet, fight and step on traps."""
        rng = Rng.seeded(seed + 77_777)
        settings: dict[str, Any] = {"preset": preset, "wait_time": 60, "abandon_time": "4h"}
        if seed % 2:
            settings["maze_size"] = 15
        players = self.ruleset.seat_count(settings)
        seats = [SeatInfo(f"p{i + 1}", {"class": rng.choice(CLASSES)}) for i in range(players)]
        return self.ruleset.setup(settings, seats, seed, now)

    def seats(self, state: GameState) -> int:
        return len(state.players)

    def clock(self, state: GameState) -> int:
        return state.clock

    def invariants(self, state: GameState, previous_clock: int) -> list[str]:
        return invariants.violations(state, previous_clock)

    # ------------------------------------------------------------------ wrong commands

    def wrong_commands(self, state: GameState, seat: int, rng: Rng) -> list[dict[str, Any]]:
        """Well-formed commands that are mostly illegal now: other phases' commands, cards the
        seat does not hold (other hands, the deck, ids out of range), targets that are not there,
        directions into walls, comments too long or too soon."""
        player = state.players[seat]
        others = [c for p in state.players if p.seat != seat for c in p.hand]
        foreign = [rng.choice(others)] if others else []
        deck = [state.deck[-1]] if state.deck else []
        cards = [*player.hand, *foreign, *deck, -1, 10**9, 500 * state.settings.decks]
        card = rng.choice(cards)
        direction = rng.choice(list(DIRECTIONS))
        return [
            {"kind": "start_turn"},
            {"kind": "move", "dir": direction},
            {"kind": "stay"},
            {"kind": "pass", "reward": rng.choice(["cards", "cp"])},
            {"kind": "swap", "dir": direction},
            {"kind": "attack", "dir": direction},
            {"kind": "pass_by", "dir": direction},
            {"kind": "pick_up"},
            {"kind": "escape"},
            {"kind": "nothing"},
            {"kind": "draw"},
            {"kind": "jump", "dir": direction},
            {"kind": "steal", "dir": direction},
            {"kind": "use_card", "card": card, "use": rng.choice(["trap", "adjacent", "remote"])},
            {"kind": "use_card", "card": card, "target": rng.choice([seat, -1, 99, rng.below(len(state.players))])},
            {"kind": "use_card", "card": card, "monster": rng.choice([0, 10**6, *(m.id for m in state.monsters)])},
            {"kind": "use_card", "card": card, "dir": direction},
            {"kind": "defend", "card": card},
            {"kind": "no_defense"},
            {"kind": "parry"},
            {"kind": "accept_pass_by"},
            {"kind": "decline_pass_by"},
            {"kind": "comment", "text": "x" * (state.settings.comment_max_len + 1 + rng.below(5_000))},
            {"kind": "comment", "text": f"fuzz {rng.below(1000)}"},
        ]

    # ------------------------------------------------------------------ hidden facts

    def leaks(
        self, state: GameState, seat: int | None, view: dict[str, Any], events: Sequence[Event] | None = None
    ) -> list[str]:
        found: list[str] = []
        viewer = state.players[seat] if seat is not None else None
        found += _own_part(state, viewer, view)
        if events is not None:
            found += _recent(state, viewer, view, events)
        outside = _encode({k: v for k, v in view.items() if k != "you"})
        inside = _encode(view.get("you"))
        found += _secret_keys(outside, inside)
        found += _cards_and_chance(state, view, outside, inside)
        found += _events(state, viewer, view)
        if not state.ended:
            found += _map(state, viewer, view)
            found += _characters(state, viewer, view)
            found += _players(state, viewer, view)
        return found


def _own_part(state: GameState, viewer: Player | None, view: dict[str, Any]) -> list[str]:
    you = view.get("you")
    if viewer is None:
        return ["a spectator's view has a 'you' part"] if you is not None else []
    if you is None or you.get("seat") != viewer.seat:
        return [f"the 'you' part is not seat {viewer.seat}'s"]
    found = []
    if [card["id"] for card in you.get("hand", [])] != viewer.hand:
        found.append("'you.hand' is not the viewer's hand")
    if you.get("stored_turns") != viewer.stored:
        found.append("'you.stored_turns' is not the viewer's")
    return found


def _newest(events: Sequence[Event], wanted: Callable[[Event], bool], count: int) -> list[Event]:
    """The newest ``count`` of ``events`` that are ``wanted``, newest first."""
    out: list[Event] = []
    for event in reversed(events):
        if len(out) == count:
            break
        if wanted(event):
            out.append(event)
    return out


def _same(shown: list[dict[str, Any]], events: list[Event]) -> bool:
    return len(shown) == len(events) and all(
        entry.get("kind") == event.kind and entry.get("time") == event.time
        for entry, event in zip(shown, events, strict=True)
    )


def _recent(state: GameState, viewer: Player | None, view: dict[str, Any], events: Sequence[Event]) -> list[str]:
    """The log is the newest public events, back to the game's start (FL-INFO-4); a player's
    messages are the newest events for that player alone to see (FL-INFO-5)."""
    found = []
    size = state.settings.event_log_size
    public = _newest(events, lambda e: e.public, size)
    if len(public) < size:  # the whole game fits: the log begins with its start
        public.append(journal.started(state))
    if not _same(view.get("events", []), public):
        found.append("'events' is not the public log")
    if viewer is not None:
        mine = _newest(events, lambda e: not e.public and e.visible_to(viewer.seat), journal.MESSAGES_KEPT)
        if not _same((view.get("you") or {}).get("messages", []), mine):
            found.append("'you.messages' are not exactly the viewer's own messages")
    return found


_KEY = re.compile(rb'"([a-z_]+)":')
_CARD_ID = re.compile(rb'"card":-?\d')
_CARD_IDS = re.compile(rb'"cards":\[')
_INT_LIST = re.compile(rb"\[(-?\d+(?:,-?\d+){2,})\]")
_encode = msgspec.json.encode


_OWN_ONLY = frozenset(key.encode() for key in OWN_ONLY)
_HIDDEN = frozenset(key.encode() for key in HIDDEN_ANYWHERE)


def _secret_keys(outside: bytes, inside: bytes) -> list[str]:
    """Keys of a player's own part outside ``you`` (the view without it, as JSON); internal fields
    anywhere ("piles.deck" is the pile's size)."""
    found = []
    keys = set(_KEY.findall(outside))
    for key in keys & _OWN_ONLY:
        found.append(f"{key.decode()!r}: a player's own field outside 'you'")
    for key in ((keys - {b"deck"}) | set(_KEY.findall(inside))) & _HIDDEN:
        found.append(f"{key.decode()!r}: an internal field")
    return found


_RUNS: dict[tuple[int, ...], frozenset[tuple[int, int, int]]] = {}


def _runs(deck: list[int]) -> frozenset[tuple[int, int, int]]:
    """Every run of three cards of the draw pile (cached: the pile changes less often than views
    are checked)."""
    key = tuple(deck)
    runs = _RUNS.get(key)
    if runs is None:
        if len(_RUNS) > 64:
            _RUNS.clear()
        runs = _RUNS[key] = frozenset((deck[i], deck[i + 1], deck[i + 2]) for i in range(len(deck) - 2))
    return runs


def _cards_and_chance(state: GameState, view: dict[str, Any], outside: bytes, inside: bytes) -> list[str]:
    found = []
    if view.get("piles") != {"deck": len(state.deck), "discard": len(state.discard)}:
        found.append(f"piles {view.get('piles')} are not the pile sizes")
    whole = outside + inside
    if _CARD_ID.search(outside):
        found.append("a physical card id ('card': number) outside 'you'")
    if _CARD_IDS.search(outside):
        found.append("card ids ('cards': list) outside 'you'")
    deck = state.deck
    if len(deck) >= 3:
        runs = _runs(deck)
        for match in _INT_LIST.findall(whole):
            values = [int(v) for v in match.split(b",")]
            if any(tuple(values[i : i + 3]) in runs for i in range(len(values) - 2)):
                found.append(f"a run of the draw pile's order: {match[:40]!r}")
    for word in (state.rng.s0, state.rng.s1, state.rng.s2, state.rng.s3):
        if word > 10**6 and str(word).encode() in whole:
            found.append("a word of the RNG state")
    return found


@functools.cache
def _allowed(kind: str) -> frozenset[str]:
    return disclosure.FIELDS.allowed(kind) | {"kind", "time"}


def _events(state: GameState, viewer: Player | None, view: dict[str, Any]) -> list[str]:
    found = []
    you = view.get("you") or {}
    entries = [("/events", e) for e in view.get("events", [])]
    entries += [("/you/messages", e) for e in you.get("messages", [])]
    for where, entry in entries:
        extra = entry.keys() - _allowed(str(entry.get("kind")))
        if extra:
            found.append(f"{where}: {entry.get('kind')} carries fields outside its allow-list: {sorted(extra)}")
        if (entry.get("label") == "trap" or entry.get("use") == "trap") and "source" in entry:
            found.append(f"{where}: {entry.get('kind')} names a trap's setter")
        if where == "/events" and entry.get("kind") == "card.used" and entry.get("use") == "trap":
            found.append("/events: a trap use is logged with its card")
    defending = you.get("defending")
    if isinstance(defending, dict) and defending.get("kind") == "trap" and "source" in defending:
        found.append("/you/defending: a trap's setter")
    return found


def _map(state: GameState, viewer: Player | None, view: dict[str, Any]) -> list[str]:
    m = view["map"]
    n = state.size
    tiles, lit = m["tiles"], m["lit"]
    if viewer is None:
        if set(tiles) - {"?"} or "1" in lit or m.get("traps") or m.get("doors"):
            return ["a spectator sees tiles of a running game"]
        return []
    found = []
    ctx = Ctx(state, state.clock)
    radius = statuses.sight_radius(ctx, viewer) if viewer.alive else -1
    vx, vy = xy(viewer.pos, n)
    manhattan = state.settings.sight_metric == "manhattan"
    for tile in range(n * n):
        shown = tiles[tile]
        if lit[tile] != "1":
            if shown != viewer.memory[tile]:
                found.append(f"tile {tile} out of sight shows {shown!r}, not the remembered {viewer.memory[tile]!r}")
            continue
        x, y = xy(tile, n)
        distance = abs(x - vx) + abs(y - vy) if manhattan else max(abs(x - vx), abs(y - vy))
        if distance > radius:
            found.append(f"tile {tile} is lit at distance {distance} > sight {radius}")
        trap = state.traps.get(tile)
        knows_trap = trap is not None and (trap.setter == viewer.seat or viewer.seat in trap.known)
        if trap is not None and not knows_trap and shown in "ox":
            found.append(f"tile {tile}: an unknown trap shows as {shown!r}")
        if trap is None and shown in "ox":
            found.append(f"tile {tile} in sight shows a trap that is not there")
        fake = state.fakes.get(tile)
        knows_fake = fake is not None and (fake.setter == viewer.seat or viewer.seat in fake.known)
        terrain = state.grid[tile]
        if (
            terrain in (FAKE_TREASURE, FAKE_EXIT)
            and not knows_fake
            and shown != {FAKE_TREASURE: TREASURE}.get(terrain, EXIT)
        ):
            found.append(f"tile {tile}: an unknown fake shows as {shown!r}")
    for key, info in (m.get("traps") or {}).items():
        x, _, y = key.partition(",")
        tile = int(y) * n + int(x)
        trap = state.traps.get(tile)
        if trap is None or not (trap.setter == viewer.seat or viewer.seat in trap.known) or lit[tile] != "1":
            found.append(f"map.traps lists {key}, a trap the viewer does not know or see")
        elif bool(info.get("own")) != (trap.setter == viewer.seat):
            found.append(f"map.traps {key}: 'own' says who set it wrongly")
    return found


def _characters(state: GameState, viewer: Player | None, view: dict[str, Any]) -> list[str]:
    found = []
    n = state.size
    lit = view["map"]["lit"]
    ctx = Ctx(state, state.clock)
    keen = viewer is not None and viewer.alive and statuses.active(viewer, "keen_ear", ctx)
    for char in view.get("characters", []):
        x, y = char["tile"]
        tile = y * n + x
        in_sight = lit[tile] == "1"
        if char["type"] == "player":
            player = state.players[char["seat"]]
            if player.pos != tile or not player.alive:
                found.append(f"player {player.seat} shown on a wrong tile")
            mine = viewer is not None and player.seat == viewer.seat
            if not (mine or in_sight or statuses.exposed(ctx, player)):
                found.append(f"player {player.seat} shown out of sight and not Exposed")
        else:
            monster = state.monster(char["id"])
            if monster is None or monster.pos != tile:
                found.append(f"monster {char['id']} shown on a wrong tile")
            if not (in_sight or keen):
                found.append(f"monster {char['id']} shown out of sight without Keen Ear")
            if not in_sight and "hp" in char:
                found.append(f"monster {char['id']}'s details shown out of sight")
    return found


def _players(state: GameState, viewer: Player | None, view: dict[str, Any]) -> list[str]:
    found = []
    ctx = Ctx(state, state.clock)
    for entry in view.get("players", []):
        player = state.players[entry["seat"]]
        if entry.get("hand_size") != len(player.hand):
            found.append(f"player {player.seat}: hand size {entry.get('hand_size')} is wrong")
        mine = viewer is not None and player.seat == viewer.seat
        if not mine and statuses.hidden_by_stealth(ctx, player) and ("hp" in entry or "statuses" in entry):
            found.append(f"player {player.seat} is under Stealth but their status shows")
        for status in entry.get("statuses", []) if not mine else []:
            if "turns" in status:
                found.append(f"player {player.seat}: turns left of another player's status")
    return found
