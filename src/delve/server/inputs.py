"""Strict parsing of what clients send, shared by the JSON API and the pages.

Every helper either returns a clean value or raises :class:`~delve.server.games.errors.Rejected`
(400 ``request/malformed``, or 413 ``request/too_large``) with a message that names the field and
quotes at most a short prefix of the input (:func:`quote`): a 5000-digit number or a megabyte of
text is never echoed back. The API answers a rejection as JSON; the pages show it on the 400 page
(see :mod:`delve.server.guard`).

What is refused and why:

- numbers: ASCII digits only (``"²"`` and ``"١"`` are digits to ``str.isdigit`` but not to us),
  at most :data:`INT_MAX` (a database's signed 64-bit integer), so nothing overflows later;
  a JSON whole number outside :data:`INT_MIN`..:data:`INT_MAX` is refused as out of range,
  quoted as it was sent (never as a float such as ``1.84467e+19``);
- JSON: nested at most :data:`JSON_DEPTH` deep (a 5000-deep document is refused before it can
  exhaust the stack), no NUL character in any key or text, and no key twice in one object (the
  decoder would keep the last one);
- text: no NUL character (PostgreSQL cannot store one, and no legitimate input contains one).
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from typing import Annotated, Any

import msgspec

from delve.kernel import DelveError
from delve.server.games.errors import Rejected

INT_MAX = 2**63 - 1
INT_MIN = -(2**63)
JSON_DEPTH = 16
QUOTE_MAX = 32
#: The longest character name.
NAME_MAX = 40
NUL = "\x00"

_DIGITS = re.compile(r"[0-9]{1,19}")

#: msgspec field types for request bodies: a version or counter that fits the database, and a text
#: without NUL characters (the length limits stay with the rules that own them).
Count = Annotated[int, msgspec.Meta(ge=0, le=INT_MAX)]


def quote(value: object, limit: int = QUOTE_MAX) -> str:
    """``repr`` of at most ``limit`` characters of ``value``, saying how long the whole was."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def malformed(message: str) -> Rejected:
    return Rejected("request/malformed", message)


def whole_number(raw: str, name: str, *, minimum: int = 0, maximum: int = INT_MAX) -> int:
    """``raw`` as a whole number from ``minimum`` to ``maximum`` (ASCII digits only).

    :raises Rejected: 400, quoting a short prefix of ``raw`` and saying the range.
    """
    if _DIGITS.fullmatch(raw) is None or not minimum <= int(raw) <= maximum:
        raise malformed(f"{name}={quote(raw)} is not a whole number from {minimum} to {maximum}")
    return int(raw)


def is_number(raw: str) -> bool:
    """Whether ``raw`` is 1 to 18 ASCII digits (``int(raw)`` is then safe and fits 64 bits)."""
    return _DIGITS.fullmatch(raw) is not None and len(raw) <= 18


def optional_number(raw: str | None, name: str, *, maximum: int = INT_MAX) -> int | None:
    """Like :func:`whole_number`, but an absent or empty value is ``None``."""
    if raw is None or raw == "":
        return None
    return whole_number(raw, name, maximum=maximum)


def tile(raw: str | None, name: str = "tile") -> tuple[int, int] | None:
    """A map coordinate ``"x,y"`` (absent or empty: ``None``).

    :raises Rejected: 400 for anything else.
    """
    if raw is None or raw == "":
        return None
    x, comma, y = raw.partition(",")
    if not comma or _DIGITS.fullmatch(x) is None or _DIGITS.fullmatch(y) is None or len(x) > 4 or len(y) > 4:
        raise malformed(f"{name}={quote(raw)} is not a map coordinate such as 3,4")
    return int(x), int(y)


def text(value: str, name: str) -> str:
    """``value`` unchanged, if it has no NUL character.

    :raises Rejected: 400 naming ``name``.
    """
    if NUL in value:
        raise malformed(f"{name} contains a NUL character")
    return value


def has_control(value: str) -> bool:
    """Whether ``value`` contains a control character (NUL, newline, escape...): none belongs in
    a name or a key. Letters, marks and spaces of every script (e.g. U+3000) are fine."""
    return any(unicodedata.category(char) == "Cc" for char in value)


#: Letters that show nothing (the Hangul fillers, the blank braille pattern): a name of these and
#: spaces only is as blank as one of spaces.
BLANK_LETTERS = "\u115f\u1160\u3164\uffa0\u2800"
#: The planes that hold format characters (Unicode category Cf): the basic and the supplementary
#: multilingual planes, and the tags of plane 14.
_FORMAT_PLANES = (range(0x20000), range(0xE0000, 0xE1000))


@functools.cache
def format_ranges() -> tuple[tuple[int, int], ...]:
    """The code point ranges (first, last) of the format characters (category Cf: zero-width
    spaces and joiners, bidirectional controls, the byte order mark...), as this Python's
    Unicode database has them."""
    ranges: list[tuple[int, int]] = []
    for plane in _FORMAT_PLANES:
        for point in plane:
            if unicodedata.category(chr(point)) == "Cf":
                if ranges and ranges[-1][1] == point - 1:
                    ranges[-1] = (ranges[-1][0], point)
                else:
                    ranges.append((point, point))
    return tuple(ranges)


def name_fault(name: str) -> str | None:
    """What is wrong with a character's name (already stripped of outer spaces), or ``None``:

    - ``"blank"``: nothing visible (spaces, format characters and blank letters only, or empty);
    - ``"control"``: a control character (a tab, a line break, an escape...);
    - ``"format"``: a format character (category Cf: a zero-width space or joiner, a
      bidirectional control such as U+202E, which turns the text around it backwards...): it
      shows nothing itself, or changes how the names around it read in a list;
    - ``"long"``: more than :data:`NAME_MAX` characters.

    Every name a seat gets goes through here (``engine.register``); the forms ask it too."""
    if not any(
        not char.isspace() and char not in BLANK_LETTERS and unicodedata.category(char) != "Cf" for char in name
    ):
        return "blank"
    if has_control(name):
        return "control"
    if any(unicodedata.category(char) == "Cf" for char in name):
        return "format"
    if len(name) > NAME_MAX:
        return "long"
    return None


#: Why a comment with a control character is refused: the same words from the API and the screens.
COMMENT_CONTROL = "a comment is one line of printable text: no tabs, line breaks or other control characters"


def comment_text(value: Any) -> Any:
    """``value`` unchanged, unless it is a text with a control character (a tab, a line break,
    an escape...): a comment is shown on one line in everybody's seat list. Every comment goes
    through here (``engine.check_command``), whichever page or endpoint sent it.

    :raises Rejected: 400 ``request/malformed``, :data:`COMMENT_CONTROL`.
    """
    if isinstance(value, str) and has_control(value):
        raise malformed(COMMENT_CONTROL)
    return value


def check_json(value: Any, name: str, *, depth: int = JSON_DEPTH) -> Any:
    """``value`` (decoded JSON) unchanged, if it is nested at most ``depth`` deep, no key or
    text in it contains a NUL character and every whole number in it fits 64 bits. Iterative: a
    deep value cannot exhaust the stack here.

    :raises Rejected: 400 naming ``name``.
    """
    _check(value, name, depth)
    return value


def out_of_range(name: str, number: int) -> Rejected:
    """The refusal of a whole number beyond 64 bits, quoting its digits as sent (a short prefix
    of a long one)."""
    return malformed(
        f"{name} has a whole number out of range: {quote(str(number))} "
        f"(whole numbers from {INT_MIN} to {INT_MAX} are accepted)"
    )


def _check(value: Any, name: str, depth: int) -> int:
    """:func:`check_json`'s walk; the number of keys in all of ``value``'s objects."""
    keys = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            if NUL in item:
                raise malformed(f"{name} contains a NUL character")
        elif type(item) is int:  # not a bool
            if not INT_MIN <= item <= INT_MAX:
                raise out_of_range(name, item)
        elif isinstance(item, dict | list):
            if level > depth:
                raise malformed(f"{name} is nested more than {depth} levels deep")
            if isinstance(item, dict):
                keys += len(item)
                stack.extend((key, level) for key in item)
                stack.extend((child, level + 1) for child in item.values())
            else:
                stack.extend((child, level + 1) for child in item)
    return keys


def json_text(raw: str | bytes, name: str, *, depth: int = JSON_DEPTH) -> Any:
    """Decode ``raw`` as JSON and check it (:func:`check_json`); an object that gives a key twice
    is refused too (a decoder keeps the last, so ``{"kind": "wait", "kind": "give_up"}`` would
    quietly be the second).

    :raises Rejected: 400 for invalid JSON, too deep a document, a NUL character, a whole number
        beyond 64 bits (:func:`out_of_range`), or a key given twice in one object.
    """
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        if str(exc).startswith("Integer value out of range"):  # thousands of digits: not even read
            raise malformed(
                f"{name} is not valid JSON here: it has a whole number out of range (whole numbers from "
                f"{INT_MIN} to {INT_MAX} are accepted)"
            ) from None
        lone = lone_surrogate(raw)
        if lone is not None:  # msgspec says "Input data was truncated" of one
            escape, at = lone
            raise malformed(
                f"{name} is not valid JSON: a lone UTF-16 surrogate {escape} at byte {at} (an escape of a "
                "surrogate must pair a high one, \\ud800-\\udbff, with a low one, \\udc00-\\udfff; "
                "or send the character itself as UTF-8)"
            ) from None
        raise malformed(f"{name} is not valid JSON ({clip(str(exc))})") from None
    except UnicodeEncodeError:  # a text with a lone surrogate
        raise malformed(f"{name} is not valid JSON (it is not Unicode text)") from None
    except RecursionError:
        raise malformed(f"{name} is nested more than {depth} levels deep") from None
    keys = _check(value, name, depth)
    # Each key in the text is followed by one colon, so a text with no more colons than the
    # decoded objects have keys repeats none (the usual case: no second pass). More colons: one
    # inside a string, or a repeated key; the standard decoder's pairs then tell which.
    if keys and (raw.count(b":") if isinstance(raw, bytes) else raw.count(":")) > keys:
        try:
            json.loads(raw, object_pairs_hook=functools.partial(_pairs, name), parse_int=str, parse_float=str)
        except ValueError:  # the standard decoder refuses what msgspec took (none known): refuse too
            raise malformed(f"{name} is not valid JSON") from None
    return value


#: A ``\\u`` escape of a UTF-16 surrogate in a JSON text (after an even number of backslashes,
#: so it is an escape and not the text "\\u..." written with an escaped backslash): a high one
#: with the low one that should follow it, or a low one alone.
_SURROGATE = re.compile(
    rb"(?<!\\)(?:\\\\)*(\\u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)


def lone_surrogate(raw: str | bytes) -> tuple[str, int] | None:
    """The first ``\\u`` escape of a surrogate in ``raw`` that is not half of a pair, and its byte
    offset, or ``None`` (JSON texts may hold such escapes only in pairs: msgspec refuses a lone
    one, saying the input "was truncated")."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    for match in _SURROGATE.finditer(data):
        if len(match.group(1)) == 6:
            return match.group(1).decode("ascii").lower(), match.start(1)
    return None


def _pairs(name: str, pairs: list[tuple[str, Any]]) -> None:
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            raise malformed(f"{name} gives the key {quote(key)} twice in one object")
        seen.add(key)


_QUOTED = re.compile(f"(?<!\\w)([`'\"])([^`'\"]{{{QUOTE_MAX + 1},}})\\1(?!\\w)")  # not an apostrophe
_LONG_WORD = re.compile(f"\\S{{{2 * QUOTE_MAX + 1},}}")


MESSAGE_MAX = 240


def error_body(error: DelveError) -> dict[str, Any]:
    """``error.as_dict()`` with its message clipped (:func:`clip`): a ruleset may quote the
    whole command it refuses, and a command can be as long as the body limit."""
    body = error.as_dict()
    body["message"] = clip(str(body["message"]), MESSAGE_MAX)
    return body


def clip(message: str, limit: int = 160) -> str:
    """A message with what it quotes of the input (between backticks or quotes, as msgspec and
    ``repr`` quote) cut to ``QUOTE_MAX`` characters, any other long run without spaces cut too,
    and the whole cut to ``limit``."""
    message = _QUOTED.sub(lambda match: f"{match[1]}{match[2][:QUOTE_MAX]}...{match[1]}", message)
    message = _LONG_WORD.sub(lambda match: f"{match[0][: 2 * QUOTE_MAX]}...", message)
    return message if len(message) <= limit else message[: limit - 3] + "..."
