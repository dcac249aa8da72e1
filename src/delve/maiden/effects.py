"""The interpreter of OPS, the one-shot effect primitives of the contract (events, boss-action
effects, quests, Arcana, skills): ``run(ctx, ops, source, params, actor=...)``.

``params`` are the parameters of the command that triggered the ops (``die``, ``dice``,
``face``, ``seat``, ``boss``, ``room``) or ``{}`` for automatic effects. An op that needs a
player's choice pushes a ``choose`` decision carrying the ops still to run (``Decision.ops``);
``decisions.py`` resumes them with ``run``.

Implemented: heal, damage, dl, learn_skill, refresh_skills, extra_draw, boss_damage (named
boss), reveal_passage, room_type (named room), add_edge, add_quest, mp, free_pass,
die_bonus_size, extra_white, ap_bonus, auto_success, ignore_slate, ignore_slate_dice,
reduce_damage. Every other op raises ``IllegalCommand("command/not_implemented")`` when a command
would trigger it (``legal_commands`` does not offer such a skill or Arcana) and is reported
by a ``effect.unsupported`` event when an automatic effect contains it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from delve.kernel import IllegalCommand
from delve.maiden import bosses, death, skills
from delve.maiden.ctx import Ctx
from delve.maiden.state import Check, Decision, Maiden

Handler = Callable[[Ctx, dict[str, Any], Maiden, dict[str, Any], list[dict[str, Any]], str], bool]
"""(ctx, op, actor, params, rest ops, source) -> True when it suspended the run (a decision
was pushed that will resume ``rest``)."""

_HANDLERS: dict[str, Handler] = {}


def handler(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _HANDLERS[name] = fn
        return fn

    return register


#: Param values of implemented ops whose choice form is not implemented yet.
_CHOICE_FORMS = {"boss_damage": ("boss", {"choose_engaged", "choose"}), "room_type": ("room", {"choose_unexplored"})}


def supported(ops: Any) -> bool:
    """Whether every op of a list has an implementation (skills and Arcana whose ops do not are
    not offered by ``legal_commands``)."""
    for op in ops:
        name = op["op"]
        if name not in _HANDLERS:
            return False
        form = _CHOICE_FORMS.get(name)
        if form is not None and op.get(form[0]) in form[1]:
            return False
    return True


def param_options(ctx: Ctx, ops: Any, actor: Maiden) -> list[dict[str, Any]]:
    """The parameter sets a command using these ops may carry (``[{}]`` for ops that take none):
    ``who = choose`` lets the player name the maiden (``seat``). Ops that pick dice, faces or
    other targets add their choices here when they are implemented."""
    if not supported(ops):
        return []
    if any(op.get("who") == "choose" for op in ops):
        return [{"seat": m.seat} for m in ctx.state.maidens]
    return [{}]


def run(
    ctx: Ctx,
    ops: list[dict[str, Any]],
    source: str,
    params: dict[str, Any],
    *,
    actor: Maiden,
    strict: bool = True,
) -> None:
    """Run ``ops`` in order for ``actor`` (``self`` in the ops). Stops when the active maiden dies
    in her own room phase (MV-DEATH-5) or when an op suspends for a decision."""
    for index, op in enumerate(ops):
        check = ctx.state.check
        if ctx.state.ended or (check is not None and check.dead and actor.seat == ctx.state.active_seat):
            return
        if op.get("who") == "choose" and "seat" not in params and op["op"] in _HANDLERS:
            # The acting player names the maiden (contract: who = choose); resume afterwards.
            ctx.state.pending.append(
                Decision(
                    kind="choose",
                    seat=actor.seat,
                    options=[m.seat for m in ctx.state.maidens],
                    data={"for": "effect", "param": "seat", "params": dict(params), "actor": actor.seat},
                    ops=[dict(o) for o in ops[index:]],
                    source=source,
                )
            )
            return
        fn = _HANDLERS.get(op["op"])
        if fn is None:
            if strict:
                raise IllegalCommand("command/not_implemented", f"the effect {op['op']!r} is not implemented yet")
            ctx.emit("effect.unsupported", op=op["op"], source=source)
            continue
        try:
            suspended = fn(ctx, op, actor, params, ops[index + 1 :], source)
        except IllegalCommand as exc:
            if strict or exc.code != "command/not_implemented":
                raise
            ctx.emit("effect.unsupported", op=op["op"], source=source)
            continue
        if suspended:
            return


def amount(ctx: Ctx, op: dict[str, Any], key: str = "amount", default: int = 1) -> int:
    """An amount param: an int or ``"dl"`` (the current danger level)."""
    value = op.get(key, default)
    if value == "dl":
        return ctx.state.danger_level
    return int(value)


def targets(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any]) -> list[Maiden]:
    """``who``: self (default), all, others, area (maidens in her area, or her room outside
    areas), choose (the command's ``seat`` param; else the actor)."""
    who = op.get("who", "self")
    maidens = ctx.state.maidens
    if who == "all":
        return list(maidens)
    if who == "others":
        return [m for m in maidens if m.seat != actor.seat]
    if who == "area":
        area = ctx.content.rooms[actor.room].area
        if area is None:
            return [m for m in maidens if m.room == actor.room]
        return [m for m in maidens if ctx.content.rooms[m.room].area == area]
    if who == "seat":
        return [maidens[int(op["seat"])]]
    if who == "choose" and isinstance(params.get("seat"), int) and 0 <= params["seat"] < len(maidens):
        return [maidens[params["seat"]]]
    return [actor]


def _check(ctx: Ctx) -> Check:
    check = ctx.state.check
    if check is None:
        raise IllegalCommand("command/no_check", "this effect needs a check in progress")
    return check


@handler("heal")
def _heal(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    for maiden in targets(ctx, op, actor, params):
        death.heal(ctx, maiden, amount(ctx, op), cause=source)
    return False


@handler("damage")
def _damage(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    for maiden in targets(ctx, op, actor, params):
        death.damage(ctx, maiden, amount(ctx, op), cause=source)
    return False


@handler("dl")
def _dl(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    state = ctx.state
    before = state.danger_level
    state.danger_level = max(1, state.danger_level + int(op.get("delta", 0)))
    if state.danger_level != before:
        ctx.emit("danger.changed", danger_level=state.danger_level, delta=state.danger_level - before, cause=source)
    return False


@handler("learn_skill")
def _learn(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    chosen = targets(ctx, op, actor, params)
    if not chosen:
        return False
    # The first learner draws now; the others and the rest of the ops resume after her draw.
    follow = [{**op, "who": "seat", "seat": m.seat} for m in chosen[1:]] + list(rest)
    skills.learn(ctx, chosen[0], ops=follow, source=source)
    return True


@handler("refresh_skills")
def _refresh(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    for maiden in targets(ctx, op, actor, params):
        skills.refresh(ctx, maiden, cause=source)
    return False


@handler("extra_draw")
def _extra_draw(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    for maiden in targets(ctx, op, actor, params):
        maiden.extra_draw += amount(ctx, op)
        ctx.emit("maiden.extra_draw", seat=maiden.seat, extra=maiden.extra_draw)
    return False


@handler("boss_damage")
def _boss_damage(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    boss_id = op.get("boss")
    if boss_id not in ctx.state.bosses:
        raise IllegalCommand("command/not_implemented", f"boss_damage on {boss_id!r} is not implemented yet")
    boss = ctx.state.bosses[boss_id]
    if boss.engaged:
        bosses.hit(ctx, boss_id, amount(ctx, op), cause=source)
    elif not boss.defeated:
        boss.life_delta -= amount(ctx, op)  # weakened before it is set up (MV-QUEST-5)
        ctx.emit("boss.weakened", boss=boss_id, amount=amount(ctx, op))
    return False


@handler("reveal_passage")
def _reveal(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    passage = str(op["passage"])
    if passage not in ctx.state.revealed_passages:
        ctx.state.revealed_passages.append(passage)
        ctx.emit("passage.revealed", passage=passage, seat=actor.seat)
    return False


@handler("room_type")
def _room_type(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    room = op.get("room")
    if room not in ctx.content.rooms:
        raise IllegalCommand("command/not_implemented", f"room_type on {room!r} is not implemented yet")
    ctx.state.room_types[str(room)] = str(op["to"])
    ctx.emit("room.changed", room=room, to=op["to"])
    return False


@handler("add_edge")
def _add_edge(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    edge = [str(op["a"]), str(op["b"])]
    if edge not in ctx.state.extra_edges:
        ctx.state.extra_edges.append(edge)
        ctx.emit("map.edge_added", a=edge[0], b=edge[1])
    return False


@handler("add_quest")
def _add_quest(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    from delve.maiden import quests

    quests.add_numbered(ctx, int(op["number"]))
    return False


@handler("mp")
def _mp(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    ctx.state.turn.mp_bonus += amount(ctx, op)
    ctx.emit("maiden.mp", seat=actor.seat, bonus=ctx.state.turn.mp_bonus)
    return False


@handler("free_pass")
def _free_pass(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    ctx.state.turn.free_pass = True
    ctx.emit("maiden.free_pass", seat=actor.seat)
    return False


def _check_field(field: str, value: Callable[[Check, dict[str, Any], Ctx], Any]) -> Handler:
    def fn(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
        check = _check(ctx)
        setattr(check, field, value(check, op, ctx))
        ctx.emit("check.modified", seat=actor.seat, field=field, value=getattr(check, field), source=source)
        return False

    return fn


_HANDLERS["die_bonus_size"] = _check_field("size_bonus", lambda c, op, ctx: c.size_bonus + amount(ctx, op))
_HANDLERS["extra_white"] = _check_field("extra_white", lambda c, op, ctx: c.extra_white + amount(ctx, op))
_HANDLERS["ap_bonus"] = _check_field("ap_bonus", lambda c, op, ctx: c.ap_bonus + amount(ctx, op))
_HANDLERS["auto_success"] = _check_field("auto_success", lambda c, op, ctx: True)
_HANDLERS["ignore_slate"] = _check_field("ignore_slate", lambda c, op, ctx: True)
_HANDLERS["ignore_slate_dice"] = _check_field(
    "ignore_slate_dice", lambda c, op, ctx: c.ignore_slate_dice + amount(ctx, op)
)
_HANDLERS["reduce_damage"] = _check_field("reduce_damage", lambda c, op, ctx: c.reduce_damage + amount(ctx, op))

#: Ops whose timing needs a check in progress (before the roll / after it).
PRE_ROLL_OPS = frozenset({"die_bonus_size", "extra_white"})
CHECK_OPS = frozenset(
    {"die_bonus_size", "extra_white", "ap_bonus", "auto_success", "ignore_slate", "ignore_slate_dice", "reduce_damage"}
)
MOVE_OPS = frozenset({"mp", "free_pass", "warp"})
