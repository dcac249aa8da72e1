"""Movement (MV-MOVE-1..14): movement points, costs, pass-through, legal destinations.

Moving into an explored room costs 0 (the mod ``explored_pass_cost`` raises it), into an
unexplored room 1 (0 under ``free_pass``). A maiden may pass through unexplored rooms and boss
rooms; she may stop only in an unexplored room or the room of a living boss (MV-MOVE-6). S is
explored and never a destination (MV-MOVE-10).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from delve.maiden import board, skills
from delve.maiden.ctx import Ctx
from delve.maiden.state import Maiden

#: Every room a maiden can reach with her MP: room -> (cost, the ways taken); see :func:`routes`.
Routes = dict[str, tuple[int, list[str]]]


def movement_points(ctx: Ctx, maiden: Maiden) -> int:
    """MV-MOVE-1: Agi + 1; the ``mp_delta`` mod of the area she starts in (min 1 in total) and
    the ``mp`` ops used this turn."""
    base = max(1, maiden.agi + 1 + board.mod_sum(ctx, maiden.room, "mp_delta"))
    return base + ctx.state.turn.mp_bonus


def enterable(ctx: Ctx, maiden: Maiden, room_id: str) -> bool:
    """CHG-16 (``entry_restrictions``): a restricted room is a wall unless her top symbols hold
    the requirement."""
    if not ctx.state.settings.entry_restrictions:
        return True
    need = tuple(getattr(ctx.content.rooms[room_id], "entry_requirement", ()) or ())
    return not need or skills.condition_met(maiden, need)


def _costs(ctx: Ctx, maiden: Maiden, explored: set[str]) -> Callable[[str], int | None]:
    """What moving into a room costs her: into an explored room 0 (the mod ``explored_pass_cost``
    raises it), into an unexplored one 1 (0 under ``free_pass``); ``None``: a wall for her
    (:func:`enterable`). Worked out afresh on each call: :func:`routes` keeps each room's."""
    pass_cost = board.by_area(ctx, board.mod_sum, "explored_pass_cost")
    unexplored = 0 if ctx.state.turn.free_pass else 1

    def cost(room_id: str) -> int | None:
        if not enterable(ctx, maiden, room_id):
            return None
        if room_id in explored:
            return max(0, pass_cost(room_id))
        return unexplored

    return cost


def _passable(ctx: Ctx, explored: set[str]) -> Callable[[str], bool]:
    """Whether a maiden may move on from a room (not only stop in it)."""
    blocking = ctx.state.settings.boss_rooms_block_passage
    stops = board.by_area(ctx, board.mod_flag, "stop_at_first_unexplored")

    def passable(room_id: str) -> bool:
        if blocking and board.living_boss(ctx, room_id) is not None:
            return False  # MV-MOVE-9, OQ-7
        return not (room_id not in explored and stops(room_id))

    return passable


def stoppable(ctx: Ctx, maiden: Maiden, room_id: str) -> bool:
    """MV-MOVE-6/10: unexplored non-start rooms, and rooms of living bosses."""
    state = ctx.state
    if room_id in (maiden.room, ctx.content.start):
        return False
    if board.living_boss(ctx, room_id) is None and board.is_explored(state, room_id, ctx.content.start):
        return False
    crowded = any(m.room == room_id for m in state.maidens if m.seat != maiden.seat)
    return not crowded or not board.mod_flag(ctx, room_id, "one_maiden_per_room")


def routes(ctx: Ctx, maiden: Maiden) -> Routes:
    """Every room she can reach with her MP: room -> (cost, the ways taken: a passage id or ""),
    cheapest route first found (deterministic: ties broken by the content's room order)."""
    mp = movement_points(ctx, maiden)
    base, extra = board.neighbours(ctx, maiden)
    order = _room_order(ctx.content)
    explored = set(ctx.state.explored)
    explored.add(ctx.content.start)
    cost_into = _costs(ctx, maiden, explored)
    passable = _passable(ctx, explored)
    origin = maiden.room
    best: dict[str, tuple[int, list[str]]] = {origin: (0, [])}
    heap: list[tuple[int, int, str]] = [(0, order[origin], origin)]
    pop, push = heapq.heappop, heapq.heappush
    plain = _plain_ways(ctx.content, base)
    costs: dict[str, int | None] = {}  # each room's cost_into, worked out once (-1: not yet)
    while heap:
        cost, _, room_id = pop(heap)
        here, ways = best[room_id]
        if cost > here:
            continue
        if room_id != origin and not passable(room_id):
            continue
        more = extra.get(room_id)
        for nxt, passage in plain[room_id] if not more else [*plain[room_id], *more]:
            step = costs.get(nxt, -1)
            if step == -1:
                step = costs[nxt] = cost_into(nxt)
            if step is None:
                continue
            total = cost + step
            if total > mp:
                continue
            known = best.get(nxt)
            if known is None or total < known[0]:
                best[nxt] = (total, [*ways, passage])
                push(heap, (total, order[nxt], nxt))
    return best


# The ways out of each room by the content's edges, as (neighbour, "") pairs, by content (kept in
# its entry like _ORDER's); with the edges it was made from, which a context reads from the content.
_PLAIN: dict[int, tuple[Any, Mapping[str, Sequence[str]], dict[str, tuple[tuple[str, str], ...]]]] = {}


def _plain_ways(content: Any, base: Mapping[str, Sequence[str]]) -> dict[str, tuple[tuple[str, str], ...]]:
    """The ways out of each room by the content's edges ``base`` (:meth:`Ctx.edges`), as
    :func:`routes` takes them before the extra ways (added edges, hidden passages): made once per
    content and edges, not as a generator per room visited."""
    found = _PLAIN.get(id(content))
    if found is None or found[0] is not content or found[1] is not base:
        pairs = {room_id: tuple((nxt, "") for nxt in rooms) for room_id, rooms in base.items()}
        found = _PLAIN[id(content)] = (content, base, pairs)
    return found[2]


# The content's rooms in order, by content (an immutable object, kept in its entry so that the
# id it is found by is never another content's).
_ORDER: dict[int, tuple[Any, dict[str, int]]] = {}


def _room_order(content: Any) -> dict[str, int]:
    """Each room's place in the content's order (the tie-break of :func:`routes`), made once per
    content."""
    found = _ORDER.get(id(content))
    if found is None or found[0] is not content:
        found = _ORDER[id(content)] = (content, {room_id: i for i, room_id in enumerate(content.rooms)})
    return found[1]


def destinations(ctx: Ctx, maiden: Maiden, found: dict[int, Routes] | None = None) -> list[str]:
    """MV-MOVE-6..11: the rooms she may stop in this movement step (content order). Empty for a
    maiden in a boss fight (MV-MOVE-12). ``found``: the routes known for this state, by seat
    (read, never changed); the routes computed here are put in, for a :func:`move` made from
    the same state to take instead of computing them again."""
    if maiden.boss is not None:
        return []
    reach = None if found is None else found.get(maiden.seat)
    if reach is None:
        reach = routes(ctx, maiden)
        if found is not None:
            found[maiden.seat] = reach
    explored = set(ctx.state.explored)
    # (an explored room without a living boss is never a stop: not asked about)
    return [
        room_id
        for room_id in ctx.content.rooms
        if room_id in reach
        and (room_id not in explored or board.living_boss(ctx, room_id) is not None)
        and stoppable(ctx, maiden, room_id)
    ]


def move(ctx: Ctx, maiden: Maiden, to: str, reach: Routes | None = None) -> None:
    """Move to a legal destination; hidden passages on the way become revealed (SUG-10).
    ``reach``: her :func:`routes` in this state when the caller knows them (read only)."""
    cost, passages = (routes(ctx, maiden) if reach is None else reach)[to]
    for passage in passages:
        if passage and passage not in ctx.state.revealed_passages:
            ctx.state.revealed_passages.append(passage)
            ctx.emit("passage.revealed", passage=passage, seat=maiden.seat)
    origin = maiden.room
    maiden.room = to
    ctx.state.turn.moved = True
    ctx.emit("maiden.moved", seat=maiden.seat, frm=origin, to=to, cost=cost)
