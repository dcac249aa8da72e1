"""The game screen in a real browser (FL-UI, FL-COM, FL-INFO): four people sign up and register,
the game starts, a player moves with a quick-move button and with the keyboard and uses a card,
the attacked player defends on their phone, someone comments, and a player reads the screen in
Japanese. Screenshots at 1280x800 and 375x812 go to test-artifacts/screenshots/.

The server clock is frozen (the test moves it): positions, hands and turns are laid out with
tests/server/fated_kit.py right after the start, so every step is deterministic.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from delve.server import clock as server_clock
from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from tests.e2e.conftest import DESKTOP, PHONE
from tests.server.fated_kit import arrange, rewrite

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

START = 1_800_000_000
PASSWORD = "Dungeon-Key-42"
TIMEOUT = 15_000


class Frozen:
    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> int:
        return self.t


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> Frozen:
    fake = Frozen()
    monkeypatch.setattr(server_clock, "now", fake)
    return fake


def sign_up_and_register(
    page: Any, base: str, game: Game, username: str, character: str, cls: str, *, practice: bool = False
) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")
    prefix = f"g{game.pk}-"
    page.fill(f"input[name='{prefix}name']", character)
    page.select_option(f"select[name='{prefix}option_class']", cls)
    if practice:
        page.uncheck(f"input[name='{prefix}keep_record']")
    page.click(f"#game-{game.pk} button[type=submit]")


def shot(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=False)


def full(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}-full.png"), full_page=True)


def test_four_players_move_attack_defend_and_comment(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    game = engine.create_game("fated", "fated-labyrinth", {"players": 4, "maze_size": 9, "wait_time": 3600})

    desktop = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(3)]
    phone = browser.new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True)
    aki, chie, dan = (context.new_page() for context in desktop)
    ben = phone.new_page()
    for page in (aki, ben, chie, dan):
        page.set_default_timeout(TIMEOUT)

    # -- the top page, four sign-ups and registrations (FL-REG) ------------------------------
    aki.goto(f"{base}/")
    shot(aki, shots, "01-top-page-desktop")
    sign_up_and_register(aki, base, game, "aki", "Aki", "warrior")
    sign_up_and_register(ben, base, game, "ben", "Ben", "thief")
    ben.goto(f"{base}/")
    shot(ben, shots, "02-top-page-phone")
    sign_up_and_register(chie, base, game, "chie", "Chie", "cat", practice=True)
    sign_up_and_register(dan, base, game, "dan", "Dan", "priest")
    dan.wait_for_url(re.compile(rf".*/games/{game.pk}/$"))
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING

    # -- a known layout: Aki (01) has a turn stored; Ben (02) is two tiles to the right -------
    arrange(
        game,
        hands={
            0: ["attack-10", "attack-15", "hp-poison", "defense-10", "stripped"],
            1: ["defense-10", "attack-20", "complete-defense"],
        },
        ready=[0],
        statuses={1: ["light", "sluggish"]},  # Sluggish: evasion 0, so the attack lands (FL-ATK-12)
        traps=[(0, 2, "attack-20", 0, ()), (1, 4, "hp-poison", 3, (0,))],
    )

    # -- Aki opens the screen: the stored turn starts, once (FL-TURN-8, AMB-4) ---------------
    aki.goto(f"{base}/games/{game.pk}/")
    expect(aki.locator("#panel-commands h2")).to_contain_text("Move phase")
    aki.reload()
    assert CommandEntry.objects.filter(game=game, source="open").count() == 1
    expect(aki.locator(".map .tok.you")).to_have_count(1)
    expect(aki.locator(".map .tok.monster.enemy")).to_have_count(1)
    expect(aki.locator(".map .tok.monster.own")).to_have_count(1)
    expect(aki.locator(".map .t-enemy-trap")).to_have_count(1)
    shot(aki, shots, "03-move-phase-desktop")

    # FL-UI-2: a click on a tile in sight shows its details
    aki.locator(".map button.cell[data-x='4'][data-y='4']").click()
    expect(aki.locator("#panel-tile")).to_contain_text("Slime")

    # FL-UI-6, FL-MOVE-8: a quick-move button, then the keyboard (arrow key and WASD)
    aki.click("#qm-right")
    expect(aki.locator("#panel-commands h2")).to_contain_text("2／3")
    aki.locator("body").press("ArrowLeft")
    expect(aki.locator("#panel-commands h2")).to_contain_text("3／3")
    aki.locator("body").press("d")
    expect(aki.locator("#panel-commands h2")).to_contain_text("Core phase")
    # the command help follows the focus (FL-UI-8)
    aki.locator("#panel-commands form.cmd button").first.focus()
    expect(aki.locator("#help-text")).not_to_contain_text("Point at a command")
    shot(aki, shots, "04-core-phase-desktop")

    # FL-CORE-1: use Attack 10 《Adjacent》 on Ben, to the right
    card = aki.locator("li.card", has_text="Attack 10").first
    options = card.locator("option")
    values = [options.nth(i).get_attribute("value") for i in range(options.count())]
    choice = next(v for v in values if v and json.loads(v).get("dir") == "right")
    card.locator("select").select_option(choice)
    card.locator("button[type=submit]").click()
    expect(aki.locator("#panel-commands h2")).to_contain_text("Wait phase")
    expect(aki.locator("#panel-events")).to_contain_text("used Attack 10")

    # -- Ben is attacked and defends on his phone (FL-DEF) -----------------------------------
    rewrite(game, lambda scenario: scenario.make_ready(1))
    ben.goto(f"{base}/games/{game.pk}/")
    expect(ben.locator("#panel-commands h2")).to_contain_text("Defense phase")
    expect(ben.locator(".defending")).to_contain_text("Player 01")
    expect(ben.locator(".defending")).to_contain_text("Attack 10")
    shot(ben, shots, "05-defense-phase-phone")
    full(ben, shots, "05-defense-phase-phone")
    ben.locator(".defenses button", has_text="Defense 10").click()
    expect(ben.locator("#panel-commands h2")).to_contain_text("Move phase")
    expect(ben.locator("#panel-events")).to_contain_text("defended with Defense 10")
    shot(ben, shots, "06-move-phase-phone")

    # -- Chie comments; Aki's open screen shows it without a reload (FL-COM-1/2, FL-UI-9) ----
    chie.goto(f"{base}/games/{game.pk}/")
    chie.fill("#comment-input", "Good luck, everyone!")
    chie.click(".comment-form button")
    expect(chie.locator("#panel-comment")).to_contain_text("updated")
    expect(aki.locator("#panel-players")).to_contain_text("Good luck, everyone!", timeout=20_000)
    expect(aki.locator("#panel-players .pl", has_text="Chie")).to_contain_text("練")
    shot(aki, shots, "07-after-the-fight-desktop")
    full(aki, shots, "07-after-the-fight-desktop")

    # -- Dan reads the screen in Japanese (i18n) ---------------------------------------------
    dan.goto(f"{base}/games/{game.pk}/")
    dan.click("form.lang-switch button[value=ja]")
    expect(dan.locator("html")).to_have_attribute("lang", "ja")
    expect(dan.locator("#panel-commands h2")).to_contain_text("待機フェイズ")
    expect(dan.locator("#panel-events")).to_contain_text("プレイヤー01")
    shot(dan, shots, "08-japanese-desktop")
    ben.click("form.lang-switch button[value=ja]")
    expect(ben.locator("#panel-commands h2")).to_contain_text("移動フェイズ")
    shot(ben, shots, "09-japanese-phone")

    # -- the help page, generated from the content ------------------------------------------
    aki.goto(f"{base}/games/{game.pk}/help/")
    expect(aki.locator("#classes")).to_contain_text("Warrior")
    shot(aki, shots, "10-help-desktop")
    ben.goto(f"{base}/help/?preset=level-d")
    expect(ben.locator("#classes")).to_contain_text("忍者")
    shot(ben, shots, "11-help-level-d-japanese-phone")

    for context in [*desktop, phone]:
        context.close()
