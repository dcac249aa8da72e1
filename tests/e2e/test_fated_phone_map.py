"""The Fated Labyrinth / Level D map on a phone (390x844, touch): tiles a finger can read and tap
(at least MIN_TILE px) in a window that scrolls and follows the player's piece, a "Whole board"
switch, a tap on a tile that picks it (details, its name under the map), moves (a dashed ring on
the tiles a quick move goes to) and card targets; the command help that a tap brings up moves
nothing on the page (it keeps one height). The desktop map is unchanged: no window, no switch.
Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from delve.server.games.models import CommandEntry, Game
from tests.e2e.conftest import Frozen
from tests.e2e.test_game_screen import PASSWORD, TIMEOUT, logged_in, shot
from tests.server.fated_kit import arrange, fated_game, rewrite

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE_390 = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
MIN_TILE = 40
"""The smallest map tile a phone shows in its zoomed view, in CSS px (a finger's target)."""

TILES = """() => {
  const wrap = document.querySelector('#panel-map .map-wrap').getBoundingClientRect();
  const sizes = [...document.querySelectorAll('#panel-map .map .cell')].map(c => c.getBoundingClientRect().width);
  const you = document.querySelector('#panel-map .map .tok.you');
  const cell = you && you.closest('.cell').getBoundingClientRect();
  const map = document.querySelector('#panel-map .map').getBoundingClientRect();
  return {
    smallest: Math.min(...sizes), count: sizes.length, mapWidth: map.width, wrapWidth: wrap.width,
    youInWindow: !!cell && cell.left >= wrap.left - 1 && cell.right <= wrap.right + 1
      && cell.top >= wrap.top - 1 && cell.bottom <= wrap.bottom + 1,
    pageWidth: document.documentElement.scrollWidth,
  };
}"""

IN_WINDOW = """(sel) => {
  const wrap = document.querySelector('#panel-map .map-wrap').getBoundingClientRect();
  const cell = document.querySelector(sel).getBoundingClientRect();
  return cell.left >= wrap.left - 1 && cell.right <= wrap.right + 1 && cell.top >= wrap.top - 1
    && cell.bottom <= wrap.bottom + 1;
}"""


def players(django_user_model: Any) -> list[Any]:
    return [django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("aki", "ben", "chie", "dan")]


@pytest.mark.parametrize(("preset", "size"), [("fated-labyrinth", 13), ("level-d", 15), ("fated-labyrinth", 45)])
def test_a_phone_map_has_tiles_a_finger_can_tap_and_follows_the_piece_FL_UI_1(
    live_server: Any,
    browser: Any,
    shots: Path,
    frozen: Frozen,
    django_user_model: Any,
    preset: str,
    size: int,
) -> None:
    """FL-UI-1 on a 390x844 phone: every tile of a 13x13 Fated, a 15x15 Level D and a 45x45 board
    is at least MIN_TILE px wide (they were 25 and 22 px fitted to the width); the map scrolls in
    its own window (the page never gets wider than the screen) and opens with the player's piece
    in view. "Whole board" fits the board to the width, is remembered over a reload, and "Zoom in"
    brings the large tiles back around the piece. On a desktop there is no window and no switch."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = players(django_user_model)
    game = fated_game(users, preset=preset, maze_size=size)
    rewrite(game, lambda s: s.make_ready(0))
    frozen.tick(5)
    aki = logged_in(browser, base, users[0], viewport=PHONE_390, touch=True)
    aki.goto(f"{base}/games/{game.pk}/")
    expect(aki.locator("#board")).to_have_attribute("data-phase", "move")  # Level D: "Move turn"
    tiles = aki.evaluate(TILES)
    assert tiles["count"] == size * size
    assert tiles["smallest"] >= MIN_TILE, tiles
    assert tiles["mapWidth"] > tiles["wrapWidth"], tiles  # the map scrolls in its window
    assert tiles["pageWidth"] <= PHONE_390["width"], tiles  # ... and the page does not
    assert tiles["youInWindow"], tiles
    # a ring on each tile a quick move goes to (no trap is known at the start)
    legal = aki.locator("#panel-quickmove button[data-dir]:not([disabled])").count()
    expect(aki.locator(".map .cell.move-target")).to_have_count(legal)
    toggle = aki.locator("#panel-map .map-view-toggle")
    box = toggle.bounding_box()
    assert box is not None and box["height"] >= 44, box
    aki.locator("#panel-map").scroll_into_view_if_needed()
    shot(aki, shots, f"40-phone-map-{preset}-{size}-zoomed")

    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    whole = aki.evaluate(TILES)
    assert whole["mapWidth"] <= whole["wrapWidth"] + 1, whole
    expect(aki.locator(".map .cell.move-target")).to_have_count(0)  # too small to tap a move
    assert whole["smallest"] < MIN_TILE, whole
    shot(aki, shots, f"41-phone-map-{preset}-{size}-whole")
    aki.reload()
    expect(aki.locator("#panel-map .map-view-toggle")).to_have_attribute("aria-pressed", "true")
    assert aki.evaluate(TILES)["mapWidth"] <= whole["wrapWidth"] + 1
    aki.locator("#panel-map .map-view-toggle").tap()
    expect(aki.locator("#panel-map .map-view-toggle")).to_have_attribute("aria-pressed", "false")
    again = aki.evaluate(TILES)
    assert again["smallest"] >= MIN_TILE and again["youInWindow"], again
    aki.context.close()

    desk = logged_in(browser, base, users[0], viewport=DESK)
    desk.goto(f"{base}/games/{game.pk}/")
    expect(desk.locator("#board")).to_have_attribute("data-phase", "move")
    expect(desk.locator("#panel-map .map-view-toggle")).to_be_hidden()
    expect(desk.locator("#panel-map .map-caption")).to_be_hidden()
    wide = desk.evaluate(TILES)
    assert wide["mapWidth"] <= wide["wrapWidth"] + 1, wide  # the whole board, as before
    expect(desk.locator(".map .cell.move-target")).to_have_count(0)
    desk.context.close()


def test_a_tap_on_the_phone_map_picks_a_tile_moves_and_aims_FL_UI_2_FL_MOVE_8(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """On a 390x844 touch phone in the move phase: FL-UI-2, a tap on a tile in sight picks it (it
    is outlined, its details load and its name shows under the map); FL-MOVE-8, the tiles a quick
    move goes to have a dashed ring and a tap on one moves there (the map window follows the
    piece), but a known enemy trap next to the piece gets no ring: a tap there only shows the trap;
    FL-MOVE-5, Stay; then a card's target picked on the map (◎) is in the window and a tap uses
    the card on it."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = players(django_user_model)
    game = fated_game(users)
    # Aki (01) at (2,2), Ben (02) at (4,2); Chie's known Attack 20 trap to Aki's left, at (1,2)
    arrange(game, hands={0: ["attack-10"]}, ready=[0], traps=[(1, 2, "attack-20", 2, (0,))])
    frozen.tick(5)
    aki = logged_in(browser, base, users[0], viewport=PHONE_390, touch=True)
    aki.goto(f"{base}/games/{game.pk}/")
    heading = aki.locator("#panel-commands h2")
    expect(heading).to_contain_text("Move phase 1／3")
    rings = aki.locator("#panel-map .map .cell.move-target")
    expect(rings).to_have_count(3)  # up, down, right: not the trap on the left
    assert sorted(rings.evaluate_all("els => els.map(e => e.dataset.move)")) == ["down", "right", "up"]
    sizes = rings.evaluate_all("els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])")
    assert all(w >= MIN_TILE and h >= MIN_TILE for w, h in sizes), sizes
    aki.locator("#panel-map").scroll_into_view_if_needed()
    aki.wait_for_timeout(500)  # the rings are older than the held-back moment
    shot(aki, shots, "42-phone-map-move-rings")

    # FL-UI-2: a tap on Ben's tile picks it: outlined, named under the map, details below
    ben = aki.locator(".map button.cell[data-x='4'][data-y='2']")
    ben.tap()
    expect(ben).to_have_class(re.compile(r"\bselected\b"))
    expect(aki.locator("#panel-map .map-caption")).to_contain_text("5,3")
    expect(aki.locator("#panel-map .map-caption")).to_contain_text("Player 02")
    expect(aki.locator("#panel-tile")).to_contain_text("Ben")
    # the known enemy trap: a tap shows it, and moves nobody
    aki.locator(".map button.cell[data-x='1'][data-y='2']").tap()
    expect(aki.locator("#panel-tile .trap-note")).to_contain_text("Attack 20")
    expect(heading).to_contain_text("Move phase 1／3")
    assert not CommandEntry.objects.filter(game=game, command__kind="move").exists()

    # FL-MOVE-8: a tap on the ring to the right moves there, as the → button would
    aki.locator(".map .cell.move-target[data-move=right]").tap()
    expect(heading).to_contain_text("Move phase 2／3")
    expect(aki.locator(".map .cell[data-x='3'][data-y='2'] .tok.you")).to_have_count(1)
    assert aki.evaluate(IN_WINDOW, ".map .tok.you")
    moves = CommandEntry.objects.filter(game=game, command__kind="move")
    assert [m.command["dir"] for m in moves] == ["right"]
    expect(aki.locator(".map .cell.move-target[data-move=left]")).to_have_count(1)  # rings moved along
    aki.locator("#qm-stay").tap()  # FL-MOVE-5
    expect(heading).to_contain_text("Core phase")
    expect(rings).to_have_count(0)  # no ring outside the move phase

    # a card's target on the map: Attack 10 《Adjacent》 on Ben, in the window, one tap
    card = aki.locator("li.card", has_text="Attack 10").first
    card.locator(".use-adjacent .aim-toggle").tap()
    target = aki.locator(".map .cell.aim-target[data-x='4'][data-y='2']")
    expect(target).to_have_count(1)
    assert aki.evaluate(IN_WINDOW, ".map .cell.aim-target")
    shot(aki, shots, "43-phone-map-aim")
    target.tap()
    expect(aki.locator(".just-now")).to_contain_text("You used Attack 10 《Adjacent》 on Player 02.")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    aki.context.close()


PLACES = """() => [...document.querySelectorAll('#panel-commands button, #panel-quickmove button, #panel-map .cell')]
  .map(e => e.getBoundingClientRect())
  .map(r => Math.round(r.top + window.scrollY) + ':' + Math.round(r.left))
  .join(' ')"""


def test_the_command_help_after_a_tap_moves_nothing_on_a_phone_FL_UI_8(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """FL-UI-8 on a 390x844 touch phone: the command help panel keeps one height whatever it
    says (the hint, a short help, the longest help of the page), so the help a tap brings up moves
    no button, card or map tile, and the page does not scroll."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    users = players(django_user_model)
    game = fated_game(users)
    arrange(game, hands={0: ["attack-30", "vitality", "first-aid", "deadly-poison", "defense-10"]})
    rewrite(game, lambda s: s.to_core(0))
    frozen.tick(5)
    aki = logged_in(browser, base, users[0], viewport=PHONE_390, touch=True)
    aki.on("dialog", lambda dialog: dialog.dismiss())
    aki.goto(f"{base}/games/{game.pk}/")
    give_up = aki.locator("#panel-commands .cmd-give_up")
    expect(give_up).to_be_visible()
    expect(aki.locator("#panel-help .touch-hint")).to_be_visible()
    expect(aki.locator("#panel-help .pointer-hint")).to_be_hidden()
    aki.wait_for_timeout(500)  # the opening's answer has settled
    panel = aki.locator("#panel-help")
    height = panel.bounding_box()["height"]
    give_up.scroll_into_view_if_needed()
    places, scrolled = aki.evaluate(PLACES), aki.evaluate("() => window.scrollY")
    give_up.tap()  # asks first; dismissed: nothing happens but the help
    expect(aki.locator("#help-text .help-title")).to_contain_text("Give up")
    assert aki.evaluate(PLACES) == places
    assert aki.evaluate("() => window.scrollY") == scrolled
    assert panel.bounding_box()["height"] == height
    # every help of the page, the longest included, in the same box
    heights = aki.evaluate(
        """() => [...document.querySelectorAll('#panel-commands [data-help], #panel-quickmove [data-help]')].map(el => {
             el.dispatchEvent(new FocusEvent('focusin', {bubbles: true}));
             return document.getElementById('panel-help').getBoundingClientRect().height; })"""
    )
    assert heights and set(heights) == {height}, heights
    shot(aki, shots, "44-phone-help-kept-height")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    aki.context.close()
