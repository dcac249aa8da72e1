"""Rejections the server gives, each with a stable code, a message and an HTTP status.

Engine errors keep their own codes: :class:`~delve.kernel.IllegalCommand` answers 422 and
:class:`~delve.kernel.SettingsError` 400 (see :func:`status_for`).
"""

from __future__ import annotations

from typing import Any

from delve.kernel import DelveError, IllegalCommand, SettingsError


class Rejected(DelveError):
    """A request the server refuses; ``status`` is the HTTP status the API answers with."""

    code = "request/rejected"

    def __init__(self, code: str, message: str, *, status: int = 400, **details: Any) -> None:
        super().__init__(message, code=code, **details)
        self.status = status


def status_for(error: DelveError) -> int:
    if isinstance(error, Rejected):
        return error.status
    if isinstance(error, IllegalCommand):
        return 422
    if isinstance(error, SettingsError):
        return 400
    return 400


def game_not_found(game_id: object) -> Rejected:
    return Rejected("game/not_found", f"there is no game {game_id}", status=404)


def not_seated() -> Rejected:
    return Rejected("seat/not_seated", "you have no seat in this game, so you cannot act in it", status=403)
