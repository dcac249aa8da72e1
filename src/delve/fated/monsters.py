"""Monsters (FL-MON): summoning, and acting at the owner's turn-start event.

Each activation (FL-MON-6, AMB-41, AMB-78): HP Poison ticks first; a paralysed monster does
nothing else (FL-MON-21); otherwise it takes its actions (1, or 1-2 rolled anew, +1 for a
Summoner's monster, +1 with Haste, FL-MON-4). Each action, in this order:

1. breath (Dragon / Gargoyle): a living non-owner player on the 4 tiles ahead, then 1/3
   (FL-MON-30..35, AMB-42);
2. an attack on an adjacent player other than the owner, chosen at random (FL-MON-8, AMB-40);
   a Necromancer casts magic instead with 1/3 (FL-MON-28/29, AMB-43);
3. the Imp, on normal floor: with 1/4 it sets a trap or a fake (FL-MON-23..27, AMB-44);
4. a move (AMB-39).

An attack (breath, magic included) ends the monster's actions (FL-MON-5); setting a trap or a
fake uses one action and the imp goes on (FL-MON-27). Monsters never trigger traps, never slip
and never step on another character (FL-MON-9..13).

Events (FL-INFO-4): ``monster.summoned``, ``monster.attack``, ``monster.magic``,
``monster.breath`` and ``monster.vanished`` are public, naming the owner's seat and the kind,
never a tile. What an imp set is told to its owner only (``monster.set_trap``,
``monster.made_fake``), like a player's own 《罠》 use.
"""

from __future__ import annotations

from delve.fated import combat, statuses
from delve.fated.content import IMP_FAKE, MonsterDef
from delve.fated.ctx import Ctx
from delve.fated.grid import DIRECTIONS, FAKE_EXIT, FAKE_TREASURE, FLOOR, ICE, OPPOSITE, step, xy
from delve.fated.state import Fake, Monster, Player, Trap

IMP_CHANCE = (1, 4)  # FL-MON-23
MAGIC_CHANCE = (1, 3)  # FL-MON-28
BREATH_CHANCE = (1, 3)  # FL-MON-30
BREATH_RANGE = 4  # FL-MON-31
BREATH_POWER = 17  # FL-MON-32: also for a Summoner's monster
MAGIC_ROW = "sp_adjacent"  # FL-MON-29, AMB-43: a special attack card used 《隣接》
BREATH_ROW = "terrain"  # FL-MON-35: some terrain-change cards


def definition(ctx: Ctx, monster: Monster) -> MonsterDef:
    return ctx.content.monsters[monster.kind]


# ---------------------------------------------------------------- summoning


def summon_tiles(ctx: Ctx, owner: Player) -> dict[str, int]:
    """AMB-46: where ``owner`` may summon: each orthogonally adjacent tile that is a valid move
    destination (inside the grid, not wall or door, nobody there), by direction."""
    n = ctx.state.size
    return {d: tile for d in DIRECTIONS if ctx.state.enterable(tile := step(owner.pos, d, n)) and tile is not None}


def summon(ctx: Ctx, owner: Player, kind: str, tile: int) -> Monster:
    """FL-MON-1/3/4, AMB-45/46: ``owner`` summons a ``kind`` onto ``tile``. A Summoner's monster
    has floor(1.5 x HP) and one more action, fixed now; its heading points away from the
    summoner.

    A summon card may only use the tiles of :func:`summon_tiles` (its legality is checked
    there); tests also place monsters farther away through this function.

    :raises ValueError: if ``kind`` is not in this game's roster, the owner is dead, or no
        monster can stand on ``tile`` (outside the grid, a wall or a door, occupied).
    """
    roster = ctx.state.settings.monster_roster
    if kind not in roster:
        raise ValueError(f"monster {kind!r} is not in this game's roster {list(roster)}")
    if not owner.alive or not 0 <= tile < len(ctx.state.grid) or not ctx.state.enterable(tile):
        raise ValueError(f"player {owner.number} cannot summon onto tile {tile}")
    kind_def = ctx.content.monsters[kind]
    bonus = ctx.content.classes[owner.cls].has("summoner")
    monster = Monster(
        id=ctx.state.new_id(),
        kind=kind,
        owner=owner.seat,
        pos=tile,
        hp=kind_def.hp * 3 // 2 if bonus else kind_def.hp,
        attack=kind_def.attack,
        defense=kind_def.defense,
        evasion=kind_def.evasion,
        heading=away(ctx, owner.pos, tile),
        summoner_bonus=bonus,
    )
    ctx.state.monsters.append(monster)
    ctx.public("monster.summoned", owner=owner.seat, monster=kind)
    return monster


def away(ctx: Ctx, origin: int, tile: int) -> str:
    """The direction from ``origin`` towards ``tile`` (the longer axis; rows first on a tie)."""
    ox, oy = xy(origin, ctx.state.size)
    tx, ty = xy(tile, ctx.state.size)
    dx, dy = tx - ox, ty - oy
    if abs(dy) >= abs(dx) and dy:
        return "down" if dy > 0 else "up"
    if dx:
        return "right" if dx > 0 else "left"
    return "up"


# ---------------------------------------------------------------- activation


def activate(ctx: Ctx, owner: int) -> None:
    """FL-MON-6, AMB-41: the owner's monsters act in summoning order, each finishing before the
    next starts. HP Poison ticks before the monster acts (FL-STS-14, AMB-78); a monster it
    brings to 0 HP vanishes (FL-MON-15)."""
    for monster in [m for m in ctx.state.monsters if m.owner == owner]:
        if ctx.state.ended or ctx.state.monster(monster.id) is None:
            continue
        loss = statuses.poison_loss(ctx, monster, "hp_poison")
        if loss:
            monster.hp -= loss
            ctx.private(owner, "monster.poisoned", monster=monster.kind, amount=loss)
            if monster.hp <= 0:
                combat.vanish(ctx, monster, reason="poison")
                continue
        act(ctx, monster)


def action_count(ctx: Ctx, monster: Monster) -> int:
    """FL-MON-4, FL-STS-16: the table's count ("1-2" rolled now), +1 for a Summoner's monster,
    +1 with Haste."""
    low, high = definition(ctx, monster).actions
    count = ctx.rng.randint(low, high)
    if monster.summoner_bonus:
        count += 1
    if statuses.active(monster, "haste", ctx):
        count += 1
    return count


def act(ctx: Ctx, monster: Monster) -> None:
    """One activation: the action loop of AMB-41."""
    if statuses.active(monster, "paralysis", ctx):
        return  # FL-MON-21: no action at all
    special = definition(ctx, monster).special
    for _ in range(action_count(ctx, monster)):
        if special == "breath" and breathe(ctx, monster):
            return
        target = attack_target(ctx, monster)
        if target is not None:
            if special == "necromancer" and ctx.rng.chance(*MAGIC_CHANCE):
                cast_magic(ctx, monster, target)
            else:
                attack(ctx, monster, target)
            return  # FL-MON-5
        if special == "imp" and imp_sets(ctx, monster):
            continue  # FL-MON-27: not an attack; the imp goes on
        move(ctx, monster)


# ---------------------------------------------------------------- attacks


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
    """FL-MON-19, FL-ATK-5: a normal attack (matrix row of a damage card used 《隣接》) with the
    monster's base attack, pending for the target; kill credit goes to the owner."""
    item = combat.attack_item(
        ctx, row="dmg_adjacent", power=monster.attack, source=monster.owner, label="monster", monster=monster
    )
    combat.queue(ctx, target, item)
    ctx.public("monster.attack", owner=monster.owner, monster=monster.kind, target=target.seat)


def cast_magic(ctx: Ctx, monster: Monster, target: Player) -> None:
    """FL-MON-28/29, AMB-43: the special attack of one of the named cards, chosen uniformly, on
    the player the attack would have hit; row "special attack card 《隣接》": evasion applies and
    only special defense, complete defense and counter cards defend it."""
    card = ctx.content.cards[ctx.rng.choice(definition(ctx, monster).magic)]
    item = combat.attack_item(
        ctx, row=MAGIC_ROW, power=0, source=monster.owner, label="magic", card=card, monster=monster
    )
    combat.queue(ctx, target, item)
    ctx.public("monster.magic", owner=monster.owner, monster=monster.kind, target=target.seat)


def breath_tiles(ctx: Ctx, monster: Monster) -> list[int]:
    """FL-MON-31, AMB-42: up to 4 tiles straight ahead along the heading, inside the grid;
    walls and doors do not stop it."""
    tiles: list[int] = []
    tile: int | None = monster.pos
    for _ in range(BREATH_RANGE):
        tile = step(tile, monster.heading, ctx.state.size) if tile is not None else None
        if tile is None:
            break
        tiles.append(tile)
    return tiles


def breath_targets(ctx: Ctx, monster: Monster) -> list[Player]:
    """The living players other than the owner in range, nearest first (FL-MON-30/33/34)."""
    by_tile = {p.pos: p for p in ctx.state.living() if p.seat != monster.owner}
    return [by_tile[t] for t in breath_tiles(ctx, monster) if t in by_tile]


def breathe(ctx: Ctx, monster: Monster) -> bool:
    """FL-MON-30..35, AMB-42: with a target in range, 1/3: every non-owner player in range gets a
    pending terrain-row item of power 17 (not evadable; counters do not apply); ice and traps
    in range become normal floor. The owner, monsters, doors, fakes, treasures and exits are
    untouched. Returns whether it breathed (an attack: the actions end)."""
    targets = breath_targets(ctx, monster)
    if not targets or not ctx.rng.chance(*BREATH_CHANCE):
        return False
    state = ctx.state
    for tile in breath_tiles(ctx, monster):
        if state.grid[tile] == ICE:
            state.set_tile(tile, FLOOR)
        state.traps.pop(tile, None)
    for target in targets:
        item = combat.attack_item(
            ctx, row=BREATH_ROW, power=BREATH_POWER, source=monster.owner, label="breath", monster=monster
        )
        combat.queue(ctx, target, item)
    ctx.public("monster.breath", owner=monster.owner, monster=monster.kind, targets=[p.seat for p in targets])
    return True


# ---------------------------------------------------------------- the imp


def imp_sets(ctx: Ctx, monster: Monster) -> bool:
    """FL-MON-23..26, AMB-44: on normal floor (a trapped one counts), with 1/4, one of the
    options chosen uniformly: a trap with the card's 《罠》 effect, replacing any trap there, or
    a fake (a fake exit while the real exit is out, else a fake treasure), destroying any trap
    there. The owner is the setter for every rule (knows it, is never caught, gets the kill),
    for good. Returns whether it set something (the action is used)."""
    state = ctx.state
    tile = monster.pos
    if state.grid[tile] != FLOOR or not ctx.rng.chance(*IMP_CHANCE):
        return False
    option = ctx.rng.choice(definition(ctx, monster).sets)
    if option == IMP_FAKE:
        state.traps.pop(tile, None)
        fake_exit = state.exit is not None
        state.set_tile(tile, FAKE_EXIT if fake_exit else FAKE_TREASURE)
        state.fakes[tile] = Fake(setter=monster.owner, imp=True)
        ctx.private(monster.owner, "monster.made_fake", monster=monster.kind, fake="exit" if fake_exit else "treasure")
    else:
        state.traps[tile] = Trap(card=option, setter=monster.owner, imp=True)
        ctx.private(monster.owner, "monster.set_trap", monster=monster.kind, card=option)
    return True


# ---------------------------------------------------------------- moving


def move(ctx: Ctx, monster: Monster) -> None:
    """AMB-39: keep going; at a fork pick at random; never turn back unless it is the only way;
    stay when boxed in (FL-MON-12). The heading becomes the direction moved."""
    n = ctx.state.size
    options = [d for d in DIRECTIONS if ctx.state.enterable(step(monster.pos, d, n))]
    forward = [d for d in options if d != OPPOSITE[monster.heading]]
    if forward:
        direction = forward[0] if len(forward) == 1 else ctx.rng.choice(forward)
    elif options:
        direction = options[0]  # only the way back is left
    else:
        return
    target = step(monster.pos, direction, n)
    assert target is not None
    monster.pos = target
    monster.heading = direction
