"""``{% fair_dice game %}``: the SHA-256 of the game's seed (public from the start) and, once the
game has ended, the seed itself with links to the replay and the export."""

from __future__ import annotations

from typing import Any

from django import template

from delve.server.records.verify import seed_hash

register = template.Library()


@register.inclusion_tag("records/_fair_dice.html")
def fair_dice(game: Any) -> dict[str, Any]:
    ended = game.status == "ended"
    return {"game": game, "seed_sha256": seed_hash(game.seed), "seed": game.seed if ended else None, "ended": ended}
