"""Effect primitives: the small vocabulary that card effects, trap effects, necromancer magic
and special attacks are composed from.

Two layers:

- **Special attacks** (``special`` on an attack card, a trap or a magic): a status id, applied
  with the status rules, or one of the instant special effects of ``SPECIAL_EFFECTS`` (CP Drain,
  Loss, Misfortune, Treasure Toss, card theft). They reach players through the defense phase
  (``defense.resolve``) and monsters at once (``combat.hit_monster``).
- **Card effects** (``effects`` on every other core-phase card): a list of ops from ``OPS``,
  each a small function ``(ctx, user, aim, effect)``. A card's ``target`` word (``TARGETS``)
  says what the card is aimed at and which command parameter names it; ``card_targets`` lists
  the legal choices (one command each, like the uses of attack cards) and ``run_card`` runs the
  ops in order. ``effect_rules.OP_RULES`` says which fields and targets each op needs; ``validate_card``
  checks the catalogue against it when the content is loaded.

Legality lives only in ``card_targets`` (called from ``commands.legal_commands``): the ops
assume their target is valid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from delve.fated import cards, combat, death, monsters, moves, statuses, visibility
from delve.fated.content import CardDef, Effect
from delve.fated.ctx import Ctx
from delve.fated.effect_rules import TERRAINS, statuses_of
from delve.fated.grid import (
    DOOR,
    FAKE_EXIT,
    FAKE_TREASURE,
    FLOOR,
    PASSABLE,
    TREASURE,
    WALL,
    adjacent,
    chebyshev,
    step,
    xy,
)
from delve.fated.state import Fake, Monster, Pending, Player

DEFAULT_CP_DRAIN = 20

Character = Player | Monster


# ================================================================ special attacks


def special_effect(ctx: Ctx, victim: Player, item: Pending) -> bool:
    """Apply the special part of an attack to a player; returns whether anything happened."""
    special = item.special
    if special is None:
        return False
    if special in ctx.content.statuses:
        return apply_status(ctx, victim, special, times=item.amount)
    handler = SPECIAL_EFFECTS[special]
    return handler(ctx, victim, item)


def apply_status(ctx: Ctx, target: Character, status_id: str, *, times: int = 1) -> bool:
    """A status applied ``times`` times (at least once): a poison card with amount 2 (Deadly
    Poison) stacks twice (FL-STS-10). Players get a private message, monsters a public one."""
    applied = False
    for _ in range(max(1, times)):
        applied = statuses.apply(ctx, target, status_id) or applied
    if applied:
        if isinstance(target, Player):
            ctx.private(target.seat, "status.gained", status=status_id)
        else:
            ctx.public("monster.status", monster=target.kind, owner=target.owner, status=status_id)
    return applied


def gain_status(ctx: Ctx, player: Player, status_id: str) -> bool:
    return apply_status(ctx, player, status_id)


def _cp_drain(ctx: Ctx, victim: Player, item: Pending) -> bool:
    """CP Drain (ＣＰ減少): the victim loses ``amount`` CP (default 20)."""
    loss = min(victim.cp, item.amount or DEFAULT_CP_DRAIN)
    victim.cp -= loss
    ctx.private(victim.seat, "cp.drained", amount=loss)
    return loss > 0


def _loss(ctx: Ctx, victim: Player, item: Pending) -> bool:
    """Loss (紛失): ``amount`` random cards (default 1) fall from the victim's hand to the
    discard pile."""
    count = min(len(victim.hand), item.amount or 1)
    lost = []
    for _ in range(count):
        card = ctx.rng.choice(victim.hand)
        victim.hand.remove(card)
        ctx.state.discard.append(card)
        lost.append(card)
    if lost:
        ctx.private(victim.seat, "cards.lost", cards=lost)
    return bool(lost)


def _misfortune(ctx: Ctx, victim: Player, item: Pending) -> bool:
    """Misfortune (不幸): every plus status on the victim is removed at once."""
    removed = [s.id for s in victim.statuses if statuses.is_plus(ctx, s.id)]
    victim.statuses = [s for s in victim.statuses if s.id not in removed]
    if removed:
        ctx.private(victim.seat, "status.lost", statuses=removed)
    return bool(removed)


def _treasure_toss(ctx: Ctx, victim: Player, item: Pending) -> bool:
    """Treasure Toss (宝飛ばし): one treasure the victim holds is flung to a random place."""
    if victim.treasures <= 0:
        return False
    victim.treasures -= 1
    death.fling_treasure(ctx)
    ctx.public("treasure.tossed", victim=victim.seat)
    death.update_exit(ctx)
    return True


def _steal_card(ctx: Ctx, victim: Player, item: Pending) -> bool:
    """A card steals a random card from the victim for the attacker (MC-17)."""
    if not victim.hand or item.source is None:
        return False
    card = ctx.rng.choice(victim.hand)
    victim.hand.remove(card)
    thief = ctx.state.players[item.source]
    if thief.alive:
        thief.hand.append(card)
    else:
        ctx.state.removed.append(card)
    ctx.private([victim.seat, item.source], "steal.card", target=victim.seat, card=card, card_kind=ctx.card(card).id)
    return True


SPECIAL_EFFECTS: dict[str, Callable[[Ctx, Player, Pending], bool]] = {
    "cp_drain": _cp_drain,
    "loss": _loss,
    "misfortune": _misfortune,
    "treasure_toss": _treasure_toss,
    "steal_card": _steal_card,
}


# ================================================================ aims and targets


@dataclass(frozen=True, slots=True)
class Aim:
    """What a card is aimed at, resolved from its command: a direction (and the tile one step
    that way), a designated player or a monster. For ``self`` targets ``player`` is the user."""

    card: CardDef
    direction: str | None = None
    tile: int | None = None
    player: Player | None = None
    monster: Monster | None = None

    def character(self, user: Player) -> Character:
        if self.monster is not None:
            return self.monster
        return self.player if self.player is not None else user


def designatable(ctx: Ctx, player: Player) -> list[int]:
    """Players a card may designate (《遠隔》 and player targets): every other living player
    not under Stealth (FL-STS-18, AMB-37)."""
    return [p.seat for p in ctx.state.living() if p.seat != player.seat and not statuses.hidden_by_stealth(ctx, p)]


def visible_monsters(ctx: Ctx, player: Player) -> list[Monster]:
    """Monsters the player can see: in sight, or anywhere under Keen Ear (FL-VIS-6)."""
    if statuses.active(player, "keen_ear", ctx):
        return list(ctx.state.monsters)
    sight = visibility.sight(ctx, player)
    return [m for m in ctx.state.monsters if m.pos in sight]


def _monsters(whose: str) -> Callable[[Ctx, Player], list[dict[str, Any]]]:
    def options(ctx: Ctx, player: Player) -> list[dict[str, Any]]:
        return [
            {"monster": m.id}
            for m in visible_monsters(ctx, player)
            if whose == "any" or (m.owner == player.seat) == (whose == "own")
        ]

    return options


def _enterable(ctx: Ctx, tile: int) -> bool:
    return ctx.state.grid[tile] in PASSABLE and ctx.state.occupant(tile) is None


def _adjacent(test: Callable[[Ctx, Player, int], bool]) -> Callable[[Ctx, Player], list[dict[str, Any]]]:
    def options(ctx: Ctx, player: Player) -> list[dict[str, Any]]:
        return [
            {"dir": direction} for direction, tile in adjacent(player.pos, ctx.state.size) if test(ctx, player, tile)
        ]

    return options


def _is_enemy_character(ctx: Ctx, player: Player, tile: int) -> bool:
    occupant = ctx.state.occupant(tile)
    return isinstance(occupant, Player) or (isinstance(occupant, Monster) and occupant.owner != player.seat)


def _summon_tiles(ctx: Ctx, player: Player) -> dict[str, int]:
    """AMB-46: the adjacent valid move destinations (where a summon card may put its monster,
    and where a Dash may start)."""
    return monsters.summon_tiles(ctx, player)


def _own_tile(ctx: Ctx, player: Player) -> list[dict[str, Any]]:
    """FL-FAKE-8: the user's own tile, which must be normal floor (a trap there is allowed)."""
    return [{}] if ctx.state.grid[player.pos] == FLOOR else []


#: The target vocabulary: per target word, the legal command parameters for a user now.
TARGETS: dict[str, Callable[[Ctx, Player], list[dict[str, Any]]]] = {
    "self": lambda ctx, player: [{}],
    "area": lambda ctx, player: [{}],
    "own_tile": _own_tile,
    "player": lambda ctx, player: [{"target": seat} for seat in designatable(ctx, player)],
    "monster": _monsters("any"),
    "enemy_monster": _monsters("enemy"),
    "own_monster": _monsters("own"),
    "adjacent_wall": _adjacent(lambda ctx, player, tile: ctx.state.grid[tile] == WALL),
    "adjacent_door": _adjacent(lambda ctx, player, tile: ctx.state.grid[tile] == DOOR),
    "adjacent_barrier": _adjacent(lambda ctx, player, tile: ctx.state.grid[tile] in (WALL, DOOR)),
    "adjacent_floor": _adjacent(
        lambda ctx, player, tile: ctx.state.grid[tile] == FLOOR and ctx.state.occupant(tile) is None
    ),
    "adjacent_free": lambda ctx, player: [{"dir": d} for d in _summon_tiles(ctx, player)],
    "adjacent_character": _adjacent(_is_enemy_character),
    "line": _adjacent(lambda ctx, player, tile: True),
}


def card_targets(ctx: Ctx, player: Player, card: CardDef) -> list[dict[str, Any]]:
    """The target parameters with which a card's effects can be used now (one command each)."""
    if not card.effects:
        return []
    return TARGETS[card.target](ctx, player)


def aim_of(ctx: Ctx, player: Player, card: CardDef, command: dict[str, Any]) -> Aim:
    """Resolve a (legal) command's parameters into an :class:`Aim`."""
    state = ctx.state
    direction = command.get("dir")
    if direction is not None:
        tile = step(player.pos, direction, state.size)
        occupant = state.occupant(tile) if tile is not None else None
        return Aim(
            card,
            direction=direction,
            tile=tile,
            player=occupant if isinstance(occupant, Player) else None,
            monster=occupant if isinstance(occupant, Monster) else None,
        )
    if command.get("target") is not None:
        return Aim(card, player=state.players[command["target"]])
    if command.get("monster") is not None:
        return Aim(card, monster=state.monster(command["monster"]))
    if card.target == "own_tile":
        return Aim(card, tile=player.pos, player=player)
    return Aim(card, player=player)


def run_card(ctx: Ctx, player: Player, card: CardDef, command: dict[str, Any]) -> None:
    """Use a card's effects (FL-CORE-1): log the use (FL-INFO-4), then run each op in order.
    Influence cards cannot be defended: everything happens now (FL-CARD-15, AMB-36)."""
    aim = aim_of(ctx, player, card, command)
    if card.target == "own_tile":
        ctx.public("card.used_on_own_tile", player=player.seat)  # the Fake is not named (FL-INFO-4)
    else:
        ctx.public("card.used", player=player.seat, card=card.id, **_described(aim, player))
    for effect in card.effects:
        OPS[effect.op](ctx, player, aim, effect)


def _described(aim: Aim, user: Player) -> dict[str, Any]:
    """The public description of a card's target: a player number, a monster (kind and owner),
    "self", "area", "line" or "tile" (never coordinates, FL-INFO-4)."""
    target = aim.card.target
    if target in {"self", "area", "line"}:
        return {"on": target}
    if aim.monster is not None:
        return {"monster": aim.monster.kind, "owner": aim.monster.owner}
    if aim.player is not None and target in {"player", "adjacent_character"}:
        return {"target": aim.player.seat}
    return {"on": "tile"}


# ================================================================ the ops


def _is_priest(ctx: Ctx, player: Player) -> bool:
    return ctx.content.classes[player.cls].has("priest")


def _amount(ctx: Ctx, user: Player, effect: Effect) -> int:
    """The effect's amount, plus its Priest bonus when the user is a Priest (FL-CLS-3)."""
    return effect.amount + (effect.priest if _is_priest(ctx, user) else 0)


def op_heal(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """HP +amount (+priest for a Priest user). Players stop at max HP (FL-STAT-3); monsters
    have no maximum (FL-MON-16)."""
    who = aim.character(user)
    amount = _amount(ctx, user, effect)
    if isinstance(who, Monster):
        who.hp += amount
        ctx.public("monster.healed", monster=who.kind, owner=who.owner, amount=amount)
        return
    gained = max(0, min(amount, who.max_hp - who.hp))
    who.hp += gained
    ctx.private(who.seat, "hp.recovered", amount=gained)


def op_restore_cp(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """CP +amount (+priest for a Priest user), never above max CP (FL-STAT-4)."""
    who = aim.player if aim.player is not None else user
    gained = max(0, min(_amount(ctx, user, effect), who.max_cp - who.cp))
    who.cp += gained
    ctx.private(who.seat, "cp.recovered", amount=gained)


def op_gain(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The target gains each listed status (opposites and re-application as usual; a status
    that does not work on the target is not applied, AMB-35)."""
    who = aim.character(user)
    for status_id in statuses_of(effect):
        apply_status(ctx, who, status_id)


def op_cure(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """Each listed status is removed from the target (poisons only by cards that list them,
    FL-STS-4)."""
    who = aim.character(user)
    cured = [s for s in statuses_of(effect) if statuses.remove(who, s)]
    _report_cured(ctx, who, cured)


def op_dispel(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """Every status on the target is removed (the card that clears monsters, FL-STS-7)."""
    who = aim.character(user)
    cured = [s.id for s in who.statuses]
    who.statuses = []
    _report_cured(ctx, who, cured)


def _report_cured(ctx: Ctx, who: Character, cured: list[str]) -> None:
    if isinstance(who, Monster):
        ctx.public("monster.status_removed", monster=who.kind, owner=who.owner, statuses=cured)
    elif cured:
        ctx.private(who.seat, "status.cured", statuses=cured)


def op_raise(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """A statistic of the user rises for good (FL-STAT-13), never above ``cap``. Raising max
    HP or max CP raises HP or CP by the same amount."""
    assert effect.stat is not None
    before = getattr(user, effect.stat)
    after = min(effect.cap, before + effect.amount) if effect.cap else before + effect.amount
    after = max(before, after)
    setattr(user, effect.stat, after)
    if effect.stat == "max_hp":
        user.hp += after - before
    elif effect.stat == "max_cp":
        user.cp += after - before
    ctx.private(user.seat, "stat.raised", stat=effect.stat, amount=after - before)


def op_draw(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """Draw ``count`` cards (FL-CARD-8; the hand limit applies at the end of the core phase)."""
    cards.draw(ctx, user, effect.count)


def op_charm(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The monster becomes the user's: the user is its owner from now on (FL-MON-1 "as a rule")."""
    monster = aim.monster
    assert monster is not None
    ctx.public("monster.charmed", monster=monster.kind, owner=monster.owner, by=user.seat)
    monster.owner = user.seat


def op_summon(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The card's monster appears on the chosen adjacent tile (FL-MON-1, AMB-46)."""
    assert aim.tile is not None and aim.card.monster is not None
    monsters.summon(ctx, user, aim.card.monster, aim.tile)


def change_terrain(ctx: Ctx, tile: int, terrain: str) -> None:
    """A tile becomes another terrain: a trap on it is destroyed (FL-MAP-15, FL-TRAP-11) and a
    door's damage is forgotten."""
    state = ctx.state
    state.set_tile(tile, terrain)
    state.traps.pop(tile, None)
    state.door_hp.pop(tile, None)


def _area(ctx: Ctx, center: int, radius: int) -> list[int]:
    n = ctx.state.size
    cx, cy = xy(center, n)
    return [
        y * n + x
        for y in range(max(0, cy - radius), min(n, cy + radius + 1))
        for x in range(max(0, cx - radius), min(n, cx + radius + 1))
    ]


def _line(ctx: Ctx, start: int, direction: str, length: int) -> list[int]:
    tiles = []
    tile: int | None = start
    for _ in range(length):
        tile = step(tile, direction, ctx.state.size) if tile is not None else None
        if tile is None:
            break
        tiles.append(tile)
    return tiles


def tiles_of(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> list[int]:
    """The tiles an effect covers: the area around the user (Chebyshev ``radius``, like sight),
    the line of ``length`` tiles in the chosen direction, or the one target tile."""
    target = aim.card.target
    if target == "area":
        return _area(ctx, user.pos, effect.radius)
    if target == "line":
        assert aim.direction is not None
        return _line(ctx, user.pos, aim.direction, effect.length)
    if aim.tile is not None:
        return [aim.tile]
    return [user.pos]


def op_terraform(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """Every covered tile whose terrain is one of ``only`` becomes ``terrain`` (MC-9: wall or
    door to floor, freezing, creating a door, melting ice). A door is only created on an empty
    tile; a trap on a changed tile is destroyed."""
    assert effect.terrain is not None
    new = TERRAINS[effect.terrain]
    wanted = {TERRAINS[t] for t in effect.only}
    changed = 0
    for tile in tiles_of(ctx, user, aim, effect):
        if ctx.state.grid[tile] not in wanted:
            continue
        if new == DOOR and ctx.state.occupant(tile) is not None:
            continue
        change_terrain(ctx, tile, new)
        changed += 1
    ctx.public("terrain.changed", player=user.seat, terrain=effect.terrain, count=changed)


def op_blast(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """Area damage of a terrain-change card (matrix row "terrain"): every other living player
    in the covered tiles gets a pending item of ``amount`` basic damage (not evadable, defended
    only by reduction / no defense or complete defense, FL-ATK-12); every enemy monster there
    is hit at once (FL-ATK-19). The user and the user's own monsters are spared; doors too."""
    covered = set(tiles_of(ctx, user, aim, effect))
    for player in ctx.state.living():
        if player.seat != user.seat and player.pos in covered:
            item = combat.attack_item(
                ctx, row="terrain", power=effect.amount, source=user.seat, label="terrain", card=aim.card
            )
            combat.queue(ctx, player, item)
            ctx.public("terrain.hit", player=user.seat, card=aim.card.id, target=player.seat)
    for monster in list(ctx.state.monsters):
        if monster.owner != user.seat and monster.pos in covered:
            combat.hit_monster(ctx, user.seat, monster, effect.amount, None, label="terrain", evadable=False)


def op_clear_traps(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """Every trap in the covered tiles (own ones too) is destroyed."""
    gone = [t for t in tiles_of(ctx, user, aim, effect) if ctx.state.traps.pop(t, None) is not None]
    ctx.private(user.seat, "traps.cleared", count=len(gone))


def _relocate(ctx: Ctx, player: Player, tile: int) -> None:
    """A card moves a player: forced, so no trap, no slip (FL-TRAP-5, AMB-11); in Level D a
    trap the player is defending against is cancelled (FL-TRAP-13)."""
    moves.relocate(ctx, player, tile, forced=True)


def op_teleport(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The target player (the user, or a designated player) is moved to a random empty normal
    floor tile."""
    who = aim.player if aim.player is not None else user
    state = ctx.state
    occupied = {p.pos for p in state.living()} | {m.pos for m in state.monsters}
    free = [i for i, t in enumerate(state.grid) if t == FLOOR and i not in occupied]
    if not free:
        return
    _relocate(ctx, who, ctx.rng.choice(free))
    ctx.private(who.seat, "moved.teleported")


def _slide(ctx: Ctx, start: int, direction: str, length: int) -> int:
    """The last tile reachable going straight from ``start`` for up to ``length`` steps over
    tiles a character could enter."""
    tile = start
    for _ in range(length):
        onward = step(tile, direction, ctx.state.size)
        if onward is None or not _enterable(ctx, onward):
            break
        tile = onward
    return tile


def op_dash(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The user runs straight up to ``length`` tiles in the chosen direction (stops before
    anything impassable or occupied)."""
    assert aim.direction is not None
    end = _slide(ctx, user.pos, aim.direction, effect.length)
    if end != user.pos:
        _relocate(ctx, user, end)


def op_push(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The adjacent character is pushed straight away from the user up to ``length`` tiles."""
    assert aim.direction is not None
    who = aim.monster if aim.monster is not None else aim.player
    if who is None:
        return
    end = _slide(ctx, who.pos, aim.direction, effect.length)
    if end == who.pos:
        return
    if isinstance(who, Monster):
        who.pos = end
        ctx.public("monster.pushed", monster=who.kind, owner=who.owner)
    else:
        _relocate(ctx, who, end)
        ctx.private(who.seat, "moved.pushed", by=user.seat)


def op_swap(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The user and the designated player change places."""
    other = aim.player
    assert other is not None
    mine, theirs = user.pos, other.pos
    user.pos = -1
    _relocate(ctx, other, mine)
    _relocate(ctx, user, theirs)
    ctx.private(other.seat, "moved.swapped", by=user.seat)


def op_siphon(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """Up to ``amount`` CP flow from the designated player to the user (what the user cannot
    hold above max CP is lost)."""
    other = aim.player
    assert other is not None
    taken = min(other.cp, effect.amount)
    other.cp -= taken
    user.cp = min(user.max_cp, user.cp + taken)
    ctx.private(other.seat, "cp.siphoned", amount=taken, by=user.seat)
    ctx.private(user.seat, "cp.siphoned", amount=taken, target=other.seat)


def op_peek(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The user sees the designated player's hand (a private message to the user only)."""
    other = aim.player
    assert other is not None
    ctx.private(user.seat, "hand.seen", target=other.seat, kinds=sorted(ctx.card(c).id for c in other.hand))
    ctx.private(other.seat, "hand.peeked", by=user.seat)


def op_barter(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """A random card of the user and a random card of the designated player change hands; each
    of the two learns both cards (FL-CARD-13)."""
    other = aim.player
    assert other is not None
    if not user.hand or not other.hand:
        ctx.private(user.seat, "barter.nothing", target=other.seat)
        return
    mine = ctx.rng.choice(user.hand)
    theirs = ctx.rng.choice(other.hand)
    user.hand.remove(mine)
    other.hand.remove(theirs)
    user.hand.append(theirs)
    other.hand.append(mine)
    data = {"gave": ctx.card(mine).id, "got": ctx.card(theirs).id}
    ctx.private(user.seat, "barter.done", target=other.seat, **data)
    ctx.private(other.seat, "barter.done", target=user.seat, gave=data["got"], got=data["gave"])


def op_map(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The user learns the terrain within ``radius`` as if it had been in sight (fakes look
    real and unknown traps stay hidden, FL-VIS-8)."""
    memory = list(user.memory)
    for tile in _area(ctx, user.pos, effect.radius):
        memory[tile] = visibility.perceived(ctx.state, user.seat, tile)
    user.memory = "".join(memory)
    ctx.private(user.seat, "map.revealed", radius=effect.radius)


def op_dowse(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """The user learns where the nearest real treasure lies (marked on the user's map)."""
    state = ctx.state
    n = state.size
    treasures = [i for i, t in enumerate(state.grid) if t == TREASURE]
    if not treasures:
        ctx.private(user.seat, "treasure.sensed", found=False)
        return
    nearest = min(treasures, key=lambda t: (chebyshev(user.pos, t, n), t))
    user.memory = user.memory[:nearest] + TREASURE + user.memory[nearest + 1 :]
    x, y = xy(nearest, n)
    ctx.private(user.seat, "treasure.sensed", found=True, x=x, y=y)


def op_fake(ctx: Ctx, user: Player, aim: Aim, effect: Effect) -> None:
    """FL-FAKE-1/8, AMB-68: a fake on the user's own normal-floor tile (a trap there is
    destroyed): a fake exit if a real exit exists now, else a fake treasure."""
    state = ctx.state
    kind = FAKE_EXIT if state.exit is not None else FAKE_TREASURE
    change_terrain(ctx, user.pos, kind)
    state.fakes[user.pos] = Fake(setter=user.seat)
    ctx.private(user.seat, "fake.made", fake="exit" if kind == FAKE_EXIT else "treasure")


OpFn = Callable[[Ctx, Player, Aim, Effect], None]

#: Effect ops a card's ``effects`` list may use.
OPS: dict[str, OpFn] = {
    "heal": op_heal,
    "restore_cp": op_restore_cp,
    "gain": op_gain,
    "cure": op_cure,
    "dispel": op_dispel,
    "raise": op_raise,
    "draw": op_draw,
    "charm": op_charm,
    "summon": op_summon,
    "terraform": op_terraform,
    "blast": op_blast,
    "clear_traps": op_clear_traps,
    "teleport": op_teleport,
    "dash": op_dash,
    "push": op_push,
    "swap": op_swap,
    "siphon": op_siphon,
    "peek": op_peek,
    "barter": op_barter,
    "map": op_map,
    "dowse": op_dowse,
    "fake": op_fake,
}
