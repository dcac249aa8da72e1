"""Durations as people read them, in English and Japanese: one function for every page.

``say(5400, "en") == "1 h 30 min"``, ``say(5400, "ja") == "1時間30分"``, ``say(86400, "ja") ==
"1日"``. Every unit that is not zero is shown (``"1 d 2 h 5 s"``), so the value is exact: a
setting is shown as it is, never rounded.
"""

from __future__ import annotations

from delve.kernel.ruleset import Text

LANGS = ("en", "ja")
_UNITS: tuple[tuple[int, str, str], ...] = (
    (86400, " d", "日"),
    (3600, " h", "時間"),
    (60, " min", "分"),
    (1, " s", "秒"),
)


def say(seconds: int | float, lang: str = "en") -> str:
    """``seconds`` in days, hours, minutes and seconds (those that are not zero), in ``lang``
    (``en`` or ``ja``)."""
    left = max(0, int(seconds))
    parts: list[str] = []
    for size, en, ja in _UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(f"{count}{ja if lang == 'ja' else en}")
    if not parts:
        return "0秒" if lang == "ja" else "0 s"
    return "".join(parts) if lang == "ja" else " ".join(parts)


def text(seconds: int | float) -> Text:
    """:func:`say` in every language, for a :class:`~delve.kernel.SettingLine`'s ``shown``."""
    return {lang: say(seconds, lang) for lang in LANGS}
