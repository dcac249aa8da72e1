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


def test_a_hot_seat_host_hands_one_seat_to_a_bot_and_takes_it_back(
    browser: Any, live_server: Any, shots: Path, frozen: Frozen
) -> None:
    """At a hot-seat table of three (White Maiden), on a phone: the "Leave this game" panel has a
    button per seat the host plays; the one for Maiden 2 asks to confirm, naming her, and hands
    her alone to a bot. The banner then names her, with its own button to take her back; the
    host plays the other two seats all along."""
    from django.utils import translation

    from delve.server.lobby import maiden as lobby_maiden

    ann = get_user_model().objects.create_user("ann", password=PASSWORD)
    with translation.override("en"):
        game = lobby_maiden.create_table_game(ann, "Ann", {"players": 3, "start_player": 0}, lobby_maiden.TABLE_HOTSEAT)
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(TIMEOUT)
    log_in(page, live_server.url, "ann", PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    panel = page.locator(".leave-panel")
    panel.locator("summary").click()
    buttons = panel.get_by_role("button")
    assert buttons.all_inner_texts() == [
        "Hand Ann (seat 1) to a bot",
        "Hand Maiden 2 (seat 2) to a bot",
        "Hand Maiden 3 (seat 3) to a bot",
        "Leave the table: hand every seat to a bot",
    ]
    for box in (buttons.nth(i).bounding_box() for i in range(4)):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    panel.screenshot(path=str(shots / "hot-seat-leave-phone.png"))
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    buttons.nth(1).click()
    page.wait_for_timeout(300)  # a dismissed confirmation sends nothing
    assert asked == ["Let a bot play Maiden 2 from now on? You keep playing the other seats in this browser."]
    assert not Game.objects.get(pk=game.pk).seats.get(index=1).is_bot
    page.once("dialog", lambda dialog: dialog.accept())
    buttons.nth(1).click()
    page.wait_for_selector("ul.messages li.success")
    banner = page.locator("#panel-takeover")
    assert banner.locator("h2").inner_text() == "A bot is playing Maiden 2"
    assert "You play Ann and Maiden 3 in this browser." in page.locator(".game-head").inner_text()
    page.screenshot(path=str(shots / "hot-seat-left-phone.png"))
    assert [s.is_bot for s in Game.objects.get(pk=game.pk).seats.order_by("index")] == [False, True, False]
    banner.get_by_role("button", name="Take Maiden 2 back").click()
    page.wait_for_selector("ul.messages li.success:has-text('You play Maiden 2 again')")
    assert page.locator("#panel-takeover .takeover").count() == 0
    assert not Game.objects.get(pk=game.pk).seats.get(index=1).is_bot
    page.close()
