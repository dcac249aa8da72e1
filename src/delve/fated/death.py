"""Death, kill credit, the exit and victory (FL-DEATH, FL-KILL, FL-EXIT, FL-WIN); abandonment
(FL-ABN) resolves waiting items first and is in ``defense.py``."""

from __future__ import annotations

from delve.fated import combat, visibility
from delve.fated.ctx import Ctx
from delve.fated.grid import EXIT, FLOOR, ICE, TREASURE, corners
from delve.fated.state import BOTTOM_LEFT, BOTTOM_RIGHT, DEAD, TOP_LEFT, TOP_RIGHT, Player

#: Kill credit that goes to every surviving player (FL-KILL-4, -5, -7).
CREDIT_ALL = -1
#: Nobody is credited (abandonment, FL-KILL-6).
CREDIT_NONE = -2

DEATH_CHECK_SUCCESS = (1, 4)  # 25% (FL-DEATH-1)
REVIVED_HP = 10  # FL-DEATH-2


# ---------------------------------------------------------------- victory conditions


def qualifies(ctx: Ctx, player: Player) -> bool:
    """FL-WIN-1 (A) or FL-WIN-2 (B)."""
    s = ctx.state.settings
    if not player.alive or player.treasures < s.treasure_quota:
        return False
    v = player.visited
    if v == TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT:
        return True  # condition B
    diagonal = (v & TOP_LEFT and v & BOTTOM_RIGHT) or (v & TOP_RIGHT and v & BOTTOM_LEFT)
    return bool(diagonal) and player.kills >= s.kill_quota  # condition A


def visit(ctx: Ctx, player: Player) -> None:
    """AMB-56: a checkpoint is visited when the player's position becomes a corner, by any means."""
    tiles = corners(ctx.state.size)
    if player.pos not in tiles:
        return
    for bit, corner in zip((TOP_LEFT, TOP_RIGHT, BOTTOM_LEFT, BOTTOM_RIGHT), tiles, strict=True):
        if player.pos == corner and not player.visited & bit:
            player.visited |= bit
            ctx.private(player.seat, "checkpoint.visited", corner=bit)
            update_exit(ctx)


def update_exit(ctx: Ctx) -> None:
    """FL-EXIT-1/3/4/5: the exit appears when anyone qualifies (at a random eligible tile other
    than the previous exit, AMB-52) and disappears when nobody does any more."""
    state = ctx.state
    if state.ended:
        return
    anyone = any(qualifies(ctx, p) for p in state.living())
    if anyone and state.exit is None:
        occupied = {p.pos for p in state.living()} | {m.pos for m in state.monsters}
        eligible = [
            i
            for i, terrain in enumerate(state.grid)
            if terrain == FLOOR and i not in state.traps and i not in occupied and i != state.last_exit
        ]
        if not eligible:
            return
        tile = ctx.rng.choice(eligible)
        state.set_tile(tile, EXIT)
        state.exit = tile
        for player in state.players:  # nothing is seen since the exit appeared (visibility.py)
            player.seen_since_exit = "0" * len(state.grid) if player.alive else ""
        ctx.public("exit.appeared")
    elif not anyone and state.exit is not None:
        state.set_tile(state.exit, FLOOR)
        state.last_exit = state.exit
        state.exit = None
        for player in state.players:
            player.seen_since_exit = ""
        ctx.public("exit.disappeared")


# ---------------------------------------------------------------- treasures


def _place_treasure(ctx: Ctx, tile: int) -> None:
    state = ctx.state
    state.traps.pop(tile, None)  # a trap or ice under a landing treasure disappears (FL-DEATH-4.3)
    state.set_tile(tile, TREASURE)


def fling_treasure(ctx: Ctx) -> int | None:
    """Put a treasure on a random normal-floor or frozen tile with no treasure, exit, fake,
    checkpoint or character (AMB-48)."""
    state = ctx.state
    occupied = {p.pos for p in state.living()} | {m.pos for m in state.monsters}
    eligible = [i for i, t in enumerate(state.grid) if t in (FLOOR, ICE) and i not in occupied]
    if not eligible:
        return None
    tile = ctx.rng.choice(eligible)
    _place_treasure(ctx, tile)
    return tile


def drop_treasures(ctx: Ctx, player: Player) -> None:
    """FL-DEATH-4.2: the first treasure drops where the player stood if that tile is floor or
    ice; any other (and any that finds an item there) is flung to a random place."""
    state = ctx.state
    for _ in range(player.treasures):
        if state.grid[player.pos] in (FLOOR, ICE):
            _place_treasure(ctx, player.pos)
        else:
            fling_treasure(ctx)
    player.treasures = 0


# ---------------------------------------------------------------- death


def hp_zero(ctx: Ctx, player: Player, *, credit: int | None, cause: str) -> None:
    """FL-DEATH-1..3: HP reached 0: 25% rise from the brink with 10 HP, else death."""
    if not player.alive or player.hp > 0:
        return
    if ctx.rng.chance(*DEATH_CHECK_SUCCESS):
        player.hp = REVIVED_HP
        ctx.public("death.survived", player=player.seat)
        return
    die(ctx, player, credit=credit, cause=cause)


def die(ctx: Ctx, player: Player, *, credit: int | None, cause: str, fate: str = "died") -> None:
    """FL-DEATH-4..6: the player leaves the game."""
    state = ctx.state
    player.alive = False
    player.phase = DEAD
    player.fate = fate
    player.died_at = ctx.now
    state.removed.extend(player.hand)  # removed from the game (FL-CARD-11)
    player.hand = []
    drop_treasures(ctx, player)
    credited = _credit(ctx, player, credit)
    for monster in [m for m in state.monsters if m.owner == player.seat]:
        combat.vanish(ctx, monster, reason="owner_died")
    player.pending = []  # items aimed at the dead player are void
    expire_pass_bys(ctx, player.seat)
    ctx.public("player.died", player=player.seat, cause=cause, credited=credited, fate=fate)
    visibility.refresh(ctx)
    update_exit(ctx)
    check_last_survivor(ctx)


def _credit(ctx: Ctx, victim: Player, credit: int | None) -> list[int]:
    """FL-KILL-1..7: who gets the kill. A seat; CREDIT_ALL; CREDIT_NONE. A credited player who is
    dead or is the victim turns into "every survivor" (FL-KILL-4, AMB-49)."""
    state = ctx.state
    if credit == CREDIT_NONE:
        return []
    if credit is None or credit in (CREDIT_ALL, victim.seat) or not state.players[credit].alive:
        credited = [p.seat for p in state.living()]
    else:
        credited = [credit]
    for seat in credited:
        state.players[seat].kills += 1
    return credited


def expire_pass_bys(ctx: Ctx, seat: int) -> None:
    """AMB-9: pass-by requests involving a player whose position changed (or who died) expire."""
    for player in ctx.state.players:
        if not player.pending:
            continue
        keep = []
        for item in player.pending:
            if item.kind == "pass_by" and seat in (item.source, player.seat):
                ctx.public("pass_by.cancelled", requester=item.source, target=player.seat)
                continue
            keep.append(item)
        player.pending = keep


def check_last_survivor(ctx: Ctx) -> None:
    """FL-WIN-6, AMB-51: exactly one player alive wins at once; nobody alive ends the game with
    no winner."""
    state = ctx.state
    if state.ended:
        return
    living = state.living()
    if len(living) == 1:
        living[0].fate = "survived"
        end_game(ctx, winner=living[0].seat, kind="survivor")
    elif not living:
        end_game(ctx, winner=None, kind="none")


def end_game(ctx: Ctx, *, winner: int | None, kind: str) -> None:
    """FL-OVR-6, FL-WIN-7: the game ends; every other player loses; all clocks stop."""
    state = ctx.state
    state.ended = True
    state.ended_at = ctx.now
    state.winner = winner
    state.win_kind = kind
    ctx.public("game.ended", winner=winner, kind=kind)


def escape(ctx: Ctx, player: Player) -> None:
    """FL-WIN-5: a qualifying player escapes through the real exit and wins."""
    player.fate = "escaped"
    ctx.public("game.escaped", player=player.seat)
    end_game(ctx, winner=player.seat, kind="escape")
