"""Lists of names and words as each language writes them, for every game and the server.

Japanese separates the items of a list with 「、」 (an ASCII comma there reads as a typo);
English with commas. :func:`listing` only separates ("Ann, Bo" / 「Ann、Bo」): dice, symbols,
numbers. :func:`join` is for names in a sentence and says "and" before the last in English ("Ann
and Bo lost.", "Ann, Bo and Cy", no comma before "and"; "Ann, Bo lost." read as a list cut short).
Any other language is written as English.
"""

from __future__ import annotations

from collections.abc import Iterable


def _japanese(lang: str | None) -> bool:
    return (lang or "en")[:2] == "ja"


def listing(items: Iterable[str], lang: str | None) -> str:
    """Items one after another: "die 1 (red 1), die 2 (blue 3)" in English, 「サイコロ1（赤 1）、
    サイコロ2（青 3）」 in Japanese."""
    return ("、" if _japanese(lang) else ", ").join(items)


def join(items: Iterable[str], lang: str | None) -> str:
    """Items as a sentence lists them: "Ann and Bo", "Ann, Bo and Cy" in English, 「Ann、Bo、Cy」
    in Japanese."""
    items = list(items)
    if _japanese(lang):
        return "、".join(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
