"""The export of a finished game: settings, seats, seed, the command log with times, every event
(all revealed) and the final state's hash, in the format :mod:`delve.server.records.verify` checks."""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS

from delve.kernel import state_hash
from delve.server.games.engine import load_state, ruleset_of, seat_infos
from delve.server.games.models import CommandEntry, EventEntry, Game
from delve.server.records.verify import FORMAT, order_of, seed_hash


def export_game(game: Game) -> dict[str, Any]:
    """The export of an ended game (the caller checks that it has ended), read from the database
    the game was read from (``delve restore`` compares a game's export in two databases)."""
    db = game._state.db or DEFAULT_DB_ALIAS
    ruleset = ruleset_of(game)
    seats = list(game.seats.filter(index__isnull=False).order_by("index"))
    infos = seat_infos(seats)
    return {
        "format": FORMAT,
        "game": {
            "id": game.pk,
            "ruleset": game.ruleset,
            "preset": game.preset,
            "settings": game.settings,
            "started_at": game.started_at,
            "ended_at": game.ended_at,
        },
        "seats": [
            {"index": seat.index, "name": info.name, "options": dict(info.options)}
            for seat, info in zip(seats, infos, strict=True)
        ],
        "seed": game.seed,
        "seed_sha256": seed_hash(game.seed),
        "commands": [
            {
                "sequence": c.sequence,
                "time": c.time,
                "seat": c.seat,
                "source": c.source,
                "command": c.command,
                "order": order_of(c.idempotency_key),
            }
            for c in CommandEntry.objects.using(db).filter(game=game).order_by("sequence")
        ],
        "events": [
            {
                "sequence": e.sequence,
                "time": e.time,
                "kind": e.kind,
                "data": e.data,
                "to": None if e.to is None else list(e.to),
            }
            for e in EventEntry.objects.using(db).filter(game=game).order_by("sequence")
        ],
        "final_state_sha256": state_hash(ruleset, load_state(game, ruleset)),
    }
