"""Effect primitives: the small vocabulary that card effects, trap effects, necromancer magic
and special attacks are composed from.

Special parts of attacks (``special`` on a card) are either a status id or one of the special
effects below. Card ``effects`` lists name ops from ``OPS``; ``validate_card`` checks a card
definition against this vocabulary when the catalogue is loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from delve.fated import statuses
from delve.fated.content import CardDef, StatusDef
from delve.fated.ctx import Ctx
from delve.fated.state import Pending, Player

DEFAULT_CP_DRAIN = 20


def special_effect(ctx: Ctx, victim: Player, item: Pending) -> bool:
    """Apply the special part of an attack to a player; returns whether anything happened."""
    special = item.special
    if special is None:
        return False
    if special in ctx.content.statuses:
        return gain_status(ctx, victim, special)
    handler = SPECIAL_EFFECTS[special]
    return handler(ctx, victim, item)


def gain_status(ctx: Ctx, player: Player, status_id: str) -> bool:
    applied = statuses.apply(ctx, player, status_id)
    if applied:
        ctx.private(player.seat, "status.gained", status=status_id)
    return applied


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
    from delve.fated import death

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
    ctx.private([victim.seat, item.source], "steal.card", target=victim.seat, card=card, kind=ctx.card(card).id)
    return True


SPECIAL_EFFECTS: dict[str, Callable[[Ctx, Player, Pending], bool]] = {
    "cp_drain": _cp_drain,
    "loss": _loss,
    "misfortune": _misfortune,
    "treasure_toss": _treasure_toss,
    "steal_card": _steal_card,
}

#: Effect ops a card's ``effects`` list may use (extended with the card catalogue).
OPS: dict[str, Callable[..., object]] = {}


def card_targets(ctx: Ctx, player: Player, card: CardDef) -> list[dict[str, Any]]:
    """The target parameters with which a non-attack card can be played now."""
    return []


def run_card(ctx: Ctx, player: Player, card: CardDef, command: dict[str, Any]) -> None:
    """Run a non-attack card's effects."""
    raise NotImplementedError(f"card {card.id!r} has no playable effect yet")


def validate_card(card: CardDef, statuses_by_id: dict[str, StatusDef]) -> str | None:
    """A problem with a card's effect list, or None."""
    for effect in card.effects:
        if effect.op not in OPS:
            return f"unknown effect op {effect.op!r}; known: {', '.join(sorted(OPS)) or '(none)'}"
        for status in (effect.status, *effect.statuses):
            if status is not None and status not in statuses_by_id:
                return f"effect {effect.op!r} names unknown status {status!r}"
    return None
