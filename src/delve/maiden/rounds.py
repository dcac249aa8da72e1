"""Rounds, turns and the end of the game (MV-ROUND-1..10, MV-ENDT-1..3, MV-END-1..3)."""

from __future__ import annotations

from typing import Any

from delve.maiden import skills
from delve.maiden.ctx import Ctx
from delve.maiden.state import ENDED, ROUND_START, ROUNDS, TURN_START, Turn


def turn_order(players: int, start: int) -> list[int]:
    """MV-ROUND-3/4: solo takes 3 turns in a row; 2 players alternate A, B, A, B; 3-4 players
    take one turn each, clockwise (increasing seat numbers) from the start player."""
    if players == 1:
        return [start] * 3
    clockwise = [(start + k) % players for k in range(players)]
    if players == 2:
        return clockwise * 2
    return clockwise


def base_target(ctx: Ctx) -> int:
    """MV-ROUND-8, OQ-4: the base target number is the number of action markers (the
    ``base_target = round_number`` variant uses the round number)."""
    state = ctx.state
    return state.round if state.settings.base_target == "round_number" else state.action_markers


def start_round(ctx: Ctx) -> None:
    """MV-ROUND-6/7: the round marker moves on; landing on an odd square adds an action marker
    (never removed, MV-ROUND-9). After round 24 the game is over (MV-ROUND-10, MV-END-2)."""
    state = ctx.state
    if state.round >= ROUNDS:
        end_game(ctx, won=False)
        return
    state.round += 1
    if state.round % 2 == 1:
        state.action_markers += 1
    assert state.start_player is not None
    state.order = turn_order(state.settings.players, state.start_player)
    state.turn_index = 0
    state.step = TURN_START
    ctx.emit("round.started", round=state.round, action_markers=state.action_markers, base_target=base_target(ctx))


def end_turn(ctx: Ctx) -> None:
    """MV-ENDT-1..3: reset the once-per-turn counters, pass the turn on; after the last turn of
    the round the next round starts."""
    state = ctx.state
    seat = state.active_seat
    skills.reset_turn(ctx)
    ctx.emit("turn.ended", seat=seat, round=state.round)
    state.check = None
    number = state.turn.number
    state.turn = Turn(number=number)
    state.turn_index += 1
    if state.turn_index >= len(state.order):
        state.step = ROUND_START
    else:
        state.step = TURN_START


def end_game(ctx: Ctx, *, won: bool) -> None:
    """MV-END-1/2, MV-OVER-5: Urza's defeat is a shared win at once; the end of round 24 with
    Urza alive is a shared loss."""
    _stop(ctx, "won" if won else "lost")
    ctx.emit("game.won" if won else "game.lost", round=ctx.state.round, **summary(ctx))


def close_game(ctx: Ctx) -> None:
    """An operator closed the game: it ends now, outside the rules, neither won nor lost (the
    result ``closed``); the decisions that waited are dropped, as at any end. The server tells
    the table why in an event of its own."""
    _stop(ctx, "closed")


def _stop(ctx: Ctx, result: str) -> None:
    """The end of the game: no step, decision or deadline is left."""
    state = ctx.state
    state.step = ENDED
    state.result = result
    state.pending.clear()
    state.levelups.clear()
    state.deadline = None
    state.waiting = []


def summary(ctx: Ctx) -> dict[str, Any]:
    """MV-END-3: rounds used, bosses defeated, areas freed, deaths and the final DL."""
    state = ctx.state
    return {
        "rounds": state.round,
        "bosses_defeated": sum(1 for b in state.bosses.values() if b.defeated),
        "areas_freed": len(state.freed),
        "deaths": sum(m.deaths for m in state.maidens),
        "danger_level": state.danger_level,
        "rooms_explored": len(state.explored),
    }
