"""Life, damage, death and respawn (MV-LIFE-1..3, MV-DEATH-1..6)."""

from __future__ import annotations

from delve.maiden.ctx import Ctx
from delve.maiden.state import Maiden


def heal(ctx: Ctx, maiden: Maiden, amount: int, *, cause: str, cap: int | None = None) -> int:
    """Heal up to the maximum (MV-LIFE-1) or ``cap``; returns the life gained."""
    limit = maiden.life_max if cap is None else min(cap, maiden.life_max)
    gained = max(0, min(maiden.life + max(0, amount), limit) - maiden.life)
    if gained:
        maiden.life += gained
        ctx.emit("maiden.healed", seat=maiden.seat, amount=gained, life=maiden.life, cause=cause)
    return gained


def damage(ctx: Ctx, maiden: Maiden, amount: int, *, cause: str) -> bool:
    """Take ``amount`` damage (life never below 0, MV-LIFE-3); at 0 she dies at once
    (MV-DEATH-1, MV-DEATH-5). Returns True if she died."""
    amount = max(0, amount)
    if amount == 0:
        return False
    maiden.life = max(0, maiden.life - amount)
    ctx.emit("maiden.damaged", seat=maiden.seat, amount=amount, life=maiden.life, cause=cause)
    if maiden.life == 0:
        die(ctx, maiden)
        return True
    return False


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
