"""Setting a game up (MV-SETUP-1..17): shuffled decks, quests set aside, maidens on S with full
life, bosses face up; then, player by player in seat order from the start player (MV-SETUP-16):
familiar(s) with their initial skills and designated action card, and the first level-up."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from delve.kernel import Rng, SeatInfo, SettingsError
from delve.maiden import decks, levelup, skills
from delve.maiden import settings as settings_module
from delve.maiden.ctx import Ctx
from delve.maiden.state import ROUND_START, STATS, BossState, Decision, Decks, Game, Maiden


def create(overrides: Mapping[str, Any], seats: Sequence[SeatInfo], seed: int, now: int, content: Any) -> Game:
    """A new game at ``now`` with one maiden per seat (MV-SETUP-1..8); the per-seat steps follow
    as decisions (``advance``).

    :raises SettingsError: naming the invalid setting.
    """
    settings = settings_module.resolve(overrides)
    if len(seats) != settings.players:
        raise SettingsError("players", f"the game needs exactly {settings.players} seats, got {len(seats)}")
    per = settings_module.familiars_per_player(settings)
    if per * settings.players > len(content.familiars):
        raise SettingsError(
            "familiars_per_player",
            f"{per} familiars for each of {settings.players} players, but only {len(content.familiars)} exist",
        )
    rng = Rng.seeded(seed)
    action = [symbol for symbol, count in content.action_counts.items() for _ in range(int(count))]
    skill = [s.id for s in content.skills.values() if s.deck for _ in range(int(getattr(s, "copies", 1) or 1))]
    room = [c.id for c in content.room_cards.values() for _ in range(int(getattr(c, "copies", 1) or 1))]
    quest = [q.id for q in content.quests.values() if not q.number]
    aside = [q.id for q in content.quests.values() if q.number]
    for pile in (action, skill, room, quest):  # MV-SETUP-1/2
        rng.shuffle(pile)
    maidens = [
        Maiden(
            seat=i,
            name=info.name,
            room=content.start,  # MV-SETUP-7
            life=settings.life_max,  # MV-SETUP-8, CHG-1
            life_max=settings.life_max,
            stats={s: [] for s in STATS},
        )
        for i, info in enumerate(seats)
    ]
    return Game(
        settings=settings,
        rng=rng,
        clock=now,
        t0=now,
        maidens=maidens,
        decks=Decks(action=action, skill=skill, room=room, quest=quest, quests_aside=aside),
        bosses={b: BossState() for b in content.bosses},  # MV-SETUP-5
    )


def advance(ctx: Ctx) -> None:
    """The next setup step (called by ``flow.proceed`` while no decision is pending)."""
    state = ctx.state
    settings = state.settings
    stage = state.setup_stage
    if stage == "start_player":
        choice = settings.start_player
        if choice == "choose":  # MV-SETUP-15: any seat may pick
            state.setup_stage = "start_player_wait"
            state.pending.append(Decision(kind="choose_start_player", seat=None, options=list(range(settings.players))))
        elif choice == "random":
            set_start_player(ctx, ctx.rng.below(settings.players), chosen=False)
        else:
            set_start_player(ctx, int(choice), chosen=True)
    elif stage == "familiar":
        _familiar_step(ctx)
    elif stage == "levelup":
        if state.setup_queue:
            levelup.start(ctx, state.maidens[state.setup_queue.pop(0)], "first")  # MV-SETUP-13
        else:
            state.setup_stage = "done"
            state.step = ROUND_START
            ctx.emit("setup.done", start_player=state.start_player)


def set_start_player(ctx: Ctx, seat: int, *, chosen: bool) -> None:
    """MV-SETUP-15/16, MV-ROUND-5: the start player is fixed before the per-seat steps."""
    state = ctx.state
    state.start_player = seat
    state.setup_stage = "familiar"
    state.setup_queue = [(seat + k) % state.settings.players for k in range(state.settings.players)]
    ctx.emit("setup.start_player", seat=seat, chosen=chosen)


def available_familiars(ctx: Ctx) -> list[str]:
    """OQ-40: each familiar can be taken by one player only."""
    taken = {f for m in ctx.state.maidens for f in m.familiars}
    return [f for f in ctx.content.familiars if f not in taken]


def _familiar_step(ctx: Ctx) -> None:
    state = ctx.state
    per = settings_module.familiars_per_player(state.settings)
    while state.setup_queue:
        maiden = state.maidens[state.setup_queue[0]]
        if len(maiden.familiars) < per:  # MV-SETUP-9
            state.pending.append(Decision(kind="choose_familiar", seat=maiden.seat, options=available_familiars(ctx)))
            return
        state.setup_queue.pop(0)
    state.setup_stage = "levelup"
    state.setup_queue = [
        ((state.start_player or 0) + k) % state.settings.players for k in range(state.settings.players)
    ]


def take_familiar(ctx: Ctx, maiden: Maiden, familiar_id: str) -> None:
    """MV-SETUP-9..12: the familiar, its initial skill(s) (ready, level 0), and its designated
    action card searched out of the action deck (then reshuffled), placed on a stat."""
    familiar = ctx.content.familiars[familiar_id]
    maiden.familiars.append(familiar_id)
    ctx.emit("setup.familiar", seat=maiden.seat, familiar=familiar_id)
    for skill_id in familiar.skills:
        skills.add(ctx, maiden, skill_id, cause="familiar")
    card = decks.search_action(ctx, str(familiar.action))
    if card is not None:
        levelup.offer_placement(ctx, maiden, card, "designated")
