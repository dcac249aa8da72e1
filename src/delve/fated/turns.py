"""The turn and its phases (FL-TURN): turn-start events, consuming a stored turn, defense
insertion points, the move/core sequence and the end of a turn.

A turn runs: (turn-start event) -> defense phases for pending items -> move 1 -> defense ->
move 2 -> ... -> core -> end of turn; then the next stored turn at once, or the wait phase.
"""

from __future__ import annotations

from delve.fated import cards, combat, death, monsters, statuses, visibility
from delve.fated.ctx import Ctx
from delve.fated.state import CORE, DEFENSE, MOVE, READY, WAIT, Player


def turn_start_event(ctx: Ctx, player: Player) -> None:
    """FL-TURN-14 (AMB-3): poison, then the status countdown, then the player's monsters act in
    summoning order, then deaths."""
    loss_hp = statuses.poison_loss(ctx, player, "hp_poison")
    loss_cp = statuses.poison_loss(ctx, player, "cp_poison")
    if loss_hp:
        player.hp = max(0, player.hp - loss_hp)
        ctx.private(player.seat, "poison.hp", amount=loss_hp)
    if loss_cp:
        lost = min(player.cp, loss_cp)
        player.cp -= lost
        ctx.private(player.seat, "poison.cp", amount=lost)
    for status_id in statuses.countdown(ctx, player):
        ctx.private(player.seat, "status.expired", status=status_id)
    monsters.activate(ctx, player.seat)
    if player.alive and player.hp == 0:
        # AMB-72: a death check applies; on failure every survivor is credited (FL-KILL-5)
        death.hp_zero(ctx, player, credit=death.CREDIT_ALL, cause="poison")
    visibility.refresh(ctx)


def become_ready(ctx: Ctx, player: Player, at: int) -> None:
    """FL-TURN-7: the wait phase ends at an accumulation instant; the turn-start event fires."""
    player.stored = 1
    player.wait_ended_at = at
    player.phase = READY
    turn_start_event(ctx, player)
    if player.alive:
        ctx.private(player.seat, "turn.ready")


def start_turn(ctx: Ctx, player: Player) -> None:
    """FL-TURN-8, AMB-4: opening the screen while READY consumes one stored turn."""
    player.stored -= 1
    player.capped = False
    begin(ctx, player)


def begin(ctx: Ctx, player: Player) -> None:
    player.turns_played += 1
    player.move_no = 1
    player.moves_total = 0
    player.moved = False
    player.stayed = False
    proceed(ctx, player)


def proceed(ctx: Ctx, player: Player) -> None:
    """Run the player's turn forward from an insertion point: defense phases for pending items
    first (FL-TURN-20/22), then the next move phase, or the core phase after the last."""
    while player.alive and not ctx.state.ended:
        if player.pending:
            player.phase = DEFENSE
            if combat.try_evade(ctx, player, player.pending[0]):
                continue
            return
        if player.move_no == 1 and player.moves_total == 0:
            # FL-TURN-16, AMB-5: M is fixed when move phase 1 begins (+1 with Haste)
            player.moves_total = ctx.state.settings.move_count + (1 if statuses.active(player, "haste", ctx) else 0)
        player.phase = MOVE if player.move_no <= player.moves_total else CORE
        return


def end_move_phase(ctx: Ctx, player: Player) -> None:
    """FL-MOVE-6: after a move phase come the defense phases, then the next phase."""
    player.move_no += 1
    proceed(ctx, player)


def end_turn(ctx: Ctx, player: Player) -> None:
    """FL-TURN-9: after the core phase (or a pass in a move phase), the hand limit applies and
    the next stored turn starts at once (its turn-start event fires now); else the wait phase."""
    cards.enforce_hand_limit(ctx, player)
    player.turn_ended_at = ctx.now
    player.phase = WAIT
    if not player.alive or ctx.state.ended:
        return
    if player.stored > 0:
        player.stored -= 1
        player.capped = False
        player.wait_ended_at = ctx.now  # the skipped wait phase ends now
        turn_start_event(ctx, player)
        if player.alive and not ctx.state.ended:
            begin(ctx, player)
