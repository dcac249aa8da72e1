"""The demo: a Fated Labyrinth game you can play at once against three bots, a Level D game
open for registration with bots in most seats, and two White Maiden games: a solo game ready to
play and a 2-seat game with a bot partner (``delve demo``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from delve.server.accounts.reserved import machine_account
from delve.server.games import engine
from delve.server.games.models import Game

DEMO_USER = "demo"
DEMO_PASSWORD = "delve-demo"
BOT_CLASSES = ("warrior", "thief", "priest", "cat", "summoner", "sorcerer", "noble", "explorer")
BOT_NAMES = ("Grimble", "Nyx", "Brother Aldo", "Mittens", "Oona", "Zara", "Lord Pell", "Tamsin")


@dataclass
class DemoGames:
    running: Game
    open: Game
    username: str
    password: str
    maiden_solo: Game | None = None
    maiden_duo: Game | None = None


def bot_user(number: int) -> Any:
    """The account of bot number ``number`` (it cannot log in; never a person's account that
    happens to be named ``bot-<number>``: see :mod:`delve.server.accounts.reserved`)."""
    return machine_account(f"bot-{number}", first_name=BOT_NAMES[number - 1])


@transaction.atomic
def create(*, wait_time: str = "1m") -> DemoGames:
    """Create the demo account and the two demo games (idempotent for the account)."""
    users = get_user_model()
    demo, created = users.objects.get_or_create(username=DEMO_USER)
    if created:
        demo.set_password(DEMO_PASSWORD)
        demo.save()
    fast = {"wait_time": wait_time, "abandon_time": "1d"}
    running = engine.create_game("fated", "fated-labyrinth", fast)
    engine.register(running.pk, demo, "Demo", {"class": "explorer"})
    for number in range(1, 4):
        engine.register(
            running.pk, bot_user(number), BOT_NAMES[number - 1], {"class": BOT_CLASSES[number - 1]}, is_bot=True
        )
    open_game = engine.create_game("fated", "level-d", fast)
    for number in range(1, 6):
        engine.register(
            open_game.pk,
            bot_user(number),
            BOT_NAMES[number - 1],
            {"class": BOT_CLASSES[number - 1], "image": BOT_CLASSES[number - 1]},
            is_bot=True,
        )
    running.refresh_from_db()
    open_game.refresh_from_db()
    maiden_solo, maiden_duo = _maiden_games(demo)
    return DemoGames(
        running=running,
        open=open_game,
        username=DEMO_USER,
        password=DEMO_PASSWORD,
        maiden_solo=maiden_solo,
        maiden_duo=maiden_duo,
    )


def _maiden_games(demo: Any) -> tuple[Game, Game]:
    """White Maiden: a solo game for the demo account, and a 2-seat game where a bot partner
    (the worker plays it) sits beside the demo account's maiden."""
    solo = engine.create_game("maiden", "white-maiden", {"players": 1}, created_by=demo)
    engine.register(solo.pk, demo, "Demo")
    duo = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0}, created_by=demo)
    engine.register(duo.pk, demo, "Demo")
    engine.register(duo.pk, bot_user(4), "Lumen", is_bot=True)
    solo.refresh_from_db()
    duo.refresh_from_db()
    return solo, duo
