"""The game screen in a real browser (FL-UI, FL-COM, FL-INFO): four people sign up and register,
the game starts, a player moves with a quick-move button and with the keyboard and uses a card,
the attacked player defends on their phone, someone comments, and a player reads the screen in
Japanese; then a game is played to its end (the escape) and its end screen, the Level D
registration form and the full log page are shown. Screenshots at 1280x800 and 375x812 go to
test-artifacts/screenshots/.

The server clock is frozen (the test moves it): positions, hands and turns are laid out with
tests/server/fated_kit.py right after the start, so every step is deterministic.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from tests.e2e.conftest import DESKTOP, PHONE, Frozen, arm_tap_on_swap, tapped_on_swap
from tests.server.fated_kit import arrange, rewrite

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Dungeon-Key-42"
TIMEOUT = 15_000


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
    page.check(f"input[name='{prefix}option_class'][value='{cls}']")
    if practice:
        page.uncheck(f"input[name='{prefix}keep_record']")
    page.click(f"#game-{game.pk} button[type=submit]")


def shot(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=False)


def full(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}-full.png"), full_page=True)


COVERED = """(what) => {
  const toast = document.querySelector('#just-now-host .just-now');
  if (!toast) return ['no toast'];
  const box = toast.getBoundingClientRect();
  const controls = what === 'cards' ? 'li.card' : what === 'read' ? '#panel-commands h2, #panel-commands .defending, '
    + '#panel-commands .defending-effect, #panel-commands .refusal, .board .panel h2, #panel-status .bar'
    : 'a[href], button, input:not([type=hidden]), '
    + 'select, textarea, summary, [tabindex]:not([tabindex="-1"])';
  return [...document.querySelectorAll(controls)].filter(el => {
    const r = el.getBoundingClientRect();
    return r.width && r.height && r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top;
  }).map(el => `${el.tagName} ${el.id || el.className} ${el.textContent.trim().slice(0, 30)}`);
}"""


def toast_covers_no_control(page: Any, *, cards: bool = False) -> None:
    """The "just now" toast lies over no button, link, field or map tile in the window, nor over
    the command panel's heading (the phase), the attack to defend against, a refusal, a panel's
    heading (全体マップ) or the HP/CP bars (with
    ``cards``, over no card of the hand either) and never takes a click."""
    deadline = time.monotonic() + 5  # the placement after a scroll settles (later on a busy machine)
    while True:
        page.wait_for_timeout(300)
        covered = page.evaluate(COVERED, "controls") + page.evaluate(COVERED, "read")
        covered += page.evaluate(COVERED, "cards") if cards else []
        if not covered or time.monotonic() > deadline:
            break
    assert covered == [], covered
    assert page.locator("#just-now-host .just-now").evaluate("el => getComputedStyle(el).pointerEvents") == "none"


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
    expect(aki).to_have_title(re.compile(r"^\(1\) Your turn — Game \d+"))
    expect(aki.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"alert\.svg$"))
    expect(aki.locator(".map .tok.you")).to_have_count(1)
    expect(aki.locator(".map .tok.monster.enemy")).to_have_count(1)
    expect(aki.locator(".map .tok.monster.own")).to_have_count(1)
    # FL-VIS-7: English monster glyphs (S the Slime, I the Imp), the same in the map legend
    expect(aki.locator(".map .tok.monster.enemy")).to_have_text("S")
    expect(aki.locator(".map .tok.monster.own")).to_have_text("I")
    expect(aki.locator(".legend-monster[data-monster=slime]")).to_have_text(re.compile(r"^\s*S\s+Slime\s*$"))
    expect(aki.locator(".map .t-enemy-trap")).to_have_count(1)
    shot(aki, shots, "03-move-phase-desktop")

    # FL-UI-2: a click on a tile in sight shows its details
    aki.locator(".map button.cell[data-x='4'][data-y='4']").click()
    expect(aki.locator("#panel-tile")).to_contain_text("Slime")
    expect(aki.locator("#panel-tile .tok.monster")).to_have_text("S")

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

    # FL-CORE-1: each use its own control with its CP and the expected damage; setting a trap
    # asks first (dismissed: nothing is spent)
    card = aki.locator("li.card", has_text="Attack 10").first
    expect(card.locator(".use-adjacent")).to_contain_text("damage if it lands")
    aki.once("dialog", lambda dialog: dialog.dismiss())
    card.locator(".use-trap button.use-target").click()
    expect(card.locator(".use-trap button.use-target")).to_be_enabled()
    assert not CommandEntry.objects.filter(game=game, command__kind="use_card").exists()
    # ... then Attack 10 《Adjacent》 on Ben, picked on the map: his tile lights up, a click uses it
    card.locator(".use-adjacent .aim-toggle").click()
    expect(aki.locator(".map .cell.aim-target")).to_have_count(1)
    expect(aki.locator(".map .cell.aim-target[data-x='4'][data-y='2']")).to_have_count(1)
    shot(aki, shots, "04b-card-aimed-on-the-map-desktop")
    aki.locator(".map .cell.aim-target").click()
    expect(aki.locator("#panel-commands h2")).to_contain_text("Wait phase")
    expect(aki.locator(".just-now")).to_contain_text("You used Attack 10 《Adjacent》 on Player 02.")
    toast_covers_no_control(aki)
    expect(aki.locator("time.countdown").first).to_have_text(re.compile(r"^\d+:\d\d(:\d\d)?$"))
    expect(aki).not_to_have_title(re.compile(r"Your turn"))
    shot(aki, shots, "04c-result-banner-desktop")
    used = CommandEntry.objects.filter(game=game, command__kind="use_card").get()
    assert used.command["use"] == "adjacent" and used.command["dir"] == "right"
    expect(aki.locator("#panel-events")).to_contain_text("used Attack 10")

    # -- Ben is attacked and defends on his phone (FL-DEF) -----------------------------------
    rewrite(game, lambda scenario: scenario.make_ready(1))
    ben.goto(f"{base}/games/{game.pk}/")
    expect(ben.locator("#panel-commands h2")).to_contain_text("Defense phase")
    expect(ben.locator(".defending")).to_contain_text("Player 01")
    expect(ben.locator(".defending")).to_contain_text("Attack 10")
    expect(ben.locator(".defending-effect")).to_contain_text("damage minus your defense")
    expect(ben).to_have_title(re.compile(r"^\(!\) Defend — Game"))
    shot(ben, shots, "05-defense-phase-phone")
    full(ben, shots, "05-defense-phase-phone")
    ben.locator(".defenses button", has_text="Defense 10").click()
    expect(ben.locator("#panel-commands h2")).to_contain_text("Move phase")
    expect(ben.locator("#panel-events")).to_contain_text("(Defense 10 reduced the damage)")
    # the "just now" toast lives outside the refreshed panels: a refresh that re-sends the
    # commands panel leaves it to fade; on a phone it may use the window's width, not half of it
    toast = ben.locator("#just-now-host .just-now")
    expect(toast).to_contain_text("Defense 10")
    with ben.expect_response(lambda r: "/poll/" in r.url and "force=1" in r.url):
        ben.evaluate("document.body.dispatchEvent(new Event('delve:refresh'))")
    ben.wait_for_timeout(300)
    expect(toast).to_be_visible()
    toast_covers_no_control(ben)
    box = toast.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["width"] > 0.55 * PHONE["width"] or box["height"] < 60, box
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
    expect(aki.locator("#monsters tbody tr").first).to_contain_text("S")
    expect(aki.locator("#monsters")).not_to_contain_text("粘")
    shot(aki, shots, "10-help-desktop")
    ben.goto(f"{base}/help/?preset=level-d")
    expect(ben.locator("#classes")).to_contain_text("忍者")
    expect(ben.locator("#monsters tbody tr", has_text="ミノタウロス").locator(".tok")).to_have_text("牛")
    shot(ben, shots, "11-help-level-d-japanese-phone")

    for context in [*desktop, phone]:
        context.close()


def test_a_new_question_scrolls_into_view_on_a_phone(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-UI-5: a player reading the bottom of the phone screen (the events, the players) when
    their turn comes is brought to the command area, where the new question is; a poll that only
    brings news scrolls nothing."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game, hands={1: ["defense-10", "attack-10", "potion"]})
    ben = logged_in(browser, base, users[1], viewport=PHONE)
    ben.goto(f"{base}/games/{game.pk}/")
    expect(ben.locator("#panel-commands h2")).to_contain_text("Wait phase")
    ben.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    ben.wait_for_timeout(200)
    assert ben.evaluate("document.getElementById('panel-commands').getBoundingClientRect().top") < 0
    rewrite(game, lambda scenario: scenario.make_ready(1), seen=True)
    expect(ben.locator("#panel-commands h2")).not_to_contain_text("Wait phase", timeout=20_000)
    ben.wait_for_timeout(300)
    top = ben.evaluate("document.getElementById('panel-commands').getBoundingClientRect().top")
    assert -2 <= top < PHONE["height"] / 2, top
    shot(ben, shots, "06b-turn-scrolled-into-view-phone")


# ---------------------------------------------------------------- a game played to its end


def logged_in(
    browser: Any, base: str, user: Any, *, viewport: dict[str, int], lang: str = "en", touch: bool = False
) -> Any:
    """A browser context with ``user``'s session (the login form is covered above)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    mobile = touch or viewport == PHONE
    context = browser.new_context(
        viewport=viewport, locale="ja-JP" if lang == "ja" else "en-GB", is_mobile=mobile, has_touch=mobile
    )
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    return page


def ready_to_escape(game: Game) -> None:
    """Seat 0 meets condition B (a treasure, all four checkpoints); the exit is at (4,2), two tiles
    to the right of seat 0 beyond seat 1 moved away; the whole maze is remembered from before the
    exit appeared, so the tiles not seen since are marked."""
    from delve.fated import death, visibility
    from delve.fated.grid import EXIT, FLOOR
    from delve.fated.state import BOTTOM_LEFT, BOTTOM_RIGHT, TOP_LEFT, TOP_RIGHT

    def change(s: Any) -> None:
        p = s.p(0)
        p.memory = s.state.grid
        s.p(1).pos = s.at(6, 0)
        p.treasures, p.visited = 1, TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
        death.update_exit(s.ctx)
        s.state.set_tile(s.state.exit, FLOOR)
        s.state.exit = s.at(4, 2)
        s.state.set_tile(s.state.exit, EXIT)
        visibility.refresh(s.ctx)
        s.make_ready(0)

    rewrite(game, change)


def test_a_game_played_to_its_end_through_the_screen(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-WIN-5, FL-OVR-6, FL-EXIT-2: the exit hunt marks the tiles not seen since the exit
    appeared; the qualifying player walks onto the exit with the quick-move pad and escapes with
    the Escape button; every screen then shows the end: the banner with the standings (how each
    seat ended), the revealed map and the way to the full log, on desktop and phone, in English and
    Japanese; the full log page filters."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game, hands={0: ["attack-10"], 1: ["defense-10"]})
    ready_to_escape(game)

    aki = logged_in(browser, base, users[0], viewport=DESKTOP)
    # the registration form of a Level D game: labelled class cards with their abilities, images
    level_d = engine.create_game("fated", "level-d", {"players": 4, "maze_size": 9})
    aki.goto(f"{base}/")
    form = aki.locator(f"#game-{level_d.pk} form.register")
    expect(form.locator(".class-choices .choice-card")).to_have_count(8)
    expect(form.locator(".class-choices")).to_contain_text("Ninja")
    expect(form.locator(".class-choices")).not_to_contain_text("FL-REG")
    expect(form.locator(".image-choices .emblem")).to_have_count(8)
    form.locator(".class-choices input[value=cat]").check()
    form.scroll_into_view_if_needed()
    form.screenshot(path=str(shots / "19-registration-level-d-desktop.png"))
    aki.goto(f"{base}/games/{game.pk}/")
    expect(aki.locator("#panel-commands h2")).to_contain_text("Move phase")
    expect(aki.locator(".map .cell.stale").first).to_be_visible()
    expect(aki.locator("#panel-map")).to_contain_text("not seen since the exit appeared")
    shot(aki, shots, "20-exit-hunt-desktop")
    aki.click("#qm-right")
    expect(aki.locator("#panel-commands h2")).to_contain_text("2／3")
    aki.click("#qm-right")
    expect(aki.locator("#panel-commands h2")).to_contain_text("3／3")
    aki.click("#qm-stay")
    expect(aki.locator("#panel-commands h2")).to_contain_text("Core phase")
    aki.locator("#panel-commands button.cmd-escape").click()
    expect(aki.locator("#panel-ending")).to_contain_text("Game over")
    expect(aki.locator("#panel-ending")).to_contain_text("You escaped and won.")
    expect(aki.locator("#panel-commands h2")).to_contain_text("Game over")
    expect(aki.locator("#panel-status")).not_to_contain_text("find the exit")
    rows = aki.locator("#panel-ending table.standings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Aki")
    expect(rows.first).to_contain_text("escaped")
    expect(aki.locator(".map .cell.t-unknown")).to_have_count(0)  # the whole maze is revealed
    shot(aki, shots, "21-end-desktop")
    full(aki, shots, "21-end-desktop")

    ben = logged_in(browser, base, users[1], viewport=PHONE)
    ben.goto(f"{base}/games/{game.pk}/")
    expect(ben.locator("#panel-ending")).to_contain_text("Player 01 escaped and won")
    expect(ben.locator("#panel-ending")).to_contain_text("You did not win this time")
    box = ben.locator("#panel-ending").bounding_box()
    assert box is not None and box["y"] < PHONE["height"]  # the end is at the top, not below the map
    assert ben.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing widens the phone
    shot(ben, shots, "22-end-phone")

    chie = logged_in(browser, base, users[2], viewport=DESKTOP, lang="ja")
    chie.goto(f"{base}/games/{game.pk}/")
    chie.click("form.lang-switch button[value=ja]")
    expect(chie.locator("#panel-ending")).to_contain_text("ゲーム終了")
    expect(chie.locator("#panel-ending")).to_contain_text("最終結果")
    shot(chie, shots, "23-end-japanese-desktop")
    dan = logged_in(browser, base, users[3], viewport=PHONE, lang="ja")
    dan.goto(f"{base}/games/{game.pk}/")
    dan.click("form.lang-switch button[value=ja]")
    expect(dan.locator("#panel-ending")).to_contain_text("脱出")
    shot(dan, shots, "24-end-japanese-phone")

    # the full log page, reached from the banner, with its filters (the replay is linked too)
    expect(aki.locator("#panel-ending a", has_text="Watch the replay")).to_have_attribute(
        "href", f"/games/{game.pk}/replay/"
    )
    aki.locator("#panel-ending a.button-link", has_text="full log").click()
    expect(aki.locator("h1")).to_contain_text("full log")
    expect(aki.locator(".full-log")).to_contain_text("You escaped through the exit!")
    expect(aki.locator(".full-log li", has_text="The game ended")).to_have_count(1)
    aki.locator(".log-filters a", has_text="Attacks").click()
    expect(aki.locator(".full-log")).not_to_contain_text("escaped through the exit")
    aki.locator(".log-filters a", has_text="Everything").click()
    shot(aki, shots, "25-full-log-desktop")
    for page in (aki, ben, chie, dan):
        page.context.close()


def test_a_phone_shows_no_keyboard_hint_and_keeps_stay_on_one_line_and_a_watcher_no_seat_panels(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """On a 390 px touch phone in Japanese the arrow-key hint is left out and 動かない stays on one
    line in its button; a desktop keeps the hint. A spectator's screen has no tile, status, quick
    move, comment or command help panel (FL-UI-8), and its refreshes keep working."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    watcher = django_user_model.objects.create_user(username="eve", password=PASSWORD)
    game = fated_game(users)
    arrange(game, ready=[0])
    phone = {"width": 390, "height": 844}
    aki = logged_in(browser, base, users[0], viewport=phone, lang="ja", touch=True)
    aki.context.set_extra_http_headers({"Accept-Language": "ja"})
    aki.goto(f"{base}/games/{game.pk}/")
    expect(aki.locator("#qm-stay")).to_be_enabled()
    expect(aki.locator(".keys-hint")).to_be_hidden()
    stay = aki.locator("#qm-stay")
    assert "動かない" in stay.inner_text()
    lines = aki.evaluate(
        "() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('qm-stay'));"
        " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"
    )
    assert lines == 1, lines
    fits = "() => { const b = document.getElementById('qm-stay'); return b.scrollWidth <= b.clientWidth + 1; }"
    assert aki.evaluate(fits)
    aki.locator("#panel-quickmove").screenshot(path=str(shots / "07a-phone-ja-stay-one-line.png"))
    # the move buttons' help keeps its keyboard sentence apart (shown as a .keys-hint), and the
    # help page's keyboard paragraph and the move's shortcut are left out on the phone
    assert aki.locator("#qm-up").get_attribute("data-help-keys") == "矢印キーやWASDでも移動できます。"
    assert "WASD" not in (aki.locator("#qm-up").get_attribute("data-help") or "")
    aki.goto(f"{base}/games/{game.pk}/help/")
    assert aki.locator(".keys-hint").count() >= 2
    for i in range(aki.locator(".keys-hint").count()):
        expect(aki.locator(".keys-hint").nth(i)).to_be_hidden()
    aki.context.close()
    desk = logged_in(browser, base, users[0], viewport=DESKTOP)
    desk.goto(f"{base}/games/{game.pk}/help/")
    expect(desk.locator("p.keys-hint")).to_be_visible()
    desk.goto(f"{base}/games/{game.pk}/")
    expect(desk.locator(".keys-hint").first).to_be_visible()
    desk.locator("#qm-up").hover()
    expect(desk.locator("#help-text .keys-hint")).to_have_text("Arrow keys or WASD also move.")
    desk.context.close()
    eve = logged_in(browser, base, watcher, viewport=DESKTOP)
    eve.goto(f"{base}/games/{game.pk}/")
    expect(eve.locator("#panel-commands")).to_contain_text("You are watching")
    for name in ("tile", "status", "quickmove", "comment"):
        expect(eve.locator(f"#panel-{name}")).to_be_hidden()
    expect(eve.locator("#panel-events")).to_be_visible()
    expect(eve.locator(".panel-say")).to_have_count(0)
    # FL-UI-8: no command help for a watcher, who has no command to point at
    expect(eve.locator("#panel-help")).to_have_count(0)
    eve.locator("#refresher").evaluate("el => document.body.dispatchEvent(new Event('delve:refresh'))")
    eve.wait_for_timeout(500)
    expect(eve.locator("#panel-status")).to_be_hidden()
    full(eve, shots, "07b-spectator-running")
    eve.context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_just_now_toast_covers_no_control_or_card(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any, device: str
) -> None:
    """FL-UI-5: after an action the "just now" toast tells what it did without lying over what the
    player may click or read next: on a 1280x800 desktop and a 390x844 phone it covers no button,
    link or map tile (on the desktop no card of the hand either), and never takes a click."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game, hands={0: ["attack-10", "defense-10", "potion", "stripped", "attack-20"]}, ready=[0])
    aki = logged_in(browser, base, users[0], viewport=DESKTOP if device == "desktop" else PHONE)
    aki.goto(f"{base}/games/{game.pk}/")
    expect(aki.locator("#panel-commands h2")).to_contain_text("Move phase")
    aki.locator("#panel-commands button", has_text="Pass the turn: take cards").click()
    toast = aki.locator("#just-now-host .just-now")
    expect(toast).to_contain_text("You passed the turn and took 1 card.")
    aki.wait_for_timeout(300)
    shot(aki, shots, f"26-just-now-toast-{device}")
    toast_covers_no_control(aki, cards=device == "desktop")
    expect(toast).to_be_in_viewport()
    aki.context.close()


@pytest.mark.parametrize(("device", "lang"), [("phone", "ja"), ("desktop", "en")])
def test_the_just_now_toast_leaves_the_phase_and_the_attack_to_read_FL_UI_5(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any, device: str, lang: str
) -> None:
    """FL-UI-5, FL-TRAP-6: on a phone the toast of a move that set off a trap lay over the defense
    panel's heading (防御フェイズ) and the attack to defend against (防御対象：...), the panel
    scrolled to the top; on a desktop over "Move phase 2/3". In a defense window and in the move
    phase after it, it covers neither the phase heading nor the defense line, nor any control."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(
        game,
        hands={0: ["attack-10", "defense-10", "potion", "stripped", "attack-20"]},
        ready=[0],
        statuses={0: ["sluggish"]},  # evasion exactly 0 (FL-STAT-12): the trap always springs
        traps=[(1, 2, "attack-20", 1, ())],
    )
    aki = logged_in(browser, base, users[0], viewport=DESKTOP if device == "desktop" else PHONE, lang=lang)
    aki.goto(f"{base}/games/{game.pk}/")
    heading = aki.locator("#panel-commands h2")
    expect(heading).to_contain_text("移動フェイズ" if lang == "ja" else "Move phase")
    aki.click("#qm-left")
    expect(heading).to_contain_text("防御フェイズ" if lang == "ja" else "Defense phase")
    expect(aki.locator("#panel-commands .defending")).to_be_visible()
    toast = aki.locator("#just-now-host .just-now")
    expect(toast).to_be_visible()
    aki.wait_for_timeout(400)
    shot(aki, shots, f"27-just-now-defense-{device}-{lang}")
    toast_covers_no_control(aki)
    expect(toast).to_be_in_viewport()
    aki.locator(".defenses button").first.click()
    expect(heading).to_contain_text("移動フェイズ" if lang == "ja" else "Move phase")
    expect(toast).to_be_visible()
    aki.wait_for_timeout(400)
    shot(aki, shots, f"27-just-now-move-{device}-{lang}")
    toast_covers_no_control(aki)
    aki.context.close()


def test_a_click_is_never_redirected_to_a_button_swapped_in_under_it(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-TURN-8, FL-UI-6: the page's opening replaces "Start your turn" with the move buttons; a
    click aimed at it while the opening is on its way presses nothing (no move is made), and a click
    right after a refresh swapped the quick moves in does nothing either, until they have settled
    (400 ms; the keys are not held back: an arrow means the same move on the new pad). A refresh
    whose commands panel is unchanged but for its countdown does not swap it; loading the page
    logs no error in the console."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game, ready=[0])
    aki = logged_in(browser, base, users[0], viewport=DESKTOP)
    errors: list[str] = []
    aki.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    aki.on("pageerror", lambda e: errors.append(str(e)))
    held: list[Any] = []
    aki.route(f"**/games/{game.pk}/open/", lambda route: held.append(route))  # noqa: PLW0108 (a bound method is refused)
    aki.goto(f"{base}/games/{game.pk}/")
    start = aki.locator("#panel-commands button.cmd-start_turn")
    expect(start).to_be_visible()
    expect(aki.locator("#board")).to_have_attribute("data-opening", "1")
    assert held, "the page posts its opening as it loads"
    box = start.bounding_box()
    assert box is not None
    aki.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    aki.wait_for_timeout(300)
    assert not CommandEntry.objects.filter(game=game).exclude(source="open").exists()
    held[0].continue_()
    expect(aki.locator("#panel-commands h2")).to_contain_text("Move phase")
    expect(aki.locator("#board")).not_to_have_attribute("data-opening", "1")
    aki.wait_for_timeout(500)
    assert CommandEntry.objects.filter(game=game, source="open").count() == 1
    assert not CommandEntry.objects.filter(game=game).exclude(source="open").exists()

    # a refresh with a changed log but the same commands (its countdown moved on): not swapped
    aki.locator("#panel-commands").evaluate("el => { el.dataset.kept = '1'; }")
    frozen.tick(7)
    engine.submit(game.pk, users[1], {"kind": "comment", "text": "hello"})
    aki.locator("#poller").evaluate("el => htmx.trigger(el, 'delve:poll')")
    expect(aki.locator("#panel-players")).to_contain_text("hello")
    expect(aki.locator("#panel-commands")).to_have_attribute("data-kept", "1")

    # a forced refresh swaps every panel: a click at once on the new stay button does nothing
    stay = aki.locator("#qm-stay")
    expect(stay).to_be_enabled()
    arm_tap_on_swap(aki, "panel-quickmove", "#qm-stay")
    # (a poll on its way is waited for, not aborted: an abort logs errors in the console)
    aki.locator("#poller").evaluate(
        "el => { htmx.trigger(el, 'delve:poll'); document.body.dispatchEvent(new Event('delve:refresh')); }"
    )
    tap = tapped_on_swap(aki)  # a tap on the new stay button while the panel is busy
    assert tap == {"found": True, "reached": False}, tap  # the click was held back
    aki.wait_for_timeout(200)
    expect(aki.locator("#panel-commands h2")).to_contain_text("1／3")
    expect(aki.locator("#panel-quickmove")).not_to_have_attribute("aria-busy", "true")
    stay.click()
    expect(aki.locator("#panel-commands h2")).to_contain_text("Core phase")  # stay ends the moves
    assert errors == [], errors
    aki.context.close()


def test_a_dead_player_on_a_phone_keeps_only_what_they_can_use(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-LOGIN-4: a dead player can only change their comment. On a 390 px touch phone in
    Japanese, the living player's screen shows no "point at a command" hint (no pointer) but what a
    tap does; once the player dies, the open page hides the quick moves, the command help and
    "Leave this game" at the next refresh, and a reload draws the page without them nor the hand;
    the comment, the map, the log and the players stay."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game)
    aki = logged_in(browser, base, users[0], viewport={"width": 390, "height": 844}, lang="ja", touch=True)
    aki.context.set_extra_http_headers({"Accept-Language": "ja"})
    aki.goto(f"{base}/games/{game.pk}/")
    expect(aki.locator("#panel-quickmove")).to_be_visible()
    expect(aki.locator(".leave-panel")).to_be_visible()
    # no pointer here: the help panel says what a tap does instead (it keeps its height on a phone)
    expect(aki.locator(".pointer-hint")).to_be_hidden()
    expect(aki.locator("#panel-help .touch-hint")).to_be_visible()

    def kill(s: Any) -> None:
        s.p(0).alive, s.p(0).hp, s.p(0).phase = False, 0, "dead"

    rewrite(game, kill)
    frozen.tick(5)
    aki.locator("#refresher").evaluate("el => document.body.dispatchEvent(new Event('delve:refresh'))")
    expect(aki.locator("#board")).to_have_attribute("data-phase", "dead")
    for hidden in ("#panel-quickmove", "#panel-help", ".leave-panel"):
        expect(aki.locator(hidden)).to_be_hidden()
    full(aki, shots, "28a-phone-ja-died-open-page")
    aki.reload()
    expect(aki.locator("#board")).to_have_attribute("data-phase", "dead")
    expect(aki.locator("#panel-quickmove")).to_be_hidden()
    expect(aki.locator("#panel-help")).to_have_count(0)
    expect(aki.locator(".leave-panel")).to_have_count(0)
    for shown in ("#comment-input", "#panel-map", "#panel-events", "#panel-players"):
        expect(aki.locator(shown)).to_be_visible()
    expect(aki.locator("#panel-commands .hand")).to_have_count(0)  # no card can be used: no hand shown
    full(aki, shots, "28b-phone-ja-dead")
    aki.context.close()


def test_a_phone_in_japanese_keeps_card_names_and_fates_on_one_line(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-WIN-6, FL-UI-9: on a 390 px phone in Japanese a card name with full-width digits (攻撃３０)
    is never broken across lines in the recent events nor in the full log page (at any phone
    width), and the standings' fate (最後の生存者) and class (戦士) keep to one line each."""
    from playwright.sync_api import expect

    from delve.server.games import present
    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game, hands={0: ["attack-30", "attack-30"]})

    def core(s: Any) -> None:
        for seat in (2, 3):
            p = s.p(seat)
            p.alive, p.hp, p.fate, p.died_at, p.phase = False, 0, "died", s.now, "dead"
        s.to_core(0)

    rewrite(game, core)
    frozen.tick(5)
    legal = present.view_and_commands(game, 0)[1]
    attack = next(c for c in legal if c["kind"] == "use_card" and c.get("use") == "remote" and c.get("target") == 1)
    engine.submit(game.pk, users[0], attack)
    rewrite(game, lambda s: s.to_core(0))
    frozen.tick(5)
    engine.submit(game.pk, users[0], {"kind": "give_up"})
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    ben = logged_in(browser, base, users[1], viewport={"width": 390, "height": 844}, lang="ja", touch=True)
    ben.context.set_extra_http_headers({"Accept-Language": "ja"})
    ben.goto(f"{base}/games/{game.pk}/")
    expect(ben.locator("#panel-events")).to_contain_text("攻撃３０")
    full(ben, shots, "29-phone-ja-ended-card-names")
    one_line = (
        "els => els.map(el => { const r = document.createRange(); r.selectNodeContents(el);"
        " return [el.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size]; })"
        ".filter(x => x[1] > 1)"
    )
    assert ben.locator("#panel-events .card-name").count() > 0
    assert ben.locator("#panel-events .card-name").evaluate_all(one_line) == []
    assert ben.locator(".standings .fate, .standings .class-name").evaluate_all(one_line) == []
    ben.goto(f"{base}/games/{game.pk}/log/")
    expect(ben.locator(".full-log")).to_contain_text("攻撃３０")
    full(ben, shots, "29b-phone-ja-full-log-card-names")
    assert ben.locator(".full-log .card-name").count() > 0
    for width in range(300, 400, 6):  # wherever the line wraps, the card name stays whole
        ben.set_viewport_size({"width": width, "height": 844})
        assert ben.locator(".full-log .card-name").evaluate_all(one_line) == [], width
    ben.context.close()


TAP_TRACE = """() => {
  window.delveTrace = [];
  const note = (e) => {
    const t = e.target, b = document.querySelector('#panel-commands .cmd-give_up');
    const name = t.className || t.tagName || '#document';
    window.delveTrace.push([e.type, String(name).slice(0, 30), b ? Math.round(b.getBoundingClientRect().top) : null]);
  };
  for (const type of ['touchstart', 'touchend', 'mouseover', 'mousedown', 'focusin', 'mouseup', 'click']) {
    window.addEventListener(type, note, {capture: true, passive: true});
  }
}"""


def test_a_first_tap_acts_though_it_shows_the_command_help_FL_UI_8(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-UI-8: on a 390 px touch phone (chromium's touch emulation) in Japanese the command help
    (hidden until a command has put its help there) shows only once the tapped command has acted:
    it used to appear between the finger's touch and its click, the page moved under the finger
    (scroll anchoring kept a panel below still) and the click landed on the help's title. One tap
    on 放棄する (give up), seen from several scroll positions, asks its confirmation and the button
    never moves before its click."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game, hands={0: ["attack-30", "vitality", "first-aid"]})
    rewrite(game, lambda s: s.to_core(0))
    frozen.tick(5)
    aki = logged_in(browser, base, users[0], viewport={"width": 390, "height": 844}, lang="ja", touch=True)
    aki.context.set_extra_http_headers({"Accept-Language": "ja"})
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    aki.on("dialog", dismiss)
    aki.goto(f"{base}/games/{game.pk}/")
    give_up = aki.locator("#panel-commands .cmd-give_up")
    expect(give_up).to_be_visible()
    expect(aki.locator("#panel-help .touch-hint")).to_be_visible()  # what a tap does, kept in place
    for from_bottom in (90, 200, 320):
        aki.reload()
        expect(give_up).to_be_visible()
        aki.wait_for_timeout(500)  # the opening's answer has settled
        aki.evaluate(
            "(gap) => { const b = document.querySelector('#panel-commands .cmd-give_up').getBoundingClientRect();"
            " window.scrollBy(0, b.bottom - (window.innerHeight - gap)); }",
            from_bottom,
        )
        aki.evaluate(TAP_TRACE)
        before = len(asked)
        give_up.tap()
        aki.wait_for_timeout(300)
        trace = aki.evaluate("() => window.delveTrace")
        assert len(asked) == before + 1, trace  # the first tap asked "Really leave the game for good?"
        clicks = [t for t in trace if t[0] == "click"]
        assert clicks and "cmd-give_up" in clicks[-1][1], trace
        assert len({t[2] for t in trace}) == 1, trace  # the button stayed under the finger until the click
        expect(aki.locator("#help-text .help-title")).to_contain_text("放棄")  # then the help shows
    shot(aki, shots, "30-phone-ja-help-after-tap")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING  # every confirmation was dismissed
    aki.context.close()


def test_a_refresh_keeps_the_commands_panel_when_the_choices_are_the_same_FL_UI_6(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-UI-6, FL-TURN-6: while the player decides in the core phase, another player moving and a
    turn being stored change no choice: a refresh keeps the commands panel and the hand (a tap
    under way is never lost to a rebuild), and writes the stored-turn count, the tab's title and
    the target's tile (choose on the map) into it. A refresh that changes the choices (a card
    drawn) swaps the panel, and a tap arriving on the new panel is held back until it settled."""
    from playwright.sync_api import expect

    from tests.server.fated_kit import fated_game

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = [
        django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")
    ]
    game = fated_game(users)
    arrange(game, hands={0: ["attack-30"]})
    rewrite(game, lambda s: s.to_core(0))
    frozen.tick(5)
    aki = logged_in(browser, base, users[0], viewport={"width": 390, "height": 844}, lang="ja", touch=True)
    aki.goto(f"{base}/games/{game.pk}/")
    at_ben = aki.locator("#panel-commands .use-target[data-aim-tile]").filter(has_text="02")
    expect(at_ben.first).to_be_visible()
    aki.wait_for_timeout(500)  # the opening's answer has settled
    tile_before = at_ben.first.get_attribute("data-aim-tile")
    stored = aki.locator("#panel-commands .stored-turns")
    stored_before = stored.inner_text()
    title_before = aki.title()
    aki.locator("#panel-commands").evaluate("el => { el.dataset.kept = '1'; }")

    def moved_and_stored(s: Any) -> None:
        s.p(1).pos = s.at(4, 3)
        s.p(0).stored = 2  # the cap here

    rewrite(game, moved_and_stored, seen=True)
    frozen.tick(5)
    aki.locator("#poller").evaluate("el => htmx.trigger(el, 'delve:poll')")
    expect(stored).not_to_have_text(stored_before)
    expect(aki.locator("#panel-commands")).to_have_attribute("data-kept", "1")  # not rebuilt
    assert at_ben.first.get_attribute("data-aim-tile") != tile_before
    assert aki.title() != title_before, aki.title()
    toggle_box = aki.locator("#panel-commands .aim-toggle").first.bounding_box()
    assert toggle_box is not None and toggle_box["height"] >= 44, toggle_box  # a finger's target
    aki.locator("#panel-commands .aim-toggle").first.tap()
    cell = aki.evaluate(
        "() => { const b = document.querySelector('#panel-commands .use-target[data-aim-tile]');"
        " const [x, y] = b.getAttribute('data-aim-tile').split(',');"
        " return document.querySelector(`.map .cell[data-x='${x}'][data-y='${y}']`).classList.contains('aim-target'); }"
    )
    assert cell, "the map lights the target's new tile"

    # a card drawn changes the choices: the panel is swapped, and a tap on it at once is held back
    rewrite(game, lambda s: s.set_hand(0, "attack-30", "attack-10"), seen=True)
    frozen.tick(5)
    arm_tap_on_swap(aki, "panel-commands", ".use-target")
    aki.locator("#poller").evaluate("el => htmx.trigger(el, 'delve:poll')")
    tap = tapped_on_swap(aki)
    assert tap == {"found": True, "reached": False}, tap
    expect(aki.locator("#panel-commands")).not_to_have_attribute("data-kept", "1")
    expect(aki.locator("#panel-commands .hand > li")).to_have_count(2)
    aki.context.close()
