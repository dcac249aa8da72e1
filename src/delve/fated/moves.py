"""The move phase (FL-MOVE) and everything that changes a player's position."""

from __future__ import annotations

from delve.fated import cards, combat, death, statuses, turns, visibility
from delve.fated.ctx import Ctx
from delve.fated.grid import ICE, step
from delve.fated.state import Player

SLIP = (1, 2)  # 50% (FL-MAP-9)
DISARM = (1, 2)  # 50% (FL-CLS-5)


def relocate(ctx: Ctx, player: Player, tile: int, *, forced: bool = False) -> None:
    """Every change of a player's position goes through here: checkpoint visits (AMB-56),
    pass-by expiry (AMB-9), the Level D forced-move trap cancellation (FL-TRAP-13) and sight."""
    player.pos = tile
    death.visit(ctx, player)
    death.expire_pass_bys(ctx, player.seat)
    if forced and ctx.state.settings.trap_cancel_on_forced_move:
        for item in [i for i in player.pending if i.kind == "trap"]:
            player.pending.remove(item)
            if item.tile is not None:
                visibility.learn_trap(ctx.state, player.seat, item.tile)
            ctx.private(player.seat, "trap.cancelled")
    visibility.refresh_player(ctx, player)


def move(ctx: Ctx, player: Player, direction: str) -> None:
    """FL-MOVE-1/3: move one tile, slip on ice, trigger a trap on the tile finally reached."""
    n = ctx.state.size
    target = step(player.pos, direction, n)
    assert target is not None
    relocate(ctx, player, target)
    floating = statuses.active(player, "float", ctx)
    while ctx.state.grid[player.pos] == ICE and not floating and ctx.rng.chance(*SLIP):
        onward = step(player.pos, direction, n)
        if not ctx.state.enterable(onward):
            break
        assert onward is not None
        relocate(ctx, player, onward)
        ctx.private(player.seat, "move.slipped")
    player.moved = True
    trap = ctx.state.traps.get(player.pos)
    if trap is not None and trap.setter != player.seat and not floating:
        trigger_trap(ctx, player, player.pos)
    turns.end_move_phase(ctx, player)


def trigger_trap(ctx: Ctx, player: Player, tile: int) -> None:
    """FL-TRAP-6: a Thief's 50% disarm check, then the trap evasion check, else a defense phase
    is inserted right after this move phase."""
    state = ctx.state
    trap = state.traps[tile]
    if ctx.content.classes[player.cls].has("disarm") and ctx.rng.chance(*DISARM):
        del state.traps[tile]
        ctx.private(player.seat, "trap.disarmed", card=trap.card)
        return
    if ctx.rng.percent(statuses.evasion(ctx, player)):
        visibility.learn_trap(state, player.seat, tile)
        ctx.private(player.seat, "trap.evaded", card=trap.card)
        return
    card = ctx.content.cards[trap.card]
    item = combat.attack_item(
        ctx,
        kind="trap",
        row=combat.row_for(card, "trap"),
        power=card.power,
        source=trap.setter,
        label="trap",
        card=card,
        use="trap",
        tile=tile,
    )
    combat.queue(ctx, player, item)
    ctx.private(player.seat, "trap.triggered", card=trap.card)


def stay(ctx: Ctx, player: Player) -> None:
    """FL-MOVE-5, AMB-5: skip every remaining move phase; the core phase follows."""
    player.stayed = player.move_no == 1 and not player.moved
    player.move_no = player.moves_total
    turns.end_move_phase(ctx, player)


def swap_with_monster(ctx: Ctx, player: Player, direction: str) -> None:
    """FL-MOVE-4: swap places with an own adjacent monster; no trap, no slip; uses the phase."""
    tile = step(player.pos, direction, ctx.state.size)
    monster = next(m for m in ctx.state.monsters if m.pos == tile and m.owner == player.seat)
    assert tile is not None
    monster.pos = player.pos
    relocate(ctx, player, tile)
    player.moved = True
    turns.end_move_phase(ctx, player)


def pass_turn(ctx: Ctx, player: Player, reward: str, *, core: bool) -> None:
    """FL-MOVE-7, FL-CORE-8: pass for 1 card (2 for a Noble/Merchant) or CP (25, or the
    preset's move-phase value); then the hand limit and the end of the turn."""
    settings = ctx.state.settings
    if reward == "cards":
        count = 2 if ctx.content.classes[player.cls].has("double_pass") else 1
        drawn = cards.draw(ctx, player, count)
        ctx.public("turn.passed", player=player.seat, reward="cards", count=len(drawn))
    else:
        gain = settings.pass_cp_core if core else settings.pass_cp_move
        before = player.cp
        player.cp = min(player.max_cp, player.cp + gain)
        ctx.public("turn.passed", player=player.seat, reward="cp", amount=player.cp - before)
    turns.end_turn(ctx, player)
