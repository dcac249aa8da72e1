"""The words of an operator closing a running game (``delve close``, the admin's *Close selected
games*; :func:`delve.server.games.engine.close`), shared by both game screens, the game's log,
the replay and the "has ended" notice: the players read the reason the operator gave."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from delve.server.games.models import PUBLIC, Game

CLOSED = "game.closed"
"""The server's public event of an operator closing a game (``{"reason": ...}``)."""

SENTENCE = {
    "en": "An operator closed the game: {reason}",
    "ja": "運営者がゲームを終了しました：{reason}",
}
RESULT = {"en": "closed by an operator", "ja": "運営者により終了"}
"""A seat's result ``closed`` in a sentence."""


def sentence(reason: Any, lang: str) -> str:
    """The ``game.closed`` event as a sentence in ``lang`` (``en`` or ``ja``; others get English)."""
    words = SENTENCE["ja" if lang[:2] == "ja" else "en"]
    return words.format(reason=str(reason or "").strip() or "—")


def told(reason: str, lang: str) -> str:
    """The reason after the outcome in the "has ended" notice: " The reason: …." / 「理由：…。」."""
    reason = reason.strip()
    if lang[:2] == "ja":
        return f"理由：{reason}" + ("" if reason.endswith(("。", ".", "！", "？", "!", "?")) else "。")
    return f" The reason: {reason}" + ("" if reason.endswith((".", "!", "?", "。")) else ".")


def is_closed_event(kind: str, data: Mapping[str, Any] | None = None) -> bool:
    return kind == CLOSED and (data is None or isinstance(data.get("reason"), str))


def reason(game: Game) -> str | None:
    """The reason an operator gave for closing ``game``, or ``None`` when no operator closed it
    (one query, only for a game that has ended)."""
    if game.status != Game.Status.ENDED:
        return None
    data = (
        game.events.filter(kind=CLOSED, visibility=PUBLIC).order_by("-sequence").values_list("data", flat=True).first()
    )
    if isinstance(data, dict) and isinstance(data.get("reason"), str):
        return str(data["reason"])
    return None
