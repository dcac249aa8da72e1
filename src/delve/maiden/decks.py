"""Decks and draws (MV-DECK-1..5, MV-QUEST-6): the Inspiration rule (draw 1 + Ins, keep one),
reshuffles of exhausted decks, the quest deck that is never reshuffled.

A draw with more than one candidate becomes a ``keep_card`` decision of the drawing maiden; the
kept card then continues with the draw's ``purpose`` (``decisions.kept``). Discarded candidates
are public (MV-DECK-5).
"""

from __future__ import annotations

from typing import Any

from delve.maiden import board
from delve.maiden.ctx import Ctx
from delve.maiden.state import Decision, Maiden

DECKS = ("action", "skill", "room", "quest")


def pile(ctx: Ctx, deck: str) -> list[str]:
    cards: list[str] = getattr(ctx.state.decks, deck)
    return cards


def discard_pile(ctx: Ctx, deck: str) -> list[str]:
    cards: list[str] = getattr(ctx.state.decks, f"{deck}_discard")
    return cards


def take(ctx: Ctx, deck: str, n: int) -> list[str]:
    """Up to ``n`` cards from the top; an empty action, skill or room deck is first rebuilt from
    its shuffled discard pile (MV-DECK-4); the quest deck never is (MV-QUEST-6)."""
    cards = pile(ctx, deck)
    out: list[str] = []
    while len(out) < n:
        if not cards:
            discards = discard_pile(ctx, deck)
            if deck == "quest" or not discards:
                break
            cards.extend(discards)
            discards.clear()
            ctx.rng.shuffle(cards)
            ctx.emit("deck.reshuffled", deck=deck, count=len(cards))
        out.append(cards.pop())
    return out


def draw_count(ctx: Ctx, maiden: Maiden, deck: str) -> int:
    """MV-DECK-2/3: 1 + the drawing maiden's Ins (+ a pending ``extra_draw``); the toggle
    ``ins_applies_to_room_deck`` (OQ-10) and the mods ``ins_draws_disabled`` / ``blind_draw``
    (room cards) take the Ins part away."""
    ins = maiden.ins
    if deck in ("room", "quest") and not ctx.state.settings.ins_applies_to_room_deck:
        ins = 0
    if board.mod_flag(ctx, maiden.room, "ins_draws_disabled"):
        ins = 0
    if deck == "room" and board.mod_flag(ctx, maiden.room, "blind_draw"):
        return 1
    return 1 + ins + maiden.extra_draw


def draw(
    ctx: Ctx,
    maiden: Maiden,
    deck: str,
    purpose: str,
    *,
    data: dict[str, Any] | None = None,
    ops: list[dict[str, Any]] | None = None,
    source: str = "",
) -> None:
    """Draw for ``maiden`` and continue with ``purpose`` once a card is kept: at once when there
    is only one candidate, else through a ``keep_card`` decision."""
    from delve.maiden import decisions

    count = draw_count(ctx, maiden, deck)
    if not (deck == "room" and board.mod_flag(ctx, maiden.room, "blind_draw")):
        maiden.extra_draw = 0
    cards = take(ctx, deck, count)
    info = {"deck": deck, "purpose": purpose, **(data or {})}
    if not cards:
        ctx.emit("deck.empty", deck=deck, seat=maiden.seat)
        decisions.kept(ctx, maiden, None, info, list(ops or []), source)
        return
    ctx.emit("card.drawn", deck=deck, seat=maiden.seat, count=len(cards))
    if len(cards) == 1:
        decisions.kept(ctx, maiden, cards[0], info, list(ops or []), source)
        return
    ctx.state.pending.insert(
        0, Decision(kind="keep_card", seat=maiden.seat, options=cards, data=info, ops=list(ops or []), source=source)
    )


def keep(ctx: Ctx, decision: Decision, index: int) -> str:
    """The seat keeps candidate ``index``; the others go to the discard pile, face up (MV-DECK-5)."""
    deck = decision.data["deck"]
    kept = str(decision.options[index])
    rest = [str(c) for i, c in enumerate(decision.options) if i != index]
    discard_pile(ctx, deck).extend(rest)
    ctx.emit("card.kept", deck=deck, seat=decision.seat, card=kept, discarded=rest)
    return kept


def search_action(ctx: Ctx, symbol: str) -> str | None:
    """MV-SETUP-11, OQ-29: search a card of ``symbol`` out of the action deck (or its discard pile
    when the deck holds none), then reshuffle the deck."""
    cards = pile(ctx, "action")
    for where in (cards, discard_pile(ctx, "action")):
        if symbol in where:
            where.remove(symbol)
            ctx.rng.shuffle(cards)
            return symbol
    return None
