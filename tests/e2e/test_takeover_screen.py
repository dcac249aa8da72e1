"""A seat a bot took over, taken back in a real browser: on the Fated Labyrinth and the White
Maiden screens the player sees "A bot has been playing for you since …" with its "Take my seat
back" button (on a phone the banner is the first thing under the title and the button fits the
screen), presses it, and plays the seat again; the log says so. Screenshots (desktop 1280x800 and
phone 375x812) go to test-artifacts/screenshots/takeover-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from delve.server.games import bots, engine
from delve.server.games.models import Game
from tests.e2e.conftest import DESKTOP, PHONE, Frozen, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Seat-Back-42"
TIMEOUT = 15_000
HOUR = 3600


def fated_taken_over(user: Any, frozen: Frozen) -> Game:
    game = engine.create_game(
        "fated", "fated-labyrinth", {"wait_time": "1h"}, created_by=user, bot_takeover_after=2 * HOUR
    )
    Game.objects.filter(pk=game.pk).update(seed=7)
    engine.register(game.pk, user, "Ann", {"class": "warrior"})
    bots.seat_bots(game.pk, user)
    frozen.t += 3 * HOUR
    assert bots.take_over_idle(frozen()) == 1
    return game


def maiden_taken_over(user: Any, partner: Any, frozen: Frozen) -> Game:
    game = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0})
    Game.objects.filter(pk=game.pk).update(bot_takeover_after=HOUR)
    engine.register(game.pk, user, "Ann")
    engine.register(game.pk, partner, "Bea")
    frozen.t += 2 * HOUR
    bots.take_over_idle(frozen())
    assert Game.objects.get(pk=game.pk).seats.get(user=user).bot_since == frozen()
    return game


def check_and_take_back(browser: Any, base: str, game: Game, name: str, shots: Path, log_selector: str) -> None:
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_page(viewport=viewport)
        page.set_default_timeout(TIMEOUT)
        log_in(page, base, "ann", PASSWORD)
        page.goto(f"{base}/games/{game.pk}/")
        banner = page.locator("#panel-takeover")
        button = banner.get_by_role("button", name="Take my seat back")
        assert button.is_visible()
        assert "A bot has been playing for you since" in banner.inner_text()
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        assert box["height"] >= 40  # a finger-sized target
        page.screenshot(path=str(shots / f"takeover-{name}-{label}.png"))
        if label == "phone":
            button.click()
            page.wait_for_selector("ul.messages li.success")
            assert "Your seat is yours again" in page.locator("ul.messages").inner_text()
            assert page.locator("#panel-takeover .takeover").count() == 0
            assert "You took your seat back from the bot." in page.locator(log_selector).inner_text()
            page.screenshot(path=str(shots / f"takeover-{name}-taken-back-phone.png"))
        page.close()
    seat = Game.objects.get(pk=game.pk).seats.get(name="Ann")
    assert (seat.is_bot, seat.bot_since, seat.keep_record) == (False, None, False)


def test_the_player_takes_a_fated_seat_back(browser: Any, live_server: Any, shots: Path, frozen: Frozen) -> None:
    ann = get_user_model().objects.create_user("ann", password=PASSWORD)
    game = fated_taken_over(ann, frozen)
    check_and_take_back(browser, live_server.url, game, "fated", shots, "#panel-events")


def test_the_player_takes_a_white_maiden_seat_back(browser: Any, live_server: Any, shots: Path, frozen: Frozen) -> None:
    ann = get_user_model().objects.create_user("ann", password=PASSWORD)
    bea = get_user_model().objects.create_user("bea", password=PASSWORD)
    game = maiden_taken_over(ann, bea, frozen)
    check_and_take_back(browser, live_server.url, game, "maiden", shots, "#panel-log")
