"""Movement (MV-MOVE-1..14): movement points, costs, pass-through, legal destinations.

Moving into an explored room costs 0 (the mod ``explored_pass_cost`` raises it), into an
unexplored room 1 (0 under ``free_pass``). A maiden may pass through unexplored rooms and boss
rooms; she may stop only in an unexplored room or the room of a living boss (MV-MOVE-6). S is
explored and never a destination (MV-MOVE-10).
"""

from __future__ import annotations

import heapq

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


def _cost(ctx: Ctx, room_id: str, explored: bool) -> int:
    if explored:
        return max(0, board.mod_sum(ctx, room_id, "explored_pass_cost"))
    return 0 if ctx.state.turn.free_pass else 1


def _passable(ctx: Ctx, room_id: str, explored: bool) -> bool:
    """Whether a maiden may move on from a room (not only stop in it)."""
    if ctx.state.settings.boss_rooms_block_passage and board.living_boss(ctx, room_id) is not None:
        return False  # MV-MOVE-9, OQ-7
    return not (not explored and board.mod_flag(ctx, room_id, "stop_at_first_unexplored"))


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
    order = {room_id: i for i, room_id in enumerate(ctx.content.rooms)}
    explored = set(ctx.state.explored) | {ctx.content.start}
    costs: dict[str, int | None] = {}  # None: a wall for her

    def cost_into(room_id: str) -> int | None:
        if room_id not in costs:
            costs[room_id] = _cost(ctx, room_id, room_id in explored) if enterable(ctx, maiden, room_id) else None
        return costs[room_id]

    best: dict[str, tuple[int, list[str]]] = {maiden.room: (0, [])}
    heap: list[tuple[int, int, str]] = [(0, order[maiden.room], maiden.room)]
    while heap:
        cost, _, room_id = heapq.heappop(heap)
        if cost > best[room_id][0]:
            continue
        if room_id != maiden.room and not _passable(ctx, room_id, room_id in explored):
            continue
        ways = [(n, "") for n in base[room_id]] + extra.get(room_id, [])
        for nxt, passage in ways:
            step = cost_into(nxt)
            if step is None:
                continue
            total = cost + step
            if total > mp:
                continue
            if nxt not in best or total < best[nxt][0]:
                best[nxt] = (total, best[room_id][1] + [passage])
                heapq.heappush(heap, (total, order[nxt], nxt))
    return best


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
    return [room_id for room_id in ctx.content.rooms if room_id in reach and stoppable(ctx, maiden, room_id)]


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
