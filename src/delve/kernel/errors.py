"""The small exception family of Delve.

Every error carries a stable machine-readable ``code`` (used by the JSON API and the tests) and a
human-readable message that quotes the bad input.
"""

from __future__ import annotations

import json
from typing import Any


class DelveError(Exception):
    """Base class of every error Delve raises on purpose."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details

    def as_dict(self) -> dict[str, Any]:
        """The ``{"code": ..., "message": ...}`` body used by the API."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        return body


class IllegalCommand(DelveError):
    """A command that the rules do not allow now. The state is left untouched.

    Codes are stable strings such as ``command/not_your_phase`` or ``command/not_enough_cp``.
    """

    code = "command/illegal"

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message, code=code, **details)


class SettingsError(DelveError):
    """A game setting (or a server setting) is missing or invalid; ``setting`` names it.

    The message is for the API and the logs (it quotes the setting's key). So that a page can say
    the same to a person in their language, the error also tells what was expected: ``expected``
    (``"integer"``, ``"number"``, ``"boolean"``, ``"duration"``, ``"choice"``, ``"unknown"``,
    ``"range"``; empty: only the reason says), ``choices`` for a choice, ``low``/``high`` and
    ``unit`` (``"s"`` seconds, ``"h"`` hours, ``"%"``, empty) for a range, ``got``, the value.

    A rule that ties settings together (``expected="rule"``: entry-restricted rooms need
    normal difficulty, a maze too small for the players...) gives its reason for people in every
    language as ``words`` (``{"en": ..., "ja": ...}``), which a page shows after the setting's
    label; ``reason`` stays the API's (English) wording and ``code`` stays ``settings/invalid``."""

    code = "settings/invalid"

    def __init__(
        self,
        setting: str,
        reason: str,
        *,
        expected: str = "",
        choices: tuple[str, ...] = (),
        low: float | None = None,
        high: float | None = None,
        unit: str = "",
        got: Any = None,
        words: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"setting {setting!r}: {reason}", setting=setting)
        self.setting = setting
        self.reason = reason
        self.expected = expected
        self.choices = choices
        self.low = low
        self.high = high
        self.unit = unit
        self.got = got
        self.words: dict[str, str] = words or {}


def number_text(value: Any) -> str:
    """A number as it was given, never rounded to a few digits: an int in all its digits
    (``18446744073709551616``, not ``1.84467e+19``), a whole float below 2**53 as an int
    (``2592000``, not ``2.592e+06``), another float as Python writes it back (``12.5``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def setting_int(setting: str, value: Any) -> int:
    """A whole-number setting: an int (not a bool), or a text of at most 18 ASCII digits with an
    optional minus sign (``"²"`` is a digit to ``str.isdigit`` but not a number to ``int``, and a
    5000-digit text is past ``int``'s limit: both are refused, not a ``ValueError``).

    :raises SettingsError: quoting a short prefix of ``value``.
    """
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text.startswith("-") else text
        if digits.isascii() and digits.isdigit() and len(digits) <= 18:
            return int(text)
    elif isinstance(value, int) and not isinstance(value, bool):
        return value
    raise SettingsError(setting, f"expected an integer, got {quote(value)}", expected="integer", got=value)


class ContentError(DelveError):
    """A content file (presets, cards, classes, monsters...) is broken.

    The message names the file, the key (e.g. a card id) and the reason.
    """

    code = "content/invalid"

    def __init__(self, file: str, key: str, reason: str) -> None:
        super().__init__(f"{file}: {key}: {reason}", file=file, key=key)
        self.file = file
        self.key = key
        self.reason = reason


QUOTE_LIMIT = 80


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A short, printable quotation of bad input for an error message: at most ``limit``
    characters, and never a failure for input nested too deep to print."""
    try:
        text = repr(value)
    except RecursionError:
        return f"<{type(value).__name__} nested too deep>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def seat_words(seat: int) -> str:
    """A seat as a message names it: by its 0-based index, as the API's fields (``seat``,
    ``active_seat``, ``pending[].seat``) do, with the number the game's pages show for it
    ("seat index 0 (player 1)"), so a reader of either finds the same seat."""
    return f"seat index {seat} (player {seat + 1})"


def quote_json(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """Like :func:`quote`, but in the form a JSON body has (``{"kind": "move", "to": "A3"}``,
    ``"A3"``, ``null``): how commands and their fields are quoted back to the API and the
    screens. A value JSON cannot write (never one decoded from a body) is quoted as :func:`quote`
    does."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        if not text.isprintable():
            text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return quote(value, limit)
    return text if len(text) <= limit else text[: limit - 3] + "..."
