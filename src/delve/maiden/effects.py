"""The interpreter of OPS, the one-shot effect primitives of the contract (events, boss-action
effects, quests, Arcana, skills): ``run(ctx, ops, source, params, actor=...)``.

``params`` are the parameters of the command that triggered the ops (``die``, ``dice``,
``face``, ``seat``, ``boss``, ``room``) or ``{}`` for automatic effects. An op that needs a
player's choice pushes a ``choose`` decision carrying the ops still to run (``Decision.ops``);
``decisions.py`` resumes them with ``run``.

Implemented: heal, damage, dl, learn_skill, refresh_skills, extra_draw, boss_damage (named
boss or choose_engaged), reveal_passage, room_type (named room or choose_unexplored), add_edge,
add_quest, mp, free_pass, die_bonus_size, extra_white, ap_bonus, auto_success, ignore_slate,
ignore_slate_dice, reduce_damage, the post_roll die ops die_adjust, reroll, set_die,
swap_colours, near_pair, exhaust_skill, skill_level, boss_disable_action, warp, look_rooms,
cancel_death (run by the answer of a damage window, ``death.window``).
An op's pick is a command param (``param_options``) or a ``choose`` decision (later picks of a
list, automatic effects, picks that are not command fields).
An unknown op raises ``IllegalCommand("command/not_implemented")`` when a command would trigger
it (``legal_commands`` does not offer such a skill or Arcana) and is reported by an
``effect.unsupported`` event when an automatic effect contains it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from delve.kernel import IllegalCommand, quote_json
from delve.maiden import board, bosses, death, dice, skills
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


def supported(ops: Any) -> bool:
    """Whether every op of a list has an implementation (skills and Arcana whose ops do not are
    not offered by ``legal_commands``)."""
    for op in ops:
        name = op["op"]
        if name not in _HANDLERS:
            return False
    return True


def param_options(ctx: Ctx, ops: Any, actor: Maiden) -> list[dict[str, Any]]:
    """The parameter sets a command using these ops may carry (``[{}]`` for ops that take none):
    ``who = choose`` lets the player name the maiden (``seat``); the first op that picks dice or
    faces (die_adjust, reroll, set_die, swap_colours, near_pair) offers each legal pick. No legal
    pick: the command is not offered. Later picks are asked by a ``choose`` decision."""
    if not supported(ops):
        return []
    sets: list[dict[str, Any]] = [{}]
    if any(op.get("who") == "choose" for op in ops):
        sets = [{"seat": m.seat} for m in ctx.state.maidens]
    for op in ops:
        chooser = _CHOICES.get(op["op"])
        picks = None if chooser is None else chooser(ctx, op, actor)
        if picks is None:
            continue
        if op["op"] in _DECISION_ONLY:
            if not picks:
                return []  # nothing it could act on: not offered
            continue
        return [{**s, **p} for s in sets for p in picks]
    return sets


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
                raise IllegalCommand(
                    "command/not_implemented", f"the effect {quote_json(op['op'])} is not implemented yet"
                )
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
        consumed = _CONSUMES.get(op["op"])
        if consumed:
            # A pick belongs to the op that used it: a later op of the list asks for its own.
            params = {k: v for k, v in params.items() if k not in consumed}


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
    """Each target takes the damage in turn; a damage window (``death.window``) suspends the run:
    the other targets and the ops after this one wait in its decision."""
    chosen = targets(ctx, op, actor, params)
    for k, maiden in enumerate(chosen):
        follow = [{**op, "who": "seat", "seat": m.seat} for m in chosen[k + 1 :]] + [dict(o) for o in rest]
        then = {"resume": "ops", "ops": follow, "source": source, "params": dict(params), "actor": actor.seat}
        death.damage(ctx, maiden, amount(ctx, op), cause=source, then=then)
        if death.awaiting(ctx):
            return True
    return False


@handler("cancel_death")
def _cancel_death(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    """Only in a damage window (``death.decide`` runs it for the maiden who would die): she lives
    on at 1 life where she is. Outside one there is no death to cancel."""
    if not death.cancel(ctx, actor, cause=source):
        ctx.emit("effect.no_target", op="cancel_death", source=source, seat=actor.seat)
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


@handler("reveal_passage")
def _reveal(ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str) -> bool:
    passage = str(op["passage"])
    if passage not in ctx.state.revealed_passages:
        ctx.state.revealed_passages.append(passage)
        ctx.emit("passage.revealed", passage=passage, seat=actor.seat)
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


# --- post_roll die manipulation (MV-ASC-8: dice change after the roll only through skills and
# Arcana). A pick is a dict of command params (``die``/``face``, ``dice``, ``onto``).

Chooser = Callable[[Ctx, dict[str, Any], Maiden], list[dict[str, Any]] | None]
"""The legal picks of an op (each a dict of params), or None when this op needs no pick."""
_CHOICES: dict[str, Chooser] = {}
_CONSUMES: dict[str, tuple[str, ...]] = {}
#: Ops whose pick is always a ``choose`` decision (their params are not command fields).
_DECISION_ONLY: set[str] = set()
#: Who answers the decision of an op (default: the acting player).
_PICKER: dict[str, Callable[[Ctx, dict[str, Any], Maiden], int]] = {}


def _rolled(ctx: Ctx) -> Check | None:
    check = ctx.state.check
    if check is None or not check.rolled or ctx.state.step != "post_roll":
        return None
    return check


def _adjust_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    """die_adjust: ±amount on one remaining die, clamped to 1..size; each resulting face."""
    check = _rolled(ctx)
    if check is None:
        return []
    step = abs(amount(ctx, op))
    out = []
    for i in dice.remaining(check):
        die = check.dice[i]
        face = die.face or 1
        for new in sorted({max(1, face - step), min(die.size, face + step)}):
            if new != face:
                out.append({"die": i, "face": new})
    return out


def _set_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    check = _rolled(ctx)
    if check is None:
        return []
    return [
        {"die": i, "face": f}
        for i in dice.remaining(check)
        for f in range(1, check.dice[i].size + 1)
        if f != check.dice[i].face
    ]


def _reroll_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    """reroll: exactly ``count`` remaining dice (all of them when fewer remain), or any
    non-empty set with count = "any"."""
    check = _rolled(ctx)
    if check is None:
        return []
    left = dice.remaining(check)
    count = op.get("count", 1)
    sizes = range(1, len(left) + 1) if count == "any" else [min(len(left), max(1, int(count)))]
    return [{"dice": list(c)} for n in sizes if n > 0 for c in combinations(left, n)]


def _swap_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    check = _rolled(ctx)
    if check is None:
        return []
    return [
        {"dice": [i, j]}
        for i, j in combinations(dice.remaining(check), 2)
        if check.dice[i].colour != check.dice[j].colour
    ]


def _near_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    """near_pair: like an ascension pair (MV-ASC-3/6, no_ascension mod) but faces 1 apart."""
    check = _rolled(ctx)
    if check is None or board.mod_flag(ctx, check.room, "no_ascension"):
        return []
    slate = dice.slate_index(check)
    left = dice.remaining(check)
    if slate is None and len(left) <= 2:
        return []
    out: list[dict[str, Any]] = []
    for i, j in combinations(left, 2):
        if slate in (i, j) or abs((check.dice[i].face or 0) - (check.dice[j].face or 0)) != 1:
            continue
        if ctx.state.settings.multi_die_checks:
            out += [{"dice": [i, j], "onto": k} for k in left if k not in (i, j)]
        else:
            out.append({"dice": [i, j]})
    return out


def _picked(
    ctx: Ctx,
    op: dict[str, Any],
    actor: Maiden,
    params: dict[str, Any],
    rest: list[dict[str, Any]],
    source: str,
) -> tuple[dict[str, Any] | None, bool]:
    """The pick of this op from ``params``, checked against the legal picks (a refusal changes
    nothing); without one, a ``choose`` decision is pushed: ``(None, True)``. ``(None, False)``:
    there is nothing to pick, the op does nothing."""
    name = op["op"]
    picks = _CHOICES[name](ctx, op, actor)
    if picks is None:
        return {}, False
    keys = _CONSUMES[name]
    given = {k: params[k] for k in keys if params.get(k) is not None}
    if given:
        if "dice" in given and name != "reroll":
            given["dice"] = sorted(given["dice"])
        if given not in picks:
            raise IllegalCommand("command/illegal_choice", f"{name}: {quote_json(given)} is not a legal pick now")
        return given, False
    if not picks:
        ctx.emit("effect.no_target", op=name, source=source, seat=actor.seat)
        return None, False
    picker = _PICKER.get(name)
    ctx.state.pending.append(
        Decision(
            kind="choose",
            seat=actor.seat if picker is None else picker(ctx, op, actor),
            options=picks,
            data={"for": "effect", "param": "*", "params": dict(params), "actor": actor.seat},
            ops=[dict(op), *(dict(o) for o in rest)],
            source=source,
        )
    )
    return None, True


def _die_op(
    name: str, chooser: Chooser, keys: tuple[str, ...], *, decision_only: bool = False
) -> Callable[[Handler], Handler]:
    """Register an op with a pick: ``chooser`` lists the legal picks, ``keys`` the params they
    set; the wrapped handler gets the checked pick."""
    _CHOICES[name] = chooser
    _CONSUMES[name] = keys
    if decision_only:
        _DECISION_ONLY.add(name)

    def register(apply: Handler) -> Handler:
        def fn(
            ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
        ) -> bool:
            pick, suspended = _picked(ctx, op, actor, params, rest, source)
            if pick is None:
                return suspended
            return apply(ctx, op, actor, pick, rest, source)

        _HANDLERS[name] = fn
        return apply

    return register


@_die_op("die_adjust", _adjust_picks, ("die", "face"))
def _die_adjust(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str
) -> bool:
    return _set_face(ctx, actor, pick, "die_adjust", source)


@_die_op("set_die", _set_picks, ("die", "face"))
def _set_die(ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str) -> bool:
    return _set_face(ctx, actor, pick, "set_die", source)


def _set_face(ctx: Ctx, actor: Maiden, pick: dict[str, Any], how: str, source: str) -> bool:
    check = _check(ctx)
    die = check.dice[int(pick["die"])]
    before = die.face
    die.face = int(pick["face"])
    ctx.emit("check.die_changed", seat=actor.seat, die=int(pick["die"]), before=before, face=die.face, op=how)
    return False


@_die_op("reroll", _reroll_picks, ("dice",))
def _reroll(ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str) -> bool:
    check = _check(ctx)
    chosen = [int(i) for i in pick["dice"]]
    for i in chosen:
        check.dice[i].face = ctx.rng.randint(1, check.dice[i].size)
    ctx.emit("check.rerolled", seat=actor.seat, dice=chosen, faces=[check.dice[i].face for i in chosen])
    return False


@_die_op("swap_colours", _swap_picks, ("dice",))
def _swap(ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str) -> bool:
    check = _check(ctx)
    i, j = (int(x) for x in pick["dice"])
    a, b = check.dice[i], check.dice[j]
    a.colour, b.colour = b.colour, a.colour
    ctx.emit("check.colours_swapped", seat=actor.seat, dice=[i, j], colours=[a.colour, b.colour])
    return False


@_die_op("near_pair", _near_picks, ("dice", "onto"))
def _near_pair(ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str) -> bool:
    """Removal of the pair and one ascension bonus, as ascend (MV-ASC-1/4), faces 1 apart."""
    from delve.maiden import checks

    check = _check(ctx)
    i, j = (int(x) for x in pick["dice"])
    onto = pick.get("onto")
    check.dice[i].removed = check.dice[j].removed = True
    check.ascensions += 1
    gained = checks.bonus(ctx, actor)
    if onto is not None:
        check.dice[int(onto)].bonus += gained
    faces = [check.dice[i].face, check.dice[j].face]
    ctx.emit("check.near_pair", seat=actor.seat, dice=[i, j], faces=faces, bonus=gained, onto=onto)
    return False


# --- picks among skills, bosses and rooms -------------------------------------------------


def _boss_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]] | None:
    """boss_damage with boss = choose_engaged: one of the engaged, living bosses."""
    if op.get("boss") not in ("choose_engaged", "choose"):
        return None
    return [{"boss": b} for b, s in ctx.state.bosses.items() if s.engaged and not s.defeated]


@_die_op("boss_damage", _boss_picks, ("boss",))
def _boss_damage(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str
) -> bool:
    """The boss loses life (a defeat goes the normal way: level-ups, MV-BOSS-8); a boss not yet
    set up is weakened instead (MV-QUEST-5)."""
    boss_id = pick.get("boss", op.get("boss"))
    if boss_id not in ctx.state.bosses:
        raise IllegalCommand("command/unknown_boss", f"there is no boss {quote_json(boss_id)}")
    boss = ctx.state.bosses[boss_id]
    if boss.engaged:
        bosses.hit(ctx, boss_id, amount(ctx, op), cause=source)
    elif not boss.defeated:
        boss.life_delta -= amount(ctx, op)
        ctx.emit("boss.weakened", boss=boss_id, amount=amount(ctx, op))
    return False


def _disable_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    """boss_disable_action: an enabled action of the named boss (or of any living boss with
    boss = choose); a boss always keeps one enabled action."""
    named = op.get("boss")
    out: list[dict[str, Any]] = []
    for boss_id, boss in ctx.state.bosses.items():
        if boss.defeated or (named not in ("choose", None) and boss_id != named):
            continue
        enabled = [k for k in range(3) if k not in boss.disabled]
        if len(enabled) > 1:
            out += [{"boss": boss_id, "action": k} for k in enabled]
    return out


@_die_op("boss_disable_action", _disable_picks, ("boss", "action"), decision_only=True)
def _boss_disable(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str
) -> bool:
    """The pointer skips a disabled action (``bosses.first_enabled``); when it points at it now,
    it moves on to the next enabled one."""
    boss_id, action = str(pick["boss"]), int(pick["action"])
    boss = ctx.state.bosses[boss_id]
    boss.disabled.append(action)
    ctx.emit("boss.action_disabled", boss=boss_id, action=action, seat=actor.seat)
    if boss.engaged and boss.pointer == action:
        boss.pointer = bosses.first_enabled(boss, action)
        ctx.emit("boss.pointer", boss=boss_id, pointer=boss.pointer)
    return False


def _room_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]] | None:
    """room_type with room = choose_unexplored: an unexplored room without a boss that is not of
    that type already."""
    if op.get("room") != "choose_unexplored":
        return None
    state, to = ctx.state, str(op["to"])
    return [
        {"room": r}
        for r, room in ctx.content.rooms.items()
        if room.boss is None and not board.is_explored(state, r, ctx.content.start) and board.room_type(ctx, r) != to
    ]


@_die_op("room_type", _room_picks, ("room",))
def _room_type(ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str) -> bool:
    room = pick.get("room", op.get("room"))
    if room not in ctx.content.rooms:
        raise IllegalCommand("command/unknown_room", f"there is no room {quote_json(room)}")
    ctx.state.room_types[str(room)] = str(op["to"])
    ctx.emit("room.changed", room=room, to=op["to"])
    return False


def _level_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    return [{"level_skill": s.id} for s in actor.skills]


@_die_op("skill_level", _level_picks, ("level_skill",), decision_only=True)
def _skill_level(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str
) -> bool:
    """MV-SKILL-10: one owned skill, picked by its owner, gains ``amount`` levels."""
    skill = actor.skill(str(pick["level_skill"]))
    assert skill is not None
    skill.level += max(0, amount(ctx, op))
    ctx.emit("skill.levelled", seat=actor.seat, skill=skill.id, level=skill.level)
    return False


def _exhaust_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    target = targets(ctx, op, actor, {})[0]
    return [{"exhaust": s.id} for s in target.skills if not s.exhausted]


_PICKER["exhaust_skill"] = lambda ctx, op, actor: targets(ctx, op, actor, {})[0].seat


@_die_op("exhaust_skill", _exhaust_picks, ("exhaust",), decision_only=True)
def _exhaust_one(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str
) -> bool:
    target = targets(ctx, op, actor, {})[0]
    skill = target.skill(str(pick["exhaust"]))
    assert skill is not None
    skill.exhausted = True
    ctx.emit("skill.exhausted", seat=target.seat, skill=skill.id, cause=source)
    return False


_exhaust_single = _HANDLERS["exhaust_skill"]


@handler("exhaust_skill")
def _exhaust_skill(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    """Each affected maiden's player picks one of her ready skills to exhaust (nothing when she
    has none); several maidens are asked one after the other."""
    if op.get("who") == "seat":
        return _exhaust_single(ctx, op, actor, params, rest, source)
    chosen = targets(ctx, op, actor, params)
    follow = [{**op, "who": "seat", "seat": m.seat} for m in chosen]
    if not follow:
        return False
    return _exhaust_single(ctx, follow[0], actor, params, follow[1:] + list(rest), source) or _continue(
        ctx, follow[1:] + list(rest), source, params, actor
    )


def _continue(ctx: Ctx, ops: list[dict[str, Any]], source: str, params: dict[str, Any], actor: Maiden) -> bool:
    """Run ``ops`` now (the rest of a list an op expanded); the caller's run stops."""
    run(ctx, ops, source, params, actor=actor, strict=False)
    return True


# --- movement --------------------------------------------------------------------------------


def _warp_picks(ctx: Ctx, op: dict[str, Any], actor: Maiden) -> list[dict[str, Any]]:
    """warp (movement window, not in a boss fight, MV-MOVE-12): to = explored: any other explored
    room without a living boss (then she moves on from there); to = unexplored: an unexplored
    room she could stop in (no boss room), which she enters. Entry restrictions apply (CHG-16)."""
    from delve.maiden import movement

    state = ctx.state
    if state.step != "move" or actor.seat != state.active_seat or actor.boss is not None:
        return []
    start = ctx.content.start
    explored = op.get("to") == "explored"
    out = []
    for r, room in ctx.content.rooms.items():
        if r == actor.room or board.living_boss(ctx, r) is not None or not movement.enterable(ctx, actor, r):
            continue
        if explored:
            fits = board.is_explored(state, r, start)
        else:
            fits = room.boss is None and movement.stoppable(ctx, actor, r)
        if fits:
            out.append({"room": r})
    return out


@_die_op("warp", _warp_picks, ("room",))
def _warp(ctx: Ctx, op: dict[str, Any], actor: Maiden, pick: dict[str, Any], rest: list[Any], source: str) -> bool:
    from delve.maiden import flow

    origin, to = actor.room, str(pick["room"])
    actor.room = to
    ctx.emit("maiden.warped", seat=actor.seat, frm=origin, to=to)
    if op.get("to") != "explored":
        ctx.state.turn.moved = True
        flow.enter(ctx, actor)
    return False


# --- the room deck ---------------------------------------------------------------------------


@handler("look_rooms")
def _look_rooms(
    ctx: Ctx, op: dict[str, Any], actor: Maiden, params: dict[str, Any], rest: list[Any], source: str
) -> bool:
    """Look at the top ``count`` room cards (fewer if the deck has fewer; no reshuffle) and put
    them back in the order the acting player picks, top card first: one ``choose`` decision per
    card while two or more are left. Only those cards are ever shown (the decision's options);
    the deck stays whole between the picks."""
    deck = ctx.state.decks.room
    left = list(op.get("_left", []))
    placed = list(op.get("_placed", []))
    if "_left" not in op:
        n = min(len(deck), max(0, amount(ctx, op, "count", 1)))
        left = list(reversed(deck[len(deck) - n :])) if n else []  # top first
        ctx.emit("rooms.looked", seat=actor.seat, count=len(left), source=source)
    elif params.get("look_card") in left:
        card = str(params["look_card"])
        left.remove(card)
        placed.append(card)
    if len(left) >= 2:
        ctx.state.pending.append(
            Decision(
                kind="choose",
                seat=actor.seat,
                options=[{"look_card": c} for c in left],
                data={"for": "effect", "param": "*", "params": {}, "actor": actor.seat},
                ops=[{**op, "_left": left, "_placed": placed}, *(dict(o) for o in rest)],
                source=source,
            )
        )
        return True
    if placed:
        order = placed + left  # top first
        n = len(order)
        assert sorted(deck[len(deck) - n :]) == sorted(order)
        deck[len(deck) - n :] = list(reversed(order))
        ctx.emit("rooms.reordered", seat=actor.seat, count=n, source=source)
    return False


_CONSUMES["look_rooms"] = ("look_card",)
