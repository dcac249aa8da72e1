"""Fixtures for the server tests: the toy rulesets, a fake clock, and the personas.

Personas (for one game): ``player`` (seat 0) and ``opponent`` (seat 1) play it; ``spectator`` is a
logged-in user with no seat in it; ``outsider`` is an anonymous visitor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from delve.server import clock as server_clock
from delve.server.accounts.models import ApiToken
from delve.server.games import engine
from delve.server.games.models import Game
from tests.server.toys import register_all

register_all()

START = 1_700_000_000
PASSWORD = "Correct-Horse-7"


class FakeClock:
    """A clock the test moves by hand: ``clock.tick(60)``."""

    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t

    def tick(self, seconds: int) -> int:
        self.t += seconds
        return self.t


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Each test starts and ends in the site's default language. Django's LocaleMiddleware
    activates the language of each request in the thread that serves it and nothing deactivates
    it afterwards; a request of the test client is served in the test's own thread, so a page
    asked for in Japanese left Japanese active for the tests that ran after it in the same pytest
    worker (over a hundred server tests did), and any of those calling the server's functions
    directly (``get_language()``) got Japanese words."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock(START)
    monkeypatch.setattr(server_clock, "now", fake)
    return fake


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[..., Any]:
    def make(username: str, **extra: Any) -> Any:
        return django_user_model.objects.create_user(username=username, password=PASSWORD, **extra)

    return make


@pytest.fixture
def player(make_user: Callable[..., Any]) -> Any:
    return make_user("ann")


@pytest.fixture
def opponent(make_user: Callable[..., Any]) -> Any:
    return make_user("bob")


@pytest.fixture
def spectator(make_user: Callable[..., Any]) -> Any:
    return make_user("cid")


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    return make_user("op", is_staff=True, is_superuser=True)


def token_client(user: Any) -> Client:
    """A bot's client: every request carries ``Authorization: Bearer <token>``."""
    _, token = ApiToken.issue(user, "test")
    return Client(headers={"Authorization": f"Bearer {token}"})


def session_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def make_game() -> Callable[..., Game]:
    def make(ruleset: str = "toy", **overrides: Any) -> Game:
        return engine.create_game(ruleset, "toy", overrides)

    return make


@pytest.fixture
def start_game(make_game: Callable[..., Game], player: Any, opponent: Any) -> Callable[..., Game]:
    """A running game: the player registers first (seat 0), the opponent second (seat 1)."""

    def start(ruleset: str = "toy", **overrides: Any) -> Game:
        game = make_game(ruleset, **overrides)
        engine.register(game.pk, player, "Ann", {"colour": "red"})
        engine.register(game.pk, opponent, "Bob", {"colour": "blue"})
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        return game

    return start


@pytest.fixture
def game(db: None, clock: FakeClock, start_game: Callable[..., Game]) -> Game:
    """A running toy game started at ``START`` with a one-minute roll interval."""
    return start_game()


@pytest.fixture
def personas(player: Any, opponent: Any, spectator: Any) -> dict[str, Client]:
    """API clients: player and opponent with tokens (bots), spectator logged in, outsider anonymous."""
    return {
        "player": token_client(player),
        "opponent": token_client(opponent),
        "spectator": session_client(spectator),
        "outsider": Client(),
    }
