"""The "waiting on me" dashboard and the notification preference page in a real browser (issue 15):
no console error (the strict Content-Security-Policy included), one click from the dashboard to
the game, the calendar link made and shown. Screenshots (desktop, phone, both languages) go to
test-artifacts/screenshots/notify-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from delve.fated.state import Pending
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.notify.models import Preference
from tests.e2e.conftest import DESKTOP, PHONE, START, Frozen, log_in
from tests.server.fated_kit import rewrite
from tests.server.notify_kit import HOUR, fated, step

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Tree-of-Life-42"


def watch(page: Any, problems: list[str]) -> None:
    page.on("console", lambda msg: problems.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))


def shot(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"notify-{name}.png"), full_page=True, caret="initial")


def test_the_dashboard_and_the_preference_page(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    users = [
        django_user_model.objects.create_user(name, f"{name}@example.org", PASSWORD)
        for name in ("ann", "bob", "cid", "dan")
    ]
    first = fated(users)
    second = fated([users[1], users[0], users[2], users[3]], preset="level-d", names=("Bea", "Ann", "Cy", "Di"))
    frozen.t = START + HOUR
    step()
    rewrite(
        second,
        lambda s: s.p(1).pending.append(
            Pending(id=3, kind="attack", created=s.now, row="dmg_adjacent", label="normal")
        ),
    )
    engine.open_game(first.pk, users[0])  # Ann is in her turn in the first game
    maiden = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0, "turn_deadline_hours": 48})
    engine.register(maiden.pk, users[0], "Ann")
    engine.register(maiden.pk, users[1], "Bob")
    waiting_room = engine.create_game("fated", "fated-labyrinth", {"players": 4, "maze_size": 9})
    engine.register(waiting_room.pk, users[0], "Solo", {"class": "thief"})
    assert Game.objects.filter(status=Game.Status.RUNNING).count() == 3

    problems: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    watch(page, problems)
    base = live_server.url
    log_in(page, base, "ann", PASSWORD)
    page.click("header a[href='/me/waiting/']")
    page.wait_for_selector("table.waiting")
    rows = page.locator("table.waiting tbody tr")
    assert rows.count() == 3
    assert "Play" in rows.nth(0).inner_text()
    shot(page, shots, "dashboard")

    page.click("header a[href='/me/notifications/']")
    page.check("input[name=kinds][value=started]")
    page.uncheck("input[name=kinds][value=started]")
    page.check("input[name=mode][value=digest]")
    page.fill("input[name=cap_hours]", "4")
    page.click("form.prefs button[type=submit]")
    page.wait_for_selector(".messages li")
    pref = Preference.objects.get(user=users[0])
    assert pref.mode == "digest" and pref.cap_hours == 4 and "started" not in pref.kinds
    page.click("button[value=new]")
    page.wait_for_selector("input.calendar-url")
    assert "/me/calendar/" in page.input_value("input.calendar-url")
    shot(page, shots, "preferences")

    page.locator("form.lang-switch button[value=ja]").click()
    page.wait_for_load_state()
    shot(page, shots, "preferences-ja")
    page.goto(f"{base}/me/waiting/")
    shot(page, shots, "dashboard-ja")
    page.set_viewport_size(PHONE)
    shot(page, shots, "dashboard-phone")

    href = page.locator("table.waiting tbody tr").nth(0).locator("a.button").get_attribute("href")
    assert href == f"/games/{second.pk}/", "one click from the most urgent row to its game"
    page.close()
    assert not problems, problems


def test_the_replay_of_a_finished_game(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    from tests.server.test_replay_export import bot_game

    users = [django_user_model.objects.create_user(f"bot{n}", "", PASSWORD) for n in range(4)]
    game = bot_game(users, frozen)
    problems: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    watch(page, problems)
    base = live_server.url
    page.goto(f"{base}/games/{game.pk}/")
    page.click(f"a[href='/games/{game.pk}/replay/']")
    page.wait_for_selector(".replay-step")
    for _ in range(12):
        page.click("a[rel=next]")
        page.wait_for_load_state()
    assert "step=12" in page.url
    shot(page, shots, "replay")
    page.locator("form.lang-switch button[value=ja]").click()
    page.wait_for_load_state()
    shot(page, shots, "replay-ja")
    page.click("a[rel=last]")
    page.wait_for_load_state()
    page.click("details.state summary")
    shot(page, shots, "replay-end-ja")
    page.close()
    assert not problems, problems


def test_a_spectator_watches_and_the_host_closes_the_game(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    users = [django_user_model.objects.create_user(n, "", PASSWORD) for n in ("ann", "bob", "cid", "dan")]
    host = django_user_model.objects.create_user("host", "", PASSWORD, is_staff=True)
    django_user_model.objects.create_user("watcher", "", PASSWORD)
    game = fated(users)
    Game.objects.filter(pk=game.pk).update(created_by=host)
    frozen.t = START + HOUR
    step()
    engine.open_game(game.pk, users[0])
    problems: list[str] = []
    base = live_server.url
    page = browser.new_page(viewport=DESKTOP)
    watch(page, problems)
    log_in(page, base, "watcher", PASSWORD)
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector("footer.fair-dice")
    text = page.inner_text("body")
    assert "Spectators may watch this game" in text and "Close to spectators" not in text
    shot(page, shots, "spectator")
    page.close()

    page = browser.new_page(viewport=DESKTOP)
    watch(page, problems)
    log_in(page, base, "host", PASSWORD)
    page.goto(f"{base}/games/{game.pk}/")
    page.click("footer.fair-dice button[type=submit]")
    page.wait_for_selector("text=closed to spectators")
    page.locator("footer.fair-dice").scroll_into_view_if_needed()
    shot(page, shots, "spectators-closed-host")
    page.close()

    page = browser.new_page(viewport=DESKTOP)
    log_in(page, base, "watcher", PASSWORD)
    response = page.goto(f"{base}/games/{game.pk}/")
    assert response is not None and response.status == 403
    shot(page, shots, "spectator-refused")
    page.close()
    assert not problems, problems


def test_the_chat_of_a_game(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    users = [django_user_model.objects.create_user(n, "", PASSWORD) for n in ("ann", "bob", "cid", "dan")]
    host = django_user_model.objects.create_user("host", "", PASSWORD, is_staff=True)
    game = fated(users)
    Game.objects.filter(pk=game.pk).update(created_by=host)
    problems: list[str] = []
    base = live_server.url
    page = browser.new_page(viewport=DESKTOP)
    watch(page, problems)
    log_in(page, base, "ann", PASSWORD)
    page.goto(f"{base}/games/{game.pk}/chat/")
    for line in ("Good luck, everyone!", "<b>not bold</b>"):
        page.fill("#chat-text", line)
        page.click(".chat-form button[type=submit]")
        page.wait_for_load_state()
        frozen.t += 5
    assert page.locator("ol.chat li").count() == 2
    assert page.locator("ol.chat b").count() == 0, "text is shown as text"
    assert page.locator("ol.chat button[value=report]").count() == 0, "nobody reports their own lines"
    page.close()
    page = browser.new_page(viewport=DESKTOP)
    watch(page, problems)
    log_in(page, base, "bob", PASSWORD)
    page.goto(f"{base}/games/{game.pk}/chat/")
    page.locator("ol.chat li").nth(1).locator("button[value=report]").click()
    page.wait_for_selector(".messages li")
    shot(page, shots, "chat")
    page.close()
    assert not problems, problems


def test_the_preference_page_fits_a_touch_phone(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """On a 390 px touch phone in Japanese the notification page never scrolls sideways (the
    calendar link was 577 px wide) and its checkboxes, radios and number fields are finger-sized
    (they were 13 px, and 33x21 px)."""
    user = django_user_model.objects.create_user("ann", "ann@example.org", PASSWORD)
    problems: list[str] = []
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ja-JP", is_mobile=True, has_touch=True
    )
    context.set_extra_http_headers({"Accept-Language": "ja"})
    page = context.new_page()
    watch(page, problems)
    base = live_server.url
    assert user.pk
    log_in(page, base, "ann", PASSWORD)
    page.goto(f"{base}/me/notifications/")
    page.locator("button[value=new]").tap()
    page.wait_for_selector("input.calendar-url")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scroll"
    sizes = page.evaluate(
        "() => [...document.querySelectorAll("
        "'main input[type=checkbox], main input[type=radio], main input[type=number]')]"
        ".map(el => [el.type, el.name, el.getBoundingClientRect().width, el.getBoundingClientRect().height])"
    )
    assert sizes, "the page has boxes and numbers"
    small = [s for s in sizes if s[2] < 24 or s[3] < 24 or (s[0] == "number" and s[3] < 44)]
    assert not small, small
    page.locator("input[name=digest_hour]").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "preferences-phone-ja.png"))
    page.close()
    assert not problems, problems


FAKE_PUSH = """
(() => {
  // A browser whose push subscription was made with the server's former key. Headless chromium
  // has no push service to subscribe with, so its push manager is a fake that records its calls.
  const [OLD, P256DH, AUTH] = %s;
  const calls = (window.__pushCalls = []);
  const bytes = (b64) => Uint8Array.from(atob(b64.replace(/-/g, "+").replace(/_/g, "/")
    + "=".repeat((4 - (b64.length %% 4)) %% 4)), (c) => c.charCodeAt(0));
  const subscription = (endpoint, key) => ({
    endpoint,
    options: { applicationServerKey: key.buffer },
    unsubscribe: async () => { calls.push("unsubscribe " + endpoint); return true; },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } }),
  });
  const kept = () => JSON.parse(sessionStorage.getItem("fake-push") || "null"); // across pages, like a browser
  const registration = {
    pushManager: {
      getSubscription: async () => kept()
        ? subscription(kept().endpoint, Uint8Array.from(kept().key))
        : subscription("https://push.example/old", bytes(OLD)),
      subscribe: async (options) => {
        calls.push("subscribe");
        const key = new Uint8Array(options.applicationServerKey);
        sessionStorage.setItem("fake-push", JSON.stringify({ endpoint: "https://push.example/new", key: [...key] }));
        return subscription("https://push.example/new", key);
      },
    },
  };
  Object.defineProperty(navigator, "serviceWorker", { value: { getRegistration: async () => registration } });
  Object.defineProperty(Notification, "permission", { get: () => "granted" });
})();
"""


def test_a_page_renews_a_push_subscription_made_with_an_older_key(
    live_server: Any, browser: Any, frozen: Frozen, django_user_model: Any, settings: Any
) -> None:
    """The operator changed the VAPID keys: the next page the player opens finds this browser's
    subscription made with the old key (push-key.js), subscribes again with the current one and
    the server replaces the old subscription, under the strict Content-Security-Policy."""
    import json

    from delve.server.env import push_keys
    from delve.server.notify.models import PushSubscription
    from tests.server.notify_kit import browser_keys

    user = django_user_model.objects.create_user("ann", "ann@example.org", PASSWORD)
    old_key = push_keys()[0]
    settings.DELVE_VAPID_PUBLIC_KEY, settings.DELVE_VAPID_PRIVATE_KEY = push_keys()
    settings.DELVE_VAPID_SUBJECT = "mailto:ops@example.org"
    PushSubscription.objects.create(
        user=user, endpoint="https://push.example/old", server_key=old_key, **browser_keys()
    )
    keys = browser_keys()
    problems: list[str] = []
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(FAKE_PUSH % json.dumps([old_key, keys["p256dh"], keys["auth"]]))
    page = context.new_page()
    watch(page, problems)
    with page.expect_response(lambda r: r.url.endswith("/me/push/subscribe/")) as answer:
        log_in(page, live_server.url, "ann", PASSWORD)  # the lobby, the first page after logging in
    assert answer.value.status == 200
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => window.__pushCalls")[:2] == ["unsubscribe https://push.example/old", "subscribe"]
    [renewed] = PushSubscription.objects.filter(user=user)
    assert renewed.endpoint == "https://push.example/new"
    assert renewed.server_key == settings.DELVE_VAPID_PUBLIC_KEY and renewed.p256dh == keys["p256dh"]
    page.goto(f"{live_server.url}/me/waiting/")  # now current: nothing more happens
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => window.__pushCalls") == []
    page.close()
    assert not problems, problems
