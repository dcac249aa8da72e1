"""Every event kind the engine emits has a sentence in English and Japanese."""

from __future__ import annotations

import pathlib
import re

import pytest

from delve.maiden import text
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.playout import playout
from tests.maiden.test_playouts import FIXTURE, VARIANTS

SOURCE = pathlib.Path(text.__file__).parent


def test_every_emitted_kind_has_both_sentences() -> None:
    emitted = set()
    for path in SOURCE.glob("*.py"):
        emitted |= set(re.findall(r'emit\(\s*"([a-z_]+\.[a-z_]+)"', path.read_text()))
    emitted |= {"game.lost", "game.won", "check.started"}
    assert emitted <= set(text.SENTENCES), sorted(emitted - set(text.SENTENCES))
    for en, ja in text.SENTENCES.values():
        assert en and ja and en != ja


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sentences_of_a_played_game_fill_every_placeholder(lang: str) -> None:
    game = playout(FIXTURE, 2, 11, settings=VARIANTS[3])
    names = [m.name for m in game.maidens]
    kinds = set()
    for entry in game.log:
        line = text.sentence(entry.kind, entry.data, lang, CONTENT, names)
        assert line and "{" not in line and "?" not in line, (entry.kind, line)
        kinds.add(entry.kind)
    assert "game.won" in kinds or "game.lost" in kinds


def test_names_come_from_the_content() -> None:
    assert text.sentence("boss.engaged", {"boss": "urza", "life": 3}, "ja", CONTENT).startswith(
        "Mad King Urza（日本語）"
    )
    assert text.sentence("turn.started", {"seat": 1}, "en") == "Player 2's turn."
    with pytest.raises(ValueError):
        text.sentence("turn.started", {"seat": 0}, "fr")
