"""White Maiden after the roll, in a real browser at a phone's and a desktop's size: the dice come
before the choices about them, and Justice's Verdict (set one die to a face) is a choice of die
and of face, whose Use sends one of the legal commands (MV-ASC-8).

Screenshots: test-artifacts/screenshots/maiden-after-roll-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from tests.e2e.conftest import Frozen, log_in
from tests.server.maiden_kit import legal, maiden_game, play_until, state

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Tree-of-Life-42"
TIMEOUT = 15_000
JUSTICE = "a12"  # Arcana: set one die to any face
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def rolled_with_justice(user: Any) -> Game:
    game = maiden_game([user])
    play_until(game, [user], lambda v: v["phase"] == "post_roll")
    current = state(game)
    current.arcana = [*current.arcana, JUSTICE]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_MV_ASC_8_after_the_roll_the_dice_come_first_and_verdict_is_a_die_then_a_face(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any, size: str
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = rolled_with_justice(user)
    context = browser.new_context(viewport=SIZES[size], locale="en-US", is_mobile=size == "phone", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    log_in(page, live_server.url, "ann", PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    dice = page.locator("#panel-dice")
    decide = page.locator("#panel-decide")
    expect(dice.locator("ol.dice li").first).to_be_visible()
    assert dice.bounding_box()["y"] < decide.bounding_box()["y"], "the dice stand above the choices"
    verdict = decide.locator("form.pick-die-face")
    expect(verdict).to_have_count(1)
    assert verdict.locator("select").count() == 2
    assert verdict.locator("option").count() < 40, "a die and a face, not every pair in one list"
    page.screenshot(path=str(shots / f"maiden-after-roll-{size}.png"), caret="initial")
    page.screenshot(path=str(shots / f"maiden-after-roll-{size}-full.png"), full_page=True, caret="initial")

    wanted = next(c for c in legal(game, 0) if c.get("area") == JUSTICE and c["die"] == 1)
    verdict.locator("select[name=pick_die]").select_option(str(wanted["die"]))
    verdict.locator("select[name=pick_face]").select_option(str(wanted["face"]))
    # the line names the chance of the chosen die and face (the table the server rendered)
    expect(verdict.locator(".pick-ticked")).to_be_visible()
    version = page.locator("#game-version").get_attribute("value")
    verdict.locator("button.cmd-use").click()
    expect(page.locator("#game-version")).not_to_have_attribute("value", version or "")
    entry = CommandEntry.objects.filter(game=game).latest("sequence")
    assert entry.command == wanted
    context.close()
