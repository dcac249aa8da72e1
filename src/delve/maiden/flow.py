"""The flow of the game: ``proceed`` runs the automatic steps until a player must decide
(a pending decision, or the active maiden's move / pre_roll / post_roll window).

Turn (MV-TURN-1/2): turn_start -> move (not in a boss fight) -> entering (explore, free an area,
entry effect) -> room phase (check or boss fight; skipped at rest rooms) -> after_check (discard)
-> level-ups for defeated bosses -> end of turn.
"""

from __future__ import annotations

from delve.maiden import board, bosses, checks, death, decks, levelup, rounds, skills
from delve.maiden.ctx import Ctx
from delve.maiden.state import (
    AFTER_CHECK,
    AWAITING,
    END_TURN,
    LEVELUP,
    MOVE,
    ROOM,
    ROUND_START,
    SETUP,
    TURN_START,
    Decision,
    Maiden,
)

ROOM_DRAW = "room_draw"
_MAX_STEPS = 100_000


def proceed(ctx: Ctx) -> None:
    """Run automatic steps until a decision or a command of the active seat is needed."""
    from delve.maiden import setup

    state = ctx.state
    for _ in range(_MAX_STEPS):
        if state.ended or state.pending or state.step in AWAITING:
            return
        step = state.step
        if step == SETUP:
            setup.advance(ctx)
        elif step == ROUND_START:
            rounds.start_round(ctx)
        elif step == TURN_START:
            start_turn(ctx)
        elif step == ROOM:
            room_phase(ctx)
        elif step == AFTER_CHECK:
            checks.finish(ctx)
            levelup.queue_defeats(ctx)
        elif step == LEVELUP:
            levelup.next_levelup(ctx)
        elif step == END_TURN:
            rounds.end_turn(ctx)
        else:  # pragma: no cover - ROOM_DRAW always has its keep_card decision pending
            raise RuntimeError(f"flow stuck at step {step!r}")
    raise RuntimeError("flow did not settle")  # pragma: no cover


def start_turn(ctx: Ctx) -> None:
    """MV-TURN-1/2: a maiden in a boss fight goes straight to the room phase."""
    state = ctx.state
    maiden = state.active
    assert maiden is not None
    state.turn.number += 1
    ctx.emit("turn.started", seat=maiden.seat, round=state.round, turn=state.turn_index + 1, room=maiden.room)
    state.step = ROOM if maiden.boss is not None else MOVE


def stay(ctx: Ctx, maiden: Maiden) -> None:
    """MV-MOVE-11: no legal destination: she stays, enters nothing, and skips the room phase."""
    ctx.state.turn.skip_room = True
    ctx.state.step = ROOM
    ctx.emit("maiden.stayed", seat=maiden.seat, room=maiden.room)


def enter(ctx: Ctx, maiden: Maiden) -> None:
    """MV-MOVE-5, MV-EXPL-1..3/6: the room is entered and explored; its area may be freed; then
    the entry effect of its type (MV-SPEC-1..8)."""
    state = ctx.state
    room_id = maiden.room
    kind = board.room_type(ctx, room_id)
    state.turn.entered = room_id
    state.step = ROOM
    newly = room_id not in state.explored
    if newly:
        state.explored.append(room_id)
    ctx.emit("maiden.entered", seat=maiden.seat, room=room_id, type=kind, explored=newly)
    area = ctx.content.rooms[room_id].area
    if (
        newly
        and area is not None
        and area not in state.freed
        and all(r in state.explored for r in board.area_rooms(ctx, area))
    ):
        free_area(ctx, maiden, area)
    if kind == "rest":
        cap = board.mod_value(ctx, room_id, "rest_heal_cap")
        death.heal(ctx, maiden, maiden.life_max, cause="rest", cap=None if cap is None else int(cap))
        if not board.mod_flag(ctx, room_id, "rest_no_refresh"):
            skills.refresh(ctx, maiden, cause="rest")
        state.turn.skip_room = True
    elif kind == "danger":
        state.danger_level += 1  # MV-SPEC-2, uncapped (MV-SPEC-9)
        ctx.emit("danger.changed", danger_level=state.danger_level, delta=1, cause="danger_room")
        entry_damage = state.settings.danger_room_entry_damage == "danger_level"  # CHG-9b
        if entry_damage and death.damage(ctx, maiden, state.danger_level, cause="danger_room"):
            state.turn.skip_room = True
        if state.settings.danger_room_skips_check:
            state.turn.skip_room = True
    elif kind == "quest":
        if state.settings.quest_room_skips_check:
            state.turn.skip_room = True
        decks.draw(ctx, maiden, "quest", "quest", source=f"room:{room_id}")
    elif kind == "boss":
        boss_id = ctx.content.rooms[room_id].boss
        bosses.engage(ctx, maiden, str(boss_id))


def free_area(ctx: Ctx, maiden: Maiden, area: str) -> None:
    """MV-EXPL-2/3: the area card leaves the map and becomes an Arcana in the quest area; its
    effect ends. With ``familiar_evolution`` (CHG-20) the entering maiden may instead spend it
    on her familiar's ultimate skill."""
    state = ctx.state
    state.freed.append(area)
    ctx.emit("area.freed", area=area, seat=maiden.seat)
    ultimate = evolution_skill(ctx, maiden)
    if state.settings.familiar_evolution and ultimate is not None:
        state.pending.append(
            Decision(
                kind="choose",
                seat=maiden.seat,
                options=["pool", "evolve"],
                data={"for": "evolve", "area": area, "skill": ultimate},
            )
        )
        return
    state.arcana.append(area)
    ctx.emit("arcana.gained", area=area)


def evolution_skill(ctx: Ctx, maiden: Maiden) -> str | None:
    for familiar_id in maiden.familiars:
        ultimate = getattr(ctx.content.familiars[familiar_id], "ultimate", None)
        if ultimate and maiden.skill(ultimate) is None:
            return str(ultimate)
    return None


def evolve_or_pool(ctx: Ctx, maiden: Maiden, data: dict[str, object], option: str) -> None:
    area = str(data["area"])
    if option == "evolve":
        ctx.state.arcana_used.append(area)
        skills.add(ctx, maiden, str(data["skill"]), cause="evolution")
        ctx.emit("familiar.evolved", seat=maiden.seat, area=area, skill=data["skill"])
    else:
        ctx.state.arcana.append(area)
        ctx.emit("arcana.gained", area=area)


def room_phase(ctx: Ctx) -> None:
    """MV-CHECK-1/2, MV-SPEC-6, MV-BOSS-1: a boss fight in a living boss's room, a room check
    elsewhere (a room card drawn, Ins applies), nothing after a rest room or no move."""
    state = ctx.state
    maiden = state.active
    assert maiden is not None
    if state.turn.skip_room or maiden.room == ctx.content.start:
        levelup.queue_defeats(ctx)
        return
    if maiden.boss is not None:
        checks.start_boss_check(ctx, maiden, maiden.boss)
        return
    state.step = ROOM_DRAW
    decks.draw(ctx, maiden, "room", "check")


def waiting_seats(ctx: Ctx) -> list[int]:
    """Who must act now: the head decision's seat (all seats for an open choice), or the
    active seat in its move / check windows."""
    state = ctx.state
    if state.ended:
        return []
    if state.pending:
        seat = state.pending[0].seat
        return list(range(state.settings.players)) if seat is None else [seat]
    if state.step in AWAITING and state.active_seat is not None:
        return [state.active_seat]
    return []


def update_clock(ctx: Ctx) -> None:
    """The turn clock: a new deadline whenever the waiting seats change or a new turn starts (a
    solo player's three turns in a row get one deadline each)."""
    state = ctx.state
    waiting = waiting_seats(ctx)
    hours = state.settings.turn_deadline_hours
    if waiting != state.waiting or state.turn.number != state.waiting_turn:
        state.waiting = waiting
        state.waiting_turn = state.turn.number
        state.deadline = ctx.now + hours * 3600 if hours > 0 and waiting else None
