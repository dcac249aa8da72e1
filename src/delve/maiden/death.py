"""Life, damage, death and respawn (MV-LIFE-1..3, MV-DEATH-1..6), and the damage window in
which a death may be cancelled.

The damage window: when damage would kill a maiden and a ``cancel_death`` effect is at hand
(one of her ready, unused skills of timing ``damage``, MV-SKILL-2/7/9, or an Arcana of timing
``damage`` in the pool, MV-EXPL-4/5), her player gets a ``choose`` decision (``data.for =
"death"``): use one of them, or ``die``. Until it is answered she stands at 0 life and nothing
else happens (the rest of the check, the effect or the entry that hurt her waits in the
decision); then she dies at once (MV-DEATH-1..5) or lives on at 1 life where she is, and what
was waiting goes on.
"""

from __future__ import annotations

from typing import Any

from delve.maiden.ctx import Ctx
from delve.maiden.state import Decision, Maiden

#: The option of the damage window that lets the death happen.
DIE = "die"


def heal(ctx: Ctx, maiden: Maiden, amount: int, *, cause: str, cap: int | None = None) -> int:
    """Heal up to the maximum (MV-LIFE-1) or ``cap``; returns the life gained."""
    limit = maiden.life_max if cap is None else min(cap, maiden.life_max)
    gained = max(0, min(maiden.life + max(0, amount), limit) - maiden.life)
    if gained:
        maiden.life += gained
        ctx.emit("maiden.healed", seat=maiden.seat, amount=gained, life=maiden.life, cause=cause)
    return gained


def damage(ctx: Ctx, maiden: Maiden, amount: int, *, cause: str, then: dict[str, Any] | None = None) -> bool:
    """Take ``amount`` damage (life never below 0, MV-LIFE-3); at 0 she dies at once
    (MV-DEATH-1, MV-DEATH-5) unless a damage window opens (``window``: the caller stops, and
    ``then`` says what goes on once it is answered; see ``awaiting``). Returns True if she died."""
    amount = max(0, amount)
    if amount == 0:
        return False
    maiden.life = max(0, maiden.life - amount)
    ctx.emit("maiden.damaged", seat=maiden.seat, amount=amount, life=maiden.life, cause=cause)
    if maiden.life == 0:
        if window(ctx, maiden, cause=cause, then=then):
            return False
        die(ctx, maiden)
        return True
    return False


def cancellers(ctx: Ctx, maiden: Maiden) -> list[str]:
    """The effects that may cancel her death now: her ready skills not used this turn whose ops
    cancel a death (MV-SKILL-2, MV-SKILL-7), then the Arcana of the pool that do (MV-EXPL-4)."""
    from delve.maiden import skills

    out = [
        s.id
        for s in maiden.skills
        if skills.usable(maiden, s) and any(op["op"] == "cancel_death" for op in ctx.content.skills[s.id].ops)
    ]
    out += [a for a in ctx.state.arcana if any(op["op"] == "cancel_death" for op in ctx.content.areas[a].arcana)]
    return out


def window(ctx: Ctx, maiden: Maiden, *, cause: str, then: dict[str, Any] | None = None) -> bool:
    """Open the damage window when something can cancel her death: a ``choose`` decision of her
    seat, first in the queue (death takes effect at once, MV-DEATH-5, so nothing is decided
    before it). ``then`` is what waits for the answer (``resume``: ``check`` with the ``stage``
    of the result still to come, or ``ops`` with the ops, source, params and actor of an effect).
    Returns whether the window opened."""
    options = cancellers(ctx, maiden)
    if not options:
        return False
    then = dict(then or {})
    ops = list(then.pop("ops", []))
    source = str(then.pop("source", ""))
    ctx.state.pending.insert(
        0,
        Decision(
            kind="choose",
            seat=maiden.seat,
            options=[*options, DIE],
            data={"for": "death", "cause": cause, **then},
            ops=ops,
            source=source,
        ),
    )
    ctx.emit("maiden.dying", seat=maiden.seat, cause=cause, options=options)
    return True


def awaiting(ctx: Ctx) -> bool:
    """Whether a damage window waits for its answer (what hurt her stops until then)."""
    pending = ctx.state.pending
    return bool(pending) and pending[0].data.get("for") == "death"


def decide(ctx: Ctx, maiden: Maiden, decision: Decision, option: str) -> None:
    """The answer of a damage window: ``die`` (MV-DEATH-1..5) or the skill (used as on her turn:
    MV-SKILL-5/6, once this turn) or the Arcana (discarded after use, MV-EXPL-4) whose ops
    cancel the death; then what waited goes on (after a death, MV-DEATH-5 still skips the rest
    of her own room phase)."""
    from delve.maiden import checks, effects, skills

    state = ctx.state
    if option != DIE:
        if option in ctx.content.skills:
            skill = maiden.skill(option)
            assert skill is not None
            skills.mark_used(ctx, maiden, skill)
            effects.run(ctx, skills.scaled_ops(ctx, skill), f"skill:{option}", {}, actor=maiden, strict=False)
        else:
            state.arcana.remove(option)
            state.arcana_used.append(option)
            ctx.emit("arcana.used", area=option, seat=maiden.seat, for_seat=maiden.seat)
            ops = [dict(op) for op in ctx.content.areas[option].arcana]
            effects.run(ctx, ops, f"arcana:{option}", {}, actor=maiden, strict=False)
    if maiden.life == 0:
        die(ctx, maiden)
    data = decision.data
    if data.get("resume") == "check":
        active = state.active
        if active is not None and state.check is not None:
            checks.after_result(ctx, active, str(data.get("stage")))
    elif data.get("resume") == "ops" and decision.ops:
        actor = state.maidens[int(data.get("actor", maiden.seat))]
        params = dict(data.get("params") or {})
        effects.run(ctx, decision.ops, decision.source, params, actor=actor, strict=bool(data.get("strict")))


def cancel(ctx: Ctx, maiden: Maiden, *, cause: str) -> bool:
    """The ``cancel_death`` op: a maiden in the damage window (0 life) lives on with 1 life,
    where she is. Returns whether there was a death to cancel."""
    if maiden.life != 0:
        return False
    maiden.life = 1
    ctx.emit("maiden.death_cancelled", seat=maiden.seat, life=1, cause=cause)
    return True


def die(ctx: Ctx, maiden: Maiden) -> None:
    """MV-DEATH-1..4: she revives on S with life 1 and every skill ready; she leaves a boss fight
    (the boss keeps its damage). When she dies during her own check, the rest of that room phase
    is skipped (MV-DEATH-5: ``check.dead``)."""
    state = ctx.state
    was_in = maiden.room
    left_boss = maiden.boss
    maiden.deaths += 1
    maiden.life = 1
    maiden.room = ctx.content.start
    maiden.boss = None
    for skill in maiden.skills:
        skill.exhausted = False
    check = state.check
    if check is not None and state.active_seat == maiden.seat:
        check.dead = True
    ctx.emit("maiden.died", seat=maiden.seat, room=was_in, boss=left_boss, deaths=maiden.deaths)
