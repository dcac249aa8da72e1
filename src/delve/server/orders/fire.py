"""Firing standing orders: the worker's pass. A seat whose defense phase has waited
``delay_minutes`` (since its last action, the countdown of the kernel's ``Attention``) gets its
order's answer, chosen from its legal commands and view only (like a bot), and submitted through
the normal command path (``engine.submit``) with an ``order.fired`` event that says the order, not
the player, answered. A key derived from the game's version makes two workers apply it once."""

from __future__ import annotations

import logging
from typing import Any

from delve.kernel import DelveError, attention
from delve.server import clock
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.orders.models import StandingOrder
from delve.server.records.verify import ORDER_KEY

log = logging.getLogger("delve.orders")

FATED = "fated"
MAX_PER_SEAT = 10  # defense phases answered for one seat in one pass (each pending item is one)


def choose(
    order: StandingOrder, view: dict[str, Any], legal: list[dict[str, Any]]
) -> tuple[str, dict[str, Any]] | None:
    """The rule that applies and its command, or ``None`` (the order leaves this one to the player)."""
    kinds = {command["kind"] for command in legal}
    if "accept_pass_by" in kinds:
        if order.pass_by == StandingOrder.PassBy.DECLINE:
            return "decline_pass_by", {"kind": "decline_pass_by"}
        if order.pass_by == StandingOrder.PassBy.ACCEPT:
            return "accept_pass_by", {"kind": "accept_pass_by"}
        return None
    answers = [c for c in legal if c["kind"] in ("defend", "no_defense", "parry")]
    if not answers:
        return None
    if order.damage == StandingOrder.Damage.NO_CARD and {"kind": "no_defense"} in answers:
        return "no_card", {"kind": "no_defense"}
    if order.damage == StandingOrder.Damage.LEAST_LOSS:
        from delve.bots.fated import defense_loss

        return "least_loss", min(answers, key=lambda command: defense_loss(view, command))
    return None


def fire_seat(order: StandingOrder, now: int) -> int:
    """Answer the seat's waiting defense phases that its order covers; the number answered."""
    seat = order.seat
    fired = 0
    for _ in range(MAX_PER_SEAT):
        game = Game.objects.get(pk=seat.game_id)
        if game.status != Game.Status.RUNNING or seat.index is None:
            return fired
        ruleset = engine.ruleset_of(game)
        state = engine.load_state(game, ruleset)
        ruleset.advance(state, max(now, getattr(state, "clock", 0)))
        seen = attention(ruleset, state, seat.index)
        if seen.action != "defense" or seen.deadline_from is None:
            return fired
        if now < seen.deadline_from + order.delay_minutes * 60:
            return fired
        picked = choose(order, ruleset.view(state, seat.index), ruleset.legal_commands(state, seat.index))
        if picked is None:
            return fired
        rule, command = picked
        key = f"{ORDER_KEY}{rule}:{game.version}"
        try:
            engine.submit(game.pk, seat.user, command, idempotency_key=key, order=rule)
        except DelveError as exc:  # the game moved meanwhile: look again next pass
            log.debug("standing order of %s in game %s: %s", seat.name, game.pk, exc)
            return fired
        fired += 1
    return fired


def fire_due(now: int | None = None) -> int:
    """One pass over the active orders of running Fated games; the number of answers sent. A seat
    a bot plays (its player left it idle) is the bot's to answer: its orders wait until the player
    takes it back."""
    now = clock.now() if now is None else now
    orders = (
        StandingOrder.objects.filter(seat__game__status=Game.Status.RUNNING, seat__game__ruleset=FATED)
        .exclude(damage=StandingOrder.Damage.OFF, pass_by=StandingOrder.PassBy.OFF)
        .exclude(seat__is_bot=True)
        .select_related("seat", "seat__user")
    )
    return sum(fire_seat(order, now) for order in orders)
