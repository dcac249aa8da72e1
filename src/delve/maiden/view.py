"""What a seat (or a spectator) sees, built by allow-list (contract "View").

The game is cooperative and everything on the table is public, so every seat sees the same
table; hidden from everyone: the order of every deck (counts only), undrawn cards, the numbered
quests set aside (count only), the RNG, and hidden passages not yet revealed (a maiden whose
Ins lets her use a passage sees it: she has discovered it). ``legal`` and ``you`` are the
viewer's own. The recent events (``log``) are not built here: the state keeps no copy of them,
and whoever shows a view fills them in from the events (``journal.py``: the server from its event
table, an in-process driver from what the engine returned).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache, lru_cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from delve.kernel.lasting import Lasting
from delve.maiden import board, bosses, checks, commands, dice, movement, rounds, rules_text
from delve.maiden.ctx import Ctx
from delve.maiden.state import AWAITING, MOVE, ROUNDS, STATS, Game, Maiden

if TYPE_CHECKING:
    from delve.maiden.odds import Plan, Variant

_encode = msgspec.json.Encoder().encode

LOG_SHOWN = 30
"""How many of the newest public events a view's ``log`` shows (``journal.py``)."""


def phase(state: Game) -> str:
    """The contract's phase names: setup, move, pre_roll, post_roll, levelup, ended (and
    ``room`` while the active maiden draws her room card)."""
    if state.ended:
        return "ended"
    if state.step == "setup":
        return "setup"
    if state.step in AWAITING:
        return state.step
    if state.step == "levelup" or any(d.kind in {"place_card", "agi_option"} for d in state.pending):
        return "levelup"
    return "room"


def build(ctx: Ctx, seat: int | None) -> dict[str, Any]:
    return build_many(ctx, [seat])[0]


def build_many(
    ctx: Ctx,
    seats: Sequence[int | None],
    *,
    lasting: bool = False,
    legal: Callable[[int], list[dict[str, Any]]] | None = None,
    routes: dict[int, movement.Routes] | None = None,
) -> list[dict[str, Any]]:
    """The views of ``seats`` (``None``: a spectator), each equal to :func:`build` of that seat.
    The table is the same for every seat, so it is built once and its parts are shared by the
    views (to be read, not changed); each seat adds its ``map`` (the passages it knows), ``you``
    and ``legal``.

    ``lasting``: the areas, Arcana, bosses and the map's rooms, edges and passages are taken from memos of this
    content's parts (:class:`~delve.kernel.lasting.Lasting`), built again only when what they are
    built from changed; such parts are shared with the views of other states and games, so only
    callers that never change a view ask for them (the ``views`` hook). ``legal``: a seat's legal
    commands (by default ``commands.legal_commands``). ``routes``: the movement routes known for
    this state, by seat (see :func:`movement.destinations`): the boss checks and the legal
    commands share them, so the active maiden's routes are found once."""
    state = ctx.state
    routes = {} if routes is None else routes
    content = ctx.content
    active = state.active
    parts = _parts_of(content) if lasting else None
    head = {
        "game": "maiden",
        "round": state.round,
        "rounds": ROUNDS,
        "action_markers": state.action_markers,
        "base_target": rounds.base_target(ctx),
        "danger_level": state.danger_level,
        "phase": phase(state),
        "active_seat": state.active_seat,
        # the last turn of round 24 ends the game with the turn index past the order: it stays on that turn
        "turn_in_round": min(state.turn_index, len(state.order) - 1) + 1 if state.order else 0,
        "turns_per_round": len(rounds.turn_order(state.settings.players, 0)),
        "start_player": state.start_player,
        "deadline": state.deadline,
    }
    if parts is None:
        areas = _areas(content, state.freed)
        arcana = _arcana(content, state.arcana)
        bosses = _bosses(ctx)
    else:
        freed = tuple(state.freed)
        areas = parts.areas.get(freed, lambda: _areas(content, freed))
        arcana_ids = tuple(state.arcana)
        arcana = parts.arcana.get(arcana_ids, lambda: _arcana(content, arcana_ids))
        each = parts.boss
        bosses = parts.bosses.get(_bosses_key(state), lambda: _bosses(ctx, each))
    middle = {
        "areas": areas,
        "arcana": arcana,
        "bosses": bosses,
        "maidens": [_maiden(ctx, m) for m in state.maidens],
        "decks": {
            "action": {"count": len(state.decks.action), "discard": list(state.decks.action_discard)},
            "skill": {"count": len(state.decks.skill), "discard": list(state.decks.skill_discard)},
            "room": {"count": len(state.decks.room), "discard": list(state.decks.room_discard)},
            "quest": {
                "count": len(state.decks.quest),
                "discard": list(state.decks.quest_discard),
                "aside": len(state.decks.quests_aside),
            },
        },
        "quest_area": list(state.quest_area),
        "sephirot": state.sephirot,
        "check": _check(ctx, active),
        "boss_checks": _boss_checks(ctx, active, routes),
        "pending": [_pending(ctx, d) for d in state.pending[:1]],
    }
    tail = {
        "ended": state.ended,
        "result": state.result,
        "summary": rounds.summary(ctx) if state.ended else None,
    }
    maps = _Maps(ctx, parts)
    legal_of = legal or (lambda seat: commands.legal_commands(ctx, seat, routes))
    return [
        {
            **head,
            "map": maps.of(seat),
            **middle,
            "you": seat,
            "legal": legal_of(seat) if seat is not None else [],
            **tail,
        }
        for seat in seats
    ]


class _Parts:
    """The memos of one content's lasting view parts, each part by what it is built from, and
    what its rooms show that no game changes (:func:`_room_rows`)."""

    def __init__(self, content: Any) -> None:
        self.areas: Lasting[list[dict[str, Any]]] = Lasting(64)
        self.arcana: Lasting[list[dict[str, Any]]] = Lasting(64)
        self.bosses: Lasting[list[dict[str, Any]]] = Lasting(128)
        # One boss's entry by its state: a boss whose state did not change keeps its entry when
        # another boss's life or pointer moves (the bosses' list is built again then).
        self.boss: Lasting[dict[str, Any]] = Lasting(128)
        self.rooms: Lasting[list[dict[str, Any]]] = Lasting(64)
        # The rooms' entries (held, so that the rooms' list is encoded from their encodings; room
        # for several maps' worth, and an entry forgotten is held again when its rooms are built
        # again), and the rooms last built, from which the next rooms are built (_rooms_again).
        self.room: Lasting[dict[str, Any]] = Lasting(512)
        self.last_rooms: _RoomsBuilt | None = None
        self.edges: Lasting[list[list[str]]] = Lasting(32)
        self.passages: Lasting[list[dict[str, Any]]] = Lasting(64)
        self.room_rows = _room_rows(content)
        self.room_index = {row[0]: i for i, row in enumerate(self.room_rows)}


# Content objects are immutable and few (the shipped content, tests' own): each entry keeps its
# content, so the id it is found by is never another content's.
_PARTS: dict[int, tuple[Any, _Parts]] = {}


def _parts_of(content: Any) -> _Parts:
    found = _PARTS.get(id(content))
    if found is None or found[0] is not content:
        found = _PARTS[id(content)] = (content, _Parts(content))
    return found[1]


def _areas(content: Any, freed_ids: Sequence[str]) -> list[dict[str, Any]]:
    freed = set(freed_ids)
    return [
        {
            "id": a.id,
            "name": dict(a.name),
            "freed": a.id in freed,
            "effect_text": dict(a.effect_text),
            "mods": None if a.id in freed else _mods(a.mods),
        }
        for a in content.areas.values()
    ]


def _arcana(content: Any, area_ids: Sequence[str]) -> list[dict[str, Any]]:
    return [
        {
            "area": area_id,
            "name": dict(content.areas[area_id].name),
            "text": dict(content.areas[area_id].arcana_text),
            "timing": content.areas[area_id].arcana_timing,
        }
        for area_id in area_ids
    ]


def _bosses(ctx: Ctx, each: Lasting[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every boss's entry; with ``each``, an entry is taken from that memo by the boss and its
    state (all an entry is built from besides the content)."""
    if each is None:
        return [_boss(ctx, boss_id) for boss_id in ctx.content.bosses]
    states = ctx.state.bosses
    return [
        each.get((boss_id, _encode(states[boss_id])), partial(_boss, ctx, boss_id)) for boss_id in ctx.content.bosses
    ]


def _bosses_key(state: Game) -> bytes:
    """What the bosses' part is built from besides the content: every boss's state."""
    return _encode(state.bosses)


def _options(kind: str, options: list[Any]) -> list[Any]:
    # keep_card candidates are drawn cards shown to the table (MV-DECK-5 makes the rest public).
    return list(options)


def _pending(ctx: Ctx, d: Any) -> dict[str, Any]:
    """The head decision as every seat sees it; an effect's choice also says where the effect
    comes from (``source``: "quest:<id>", "skill:<id>", "arcana:<area>"...) and which effect
    waits for it (``effect``: the op's name), so that a screen can name the card and what choosing
    does; a room card drawn for a check says the rules in force for that check (``room_check``)."""
    out = {"seat": d.seat, "kind": d.kind, "options": _options(d.kind, d.options), "data": _decision_data(d.data)}
    if d.source:
        out["source"] = d.source
    if d.ops and isinstance(d.ops[0], dict) and d.ops[0].get("op"):
        out["effect"] = str(d.ops[0]["op"])
    if d.kind == "keep_card" and d.data.get("deck") == "room":  # a room card is drawn for a check only
        out["room_check"] = _room_check(ctx, ctx.state.maidens[d.seat])
    return out


#: The mods a room card's check counts besides the danger level and the failure damage, which
#: :func:`_room_check` gives as the numbers they make.
ROOM_CHECK_MODS = (
    "difficulty_delta",
    "default_slate",
    "die_step",
    "no_white_dice",
    "no_ascension",
    "ascension_bonus_fixed",
    "slate_per_die_delta",
    "reroll_highest",
)


def _room_check(ctx: Ctx, maiden: Maiden) -> dict[str, Any]:
    """What the check against a room card drawn by ``maiden`` will count besides the card, as the
    engine counts it once she keeps one (``checks.start_room_check``: in her room, no boss action
    in force): the mods in force there, the danger level with their ``dl_delta``, and the failure
    damage they add (``checks.failure_delta``: none with a partner in the area under The Lovers).
    The screen's odds of each card offered read them."""
    room = maiden.room
    return {
        "mods": board.mods_in_force(ctx, room, ROOM_CHECK_MODS),
        "danger_level": ctx.state.danger_level + board.mod_sum(ctx, room, "dl_delta"),
        "failure_damage_delta": checks.failure_delta(ctx, maiden, room),
    }


def _decision_data(data: dict[str, Any]) -> dict[str, Any]:
    allowed = {"deck", "purpose", "why", "card", "for", "area", "skill"}
    return {k: v for k, v in data.items() if k in allowed}


def _mods(mods: Any) -> dict[str, Any]:
    if mods is None:
        return {}
    if isinstance(mods, dict):
        return {k: v for k, v in mods.items() if v}
    return {k: v for k in getattr(mods, "__struct_fields__", ()) if (v := getattr(mods, k))}


class _Maps:
    """The map as each seat sees it: the rooms and edges are everyone's (built once); the hidden
    passages shown depend on the viewer's Ins (a maiden who can use a passage has found it).
    With ``parts``, the rooms, edges and passages are lasting parts."""

    def __init__(self, ctx: Ctx, parts: _Parts | None = None) -> None:
        self.ctx = ctx
        self.parts = parts
        state = ctx.state
        self.revealed = tuple(state.revealed_passages)
        self.passages: dict[int | None, list[dict[str, Any]]] = {}  # by the viewer's Ins
        if parts is None:
            self.rooms = _rooms(ctx, _room_rows(ctx.content))
            self.edges = _edges(ctx.content, state.extra_edges)
            return
        types_key = _types_key(state)
        rooms_key = (tuple(state.explored), tuple((m.room, m.seat) for m in state.maidens), types_key)
        self.rooms = parts.rooms.get(rooms_key, lambda: _rooms_again(ctx, parts, types_key))
        edges_key = tuple(tuple(e) for e in state.extra_edges)
        self.edges = parts.edges.get(edges_key, lambda: _edges(ctx.content, state.extra_edges))

    def of(self, seat: int | None) -> dict[str, Any]:
        ins = self.ctx.state.maidens[seat].ins if seat is not None else None
        passages = self.passages.get(ins)
        if passages is None:
            if self.parts is None:
                passages = _passages(self.ctx.content, self.revealed, ins)
            else:
                passages = self.parts.passages.get(
                    (self.revealed, ins), lambda: _passages(self.ctx.content, self.revealed, ins)
                )
            self.passages[ins] = passages
        return _map(self.ctx.content, self.rooms, self.edges, passages)


def _map(content: Any, rooms: Any, edges: Any, passages: Any) -> dict[str, Any]:
    return {"start": content.start, "rooms": rooms, "edges": edges, "passages": passages}


def _room_rows(content: Any) -> list[tuple[Any, ...]]:
    """What each room of ``content`` shows that no game changes: its id, area, the type it always
    plays as (``None`` for a boss or special room, whose type a game's state decides; see
    :func:`~delve.maiden.board.room_type`), position, boss and entry requirement."""
    return [
        (
            r.id,
            r.area,
            None if r.type == "boss" or r.type in board.SPECIAL else r.type,
            r.x,
            r.y,
            r.boss,
            tuple(getattr(r, "entry_requirement", ()) or ()),
        )
        for r in content.rooms.values()
    ]


def _types_key(state: Game) -> tuple[Any, ...]:
    """What the rooms' types are built from besides the content (see
    :func:`~delve.maiden.board.room_type`; of the bosses only which are defeated), and the
    settings (which also say whether entry requirements are shown)."""
    return (
        tuple(state.room_types.items()),
        tuple(boss_id for boss_id, boss in state.bosses.items() if boss.defeated),
        state.settings,
    )


def _room_types(ctx: Ctx, rows: list[tuple[Any, ...]]) -> list[str]:
    """The type each room plays as now: its own unless the state changed it (``room_types``),
    as in :func:`~delve.maiden.board.room_type`, which decides the boss and special rooms."""
    changed = ctx.state.room_types
    return [board.room_type(ctx, row[0]) if row[2] is None else changed.get(row[0], row[2]) for row in rows]


def _room_inputs(ctx: Ctx) -> tuple[set[str], dict[str, list[int]], bool]:
    """The explored rooms, the seats in each room and whether entry requirements are shown."""
    state = ctx.state
    explored = set(state.explored)
    explored.add(ctx.content.start)
    here: dict[str, list[int]] = {}
    for m in state.maidens:
        here.setdefault(m.room, []).append(m.seat)
    return explored, here, state.settings.entry_restrictions


def _room(row: tuple[Any, ...], kind: str, explored: bool, here: Sequence[int], restricted: bool) -> dict[str, Any]:
    room_id, area, _, x, y, boss, requirement = row
    return {
        "id": room_id,
        "area": area,
        "type": kind,
        "x": x,
        "y": y,
        "explored": explored,
        "boss": boss,
        "maidens": list(here),
        "entry_requirement": list(requirement) if restricted else [],
    }


def _rooms(ctx: Ctx, rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """The rooms as they stand (``rows``: :func:`_room_rows` of the content)."""
    explored, here, restricted = _room_inputs(ctx)
    types = _room_types(ctx, rows)
    return [
        _room(row, kind, row[0] in explored, here.get(row[0], ()), restricted)
        for row, kind in zip(rows, types, strict=True)
    ]


class _RoomsBuilt(NamedTuple):
    """Rooms built for the lasting parts, and all they were built from besides the content."""

    types_key: tuple[Any, ...]
    types: list[str]
    explored: set[str]
    here: dict[str, list[int]]
    restricted: bool
    entries: list[dict[str, Any]]


def _rooms_again(ctx: Ctx, parts: _Parts, types_key: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The rooms as :func:`_rooms` builds them, built from the rooms last built for this content
    (by any game): a room whose type, explored flag and maidens are as they were then keeps its
    entry; only the others are built again (a move changes two rooms of the map). ``types_key``:
    :func:`_types_key` of the state."""
    rows = parts.room_rows
    explored, here, restricted = _room_inputs(ctx)
    last = parts.last_rooms
    types = last.types if last is not None and last.types_key == types_key else _room_types(ctx, rows)
    if last is None or last.restricted != restricted:
        entries = [
            _room(row, kind, row[0] in explored, here.get(row[0], ()), restricted)
            for row, kind in zip(rows, types, strict=True)
        ]
    else:
        changed = explored ^ last.explored
        changed.update(
            room_id for room_id in here.keys() | last.here.keys() if here.get(room_id) != last.here.get(room_id)
        )
        if types is not last.types:
            changed.update(row[0] for row, now, then in zip(rows, types, last.types, strict=True) if now != then)
        entries = list(last.entries)
        for room_id in changed:
            i = parts.room_index.get(room_id)
            if i is not None:
                entries[i] = _room(rows[i], types[i], room_id in explored, here.get(room_id, ()), restricted)
    parts.room.hold_all(entries)
    parts.last_rooms = _RoomsBuilt(types_key, types, explored, here, restricted, entries)
    return entries


def _edges(content: Any, extra_edges: Sequence[Sequence[str]]) -> list[list[str]]:
    return [[e.a, e.b] for e in content.edges] + [list(e) for e in extra_edges]


def _passages(content: Any, revealed_ids: Sequence[str], ins: int | None) -> list[dict[str, Any]]:
    revealed = set(revealed_ids)
    return [
        {"id": p.id, "a": p.a, "b": p.b, "revealed": p.id in revealed}
        for p in content.passages.values()
        if p.id in revealed or (ins is not None and ins >= p.min_ins)
    ]


def _boss(ctx: Ctx, boss_id: str) -> dict[str, Any]:
    boss = ctx.content.bosses[boss_id]
    st = ctx.state.bosses[boss_id]
    return {
        "id": boss_id,
        "name": dict(boss.name),
        "sephirah": dict(boss.sephirah),
        "life": int(boss.life),
        "life_left": st.life if st.engaged else None,
        "life_max": st.life_max if st.engaged else None,
        "engaged": st.engaged,
        "defeated": st.defeated,
        "pointer": st.pointer if st.engaged else None,
        "disabled": list(st.disabled),
        "final": bool(boss.final),
        "actions": [
            {
                "name": dict(a.name),
                "difficulty": a.difficulty,
                "slate": a.slate,
                "required_count": getattr(a, "required_count", 1),
                "effect": dict(a.effect.text) if getattr(a, "effect", None) is not None else None,
                "on": a.effect.on if getattr(a, "effect", None) is not None else None,  # MV-EVENT-2
                # its extra rules for the check against it (MV-BOSS-10; rules_text says them)
                "mods": rules_text.given(getattr(a, "mods", None)),
            }
            for a in boss.actions
        ],
    }


def _maiden(ctx: Ctx, m: Maiden) -> dict[str, Any]:
    return {
        "seat": m.seat,
        "name": m.name,
        "room": m.room,
        "life": m.life,
        "life_max": m.life_max,
        "stats": {s: list(m.stats[s]) for s in STATS},
        "levels": {s: m.level(s) for s in STATS},
        "top_symbols": m.top_symbols(),
        "die": dice.die_size(m.wil),
        "pool": 3 + m.pie,
        "mp": movement.movement_points(ctx, m) if ctx.state.active_seat == m.seat else max(1, m.agi + 1),
        "skills": [
            {"id": s.id, "level": s.level, "exhausted": s.exhausted, "used_this_turn": s.used} for s in m.skills
        ],
        "familiars": list(m.familiars),
        "boss": m.boss,
        "deaths": m.deaths,
        "extra_draw": m.extra_draw,
    }


def _check(ctx: Ctx, active: Maiden | None) -> dict[str, Any] | None:
    check = ctx.state.check
    if check is None or active is None:
        return None
    out: dict[str, Any] = {
        "kind": check.kind,
        "source": check.source,
        "action": check.action if check.kind == "boss" else None,
        "target": check.target,
        "slate": check.slate,
        "required": check.required,
        "dice": [
            {"colour": d.colour, "size": d.size, "face": d.face, "removed": d.removed, "bonus": d.bonus}
            for d in check.dice
        ],
        "rolled": check.rolled,
        "ascensions": check.ascensions,
        "boost_left": check.boost_left,
        "skills_used": list(check.skills_used),
        "result": check.result,
        "ap": checks.current_ap(ctx, active) if check.rolled else None,
        "best_ap": _best_ap(ctx, active) if check.rolled and check.result is None else None,
        "suggestion": _suggestion(ctx, active) if check.rolled and check.result is None else None,
        # What the screen's exact odds need before the roll (die size and white dice after skills,
        # Arcana and mods; the ascension bonus after mods; whether the slate is ignored).
        "size": check.size or checks.natural_size(ctx, active, check),
        "white": checks.white_dice(ctx, active, check),
        "bonus": checks.bonus(ctx, active),
        "slate_ignored": check.ignore_slate,
        "no_ascension": board.mod_flag(ctx, check.room, "no_ascension"),
        # What the odds of a skill or Arcana that changes the check need: the die size it gives
        # (die_bonus_size: Wil + size_bonus, stepped by the mods, unless a size was chosen),
        # whether white dice are rolled at all, and whether success is already certain.
        "size_bonus": check.size_bonus,
        "die_step": board.mod_sum(ctx, check.room, "die_step"),
        "size_chosen": bool(check.size),
        "no_white_dice": board.mod_flag(ctx, check.room, "no_white_dice"),
        "auto_success": check.auto_success,
        # What the expected damage needs of the mods in force (an area's, a boss action's: the
        # danger level they make, failure damage and slate damage per die added), and the
        # automatic reroll of the highest die, which the odds before the roll do not count.
        "danger_level": ctx.state.danger_level + board.mod_sum(ctx, check.room, "dl_delta"),
        "failure_damage_delta": checks.failure_delta(ctx, active, check.room),
        "slate_per_die_delta": board.mod_sum(ctx, check.room, "slate_per_die_delta"),
        "reroll_highest": board.mod_flag(ctx, check.room, "reroll_highest"),
    }
    return out


def _boss_checks(
    ctx: Ctx, active: Maiden | None, routes: dict[int, movement.Routes] | None = None
) -> dict[str, dict[str, Any]]:
    """While the active maiden chooses where to move (and fights no boss): for the room of every
    boss not defeated that she may move to now, the fight she would walk into there (MV-BOSS-2, MV-CHECK-16): ``boss``,
    its ``life`` and ``life_max`` (as its setup would make them when nobody fought it yet,
    MV-SPEC-4), ``action`` (the index of its next action) and ``check``, the check against that
    action as the ``check`` field would show it once started, for the odds of the move buttons."""
    state = ctx.state
    if active is None or state.step != MOVE or state.check is not None or active.boss is not None:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for room_id in movement.destinations(ctx, active, routes):  # the move buttons: nothing else is shown
        boss_id = board.living_boss(ctx, room_id)
        if boss_id is None:
            continue
        st = state.bosses[boss_id]
        if st.engaged:
            pointer, life, life_max = st.pointer, st.life, st.life_max
        else:  # as bosses.engage sets it up
            life = life_max = bosses.setup_life(ctx, boss_id)
            pointer = bosses.first_enabled(st, 0)
        check = checks.boss_check(ctx, room_id, boss_id, pointer)
        state.check = check
        try:
            panel = _check(ctx, active)
        finally:
            state.check = None
        out[room_id] = {"boss": boss_id, "life": life, "life_max": life_max, "action": pointer, "check": panel}
    return out


def _suggestion(ctx: Ctx, maiden: Maiden) -> dict[str, Any] | None:
    """MV-ASC-9: the best-ascension suggestion (pairs to remove, resulting AP, success, slate
    damage) from ``odds.best_plan``, when no mod or bonus outside the odds' model is in play."""
    check = ctx.state.check
    assert check is not None
    settings = ctx.state.settings
    if (
        settings.multi_die_checks
        or settings.pie_mode == "boost"
        or any(d.bonus for d in check.dice)
        or board.mod_value(ctx, check.room, "ascension_bonus_fixed") is not None
        or board.mod_flag(ctx, check.room, "no_ascension")
        or any(n % 2 for n in Counter(d.face for d in check.dice if d.removed).values())
    ):
        return None  # (odd removed faces: a near_pair, which the odds model does not know)
    slate = check.slate if dice.slate_index(check) is not None else None
    plan = _best_plan(
        tuple((d.colour, d.face or 1) for d in check.dice),
        maiden.pie,
        slate,
        max(1, check.target - check.ap_bonus),
        maiden.agi + check.ignore_slate_dice,
        settings.ascension_bonus,
        tuple(i for i, d in enumerate(check.dice) if d.removed),
    )
    return {
        "pairs": [list(p) for p in plan.pairs],
        "ap": plan.ap + check.ap_bonus,
        "success": plan.success or check.auto_success,
        "slate_damage": plan.slate_damage,
    }


@lru_cache(maxsize=1024)
def _best_plan(
    pool: tuple[tuple[str, int], ...],
    pie: int,
    slate: str | None,
    target: int,
    agi: int,
    ascension_bonus: str,
    removed: tuple[int, ...],
) -> Plan:
    """``odds.best_plan`` of a check situation (the arguments are all it reads), kept for the
    situations seen last: a view of the same check, built again for another audience, request
    or state whose check did not change (a skill or Arcana used), takes the plan from here. A
    plan is immutable (tuples in a frozen dataclass), so sharing it is safe."""
    from delve.maiden import odds

    return odds.best_plan(
        pool,
        pie,
        slate=slate,  # type: ignore[arg-type]
        target=target,
        agi=agi,
        variant=_variant(ascension_bonus),
        removed=removed,
    )


@cache
def _variant(ascension_bonus: str) -> Variant:
    """The odds' variant of a game's ascension bonus (built once: a variant is immutable)."""
    from delve.maiden import odds

    return odds.Variant(ascension_bonus=ascension_bonus)  # type: ignore[arg-type]


def _best_ap(ctx: Ctx, maiden: Maiden) -> int | None:
    """MV-ASC-9: the best AP ascension could reach from the current dice (a suggestion)."""
    check = ctx.state.check
    assert check is not None
    if ctx.state.settings.multi_die_checks:
        return None
    slate = dice.slate_index(check)
    faces = [dice.value(check.dice[i]) for i in dice.remaining(check) if i != slate]
    bonus = checks.bonus(ctx, maiden)
    base = check.ascensions * bonus + check.ap_bonus
    if slate is not None:
        return base + dice.best_ap(faces, bonus, dice.value(check.dice[slate]))
    return base + dice.best_ap(faces, bonus)
