"""§6.3: the simulation-only variants (``allow_smaller_die``, CHG-10; ``slate_roll_restricted``,
CHG-18; ``base_target``, OQ-4) are for the balance lab. Players cannot choose them, so a White
Maiden game's "Rules of this game" does not list them (it listed two "(simulation)" lines) unless a
staff-made game turned one on, and the new-game form does not offer them; the staff form's
reference and the lab's report still list them."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest

from delve.kernel import get_ruleset
from delve.maiden import settings as maiden_settings
from delve.server.games import engine
from tests.server.conftest import session_client
from tests.server.test_lobby import _settings_of

pytestmark = pytest.mark.django_db

SIMULATION = {
    "en": ["Smaller dice allowed (simulation)", "Slate checks roll slate + white only (simulation)", "Base target"],
    "ja": ["小さいサイコロを選択可（検証用）", "スレート判定は色＋白のみ（検証用）", "基本目標値"],
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_CHG_10_CHG_18_OQ_4_a_games_rules_do_not_list_the_simulation_only_variants(
    client: Any, player: Any, language: str
) -> None:
    game = engine.create_game("maiden", "white-maiden", {"players": 2})
    shown = _settings_of(client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode(), game.pk)
    assert len(shown) >= 15  # the rest is there
    assert not [label for label in shown if any(words in label for words in SIMULATION[language])], shown
    page = session_client(player)
    page.cookies["django_language"] = language
    form = unescape(page.get("/maiden/new/", HTTP_ACCEPT_LANGUAGE=language).content.decode())
    for key in maiden_settings.SIMULATION_ONLY:
        assert f'name="s_{key}"' not in form
    assert 'name="s_boss_rooms_block_passage"' in form


def test_a_simulation_only_variant_a_game_turned_on_is_listed(client: Any) -> None:
    game = engine.create_game("maiden", "white-maiden", {"players": 2, "allow_smaller_die": True})
    shown = _settings_of(client.get("/").content.decode(), game.pk)
    assert shown["Smaller dice allowed (simulation)"] == "on"
    assert "Slate checks roll slate + white only (simulation)" not in shown


def test_the_staff_reference_and_the_lab_still_list_them() -> None:
    from delve.maiden.lab import report
    from delve.server.games.forms import setting_help

    assert {item.key for item in setting_help(get_ruleset("maiden"))} >= maiden_settings.SIMULATION_ONLY
    baseline = report.baseline()
    assert "Smaller dice allowed (simulation): off" in baseline and "Base target number:" in baseline
