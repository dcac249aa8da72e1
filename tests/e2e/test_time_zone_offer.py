"""The device time-zone offer in a real browser set to Asia/Tokyo: the lobby of a player who chose
no zone offers the browser's zone (Intl), one click saves it and every deadline of the waiting
page is then in JST; the preference page offers the device's zone beside its select when another
zone is chosen. No console error (the strict Content-Security-Policy included: timezone.js is a
static file). Screenshots go to test-artifacts/screenshots/zone-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from delve.server.notify.models import Preference
from tests.e2e.conftest import DESKTOP, PHONE, START, Frozen, log_in
from tests.server.notify_kit import HOUR, fated, step

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Tree-of-Life-42"


def test_the_device_zone_is_offered_once_and_used(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    users = [
        django_user_model.objects.create_user(name, f"{name}@example.org", PASSWORD)
        for name in ("ann", "bob", "cid", "dan")
    ]
    fated(users)
    frozen.t = START + HOUR
    step()
    problems: list[str] = []
    context = browser.new_context(viewport=PHONE, timezone_id="Asia/Tokyo")
    page = context.new_page()
    page.on("console", lambda msg: problems.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    base = live_server.url
    log_in(page, base, "ann", PASSWORD)
    offer = page.locator("form.zone-offer")
    offer.wait_for(state="visible")
    assert "Use this device's zone (Asia/Tokyo)?" in offer.inner_text()
    page.screenshot(path=str(shots / "zone-offer-phone.png"), caret="initial")
    page.goto(f"{base}/me/waiting/")
    assert " UTC" in page.locator("table.waiting .when").first.inner_text()
    page.locator("form.zone-offer .zone-offer-use").click()
    page.wait_for_selector(".messages li")
    assert page.url == f"{base}/me/waiting/", "back to the page the offer was taken on"
    assert Preference.objects.get(user=users[0]).time_zone == "Asia/Tokyo"
    assert page.locator("table.waiting .when").first.inner_text().endswith(" JST")
    assert page.locator("form.zone-offer").count() == 0, "chosen: no more offer"

    # another zone chosen on the preference page: the device's is offered beside the select
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/me/notifications/")
    page.select_option("select[name=time_zone]", "Europe/London")
    page.click("form.prefs button[type=submit]")
    page.wait_for_selector(".messages li")
    assert Preference.objects.get(user=users[0]).time_zone == "Europe/London"
    device = page.locator("button.device-zone")
    device.wait_for(state="visible")
    assert device.inner_text() == "Use this device's zone (Asia/Tokyo)"
    device.click()
    assert page.input_value("select[name=time_zone]") == "Asia/Tokyo"
    page.screenshot(path=str(shots / "zone-preferences.png"), caret="initial")
    context.close()
    assert not problems, problems


def test_no_offer_for_another_name_of_the_same_clock_and_none_inside_the_page(
    live_server: Any, browser: Any, frozen: Frozen, django_user_model: Any
) -> None:
    """A browser in Etc/UTC on a server in UTC: the two names tell the same time all year, so
    nothing is offered; and the offer's form sits outside the page's <main>, so a page's own
    forms and buttons are the only ones there."""
    django_user_model.objects.create_user("ann", "ann@example.org", PASSWORD)
    context = browser.new_context(viewport=PHONE, timezone_id="Etc/UTC")
    page = context.new_page()
    log_in(page, live_server.url, "ann", PASSWORD)
    assert page.locator("form.zone-offer").count() == 1, "not chosen yet: the page carries the offer"
    assert page.locator("main form.zone-offer").count() == 0
    page.wait_for_load_state("load")
    assert page.locator("form.zone-offer").is_hidden(), "Etc/UTC is UTC: nothing to offer"
    context.close()
    tokyo = browser.new_context(viewport=PHONE, timezone_id="Asia/Tokyo")
    page = tokyo.new_page()
    log_in(page, live_server.url, "ann", PASSWORD)
    page.locator("form.zone-offer").wait_for(state="visible")
    tokyo.close()
