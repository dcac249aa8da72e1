"""Commands: the strict parser, ``legal_commands`` (the ONE judge of legality) and ``apply``.

``apply`` parses a command, refuses it unless it is one of ``legal_commands`` for that seat
(so buttons, the API, bots and the autopilot share one judge), carries it out and lets the
flow run on. A refusal raises :class:`IllegalCommand` with a stable code; the ruleset restores
the state on any refusal (see ``ruleset.apply``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from delve.kernel import IllegalCommand, seat_words
from delve.kernel import quote_json as quote
from delve.maiden import checks, decisions, dice, effects, flow, movement, skills
from delve.maiden.ctx import Ctx
from delve.maiden.state import MOVE, POST_ROLL, PRE_ROLL, Game, Maiden


class Command(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    kind: str
    to: str | None = None
    card: int | None = None
    stat: str | None = None
    choice: str | None = None
    familiar: str | None = None
    seat: int | None = None
    skill: str | None = None
    area: str | None = None
    dice: list[int] | None = None
    die: int | None = None
    onto: int | None = None
    size: int | None = None
    option: int | None = None
    face: int | None = None
    boss: str | None = None
    room: str | None = None


KINDS = frozenset(
    {
        "choose_familiar",
        "choose_start_player",
        "keep_card",
        "place_card",
        "agi_option",
        "move",
        "stay",
        "use_skill",
        "use_arcana",
        "roll",
        "die_size",
        "ascend",
        "boost",
        "resolve",
        "choose",
    }
)
#: The window each kind of the active maiden's own commands belongs to.
WINDOW_KINDS = {
    MOVE: frozenset({"move", "stay", "use_skill", "use_arcana"}),
    PRE_ROLL: frozenset({"roll", "die_size", "use_skill", "use_arcana"}),
    POST_ROLL: frozenset({"ascend", "boost", "resolve", "use_skill", "use_arcana"}),
}
#: The kinds that answer a pending decision.
DECISION_KINDS = frozenset(
    {"choose_familiar", "choose_start_player", "keep_card", "place_card", "agi_option", "choose"}
)
#: Arcana timings allowed in each window (MV-EXPL-5: any point where a skill could be used).
ARCANA_WINDOWS = {
    MOVE: frozenset({"movement", "any"}),
    PRE_ROLL: frozenset({"pre_roll", "any"}),
    POST_ROLL: frozenset({"post_roll", "result", "any"}),
}


def parse(data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a command's shape; returns its canonical dict (no null fields).

    :raises IllegalCommand: ``command/malformed`` or ``command/unknown_kind``.
    """
    if not isinstance(data, Mapping):
        raise IllegalCommand("command/malformed", f"a command is a JSON object, got {quote(data)}")
    try:
        command = msgspec.convert(dict(data), type=Command)
    except (msgspec.ValidationError, TypeError) as exc:
        raise IllegalCommand("command/malformed", f"malformed command {quote(data)}: {quote(str(exc))}") from None
    if command.kind not in KINDS:
        raise IllegalCommand(
            "command/unknown_kind", f"unknown command kind {quote(command.kind)}; known: {', '.join(sorted(KINDS))}"
        )
    out: dict[str, Any] = msgspec.to_builtins(command)
    return out


def legal_commands(ctx: Ctx, seat: int, routes: dict[int, movement.Routes] | None = None) -> list[dict[str, Any]]:
    """Everything ``seat`` may do now: answer the head decision if it is theirs, else the active
    maiden's window commands; Arcana may be used from any seat for the active maiden.
    ``routes``: the movement routes known for this state, by seat; those computed for the
    listing are put in (see :func:`movement.destinations`)."""
    state = ctx.state
    if state.ended:
        return []
    if state.pending:
        head = state.pending[0]
        if head.seat is None or head.seat == seat:
            return decisions.commands(head)
        return []
    active = state.active
    if active is None or state.step not in WINDOW_KINDS:
        return []
    out: list[dict[str, Any]] = []
    if seat == active.seat:
        out += _window(ctx, active, routes)
        out += _skill_uses(ctx, active)
    out += _arcana_uses(ctx, active)
    return out


def listed_quickly(state: Game) -> bool:
    """Whether :func:`legal_commands` of ``state`` is at most a decision's options for every seat
    (the game ended, a decision pending, or no window open): listed in far less than the state's
    snapshot that keeps a listing for the next command (``MaidenRuleset.views``) costs."""
    return state.ended or bool(state.pending) or state.active is None or state.step not in WINDOW_KINDS


def _window(ctx: Ctx, maiden: Maiden, routes: dict[int, movement.Routes] | None) -> list[dict[str, Any]]:
    state = ctx.state
    step = state.step
    if step == MOVE:
        targets = movement.destinations(ctx, maiden, routes)
        if targets:
            return [{"kind": "move", "to": room} for room in targets]
        return [{"kind": "stay"}]  # MV-MOVE-11
    check = state.check
    assert check is not None
    if step == PRE_ROLL:
        sizes = [{"kind": "die_size", "size": s} for s in checks.size_options(ctx, maiden, check)]
        return [{"kind": "roll"}, *sizes]
    out = checks.ascension_options(ctx)
    if check.boost_left > 0:
        out += [{"kind": "boost", "die": i} for i in dice.remaining(check)]
    out.append({"kind": "resolve"})
    return out


def _skill_uses(ctx: Ctx, maiden: Maiden) -> list[dict[str, Any]]:
    """MV-SKILL-2/7/9: the owner's ready, unused skills whose timing fits this window."""
    allowed = skills.WINDOWS[ctx.state.step]
    out: list[dict[str, Any]] = []
    for skill in maiden.skills:
        definition = ctx.content.skills[skill.id]
        if not skills.usable(maiden, skill) or definition.timing not in allowed:
            continue
        for params in effects.param_options(ctx, skills.scaled_ops(ctx, skill), maiden):
            out.append({"kind": "use_skill", "skill": skill.id, **params})
    return out


def _arcana_uses(ctx: Ctx, maiden: Maiden) -> list[dict[str, Any]]:
    """MV-EXPL-4/5: any seat may use an Arcana of the pool for the active maiden."""
    allowed = ARCANA_WINDOWS[ctx.state.step]
    out: list[dict[str, Any]] = []
    for area_id in ctx.state.arcana:
        area = ctx.content.areas[area_id]
        if str(area.arcana_timing) not in allowed:
            continue
        for params in effects.param_options(ctx, area.arcana, maiden):
            out.append({"kind": "use_arcana", "area": area_id, **params})
    return out


def apply(
    ctx: Ctx,
    seat: int,
    data: Mapping[str, Any],
    legal: list[dict[str, Any]] | None = None,
    routes: dict[int, movement.Routes] | None = None,
) -> None:
    """Apply a command for ``seat`` and let the game run on to the next decision. ``legal``: the
    seat's legal commands in this state when the caller knows them already, ``routes``: the
    movement routes known for this state, by seat (both read, not changed).

    :raises IllegalCommand: with a stable code when the command is malformed or not legal now.
    """
    command = parse(data)
    if command["kind"] == "ascend" and isinstance(command.get("dice"), list):
        command["dice"] = sorted(command["dice"])
    if legal is None:
        legal = legal_commands(ctx, seat)
    if command not in legal:
        raise _diagnose(ctx, seat, command, legal)
    _dispatch(ctx, seat, command, routes)
    flow.proceed(ctx)


def _dispatch(ctx: Ctx, seat: int, command: dict[str, Any], routes: dict[int, movement.Routes] | None = None) -> None:
    state = ctx.state
    kind = command["kind"]
    if kind in DECISION_KINDS:
        decision = state.pending.pop(0)
        decisions.decide(ctx, decision, command)
        return
    maiden = state.active
    assert maiden is not None
    if kind == "move":
        movement.move(ctx, maiden, command["to"], None if routes is None else routes.get(maiden.seat))
        flow.enter(ctx, maiden)
    elif kind == "stay":
        flow.stay(ctx, maiden)
    elif kind == "roll":
        checks.roll(ctx, maiden)
    elif kind == "die_size":
        assert state.check is not None
        state.check.size = int(command["size"])
        ctx.emit("check.die_size", seat=maiden.seat, size=state.check.size)
    elif kind == "ascend":
        i, j = command["dice"]
        checks.ascend(ctx, maiden, i, j, command.get("onto"))
    elif kind == "boost":
        checks.boost(ctx, maiden, int(command["die"]))
    elif kind == "resolve":
        checks.resolve(ctx, maiden)
    elif kind == "use_skill":
        skill = maiden.skill(command["skill"])
        assert skill is not None
        if state.check is not None:
            state.check.skills_used.append(skill.id)
        ops = skills.scaled_ops(ctx, skill)
        skills.mark_used(ctx, maiden, skill)
        effects.run(ctx, ops, f"skill:{skill.id}", _params(command), actor=maiden)
    elif kind == "use_arcana":
        area = command["area"]
        state.arcana.remove(area)
        state.arcana_used.append(area)  # MV-EXPL-4: discarded after use, never back
        ctx.emit("arcana.used", area=area, seat=seat, for_seat=maiden.seat)
        effects.run(
            ctx, [dict(op) for op in ctx.content.areas[area].arcana], f"arcana:{area}", _params(command), actor=maiden
        )


def _params(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k not in {"kind", "skill", "area"}}


def _diagnose(ctx: Ctx, seat: int, command: dict[str, Any], legal: list[dict[str, Any]]) -> IllegalCommand:
    """Why a well-formed command is not legal now (only the message; legality is decided by
    ``legal_commands``)."""
    state = ctx.state
    kind = command["kind"]
    if state.ended:
        return IllegalCommand("game/ended", "the game has ended")
    if state.pending:
        head = state.pending[0]
        if head.seat is not None and head.seat != seat:
            return IllegalCommand(
                "command/not_your_decision",
                f"{seat_words(head.seat)} must decide {quote(head.kind)} first; wait for them",
            )
        answer = _answer_kind(head.kind)
        if kind != answer:
            with_kind = "" if answer == head.kind else f" with a {quote(answer)} command"
            return IllegalCommand("command/decision_pending", f"decide {quote(head.kind)} first{with_kind}")
        return IllegalCommand(
            "command/invalid_option", f"{quote(command)} is not one of the options of {quote(head.kind)}"
        )
    active = state.active_seat
    if kind in DECISION_KINDS:
        return IllegalCommand("command/nothing_to_decide", f"there is no pending decision for {quote(kind)}")
    if kind != "use_arcana" and seat != active:
        whose = "no seat's turn yet (the setup)" if active is None else f"the turn of {seat_words(active)}"
        return IllegalCommand("command/not_your_turn", f"it is {whose}")
    offered = {c["kind"] for c in legal}
    if kind not in offered and kind not in WINDOW_KINDS.get(state.step, frozenset()):
        where = [step for step, kinds in WINDOW_KINDS.items() if kind in kinds]
        return IllegalCommand(
            "command/not_your_phase",
            f"{quote(kind)} is not possible in the {state.step} step"
            + (f" (only in: {', '.join(where)})" if where else "")
            + f"; possible now: {', '.join(sorted(offered)) or 'nothing'}",
        )
    if kind == "stay":
        return IllegalCommand(
            "command/must_move", "staying is possible only when no room is a legal destination (MV-MOVE-11)"
        )
    if kind == "move":
        return IllegalCommand("command/unreachable", f"room {quote(command.get('to'))} is not a legal destination now")
    if kind == "ascend":
        return IllegalCommand("command/invalid_pair", f"dice {quote(command.get('dice'))} cannot ascend as a pair now")
    if kind == "use_skill":
        return _why_not_skill(ctx, seat, command)
    if kind == "use_arcana":
        return IllegalCommand("command/arcana_unavailable", f"Arcana {quote(command.get('area'))} cannot be used now")
    return IllegalCommand("command/invalid_option", f"{quote(command)} is not possible now")


def _why_not_skill(ctx: Ctx, seat: int, command: dict[str, Any]) -> IllegalCommand:
    maiden = ctx.state.maidens[seat]
    skill_id = command.get("skill")
    skill = maiden.skill(str(skill_id))
    if skill is None:
        reason = "you do not own it"
    elif skill.exhausted:
        reason = "it is exhausted until a rest room or death readies it (MV-SKILL-7)"
    elif skill.used:
        reason = "it was already used this turn (MV-SKILL-2)"
    elif ctx.content.skills[skill.id].timing not in skills.WINDOWS.get(ctx.state.step, frozenset()):
        reason = f"its timing is {ctx.content.skills[skill.id].timing}, not this window (MV-SKILL-9)"
    elif not effects.supported(ctx.content.skills[skill.id].ops):
        reason = "its effect is not implemented yet"
    else:
        reason = f"the parameters {quote(command)} are not among its options"
    return IllegalCommand("command/skill_unavailable", f"skill {quote(skill_id)} cannot be used now: {reason}")


def _answer_kind(decision_kind: str) -> str:
    return decision_kind if decision_kind in DECISION_KINDS else "choose"
