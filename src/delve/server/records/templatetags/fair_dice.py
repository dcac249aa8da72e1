"""``{% fair_dice game %}``: the game page's footer: the SHA-256 of the game's seed (public from
the start) and, once the game has ended, the seed itself with links to the replay and the export;
while it runs, whether spectators may watch, with the host's switch."""

from __future__ import annotations

from typing import Any

from django import template

from delve.server.records.verify import seed_hash
from delve.server.social.spectators import allowed, is_host

register = template.Library()


@register.inclusion_tag("records/_fair_dice.html", takes_context=True)
def fair_dice(context: template.Context, game: Any) -> dict[str, Any]:
    ended = game.status == "ended"
    request = context.get("request")
    user = getattr(request, "user", None)
    running = game.status == "running"
    return {
        "game": game,
        "seed_sha256": seed_hash(game.seed),
        "seed": game.seed if ended else None,
        "ended": ended,
        "running": running,
        "spectators": allowed(game) if running else True,
        "host": bool(running and user is not None and is_host(game, user)),
        "csrf_token": context.get("csrf_token"),
    }
