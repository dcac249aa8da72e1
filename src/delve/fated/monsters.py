"""Monsters (FL-MON): summoning, and acting at the owner's turn-start event.

Each activation: HP Poison ticks first (AMB-78); a paralysed monster does nothing (FL-MON-21);
otherwise it takes its actions (1, or 1-2 rolled anew, +1 for a Summoner's monster, +1 with
Haste, FL-MON-4). Each action (AMB-41): special behaviours first (``SPECIALS``), then an attack
on an adjacent player other than the owner (which ends its actions, FL-MON-5), else a move.
"""

from __future__ import annotations

from collections.abc import Callable

from delve.fated import combat, statuses
from delve.fated.ctx import Ctx
from delve.fated.grid import DIRECTIONS, OPPOSITE, PASSABLE, step
from delve.fated.state import Monster, Player

#: Special behaviour by monster ``special``: called before the normal action; returns
#: "attacked" (actions end), "acted" (the action is used, continue), or None (act normally).
SPECIALS: dict[str, Callable[[Ctx, Monster], str | None]] = {}


def summon(ctx: Ctx, owner: Player, kind: str, tile: int) -> Monster:
    """FL-MON-1/3/4, AMB-45/46: a Summoner's monster has floor(1.5 x HP) and one more action;
    its heading points away from the summoner."""
    definition = ctx.content.monsters[kind]
    bonus = ctx.content.classes[owner.cls].has("summoner")
    heading = next((d for d in DIRECTIONS if step(owner.pos, d, ctx.state.size) == tile), "up")
    monster = Monster(
        id=ctx.state.new_id(),
        kind=kind,
        owner=owner.seat,
        pos=tile,
        hp=definition.hp * 3 // 2 if bonus else definition.hp,
        attack=definition.attack,
        defense=definition.defense,
        evasion=definition.evasion,
        heading=heading,
        summoner_bonus=bonus,
    )
    ctx.state.monsters.append(monster)
    ctx.public("monster.summoned", owner=owner.seat, monster=kind)
    return monster


def activate(ctx: Ctx, owner: int) -> None:
    """FL-MON-6: the owner's monsters act in summoning order."""
    for monster in [m for m in ctx.state.monsters if m.owner == owner]:
        if ctx.state.ended or ctx.state.monster(monster.id) is None:
            continue
        loss = statuses.poison_loss(ctx, monster, "hp_poison")
        if loss:
            monster.hp -= loss
            if monster.hp <= 0:
                combat.vanish(ctx, monster, reason="poison")
                continue
        act(ctx, monster)


def action_count(ctx: Ctx, monster: Monster) -> int:
    low, high = ctx.content.monsters[monster.kind].actions
    count = ctx.rng.randint(low, high)
    if monster.summoner_bonus:
        count += 1
    if statuses.active(monster, "haste", ctx):
        count += 1
    return count


def act(ctx: Ctx, monster: Monster) -> None:
    if statuses.active(monster, "paralysis", ctx):
        return
    special = ctx.content.monsters[monster.kind].special
    for _ in range(action_count(ctx, monster)):
        if special is not None and special in SPECIALS:
            result = SPECIALS[special](ctx, monster)
            if result == "attacked":
                return
            if result == "acted":
                continue
        target = attack_target(ctx, monster)
        if target is not None:
            attack(ctx, monster, target)
            return
        move(ctx, monster)


def adjacent_targets(ctx: Ctx, monster: Monster) -> list[Player]:
    """Living players other than the owner on the tiles next to the monster (FL-MON-8)."""
    n = ctx.state.size
    around = {j for d in DIRECTIONS if (j := step(monster.pos, d, n)) is not None}
    return [p for p in ctx.state.living() if p.pos in around and p.seat != monster.owner]


def attack_target(ctx: Ctx, monster: Monster) -> Player | None:
    """AMB-40: one adjacent non-owner player chosen at random; Stealth does not protect."""
    targets = adjacent_targets(ctx, monster)
    return ctx.rng.choice(targets) if targets else None


def attack(ctx: Ctx, monster: Monster, target: Player) -> None:
    """FL-MON-19: a normal attack with the monster's base attack, pending for the target; kill
    credit goes to the owner."""
    item = combat.attack_item(
        ctx, row="dmg_adjacent", power=monster.attack, source=monster.owner, label="monster", monster=monster
    )
    combat.queue(ctx, target, item)
    ctx.public("monster.attack", owner=monster.owner, monster=monster.kind, target=target.seat)


def can_enter(ctx: Ctx, tile: int | None) -> bool:
    """Monsters walk on any passable tile without effect; never onto a character (FL-MON-9/10/11)."""
    return tile is not None and ctx.state.grid[tile] in PASSABLE and ctx.state.occupant(tile) is None


def move(ctx: Ctx, monster: Monster) -> None:
    """AMB-39: keep going; at a fork pick at random; never turn back unless it is the only way;
    stay when boxed in (FL-MON-12). The heading becomes the direction moved."""
    n = ctx.state.size
    options = [d for d in DIRECTIONS if can_enter(ctx, step(monster.pos, d, n))]
    forward = [d for d in options if d != OPPOSITE[monster.heading]]
    if forward:
        direction = forward[0] if len(forward) == 1 else ctx.rng.choice(forward)
    elif options:
        direction = options[0]
    else:
        return
    target = step(monster.pos, direction, n)
    assert target is not None
    monster.pos = target
    monster.heading = direction
