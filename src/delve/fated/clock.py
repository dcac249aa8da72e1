"""The real-time turn clock (FL-TURN-3..14, FL-ABN-2): accumulation instants on a fixed
per-player grid, the stored-turn cap, turn-start events and abandonment deadlines.

``advance(ctx, until)`` processes every due instant up to ``until`` in chronological order
across all players (ties by player number, AMB-77). It never reads the clock and is idempotent.
"""

from __future__ import annotations

from delve.fated import defense, turns, visibility
from delve.fated.ctx import Ctx
from delve.fated.state import WAIT, GameState, Player

ACCUMULATE, ABANDON = 0, 1


def accumulation_at(state: GameState, player: Player, k: int) -> int:
    """T_k = t0 + r + k * W (FL-TURN-5)."""
    return player.first_at + k * state.settings.wait_time


def abandon_deadline(state: GameState, player: Player) -> int | None:
    """AMB-50: max(last action, end of the last wait phase) + abandon_time, only outside the
    wait phase."""
    if not player.alive or player.phase == WAIT:
        return None
    last, ended = player.last_action_at, player.wait_ended_at  # the later of the two (max() is a slow call)
    return (last if last > ended else ended) + state.settings.abandon_time


def _due(state: GameState, skip: tuple[int, int] | None = None) -> tuple[int, int, int] | None:
    """The earliest (time, seat, what) still to process (ignoring ``skip`` = (seat, what)):
    each living player's next accumulation instant (:func:`accumulation_at`) and, outside the
    wait phase, its abandonment deadline (:func:`abandon_deadline`), written out inline."""
    best: tuple[int, int, int] | None = None
    best_at = 0
    wait, abandon = state.settings.wait_time, state.settings.abandon_time
    # Candidates come in (seat, what) order, so a later one is earlier only when its time is.
    for player in state.players:
        if not player.alive:
            continue
        seat = player.seat
        at = player.first_at + player.acc_next * wait
        if (best is None or at < best_at) and (skip is None or skip != (seat, ACCUMULATE)):
            best, best_at = (at, seat, ACCUMULATE), at
        if player.phase != WAIT:
            last, ended = player.last_action_at, player.wait_ended_at  # max() is a slow call
            at = (last if last > ended else ended) + abandon
            if (best is None or at < best_at) and (skip is None or skip != (seat, ABANDON)):
                best, best_at = (at, seat, ABANDON), at
    return best


def next_due(state: GameState) -> int | None:
    if state.ended:
        return None
    due = _due(state)
    return None if due is None else due[0]


def advance(ctx: Ctx, until: int) -> None:
    state = ctx.state
    while not state.ended:
        due = _due(state)
        if due is None or due[0] > until:
            break
        at, seat, what = due
        player = state.players[seat]
        ctx.now = at
        if what == ACCUMULATE:
            _accumulate(ctx, player, at, until)
        else:
            defense.abandon(ctx, player, reason="timeout")
        visibility.refresh(ctx)
    ctx.now = until
    if until > state.clock:  # noqa: PLR1730 (the clock never goes back; max() is a slow call, and mostly nothing is written)
        state.clock = until


def _accumulate(ctx: Ctx, player: Player, at: int, until: int) -> None:
    state = ctx.state
    player.acc_next += 1
    if player.phase == WAIT:
        turns.become_ready(ctx, player, at)
        return
    cap = state.settings.max_stored_turns
    if player.stored < cap:
        player.stored += 1
        return
    # FL-TURN-6: over the cap the accumulation is lost and the grid goes on. Further instants
    # are lost too until something else happens (only the player's own command lowers the
    # count), so skip them up to the next other due event. The result does not depend on how
    # ``advance`` calls are split, which replay needs.
    horizon = until
    other = _due(state, skip=(player.seat, ACCUMULATE))
    if other is not None:
        horizon = min(horizon, other[0] - 1)
    next_at = accumulation_at(state, player, player.acc_next)
    skipped = (horizon - next_at) // state.settings.wait_time + 1 if horizon >= next_at else 0
    player.acc_next += skipped
    player.lost_turns += 1 + skipped
    if not player.capped:
        player.capped = True
        ctx.private(player.seat, "turn.lost")
