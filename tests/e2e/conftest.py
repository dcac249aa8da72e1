"""Browser fixtures: Debian's chromium driven by Playwright, against Django's live server.

The tests are skipped, saying why, when no chromium is installed (scripts/test installs it when
it can). Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from delve.server import clock as server_clock
from tests.server.conftest import FakeClock

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make between
# browser steps are ordinary blocking calls, so Django's async guard does not apply to them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("DELVE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        pytest.skip("no chromium found (install Debian's chromium package, or set DELVE_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every page a browser test opened is closed when it ends, passed or failed. A page left open
    keeps polling the live server (every few seconds) after its test, when the database is no
    longer the test's: each request then printed a traceback into whatever test ran next (in a
    serial run, as CI runs, it failed a command-line test reading its own stderr)."""
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    if browser is not None:
        for context in list(browser.contexts):
            context.close()


@pytest.fixture
def shots() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


START = 1_800_000_000
"""The server clock's time when a browser test starts (:func:`frozen`)."""


Frozen = FakeClock
"""The server's clock, stopped at :data:`START`; a test moves it on (``tick``, or ``t``)."""


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> Frozen:
    """The server's clock replaced by a :class:`Frozen` one for the test."""
    fake = Frozen(START)
    monkeypatch.setattr(server_clock, "now", fake)
    return fake


def log_in(page: Any, base: str, username: str, password: str) -> None:
    """Log ``username`` in through the login form and wait for the lobby."""
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def arm_tap_on_swap(page: Any, panel_id: str, button: str = "button") -> None:
    """Arms a tap on the first ``button`` (a selector) of the panel ``panel_id`` for the moment a
    refresh swaps the panel in and screen.js marks it busy: a pointer click (``detail`` 1, as a
    finger's) dispatched from a mutation observer, which runs before any timer can end the busy
    spell, so the tap lands inside it however slow the machine is (a click sent from the test
    process may arrive after the spell). :func:`tapped_on_swap` waits for it."""
    page.evaluate(
        """([id, selector]) => {
          window.delveTapOnSwap = null;
          const observer = new MutationObserver(() => {
            const panel = document.getElementById(id);
            if (!panel || panel.getAttribute("aria-busy") !== "true") return;
            observer.disconnect();
            const target = panel.querySelector(selector);
            if (!target) { window.delveTapOnSwap = {found: false, reached: false}; return; }
            const click = new MouseEvent("click", {bubbles: true, cancelable: true, detail: 1, view: window});
            window.delveTapOnSwap = {found: true, reached: target.dispatchEvent(click)};
          });
          observer.observe(document.body, {subtree: true, attributes: true, attributeFilter: ["aria-busy"]});
        }""",
        [panel_id, button],
    )


def tapped_on_swap(page: Any, timeout: float = 15_000) -> dict[str, Any]:
    """What the tap armed by :func:`arm_tap_on_swap` did, once the swap came (waited for up to
    ``timeout`` ms): ``found`` (the swapped-in panel had the button) and ``reached`` (the click
    was not held back: it reached the button's own handlers)."""
    page.wait_for_function("() => window.delveTapOnSwap", timeout=timeout)
    result: dict[str, Any] = page.evaluate("() => window.delveTapOnSwap")
    return result
