"""Bots at the table in a real browser: the host opens a Fated Labyrinth game with three seats
given to bots and a bot takeover time; the lobby marks the bot seats, in English and in Japanese.
Screenshots (1280x800) of the form and of the lobby go to test-artifacts/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from delve.server.games.models import Game
from tests.e2e.conftest import DESKTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "Dungeon-Key-42"
TIMEOUT = 15_000


def test_the_host_opens_a_game_with_bots_and_a_takeover_time(browser: Any, live_server: Any, shots: Path) -> None:
    get_user_model().objects.create_user("host", password=PASSWORD, is_staff=True)
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(TIMEOUT)
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "host")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.goto(f"{base}/games/new/")
    page.select_option("select[name=preset]", "fated:fated-labyrinth")
    page.fill("textarea[name=overrides]", "wait_time=1h")
    page.fill("input[name=bots]", "3")
    page.fill("input[name=takeover_hours]", "24")
    page.screenshot(path=str(shots / "lobby-new-game-with-bots.png"), full_page=True)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")
    game = Game.objects.get()
    assert game.bot_takeover_after == 24 * 3600 and game.seats.filter(is_bot=True).count() == 3
    tags = page.locator(f"#game-{game.pk} table.seats .tag.bot")
    assert tags.count() == 3
    assert "a computer player; no personal record" in page.locator(f"#game-{game.pk} .seat-legend").inner_text()
    assert "A bot plays any seat that keeps the game waiting 1 d." in page.locator(f"#game-{game.pk}").inner_text()
    page.locator(f"#game-{game.pk}").screenshot(path=str(shots / "lobby-open-game-with-bots.png"))
    page.locator("form.lang-switch button[value=ja]").click()
    page.wait_for_selector("html[lang=ja]")
    card = page.locator(f"#game-{game.pk}")
    assert "ゲームを1日待たせた席はボットがプレイします。" in card.inner_text()
    assert tags.first.inner_text() == "ボット"
    assert tags.first.get_attribute("title") == "コンピューターのプレイヤー。個人記録なし"
    card.screenshot(path=str(shots / "lobby-open-game-with-bots-ja.png"))
    page.goto(f"{base}/games/new/")
    assert "放置された席をボットが引き継ぐまで（時間）" in page.locator("main").inner_text()
    page.screenshot(path=str(shots / "lobby-new-game-with-bots-ja.png"), full_page=True)
    page.close()
