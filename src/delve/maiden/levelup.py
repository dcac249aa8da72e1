"""Level-up (MV-LVL-1..8, MV-SETUP-11..13, MV-STAT-6..8): draw an action card (Ins applies),
place it on top of a stat, resolve the placement (Agi: learn a skill; Ins: bigger draws)."""

from __future__ import annotations

from delve.maiden import decks, skills
from delve.maiden.ctx import Ctx
from delve.maiden.state import END_TURN, LEVELUP, STATS, Decision, Maiden


def start(ctx: Ctx, maiden: Maiden, why: str) -> None:
    """MV-LVL-3: draw one action card (1 + Ins, keep one); the kept card is then placed."""
    ctx.emit("maiden.level_up", seat=maiden.seat, why=why)
    decks.draw(ctx, maiden, "action", "place", data={"why": why})


def offer_placement(ctx: Ctx, maiden: Maiden, card: str, why: str) -> None:
    ctx.state.pending.insert(
        0, Decision(kind="place_card", seat=maiden.seat, options=list(STATS), data={"card": card, "why": why})
    )


def place(ctx: Ctx, maiden: Maiden, card: str, stat: str) -> None:
    """MV-SETUP-12/14, MV-LVL-4/8: the card goes on top of the stat for good; on Agi she learns a
    skill (or, with ``agi_skill_level_option``, may level an owned skill instead, CHG-5)."""
    maiden.stats[stat].append(card)
    ctx.emit("card.placed", seat=maiden.seat, card=card, stat=stat, level=len(maiden.stats[stat]))
    if stat != "agi":
        return
    if ctx.state.settings.agi_skill_level_option and maiden.skills:
        options = ["learn"] + [s.id for s in maiden.skills]
        ctx.state.pending.insert(0, Decision(kind="agi_option", seat=maiden.seat, options=options))
    else:
        skills.learn(ctx, maiden, source="agi")


def agi_option(ctx: Ctx, maiden: Maiden, choice: str) -> None:
    if choice == "learn":
        skills.learn(ctx, maiden, source="agi")
        return
    skill = maiden.skill(choice)
    assert skill is not None
    skill.level += 1
    ctx.emit("skill.levelled", seat=maiden.seat, skill=skill.id, level=skill.level)


def queue_defeats(ctx: Ctx) -> None:
    """MV-LVL-2/5/6: after the room phase, every maiden levels up once per boss defeated this
    turn, in turn order starting with the active player; then the turn ends."""
    state = ctx.state
    active = state.active_seat
    n = state.settings.players
    for _ in state.turn.defeated:
        start_seat = active if active is not None else 0
        state.levelups.extend((start_seat + k) % n for k in range(n))
    state.turn.defeated = []
    state.step = LEVELUP


def next_levelup(ctx: Ctx) -> None:
    state = ctx.state
    if not state.levelups:
        state.step = END_TURN
        return
    seat = state.levelups.pop(0)
    start(ctx, state.maidens[seat], "boss")
