"""White Maiden content: the Tree-of-Life map, areas and Arcana, bosses, the room deck, quests,
familiars, skills and the action cards.

Content is data (``content/*.toml``, every text in English and Japanese), decoded strictly into
frozen msgspec structs (an unknown key is refused) and then validated as a whole: every
cross-reference, the counts the rules fix (22 areas, 10 bosses of which one final, 3 actions per
boss, 48 action cards), the shape of the map (connected from S, each area a chain of rooms, each
boss in one boss room), and every effect op and passive modifier against the vocabularies of
``OPS`` and ``MODS`` (docs/maiden.md, /work/notes/maiden-contract.md). Anything broken raises
:class:`~delve.kernel.ContentError` naming the file, the entry and the reason. Loading is cached.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections import deque
from collections.abc import Iterable, Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal, NamedTuple, get_args

import msgspec

from delve.kernel import ContentError

Symbol = Literal["D", "J", "P", "G"]
Colour = Literal["red", "blue", "black"]
RoomType = Literal["normal", "rest", "quest", "danger", "boss", "start"]
Who = Literal["self", "all", "others", "area", "choose"]
Trigger = Literal["success", "failure", "always"]
ArcanaTiming = Literal["movement", "pre_roll", "post_roll", "any", "result", "damage"]
SkillTiming = Literal["movement", "pre_roll", "post_roll", "result", "damage"]

SYMBOLS: tuple[str, ...] = get_args(Symbol)
COLOURS: tuple[str, ...] = get_args(Colour)
LANGS = ("en", "ja")
AREA_COUNT = 22
BOSS_COUNT = 10
BOSS_ACTIONS = 3
ACTION_CARDS = 48
MIN_FAMILIARS = 4
"""Four players each choose a different familiar (MV-SETUP-9, OQ-40)."""
GRID = 10.0
"""Layout coordinates lie within 0..GRID on both axes."""
_ID = re.compile(r"^[a-z0-9_]+$")


# --------------------------------------------------------------------------------------------
# Structs (strict: unknown keys are refused)


class Text(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A text in both languages. Reads like a mapping: ``text["ja"]``, ``text.get("en")`` and
    ``dict(text)`` all work."""

    en: str
    ja: str

    def keys(self) -> tuple[str, ...]:
        return LANGS

    def __getitem__(self, lang: str) -> str:
        if lang == "en":
            return self.en
        if lang == "ja":
            return self.ja
        raise KeyError(lang)

    def get(self, lang: str, default: str | None = None) -> str | None:
        return self[lang] if lang in LANGS else default


class Mods(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Passive modifiers (MODS of the contract). Combining several sources (area, ongoing quest,
    boss action): integers add up, booleans or together, ``rest_heal_cap`` and
    ``ascension_bonus_fixed`` take the smallest value given, ``default_slate`` the first given."""

    explored_pass_cost: int = 0
    mp_delta: int = 0
    stop_at_first_unexplored: bool = False
    one_maiden_per_room: bool = False
    difficulty_delta: int = 0
    dl_delta: int = 0
    failure_damage_delta: int = 0
    failure_damage_unless_partner: bool = False
    slate_per_die_delta: int = 0
    default_slate: Colour | None = None
    die_step: int = 0
    no_white_dice: bool = False
    no_ascension: bool = False
    ascension_bonus_fixed: int | None = None
    reroll_highest: bool = False
    skills_always_exhaust: bool = False
    ins_draws_disabled: bool = False
    blind_draw: bool = False
    rest_heal_cap: int | None = None
    rest_no_refresh: bool = False
    failure_exhausts_skill: bool = False
    boss_life_delta: int = 0

    def active(self) -> dict[str, Any]:
        """The keys that differ from their default (what the map and the view show)."""
        result: dict[str, Any] = msgspec.to_builtins(self)
        return result

    @property
    def empty(self) -> bool:
        return not self.active()


NO_MODS = Mods()

CHECK_MODS = frozenset(
    {
        "difficulty_delta",
        "dl_delta",
        "failure_damage_delta",
        "slate_per_die_delta",
        "die_step",
        "no_white_dice",
        "no_ascension",
        "ascension_bonus_fixed",
        "reroll_highest",
        "skills_always_exhaust",
        "failure_exhausts_skill",
    }
)
"""The MODS a boss action may carry: they change only the check made against that action."""


class Op(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One effect primitive (OPS of the contract): ``op`` plus the params that op takes.
    ``who`` omitted means ``self``."""

    op: str
    amount: int | str | None = None
    who: Who | None = None
    delta: int | None = None
    boss: str | None = None
    passage: str | None = None
    room: str | None = None
    to: str | None = None
    a: str | None = None
    b: str | None = None
    number: int | None = None
    count: int | str | None = None

    @property
    def target(self) -> str:
        return self.who or "self"

    def params(self) -> dict[str, Any]:
        """The params given (not ``op`` itself)."""
        result: dict[str, Any] = msgspec.to_builtins(self)
        result.pop("op")
        return result

    def keys(self) -> tuple[str, ...]:
        """The keys given, ``op`` first: ``dict(op)`` is the op as written in the TOML."""
        return tuple(k for k in self.__struct_fields__ if getattr(self, k) is not None)

    def __getitem__(self, key: str) -> Any:
        value = getattr(self, key, None) if key in self.__struct_fields__ else None
        if value is None:
            raise KeyError(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event of a room card or the effect of a boss action: ops resolved after the check,
    when its outcome matches ``on`` (MV-EVENT-1/2, MV-BOSS-10)."""

    on: Trigger
    ops: tuple[Op, ...]
    text: Text

    def fires(self, success: bool) -> bool:
        return self.on == "always" or (self.on == "success") == success


class Room(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    type: RoomType
    x: float
    y: float
    area: str | None = None
    boss: str | None = None
    normal_active: bool = True
    """Rest rooms only: false = the room acts as a normal room at difficulty ``normal`` (CHG-13)."""
    active_player_counts: tuple[int, ...] = ()
    """Special rooms only: with ``room_reduction_2p_4p``, the special type holds only at these
    player counts (empty: at every count)."""
    entry_requirement: tuple[Symbol, ...] = ()
    """With ``entry_restrictions``: the top-card symbols a maiden needs to enter or pass (CHG-16)."""


class Edge(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    a: str
    b: str


class Passage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A hidden passage (SUG-10, MISS-13): usable by a maiden whose Ins >= ``min_ins``, or by
    everyone once an effect ``reveal_passage`` reveals it."""

    id: str
    a: str
    b: str
    name: Text
    min_ins: int = 2


class MapData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    start: str
    rooms: tuple[Room, ...]
    edges: tuple[Edge, ...]
    passages: tuple[Passage, ...] = ()


class Area(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    path: int
    letter: str
    arcanum: int
    name: Text
    effect_text: Text
    arcana_text: Text
    arcana: tuple[Op, ...]
    arcana_timing: ArcanaTiming
    mods: Mods = msgspec.field(default_factory=Mods)


class BossAction(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    name: Text
    difficulty: int
    slate: Colour | None = None
    required_count: int = 1
    effect: Effect | None = None
    mods: Mods = msgspec.field(default_factory=Mods)
    """Check modifiers of this action only (a subset of MODS: ``CHECK_MODS``)."""


class Boss(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    sephirah: Text
    name: Text
    life: int
    tier: int
    flavour: Text
    actions: tuple[BossAction, ...]
    final: bool = False


class RoomCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: Text
    difficulty: int
    slate: Colour | None = None
    required_count: int = 1
    event: Effect | None = None
    copies: int = 1


class Quest(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    number: int
    """0: an initial quest (no number, MV-SETUP-2); >0: numbered, added by follow-ups."""
    name: Text
    text: Text
    ops: tuple[Op, ...]
    follow_ups: tuple[int, ...] = ()
    ongoing: bool = False
    mods: Mods | None = None

    @property
    def initial(self) -> bool:
        return self.number == 0


class Familiar(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: Text
    text: Text
    action: Symbol
    skills: tuple[str, ...]
    ultimate: str | None = None


class Skill(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: Text
    text: Text
    condition: tuple[Symbol, ...]
    timing: SkillTiming
    ops: tuple[Op, ...]
    scale: int = 0
    """Per skill level, added to the ``amount`` (or the integer ``count``) of each of its ops
    that has one (MV-SKILL-10)."""
    deck: bool = True
    copies: int = 1

    def scaled(self, level: int) -> tuple[Op, ...]:
        """The skill's ops at ``level``: ``scale * level`` added to every integer amount/count."""
        if not self.scale or not level:
            return self.ops
        bonus = self.scale * level
        out: list[Op] = []
        for op in self.ops:
            if isinstance(op.amount, int):
                out.append(msgspec.structs.replace(op, amount=op.amount + bonus))
            elif isinstance(op.count, int):
                out.append(msgspec.structs.replace(op, count=op.count + bonus))
            else:
                out.append(op)
        return tuple(out)


class Actions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    counts: dict[Symbol, int]
    symbols: dict[Symbol, Text]


class Content(msgspec.Struct, frozen=True):
    """Everything loaded, validated and indexed. Treat as immutable."""

    map: MapData
    rooms: dict[str, Room]
    adjacency: dict[str, tuple[str, ...]]
    """Room id -> neighbours by edges (hidden passages not included), in file order."""
    area_rooms: dict[str, tuple[str, ...]]
    """Area id -> its rooms in chain order, starting from the chain end listed first in map.toml
    (the shipped map lists each path from its upper sephirah down)."""
    boss_rooms: dict[str, str]
    """Boss id -> its boss room id."""
    passages: dict[str, Passage]
    areas: dict[str, Area]
    bosses: dict[str, Boss]
    room_cards: dict[str, RoomCard]
    quests: dict[str, Quest]
    familiars: dict[str, Familiar]
    skills: dict[str, Skill]
    actions: Actions

    @property
    def start(self) -> str:
        return self.map.start

    @property
    def edges(self) -> tuple[Edge, ...]:
        return self.map.edges

    @property
    def action_counts(self) -> dict[str, int]:
        return {str(k): v for k, v in self.actions.counts.items()}

    @property
    def symbols(self) -> dict[str, Text]:
        return {str(k): v for k, v in self.actions.symbols.items()}

    def room(self, room_id: str) -> Room:
        return self.rooms[room_id]

    def neighbours(self, room_id: str) -> tuple[str, ...]:
        return self.adjacency[room_id]

    def boss_room(self, boss_id: str) -> str:
        return self.boss_rooms[boss_id]

    @property
    def final_boss(self) -> Boss:
        return next(b for b in self.bosses.values() if b.final)

    def room_deck(self) -> tuple[str, ...]:
        """Room card ids, each repeated by its copies (the unshuffled deck, MV-SETUP-1)."""
        return tuple(card.id for card in self.room_cards.values() for _ in range(card.copies))

    def skill_deck(self) -> tuple[str, ...]:
        """Deck skill ids, each repeated by its copies (familiar skills and ultimates excluded)."""
        return tuple(s.id for s in self.skills.values() if s.deck for _ in range(s.copies))

    def action_deck(self) -> tuple[str, ...]:
        """The 48 action cards as symbols, D first (MISS-10)."""
        return tuple(sym for sym in SYMBOLS for _ in range(self.action_counts[sym]))

    def initial_quests(self) -> tuple[str, ...]:
        """The quest deck at setup: the quests without a number (MV-SETUP-2)."""
        return tuple(q.id for q in self.quests.values() if q.initial)

    def numbered_quests(self) -> dict[int, str]:
        """Quest number -> quest id, for the quests set aside at setup."""
        return {q.number: q.id for q in self.quests.values() if not q.initial}

    def quest_by_number(self, number: int) -> Quest:
        for quest in self.quests.values():
            if quest.number == number and number > 0:
                return quest
        raise KeyError(number)

    def symbol_label(self, symbol: str, lang: str) -> str:
        return self.symbols[symbol][lang]


# --------------------------------------------------------------------------------------------
# The op vocabulary


class OpSpec(NamedTuple):
    required: frozenset[str]
    optional: frozenset[str]
    window: str
    """any | movement | pre_roll | post_roll | roll (pre or post) | damage"""


def _spec(required: str = "", optional: str = "", window: str = "any") -> OpSpec:
    return OpSpec(frozenset(required.split()), frozenset(optional.split()), window)


OPS: dict[str, OpSpec] = {
    "heal": _spec("amount", "who"),
    "damage": _spec("amount", "who"),
    "dl": _spec("delta"),
    "refresh_skills": _spec("", "who"),
    "exhaust_skill": _spec("", "who"),
    "learn_skill": _spec("", "who"),
    "skill_level": _spec("amount"),
    "extra_draw": _spec("amount"),
    "boss_damage": _spec("boss amount"),
    "boss_disable_action": _spec("boss"),
    "reveal_passage": _spec("passage"),
    "room_type": _spec("room to"),
    "add_edge": _spec("a b"),
    "add_quest": _spec("number"),
    "look_rooms": _spec("count"),
    "mp": _spec("amount", window="movement"),
    "free_pass": _spec(window="movement"),
    "warp": _spec("to", window="movement"),
    "die_bonus_size": _spec("amount", window="pre_roll"),
    "extra_white": _spec("amount", window="pre_roll"),
    "die_adjust": _spec("amount", window="post_roll"),
    "reroll": _spec("count", window="post_roll"),
    "set_die": _spec(window="post_roll"),
    "swap_colours": _spec(window="post_roll"),
    "near_pair": _spec(window="post_roll"),
    "ap_bonus": _spec("amount", window="post_roll"),
    "auto_success": _spec(window="post_roll"),
    "ignore_slate": _spec(window="roll"),
    "ignore_slate_dice": _spec("amount", window="post_roll"),
    "reduce_damage": _spec("amount", window="post_roll"),
    "cancel_death": _spec(window="damage"),
}
"""Op name -> its params and the window it can be used in. Ops of window ``any`` can be used
anywhere (events, boss effects, quests, Arcana and skills of every timing); the others only by
an Arcana or a skill whose timing is that window (``roll``: pre_roll or post_roll)."""

DL_AMOUNT_OPS = frozenset({"heal", "damage"})
"""Ops whose ``amount`` may be ``"dl"`` (the current danger level)."""
ROOM_TYPE_TARGETS = ("rest", "quest", "normal")
WARP_TARGETS = ("explored", "unexplored")


def op_fits(op_name: str, timing: str) -> bool:
    """Whether an op of this name can be used by an Arcana/skill of this timing."""
    window = OPS[op_name].window
    if window == "any":
        return True
    if window == "roll":
        return timing in {"pre_roll", "post_roll"}
    return window == timing


# --------------------------------------------------------------------------------------------
# Reading


class _Files:
    """The content folder and how error messages name its files."""

    def __init__(self, root: Traversable, packaged: bool) -> None:
        self.root = root
        self.packaged = packaged

    def label(self, name: str) -> str:
        return f"delve/maiden/content/{name}" if self.packaged else f"{self.root}/{name}"

    def read(self, name: str) -> tuple[str, dict[str, Any]]:
        label = self.label(name)
        try:
            text = self.root.joinpath(name).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ContentError(label, "(file)", "missing") from None
        try:
            return label, tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(label, "(file)", f"not valid TOML: {exc}") from None


def _convert(label: str, key: str, raw: Any, cls: type[Any]) -> Any:
    try:
        return msgspec.convert(raw, type=cls)
    except msgspec.ValidationError as exc:
        raise ContentError(label, key, str(exc)) from None


def _entries(label: str, data: dict[str, Any], table: str, cls: type[Any]) -> dict[str, Any]:
    """Decode ``[[table]]`` entries into ``cls`` by id; ids well-formed and unique."""
    items = data.get(table)
    if not isinstance(items, list) or not items:
        raise ContentError(label, table, f"expected a non-empty array of [[{table}]] tables")
    unknown = sorted(set(data) - {table})
    if unknown:
        raise ContentError(label, "(file)", f"unknown top-level keys {unknown}")
    out: dict[str, Any] = {}
    for position, raw in enumerate(items):
        key = str(raw.get("id", f"{table}[{position}]")) if isinstance(raw, dict) else f"{table}[{position}]"
        entry = _convert(label, key, raw, cls)
        _check_id(label, key, entry.id)
        if entry.id in out:
            raise ContentError(label, key, "duplicate id")
        out[entry.id] = entry
    return out


def _check_id(label: str, key: str, value: str) -> None:
    if not _ID.match(value):
        raise ContentError(label, key, f"id {value!r} must match {_ID.pattern}")


def _texts(value: Any, path: str = "") -> Iterator[tuple[str, Text]]:
    """Every Text inside a decoded entry, with where it sits."""
    if isinstance(value, Text):
        yield path, value
    elif isinstance(value, msgspec.Struct):
        for field in value.__struct_fields__:
            yield from _texts(getattr(value, field), f"{path}.{field}" if path else field)
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from _texts(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from _texts(item, f"{path}.{k}" if path else str(k))


def _check_texts(label: str, key: str, entry: Any) -> None:
    for where, text in _texts(entry):
        missing = [lang for lang in LANGS if not text[lang].strip()]
        if missing:
            raise ContentError(label, key, f"{where} lacks the {'/'.join(missing)} text")


# --------------------------------------------------------------------------------------------
# Validation


class _Refs(NamedTuple):
    """What op params may name."""

    rooms: dict[str, Room]
    edges: frozenset[frozenset[str]]
    bosses: frozenset[str]
    passages: frozenset[str]
    numbers: frozenset[int]


def _check_effect(label: str, key: str, effect: Effect, refs: _Refs, where: str) -> None:
    """An event or boss-action effect: at least one op, each of window ``any`` (MV-EVENT, MV-BOSS-10)."""
    if not effect.ops:
        raise ContentError(label, key, f"{where}: an effect needs at least one op (or leave the effect out)")
    _check_ops(label, key, effect.ops, "any", refs, f"{where}.ops")


def _check_ops(label: str, key: str, ops: Iterable[Op], timing: str, refs: _Refs, where: str) -> None:
    """Every op known, with exactly its params, valid values and a window that fits ``timing``
    (``any`` for events, boss effects and quests)."""
    for i, op in enumerate(ops):
        at = f"{where}[{i}] {op.op!r}"
        spec = OPS.get(op.op)
        if spec is None:
            raise ContentError(label, key, f"{at}: unknown op; known ops: {', '.join(sorted(OPS))}")
        given = set(op.params())
        missing = sorted(spec.required - given)
        if missing:
            raise ContentError(label, key, f"{at}: missing params {missing}")
        extra = sorted(given - spec.required - spec.optional)
        if extra:
            raise ContentError(label, key, f"{at}: params {extra} are not taken by this op")
        if not op_fits(op.op, timing):
            raise ContentError(label, key, f"{at}: a {spec.window} op cannot be used at timing {timing!r}")
        problem = _op_values(op, refs)
        if problem:
            raise ContentError(label, key, f"{at}: {problem}")


def _op_values(op: Op, refs: _Refs) -> str | None:
    if op.amount is not None:
        if isinstance(op.amount, str):
            if op.amount != "dl" or op.op not in DL_AMOUNT_OPS:
                return f"amount {op.amount!r} must be an integer" + (" or 'dl'" if op.op in DL_AMOUNT_OPS else "")
        elif op.amount < 1:
            return f"amount must be at least 1, got {op.amount}"
    if op.delta is not None and op.delta == 0:
        return "delta must not be 0"
    if op.count is not None:
        if isinstance(op.count, str):
            if op.count != "any" or op.op != "reroll":
                return f"count {op.count!r} must be an integer" + (" or 'any'" if op.op == "reroll" else "")
        elif op.count < 1:
            return f"count must be at least 1, got {op.count}"
    if op.boss is not None:
        choice = "choose_engaged" if op.op == "boss_damage" else "choose"
        if op.boss != choice and op.boss not in refs.bosses:
            return f"boss {op.boss!r} is neither a boss id nor {choice!r}"
    if op.passage is not None and op.passage not in refs.passages:
        return f"passage {op.passage!r} is not a passage of map.toml"
    if op.op == "room_type":
        if op.to not in ROOM_TYPE_TARGETS:
            return f"to must be one of {list(ROOM_TYPE_TARGETS)}, got {op.to!r}"
        if op.room != "choose_unexplored":
            room = refs.rooms.get(str(op.room))
            if room is None:
                return f"room {op.room!r} is neither a room id nor 'choose_unexplored'"
            if room.type in {"boss", "start"}:
                return f"room {op.room!r} is a {room.type} room and cannot change type"
    if op.op == "warp" and op.to not in WARP_TARGETS:
        return f"to must be one of {list(WARP_TARGETS)}, got {op.to!r}"
    if op.op == "add_edge":
        for end in (op.a, op.b):
            if end not in refs.rooms:
                return f"room {end!r} is not a room of map.toml"
        if op.a == op.b:
            return "a and b must be different rooms"
        if frozenset((op.a, op.b)) in refs.edges:
            return f"{op.a}–{op.b} is already an edge"
    if op.number is not None and op.number not in refs.numbers:
        return f"number {op.number} is not a numbered quest"
    return None


def _chain(label: str, area: str, members: list[str], adjacency: dict[str, list[str]]) -> tuple[str, ...]:
    """The area's rooms in path order; refuses anything but a simple chain (SUG-1)."""
    inside = set(members)
    degree = {r: [n for n in adjacency[r] if n in inside] for r in members}
    if len(members) == 1:
        return (members[0],)
    ends = [r for r in members if len(degree[r]) == 1]
    if any(len(d) > 2 for d in degree.values()) or len(ends) != 2:
        raise ContentError(label, area, f"its rooms {members} do not form a chain (each linked to the next)")
    order = [ends[0]]
    while len(order) < len(members):
        step = [n for n in degree[order[-1]] if n not in order]
        if not step:
            raise ContentError(label, area, f"its rooms {members} do not form one connected chain")
        order.append(step[0])
    return tuple(order)


def _validate_map(
    label: str, data: MapData, areas: dict[str, Area], bosses: dict[str, Boss]
) -> tuple[dict[str, Room], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]], dict[str, str]]:
    """MV-COMP-1, MISS-1, SUG-1: rooms, edges, passages; returns rooms, adjacency, area chains
    and boss rooms."""
    rooms: dict[str, Room] = {}
    for room in data.rooms:
        _check_id(label, room.id, room.id)
        if room.id in rooms:
            raise ContentError(label, room.id, "duplicate room id")
        rooms[room.id] = room
        if not (0 <= room.x <= GRID and 0 <= room.y <= GRID):
            raise ContentError(label, room.id, f"x and y must lie within 0..{GRID:g}, got ({room.x}, {room.y})")
        if room.type == "boss":
            if room.boss is None:
                raise ContentError(label, room.id, "a boss room needs boss = <boss id>")
            if room.boss not in bosses:
                raise ContentError(label, room.id, f"boss {room.boss!r} is not a boss of bosses.toml")
            if room.area is not None:
                raise ContentError(label, room.id, "a boss room belongs to no area (omit area)")
        elif room.boss is not None:
            raise ContentError(label, room.id, "only boss rooms name a boss")
        if room.type == "start":
            if room.area is not None:
                raise ContentError(label, room.id, "the start square belongs to no area (omit area)")
        elif room.type != "boss":
            if room.area is None:
                raise ContentError(label, room.id, "a room needs area = <area id>")
            if room.area not in areas:
                raise ContentError(label, room.id, f"area {room.area!r} is not an area of areas.toml")
        if not room.normal_active and room.type != "rest":
            raise ContentError(label, room.id, "normal_active applies to rest rooms only")
        if room.active_player_counts:
            if room.type not in {"rest", "quest", "danger"}:
                raise ContentError(label, room.id, "active_player_counts applies to rest, quest and danger rooms only")
            counts = room.active_player_counts
            if len(set(counts)) != len(counts) or any(not 1 <= c <= 4 for c in counts):
                raise ContentError(label, room.id, f"active_player_counts must be distinct counts 1..4, got {counts}")
        if room.entry_requirement and room.type in {"boss", "start"}:
            raise ContentError(label, room.id, f"a {room.type} room cannot have an entry requirement")
        if len(room.entry_requirement) > 4:
            raise ContentError(label, room.id, "an entry requirement has at most 4 symbols (one per stat)")
    if data.start not in rooms or rooms[data.start].type != "start":
        raise ContentError(label, "start", f"start {data.start!r} must name a room of type 'start'")
    starts = [r.id for r in rooms.values() if r.type == "start"]
    if len(starts) != 1:
        raise ContentError(label, "start", f"exactly one room must have type 'start', found {starts}")
    boss_rooms: dict[str, str] = {}
    for room in rooms.values():
        if room.boss is not None:
            if room.boss in boss_rooms:
                raise ContentError(label, room.id, f"boss {room.boss!r} already sits in {boss_rooms[room.boss]}")
            boss_rooms[room.boss] = room.id
    for boss_id in bosses:
        if boss_id not in boss_rooms:
            raise ContentError(label, boss_id, "this boss of bosses.toml has no boss room (OQ-18)")
    adjacency: dict[str, list[str]] = {r: [] for r in rooms}
    seen: set[frozenset[str]] = set()
    for edge in data.edges:
        key = f"edge {edge.a}–{edge.b}"
        for end in (edge.a, edge.b):
            if end not in rooms:
                raise ContentError(label, key, f"{end!r} is not a room")
        pair = frozenset((edge.a, edge.b))
        if len(pair) == 1:
            raise ContentError(label, key, "an edge joins two different rooms")
        if pair in seen:
            raise ContentError(label, key, "duplicate edge")
        seen.add(pair)
        adjacency[edge.a].append(edge.b)
        adjacency[edge.b].append(edge.a)
    passages: set[str] = set()
    for passage in data.passages:
        _check_id(label, passage.id, passage.id)
        if passage.id in passages:
            raise ContentError(label, passage.id, "duplicate passage id")
        passages.add(passage.id)
        for end in (passage.a, passage.b):
            if end not in rooms:
                raise ContentError(label, passage.id, f"{end!r} is not a room")
        pair = frozenset((passage.a, passage.b))
        if len(pair) == 1 or pair in seen:
            raise ContentError(label, passage.id, "a passage joins two different rooms not already joined by an edge")
        if passage.min_ins < 0:
            raise ContentError(label, passage.id, "min_ins cannot be negative")
        _check_texts(label, passage.id, passage)
    reached = {data.start}
    queue = deque([data.start])
    while queue:
        for nxt in adjacency[queue.popleft()]:
            if nxt not in reached:
                reached.add(nxt)
                queue.append(nxt)
    unreached = [r for r in rooms if r not in reached]
    if unreached:
        raise ContentError(label, unreached[0], f"not reachable from {data.start} by edges (also {unreached[1:]})")
    members: dict[str, list[str]] = {a: [] for a in areas}
    for room in rooms.values():
        if room.area is not None:
            members[room.area].append(room.id)
    chains: dict[str, tuple[str, ...]] = {}
    for area_id, ids in members.items():
        if not ids:
            raise ContentError(label, area_id, "this area of areas.toml has no rooms on the map")
        chains[area_id] = _chain(label, area_id, ids, adjacency)
    return rooms, {r: tuple(n) for r, n in adjacency.items()}, chains, boss_rooms


def _count_areas(label: str, areas: dict[str, Area]) -> None:
    if len(areas) != AREA_COUNT:
        raise ContentError(label, "areas", f"there must be exactly {AREA_COUNT} areas (MV-COMP-3), got {len(areas)}")
    for attr, span in (("arcanum", range(22)), ("path", range(11, 33))):
        values = sorted(getattr(a, attr) for a in areas.values())
        if values != list(span):
            raise ContentError(label, "areas", f"each {attr} {span.start}..{span.stop - 1} exactly once, got {values}")


def _validate_areas(label: str, areas: dict[str, Area], refs: _Refs) -> None:
    for key, area in areas.items():
        _check_texts(label, key, area)
        if not area.arcana:
            raise ContentError(label, key, "an Arcana needs at least one op")
        if area.mods.boss_life_delta:
            raise ContentError(label, key, "mods: boss_life_delta is global (ongoing quests), not an area effect")
        _check_mods(label, key, area.mods, "mods")
        _check_ops(label, key, area.arcana, area.arcana_timing, refs, "arcana")


def _count_bosses(label: str, bosses: dict[str, Boss]) -> None:
    if len(bosses) != BOSS_COUNT:
        raise ContentError(label, "bosses", f"there must be exactly {BOSS_COUNT} bosses (MV-COMP-9), got {len(bosses)}")
    finals = [b.id for b in bosses.values() if b.final]
    if len(finals) != 1:
        raise ContentError(label, "bosses", f"exactly one boss must be final (the Mad King Urza), got {finals}")


def _validate_bosses(label: str, bosses: dict[str, Boss], refs: _Refs) -> None:
    for key, boss in bosses.items():
        _check_texts(label, key, boss)
        if boss.life < 1:
            raise ContentError(label, key, "life must be at least 1")
        if boss.tier < 0:
            raise ContentError(label, key, "tier cannot be negative")
        if len(boss.actions) != BOSS_ACTIONS:
            raise ContentError(
                label, key, f"a boss has exactly {BOSS_ACTIONS} actions (MV-COMP-9), got {len(boss.actions)}"
            )
        for i, action in enumerate(boss.actions):
            where = f"actions[{i}]"
            _check_check(label, key, action.required_count, action.slate, where)
            bad = sorted(set(action.mods.active()) - CHECK_MODS)
            if bad:
                raise ContentError(
                    label, key, f"{where}: mods {bad} do not apply to one check; use {sorted(CHECK_MODS)}"
                )
            _check_mods(label, key, action.mods, f"{where}.mods")
            if action.effect is not None:
                _check_effect(label, key, action.effect, refs, f"{where}.effect")


def _check_check(label: str, key: str, required: int, slate: str | None, where: str) -> None:
    if not 1 <= required <= 3:
        raise ContentError(label, key, f"{where}: required_count must be 1..3 (CHG-12), got {required}")
    if required > 1 and slate is not None:
        raise ContentError(label, key, f"{where}: a slate check needs exactly one die (CHG-12): required_count 1")


def _check_mods(label: str, key: str, mods: Mods, where: str) -> None:
    if mods.die_step > 0:
        raise ContentError(label, key, f"{where}: die_step is a hindrance: 0 or negative")
    if mods.rest_heal_cap is not None and mods.rest_heal_cap < 1:
        raise ContentError(label, key, f"{where}: rest_heal_cap must be at least 1")
    if mods.ascension_bonus_fixed is not None and mods.ascension_bonus_fixed < 0:
        raise ContentError(label, key, f"{where}: ascension_bonus_fixed cannot be negative")


def _validate_rooms(label: str, cards: dict[str, RoomCard], refs: _Refs) -> None:
    for key, card in cards.items():
        _check_texts(label, key, card)
        if card.copies < 1:
            raise ContentError(label, key, "copies must be at least 1")
        _check_check(label, key, card.required_count, card.slate, "card")
        if card.event is not None:
            _check_effect(label, key, card.event, refs, "event")


def _validate_quests(label: str, quests: dict[str, Quest], refs: _Refs) -> None:
    numbers: dict[int, str] = {}
    for key, quest in quests.items():
        _check_texts(label, key, quest)
        if quest.number < 0:
            raise ContentError(label, key, "number must be 0 (initial quest) or positive")
        if quest.number and quest.number in numbers:
            raise ContentError(label, key, f"number {quest.number} is also quest {numbers[quest.number]}")
        if quest.number:
            numbers[quest.number] = key
    if not any(q.initial for q in quests.values()):
        raise ContentError(label, "quests", "the quest deck needs at least one initial quest (number 0, MV-SETUP-2)")
    named: set[int] = set()
    for key, quest in quests.items():
        if not quest.ops:
            raise ContentError(label, key, "every quest has an immediate effect (CHG-15): ops cannot be empty")
        _check_ops(label, key, quest.ops, "any", refs, "ops")
        for number in quest.follow_ups:
            if number not in numbers:
                raise ContentError(label, key, f"follow_ups: {number} is not a numbered quest")
            if number == quest.number:
                raise ContentError(label, key, "a quest cannot follow itself")
        named.update(quest.follow_ups)
        named.update(op.number for op in quest.ops if op.number is not None)
        if quest.mods is not None:
            if not quest.ongoing:
                raise ContentError(label, key, "mods apply while the quest stays in play: set ongoing = true")
            _check_mods(label, key, quest.mods, "mods")
    for number, key in numbers.items():
        if number not in named:
            raise ContentError(label, key, f"quest {number} is never added: no follow_ups or add_quest names it")


def _validate_skills(label: str, skills: dict[str, Skill], refs: _Refs) -> None:
    for key, skill in skills.items():
        _check_texts(label, key, skill)
        if not 1 <= len(skill.condition) <= 4:
            raise ContentError(label, key, "a condition has 1..4 symbols (MV-SKILL-3)")
        if skill.copies < 1:
            raise ContentError(label, key, "copies must be at least 1")
        if not skill.ops:
            raise ContentError(label, key, "a skill needs at least one op")
        _check_ops(label, key, skill.ops, skill.timing, refs, "ops")
        if skill.scale < 0:
            raise ContentError(label, key, "scale cannot be negative")
        if skill.scale and not any(isinstance(op.amount, int) or isinstance(op.count, int) for op in skill.ops):
            raise ContentError(label, key, "scale needs an op with an integer amount or count to grow (MV-SKILL-10)")
    if not any(s.deck for s in skills.values()):
        raise ContentError(label, "skills", "the skill deck needs at least one skill with deck = true")


def _validate_familiars(
    label: str, skills_label: str, familiars: dict[str, Familiar], skills: dict[str, Skill]
) -> None:
    if len(familiars) < MIN_FAMILIARS:
        raise ContentError(label, "familiars", f"at least {MIN_FAMILIARS} familiars (one per player, OQ-40)")
    owned: set[str] = set()
    for key, fam in familiars.items():
        _check_texts(label, key, fam)
        if not fam.skills:
            raise ContentError(label, key, "a familiar has at least one initial skill (MV-SETUP-10)")
        for skill_id in (*fam.skills, *([fam.ultimate] if fam.ultimate else [])):
            skill = skills.get(skill_id)
            if skill is None:
                raise ContentError(label, key, f"skill {skill_id!r} is not a skill of skills.toml")
            if skill.deck:
                raise ContentError(label, key, f"skill {skill_id!r} is in the skill deck: set deck = false on it")
            if skill_id in owned:
                raise ContentError(label, key, f"skill {skill_id!r} already belongs to another familiar")
            owned.add(skill_id)
        for skill_id in fam.skills:
            if fam.action not in skills[skill_id].condition:
                raise ContentError(label, key, f"initial skill {skill_id!r} must have {fam.action} in its condition")
    for key, skill in skills.items():
        if not skill.deck and key not in owned:
            raise ContentError(skills_label, key, "deck = false but no familiar has it: it can never be used")


def _validate_actions(label: str, actions: Actions) -> None:
    for field in ("counts", "symbols"):
        missing = [s for s in SYMBOLS if s not in getattr(actions, field)]
        if missing:
            raise ContentError(label, field, f"missing symbols {missing}")
    if any(n < 0 for n in actions.counts.values()):
        raise ContentError(label, "counts", "counts cannot be negative")
    total = sum(actions.counts.values())
    if total != ACTION_CARDS:
        raise ContentError(
            label, "counts", f"the action deck has exactly {ACTION_CARDS} cards (MV-COMP-7), got {total}"
        )
    _check_texts(label, "symbols", actions)


# --------------------------------------------------------------------------------------------
# Loading

_DEFAULT_ROOT: Traversable = resources.files("delve.maiden") / "content"


@functools.cache
def load() -> Content:
    """Load and validate the packaged content (cached).

    :raises ContentError: naming the file, the entry and the reason when anything is broken.
    """
    return _load(_Files(_DEFAULT_ROOT, packaged=True))


def load_from(directory: Path | str | Traversable) -> Content:
    """Load and validate the eight content files of ``directory`` (laid out like ``content/``).

    :raises ContentError: naming the file, the entry and the reason when anything is broken.
    """
    root = Path(directory) if isinstance(directory, str) else directory
    return _load(_Files(root, packaged=False))


def _load(files: _Files) -> Content:
    areas_label, data = files.read("areas.toml")
    areas: dict[str, Area] = _entries(areas_label, data, "areas", Area)
    _count_areas(areas_label, areas)
    bosses_label, data = files.read("bosses.toml")
    bosses: dict[str, Boss] = _entries(bosses_label, data, "bosses", Boss)
    _count_bosses(bosses_label, bosses)
    map_label, data = files.read("map.toml")
    map_data: MapData = _convert(map_label, "(file)", data, MapData)
    rooms, adjacency, chains, boss_rooms = _validate_map(map_label, map_data, areas, bosses)
    quests_label, data = files.read("quests.toml")
    quests: dict[str, Quest] = _entries(quests_label, data, "quests", Quest)
    refs = _Refs(
        rooms=rooms,
        edges=frozenset(frozenset((e.a, e.b)) for e in map_data.edges),
        bosses=frozenset(bosses),
        passages=frozenset(p.id for p in map_data.passages),
        numbers=frozenset(q.number for q in quests.values() if q.number > 0),
    )
    _validate_areas(areas_label, areas, refs)
    _validate_bosses(bosses_label, bosses, refs)
    _validate_quests(quests_label, quests, refs)
    rooms_label, data = files.read("rooms.toml")
    room_cards: dict[str, RoomCard] = _entries(rooms_label, data, "cards", RoomCard)
    _validate_rooms(rooms_label, room_cards, refs)
    skills_label, data = files.read("skills.toml")
    skills: dict[str, Skill] = _entries(skills_label, data, "skills", Skill)
    _validate_skills(skills_label, skills, refs)
    familiars_label, data = files.read("familiars.toml")
    familiars: dict[str, Familiar] = _entries(familiars_label, data, "familiars", Familiar)
    _validate_familiars(familiars_label, skills_label, familiars, skills)
    actions_label, data = files.read("actions.toml")
    actions: Actions = _convert(actions_label, "(file)", data, Actions)
    _validate_actions(actions_label, actions)
    return Content(
        map=map_data,
        rooms=rooms,
        adjacency=adjacency,
        area_rooms=chains,
        boss_rooms=boss_rooms,
        passages={p.id: p for p in map_data.passages},
        areas=areas,
        bosses=bosses,
        room_cards=room_cards,
        quests=quests,
        familiars=familiars,
        skills=skills,
        actions=actions,
    )
