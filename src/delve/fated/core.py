"""The core phase commands (FL-CORE) other than playing a card (see ``play.py``).

Each core command is the turn's one core action (AMB-7); the turn then ends (FL-TURN-9)."""

from __future__ import annotations

from delve.fated import cards, combat, death, effects, moves, turns
from delve.fated.ctx import Ctx
from delve.fated.grid import DOOR, EXIT, FAKE_EXIT, FAKE_TREASURE, FLOOR, TREASURE, WALL, step
from delve.fated.state import Monster, Pending, Player
from delve.fated.visibility import learn_fake, perceived

FAKE_STATUSES = ("hp_poison", "cp_poison", "stripped", "sluggish", "fool", "blind", "exposed")


def finish(ctx: Ctx, player: Player) -> None:
    """End of the core phase: the hand limit, then the end of the turn (FL-CARD-10)."""
    turns.end_turn(ctx, player)


def neighbour(ctx: Ctx, player: Player, direction: str) -> int | None:
    return step(player.pos, direction, ctx.state.size)


def attack(ctx: Ctx, player: Player, direction: str) -> None:
    """FL-CORE-2: a normal attack on the adjacent player (pending for their defense phase),
    enemy monster or door (both resolved at once)."""
    tile = neighbour(ctx, player, direction)
    assert tile is not None
    target = ctx.state.occupant(tile)
    if isinstance(target, Player):
        item = combat.attack_item(ctx, row="dmg_adjacent", power=player.attack, source=player.seat, label="normal")
        combat.queue(ctx, target, item)
        ctx.public("attack.normal", attacker=player.seat, target=target.seat)
    elif isinstance(target, Monster):
        ctx.public("attack.normal", attacker=player.seat, monster=target.kind, owner=target.owner)
        combat.hit_monster(ctx, player.seat, target, player.attack, None, label="normal")
    else:
        combat.hit_door(ctx, player.seat, tile, player.attack)
    finish(ctx, player)


def pass_by(ctx: Ctx, player: Player, direction: str) -> None:
    """FL-CORE-3, AMB-9/10: request to swap places with an adjacent player; a newer request
    replaces the requester's older one."""
    tile = neighbour(ctx, player, direction)
    target = ctx.state.occupant(tile) if tile is not None else None
    assert isinstance(target, Player)
    for other in ctx.state.players:
        other.pending = [i for i in other.pending if not (i.kind == "pass_by" and i.source == player.seat)]
    item = Pending(
        id=ctx.state.new_id(),
        kind="pass_by",
        created=ctx.now,
        source=player.seat,
        label="pass_by",
        tile=player.pos,
        target_tile=target.pos,
    )
    combat.queue(ctx, target, item)
    ctx.public("pass_by.requested", requester=player.seat, target=target.seat)
    finish(ctx, player)


def answer_pass_by(ctx: Ctx, player: Player, item: Pending, accept: bool) -> None:
    """FL-DEF-4/5: accept (swap places; no trap, no slip) or refuse the request."""
    player.pending.remove(item)
    requester = ctx.state.players[item.source] if item.source is not None else None
    valid = requester is not None and requester.alive and requester.pos == item.tile and player.pos == item.target_tile
    if not accept or not valid or requester is None:
        ctx.public(
            "pass_by.declined" if accept is False else "pass_by.cancelled", requester=item.source, target=player.seat
        )
        return
    mine, theirs = player.pos, requester.pos
    requester.pos = -1
    moves.relocate(ctx, player, theirs)
    moves.relocate(ctx, requester, mine)
    ctx.public("pass_by.accepted", requester=requester.seat, target=player.seat)


def shows(ctx: Ctx, player: Player, terrain: str) -> bool:
    """Whether the player's own tile looks like ``terrain`` (TREASURE or EXIT) to them."""
    return perceived(ctx.state, player.seat, player.pos) == terrain


def fall_for_fake(ctx: Ctx, player: Player) -> None:
    """FL-FAKE-3..7, AMB-68/69: a random minus status, undefendable; the fake stays and the
    player knows it from now on."""
    status = ctx.rng.choice(FAKE_STATUSES)
    effects.gain_status(ctx, player, status)
    learn_fake(ctx.state, player.seat, player.pos)
    ctx.public("fake.fell", player=player.seat)


def pick_up(ctx: Ctx, player: Player) -> None:
    """FL-CORE-4: take the treasure on the own tile, or fall for a fake one."""
    state = ctx.state
    if state.grid[player.pos] == FAKE_TREASURE:
        fall_for_fake(ctx, player)
    else:
        assert state.grid[player.pos] == TREASURE
        state.set_tile(player.pos, FLOOR)
        player.treasures += 1
        ctx.public("treasure.found", player=player.seat)
        death.update_exit(ctx)
    finish(ctx, player)


def escape(ctx: Ctx, player: Player) -> None:
    """FL-CORE-5: a qualifying player on a real exit wins; a fake exit is a fake."""
    if ctx.state.grid[player.pos] == FAKE_EXIT:
        fall_for_fake(ctx, player)
        finish(ctx, player)
        return
    assert ctx.state.grid[player.pos] == EXIT
    death.escape(ctx, player)


def do_nothing(ctx: Ctx, player: Player) -> None:
    """FL-CORE-6."""
    finish(ctx, player)


def draw(ctx: Ctx, player: Player) -> None:
    """FL-CORE-7: draw one card when holding 3 or fewer."""
    cards.draw(ctx, player, 1)
    ctx.public("card.drawn", player=player.seat)
    finish(ctx, player)


def jump(ctx: Ctx, player: Player, direction: str) -> None:
    """FL-CORE-10, AMB-12: pay 20 CP and land two tiles away over any character; no trap, no
    slip; the landing tile's checkpoint is visited."""
    n = ctx.state.size
    middle = step(player.pos, direction, n)
    assert middle is not None
    landing = step(middle, direction, n)
    assert landing is not None
    player.cp -= combat.ABILITY_CP
    moves.relocate(ctx, player, landing)
    ctx.public("jump", player=player.seat)
    finish(ctx, player)


def jump_landing(ctx: Ctx, player: Player, direction: str) -> int | None:
    n = ctx.state.size
    middle = step(player.pos, direction, n)
    if middle is None or ctx.state.grid[middle] in {DOOR, WALL}:
        return None
    landing = step(middle, direction, n)
    return landing if ctx.state.enterable(landing) else None


def steal(ctx: Ctx, player: Player, direction: str) -> None:
    """FL-CORE-9, AMB-29: pay 20 CP; a steal item waits for the target's defense phase."""
    tile = neighbour(ctx, player, direction)
    target = ctx.state.occupant(tile) if tile is not None else None
    assert isinstance(target, Player)
    player.cp -= combat.ABILITY_CP
    item = combat.attack_item(ctx, kind="steal", row="sp_adjacent", power=0, source=player.seat, label="steal")
    combat.queue(ctx, target, item)
    ctx.public("steal.attempted", thief=player.seat, target=target.seat)
    finish(ctx, player)
