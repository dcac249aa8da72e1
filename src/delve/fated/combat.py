"""Attacks and defense (FL-ATK, FL-DEF): the attack/defense matrix, pending items, evasion,
damage, and the immediate attacks on monsters and doors. How a defense phase resolves an item
(and counters) is in ``defense.py``.

The matrix of spec §10.3 is the single table ``MATRIX``: rows are attack methods, columns are
defense classes; ``o`` effective, ``x`` ineffective (never offered, AMB-28), ``tri`` effective
but the special attack lands unless the damage is completely prevented (FL-ATK-9).
"""

from __future__ import annotations

from typing import Any

from delve.fated import cards, statuses
from delve.fated.content import CardDef
from delve.fated.ctx import Ctx
from delve.fated.grid import DOOR, FLOOR
from delve.fated.state import Monster, Pending, Player

YES, NO, PART = "o", "x", "tri"

ROWS = (
    "dmg_trap",
    "dmgsp_trap",
    "sp_trap",
    "dmg_adjacent",
    "dmgsp_adjacent",
    "sp_adjacent",
    "dmg_remote",
    "dmgsp_remote",
    "sp_remote",
    "terrain",
)
COLUMNS = ("reduction", "trap", "special", "complete", "counter", "parry")
#: The 7 defense methods; "none" (don't use a defense card) shares the reduction column.
DEFENSE_METHODS = ("reduction", "none", "trap", "special", "complete", "counter", "parry")
#: The 11 attack methods; the normal attack shares the row of a damage card used adjacent.
ATTACK_METHODS = {**{row: row for row in ROWS}, "normal": "dmg_adjacent"}


def _row(reduction: str, trap: str, special: str, complete: str, counter: str, parry: str) -> dict[str, str]:
    return dict(zip(COLUMNS, (reduction, trap, special, complete, counter, parry), strict=True))


MATRIX: dict[str, dict[str, str]] = {
    "dmg_trap": _row(YES, YES, NO, YES, NO, NO),
    "dmgsp_trap": _row(PART, YES, YES, YES, NO, NO),
    "sp_trap": _row(NO, YES, YES, YES, NO, NO),
    "dmg_adjacent": _row(YES, NO, NO, YES, YES, NO),
    "dmgsp_adjacent": _row(PART, NO, YES, YES, YES, NO),
    "sp_adjacent": _row(NO, NO, YES, YES, YES, NO),
    "dmg_remote": _row(YES, NO, NO, YES, YES, YES),
    "dmgsp_remote": _row(PART, NO, YES, YES, YES, YES),
    "sp_remote": _row(NO, NO, YES, YES, YES, YES),
    "terrain": _row(YES, NO, NO, YES, NO, NO),
}

EVADABLE_ROWS = frozenset({"dmg_adjacent", "dmgsp_adjacent", "sp_adjacent", "dmg_remote", "dmgsp_remote", "sp_remote"})
ABILITY_CP = 20  # parry, steal, jump (FL-CLS-9)


def column(method: str) -> str:
    return "reduction" if method == "none" else method


def symbol(row: str, method: str) -> str:
    """The matrix cell for an attack method row and a defense method."""
    return MATRIX[row][column(method)]


def row_for(card: CardDef | None, use: str) -> str:
    """The matrix row of an attack: a card used 《罠》/《隣接》/《遠隔》, or (no card) a normal attack."""
    if card is None:
        return "dmg_adjacent"
    if card.category == "damage":
        kind = "dmg" if card.special is None else "dmgsp"
    else:
        kind = "sp"
    return f"{kind}_{use}"


def has_damage(row: str) -> bool:
    return not row.startswith("sp_")


def has_special(row: str) -> bool:
    return row.startswith(("sp_", "dmgsp_"))


# ---------------------------------------------------------------- creating pending items


def queue(ctx: Ctx, target: Player, item: Pending) -> Pending:
    """Add an item to the target's queue; it waits for the next insertion point (FL-TURN-21)."""
    if item.kind == "trap":
        target.pending.insert(0, item)  # a trap just stepped on comes first (FL-TURN-22)
    else:
        target.pending.append(item)
    return item


def attack_item(
    ctx: Ctx,
    *,
    kind: str = "attack",
    row: str,
    power: int,
    source: int | None,
    label: str,
    card: CardDef | None = None,
    use: str | None = None,
    special: str | None = None,
    amount: int = 0,
    monster: Monster | None = None,
    tile: int | None = None,
    reflected: bool = False,
) -> Pending:
    return Pending(
        id=ctx.state.new_id(),
        kind=kind,
        created=ctx.now,
        row=row,
        source=source,
        monster=monster.id if monster else None,
        monster_kind=monster.kind if monster else None,
        card=card.id if card else None,
        use=use,
        label=label,
        power=power,
        special=special if special is not None else (card.special if card else None),
        amount=amount if amount else (card.amount if card else 0),
        tile=tile,
        reflected=reflected,
    )


# ---------------------------------------------------------------- defense options


def defense_options(ctx: Ctx, player: Player, item: Pending) -> list[dict[str, Any]]:
    """The defense phase's commands for ``item`` (FL-DEF-1..5, FL-ATK-8, AMB-28): only
    effective cards the player can pay for, "no defense", and parry for a remote attack."""
    if item.kind == "pass_by":
        return [{"kind": "accept_pass_by"}, {"kind": "decline_pass_by"}]
    options: list[dict[str, Any]] = [{"kind": "no_defense"}]
    price = cards.cp_prices(ctx, player)
    for card_id in player.hand:
        card = ctx.card(card_id)
        if card.defense is None or symbol(item.row, card.defense) == NO:
            continue
        if card.defense == "counter" and item.reflected:
            continue  # reflected attacks cannot be reflected again (AMB-30)
        if price(card.cost) > player.cp:
            continue
        options.append({"kind": "defend", "card": card_id})
    if (
        item.use == "remote"
        and ctx.content.classes[player.cls].has("parry")
        and player.cp >= ABILITY_CP
        and symbol(item.row, "parry") == YES
    ):
        options.append({"kind": "parry"})
    return options


# ---------------------------------------------------------------- evasion at the phase start


def try_evade(ctx: Ctx, player: Player, item: Pending) -> bool:
    """FL-ATK-12, AMB-24: at the start of the defense phase for an evadable attack, roll d100
    against the defender's effective evasion. On success the item is resolved as a miss."""
    if item.evasion_rolled or item.kind not in {"attack", "steal"} or item.row not in EVADABLE_ROWS:
        return False
    item.evasion_rolled = True
    if not ctx.rng.percent(statuses.evasion(ctx, player)):
        return False
    player.pending.remove(item)
    ctx.public("defense.result", **describe(item, player), outcome="evaded")
    if item.kind == "steal":
        ctx.private(involved(player, item), "steal.failed", target=player.seat)
    return True


def damage_of(ctx: Ctx, target: Player | Monster, power: int, reduction: int) -> int:
    """FL-ATK-11: D = floor(max(0, B - R) x m)."""
    numerator, denominator = statuses.damage_ratio(ctx, target)
    return max(0, power - reduction) * numerator // denominator


def involved(player: Player, item: Pending) -> list[int]:
    """The defender and the item's source: who hears about a steal."""
    return [player.seat] + ([item.source] if item.source is not None else [])


def public_source(item: Pending) -> int | None:
    """The seat an item may be shown to come from: ``None`` for a trap, whose setter stays secret
    when it is stepped on (FL-INFO-3: trap locations and owners are never public; only a death
    credits the setter, FL-INFO-4, FL-KILL-3)."""
    return None if item.kind == "trap" else item.source


def describe(item: Pending, player: Player) -> dict[str, Any]:
    data: dict[str, Any] = {"defender": player.seat, "label": item.label}
    source = public_source(item)
    if source is not None:
        data["source"] = source
    if item.monster_kind is not None:
        data["monster"] = item.monster_kind
    if item.card is not None:
        data["card"] = item.card
    if item.use is not None:
        data["use"] = item.use
    if item.reflected:
        data["reflected"] = True
    return data


# ---------------------------------------------------------------- immediate attacks


def hit_monster(
    ctx: Ctx,
    attacker: int | None,
    monster: Monster,
    power: int,
    special: str | None,
    *,
    label: str,
    amount: int = 0,
    evadable: bool = True,
) -> dict[str, Any]:
    """FL-ATK-19: resolve an attack on a monster immediately: its evasion (not for terrain
    damage, AMB-24), then damage reduced by its base defense; only statuses that work on
    monsters apply (``amount`` > 1 stacks a poison); special effects do nothing (AMB-35).
    At HP 0 it vanishes (FL-MON-15)."""
    report: dict[str, Any] = {"monster": monster.kind, "owner": monster.owner, "label": label}
    if attacker is not None:
        report["attacker"] = attacker
    if evadable and ctx.rng.percent(statuses.evasion(ctx, monster)):
        report["outcome"] = "evaded"
        ctx.public("monster.attacked", **report)
        return report
    damage = damage_of(ctx, monster, power, monster.defense)
    monster.hp -= damage
    report.update(outcome="hit", damage=damage)
    if special and special in ctx.content.statuses and statuses.works_on(ctx, special, monster):
        for _ in range(max(1, amount)):
            statuses.apply(ctx, monster, special)
        report["special"] = special
    elif special:
        report["no_effect"] = special  # FL-STS-2, AMB-35: the log says it did nothing to a monster
    ctx.public("monster.attacked", **report)
    if monster.hp <= 0:
        vanish(ctx, monster, reason="destroyed")
    return report


def vanish(ctx: Ctx, monster: Monster, *, reason: str) -> None:
    ctx.state.monsters = [m for m in ctx.state.monsters if m.id != monster.id]
    ctx.public("monster.vanished", monster=monster.kind, owner=monster.owner, reason=reason)


def hit_door(ctx: Ctx, attacker: int, tile: int, power: int) -> int:
    """FL-ATK-20, FL-MAP-8: doors have HP 100, defense 0, evasion 0; damage persists; at 0 the
    door becomes normal floor."""
    state = ctx.state
    hp = state.door_hp.get(tile, 100) - power
    if hp <= 0:
        state.door_hp.pop(tile, None)
        state.set_tile(tile, FLOOR)
        ctx.public("door.destroyed", attacker=attacker, damage=power)
    else:
        state.door_hp[tile] = hp
        ctx.public("door.attacked", attacker=attacker, damage=power)
    return max(hp, 0)


def is_door(ctx: Ctx, tile: int) -> bool:
    return ctx.state.grid[tile] == DOOR
