"""Playing a card in the core phase (FL-CORE-1, FL-USE): pay CP, discard the card, create its
effect, draw a replacement (AMB-20: the used card is discarded before the draw).

Attack cards (damage, special attack) are used 《罠》 on the own tile, 《隣接》 on an adjacent
player, enemy monster or (damage cards) door, or 《遠隔》 on any other living player not under
Stealth. Other cards run their effect list (``effects.OPS``) on their target.
"""

from __future__ import annotations

from typing import Any

from delve.fated import cards, combat, effects
from delve.fated.content import CardDef
from delve.fated.ctx import Ctx
from delve.fated.grid import DIRECTIONS, DOOR, FLOOR, step
from delve.fated.state import Monster, Player, Trap


def trap_allowed(ctx: Ctx, player: Player) -> bool:
    """FL-TRAP-10, AMB-71: only on normal floor (which may already hold a trap)."""
    return ctx.state.grid[player.pos] == FLOOR and player.pos not in ctx.state.fakes


def adjacent_targets(ctx: Ctx, player: Player, card: CardDef | None) -> list[str]:
    """Directions with a valid 《隣接》 (or normal attack) target: another player, a monster not
    owned by the player, or a door (normal attacks and damage cards only) (AMB-13)."""
    out = []
    for direction in DIRECTIONS:
        tile = step(player.pos, direction, ctx.state.size)
        if tile is None:
            continue
        occupant = ctx.state.occupant(tile)
        if (
            isinstance(occupant, Player)
            or (isinstance(occupant, Monster) and occupant.owner != player.seat)
            or (occupant is None and ctx.state.grid[tile] == DOOR and (card is None or card.category == "damage"))
        ):
            out.append(direction)
    return out


def remote_targets(ctx: Ctx, player: Player) -> list[int]:
    """FL-USE-4, FL-STS-18: every other living player not under Stealth."""
    return effects.designatable(ctx, player)


def legal_uses(ctx: Ctx, player: Player, card_id: int) -> list[dict[str, Any]]:
    """Every legal way to play this card now: one command per use and target of an attack
    card, and one per target of a card's effects (both for a special attack / utility card)."""
    card = ctx.card(card_id)
    if card.category == "defense":
        return []  # defense cards only in the defense phase (FL-CARD-2)
    commands: list[dict[str, Any]] = []
    price = cards.cp_prices(ctx, player)
    for use, cost in card.uses.items():
        if price(cost) > player.cp:
            continue  # FL-CP-4: more than the current CP cannot be paid; equal can
        base = {"kind": "use_card", "card": card_id, "use": use}
        if use == "trap":
            if trap_allowed(ctx, player):
                commands.append(base)
        elif use == "adjacent":
            commands.extend({**base, "dir": d} for d in adjacent_targets(ctx, player, card))
        else:
            commands.extend({**base, "target": seat} for seat in remote_targets(ctx, player))
    if card.has_effects and price(card.cost) <= player.cp:
        commands.extend(
            {"kind": "use_card", "card": card_id, **target} for target in effects.card_targets(ctx, player, card)
        )
    return commands


def use_card(ctx: Ctx, player: Player, command: dict[str, Any]) -> None:
    """FL-CORE-1: pay CP, discard the card (FL-CARD-6, also for traps), create its effect, then
    draw the replacement (FL-CARD-7; AMB-20: the used card is already on the discard pile)."""
    card_id: int = command["card"]
    card = ctx.card(card_id)
    use: str | None = command.get("use")
    player.cp -= cards.cp_cost(ctx, player, card.use_cost(use))
    cards.discard(ctx, player, card_id)
    if use is not None:
        _attack_card(ctx, player, card, use, command)
    else:
        effects.run_card(ctx, player, card, command)
    if player.alive:
        cards.draw(ctx, player, 1)  # the refill (FL-CARD-7)


def _attack_card(ctx: Ctx, player: Player, card: CardDef, use: str, command: dict[str, Any]) -> None:
    state = ctx.state
    row = combat.row_for(card, use)
    if use == "trap":
        # FL-TRAP-9: a new trap replaces the old one; logged without naming the card (FL-INFO-4)
        state.traps[player.pos] = Trap(card=card.id, setter=player.seat)
        ctx.public("card.used_on_own_tile", player=player.seat)
        ctx.private(player.seat, "trap.set", card=card.id)
        return
    if use == "remote":
        target = state.players[command["target"]]
        item = combat.attack_item(ctx, row=row, power=card.power, source=player.seat, label=use, card=card, use=use)
        combat.queue(ctx, target, item)
        ctx.public("card.used", player=player.seat, card=card.id, use=use, target=target.seat)
        return
    tile = step(player.pos, command["dir"], state.size)
    assert tile is not None
    power = card.power + player.attack if card.category == "damage" else 0  # FL-USE-3
    occupant = state.occupant(tile)
    if isinstance(occupant, Player):
        item = combat.attack_item(ctx, row=row, power=power, source=player.seat, label=use, card=card, use=use)
        combat.queue(ctx, occupant, item)
        ctx.public("card.used", player=player.seat, card=card.id, use=use, target=occupant.seat)
    elif isinstance(occupant, Monster):
        ctx.public("card.used", player=player.seat, card=card.id, use=use, monster=occupant.kind, owner=occupant.owner)
        combat.hit_monster(ctx, player.seat, occupant, power, card.special, label=use, amount=card.amount)
    else:
        ctx.public("card.used", player=player.seat, card=card.id, use=use, door=True)
        combat.hit_door(ctx, player.seat, tile, power)
