"""Bosses (MV-SPEC-4/5, MV-BOSS-1..11): set up once on first engagement, a shared life and a
shared action pointer that persist, defeat (Sephirah recovered, level-up of all), Urza.
"""

from __future__ import annotations

from typing import Any

from delve.maiden import settings as settings_module
from delve.maiden.ctx import Ctx
from delve.maiden.state import BossState, Maiden


def definition(ctx: Ctx, boss_id: str) -> Any:
    return ctx.content.bosses[boss_id]


def engage(ctx: Ctx, maiden: Maiden, boss_id: str) -> None:
    """MV-SPEC-4: the first maiden to enter sets the boss up (life with ``boss_life_bonus`` at
    2/4 players, pointer on the top action); later entries skip the setup. She is now in the
    fight and cannot move until it ends (MV-SPEC-5)."""
    boss = ctx.state.bosses[boss_id]
    if not boss.engaged:
        life = setup_life(ctx, boss_id)
        boss.engaged = True
        boss.life = boss.life_max = life
        boss.pointer = first_enabled(boss, 0)
        ctx.emit("boss.engaged", boss=boss_id, life=life, seat=maiden.seat)
    maiden.boss = boss_id
    ctx.emit("boss.joined", boss=boss_id, seat=maiden.seat)


def setup_life(ctx: Ctx, boss_id: str) -> int:
    """MV-SPEC-4: the life a boss nobody fought yet is set up with when first entered (its printed
    life with ``boss_life_bonus`` at 2/4 players and the life changes in force, at least 1)."""
    life = settings_module.boss_life(ctx.state.settings, int(definition(ctx, boss_id).life))
    return max(1, life + ctx.state.boss_life_delta + ctx.state.bosses[boss_id].life_delta)


def first_enabled(boss: BossState, start: int) -> int:
    """The first action at or after ``start`` (cyclically) that is not disabled."""
    for k in range(3):
        index = (start + k) % 3
        if index not in boss.disabled:
            return index
    return start % 3


def advance_pointer(ctx: Ctx, boss_id: str) -> None:
    """MV-BOSS-5: down one action, from the bottom back to the top (disabled actions skipped)."""
    boss = ctx.state.bosses[boss_id]
    boss.pointer = first_enabled(boss, boss.pointer + 1)
    ctx.emit("boss.pointer", boss=boss_id, pointer=boss.pointer)


def hit(ctx: Ctx, boss_id: str, amount: int, *, cause: str) -> bool:
    """The boss loses ``amount`` life (MV-BOSS-3: a successful check deals exactly 1). Returns
    True when this defeats it; the defeat itself is ``defeat`` (MV-BOSS-8)."""
    boss = ctx.state.bosses[boss_id]
    if boss.defeated or not boss.engaged or amount <= 0:
        return False
    boss.life = max(0, boss.life - amount)
    ctx.emit("boss.hit", boss=boss_id, amount=amount, life=boss.life, cause=cause)
    if boss.life == 0:
        defeat(ctx, boss_id)
        return True
    return False


def defeat(ctx: Ctx, boss_id: str) -> None:
    """MV-BOSS-8/9/11, MV-END-1: the Sephirah is recovered, the maidens in the fight are free,
    the room becomes an explored normal room; all maidens level up after the room phase
    (``turn.defeated``), except when Urza falls: the game ends at once, won."""
    from delve.maiden import rounds

    state = ctx.state
    boss = state.bosses[boss_id]
    boss.defeated = True
    state.sephirot += 1
    for maiden in state.maidens:
        if maiden.boss == boss_id:
            maiden.boss = None
    ctx.emit("boss.defeated", boss=boss_id, sephirot=state.sephirot)
    if definition(ctx, boss_id).final:
        rounds.end_game(ctx, won=True)
        return
    state.turn.defeated.append(boss_id)


def current_action(ctx: Ctx, boss_id: str) -> Any:
    return definition(ctx, boss_id).actions[ctx.state.bosses[boss_id].pointer]
