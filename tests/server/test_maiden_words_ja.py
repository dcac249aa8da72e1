"""White Maiden's Japanese words follow the designer's draft (seeds/004, 草案１３) and the card
texts: サイコロ for dice (the draft never says ダイス), 難度 for a card's or a check's difficulty
(難易度 is the easy/normal game setting only) and 判定 for a check (the draft's ルーム判定)."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

import delve.maiden
import delve.server

CATALOGUE = Path(delve.server.__file__).parent / "locale" / "ja" / "LC_MESSAGES" / "django.po"
MAIDEN = Path(delve.maiden.__file__).parent
PLAY = Path(delve.server.__file__).parent / "play"


def _maiden_japanese_sources() -> list[Path]:
    return [
        *MAIDEN.glob("*.py"),
        *(MAIDEN / "content").glob("*.toml"),
        *PLAY.glob("maiden_*.py"),
    ]


def _msgstrs() -> str:
    """Every Japanese string of the catalogue (msgstr lines and their continuations)."""
    out, inside = [], False
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgstr"):
            inside = True
        elif line.startswith(("msgid", "msgctxt", "#")) or not line.strip():
            inside = False
        if inside:
            out.append(line)
    return "\n".join(out)


def test_dice_are_saikoro_in_every_japanese_text_as_in_the_draft() -> None:
    """The draft and every card say サイコロ; the help, the log, the screen and the settings do
    too (「サイコロ：3 × d4」, not 「ダイス：3 × d4」)."""
    assert "サイコロ" in _msgstrs() and "ダイス" not in _msgstrs()
    for path in _maiden_japanese_sources():
        assert "ダイス" not in path.read_text(encoding="utf-8"), path


def test_a_cards_difficulty_is_nando_and_nanido_is_only_the_game_setting() -> None:
    """難度 is a card's or a check's difficulty (the boss list and the draft's 「難度」); 難易度 names
    only the easy/normal setting (settings.py)."""
    for path in _maiden_japanese_sources():
        if path.name == "settings.py":
            continue
        assert "難易度" not in path.read_text(encoding="utf-8"), path
    help_text = (PLAY / "maiden_help.py").read_text(encoding="utf-8")
    assert "カードの難度" in help_text
    for line in re.findall(r'^msgstr ".*難易度.*"$', CATALOGUE.read_text(encoding="utf-8"), re.M):
        assert "難易度" not in line or "ノーマル" in line or "イージー" in line, line


def test_the_check_panel_is_titled_hantei_as_the_help_and_log_say() -> None:
    """The White Maiden check panel's title is 判定; Fated Labyrinth's checkpoint column keeps
    チェック (another msgid context)."""
    with translation.override("ja"):
        assert translation.pgettext("White Maiden roll against a target", "Check") == "判定"
        assert translation.gettext("Check") == "チェック"
    panel = (Path(delve.server.__file__).parent / "templates/play/maiden/panels/dice.html").read_text(encoding="utf-8")
    assert '{% translate "Check" context "White Maiden roll against a target" %}' in panel
