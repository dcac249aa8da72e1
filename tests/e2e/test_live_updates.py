"""Live updates in a real browser: the White Maiden screen follows its game's event stream, a
partner's decision reaches it at once (long before the 10-s safety-net poll), also when it is
announced during a poll answered before it, and when the stream drops the page says so, polls at
its usual pace and connects again by itself.
Screenshots: test-artifacts/screenshots/live-*.png."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from delve.server.games import engine
from delve.server.live.hub import hub
from tests.e2e.conftest import DESKTOP, Frozen, log_in
from tests.e2e.test_maiden_screen import PASSWORD, TIMEOUT, watch
from tests.server.maiden_kit import legal, maiden_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


class Watching(NamedTuple):
    """Ann's screen of a two-seat game in which Bob decides first, its event stream connected."""

    game: Any
    bob: Any
    context: Any
    page: Any
    problems: list[str]


def ann_watches(live_server: Any, browser: Any, django_user_model: Any) -> Watching:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    ann = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    bob = django_user_model.objects.create_user(username="bob", password=PASSWORD)
    game = maiden_game([bob, ann])  # bob decides first: ann watches
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    watch(page, problems)
    log_in(page, live_server.url, "ann", PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#maiden")).to_have_attribute("data-live", "live")
    return Watching(game, bob, context, page, problems)


def test_a_partners_decision_arrives_pushed_and_a_dropped_stream_falls_back_to_polling(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    from playwright.sync_api import expect

    game, bob, context, page, problems = ann_watches(live_server, browser, django_user_model)
    root = page.locator("#maiden")
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


def test_a_notice_during_a_poll_answered_before_the_change_polls_again(
    live_server: Any, browser: Any, frozen: Frozen, django_user_model: Any
) -> None:
    """The poller sends one request at a time: when a partner's decision is announced while a
    poll is on its way, and that poll was answered before the decision, the page polls once more
    as soon as it is answered, instead of showing the old position until the 10-s safety net."""
    from playwright.sync_api import expect

    game, bob, context, page, problems = ann_watches(live_server, browser, django_user_model)
    before = page.locator("#game-version").input_value()

    def main_poll(url: str) -> bool:
        return "/maiden/poll/" in url and "status=open" not in url

    held: list[Any] = []  # the main poller's next request, held on its way

    def hold(route: Any) -> None:
        if main_poll(route.request.url) and not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/maiden/poll/**", hold)
    # ask for a poll until one goes out: a poll already on its way when the route was set (the
    # page's own, not held) makes the poller drop the request asked for meanwhile
    deadline = time.monotonic() + 15
    while not held and time.monotonic() < deadline:
        page.evaluate("htmx.trigger(document.getElementById('poller'), 'delve:poll')")
        for _ in range(10):
            if held:
                break
            page.wait_for_timeout(50)
    assert held, "the poll never left the page"
    stale = held[0].fetch()  # the server answers it now, before bob decides
    # bob decides: the notice arrives while the poll is on its way, and the poller notes that it
    # must ask again (live.js: a second request would be dropped while one is out)
    engine.submit(game.pk, bob, legal(game, 0)[0])
    game.refresh_from_db()
    assert str(engine.seen_version(game, 1)) != before
    page.wait_for_function("document.getElementById('poller').delvePollAgain === true", timeout=9_000)
    # the held poll comes back with the old position: the page asks again at once
    with page.expect_request(lambda r: main_poll(r.url), timeout=5_000):
        held[0].fulfill(response=stale)
    expect(page.locator("#game-version")).to_have_value(str(engine.seen_version(game, 1)), timeout=5_000)
    page.unroute("**/maiden/poll/**")
    context.close()
    assert problems == [], problems
