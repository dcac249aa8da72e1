"""Skills (MV-SKILL-1..13): conditions against the top action cards, once per turn, exhaustion
when the condition is not met, learning from the skill deck, readying.

The skill's *effect* is a list of ops run by ``effects.run``; this module owns the rules of
using a skill, not what the ops do.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from delve.maiden import board, decks
from delve.maiden.ctx import Ctx
from delve.maiden.state import Maiden, SkillState

#: Which skill timings may be used in which window (MV-SKILL-9; "any" fits every window).
WINDOWS: dict[str, frozenset[str]] = {
    "move": frozenset({"movement", "any"}),
    "pre_roll": frozenset({"pre_roll", "any"}),
    "post_roll": frozenset({"post_roll", "result", "any"}),
}


def condition_met(maiden: Maiden, condition: tuple[str, ...] | list[str]) -> bool:
    """MV-SKILL-3/4: the condition's multiset is contained in the top-card symbols."""
    have = Counter(maiden.top_symbols())
    need = Counter(condition)
    return all(have[s] >= n for s, n in need.items())


def usable(maiden: Maiden, skill: SkillState) -> bool:
    """MV-SKILL-2, MV-SKILL-7/8: ready and not yet used this turn."""
    return not skill.exhausted and not skill.used


def scaled_ops(ctx: Ctx, skill: SkillState) -> list[dict[str, Any]]:
    """MV-SKILL-10: each level adds ``scale`` to the integer ``amount`` of the skill's ops (and to
    the integer ``count`` of reroll / look_rooms)."""
    definition = ctx.content.skills[skill.id]
    scale = int(getattr(definition, "scale", 0) or 0)
    out = []
    for raw in definition.ops:
        op = dict(raw)
        if scale and skill.level:
            if isinstance(op.get("amount"), int):
                op["amount"] = op["amount"] + scale * skill.level
            elif op.get("op") in ("reroll", "look_rooms") and isinstance(op.get("count"), int):
                op["count"] = op["count"] + scale * skill.level
        out.append(op)
    return out


def mark_used(ctx: Ctx, maiden: Maiden, skill: SkillState) -> bool:
    """Use a skill: it stays ready when its condition is met (MV-SKILL-5), else it becomes
    exhausted (MV-SKILL-6); the mod ``skills_always_exhaust`` exhausts it anyway. Returns
    whether the condition was met."""
    definition = ctx.content.skills[skill.id]
    met = condition_met(maiden, tuple(definition.condition))
    skill.used = True
    if not met or board.mod_flag(ctx, maiden.room, "skills_always_exhaust"):
        skill.exhausted = True
    ctx.emit("skill.used", seat=maiden.seat, skill=skill.id, condition_met=met, exhausted=skill.exhausted)
    return met


def learn(ctx: Ctx, maiden: Maiden, *, ops: list[dict[str, Any]] | None = None, source: str = "") -> None:
    """MV-SKILL-11, MV-STAT-6: draw from the skill deck (Ins applies) and learn the kept skill."""
    decks.draw(ctx, maiden, "skill", "learn", ops=ops, source=source)


def add(ctx: Ctx, maiden: Maiden, skill_id: str, *, cause: str) -> None:
    """A new skill under her card: ready, level 0 (MV-SETUP-10)."""
    maiden.skills.append(SkillState(id=skill_id))
    ctx.emit("skill.learned", seat=maiden.seat, skill=skill_id, cause=cause)


def refresh(ctx: Ctx, maiden: Maiden, *, cause: str) -> int:
    """Ready every exhausted skill (MV-SPEC-1, MV-DEATH-3)."""
    count = 0
    for skill in maiden.skills:
        if skill.exhausted:
            skill.exhausted = False
            count += 1
    if count:
        ctx.emit("skill.refreshed", seat=maiden.seat, count=count, cause=cause)
    return count


def reset_turn(ctx: Ctx) -> None:
    """MV-SKILL-13, MV-ENDT-2: the once-per-turn counters of every maiden reset."""
    for maiden in ctx.state.maidens:
        for skill in maiden.skills:
            skill.used = False
