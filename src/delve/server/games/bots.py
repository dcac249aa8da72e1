"""Bots at the table: the worker's loop lets every bot seat of a running game play.

A bot decides from its seat's view and legal commands (``delve.bots``), then submits through
the same transaction as any player (``engine.submit``) with the version it saw and an
idempotency key derived from it, so two workers acting at once apply a bot's move once and a
decision made on a stale state is refused (409) and simply taken again on the next pass.
"""

from __future__ import annotations

import logging
from typing import Any

from delve.bots import bot_for
from delve.kernel import DelveError
from delve.server import clock
from delve.server.games import engine
from delve.server.games.models import Game

log = logging.getLogger("delve.bots")


def bot_games() -> list[int]:
    return list(
        Game.objects.filter(status=Game.Status.RUNNING, seats__is_bot=True).distinct().values_list("pk", flat=True)
    )


def play_once(game_id: int) -> int:
    """Let each bot seat of one game play at most one command; the number played."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
    if game is None:
        return 0
    bot = bot_for(game.ruleset)
    if bot is None:
        return 0
    played = 0
    for seat in game.seats.filter(is_bot=True).exclude(index=None).select_related("user").order_by("index"):
        game.refresh_from_db(fields=["version", "observed", "state", "status"])
        if game.status != Game.Status.RUNNING:
            break
        ruleset = engine.ruleset_of(game)
        state = engine.load_state(game, ruleset)
        ruleset.advance(state, max(clock.now(), getattr(state, "clock", 0)))
        assert seat.index is not None
        command = bot.choose(ruleset.view(state, seat.index), ruleset.legal_commands(state, seat.index))
        if command is None:
            continue
        try:
            # the guard: what this seat saw; the key: the game's own version (server-side only)
            seen = engine.seen_version(game, seat.index)
            key = f"bot-{seat.index}-{game.version}"
            engine.submit(game.pk, seat.user, command, version=seen, idempotency_key=key)
            played += 1
        except DelveError as exc:  # a stale view (409) or a race: decide again next pass
            log.debug("bot %s in game %s: %s", seat.name, game.pk, exc)
    return played


def play_all() -> int:
    """One pass over every game with bots."""
    return sum(play_once(game_id) for game_id in bot_games())


def describe(game: Game) -> dict[str, Any]:
    return {"game": game.pk, "bots": list(game.seats.filter(is_bot=True).values_list("name", flat=True))}
