"""The map as it stands in a game: effective room types (difficulty, player count, quests and
defeated bosses change them), adjacency (edges, added edges, hidden passages) and the passive
modifiers (MODS) that apply in a room (MV-EXPL-8)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from delve.maiden.content import Mods
from delve.maiden.ctx import Ctx
from delve.maiden.state import Game, Maiden

T = TypeVar("T")

SPECIAL = frozenset({"rest", "quest", "danger"})


def room_type(ctx: Ctx, room_id: str) -> str:
    """The type a room plays as now (CHG-13 flags, the ``room_type`` op, MV-BOSS-9)."""
    state, room = ctx.state, ctx.content.rooms[room_id]
    if room_id in state.room_types:
        return state.room_types[room_id]
    kind: str = room.type
    if kind == "boss":
        boss = state.bosses.get(room.boss)
        return "normal" if boss is not None and boss.defeated else "boss"
    if kind in SPECIAL:
        settings = state.settings
        if kind == "rest" and settings.difficulty == "normal" and not getattr(room, "normal_active", True):
            return "normal"
        counts = tuple(getattr(room, "active_player_counts", ()) or ())
        if settings.room_reduction_2p_4p and counts and settings.players not in counts:
            return "normal"
    return kind


def living_boss(ctx: Ctx, room_id: str) -> str | None:
    """The boss of a boss room whose boss is not defeated, else None."""
    room = ctx.content.rooms[room_id]
    if room.type != "boss" or room.boss is None:
        return None
    boss = ctx.state.bosses.get(room.boss)
    return None if boss is None or boss.defeated else str(room.boss)


def is_explored(state: Game, room_id: str, start: str) -> bool:
    return room_id == start or room_id in state.explored


def neighbours(ctx: Ctx, maiden: Maiden) -> tuple[Mapping[str, Sequence[str]], dict[str, list[tuple[str, str]]]]:
    """The map as this maiden can move on it: the content's edges, and the extra ways
    room -> [(neighbour, passage id or "")]: edges added by effects, and hidden passages she may
    use (revealed, or her Ins >= the passage's min_ins; SUG-10)."""
    extra: dict[str, list[tuple[str, str]]] = {}
    for a, b in ctx.state.extra_edges:
        extra.setdefault(a, []).append((b, ""))
        extra.setdefault(b, []).append((a, ""))
    for passage in ctx.content.passages.values():
        if passage.id in ctx.state.revealed_passages or maiden.ins >= passage.min_ins:
            extra.setdefault(passage.a, []).append((passage.b, passage.id))
            extra.setdefault(passage.b, []).append((passage.a, passage.id))
    return ctx.edges(), extra


def area_rooms(ctx: Ctx, area_id: str) -> list[str]:
    """The non-boss rooms of an area (MV-EXPL-2)."""
    return [r.id for r in ctx.content.rooms.values() if r.area == area_id and r.type != "boss"]


# -- MODS ----------------------------------------------------------------------------------


def get_mod(mods: Any, key: str) -> Any:
    if mods is None:
        return None
    if isinstance(mods, dict):
        return mods.get(key)
    return getattr(mods, key, None)


def active_mods(ctx: Ctx, room_id: str | None) -> Iterator[Any]:
    """The mods in force at a room: its area's while the area is not freed (MV-EXPL-8), the mods
    of the boss action a check in that room is made against (check-scoped), and the global mods
    of ongoing quests in the quest area (MV-QUEST-3). They depend on the room only through its
    area, but in the room of a boss check: :func:`by_area` reads them once per area on that."""
    if room_id is not None:
        area = ctx.content.rooms[room_id].area
        if area is not None and area not in ctx.state.freed:
            yield ctx.content.areas[area].mods
        check = ctx.state.check
        if check is not None and check.kind == "boss" and check.room == room_id:
            yield getattr(ctx.content.bosses[check.source].actions[check.action], "mods", None)
    for quest_id in ctx.state.quest_area:
        quest = ctx.content.quests[quest_id]
        if getattr(quest, "mods", None) is not None:
            yield quest.mods


def mod_sum(ctx: Ctx, room_id: str | None, key: str) -> int:
    return sum(int(v) for m in active_mods(ctx, room_id) if (v := get_mod(m, key)))


def mod_flag(ctx: Ctx, room_id: str | None, key: str) -> bool:
    return any(bool(get_mod(m, key)) for m in active_mods(ctx, room_id))


#: Each mod's default, which says how it combines: false a flag, 0 an integer, None a value.
_MOD_DEFAULTS = {f.name: f.default for f in msgspec.structs.fields(Mods)}


def mods_in_force(ctx: Ctx, room_id: str | None, keys: Iterable[str]) -> dict[str, Any]:
    """The mods of ``keys`` in force at a room, each combined as the rules combine it (contract
    "Combining MODS": :func:`mod_sum` for an integer, :func:`mod_flag` for a flag,
    :func:`mod_value` for a valued mod); only those set (a flag true, an integer not 0, a
    value given)."""
    out: dict[str, Any] = {}
    for key in keys:
        default = _MOD_DEFAULTS[key]
        value: Any
        if default is False:
            value = mod_flag(ctx, room_id, key) or None
        elif default == 0:
            value = mod_sum(ctx, room_id, key) or None
        else:
            value = mod_value(ctx, room_id, key)
        if value is not None:
            out[key] = value
    return out


def by_area(ctx: Ctx, read: Callable[[Ctx, str | None, str], T], key: str) -> Callable[[str], T]:
    """``read(ctx, room, key)`` (:func:`mod_sum`, :func:`mod_flag`) for many rooms of a state
    that does not change meanwhile, read once per area: the mods in force at a room
    (:func:`active_mods`) depend on the room only through its area, except in the room of a
    boss check (the action's own mods), which is read on its own."""
    check = ctx.state.check
    scoped = check.room if check is not None and check.kind == "boss" else None
    rooms = ctx.content.rooms
    found: dict[Any, T] = {}

    def of(room_id: str) -> T:
        if room_id == scoped:
            return read(ctx, room_id, key)
        area = rooms[room_id].area
        if area in found:
            return found[area]
        value = found[area] = read(ctx, room_id, key)
        return value

    return of


#: Mods whose values do not add up: the smallest value given wins (contract "Combining MODS").
_SMALLEST = frozenset({"rest_heal_cap", "ascension_bonus_fixed"})


def mod_value(ctx: Ctx, room_id: str | None, key: str) -> Any:
    """A valued mod: the smallest of ``rest_heal_cap`` / ``ascension_bonus_fixed`` given, the
    first ``default_slate`` given (area before quest); None when none is set."""
    values = [v for m in active_mods(ctx, room_id) if (v := get_mod(m, key)) is not None and v is not False]
    if not values:
        return None
    return min(values) if key in _SMALLEST else values[0]
