"""Helpers for the notification tests: a 4-player Fated Labyrinth game with e-mail addresses, and
one worker step (the turn clock, then the notification pass) on the fake clock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from delve.server import clock
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.games.worker import Worker
from delve.server.notify import outbox

HOUR = 3600
#: Seat names in seat order (registration order).
NAMES = ("Aki", "Ben", "Chie", "Dan")


def fated(
    users: Sequence[Any], *, preset: str = "fated-labyrinth", names: Sequence[str] = NAMES, **overrides: Any
) -> Game:
    """A started 4-player game: turns every hour, 2 stored at most, abandonment after 100 hours."""
    settings: dict[str, Any] = {"players": 4, "maze_size": 9, "wait_time": HOUR, "max_stored_turns": 2, **overrides}
    game = engine.create_game("fated", preset, settings)
    for seat, user in enumerate(users):
        engine.register(game.pk, user, names[seat], {"class": "warrior"})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def step(worker: Worker | None = None) -> dict[str, int]:
    """What the worker loop does once: advance due games, then one notification pass."""
    worker = worker or Worker(name="test-worker")
    worker.run_once()
    return outbox.run_pass(clock.now(), worker.name)


def settled(worker: Worker | None = None) -> dict[str, int]:
    """One step, then what the outbox sends once the grace of "your turn" and "defend" messages
    (``settings.NOTIFY_GRACE``) has passed, the game itself left where it is."""
    from django.conf import settings

    counts = step(worker)
    later = outbox.deliver(clock.now() + settings.NOTIFY_GRACE, (worker.name if worker else "test-worker"))
    return {key: counts.get(key, 0) + later.get(key, 0) for key in {*counts, *later}}


def player(game: Game, seat: int) -> Any:
    game.refresh_from_db()
    return engine.load_state(game).players[seat]


def browser_keys() -> dict[str, str]:
    """The ``keys`` of a browser's push subscription as ``PushSubscription.toJSON()`` gives them:
    a fresh P-256 public key and a 16-byte secret, base64url without padding."""
    import base64
    import os

    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    point = (
        ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    )
    return {"p256dh": b64(point), "auth": b64(os.urandom(16))}
