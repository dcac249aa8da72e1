"""The demo: a Fated Labyrinth game you can play at once against three bots, a Level D game
open for registration with bots in most seats, and two White Maiden games: a solo game ready to
play and a 2-seat game with a bot partner (``delve demo``).

The demo account (:func:`demo_account`) is the server's own, like the bots': its names
(``demo``, ``demo.2``...) are kept from sign-up and the admin, and it is marked as the demo by the
group :data:`~delve.server.accounts.reserved.DEMO_GROUP`. ``delve demo`` never adopts a
person's account: when a person holds ``demo`` (signed up before the name was kept), the demo
gets the next free name and says so."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from delve.server.accounts.reserved import ALTERNATIVES, DEMO_GROUP, DEMO_NAME, machine_account
from delve.server.games import engine
from delve.server.games.errors import Rejected
from delve.server.games.models import Game

DEMO_USER = DEMO_NAME
DEMO_PASSWORD = "delve-demo"
BOT_CLASSES = ("warrior", "thief", "priest", "cat", "summoner", "sorcerer", "noble", "explorer")
BOT_NAMES = ("Grimble", "Nyx", "Brother Aldo", "Mittens", "Oona", "Zara", "Lord Pell", "Tamsin")


@dataclass
class DemoGames:
    running: Game
    open: Game
    username: str
    #: The published password, or empty when an operator changed the account's.
    password: str
    maiden_solo: Game | None = None
    maiden_duo: Game | None = None
    #: Names the demo left alone because people hold them (``demo`` on a server where someone
    #: signed up as ``demo`` before the name was kept).
    passed_over: tuple[str, ...] = ()


def bot_user(number: int) -> Any:
    """The account of bot number ``number`` (it cannot log in; never a person's account that
    happens to be named ``bot-<number>``: see :mod:`delve.server.accounts.reserved`)."""
    return machine_account(f"bot-{number}", first_name=BOT_NAMES[number - 1])


def demo_accounts() -> Any:
    """The accounts marked as the demo's (a query; one, normally)."""
    return get_user_model().objects.filter(groups__name=DEMO_GROUP).order_by("pk")


def _made_by_an_earlier_demo(user: Any) -> bool:
    """An account ``delve demo`` made before it marked its account: it still has the published
    password (so anyone could already log in as it: nobody's own) and no staff rights."""
    return not (user.is_staff or user.is_superuser) and user.check_password(DEMO_PASSWORD)


def demo_account() -> tuple[Any, tuple[str, ...]]:
    """The demo account and the names passed over to find it.

    The account marked as the demo's (by an earlier ``delve demo``) whatever its password (an
    operator may have changed it); else the first of ``demo``, ``demo.2``, ``demo.3``... that is
    free (made with :data:`DEMO_PASSWORD`) or an earlier demo's (:func:`_made_by_an_earlier_demo`),
    marked now. An account of that name that a person holds is left alone and passed over.

    :raises Rejected: 409 ``demo/accounts_taken`` when people hold all those names.
    """
    found = demo_accounts().first()
    if found is not None:
        return found, ()
    group, _ = Group.objects.get_or_create(name=DEMO_GROUP)
    users = get_user_model()
    passed: list[str] = []
    for number in range(1, ALTERNATIVES + 2):
        name = DEMO_USER if number == 1 else f"{DEMO_USER}.{number}"
        user, created = users.objects.get_or_create(username=name)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        elif not _made_by_an_earlier_demo(user):
            passed.append(name)
            continue
        user.groups.add(group)
        return user, tuple(passed)
    raise Rejected(
        "demo/accounts_taken",
        f"the accounts {DEMO_USER} to {DEMO_USER}.{ALTERNATIVES + 1} all belong to people, so the demo "
        "cannot make its own: an operator must rename them",
        status=409,
    )


@transaction.atomic
def create(*, wait_time: str = "1m") -> DemoGames:
    """Create the demo account (:func:`demo_account`, idempotent) and the demo games."""
    demo, passed_over = demo_account()
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
        username=demo.username,
        password=DEMO_PASSWORD if demo.check_password(DEMO_PASSWORD) else "",
        maiden_solo=maiden_solo,
        maiden_duo=maiden_duo,
        passed_over=passed_over,
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
