"""Pending decisions (the contract's queue of "who decides what"): their commands, and what
happens once they are decided. The head of ``Game.pending`` is the only open decision.

Kinds: ``choose_start_player`` (any seat), ``choose_familiar``, ``keep_card`` (a draw with
candidates), ``place_card``, ``agi_option`` and the generic ``choose`` of effects, whose
``data["for"]`` says what it decides (``exhaust``: a ready skill; ``evolve``: pool or evolve).
"""

from __future__ import annotations

from typing import Any

from delve.maiden import checks, decks, effects, levelup, quests, skills
from delve.maiden.ctx import Ctx
from delve.maiden.state import Decision, Maiden


def commands(decision: Decision) -> list[dict[str, Any]]:
    """The commands that answer a decision (``legal_commands`` offers them to its seat)."""
    kind = decision.kind
    n = len(decision.options)
    if kind == "keep_card":
        return [{"kind": "keep_card", "card": i} for i in range(n)]
    if kind == "place_card":
        return [{"kind": "place_card", "stat": s} for s in decision.options]
    if kind == "agi_option":
        return [{"kind": "agi_option", "choice": c} for c in decision.options]
    if kind == "choose_familiar":
        return [{"kind": "choose_familiar", "familiar": f} for f in decision.options]
    if kind == "choose_start_player":
        return [{"kind": "choose_start_player", "seat": s} for s in decision.options]
    return [{"kind": "choose", "option": i} for i in range(n)]


def decide(ctx: Ctx, decision: Decision, command: dict[str, Any]) -> None:
    """Carry out a legal answer to the head decision (already removed from the queue)."""
    from delve.maiden import setup

    state = ctx.state
    kind = decision.kind
    maiden = state.maidens[decision.seat] if decision.seat is not None else None
    if kind == "choose_start_player":
        setup.set_start_player(ctx, int(command["seat"]), chosen=True)
    elif kind == "choose_familiar":
        assert maiden is not None
        setup.take_familiar(ctx, maiden, str(command["familiar"]))
    elif kind == "keep_card":
        assert maiden is not None
        card = decks.keep(ctx, decision, int(command["card"]))
        kept(ctx, maiden, card, decision.data, decision.ops, decision.source)
    elif kind == "place_card":
        assert maiden is not None
        levelup.place(ctx, maiden, str(decision.data["card"]), str(command["stat"]))
    elif kind == "agi_option":
        assert maiden is not None
        levelup.agi_option(ctx, maiden, str(command["choice"]))
    else:
        assert maiden is not None
        _choose(ctx, maiden, decision, decision.options[int(command["option"])])


def kept(
    ctx: Ctx, maiden: Maiden, card: str | None, info: dict[str, Any], ops: list[dict[str, Any]], source: str
) -> None:
    """What a drawn card does once kept (``None``: the deck and its discards were empty)."""
    purpose = info["purpose"]
    if purpose == "place":
        if card is not None:
            levelup.offer_placement(ctx, maiden, card, str(info.get("why", "")))
    elif purpose == "learn":
        if card is not None:
            skills.add(ctx, maiden, card, cause=source or "learn")
        if ops:
            effects.run(ctx, ops, source, {}, actor=maiden, strict=False)
    elif purpose == "check":
        if card is None:
            levelup.queue_defeats(ctx)  # no room card at all: nothing to check
        else:
            checks.start_room_check(ctx, maiden, card)
    elif purpose == "quest":
        if card is not None:
            quests.resolve(ctx, maiden, card)
    else:  # pragma: no cover - every draw names one of the purposes above
        raise ValueError(f"unknown draw purpose {purpose!r}")


def _choose(ctx: Ctx, maiden: Maiden, decision: Decision, option: Any) -> None:
    what = decision.data.get("for")
    if what == "exhaust":
        skill = maiden.skill(str(option))
        if skill is not None:
            skill.exhausted = True
            ctx.emit("skill.exhausted", seat=maiden.seat, skill=skill.id, cause="failure")
    elif what == "death":
        from delve.maiden import death

        death.decide(ctx, maiden, decision, str(option))
    elif what == "evolve":
        from delve.maiden import flow

        flow.evolve_or_pool(ctx, maiden, decision.data, str(option))
    elif what == "effect":
        # An op that needs a choice pushes Decision(kind="choose", seat=<who picks>, options=[...],
        # data={"for": "effect", "param": <param name>, "params": {...}, "actor": <seat>},
        # ops=[<the op>, *<ops after it>], source=...): the chosen option becomes that param
        # and the ops resume for the original actor.
        params = dict(decision.data.get("params", {}))
        if decision.data.get("param") == "*":
            params.update(option)  # a pick of several params (die ops: die/face, dice, onto)
        else:
            params[str(decision.data.get("param", "option"))] = option
        actor = ctx.state.maidens[int(decision.data.get("actor", maiden.seat))]
        effects.run(ctx, decision.ops, decision.source, params, actor=actor, strict=bool(decision.data.get("strict")))
