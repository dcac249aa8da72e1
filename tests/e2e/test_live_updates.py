"""Live updates in a real browser: the White Maiden screen follows its game's event stream, a
partner's decision reaches it at once (long before the 10-s safety-net poll), and when the stream
drops the page says so, polls at its usual pace and connects again by itself.
Screenshots: test-artifacts/screenshots/live-*.png."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from delve.server.games import engine
from delve.server.live.hub import hub
from tests.e2e.conftest import DESKTOP, Frozen, log_in
from tests.e2e.test_maiden_screen import PASSWORD, TIMEOUT, watch
from tests.server.maiden_kit import legal, maiden_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_partners_decision_arrives_pushed_and_a_dropped_stream_falls_back_to_polling(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    ann = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    bob = django_user_model.objects.create_user(username="bob", password=PASSWORD)
    game = maiden_game([bob, ann])  # bob decides first: ann watches
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    watch(page, problems)
    log_in(page, base, "ann", PASSWORD)
    page.goto(f"{base}/games/{game.pk}/")
    root = page.locator("#maiden")
    expect(root).to_have_attribute("data-live", "live")
    expect(page.locator("#live-status")).to_be_hidden()

    # bob decides (through the same submit path as his screen): ann's page polls before the 10-s
    # safety-net poll would (a notice that arrives while one of the page's own requests is on its
    # way waits for its answer, up to 5 s: live.js)
    deadline = time.monotonic() + 5
    while hub().subscribers(game.pk) < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub().subscribers(game.pk) >= 1, "ann's stream never subscribed"
    with page.expect_request(lambda r: "/maiden/poll/" in r.url, timeout=9_000):
        engine.submit(game.pk, bob, legal(game, 0)[0])
    game.refresh_from_db()
    expect(page.locator("#game-version")).to_have_value(str(game.version), timeout=5_000)

    # the stream drops (and cannot come back for now): the page says so and keeps the screen
    # fresh by polling
    page.route("**/live/", lambda route: route.abort())
    hub().break_all()
    expect(root).to_have_attribute("data-live", "polling")
    expect(page.locator("#live-status")).to_be_visible()
    expect(page.locator("#live-status")).to_contain_text("Live updates are interrupted")
    page.screenshot(path=str(shots / "live-interrupted-desktop-en.png"), caret="initial")
    with page.expect_request(lambda r: "/maiden/poll/" in r.url, timeout=8_000):
        engine.submit(game.pk, bob, legal(game, 0)[0])
    game.refresh_from_db()
    expect(page.locator("#game-version")).to_have_value(str(game.version), timeout=8_000)
    expect(page.locator("#live-status")).to_be_visible()

    # the stream is back: the page connects again by itself and the notice goes away
    page.unroute("**/live/")
    expect(root).to_have_attribute("data-live", "live", timeout=40_000)
    expect(page.locator("#live-status")).to_be_hidden()
    context.close()
    unexpected = [p for p in problems if "net::ERR_FAILED" not in p]  # the streams the test aborted
    assert unexpected == [], unexpected
