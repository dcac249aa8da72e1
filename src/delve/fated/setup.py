"""Setting a game up (FL-REG-7, FL-TURN-3/4, FL-CARD-5, FL-STAT-10): the maze, the shuffled
deck, the hands, the start positions and each player's random first accumulation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from delve.fated import content as content_module
from delve.fated import maze, visibility
from delve.fated import settings as settings_module
from delve.fated.ctx import Ctx
from delve.fated.state import GameState, Pile, Player, Settings
from delve.kernel import Rng, SeatInfo, SettingsError


def seat_class(info: SeatInfo, index: int) -> str:
    data = content_module.load()
    cls = info.options.get("class")
    if cls not in data.classes:
        raise SettingsError(f"seats[{index}].class", f"unknown class {cls!r}; known: {', '.join(data.classes)}")
    return str(cls)


def create(overrides: Mapping[str, Any], seats: Sequence[SeatInfo], seed: int, now: int) -> GameState:
    """A new game started at ``now`` (t0) with one player per seat, in seat order.

    :raises SettingsError: naming the invalid setting or seat option.
    """
    settings: Settings = settings_module.resolve(overrides)
    if len(seats) != settings.players:
        raise SettingsError("players", f"the game needs exactly {settings.players} seats, got {len(seats)}")
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise SettingsError("seats", "character names must be unique within a game (AMB-60)")
    data = content_module.load()
    rng = Rng.seeded(seed)
    layout = maze.generate(
        size=settings.maze_size,
        players=settings.players,
        ice_rate_percent=settings.ice_rate,
        treasure_count=settings.treasure_count,
        door_rate_percent=settings.door_rate,
        rng=rng,
    )
    deck = list(range(content_module.CARDS_PER_SET * settings.decks))
    rng.shuffle(deck)
    n = settings.maze_size
    first_max = settings_module.first_accumulation_max(settings)
    players = []
    for seat, info in enumerate(seats):
        cls = data.classes[seat_class(info, seat)]
        hand = [deck.pop() for _ in range(cls.max_cards - 3)]
        players.append(
            Player(
                seat=seat,
                name=info.name,
                cls=cls.id,
                pos=layout.starts[seat],
                hp=settings.start_hp,
                cp=settings.start_cp,
                max_hp=settings.start_hp,
                max_cp=settings.start_cp,
                attack=cls.attack,
                defense=cls.defense,
                magic=cls.magic,
                evasion=cls.evasion,
                max_cards=cls.max_cards,
                first_at=now + rng.randint(1, first_max),
                memory=visibility.UNEXPLORED * (n * n),
                keep_record=bool(info.options.get("keep_record", True)),
                image=str(info.options.get("image", "")) if settings.registration_image else "",
                hand=hand,
                turn_ended_at=now,
                wait_ended_at=now,
                last_action_at=now,
            )
        )
    state = GameState(
        settings=settings, size=n, grid=layout.grid, rng=rng, t0=now, clock=now, players=players, deck=Pile(deck)
    )
    visibility.refresh(Ctx(state, now, data))
    return state
