"""Resolving what a defense phase is for (FL-DEF, FL-ATK-8..18): the chosen defense against a
pending attack, trap, steal or pass-by item, counters and their reflections (AMB-30), and
abandonment, where every waiting item is taken with no defense (FL-ABN-5).

The items themselves, the matrix and the attacks that resolve at once are in ``combat.py``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from delve.fated import cards, combat, death, effects, visibility
from delve.fated.content import CardDef
from delve.fated.ctx import Ctx
from delve.fated.state import Pending, Player


def resolve_without_death_check(ctx: Ctx, player: Player, item: Pending) -> None:
    """Abandonment (FL-ABN-5): the item is taken with no defense and no death check follows."""
    resolve(ctx, player, item, "none", death_check=False)


def resolve(
    ctx: Ctx, player: Player, item: Pending, method: str, card_id: int | None = None, *, death_check: bool = True
) -> None:
    """Resolve an item of ``player``'s defense phase with the chosen method.

    ``method`` is one of DEFENSE_METHODS; for a card method, ``card_id`` is the card used.
    The caller has checked legality through ``defense_options``.
    """
    player.pending.remove(item)
    card: CardDef | None = None
    if card_id is not None:
        card = ctx.card(card_id)
        player.cp -= cards.cp_cost(ctx, player, card.cost)
        player.hand.remove(card_id)
        ctx.state.discard.append(card_id)  # no replacement is drawn (FL-DEF-1)
        method = card.defense or method
    if method == "parry":
        player.cp -= combat.ABILITY_CP
    cell = combat.symbol(item.row, method)
    report: dict[str, Any] = {**combat.describe(item, player), "method": method}
    if card is not None:
        report["defense_card"] = card.id

    damage = 0
    special_lands = False
    nullified = method in {"complete", "parry", "trap"}
    keep_trap = bool(card and (card.keeps_trap or card.seize))
    seize = bool(card and card.seize)

    if item.kind == "steal":
        if method == "none":
            _steal(ctx, player, item)
            report["outcome"] = "stolen"
        else:
            report["outcome"] = "blocked"
            ctx.private(combat.involved(player, item), "steal.failed", target=player.seat)
        ctx.public("defense.result", **report)
        death.check_last_survivor(ctx)
        return

    if method == "counter":
        assert card is not None and card.counter is not None
        reflect(ctx, player, item, card.counter)
        report["outcome"] = "reflected"
        report["counter"] = card.counter
        if card.counter != "both":
            ctx.public("defense.result", **report)
            _finish_trap(ctx, player, item, keep_trap, seize)
            death.check_last_survivor(ctx)
            return
        method, cell = "none", combat.symbol(item.row, "none")  # Drag Along: the defender suffers it too

    if not nullified:
        reduction = player.defense + (card.reduce if card is not None and method == "reduction" else 0)
        if combat.has_damage(item.row):
            damage = combat.damage_of(ctx, player, item.power, reduction)
        if method != "special" and combat.has_special(item.row):
            # x: received in full; tri: lands unless the damage was completely prevented
            # (FL-ATK-9, AMB-26). Special defense blocks the special part only (AMB-27).
            special_lands = cell == combat.NO or (cell == combat.PART and damage >= 1)
    if damage:
        player.hp = max(0, player.hp - damage)
    blocked = nullified or (method == "special" and damage == 0)
    report.setdefault("outcome", "blocked" if blocked else "hit")
    report["damage"] = damage
    if special_lands and item.special:
        report["special"] = item.special
        report["applied"] = effects.special_effect(ctx, player, item)
    ctx.public("defense.result", **report)
    _tell_setter(ctx, player, item, report)
    _finish_trap(ctx, player, item, keep_trap, seize)
    if player.hp == 0 and death_check:
        death.hp_zero(ctx, player, credit=item.source, cause=item.label or "attack")
    death.check_last_survivor(ctx)


def _tell_setter(ctx: Ctx, player: Player, item: Pending, report: dict[str, Any]) -> None:
    """The private part of a trap's hit: its setter (an imp's owner for an imp's trap) learns who
    stepped on it and how it went (FL-INFO-5); the public result does not name the setter."""
    if item.kind != "trap" or item.source is None or item.source == player.seat:
        return
    ctx.private(
        item.source,
        "trap.sprung",
        card=item.card,
        defender=player.seat,
        outcome=report["outcome"],
        damage=report.get("damage", 0),
        # what a special attack trap did (FL-TRAP-7): Pickpocket's card theft, a status...
        **({"special": report["special"], "applied": bool(report.get("applied"))} if "special" in report else {}),
    )


def _finish_trap(ctx: Ctx, player: Player, item: Pending, keep: bool, seize: bool = False) -> None:
    """FL-TRAP-6/FL-ATK-15: after the defense the trap disappears, unless the defense card
    leaves it (then the player knows it); a seizing card makes the defender its setter (the
    old setter still knows where it is)."""
    if item.kind != "trap" or item.tile is None:
        return
    trap = ctx.state.traps.get(item.tile)
    if trap is None or trap.card != item.card or trap.setter != item.source:
        return  # the trap is gone or another one was set there meanwhile
    if keep:
        if seize:
            old = trap.setter
            trap.setter = player.seat
            trap.imp = False
            trap.known = sorted({*trap.known, old} - {player.seat})
            ctx.private(player.seat, "trap.seized", card=trap.card)
        else:
            visibility.learn_trap(ctx.state, player.seat, item.tile)
        return
    ctx.state.traps.pop(item.tile, None)


def _steal(ctx: Ctx, victim: Player, item: Pending) -> None:
    state = ctx.state
    if not victim.hand:
        ctx.private(combat.involved(victim, item), "steal.empty", target=victim.seat)
        return
    card = ctx.rng.choice(victim.hand)
    victim.hand.remove(card)
    thief = state.players[item.source] if item.source is not None else None
    if thief is not None and thief.alive:
        thief.hand.append(card)
    else:
        state.removed.append(card)  # the thief died meanwhile: the card leaves with them (AMB-79)
    ctx.private(combat.involved(victim, item), "steal.card", target=victim.seat, card=card, card_kind=ctx.card(card).id)


def reflect(ctx: Ctx, defender: Player, item: Pending, mode: str) -> None:
    """AMB-30: Counter returns the attack to its source; Deflect redirects it to a random other
    living player; Drag Along sends it to the source while the defender suffers it too.
    The reflecting player becomes the source (kill credit); reflected items cannot be reflected."""
    state = ctx.state
    if mode in {"return", "both"}:
        if item.monster is not None:
            monster = state.monster(item.monster)
            if monster is not None:
                combat.hit_monster(
                    ctx, defender.seat, monster, item.power, item.special, label="reflected", amount=item.amount
                )
            return
        targets = [state.players[item.source]] if item.source is not None else []
    else:
        # Against a monster's attack the source is the monster (AMB-30), so its owner may be hit.
        exclude = {defender.seat} if item.monster is not None else {defender.seat, item.source}
        targets = [ctx.rng.choice(others)] if (others := [p for p in state.living() if p.seat not in exclude]) else []
    for target in targets:
        if not target.alive:
            continue
        copy = msgspec.structs.replace(
            item,
            id=state.new_id(),
            created=ctx.now,
            source=defender.seat,
            monster=None,
            monster_kind=None,
            tile=None,
            reflected=True,
            evasion_rolled=False,
        )
        combat.queue(ctx, target, copy)


def abandon(ctx: Ctx, player: Player, *, reason: str) -> None:
    """FL-ABN-5: every attack still waiting is taken with no defense, in order (pass-by requests
    are declined); reaching 0 HP means death with no death check, credited to that attacker;
    otherwise the player gave up and nobody is credited."""
    ctx.public("player.abandoning", player=player.seat, reason=reason)
    while player.pending and player.alive:
        item = player.pending[0]
        if item.kind == "pass_by":
            player.pending.pop(0)
            ctx.public("pass_by.declined", requester=item.source, target=player.seat)
            continue
        resolve_without_death_check(ctx, player, item)
        if player.hp == 0:
            death.die(ctx, player, credit=item.source, cause=item.label or "attack", fate="abandoned")
            return
    if player.alive:
        death.die(ctx, player, credit=death.CREDIT_NONE, cause="abandoned", fate="abandoned")
