"""Status effects (FL-STS): application with opposites and re-application, countdown, poison,
and the derived values they change (evasion, sight, damage and CP multipliers)."""

from __future__ import annotations

from fractions import Fraction

from delve.fated.ctx import Ctx
from delve.fated.state import Monster, Player, Status

Character = Player | Monster


def is_plus(ctx: Ctx, status_id: str) -> bool:
    return ctx.content.statuses[status_id].kind == "plus"


def works_on(ctx: Ctx, status_id: str, target: Character) -> bool:
    """FL-STS-2/3: who a status works on."""
    definition = ctx.content.statuses[status_id]
    return definition.monsters if isinstance(target, Monster) else definition.players


def duration(ctx: Ctx, status_id: str, target: Character) -> int:
    """Turns a fresh status lasts: 0 (until removed) for poisons and for everything on a monster
    (FL-STS-4, FL-STS-7); 10 for a plus status on a Priest, else 7 (FL-STS-5/6, AMB-31)."""
    definition = ctx.content.statuses[status_id]
    if definition.permanent or isinstance(target, Monster):
        return 0
    settings = ctx.state.settings
    if definition.kind == "plus" and ctx.content.classes[target.cls].has("priest"):
        return settings.priest_plus_status_turns
    return settings.status_turns


def _find(target: Character, status_id: str) -> Status | None:
    for status in target.statuses:
        if status.id == status_id:
            return status
    return None


def apply(ctx: Ctx, target: Character, status_id: str) -> bool:
    """Apply a status (FL-STS-3, -10, -11, -12). Returns whether it was applied (a status that
    does not work on the target is not recorded, AMB-35).

    An opposite already on the target loses its effect (FL-STS-8): in ``replace`` mode it is
    removed (FL-STS-11); in ``coexist`` mode (Level D, FL-STS-12, AMB-34 revised) it stays listed
    as cancelled, with no effect, until its own duration runs out. Re-applying a cancelled status
    makes it active again with a fresh duration, and cancels its opposite in turn."""
    if not works_on(ctx, status_id, target):
        return False
    definition = ctx.content.statuses[status_id]
    existing = _find(target, status_id)
    if existing is not None and not existing.cancelled:
        if definition.permanent:
            existing.strength += 1  # poison grows stronger (AMB-32)
        elif existing.turns > 0:
            existing.turns += duration(ctx, status_id, target)  # extended (AMB-33)
        return True
    opposite = definition.opposite
    if opposite is not None:
        if ctx.state.settings.opposite_status_mode == "replace":
            target.statuses = [s for s in target.statuses if s.id != opposite]
        else:
            for status in target.statuses:
                if status.id == opposite:
                    status.cancelled = True
    if existing is not None:  # a cancelled status applied again: active, fresh duration
        existing.cancelled = False
        existing.turns = duration(ctx, status_id, target)
        return True
    target.statuses.append(Status(id=status_id, turns=duration(ctx, status_id, target)))
    return True


def remove(target: Character, status_id: str) -> bool:
    before = len(target.statuses)
    target.statuses = [s for s in target.statuses if s.id != status_id]
    return len(target.statuses) != before


def active(target: Character, status_id: str, ctx: Ctx) -> bool:
    """Whether a status's effect applies now: it is on the target and not listed as cancelled by
    a later opposite (FL-STS-12, AMB-34). (:func:`_find` written out: this is asked often.)"""
    for status in target.statuses:
        if status.id == status_id:
            return not status.cancelled
    return False


def countdown(ctx: Ctx, player: Player) -> list[str]:
    """FL-STS-5: at a turn-start event every timed status loses a turn; returns the expired."""
    expired = []
    kept = []
    for status in player.statuses:
        if status.turns > 0:
            status.turns -= 1
            if status.turns == 0:
                expired.append(status.id)
                continue
        kept.append(status)
    player.statuses = kept
    return expired


def poison_loss(ctx: Ctx, target: Character, status_id: str) -> int:
    status = _find(target, status_id)
    return 0 if status is None else ctx.state.settings.poison_step * status.strength


def evasion(ctx: Ctx, target: Character) -> int:
    """FL-STAT-12: base evasion +20 with Nimble, exactly 0 with Sluggish, clamped to 0..100."""
    if not target.statuses:
        value = target.evasion
    elif active(target, "sluggish", ctx):
        return 0
    else:
        value = target.evasion + (20 if active(target, "nimble", ctx) else 0)
    # clamped by comparisons (min and max are slow calls in Python 3.11; asked at every view)
    return 0 if value < 0 else 100 if value > 100 else value


def damage_multiplier(ctx: Ctx, target: Character) -> Fraction:
    """FL-ATK-11: Ironwall 1/2, Stripped 3/2 (never both: FL-STS-11/12)."""
    return Fraction(*damage_ratio(ctx, target))


def damage_ratio(ctx: Ctx, target: Character) -> tuple[int, int]:
    """:func:`damage_multiplier` as integers (numerator, denominator)."""
    numerator, denominator = 1, 1
    if not target.statuses:
        return numerator, denominator
    if active(target, "ironwall", ctx):
        denominator *= 2
    if active(target, "stripped", ctx):
        numerator *= 3
        denominator *= 2
    return numerator, denominator


def cp_factor(ctx: Ctx, player: Player) -> Fraction:
    """FL-CP-5: Sage 1/2, Fool 2 (never both: FL-STS-11/12)."""
    return Fraction(*cp_ratio(ctx, player))


def cp_ratio(ctx: Ctx, player: Player) -> tuple[int, int]:
    """:func:`cp_factor` as integers (numerator, denominator)."""
    numerator, denominator = 1, 1
    if not player.statuses:
        return numerator, denominator
    if active(player, "sage", ctx):
        denominator *= 2
    if active(player, "fool", ctx):
        numerator *= 2
    return numerator, denominator


def sight_radius(ctx: Ctx, player: Player) -> int:
    """FL-VIS-1: 2, +1 for wide sight (Cat/Ninja), +1 Light, -1 Blind, never below 0."""
    return sight(ctx, player)[0]


def sight(ctx: Ctx, player: Player) -> tuple[int, bool]:
    """:func:`sight_radius` and whether Insight works (FL-STS-17), from one reading of the
    statuses (each status as :func:`active` sees it: its first entry decides)."""
    radius = 3 if ctx.content.classes[player.cls].has("wide_sight") else 2
    if not player.statuses:
        return radius, False
    light = blind = insight = None
    for status in player.statuses:
        if status.id == "light":
            light = not status.cancelled if light is None else light
        elif status.id == "blind":
            blind = not status.cancelled if blind is None else blind
        elif status.id == "insight":
            insight = not status.cancelled if insight is None else insight
    if light:
        radius += 1
    if blind:
        radius -= 1
    return (radius if radius > 0 else 0), bool(insight)  # never below 0 (max() is a slow call)


def hidden_by_stealth(ctx: Ctx, player: Player) -> bool:
    """FL-STS-18: others see no status of a player under Stealth."""
    return bool(player.statuses) and active(player, "stealth", ctx)


def exposed(ctx: Ctx, player: Player) -> bool:
    return bool(player.statuses) and active(player, "exposed", ctx)
