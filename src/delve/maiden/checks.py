"""The room phase's check (MV-CHECK-1..17, Appendix B), boss checks (MV-BOSS-2..5), ascension
(MV-ASC), slate (MV-SLATE) and the pre_roll / post_roll windows where skills and Arcana apply.

A check goes: ``start`` (target, slate, required count) -> window ``pre_roll`` (skills, Arcana,
``die_size``) -> ``roll`` -> window ``post_roll`` (``ascend``, ``boost``, skills, Arcana) ->
``resolve`` (success, boss hit and pointer, failure damage, slate damage, event) -> the room
card is discarded in ``finish`` (step ``after_check``).
"""

from __future__ import annotations

from typing import Any

from delve.maiden import board, bosses, death, dice, effects, rounds
from delve.maiden.ctx import Ctx
from delve.maiden.state import AFTER_CHECK, DIE_SIZES, POST_ROLL, PRE_ROLL, Check, Decision, Maiden


def _target(ctx: Ctx, room: str, difficulty: int) -> int:
    """MV-CHECK-3: base target + difficulty (+ the ``difficulty_delta`` mod), at least 1 (OQ-36)."""
    return max(1, rounds.base_target(ctx) + difficulty + board.mod_sum(ctx, room, "difficulty_delta"))


def _slate(ctx: Ctx, room: str, slate: str | None) -> str | None:
    if slate is None:
        value = board.mod_value(ctx, room, "default_slate")
        return str(value) if value else None
    return slate


def _required(ctx: Ctx, source: Any, slate: str | None) -> int:
    """CHG-12: ``required_count`` counts only with ``multi_die_checks``; a slate check needs 1."""
    if not ctx.state.settings.multi_die_checks or slate is not None:
        return 1
    return max(1, int(getattr(source, "required_count", 1) or 1))


def start_room_check(ctx: Ctx, maiden: Maiden, card_id: str) -> None:
    card = ctx.content.room_cards[card_id]
    slate = _slate(ctx, maiden.room, card.slate)
    ctx.state.check = Check(
        kind="room",
        source=card_id,
        room=maiden.room,
        target=_target(ctx, maiden.room, int(card.difficulty)),
        slate=slate,
        required=_required(ctx, card, slate),
    )
    ctx.state.step = PRE_ROLL
    _started(ctx, maiden)


def start_boss_check(ctx: Ctx, maiden: Maiden, boss_id: str) -> None:
    """MV-BOSS-2, MV-CHECK-16: the current boss action replaces the room card."""
    ctx.state.check = boss_check(ctx, maiden.room, boss_id, ctx.state.bosses[boss_id].pointer)
    ctx.state.step = PRE_ROLL
    _started(ctx, maiden)


def boss_check(ctx: Ctx, room: str, boss_id: str, pointer: int) -> Check:
    """The check against the boss's action at ``pointer`` in ``room``, made and left unstarted:
    :func:`start_boss_check` starts it, the move screen shows its odds before the maiden goes
    there. The slate and the target are counted as there, the target with the action's own mods
    (the state's check is this one while it is counted, then the one it was)."""
    action = bosses.definition(ctx, boss_id).actions[pointer]
    slate = _slate(ctx, room, action.slate)
    check = Check(
        kind="boss",
        source=boss_id,
        action=pointer,
        room=room,
        target=0,
        slate=slate,
        required=_required(ctx, action, slate),
    )
    before = ctx.state.check
    ctx.state.check = check
    try:
        check.target = _target(ctx, room, int(action.difficulty))
    finally:
        ctx.state.check = before
    return check


def _started(ctx: Ctx, maiden: Maiden) -> None:
    check = ctx.state.check
    assert check is not None
    ctx.emit(
        "check.started",
        seat=maiden.seat,
        kind=check.kind,
        source=check.source,
        action=check.action,
        target=check.target,
        slate=check.slate,
        required=check.required,
    )


def natural_size(ctx: Ctx, maiden: Maiden, check: Check) -> int:
    """MV-CHECK-4: the size Wil gives (``die_bonus_size`` op, ``die_step`` mod)."""
    return dice.die_size(maiden.wil + check.size_bonus, board.mod_sum(ctx, check.room, "die_step"))


def size_options(ctx: Ctx, maiden: Maiden, check: Check) -> list[int]:
    """CHG-10 (``allow_smaller_die``): the sizes she may pick instead, smaller than Wil's."""
    if not ctx.state.settings.allow_smaller_die:
        return []
    natural = natural_size(ctx, maiden, check)
    return [s for s in DIE_SIZES if s < natural and s != check.size]


def white_dice(ctx: Ctx, maiden: Maiden, check: Check) -> int:
    if board.mod_flag(ctx, check.room, "no_white_dice"):
        return 0
    return maiden.pie + check.extra_white


def roll(ctx: Ctx, maiden: Maiden) -> None:
    """MV-CHECK-5: roll red, blue, black and Pie white dice, all of one size. The mod
    ``reroll_highest`` rerolls the highest die once, automatically; pie_mode boost gives Pie
    points to spread (CHG-17)."""
    check = ctx.state.check
    assert check is not None
    size = check.size or natural_size(ctx, maiden, check)
    restricted = ctx.state.settings.slate_roll_restricted and not check.ignore_slate
    check.dice = dice.pool(size, white_dice(ctx, maiden, check), slate=check.slate, restricted=restricted)
    for die in check.dice:
        die.face = ctx.rng.randint(1, size)
    check.rolled = True
    ctx.emit("check.rolled", seat=maiden.seat, dice=[[d.colour, d.size, d.face] for d in check.dice])
    if board.mod_flag(ctx, check.room, "reroll_highest"):
        highest = dice.highest(check)
        check.dice[highest].face = ctx.rng.randint(1, size)
        check.rerolled_highest = True
        ctx.emit("check.rerolled", seat=maiden.seat, dice=[highest], faces=[check.dice[highest].face])
    if ctx.state.settings.pie_mode == "boost":
        check.boost_left = maiden.pie
    ctx.state.step = POST_ROLL


def bonus(ctx: Ctx, maiden: Maiden) -> int:
    check = ctx.state.check
    assert check is not None
    fixed = board.mod_value(ctx, check.room, "ascension_bonus_fixed")
    return dice.ascension_bonus(ctx.state.settings, maiden.pie, None if fixed is None else int(fixed))


def ascension_options(ctx: Ctx) -> list[dict[str, Any]]:
    """MV-ASC-1..6 as commands: every legal pair (with ``onto`` under multi_die_checks)."""
    check = ctx.state.check
    if check is None or not check.rolled or board.mod_flag(ctx, check.room, "no_ascension"):
        return []
    out: list[dict[str, Any]] = []
    for i, j in dice.legal_pairs(check):
        if ctx.state.settings.multi_die_checks:
            out += [{"kind": "ascend", "dice": [i, j], "onto": k} for k in dice.remaining(check) if k not in (i, j)]
        else:
            out.append({"kind": "ascend", "dice": [i, j]})
    return out


def ascend(ctx: Ctx, maiden: Maiden, i: int, j: int, onto: int | None) -> None:
    """MV-ASC-1/4/8: remove the pair; AP rises by the bonus (onto a chosen die with CHG-12)."""
    check = ctx.state.check
    assert check is not None
    check.dice[i].removed = check.dice[j].removed = True
    check.ascensions += 1
    gained = bonus(ctx, maiden)
    if onto is not None:
        check.dice[onto].bonus += gained
    ctx.emit("check.ascended", seat=maiden.seat, dice=[i, j], face=check.dice[i].face, bonus=gained, onto=onto)


def boost(ctx: Ctx, maiden: Maiden, index: int) -> None:
    """CHG-17 (pie_mode boost): +1 on a remaining die, beyond its maximum if need be."""
    check = ctx.state.check
    assert check is not None
    check.dice[index].bonus += 1
    check.boost_left -= 1
    ctx.emit("check.boosted", seat=maiden.seat, die=index, value=dice.value(check.dice[index]))


def current_ap(ctx: Ctx, maiden: Maiden) -> int:
    """The check's AP: once resolved, the AP it was resolved with (MV-CHECK; a later change of
    Piety does not recount its ascension bonus, MV-ASC); before, from the dice now."""
    check = ctx.state.check
    assert check is not None and check.rolled
    if check.result is not None and check.ap is not None:
        return check.ap
    return dice.ap(check, bonus(ctx, maiden), ctx.state.settings.multi_die_checks)


def resolve(ctx: Ctx, maiden: Maiden) -> None:
    """Appendix B from "AP is final": success or failure; a boss check hits the boss and moves
    its pointer before the maiden's damage (MV-BOSS-5); failure damage = DL (MV-CHECK-10); slate
    damage on success and failure (MV-SLATE-6/7); death skips the rest (MV-DEATH-5); then the
    event (MV-EVENT-1/2, MV-BOSS-10)."""
    state = ctx.state
    check = state.check
    assert check is not None
    ap = current_ap(ctx, maiden)
    success = check.auto_success or ap >= check.target
    check.result = "success" if success else "failure"
    check.ap = ap
    state.step = AFTER_CHECK
    ctx.emit("check.resolved", seat=maiden.seat, ap=ap, target=check.target, result=check.result, kind=check.kind)
    if check.kind == "boss":
        if success:
            bosses.hit(ctx, check.source, 1, cause="check")
            if state.ended:
                return
        if not state.bosses[check.source].defeated:
            bosses.advance_pointer(ctx, check.source)
    after_result(ctx, maiden, "failure")


def after_result(ctx: Ctx, maiden: Maiden, stage: str) -> None:
    """The result's consequences from ``stage`` on: the failure damage, the slate damage, then
    the event. A damage window (``death.window``) stops them; its answer resumes them at the
    next stage (a death there skips the rest, MV-DEATH-5)."""
    state = ctx.state
    check = state.check
    assert check is not None
    settings = state.settings
    success = check.result == "success"
    source: Any
    if check.kind == "boss":
        source = bosses.definition(ctx, check.source).actions[check.action]
    else:
        source = ctx.content.room_cards[check.source]
    dl = state.danger_level + board.mod_sum(ctx, check.room, "dl_delta")
    if stage == "failure":
        if not success:
            amount = dl + failure_delta(ctx, maiden, check.room) - check.reduce_damage
            death.damage(ctx, maiden, amount, cause="failure", then={"resume": "check", "stage": "slate"})
            if death.awaiting(ctx):
                return
        stage = "slate"
    if stage == "slate" and not check.dead and check.slate is not None and not check.ignore_slate:
        per_die = dl if settings.slate_damage_per_die == "danger_level" else 1
        per_die += board.mod_sum(ctx, check.room, "slate_per_die_delta")
        amount = dice.slate_damage_dice(check, maiden.agi) * max(0, per_die) - check.reduce_damage
        death.damage(ctx, maiden, amount, cause="slate", then={"resume": "check", "stage": "event"})
        if death.awaiting(ctx):
            return
    if check.dead:
        return
    if not success and board.mod_flag(ctx, check.room, "failure_exhausts_skill"):
        ready = [s.id for s in maiden.skills if not s.exhausted]
        if ready:
            state.pending.append(Decision(kind="choose", seat=maiden.seat, options=ready, data={"for": "exhaust"}))
    effect = getattr(source, "event", None) if check.kind == "room" else getattr(source, "effect", None)
    if effect is not None and effect.on in ("always", check.result):
        ctx.emit("check.event", seat=maiden.seat, kind=check.kind, source=check.source, on=effect.on)
        effects.run(
            ctx, [dict(op) for op in effect.ops], f"{check.kind}:{check.source}", {}, actor=maiden, strict=False
        )


def failure_delta(ctx: Ctx, maiden: Maiden, room: str) -> int:
    """The failure damage the mods in force add (``failure_damage_delta``; none with
    ``failure_damage_unless_partner`` while another maiden is in the same area)."""
    delta = board.mod_sum(ctx, room, "failure_damage_delta")
    if delta and board.mod_flag(ctx, room, "failure_damage_unless_partner"):
        area = ctx.content.rooms[room].area
        partner = any(
            other.seat != maiden.seat and ctx.content.rooms[other.room].area == area for other in ctx.state.maidens
        )
        if partner:
            return 0
    return delta


def finish(ctx: Ctx) -> None:
    """MV-CHECK-15: the room card goes to the room discard pile (also after a death)."""
    check = ctx.state.check
    if check is not None and check.kind == "room" and not check.discarded:
        check.discarded = True
        ctx.state.decks.room_discard.append(check.source)
        ctx.emit("card.discarded", deck="room", card=check.source)
