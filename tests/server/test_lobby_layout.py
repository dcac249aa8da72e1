"""The lobby's layout on a phone in Japanese (a tester's screenshot at 390 px): the seat tables'
headers broke inside words (番/号, コメン/ト) and the "New White Maiden game" button touched the
sentence under it. Checked as the rules site.css must keep (screenshots: phone ja, desktop en)."""

from __future__ import annotations

import re
from pathlib import Path

import delve.server

CSS = (Path(delve.server.__file__).parent / "static" / "delve" / "site.css").read_text()


def rule(selector: str) -> str:
    found = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert found is not None, f"site.css has no rule for {selector}"
    return found[1]


def test_seat_table_headers_never_break_inside_a_word():
    assert "white-space: nowrap" in rule("table.seats th")
    japanese = rule(":lang(ja) table.seats td")
    assert "word-break: keep-all" in japanese and "overflow-wrap: anywhere" in japanese


def test_the_new_game_button_keeps_clear_of_the_line_under_it():
    button = rule(".new-games .button")
    assert "display: inline-block" in button and "margin-bottom" in button
