"""Resolving what a defense phase is for (FL-DEF, FL-ATK-8..18): the chosen defense against a
pending attack, trap, steal or pass-by item, counters and their reflections (AMB-30), and
abandonment, where every waiting item is taken with no defense (FL-ABN-5).

The items themselves, the matrix and the attacks that resolve at once are in ``combat.py``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

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
    report: dict[str, Any] = {**combat.describe(item, player), "method": method}
    if card is not None:
        report["defense_card"] = card.id

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
        method = "none"  # Drag Along: the defender suffers it too

    judged = judge(ctx, player, item, method, card)
    damage, special_lands = judged.damage, judged.special_lands
    if damage:
        player.hp = max(0, player.hp - damage)
    report.setdefault("outcome", "blocked" if judged.blocked else "hit")
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


class Judged(NamedTuple):
    """What a defense method does to the defender (FL-ATK-9..17): the final damage D, the
    reduction R it was computed with (``None`` when the item is nullified), whether the special
    part lands, and whether nothing at all reaches the defender."""

    damage: int
    reduction: int | None
    special_lands: bool
    blocked: bool


def judge(ctx: Ctx, player: Player, item: Pending, method: str, card: CardDef | None = None) -> Judged:
    """The defender's part of resolving ``item`` with ``method`` (a defense class, "none" or
    "parry"; ``card``: the defense card used), changing nothing: complete defense, parry and trap
    countermeasures nullify; otherwise R = base defense (+ a reduction card's value, AMB-25),
    D = floor(max(0, B - R) x m) (FL-ATK-11); the special part is received in full on an x cell,
    on a tri cell only if D >= 1 (FL-ATK-9, AMB-26); special defense blocks only the special
    part (AMB-27). ``resolve`` applies exactly this; the defense phase's view shows it."""
    if method in {"complete", "parry", "trap"}:
        return Judged(0, None, False, True)
    reduction = player.defense + (card.reduce if card is not None and method == "reduction" else 0)
    damage = combat.damage_of(ctx, player, item.power, reduction) if combat.has_damage(item.row) else 0
    special_lands = False
    if method != "special" and combat.has_special(item.row):
        cell = combat.symbol(item.row, method)
        special_lands = cell == combat.NO or (cell == combat.PART and damage >= 1)
    return Judged(damage, reduction, special_lands, method == "special" and damage == 0)


#: Special effects whose result depends on a draw the defender cannot know (which card, where).
RANDOM_SPECIALS = frozenset({"loss", "treasure_toss", "steal_card"})


def choices(ctx: Ctx, player: Player, item: Pending) -> list[dict[str, Any]]:
    """What each command of the defense phase leads to, for the defender's view (FL-DEF-1..5,
    §10.3): the command's fields (``kind``, ``card``) and its result, from :func:`judge` and the
    rest of what :func:`resolve` does, in the order of ``combat.defense_options``.

    ``method``: the defense method (``combat.DEFENSE_METHODS``). ``result``: ``hit`` (damage
    and/or the special part reach you), ``blocked`` (nothing does),
    ``reflected`` (a counter: nothing reaches you, the attack goes on), ``stolen``, ``nothing``
    (a steal from an empty hand), ``swap`` or ``refuse`` (pass-by). For attacks and traps:
    ``cp`` paid, ``damage`` D, ``reduction`` R (with ``power`` B of the item: D = (B - R) x m),
    ``hp`` after it, ``death_check`` when that is 0, ``special`` when the special part lands,
    ``trap`` (``removed``, ``stays``, ``seized``) for a trap, ``counter`` and ``to`` (the seat
    it goes to; none for a random other player) for a counter. ``random`` marks a result that
    depends on a draw not made yet (which card, which player, where): the rest is exact.
    Evasion was rolled when the phase began (FL-DEF-6), so it is not among them."""
    found = []
    for command in combat.defense_options(ctx, player, item):
        found.append({**command, **_foresee(ctx, player, item, command)})
    return found


def _foresee(ctx: Ctx, player: Player, item: Pending, command: dict[str, Any]) -> dict[str, Any]:
    kind = command["kind"]
    if kind in {"accept_pass_by", "decline_pass_by"}:
        return {"result": "swap" if kind == "accept_pass_by" else "refuse"}
    card = ctx.card(command["card"]) if kind == "defend" else None
    method = "parry" if kind == "parry" else card.defense if card is not None and card.defense else "none"
    data: dict[str, Any] = {"method": method, "cp": combat.ABILITY_CP if kind == "parry" else 0}
    if card is not None:
        data["cp"] = cards.cp_cost(ctx, player, card.cost)
        data["card_kind"] = card.id
    if item.kind == "steal":
        if method != "none":
            data["result"] = "blocked"
        elif player.hand:
            data.update(result="stolen", random=True)
        else:
            data["result"] = "nothing"
        return data
    if item.kind == "trap":
        data["trap"] = "seized" if card and card.seize else "stays" if card and card.keeps_trap else "removed"
    if method == "counter":
        assert card is not None and card.counter is not None
        data["counter"] = card.counter
        source = combat.public_source(item)
        if card.counter != "redirect" and source is not None and item.monster is None:
            data["to"] = source
        if card.counter == "redirect":
            data["random"] = True
        if card.counter != "both":
            data["result"] = "reflected"
            return data
        method = "none"  # Drag Along: the defender suffers it too
    judged = judge(ctx, player, item, method, card)
    hp = max(0, player.hp - judged.damage)
    data.update(result="blocked" if judged.blocked else "hit", damage=judged.damage, hp=hp)
    if judged.reduction is not None and combat.has_damage(item.row):
        data["reduction"] = judged.reduction
    if judged.damage and hp == 0:
        data["death_check"] = True
    if judged.special_lands and item.special:
        data["special"] = item.special
        if item.special in RANDOM_SPECIALS:
            data["random"] = True
    return data


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
