"""The fuzzer's knowledge of White Maiden: game setup (1-4 players, rule variants, turn deadlines
so the autopilot plays expired turns), wrong commands, invariants (:mod:`delve.maiden.invariants`)
and the hidden-facts checker.

The checker compares a view with the true state, independently of how ``view.py`` builds it:

- the viewer's own part: ``you`` is the viewer's seat, ``legal`` exactly the viewer's legal
  commands (nothing for a spectator);
- the decks: every deck shows its count and public discard pile only; the numbered quests set
  aside show as a count; no list in the view (but the public discard piles, which a run can match
  by chance when cards have copies) is a run of three cards of an undrawn deck's order (room,
  skill, quest, the quests set aside);
- the RNG: no key of the RNG state, no word of it anywhere in the view;
- hidden passages: a passage that is neither revealed nor within the viewer's Ins (a spectator:
  not revealed) appears nowhere in the view, by id;
- a twin of the state whose hidden facts differ (every deck and the quests set aside reshuffled,
  the RNG reseeded) gives exactly the same view: nothing the view shows depends on them;
- given the game's events, the log is exactly the newest public ones, from the setup's own on
  (``journal.started``), nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from delve.kernel import Event, Rng, SeatInfo
from delve.maiden import commands, invariants, journal
from delve.maiden.ctx import Ctx
from delve.maiden.ruleset import MaidenRuleset
from delve.maiden.state import STATS, Game

PRESETS = ("white-maiden", "white-maiden-normal")
#: Rule variants played in turn (seed by seed), on top of the preset.
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"ascension_bonus": "pie", "slate_damage_per_die": "danger_level", "danger_room_entry_damage": "danger_level"},
    {"room_reduction_2p_4p": True, "boss_rooms_block_passage": True, "turn_deadline_hours": 1},
    {"multi_die_checks": True, "pie_mode": "boost", "agi_skill_level_option": True, "familiar_evolution": True},
    {"allow_smaller_die": True, "slate_roll_restricted": True, "ins_applies_to_room_deck": False},
    {"quest_room_skips_check": True, "danger_room_skips_check": True, "base_target": "round_number"},
    {"turn_deadline_hours": 1, "start_player": 0},
)
#: Keys no view may hold anywhere (internal fields of the state).
HIDDEN_KEYS = frozenset({"rng", "s0", "s1", "s2", "s3", "seed", "quests_aside", "setup_queue", "waiting_turn"})
DECKS = ("action", "skill", "room", "quest")


class MaidenTarget:
    name = "maiden"
    presets = PRESETS

    def __init__(self) -> None:
        self.ruleset = MaidenRuleset()
        self._explored: tuple[Game | None, list[str]] = (None, [])

    # ------------------------------------------------------------------ setup

    def new_game(self, preset: str, seed: int, now: int) -> Game:
        """Seed ``s`` plays ``1 + s % 4`` maidens under variant ``s % len(VARIANTS)``."""
        settings = {"preset": preset, "players": 1 + seed % 4, **VARIANTS[seed % len(VARIANTS)]}
        seats = [SeatInfo(f"Maiden {i + 1}") for i in range(settings["players"])]
        return self.ruleset.setup(settings, seats, seed, now)

    def seats(self, state: Game) -> int:
        return len(state.maidens)

    def clock(self, state: Game) -> int:
        return state.clock

    def invariants(self, state: Game, previous_clock: int) -> list[str]:
        # Exploration is never undone: compared with the explored rooms at the previous check of
        # the same game (the game itself is kept, so a new game is never taken for the old one).
        game, before = self._explored
        found = invariants.violations(state, self.ruleset.content, previous_clock, before if game is state else None)
        self._explored = (state, list(state.explored))
        return found

    # ------------------------------------------------------------------ wrong commands

    def wrong_commands(self, state: Game, seat: int, rng: Rng) -> list[dict[str, Any]]:
        """Well-formed commands that are mostly illegal now: other windows' commands, rooms out of
        reach (behind hidden passages, unknown ids), options and cards out of range, other
        maidens' skills, Arcana not in the pool, dice pairs that cannot ascend, die sizes the
        rules do not allow."""
        content = self.ruleset.content
        maiden = state.maidens[seat]
        room = rng.choice([*content.rooms, "nowhere", ""])
        hidden = [p for p in content.passages.values() if p.id not in state.revealed_passages]
        if hidden:
            passage = rng.choice(hidden)
            room = rng.choice([room, passage.a, passage.b])
        others = [s.id for m in state.maidens if m.seat != seat for s in m.skills]
        skill = rng.choice([*(s.id for s in maiden.skills), *others, *content.skills, "no_such_skill"])
        area = rng.choice([*content.areas, "a99"])
        pool = len(state.check.dice) if state.check is not None else 4
        i, j = rng.below(pool + 2) - 1, rng.below(pool + 2) - 1
        return [
            {"kind": "move", "to": room},
            {"kind": "move", "to": maiden.room},
            {"kind": "stay"},
            {"kind": "roll"},
            {"kind": "resolve"},
            {"kind": "die_size", "size": rng.choice([0, 3, 4, 6, 8, 12, 20, 100])},
            {"kind": "ascend", "dice": [i, j]},
            {"kind": "ascend", "dice": [i, i]},
            {"kind": "ascend", "dice": [i, j], "onto": rng.below(pool + 2) - 1},
            {"kind": "boost", "die": rng.below(pool + 3) - 1},
            {"kind": "use_skill", "skill": skill},
            {"kind": "use_skill", "skill": skill, "seat": rng.choice([seat, -1, 4, 10**6])},
            {"kind": "use_arcana", "area": area},
            {"kind": "keep_card", "card": rng.choice([-1, 0, 1, 5, 10**6])},
            {"kind": "place_card", "stat": rng.choice([*STATS, "luck", ""])},
            {"kind": "agi_option", "choice": rng.choice(["skill", "stat", "mp", "nothing"])},
            {"kind": "choose", "option": rng.choice([-1, 0, 1, 3, 99])},
            {"kind": "choose_familiar", "familiar": rng.choice([*content.familiars, "dragon"])},
            {"kind": "choose_start_player", "seat": rng.choice([-1, 0, seat, len(state.maidens), 2**40])},
        ]

    # ------------------------------------------------------------------ hidden facts

    def leaks(
        self, state: Game, seat: int | None, view: dict[str, Any], events: Sequence[Event] | None = None
    ) -> list[str]:
        """``events``, when given, are every event the game returned so far (the record the
        view's log must come from)."""
        found: list[str] = []
        found += self._own_part(state, seat, view)
        found += _decks(state, view)
        shown = _plain(view)
        keys = {key.decode() for key in _KEY.findall(shown)}
        for key in sorted(keys & HIDDEN_KEYS):
            found.append(f"{key!r}: an internal field")
        words = (state.rng.s0, state.rng.s1, state.rng.s2, state.rng.s3)
        if any(word > 10**6 and str(word).encode() in shown for word in words):
            found.append("a word of the RNG state")
        # The discard piles are public (their order follows the public events, and _decks checks
        # them exactly); with two copies of some cards one of them can match three cards of a deck
        # by chance, which tells nobody anything: they are left out of the run search.
        public = {
            tuple(card.encode() for card in pile)
            for pile in (state.decks.room_discard, state.decks.skill_discard, state.decks.quest_discard)
        }
        lists = [
            values for match in _STRING_LIST.findall(shown) if (values := tuple(_STRING.findall(match))) not in public
        ]
        for name, deck in (
            ("room", state.decks.room),
            ("skill", state.decks.skill),
            ("quest", state.decks.quest),
            ("quests set aside", state.decks.quests_aside),
        ):
            if len(deck) >= 3 and lists:
                runs = {tuple(s.encode() for s in deck[i : i + 3]) for i in range(len(deck) - 2)}
                for values in lists:
                    if any(values[i : i + 3] in runs for i in range(len(values) - 2)):
                        found.append(f"a run of the {name} deck's order: {[v.decode() for v in values[:6]]}")
        found += self._passages(state, seat, shown)
        if events is not None:
            found += _log(state, view, events)
        found += self._twin(state, seat, view, shown)
        return found

    def _own_part(self, state: Game, seat: int | None, view: dict[str, Any]) -> list[str]:
        found = []
        if view.get("you") != seat:
            found.append(f"'you' is {view.get('you')!r}, not the viewer {seat!r}")
        legal = commands.legal_commands(Ctx(state, state.clock, self.ruleset.content), seat) if seat is not None else []
        if view.get("legal") != legal:
            found.append("'legal' is not exactly the viewer's legal commands")
        return found

    def _passages(self, state: Game, seat: int | None, shown: bytes) -> list[str]:
        viewer = state.maidens[seat] if seat is not None else None
        found = []
        for passage in self.ruleset.content.passages.values():
            known = passage.id in state.revealed_passages or (viewer is not None and viewer.ins >= passage.min_ins)
            if not known and f'"{passage.id}"'.encode() in shown:
                found.append(f"hidden passage {passage.id!r} shown to a viewer who has not found it")
        return found

    def _twin(self, state: Game, seat: int | None, view: dict[str, Any], shown: bytes) -> list[str]:
        """The view of a state whose hidden facts differ must be the same view."""
        twin = self.ruleset.decode(self.ruleset.encode(state))
        mixer = Rng.seeded(state.clock ^ len(view.get("log") or ()))
        for name in ("action", "skill", "room", "quest", "quests_aside"):
            pile = getattr(twin.decks, name)
            for _ in range(3):  # a shuffle that leaves a short pile as it was proves nothing
                mixer.shuffle(pile)
                if pile != getattr(state.decks, name) or len(set(pile)) < 2:
                    break
        twin.rng = Rng.seeded(mixer.next_u64())
        other = self.ruleset.view(twin, seat)
        if "log" in view:  # the recent events come from the events, not from the state
            other["log"] = view["log"]
        if _plain(other) == shown:
            return []
        return [f"the view changes with hidden facts (deck order, RNG): {_first_difference(view, other)}"]


def _decks(state: Game, view: dict[str, Any]) -> list[str]:
    decks = view.get("decks")
    d = state.decks
    expected = {
        "action": {"count": len(d.action), "discard": d.action_discard},
        "skill": {"count": len(d.skill), "discard": d.skill_discard},
        "room": {"count": len(d.room), "discard": d.room_discard},
        "quest": {"count": len(d.quest), "discard": d.quest_discard, "aside": len(d.quests_aside)},
    }
    return [] if decks == expected else [f"decks show more than their counts and discards: {_short(decks)}"]


def _log(state: Game, view: dict[str, Any], events: Sequence[Event]) -> list[str]:
    """The log is the newest public events (every White Maiden event is), back to the setup's own
    start player when the whole game fits, oldest first."""
    public = [e for e in (*journal.started(state), *events) if e.to is None]
    newest = [{"time": e.time, "kind": e.kind, "data": dict(e.data)} for e in public[-journal.kept(state) :]]
    shown = view.get("log")
    return [] if _plain(shown) == _plain(newest) else ["'log' is not the newest entries of the public log"]


_encoder = msgspec.json.Encoder(order="sorted")
_KEY = re.compile(rb'"([a-z_0-9]+)":')
_STRING = re.compile(rb'"((?:[^"\\]|\\.)*)"')
#: A JSON list of three strings or more.
_STRING_LIST = re.compile(rb'\[("(?:[^"\\]|\\.)*"(?:,"(?:[^"\\]|\\.)*"){2,})\]')


def _plain(value: Any) -> bytes:
    return _encoder.encode(value)


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    for where, x, y in _pairs(a, b, path):
        if _plain(x) != _plain(y):
            return f"{where or '/'}: {_short(x, 80)} vs {_short(y, 80)}"
    return path or "/"


def _pairs(a: Any, b: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for key in a:
            if _plain(a[key]) != _plain(b[key]):
                yield from _pairs(a[key], b[key], f"{path}/{key}")
                return
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if _plain(x) != _plain(y):
                yield from _pairs(x, y, f"{path}/{i}")
                return
    yield path, a, b
