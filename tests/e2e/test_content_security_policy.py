"""Issue 16 (LOW, CSP): under the strict Content-Security-Policy (scripts and styles from our
own static files only, no eval) the game screen and the operator console work in a real browser
without a single violation: the screen polls (with the panel signatures), a tile's details load,
a quick-move button moves, and the admin pages render."""

from __future__ import annotations

from typing import Any

import pytest

from delve.server import clock as server_clock
from tests.e2e.conftest import DESKTOP
from tests.server.fated_kit import arrange, fated_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Dungeon-Key-42"
START = 1_800_000_000


def test_the_game_screen_and_the_admin_run_under_the_strict_policy(
    live_server: Any, browser: Any, django_user_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr(server_clock, "now", lambda: START)
    users = [django_user_model.objects.create_user(name, password=PASSWORD) for name in ["aki", "ben", "chie", "dan"]]
    django_user_model.objects.create_superuser("op", password=PASSWORD)
    game = arrange(fated_game(users), hands={0: ["attack-10"]}, ready=[0])
    base = live_server.url

    problems: list[str] = []

    def log_in(name: str) -> Any:
        context = browser.new_context(viewport=DESKTOP, locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15_000)
        # console errors, except a missing favicon (the admin's pages name none)
        page.on(
            "console",
            lambda msg: (
                problems.append(f"{page.url}: {msg.text}") if msg.type == "error" and "404" not in msg.text else None
            ),
        )
        page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{base}/")
        return page

    page = log_in("aki")
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("#panel-commands h2")).to_contain_text("Move phase")
    # the poller fires by itself, without eval, carrying the panel signatures
    with page.expect_request(lambda r: "/poll/" in r.url and "sigs=" in r.url, timeout=15_000):
        pass
    # a tile in sight loads its details; a quick-move button moves (htmx without eval)
    page.locator("button.cell[data-x]").first.click()
    expect(page.locator("#panel-tile")).to_be_visible()
    # something outside the page (a browser extension, a translator) touched the panels' style
    # through the CSSOM, which the policy allows: htmx must not copy those style attributes back
    # with setAttribute when it settles a refreshed panel (the policy refuses that: each refresh
    # logged an error per panel)
    page.evaluate("document.querySelectorAll('[data-panel]').forEach(el => { el.style.outline = '1px solid red'; })")
    version = page.locator("#game-version").get_attribute("value")
    page.click("#qm-right")
    expect(page.locator("#game-version")).not_to_have_value(version or "", timeout=15_000)
    fill = page.locator(".bar.hp .bar-fill")
    assert fill.evaluate("el => getComputedStyle(el).width") != "0px", "the HP bar is drawn by its class"
    columns = page.locator(".map").evaluate("el => getComputedStyle(el).gridTemplateColumns.split(' ').length")
    assert columns == 9

    page.context.close()
    page = log_in("op")
    for path in ["/admin/", "/admin/games/game/", f"/admin/games/game/{game.pk}/change/", "/admin/auth/user/add/"]:
        page.goto(f"{base}{path}")
        expect(page.locator("#content")).to_be_visible()
    page.context.close()
    violations = [text for text in problems if "Content Security Policy" in text or "unsafe-eval" in text]
    assert not violations, violations
    assert not problems, problems
