"""Computer players. A bot sees exactly what a human in its seat sees: the seat's view and its
legal commands (plus the public content: card and monster tables). It never reads a state.

``bot_for(ruleset_name)`` gives the bot that plays a ruleset, or None.
"""

from __future__ import annotations

from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The command to play now, or None to wait (nothing worth doing)."""
        ...


def bot_for(ruleset: str) -> Bot | None:
    if ruleset == "fated":
        from delve.bots.fated import FatedBot

        return FatedBot()
    if ruleset == "maiden":
        from delve.bots.maiden import MaidenBot

        return MaidenBot()
    return None
