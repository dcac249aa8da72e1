"""White Maiden's tables fit their panels in a real browser: the Decks panel of the game screen at
a desktop's size (its last column spilled past the panel's border), and the guide's familiar and
area tables at a phone's (four narrow columns wider than the screen): each row is then a card,
every cell under its column's name.

Screenshots: test-artifacts/screenshots/maiden-tables-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Frozen, log_in
from tests.server.maiden_kit import maiden_game, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Tree-of-Life-42"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
#: How far the right edges of a table and of its panel's content are apart (px): the table's edge
#: never passes the content's, give or take a rounding.
INSIDE = """(selector) => [...document.querySelectorAll(selector)].map((table) => {
  const panel = table.closest('.panel, .help-page');
  const box = panel.getBoundingClientRect();
  const padding = parseFloat(getComputedStyle(panel).paddingRight);
  return [box.right - padding - table.getBoundingClientRect().right, table.closest('.table-scroll') ?
    table.closest('.table-scroll').scrollWidth - table.closest('.table-scroll').clientWidth : 0];
})"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_decks_panel_and_the_guides_tables_fit_their_panels(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any, size: str
) -> None:
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = maiden_game([user])
    play_until(game, [user], lambda v: v["phase"] == "post_roll")
    context = browser.new_context(viewport=SIZES[size], locale="en-US")
    page = context.new_page()
    log_in(page, live_server.url, "ann", PASSWORD)
    for language in ("en", "ja"):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.goto(f"{live_server.url}/games/{game.pk}/")
        for gap, overflow in page.evaluate(INSIDE, "#panel-decks table.decks"):
            assert gap >= -0.5 and overflow <= 1, (language, gap, overflow)
        page.locator("#panel-decks").screenshot(path=str(shots / f"maiden-tables-decks-{size}-{language}.png"))
        page.goto(f"{live_server.url}/games/{game.pk}/help/")
        fits = page.evaluate(INSIDE, "table.help-table")
        assert len(fits) == 2
        if size == "phone":  # each row a card: nothing to scroll sideways
            for gap, overflow in fits:
                assert gap >= -0.5 and overflow <= 1, (language, gap, overflow)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size]["width"]
        page.locator("#area-list").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"maiden-tables-areas-{size}-{language}.png"), caret="initial")
    context.close()
