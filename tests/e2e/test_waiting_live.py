"""The "waiting on me" page, the lobby and the site header follow the games by themselves: Bob
opens them while Ann plays the first turn of their White Maiden game; once it is Bob's turn the
open pages say so without a reload (their htmx polls, under the strict Content-Security-Policy: no
console error). Screenshots: test-artifacts/screenshots/waiting-live-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, log_in
from tests.server.maiden_kit import legal, maiden_game, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Tree-of-Life-42"


def test_the_open_pages_show_the_turn_arriving_without_a_reload(
    live_server: Any, browser: Any, shots: Path, django_user_model: Any
) -> None:
    ann, bob = (django_user_model.objects.create_user(n, f"{n}@example.org", PASSWORD) for n in ("ann", "bob"))
    game = maiden_game([ann, bob])
    problems: list[str] = []
    base = live_server.url
    context = browser.new_context(viewport=DESKTOP)
    waiting = context.new_page()
    waiting.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    waiting.on("pageerror", lambda error: problems.append(str(error)))
    log_in(waiting, base, "bob", PASSWORD)
    lobby = context.new_page()
    lobby.set_viewport_size(PHONE)
    lobby.goto(f"{base}/")
    waiting.goto(f"{base}/me/waiting/")
    assert "0 games need you." in waiting.inner_text("main")
    assert waiting.inner_text("#waiting-badge") == "waiting on you: 0"
    assert lobby.locator(f"#turn-{game.pk} .your-decision").count() == 0

    play_until(game, [ann, bob], lambda _view: bool(legal(game, 1)))  # Ann plays until it is Bob's turn

    waiting.get_by_text("1 game needs you.").wait_for(timeout=20000)  # the page polls every 10 s
    assert "Your turn" in waiting.inner_text("table.waiting")
    assert waiting.inner_text("#waiting-badge") == "waiting on you: 1"
    waiting.screenshot(path=str(shots / "waiting-live-desktop.png"), full_page=True)
    lobby.wait_for_selector(f"#turn-{game.pk} .your-decision", timeout=25000)
    lobby.locator("#waiting-badge[data-count='1']").wait_for(timeout=35000)
    lobby.screenshot(path=str(shots / "waiting-live-lobby-phone.png"), full_page=True)
    assert not problems, problems
    context.close()
