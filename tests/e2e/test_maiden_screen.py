"""White Maiden in a real browser.

1. A seeded solo game played through the screen to its end: familiar, level-up placements,
   moves (clicks on the map's lit rooms and the number keys), rolls (R), ascension pairs (B, the
   suggested pair), skills, boss fights, resolving (E). A deterministic policy picks each command
   from the legal commands and the browser presses the button (or map room, or key) that carries
   exactly that command. By default the browser plays the opening until every kind of choice has
   been made, the middle is driven through the same submit path on the server, and the browser
   plays the last decisions to the end screen; the whole game in the browser runs with
   ``DELVE_E2E_FULL=1 .venv/bin/pytest tests/e2e/test_maiden_screen.py -m slow``.
2. Two players at one table (hot-seat) created from the lobby form, for two rounds.

Screenshots (desktop 1280x800 and phone 375x812, English and Japanese) go to
test-artifacts/screenshots/maiden-*.png.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from delve.kernel import DelveError, IllegalCommand
from delve.server.games import engine
from delve.server.games.models import CommandEntry, EventEntry, Game
from delve.server.play import maiden_odds
from tests.e2e.conftest import DESKTOP, PHONE, START, Frozen, arm_tap_on_swap, log_in, tapped_on_swap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Tree-of-Life-42"
TIMEOUT = 15_000
SEED = 4
OPENING = 20  # decisions the browser plays at least before the middle is driven on the server
ENDING = 12  # decisions the browser plays at the end


def key(command: dict[str, Any]) -> str:
    return json.dumps(command, sort_keys=True)


def choose(view: dict[str, Any], legal: list[dict[str, Any]], settings: dict[str, Any], refused: set[str]) -> Any:
    """The policy: answer decisions with their first option, use a ready skill (once per window,
    the engine says when), move to the first lit room, roll, take the suggested ascension
    (MV-ASC-9), then resolve."""
    usable = [c for c in legal if key(c) not in refused]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for command in usable:
        by_kind.setdefault(command["kind"], []).append(command)
    for kind in ("choose_familiar", "choose_start_player", "keep_card", "place_card", "agi_option", "choose"):
        if kind in by_kind:
            return by_kind[kind][0]
    if "use_skill" in by_kind:
        return by_kind["use_skill"][0]
    for kind in ("move", "stay", "roll"):
        if kind in by_kind:
            return by_kind[kind][0]
    if "resolve" in by_kind:
        after = maiden_odds.post_roll(view, settings, usable)
        best = next((c for c in (after.choices if after else []) if c.best), None)
        return best.command if best is not None else by_kind["resolve"][0]
    return usable[0] if usable else None


def rehearse(game: Game) -> int:
    """Play the same game in memory with the same policy: how many decisions it takes."""
    rules = engine.ruleset_of(game)
    settings = rules.validate_settings(game.settings)
    state = engine.load_state(game, rules)
    refused: set[str] = set()
    played = 0
    while not state.ended and played < 3000:
        legal = rules.legal_commands(state, 0)
        command = choose(rules.view(state, 0), legal, settings, refused)
        assert command is not None, "nothing left to do"
        try:
            rules.apply(state, 0, command, START)
        except IllegalCommand:
            refused.add(key(command))
            continue
        played += 1
    assert state.ended
    return played


class Driver:
    """Plays the solo game: one decision per call, in the browser or on the server."""

    def __init__(self, page: Any, game: Game, user: Any) -> None:
        self.page = page
        self.game = game
        self.user = user
        self.rules = engine.ruleset_of(game)
        self.settings = self.rules.validate_settings(game.settings)
        self.refused: set[str] = set()
        self.done: set[str] = set()
        self.played = 0
        self.shots: Path | None = None  # where to keep a screenshot of the first picker seen

    def next_command(self) -> Any:
        self.game.refresh_from_db()
        state = engine.load_state(self.game, self.rules)
        if state.ended:
            return None
        return choose(self.rules.view(state, 0), self.rules.legal_commands(state, 0), self.settings, self.refused)

    def server_step(self) -> bool:
        command = self.next_command()
        if command is None:
            return False
        try:
            engine.submit(self.game.pk, self.user, command)
        except DelveError:
            self.refused.add(key(command))
            return True
        self.played += 1
        self.done.add(command["kind"])
        return True

    def browser_step(self) -> bool:
        from playwright.sync_api import expect

        command = self.next_command()
        if command is None:
            return False
        page = self.page
        if self.shots is not None and page.locator("#panel-decide form.pick").count():
            shot(page, self.shots, "07-picker-desktop-en")
            self.shots = None
        version = page.locator("#game-version").get_attribute("value")
        wanted = key(command)
        kind = command["kind"]
        shortcut = {"roll": "r", "resolve": "e"}.get(kind)
        decide = page.locator("#panel-decide")
        if kind == "ascend":
            best = decide.locator('button[data-key="b"]')
            if (
                best.count()
                and key(json.loads(best.locator("xpath=..").locator("input").get_attribute("value"))) == wanted
            ):
                shortcut = "b"
        if shortcut is not None:
            button = decide.locator(f'button[data-key="{shortcut}"]')
            carried = json.loads(button.locator("xpath=..").locator("input[name=command]").get_attribute("value"))
            assert key(carried) == wanted, (carried, command)
            page.locator("body").press(shortcut.upper() if shortcut == "b" else shortcut)
        elif kind == "move" and self.played % 2 == 0:
            page.locator(f'#panel-map g.room.dest[data-room="{command["to"]}"]').click()
        else:
            assert send(decide, command), ("not on the screen", command)
        expect(page.locator("#game-version")).not_to_have_attribute("value", version or "", timeout=TIMEOUT)
        refusal = page.locator("#panel-decide .refusal")
        if refusal.count():
            self.refused.add(wanted)  # e.g. an effect the engine does not do yet: said, nothing changed
            return True
        self.played += 1
        self.done.add(kind)
        return True


def send(scope: Any, command: dict[str, Any]) -> bool:
    """Make ``command`` in ``scope`` the way a player would: its button; or, for a skill or
    Arcana with many variants, its choice in the use's list, or its dice ticked in the use's
    boxes; then the form's button. False when the screen offers no way to make it."""
    wanted = key(command)
    buttons = scope.locator("form.cmd:not(.pick) input[name=command]")
    for i in range(buttons.count()):
        value = buttons.nth(i).get_attribute("value")
        if value and key(json.loads(value)) == wanted:
            buttons.nth(i).locator("xpath=..").locator("button").click()
            return True
    lists = scope.locator("form.pick-list")
    for i in range(lists.count()):
        form = lists.nth(i)
        options = form.locator("select[name=command] option")
        values = [options.nth(j).get_attribute("value") for j in range(options.count())]
        value = next((v for v in values if v and key(json.loads(v)) == wanted), None)
        if value is not None:
            form.locator("select[name=command]").select_option(value=value)
            form.locator("button").click()
            return True
    if isinstance(command.get("dice"), list):
        base = key({k: v for k, v in command.items() if k != "dice"})
        boxes = scope.locator("form.pick-dice")
        for i in range(boxes.count()):
            form = boxes.nth(i)
            if key(json.loads(form.locator("input[name=command]").get_attribute("value"))) != base:
                continue
            ticks = form.locator("input[name=pick_dice]")
            for j in range(ticks.count()):
                tick = ticks.nth(j)
                tick.set_checked(int(tick.get_attribute("value")) in command["dice"])
            form.locator("button").click()
            return True
    return False


def watch(page: Any, problems: list[str]) -> None:
    """Console errors and page errors (a Content-Security-Policy violation is one) are collected."""
    page.on(
        "console",
        lambda msg: (
            problems.append(f"{page.url}: {msg.text}") if msg.type == "error" and "404" not in msg.text else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))


def shot(page: Any, shots: Path, name: str, *, full: bool = False) -> None:
    # caret="initial": hiding the caret would inject a style, which the strict policy reports
    page.screenshot(path=str(shots / f"maiden-{name}.png"), full_page=full, caret="initial")


# Each boss name's box as the browser lays it out, against every room shape and token it meets
# (a diamond: |dx| + |dy| within its half-diagonal) and the map's edges.
LABEL_OVERLAPS = """() => {
  const svg = document.querySelector('svg.tree'); const out = [];
  const shapes = [...svg.querySelectorAll('.room circle:not(.marker), .room rect, .tokens circle')].map(e => {
    const b = e.getBBox();
    const diamond = e.tagName === 'rect';
    return {x: b.x + b.width / 2, y: b.y + b.height / 2, r: diamond ? b.width * Math.SQRT1_2 : b.width / 2, diamond};
  });
  const vb = svg.viewBox.baseVal;
  for (const t of svg.querySelectorAll('text.boss-name')) {
    const b = t.getBBox();
    if (b.x < vb.x || b.x + b.width > vb.x + vb.width) out.push(t.textContent + ' leaves the map');
    for (const s of shapes) {
      const nx = Math.min(Math.max(s.x, b.x), b.x + b.width), ny = Math.min(Math.max(s.y, b.y), b.y + b.height);
      const d = s.diamond ? Math.abs(nx - s.x) + Math.abs(ny - s.y) : Math.hypot(nx - s.x, ny - s.y);
      if (d < s.r - 0.05) out.push(t.textContent + ' covers a shape at ' + s.x.toFixed(1) + ',' + s.y.toFixed(1));
    }
  }
  return out;
}"""


def label_overlaps(page: Any) -> list[str]:
    """MV-BOSS-1: the boss names on the map that cover a room, a token or leave the map."""
    return list(page.evaluate(LABEL_OVERLAPS))


def set_language(page: Any, code: str) -> None:
    page.locator(f"form.lang-switch button[value={code}]").click()
    page.wait_for_load_state()


def solo_game(user: Any) -> Game:
    game = engine.create_game("maiden", "white-maiden", {"players": 1, "start_player": 0})
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    engine.register(game.pk, user, "Ann")
    game.refresh_from_db()
    return game


def test_a_seeded_solo_game_through_the_screen_to_its_end(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    full_run = os.environ.get("DELVE_E2E_FULL") == "1"
    base = live_server.url
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = solo_game(user)
    total = rehearse(game)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    watch(page, problems)
    log_in(page, base, "ann", PASSWORD)

    # the lobby: the decision waiting is one click away
    page.locator("a.your-decision").click()
    page.wait_for_url(f"{base}/games/{game.pk}/")
    expect(page.locator("#panel-status .now-line")).to_contain_text("Your decision (Ann)")
    # the tab says so too, with the alert icon (screen.js, shared with the Fated screen)
    expect(page).to_have_title(re.compile(rf"^\(1\) Your decision — Game {game.pk} — White Maiden"))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"alert\.svg$"))
    # the poll fires by itself under the strict policy (no eval), with the panel signatures
    with page.expect_request(lambda r: "/maiden/poll/" in r.url and "sigs=" in r.url, timeout=TIMEOUT):
        pass
    shot(page, shots, "01-familiar-desktop-en")

    driver = Driver(page, game, user)
    driver.shots = shots
    kinds = {"move", "ascend", "use_skill", "resolve", "roll"}
    shots_taken: set[str] = set()
    while driver.played < OPENING or not kinds <= driver.done or not _fought_a_boss(game):
        assert driver.browser_step(), "the game ended before every kind of choice was made"
        phase = page.locator("#board").count() and _phase(game)
        if phase in {"move", "post_roll", "pre_roll"} and phase not in shots_taken:
            shots_taken.add(phase)
            shot(page, shots, f"02-{phase}-desktop-en")
        if driver.played > 400:
            break
    assert kinds <= driver.done and _fought_a_boss(game)
    assert not page.locator(".refusal").count() or driver.refused

    # the phone, in Japanese, in the middle of the game
    phone = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
    small = phone.new_page()
    small.set_default_timeout(TIMEOUT)
    watch(small, problems)
    log_in(small, base, "ann", PASSWORD)
    small.goto(f"{base}/games/{game.pk}/")
    set_language(small, "ja")
    expect(small.locator("html")).to_have_attribute("lang", "ja")
    expect(small.locator("#panel-map h2")).to_contain_text("生命の樹")
    shot(small, shots, "03-phone-ja")
    assert not label_overlaps(small), label_overlaps(small)
    shot(small, shots, "03-phone-ja", full=True)
    set_language(small, "en")
    shot(small, shots, "04-phone-en")

    # the middle, through the same submit path, unless the whole run is asked for
    if not full_run:
        while driver.played < total - ENDING and driver.server_step():
            pass
        page.reload()
    while driver.browser_step():
        pass
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    expect(page.locator("#panel-status .now-line.ended")).to_be_visible()
    expect(page.locator("#panel-decide .result")).to_be_visible()
    # MV-END-2: the end reloads the page by itself: the seed, the replay, no leaving any more
    expect(page.locator("footer.fair-dice")).to_contain_text("Replay step by step")
    expect(page.locator("footer.fair-dice")).not_to_contain_text("the seed is revealed when the game ends")
    expect(page.locator(".leave-panel")).to_have_count(0)
    shot(page, shots, "05-end-desktop-en", full=True)
    assert not label_overlaps(page), label_overlaps(page)
    # the Result panel links the replay and the export, and no boss is left "in battle"
    expect(page.locator("#panel-decide .result-links a")).to_have_count(2)
    expect(page.locator("#panel-bosses .tag.fight")).to_have_count(0)
    set_language(page, "ja")
    shot(page, shots, "06-end-desktop-ja")
    assert not label_overlaps(page), label_overlaps(page)
    assert CommandEntry.objects.filter(game=game, seat=0).count() == driver.played
    assert not problems, problems[:5]
    context.close()
    phone.close()


def _phase(game: Game) -> str:
    game.refresh_from_db()
    rules = engine.ruleset_of(game)
    return str(rules.view(engine.load_state(game, rules), None)["phase"])


def _fought_a_boss(game: Game) -> bool:
    return EventEntry.objects.filter(game=game, kind="check.resolved", data__kind="boss").exists()


@pytest.mark.slow
def test_the_whole_solo_game_in_the_browser(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any, monkeypatch: Any
) -> None:
    """The same game with every decision made in the browser (a few minutes)."""
    monkeypatch.setenv("DELVE_E2E_FULL", "1")
    test_a_seeded_solo_game_through_the_screen_to_its_end(live_server, browser, shots, frozen, django_user_model)


def test_two_players_at_one_table_for_two_rounds(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """Hot-seat: the host opens a 2-player game from the lobby form, 'play every seat in this
    browser', and both maidens are played from one screen, which follows whose decision it is."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    django_user_model.objects.create_user(username="kai", password=PASSWORD)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    watch(page, problems)
    log_in(page, base, "kai", PASSWORD)
    page.locator("a", has_text="New White Maiden game").click()
    page.fill("input[name=name]", "Kai")
    page.select_option("select[name=s_players]", "2")
    page.select_option("select[name=s_start_player]", "0")
    expect(page.locator(".table-names")).to_be_hidden()  # the seats' names: asked for hot-seat only
    page.check("input[name=table][value=hotseat]")
    expect(page.locator(".table-names")).to_be_visible()
    shot(page, shots, "10-new-game-desktop-en", full=True)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(rf"{base}/games/\d+/$"))
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING and game.seat_count == 2
    expect(page.locator(".table-seats")).to_contain_text("Kai")

    host = game.seats.get(index=0).user
    rules = engine.ruleset_of(game)
    settings = rules.validate_settings(game.settings)
    seen_seats: set[int] = set()
    refused: set[str] = set()
    for _ in range(300):
        game.refresh_from_db()
        state = engine.load_state(game, rules)
        public = rules.view(state, None)
        if public["round"] > 2 or state.ended:
            break
        seat = int(page.locator("#acting-seat").get_attribute("value"))
        legal = rules.legal_commands(state, seat)
        assert legal, "the screen shows a seat with a decision"
        seen_seats.add(seat)
        command = choose(rules.view(state, seat), legal, settings, refused)
        version = page.locator("#game-version").get_attribute("value")
        if not send(page.locator("#panel-decide"), command):
            refused.add(key(command))
            continue
        expect(page.locator("#game-version")).not_to_have_attribute("value", version or "", timeout=TIMEOUT)
        if page.locator("#panel-decide .refusal").count():
            refused.add(key(command))
        if len(seen_seats) == 2 and public["phase"] == "move" and "hot-move" not in refused:
            refused.add("hot-move")
            shot(page, shots, "11-hotseat-move-desktop-en")
    assert seen_seats == {0, 1}
    assert CommandEntry.objects.filter(game=game, seat=1).exists() and host is not None
    shot(page, shots, "12-hotseat-round3-desktop-en", full=True)
    set_language(page, "ja")
    expect(page.locator("#panel-status")).to_contain_text("ラウンド")
    shot(page, shots, "13-hotseat-desktop-ja")
    phone = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
    small = phone.new_page()
    log_in(small, base, "kai", PASSWORD)
    small.goto(f"{base}/games/{game.pk}/")
    shot(small, shots, "14-hotseat-phone-en")
    set_language(small, "ja")
    shot(small, shots, "15-hotseat-phone-ja")
    assert not problems, problems[:5]
    context.close()
    phone.close()


def test_a_click_is_never_redirected_to_a_button_swapped_in_under_it(
    live_server: Any, browser: Any, frozen: Frozen, django_user_model: Any
) -> None:
    """The decision panel re-rendered by a refresh while the player taps it (helping on a
    partner's turn): for a moment after the swap its buttons take no pointer click (aria-busy,
    dimmed; screen.js, shared with the Fated Labyrinth screen), then they do."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = solo_game(user)
    context = browser.new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    log_in(page, live_server.url, "ann", PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    button = page.locator("#panel-decide button").first
    expect(button).to_be_enabled()
    commands = CommandEntry.objects.filter(game_id=game.pk).count()
    arm_tap_on_swap(page, "panel-decide")
    # a refresh that re-sends the decision panel (the page's version and the panel's signature are stale)
    page.locator("#poller").evaluate(
        "el => { document.getElementById('game-version').value = '0';"
        " document.getElementById('panel-decide').setAttribute('data-sig', 'stale');"
        " htmx.trigger(el, 'delve:poll'); }"
    )
    tap = tapped_on_swap(page)  # a tap on the swapped-in panel while it is busy
    assert tap == {"found": True, "reached": False}, tap  # the click was held back
    page.wait_for_timeout(500)
    assert CommandEntry.objects.filter(game_id=game.pk).count() == commands  # the click did nothing
    expect(page.locator("#panel-decide")).not_to_have_attribute("aria-busy", "true")
    page.locator("#panel-decide button").first.click()
    for _ in range(50):
        if CommandEntry.objects.filter(game_id=game.pk).count() > commands:
            break
        page.wait_for_timeout(100)
    assert CommandEntry.objects.filter(game_id=game.pk).count() > commands
    context.close()


# ---------------------------------------------------------------- the screen's flow on a phone


def phone_page(browser: Any, base: str, username: str, *, locale: str = "ja-JP") -> Any:
    """A phone (touch) logged in as ``username``, its screen in ``locale``'s language."""
    context = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    log_in(page, base, username, PASSWORD)
    set_language(page, locale[:2])
    return page


def drive(game: Game, user: Any, until: Any, limit: int = 600) -> Any:
    """Plays ``game`` on the server with the tests' policy, each decision by the seat of ``user``'s
    table that decides now, until ``until(screen)`` holds for the screen ``user`` would see; that
    screen. Fails when the game ends or runs ``limit`` decisions first (the seed no longer gives
    what the test needs)."""
    from delve.server.play import maiden_screen

    refused: set[str] = set()
    for _ in range(limit):
        game.refresh_from_db()
        screen = maiden_screen.load(game, user)
        if until(screen):
            return screen
        assert screen.legal and screen.acting is not None, "the game stopped before the state the test needs"
        command = choose(screen.view, screen.legal, screen.settings, refused)
        try:
            engine.submit(game.pk, screen.acting.user, command)
        except DelveError:
            refused.add(key(command))
    raise AssertionError("the seed no longer reaches the state the test needs")


def first_button_seen(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#panel-decide form.cmd button").first).to_be_in_viewport()


def test_the_next_decision_of_the_same_seat_is_brought_into_view_on_a_phone(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """After the player's own tap far down the page (the 8th familiar of the list, a lit room on
    the map below the panel) the next decision is the same seat's: the decision panel is scrolled
    into view (maiden.js), as at a change of seat."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = solo_game(user)
    page = phone_page(browser, live_server.url, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    familiars = page.locator("#panel-decide form.cmd button.cmd-choose_familiar")
    assert familiars.count() >= 8, "the familiar list the test taps far down in"
    version = page.locator("#game-version").get_attribute("value")
    familiars.nth(7).tap()
    expect(page.locator("#game-version")).not_to_have_attribute("value", version or "")
    expect(page.locator("#panel-decide form.cmd button.cmd-place_card").first).to_be_visible()
    first_button_seen(page)
    shot(page, shots, "20-same-seat-after-familiar-phone-ja")

    # a lit room tapped on the map (below the panel on a phone): the roll comes into view
    drive(game, user, lambda s: s.view["phase"] == "move" and any(c["kind"] == "move" for c in s.legal))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    room = page.locator("#panel-map g.room.dest").first
    room.scroll_into_view_if_needed()
    expect(page.locator("#panel-decide form.cmd button").first).not_to_be_in_viewport()
    version = page.locator("#game-version").get_attribute("value")
    room.tap()  # a tap picks the room (its name under the map), a second tap moves
    expect(page.locator("#panel-map .map-pick")).to_be_visible()
    room.tap()
    expect(page.locator("#game-version")).not_to_have_attribute("value", version or "")
    expect(page.locator("#panel-decide form.cmd button").first).to_be_visible()
    first_button_seen(page)
    shot(page, shots, "21-same-seat-after-map-tap-phone-ja")


def test_a_move_on_a_phone_is_chosen_on_a_zoom_beside_its_buttons(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """On a phone the whole map's rooms are some 13 px wide: the move panel shows the part of the
    map around the move, each lit room lettered as its move button and big enough to tap; a tap
    names the room (no hover on a phone) and marks its button, and only "Move here" moves."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = solo_game(user)
    screen = drive(game, user, lambda s: s.view["phase"] == "move" and any(c["kind"] == "move" for c in s.legal))
    moves = [c for c in screen.legal if c["kind"] == "move"]
    page = phone_page(browser, live_server.url, "ann", locale="en-US")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    zoom = page.locator("#panel-decide .map-zoom")
    expect(zoom).to_be_visible()
    rooms = zoom.locator("g.room.dest")
    expect(rooms).to_have_count(len({c["to"] for c in moves}))
    for n in range(rooms.count()):  # the room drawn (not only its tap ring) is 32 px at least
        box = rooms.nth(n).locator("circle:not(.hit):not(.marker), rect").first.bounding_box()
        assert box is not None and min(box["width"], box["height"]) >= 32, box
        ring = rooms.nth(n).locator("circle.hit").bounding_box()
        assert ring is not None and min(ring["width"], ring["height"]) >= 44, ring
        # no maiden's token over a lit room's letter or its tap ring
        for t in range(zoom.locator("g.token circle").count()):
            token = zoom.locator("g.token circle").nth(t).bounding_box()
            assert token is not None
            tx, ty = token["x"] + token["width"] / 2, token["y"] + token["height"] / 2
            rx, ry = ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2
            assert (tx - rx) ** 2 + (ty - ry) ** 2 >= ((ring["width"] + token["width"]) / 2 - 1) ** 2, (token, ring)
    buttons = page.locator("#panel-decide ul.moves li")
    expect(buttons.first.locator(".room-no")).to_have_text("A")
    first = zoom.locator(f'g.room.dest[data-room="{moves[0]["to"]}"]')
    expect(first.locator("text.no")).to_have_text("A")
    version = page.locator("#game-version").get_attribute("value")
    first.tap()
    line = zoom.locator(".map-pick")
    expect(line).to_be_visible()
    expect(line.locator(".map-pick-info")).to_contain_text(
        maiden_screen_room_label(moves[0]["to"]), use_inner_text=True
    )
    expect(buttons.first).to_have_class(re.compile("picked"))
    assert page.locator("#game-version").get_attribute("value") == version  # nothing sent yet
    shot(page, shots, "24-move-zoom-picked-phone")
    line.locator(".map-pick-go").tap()
    expect(page.locator("#game-version")).not_to_have_attribute("value", version or "")
    game.refresh_from_db()
    last = CommandEntry.objects.filter(game_id=game.pk).order_by("-sequence").first()
    assert last is not None and last.command is not None and last.command["to"] == moves[0]["to"]

    # a desktop has the whole map beside the panel: no zoom, and a click on a lit room moves at once
    context = browser.new_context(viewport=DESKTOP)
    desk = context.new_page()
    desk.set_default_timeout(TIMEOUT)
    log_in(desk, live_server.url, "ann", PASSWORD)
    drive(game, user, lambda s: s.view["phase"] == "move" and any(c["kind"] == "move" for c in s.legal))
    desk.goto(f"{live_server.url}/games/{game.pk}/")
    expect(desk.locator("#panel-decide .map-zoom")).to_be_hidden()
    version = desk.locator("#game-version").get_attribute("value")
    desk.locator("#panel-map g.room.dest").first.click()
    expect(desk.locator("#game-version")).not_to_have_attribute("value", version or "")


def test_a_room_chosen_from_a_list_is_marked_on_the_map_and_a_tap_there_chooses_it(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """A decision naming a room from a long list (its select marked data-rooms, each option with
    its room: tests/server) marks the rooms of the list and the chosen one on the map, and a tap
    on a room of the list on the map chooses it in the list (maiden.js). The list is put on the
    page by the test: no seed reaches such an effect in a few turns."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = solo_game(user)
    screen = drive(game, user, lambda s: s.view["phase"] == "move" and any(c["kind"] == "move" for c in s.legal))
    rooms = [r["id"] for r in screen.view["map"]["rooms"] if not r["explored"] and r["type"] != "boss"][:3]
    page = phone_page(browser, live_server.url, "ann", locale="en-US")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate(
        """rooms => {
        const select = document.createElement("select");
        select.setAttribute("data-rooms", "");
        rooms.forEach((room, n) => {
          const option = document.createElement("option");
          option.value = String(n); option.setAttribute("data-room", room); option.textContent = room;
          select.appendChild(option);
        });
        document.getElementById("panel-decide").appendChild(select);
        select.value = "1";
        select.dispatchEvent(new Event("change", { bubbles: true }));
      }""",
        rooms,
    )
    room = page.locator(f'#panel-map g.room[data-room="{rooms[1]}"]')
    expect(room).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator("#panel-map g.room.listed")).to_have_count(3)
    room.scroll_into_view_if_needed()
    shot(page, shots, "25-room-list-marked-on-the-map-phone")
    page.locator(f'#panel-map g.room[data-room="{rooms[2]}"]').tap()
    assert page.locator("#panel-decide select[data-rooms]").input_value() == "2"
    expect(page.locator(f'#panel-map g.room[data-room="{rooms[2]}"]')).to_have_class(re.compile(r"\bpicked\b"))
    expect(room).not_to_have_class(re.compile(r"\bpicked\b"))


def maiden_screen_room_label(room: str) -> str:
    from delve.server.play.maiden_screen import room_label

    return room_label(room, "en")


def test_hot_seat_keeps_the_last_check_and_says_whom_the_phone_goes_to(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """Hot-seat on one phone: right after 「判定を解決する」 the screen turns to the next seat, and
    the check panel still shows the check just resolved (who, what, success or failure, damage,
    death: MV-CHECK-9, MV-CHECK-10) until the next check starts; the decision panel says that the
    phone goes to the next player."""
    from playwright.sync_api import expect

    from delve.server.lobby.maiden import TABLE_HOTSEAT, create_table_game

    expect.set_options(timeout=TIMEOUT)
    host = django_user_model.objects.create_user(username="haruka", password=PASSWORD)
    game = create_table_game(host, "はるか", {"players": 2, "start_player": 0}, TABLE_HOTSEAT, table_names=["みお"])
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    # a check of seat 0 about to be resolved
    screen = drive(game, host, lambda s: s.seat == 0 and any(c["kind"] == "resolve" for c in s.legal))
    page = phone_page(browser, live_server.url, "haruka")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#panel-decide .pass-on")).to_have_count(0)  # はるか decided last: no hand-over
    resolve = page.locator('#panel-decide button[data-key="e"]')
    carried = json.loads(resolve.locator("xpath=..").locator("input[name=command]").get_attribute("value"))
    assert carried["kind"] == "resolve" and screen.seat == 0
    version = page.locator("#game-version").get_attribute("value")
    resolve.tap()
    expect(page.locator("#game-version")).not_to_have_attribute("value", version or "")
    expect(page.locator("#panel-dice strong.result")).to_have_text(re.compile("^(成功|失敗)$"))
    # the same seat may have decisions left (a level-up); then the phone goes to みお
    for _ in range(20):
        if page.locator("#acting-seat").get_attribute("value") == "1":
            break
        version = page.locator("#game-version").get_attribute("value")
        page.locator("#panel-decide form.cmd button").first.tap()
        expect(page.locator("#game-version")).not_to_have_attribute("value", version or "")
    assert page.locator("#acting-seat").get_attribute("value") == "1", "the turn did not pass to みお"
    expect(page.locator("#panel-decide .pass-on")).to_have_text(
        "次はこの端末でみおの番です。スマホをみおに渡してください。"
    )
    first_button_seen(page)
    outcome = page.locator("#panel-dice .last-check")
    expect(outcome).to_contain_text("直前の判定")
    expect(outcome).to_contain_text("はるかの判定")
    expect(outcome.locator(".result")).to_have_text(re.compile("^(成功|失敗)$"))
    expect(outcome.locator(".outcome-damage")).to_contain_text("はるか")
    shot(page, shots, "22-hotseat-pass-the-phone-ja")
    page.locator("#panel-dice").scroll_into_view_if_needed()
    shot(page, shots, "23-hotseat-last-check-ja")
    # みお decides: the hand-over line goes; her own check replaces the last one
    version = page.locator("#game-version").get_attribute("value")
    page.locator("#panel-decide form.cmd button").first.tap()
    expect(page.locator("#game-version")).not_to_have_attribute("value", version or "")
    game.refresh_from_db()
    if maiden_screen_seat(game, host) == 1:
        expect(page.locator("#panel-decide .pass-on")).to_have_count(0)


def maiden_screen_seat(game: Game, user: Any) -> int | None:
    from delve.server.play import maiden_screen

    return maiden_screen.load(game, user).seat


def test_a_maiden_in_a_boss_fight_is_told_she_cannot_leave(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """MV-MOVE-12: a maiden in a boss fight has no movement step until the boss falls; her turn
    offers only the roll, and the decision panel says why (in Japanese and in English)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = solo_game(user)
    screen = drive(
        game,
        user,
        lambda s: s.view["phase"] == "pre_roll" and any(m.get("boss") for m in s.view["maidens"]),
    )
    assert not any(c["kind"] in {"move", "stay"} for c in screen.legal)
    page = phone_page(browser, live_server.url, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    line = page.locator("#panel-decide .bound")
    expect(line).to_contain_text("戦闘中")
    expect(line).to_contain_text("このルームから出られず")
    expect(page.locator("#panel-decide button.cmd-move")).to_have_count(0)
    shot(page, shots, "24-boss-fight-phone-ja")
    set_language(page, "en")
    expect(page.locator("#panel-decide .bound")).to_contain_text("she cannot leave this room until the boss falls")


def test_a_new_game_form_sent_back_opens_on_its_errors_on_a_phone(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """The new-game forms (White Maiden's, the operators' for any ruleset) sent back with an
    error: a summary at the top of the form (role=alert) and the first field in error focused and
    in view (on a phone the message was two screens below the fold). After a tap on the summary's
    link (#id_... in the address) and a corrected send, the page the form leads to opens without
    that anchor: the form posts to its page's own address, never to one with a fragment, which
    the browser would have carried across the redirect (/games/1/#id_seat_2)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    django_user_model.objects.create_user(username="mio", password=PASSWORD, is_staff=True)
    page = phone_page(browser, live_server.url, "mio")
    page.goto(f"{live_server.url}/maiden/new/")
    page.fill("input[name=name]", "みお")
    page.select_option("select[name=s_players]", "2")
    page.check("input[name=table][value=hotseat]")
    page.fill("input[name=seat_2]", "みお")
    page.locator("main button[type=submit]").tap()
    summary = page.locator(".error-summary[role=alert]")
    expect(summary).to_contain_text("乙女にはそれぞれ別の名前をつけてください。")
    expect(summary.locator("a[href='#id_seat_2']")).to_be_visible()
    field = page.locator("#id_seat_2")
    expect(field).to_be_focused()
    expect(field).to_be_in_viewport()
    expect(field).to_have_attribute("aria-invalid", "true")
    shot(page, shots, "25-new-game-error-phone-ja")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, shots, "26-new-game-error-summary-phone-ja")
    # the summary's link puts the field's anchor in the address; the form corrected and sent,
    # the game's page opens without it (a redirect keeps the fragment of the URL posted to)
    summary.locator("a[href='#id_seat_2']").tap()
    expect(page).to_have_url(re.compile(r"/maiden/new/#id_seat_2$"))
    page.fill("input[name=seat_2]", "ゆい")
    page.locator("main button[type=submit]").tap()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    assert "#" not in page.url
    shot(page, shots, "26b-new-game-sent-phone-ja")

    # the operators' form (Fated Labyrinth and any ruleset): the same summary and focus
    page.goto(f"{live_server.url}/games/new/")
    page.fill("textarea[name=overrides]", "no-such-line")
    page.locator("main button[type=submit]").tap()
    summary = page.locator(".error-summary[role=alert]")
    expect(summary).to_be_visible()
    expect(page.locator("#id_overrides")).to_be_focused()
    expect(page.locator("#id_overrides")).to_be_in_viewport()
    shot(page, shots, "27-create-game-error-phone-ja")
    summary.locator("a[href='#id_overrides']").tap()
    expect(page).to_have_url(re.compile(r"/games/new/#id_overrides$"))
    page.fill("textarea[name=overrides]", "")
    page.locator("main button[type=submit]").tap()
    expect(page).to_have_url(f"{live_server.url}/")  # the lobby, where the new game is listed


def test_keyboard_help_is_left_out_on_a_touch_phone_and_shown_on_a_desktop(
    live_server: Any, browser: Any, shots: Path, frozen: Frozen, django_user_model: Any
) -> None:
    """The keyboard link, the keyboard panel and the key badges on buttons (.keys-hint, the rule
    the Fated Labyrinth screen's arrow-key hint uses) are hidden on a phone without hover or a
    fine pointer, and shown on a desktop."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    base = live_server.url
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    game = solo_game(user)
    phone = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
    small = phone.new_page()
    small.set_default_timeout(TIMEOUT)
    log_in(small, base, "ann", PASSWORD)
    small.goto(f"{base}/games/{game.pk}/")
    expect(small.locator("#panel-decide button").first).to_be_visible()
    hints = small.locator(".keys-hint")
    assert hints.count() >= 3  # the link, the panel, at least one key badge on a button
    assert small.locator("#panel-decide button kbd.keys-hint").count() >= 1
    for i in range(hints.count()):
        expect(hints.nth(i)).to_be_hidden()
    expect(small.locator('a[href="#keys"]')).to_be_hidden()
    shot(small, shots, "keys-hidden-phone")
    phone.close()
    desk = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = desk.new_page()
    page.set_default_timeout(TIMEOUT)
    log_in(page, base, "ann", PASSWORD)
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator('a[href="#keys"]')).to_be_visible()
    expect(page.locator("#keys")).to_be_visible()
    expect(page.locator("#panel-decide button kbd.keys-hint").first).to_be_visible()
    desk.close()
