"""The card piles (FL-CARD): dealing, drawing with the discard reshuffle, CP consumption and the
hand limit. What cards *do* lives in effects.py and combat.py."""

from __future__ import annotations

from collections.abc import Callable

from delve.fated import statuses
from delve.fated.ctx import Ctx
from delve.fated.state import Pile, Player


def draw_one(ctx: Ctx) -> int | None:
    """FL-CARD-8: take the top card; an empty draw pile is refilled by shuffling the discard
    pile; with both empty nothing is drawn (AMB-19)."""
    state = ctx.state
    if not state.deck:
        if not state.discard:
            return None
        state.deck = state.discard
        state.discard = Pile()
        ctx.rng.shuffle(state.deck)
        ctx.public("deck.reshuffled", cards=len(state.deck))
    return state.deck.pop()


def draw(ctx: Ctx, player: Player, count: int) -> list[int]:
    """Draw ``count`` cards one by one into the player's hand; returns what was drawn."""
    drawn = []
    for _ in range(count):
        card = draw_one(ctx)
        if card is None:
            break
        player.hand.append(card)
        drawn.append(card)
    if drawn:
        ctx.private(player.seat, "cards.drawn", cards=drawn)
    elif count:
        ctx.private(player.seat, "cards.none_left")
    return drawn


def discard(ctx: Ctx, player: Player, card: int) -> None:
    player.hand.remove(card)
    ctx.state.discard.append(card)


def enforce_hand_limit(ctx: Ctx, player: Player) -> list[int]:
    """FL-CARD-9/10, AMB-21: while over the limit, discard one card chosen at random among all
    held cards. Called only at the end of the core phase and when passing in a move phase."""
    dropped = []
    while len(player.hand) > player.max_cards:
        card = ctx.rng.choice(player.hand)
        discard(ctx, player, card)
        dropped.append(card)
    if dropped:
        ctx.private(player.seat, "cards.over_limit", cards=dropped)
    return dropped


def cp_cost(ctx: Ctx, player: Player, cost: int) -> int:
    """FL-CP-1/5: ceil(cost x (100 - magic) / 100 x f) with one rounding at the end, in integer
    arithmetic; f is 1/2 with Sage, 2 with Fool."""
    return cp_prices(ctx, player)(cost)


def cp_terms(ctx: Ctx, player: Player) -> tuple[int, int]:
    """The player's CP price of a cost ``c`` now is ``ceil(c * factor / denominator)``: returns
    ``(factor, denominator)`` (FL-CP-1/5, the statuses read once)."""
    factor, denominator = statuses.cp_ratio(ctx, player)
    return factor * (100 - player.magic), denominator * 100


def cp_prices(ctx: Ctx, player: Player) -> Callable[[int], int]:
    """:func:`cp_cost` for many costs of one player at one moment (the statuses read once)."""
    factor, denominator = cp_terms(ctx, player)

    def price(cost: int) -> int:
        return -(-(cost * factor) // denominator)

    return price
