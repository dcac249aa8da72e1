"""The Fated Labyrinth game screen: each of the nine panels (FL-UI-1..14) for the player, an
opponent, a spectator and an anonymous visitor; no hidden information in any partial (another
seat's hand, positions out of sight, unknown traps: FL-INFO-3, FL-VIS-8); commands only from
legal_commands, sent through the server's submit path (FL-UI-5); refreshes that never consume a
turn (FL-LOGIN-3); comments (FL-COM); Japanese and the Level D words (AMB-66)."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from delve.fated import text
from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from delve.server.play import fated_screen
from tests.server.conftest import session_client
from tests.server.fated_kit import arrange, fated_game, rewrite

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def others(make_user: Any) -> list[Any]:
    return [make_user("dee"), make_user("eve")]


@pytest.fixture
def fated(db: None, clock: Any, player: Any, opponent: Any, others: list[Any]) -> Game:
    """Seat 0 (the player, a Warrior) has a turn stored; seat 1 (the opponent, a Thief) stands
    two tiles to the right; seats 2 and 3 are out of seat 0's sight. Seat 0 knows the trap of
    seat 3 at (1,4); nobody but seat 3 knows its trap at (4,3). Seat 2 keeps no record."""
    game = fated_game([player, opponent, *others], practice=[2])
    return arrange(
        game,
        hands={0: ["attack-10", "deflect", "defense-10"], 1: ["drag-along", "attack-20"], 2: ["counter"]},
        ready=[0],
        statuses={0: ["light", "stripped"]},
        traps=[(1, 4, "hp-poison", 3, (0,)), (4, 3, "attack-40", 3, ()), (0, 2, "attack-20", 0, ())],
    )


def personas(player: Any, opponent: Any, spectator: Any) -> dict[str, Client]:
    return {
        "player": session_client(player),
        "opponent": session_client(opponent),
        "spectator": session_client(spectator),
        "outsider": Client(),
    }


def page(client: Client, game: Game, **extra: Any) -> str:
    """The screen as a browser ends up showing it: a GET, then, when the page carries its opener
    (a stored turn, FL-TURN-8), the htmx POST it sends as it loads, then the page again."""
    html = client.get(f"/games/{game.pk}/", **extra).content.decode()
    if 'id="opener"' in html:
        opened = client.post(f"/games/{game.pk}/open/", {"sigs": "{}"}, HTTP_HX_REQUEST="true", **extra)
        assert opened.status_code == 200, opened.content
        html = client.get(f"/games/{game.pk}/", **extra).content.decode()
    return html


def panel(client: Client, game: Game, name: str, **query: str) -> str:
    response = client.get(f"/games/{game.pk}/panels/{name}/", query)
    assert response.status_code == 200, response.content
    return response.content.decode()


def commands_in(html: str) -> list[dict[str, Any]]:
    """Every command a form of the page offers (hidden inputs and select options)."""
    found = re.findall(r'name="command" value="([^"]+)"', html)
    found += re.findall(r'<option value="(\{[^"]+)"', html)
    return [json.loads(value.replace("&quot;", '"')) for value in found if value]


def legal(game: Game, seat: int) -> list[dict[str, Any]]:
    game.refresh_from_db()
    from delve.server.games import present

    return present.view_and_commands(game, seat)[1]


# ---------------------------------------------------------------- opening the screen


def test_opening_the_screen_starts_the_stored_turn_exactly_once(fated, player):
    """FL-LOGIN-3, FL-TURN-8, AMB-4: the screen's own opening post (sent as the page loads)
    consumes the stored turn; loading the page (a GET), another load, the panels and the
    refreshes do not."""
    browser = session_client(player)
    html = browser.get(f"/games/{fated.pk}/").content.decode()
    assert 'id="opener"' in html and 'hx-trigger="load"' in html and 'data-phase-mark="ready"' in html
    browser.get(f"/games/{fated.pk}/")
    assert not CommandEntry.objects.filter(game=fated).exists()
    opened = browser.post(f"/games/{fated.pk}/open/", {"sigs": "{}"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-phase-mark="move"' in opened and 'hx-swap-oob="true"' in opened
    html = page(browser, fated)
    assert 'data-phase-mark="move"' in html and 'id="opener"' not in html
    browser.post(f"/games/{fated.pk}/open/", HTTP_HX_REQUEST="true")
    panel(browser, fated, "commands")
    browser.get(f"/games/{fated.pk}/poll/", {"version": "0"})
    assert CommandEntry.objects.filter(game=fated, source="open").count() == 1


def test_panels_and_polls_never_start_a_turn(fated, player):
    browser = session_client(player)
    panel(browser, fated, "commands")
    browser.get(f"/games/{fated.pk}/poll/", {"version": "0", "force": "1"})
    assert not CommandEntry.objects.filter(game=fated).exists()
    assert 'data-phase-mark="ready"' in panel(browser, fated, "commands")


@pytest.mark.parametrize("who", ["player", "opponent", "spectator", "outsider"])
def test_every_panel_renders_for_every_persona(fated, player, opponent, spectator, who):
    """FL-UI-1 to FL-UI-9 (each panel): the screen and each partial answer for a seat, another seat, a logged-in
    spectator and an anonymous visitor."""
    client = personas(player, opponent, spectator)[who]
    html = page(client, fated)
    for name in fated_screen.PANELS:
        assert f'id="panel-{name}"' in html
        assert f'id="panel-{name}"' in panel(client, fated, name)
    # FL-UI-8: the command help explains the seat's own controls: a seat gets it, a watcher does not
    assert ('id="panel-help"' in html) is (who in {"player", "opponent"})


# ---------------------------------------------------------------- no hidden information leaks


@pytest.mark.parametrize("who", ["opponent", "spectator", "outsider"])
def test_no_partial_shows_another_seats_hand_or_messages(fated, player, opponent, spectator, who):
    """FL-UI-14, FL-CARD-13, FL-INFO-3/5: the hand and the private messages of seat 0 appear on
    nobody else's screen, in no panel."""
    page(session_client(player), fated)  # seat 0 starts its turn: a private message
    client = personas(player, opponent, spectator)[who]
    everything = page(client, fated) + "".join(panel(client, fated, name, tile="2,2") for name in fated_screen.PANELS)
    assert "Deflect" not in everything
    assert "Your turn is ready" not in everything


def test_the_player_sees_their_own_hand_with_cp_per_use(fated, player):
    """FL-UI-14, FL-CP-3: names, categories and the CP consumption of each use (a Warrior has
    magic 0: consumption = cost)."""
    html = panel(session_client(player), fated, "commands")
    assert "Deflect" in html and "Attack 10" in html and "Damage card" in html
    from delve.fated.content import load

    uses = load().cards["attack-10"].uses
    for use, name in (("trap", "《Trap》"), ("adjacent", "《Adjacent》"), ("remote", "《Remote》")):
        assert f"{name} {uses[use]} CP" in html
    assert "Drag Along" not in html


@pytest.mark.parametrize("who", ["player", "opponent", "spectator", "outsider"])
def test_positions_out_of_sight_and_unknown_traps_never_show(fated, player, opponent, spectator, who):
    """FL-VIS-3/4/6/8, FL-INFO-3: seats 2 and 3 stand outside the viewers' sight; the trap at
    (4,3) is known to nobody looking; spectators see an unexplored maze."""
    client = personas(player, opponent, spectator)[who]
    html = panel(client, fated, "map") + panel(client, fated, "tile", tile="4,3")
    assert '<span class="tok player" aria-hidden="true">03</span>' not in html
    assert '<span class="tok player" aria-hidden="true">04</span>' not in html
    assert "Attack 40" not in html
    assert 'data-x="4" data-y="3"' not in html or "t-enemy-trap" not in _cell(html, 4, 3)
    if who in {"spectator", "outsider"}:
        assert "lit" not in re.sub(r"legend.*", "", html, flags=re.S)
        assert "tok" not in re.sub(r"<details.*", "", html, flags=re.S)


def _cell(html: str, x: int, y: int) -> str:
    match = re.search(rf'<button type="button" class="cell ([^"]*)" data-x="{x}" data-y="{y}"', html)
    return match.group(1) if match else ""


# ---------------------------------------------------------------- (1) map, (2) tile details


def test_the_map_draws_terrain_characters_and_known_traps(fated, player):
    """FL-UI-1, FL-VIS-2..4, FL-VIS-7, FL-VIS-9/10, FL-VIS-11, AMB-67: bright tiles in sight,
    black unexplored; ● for oneself, 02 for the other player, the enemy Slime orange and the
    own Imp blue (S and I in English, 粘 and 妖 in Japanese); the own trap violet, the known
    enemy trap red."""
    html = panel(session_client(player), fated, "map")
    assert html.count('<span class="tok you" aria-hidden="true">●</span>') == 1
    assert '<span class="tok player" aria-hidden="true">02</span>' in html
    assert '<span class="tok monster enemy" aria-hidden="true">S</span>' in html
    assert '<span class="tok monster own" aria-hidden="true">I</span>' in html
    japanese = session_client(player).get(f"/games/{fated.pk}/panels/map/", HTTP_ACCEPT_LANGUAGE="ja")
    assert '<span class="tok monster enemy" aria-hidden="true">粘</span>' in japanese.content.decode()
    assert '<span class="tok monster own" aria-hidden="true">妖</span>' in japanese.content.decode()
    assert "t-own-trap lit" in _cell(html, 0, 2)
    assert "t-enemy-trap lit" in _cell(html, 1, 4)
    assert "t-floor lit" in _cell(html, 4, 3)  # the unknown trap looks like floor (FL-VIS-8)
    assert 'class="cell t-unknown dark"' in html
    assert "t-checkpoint lit" in _cell(html, 0, 0)


GLYPHS = {  # FL-VIS-7, AMB-67: the map glyph of each kind in the screen's language
    "en": {"slime": "S", "zombie": "Z", "ghost": "Gh", "imp": "I", "necromancer": "N", "golem": "Go", "dragon": "D",
           "mimic": "Mi", "wisp": "W", "ogre": "O", "gargoyle": "G", "minotaur": "Mn"},
    "ja": {"slime": "粘", "zombie": "腐", "ghost": "霊", "imp": "妖", "necromancer": "術", "golem": "像",
           "dragon": "龍", "mimic": "箱", "wisp": "灯", "ogre": "鬼", "gargoyle": "像", "minotaur": "牛"},
}  # fmt: skip


def legend_monsters(html: str) -> list[tuple[str, str, str]]:
    """(kind, glyph, name) of each monster line of the map legend."""
    return re.findall(
        r'<li class="legend-monster" data-monster="([a-z]+)"><span class="cell t-floor lit">'
        r'<span class="tok monster enemy">([^<]+)</span></span> ([^<]+)</li>',
        html,
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_monster_glyphs_follow_the_language_on_map_legend_tile_and_help_FL_VIS_7(fated, player, lang):
    """FL-VIS-7: a monster is drawn with a glyph of the screen's language: Latin letters in English
    (S for the Slime, I for the Imp), the kanji in Japanese (粘, 妖). The map legend lists every
    monster of the roster with the glyph the map draws; the tile details and the help page show
    the same glyph; the cell's label names the monster. No kanji glyph is left on an English
    screen."""
    browser = session_client(player)
    glyphs = GLYPHS[lang]
    other = GLYPHS["ja" if lang == "en" else "en"]
    screen = unescape(page(browser, fated, HTTP_ACCEPT_LANGUAGE=lang))
    game_map = section(screen, "map")
    slime = f'<span class="tok monster enemy" aria-hidden="true">{glyphs["slime"]}</span>'
    assert slime in game_map and f'<span class="tok monster own" aria-hidden="true">{glyphs["imp"]}</span>' in game_map
    label = "Slime of Player 03" if lang == "en" else "プレイヤー03のスライム"
    assert re.search(rf'aria-label="5,5, [^"]*{label}" title="5,5, [^"]*{label}"', game_map)
    roster = ["slime", "zombie", "ghost", "imp", "necromancer", "golem", "dragon"]
    names = [text.monster_name(kind, lang) for kind in roster]
    assert legend_monsters(game_map) == [(k, glyphs[k], n) for k, n in zip(roster, names, strict=True)]
    assert f'<span class="tok monster own">{glyphs["slime"]}</span>' in game_map  # the colour examples
    if lang == "en":
        assert not set(other.values()) & set(re.findall(r"[\u3400-\u9fff]", game_map))
    details = unescape(
        browser.get(f"/games/{fated.pk}/panels/tile/", {"tile": "4,4"}, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    )
    assert f'<span class="tok monster enemy">{glyphs["slime"]}</span> <strong>{names[0]}</strong>' in details
    help_page = unescape(browser.get(f"/games/{fated.pk}/help/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    shown = re.findall(
        r'<td><span class="tok monster enemy">([^<]+)</span></td><th scope="row">([^<]+)</th>', help_page
    )
    assert shown == [(glyphs[k], n) for k, n in zip(roster, names, strict=True)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_level_d_help_and_legend_draw_its_roster_with_the_minotaur_FL_VIS_7(
    client, db, clock, player, opponent, others, lang
):
    """FL-VIS-7, AMB-65, AMB-67: Level D's eight kinds, the Minotaur included, with unique glyphs
    in both languages (Mi the Mimic, Mn the Minotaur, G the Gargoyle in English)."""
    glyphs = GLYPHS[lang]
    roster = ["slime", "mimic", "wisp", "imp", "necromancer", "ogre", "gargoyle", "minotaur"]
    help_page = unescape(client.get("/help/?preset=level-d", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    shown = re.findall(
        r'<td><span class="tok monster enemy">([^<]+)</span></td><th scope="row">([^<]+)</th>', help_page
    )
    assert shown == [(glyphs[k], text.monster_name(k, lang)) for k in roster]
    assert len({g for g, _ in shown}) == len(roster)
    game = fated_game([player, opponent, *others], preset="level-d")
    legend = legend_monsters(unescape(page(session_client(player), game, HTTP_ACCEPT_LANGUAGE=lang)))
    assert [(k, g) for k, g, _ in legend] == [(k, glyphs[k]) for k in roster]


def test_remembered_tiles_are_dark(fated, player):
    """FL-VIS-3: a tile seen before and now out of sight is drawn dark, without characters."""
    browser = session_client(player)
    page(browser, fated)
    for step in ({"kind": "move", "dir": "down"}, {"kind": "move", "dir": "down"}):
        engine.submit(fated.pk, player, step)
    html = panel(browser, fated, "map")
    assert 'class="cell t-checkpoint dark"' in html  # (0,0) was in sight, is not now
    assert "t-own-trap lit" in _cell(html, 0, 2)


def test_tile_details_only_for_tiles_in_sight(fated, player):
    """FL-UI-2, FL-INFO-6: the monster's name, owner and values, the known trap's card and use;
    nothing for a tile out of sight."""
    browser = session_client(player)
    slime = panel(browser, fated, "tile", tile="4,4")
    assert "Slime" in slime and "owner: Player 03" in slime and "Base attack" in slime
    trap = panel(browser, fated, "tile", tile="1,4")
    assert "Discovered trap" in trap and "HP Poison" in trap and "《Trap》" in trap
    far = panel(browser, fated, "tile", tile="6,8")
    assert "out of sight" in far and "Player 04" not in far


@pytest.mark.parametrize(("preset", "trap"), [("fated-labyrinth", "罠"), ("level-d", "ワナ")])
def test_tile_details_name_a_trap_in_the_presets_word_P_26(db, clock, player, opponent, others, preset, trap):
    """P-26: the tile details call a trap by the preset's word in Japanese (Fated Labyrinth's 罠,
    Level D's ワナ), one's own and one discovered."""
    game = fated_game([player, opponent, *others], preset=preset)
    arrange(game, ready=[0], traps=[(1, 4, "hp-poison", 3, (0,)), (0, 2, "attack-20", 0, ())])
    browser = session_client(player)
    page(browser, game)
    found = browser.get(f"/games/{game.pk}/panels/tile/", {"tile": "1,4"}, HTTP_ACCEPT_LANGUAGE="ja")
    own = browser.get(f"/games/{game.pk}/panels/tile/", {"tile": "0,2"}, HTTP_ACCEPT_LANGUAGE="ja")
    other = "ワナ" if trap == "罠" else "罠"
    assert f"発見した{trap}：" in found.content.decode() or f"発見した{trap}:" in found.content.decode()
    assert f"自分が設置した{trap}" in own.content.decode()
    assert f"発見した{other}" not in found.content.decode() and f"設置した{other}" not in own.content.decode()


def test_tile_details_of_a_player_show_their_values_unless_under_stealth(fated, player):
    """FL-UI-2, FL-STS-18: another player's values; none under Stealth."""
    browser = session_client(player)
    shown = panel(browser, fated, "tile", tile="4,2")
    assert "Ben" in shown and "120／120" in shown and "Base evasion" in shown
    rewrite(
        fated,
        lambda s: setattr(
            s.p(1), "statuses", [__import__("delve.fated.state", fromlist=["Status"]).Status(id="stealth", turns=7)]
        ),
    )
    hidden = panel(browser, fated, "tile", tile="4,2")
    assert "Under Stealth" in hidden and "120／120" not in hidden


# ---------------------------------------------------------------- (3) events, (4) piles


def test_recent_events_are_sentences_and_messages_stay_private(fated, player, opponent):
    """FL-UI-3, FL-INFO-4/5: the public log in words; own messages only on the own screen."""
    page(session_client(player), fated)
    engine.submit(fated.pk, player, {"kind": "stay"})
    engine.submit(fated.pk, player, {"kind": "pass", "reward": "cards"})
    mine = panel(session_client(player), fated, "events")
    theirs = panel(session_client(opponent), fated, "events")
    assert "You passed the turn and took 1 card." in mine
    assert "Player 01 passed the turn and took 1 card." in theirs
    assert "You drew 1 card." in mine and "drew 1 card" not in theirs


def test_the_piles_panel_counts_the_draw_and_discard_piles(fated, spectator):
    """FL-UI-4, FL-CARD-12."""
    fated.refresh_from_db()
    state = engine.load_state(fated)
    html = panel(session_client(spectator), fated, "piles")
    assert f"<strong>{len(state.deck)}</strong>" in html and f"<strong>{len(state.discard)}</strong>" in html


# ---------------------------------------------------------------- (5) commands, (6) quick moves


@pytest.mark.parametrize("phase", ["move", "core"])
def test_the_command_panel_offers_exactly_the_legal_commands(fated, player, phase):
    """FL-UI-5, FL-CORE-11: every form's command is one of legal_commands, and every legal
    command but the comment (its own form) is offered."""
    browser = session_client(player)
    page(browser, fated)
    if phase == "core":
        engine.submit(fated.pk, player, {"kind": "stay"})
    offered = commands_in(panel(browser, fated, "commands"))
    allowed = [c for c in legal(fated, 0) if c["kind"] != "comment"]
    assert all(c in allowed for c in offered)
    assert all(c in offered for c in allowed)
    if phase == "core":
        assert {
            "kind": "use_card",
            "card": _card_id(fated, 0, "attack-10"),
            "use": "adjacent",
            "dir": "right",
        } not in offered
        assert any(c["kind"] == "use_card" and c.get("use") == "remote" and c.get("target") == 1 for c in offered)


def _card_id(game: Game, seat: int, kind: str) -> int:
    game.refresh_from_db()
    state = engine.load_state(game)
    from delve.fated.content import load

    return next(c for c in state.players[seat].hand if load().card(c, state.settings.preset).id == kind)


def test_the_abandonment_notice_shows_outside_the_wait_phase(fated, player, opponent):
    """FL-ABN-1, FL-UI-5: the preset's notice with a countdown in move/core/defense phases,
    none while waiting."""
    browser = session_client(player)
    page(browser, fated)
    html = panel(browser, fated, "commands")
    assert "If you do nothing within" in html and "deemed to have abandoned the game" in html
    assert 'class="countdown" data-deadline=' in html
    waiting = panel(session_client(opponent), fated, "commands")
    assert "deemed to have abandoned" not in waiting


def test_the_wait_phase_shows_the_countdown_and_a_refresh(fated, opponent):
    """FL-UI-13, FL-WAIT-2: the remaining wait time and 「画面を更新」."""
    html = panel(session_client(opponent), fated, "commands")
    assert "Next turn in" in html and 'data-refresh-at-zero="1"' in html
    assert "poll/?force=1" in html and "Refresh" in html


def test_quick_move_buttons_follow_the_legal_moves(fated, player):
    """FL-UI-6, FL-MOVE-8: a button per direction, enabled only for a legal move."""
    browser = session_client(player)
    page(browser, fated)
    html = panel(browser, fated, "quickmove")
    moves = {c["dir"] for c in legal(fated, 0) if c["kind"] == "move"}
    for direction in text.DIRECTIONS:
        button = re.search(rf'<button type="submit" id="qm-{direction}"[^>]*>', html).group(0)
        assert ("disabled" not in button) == (direction in moves)
    assert moves == {"up", "down", "left", "right"} - {"right"} or moves


def test_a_quick_move_applies_the_move(fated, player):
    """FL-MOVE-8: the button posts the move through the server's submit path."""
    browser = session_client(player)
    page(browser, fated)
    response = browser.post(
        f"/games/{fated.pk}/act/",
        {"command": '{"dir": "right", "kind": "move"}', "version": str(_version(fated))},
        **HTMX,
    )
    assert response.status_code == 200
    assert "2／3" in response.content.decode()
    assert CommandEntry.objects.filter(game=fated, source="player").count() == 1


def _version(game: Game, seat: int = 0) -> int:
    """The version the seat's screen shows (it moves only when what that seat sees changes)."""
    game.refresh_from_db()
    return engine.seen_version(game, seat)


def test_a_double_click_applies_once(fated, player):
    """The version and the derived idempotency key make the second identical post a replay."""
    browser = session_client(player)
    page(browser, fated)
    data = {"command": '{"dir": "right", "kind": "move"}', "version": str(_version(fated))}
    first = browser.post(f"/games/{fated.pk}/act/", data, **HTMX)
    second = browser.post(f"/games/{fated.pk}/act/", data, **HTMX)
    assert first.status_code == second.status_code == 200
    assert CommandEntry.objects.filter(game=fated, source="player").count() == 1
    assert 'class="refusal"' not in second.content.decode()


def test_refusals_show_inline(fated, player):
    """Rejections are explicit: choices that changed and an illegal command say why, in the panel."""
    browser = session_client(player)
    page(browser, fated)
    stale = browser.post(
        f"/games/{fated.pk}/act/", {"command": '{"kind": "stay"}', "choices": "0000000000000000"}, **HTMX
    )
    assert 'class="refusal" role="alert"' in stale.content.decode() and "please choose again" in stale.content.decode()
    illegal = browser.post(f"/games/{fated.pk}/act/", {"command": '{"kind": "draw"}'}, **HTMX).content.decode()
    assert 'class="refusal"' in illegal and "command/not_your_phase" in illegal
    empty = browser.post(f"/games/{fated.pk}/act/", {}, **HTMX).content.decode()
    assert "Choose a command first." in empty
    assert not CommandEntry.objects.filter(game=fated, source="player").exists()


def test_without_htmx_a_post_redirects_back_with_the_message(fated, player):
    browser = session_client(player)
    page(browser, fated)
    response = browser.post(f"/games/{fated.pk}/act/", {"command": '{"kind": "draw"}'}, follow=True)
    assert "command/not_your_phase" in response.content.decode()


def test_the_defense_phase_shows_what_is_defended_and_only_the_offered_defenses(fated, player, opponent):
    """FL-DEF, FL-ATK-8: source, card and use, power; defense cards only when effective."""
    page(session_client(player), fated)
    for step in ({"kind": "move", "dir": "right"}, {"kind": "stay"}):
        engine.submit(fated.pk, player, step)
    engine.submit(fated.pk, player, {"kind": "attack", "dir": "right"})
    rewrite(
        fated,
        lambda s: (
            s.make_ready(1),
            s.p(1).statuses.append(__import__("delve.fated.state", fromlist=["Status"]).Status(id="sluggish", turns=7)),
        ),
    )
    html = page(session_client(opponent), fated)
    assert "Incoming: Player 01's normal attack, power 18." in unescape(html)
    offered = commands_in(html)
    assert {"kind": "no_defense"} in offered
    assert all(c in legal(fated, 1) for c in offered)


def test_the_own_status_panel(fated, player):
    """FL-UI-7, FL-UI-10, FL-UI-11, FL-UI-12, FL-VIS-11: name, class, HP/CP current／max, the abilities, plus
    statuses light blue and minus red, treasures, kills and the 2x2 checks."""
    html = panel(session_client(player), fated, "status")
    assert "01 Aki" in html and "Warrior" in html
    assert "120／120" in html and "Base attack" in html and "Base evasion" in html
    assert '<li class="status plus"' in html and "Light" in html
    assert '<li class="status minus"' in html and "Stripped" in html
    assert "Treasures" in html and "0／1" in html and "Kills" in html
    assert html.count("−</b>") == 4 and 'class="checks"' in html


def test_every_command_has_its_help(fated, player):
    """FL-UI-8: each button names its help text, shown in the help panel on hover or focus."""
    browser = session_client(player)
    page(browser, fated)
    html = panel(browser, fated, "commands") + panel(browser, fated, "quickmove")
    buttons = re.findall(r"<button type=\"submit\"[^>]*>", html)
    assert buttons and all("data-help=" in b for b in buttons)
    assert text.command_help("stay", "en", "fated-labyrinth") in unescape(html)


def test_all_players_panel_shows_statuses_comments_and_the_practice_mark(fated, player, spectator, others):
    """FL-UI-9, FL-REC-3, FL-INFO-1/2, FL-COM-2: every player, 練 for seat 2, comments for all;
    a player under Stealth shows no values."""
    engine.submit(fated.pk, others[0], {"kind": "comment", "text": "Hello from Chie"})
    html = panel(session_client(spectator), fated, "players")
    assert html.count('<li class="pl') == 4
    chie = html.split("Chie")[0].rsplit('<li class="pl', 1)[1]
    assert "練" in chie
    assert "Hello from Chie" in html
    # the mark is explained in words under the list (a phone shows no hover title)
    assert 'class="muted small practice-legend"' in html and "Practice: keeps no personal record</p>" in html
    rewrite(
        fated,
        lambda s: s.p(1).statuses.append(
            __import__("delve.fated.state", fromlist=["Status"]).Status(id="stealth", turns=7)
        ),
    )
    html = panel(session_client(spectator), fated, "players")
    ben = html.split("Ben")[1].split('<li class="pl')[0]
    assert "Stealth: status hidden." in ben and "HP" not in ben


# ---------------------------------------------------------------- comments (FL-COM)


def test_commenting_from_the_screen(fated, player, others):
    """FL-COM-1/3, AMB-62: allowed in any phase; a second change within a minute is refused
    inline."""
    browser = session_client(others[1])
    first = browser.post(f"/games/{fated.pk}/act/", {"comment": "On my way"}, **HTMX).content.decode()
    assert "Your comment is updated." in first and "On my way" in first
    again = browser.post(f"/games/{fated.pk}/act/", {"comment": "Again"}, **HTMX).content.decode()
    assert "once a minute" in again


# ---------------------------------------------------------------- refreshing


def test_a_poll_answers_204_while_nothing_changed(fated, player):
    browser = session_client(player)
    version = str(_version(fated))
    assert browser.get(f"/games/{fated.pk}/poll/", {"version": version}).status_code == 204


def test_a_poll_sends_only_the_panels_that_changed(fated, player, opponent):
    """Panels carry signatures; after another player's comment only the players panel (and
    the events) come back, as out-of-band swaps."""
    browser = session_client(player)
    html = page(browser, fated)
    sigs = dict(re.findall(r'data-panel="(\w+)" data-sig="(\w+)"', html))
    version = str(_version(fated))
    engine.submit(fated.pk, opponent, {"kind": "comment", "text": "hi"})
    answer = browser.get(f"/games/{fated.pk}/poll/", {"version": version, "sigs": json.dumps(sigs)}).content.decode()
    swapped = set(re.findall(r'id="panel-(\w+)"', answer))
    assert "players" in swapped and "events" in swapped
    assert "map" not in swapped and "commands" not in swapped
    assert 'hx-swap-oob="true"' in answer and f'value="{_version(fated)}"' in answer


def test_a_countdown_moving_on_does_not_send_its_panel_again(fated, player, opponent, clock):
    """FL-UI-5, FL-ABN-1: the commands panel shows the abandonment countdown, whose text changes
    every second (the page's script writes it from its deadline): its signature leaves the text
    out, so a poll a few seconds later with another player's comment does not swap the commands
    (a swap replaces the buttons under the player's pointer)."""
    browser = session_client(player)
    html = page(browser, fated)
    assert 'class="countdown" data-deadline=' in html
    sigs = dict(re.findall(r'data-panel="(\w+)" data-sig="(\w+)"', html))
    version = str(_version(fated))
    clock.tick(7)
    engine.submit(fated.pk, opponent, {"kind": "comment", "text": "hi"})
    answer = browser.get(f"/games/{fated.pk}/poll/", {"version": version, "sigs": json.dumps(sigs)}).content.decode()
    swapped = set(re.findall(r'id="panel-(\w+)"', answer))
    assert "players" in swapped and "commands" not in swapped


def test_the_waiting_page_reloads_once_the_game_starts(db, clock, player, opponent, others):
    game = engine.create_game("fated", "fated-labyrinth", {"players": 4, "maze_size": 9})
    engine.register(game.pk, player, "Aki", {"class": "warrior"})
    browser = session_client(player)
    assert "Waiting for players" in page(browser, game)
    assert browser.get(f"/games/{game.pk}/poll/", {"status": "open"}).status_code == 204
    for name, user in zip(("Ben", "Chie", "Dan"), [opponent, *others], strict=True):
        engine.register(game.pk, user, name, {"class": "thief"})
    assert browser.get(f"/games/{game.pk}/poll/", {"status": "open"}).headers.get("HX-Refresh") == "true"


# ---------------------------------------------------------------- languages and presets


def test_the_screen_in_japanese(fated, player):
    """i18n: the catalogue is compiled and the game texts come in Japanese too."""
    html = page(session_client(player), fated, HTTP_ACCEPT_LANGUAGE="ja")
    assert '<html lang="ja">' in html
    for words in (
        "全体マップ",
        "自分のステータス",
        "移動フェイズ",
        "戦士",
        "基本攻撃力",
        "最近の出来事",
        "ゲーム放棄と見なされます",
    ):
        assert words in html, words


def test_level_d_uses_its_own_names(db, clock, player, opponent, others, make_user):
    """P-20..P-33, AMB-66: 忍者 and 商人, the phase word ターン, 投了, ワナ."""
    users = [player, opponent, *others, *(make_user(f"u{i}") for i in range(4))]
    game = engine.create_game("fated", "level-d", {"maze_size": 9})
    names = ("Aki", "Ben", "Chie", "Dan", "Eri", "Fumi", "Gen", "Hana")
    classes = ("cat", "noble", "sorcerer", "thief", "warrior", "priest", "explorer", "summoner")
    for user, name, cls in zip(users, names, classes, strict=True):
        engine.register(game.pk, user, name, {"class": cls})
    rewrite(game, lambda s: s.make_ready(0))
    html = page(session_client(player), game, HTTP_ACCEPT_LANGUAGE="ja")
    assert "忍者" in html and "商人" in html and "魔法使い" in html
    assert "移動ターン" in html and "投了" in html


def test_level_d_names_its_dungeon_in_the_settings_it_shows(db, client, fated):
    """FL-CFG-5, P-25: the game's settings speak the preset's words: Level D's maze size is
    ダンジョンの広さ / "Dungeon size", Fated Labyrinth's stays 迷宮の広さ / "Maze size"."""
    level_d = engine.create_game("fated", "level-d", {"maze_size": 9})
    for game, ja, en in ((level_d, "ダンジョンの広さ", "Dungeon size"), (fated, "迷宮の広さ", "Maze size")):
        html = client.get(f"/games/{game.pk}/help/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        assert ja in html and ("迷宮の広さ" in html) == (game is fated)
        html = client.get(f"/games/{game.pk}/help/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert en in html and ("Maze size" in html) == (game is fated)


# ---------------------------------------------------------------- help pages


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_help_page_is_generated_from_the_content(fated, client, lang):
    """FL-UI-8, FL-CFG-1: classes, cards (category, uses and costs, text), monsters, statuses,
    the game's settings and the commands of each phase, in both languages."""
    html = client.get(f"/games/{fated.pk}/help/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    ja = lang == "ja"
    for expected in (
        (
            "戦士",
            "攻撃１０",
            "ダメージカード",
            "スライム",
            "鉄壁",
            "待機時間",
            "<dd>1時間</dd>",
            "移動フェイズ",
            "動かない",
        )
        if ja
        else (
            "Warrior",
            "Attack 10",
            "Damage card",
            "Slime",
            "Ironwall",
            "Wait time",
            "<dd>1 h</dd>",
            "Move phase",
            "Stay",
        )
    ):
        assert expected in html, expected
    from delve.fated.content import load

    trap_cost = load().cards["attack-10"].uses["trap"]
    assert f"《Trap》 {trap_cost}" in html or f"《罠》 {trap_cost}" in html


def test_the_general_help_shows_each_presets_roster(client):
    html = client.get("/help/?preset=level-d", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ミノタウロス" in html and "忍者" in html and "《ワナ》" in html and "ゾンビ" not in html
    assert client.get("/help/?preset=nope").status_code == 404


def test_other_players_acting_do_not_void_a_decision_made_on_the_screen(fated, player, opponent):
    """FL-UI-5: the screen guards a command with the digest of the choices it showed, not the
    game's version: another seat's command in between leaves this player's move valid."""
    browser = session_client(player)
    html = page(browser, fated)
    choices = html.split('id="game-choices" name="choices" value="')[1].split('"')[0]
    version = html.split('id="game-version" name="version" value="')[1].split('"')[0]
    engine.submit(fated.pk, opponent, {"kind": "comment", "text": "meanwhile"})  # the version moves on
    response = browser.post(
        f"/games/{fated.pk}/act/",
        {"command": '{"kind": "stay"}', "choices": choices, "version": version},
        **HTMX,
    )
    assert 'class="refusal"' not in response.content.decode()
    assert CommandEntry.objects.filter(game=fated, seat=0, command={"kind": "stay"}).exists()


# ---------------------------------------------------------------- statuses on the screen


def test_level_d_lists_a_cancelled_status_with_its_mark_FL_STS_12(db, clock, player, opponent, others, spectator):
    """FL-STS-12, FL-STS-19 (AMB-34 revised): in Level D the earlier of an opposite pair stays
    listed, marked cancelled and struck through; its explanation opens on a tap (a details
    element: touch screens have no hover)."""
    from delve.fated.state import Status

    game = fated_game([player, opponent, *others], preset="level-d")
    arrange(game)
    rewrite(
        game,
        lambda s: setattr(
            s.p(1), "statuses", [Status(id="ironwall", turns=3, cancelled=True), Status(id="stripped", turns=7)]
        ),
    )
    html = unescape(panel(session_client(spectator), game, "players"))
    ben = html.split("Ben")[1].split('<li class="pl')[0]
    assert '<li class="status plus cancelled"' in ben and "(cancelled)" in ben
    assert '<li class="status minus"' in ben
    assert "<details><summary>" in ben and "no effect" in ben
    own = unescape(panel(session_client(opponent), game, "status"))  # the own panel lists both too
    assert "cancelled" in own and "3 turns" in own


def test_a_dead_player_shows_no_statuses(fated, spectator):
    """A dead player's statuses are cleared from the display (FL-UI-9)."""
    from delve.fated.state import Status

    def kill(s: Any) -> None:
        s.p(1).statuses = [Status(id="light", turns=5)]
        s.p(1).alive = False
        s.p(1).hp = 0

    rewrite(fated, kill)
    html = panel(session_client(spectator), fated, "players")
    ben = html.split("Ben")[1].split('<li class="pl')[0]
    assert 'class="status' not in ben


# ---------------------------------------------------------------- the end of the game, the full log


def escape_with_seat_0(game: Game) -> None:
    """Seat 0 qualifies (condition B), stands on the exit and escapes: the game ends."""
    from delve.fated import death
    from delve.fated.state import BOTTOM_LEFT, BOTTOM_RIGHT, TOP_LEFT, TOP_RIGHT

    def change(s: Any) -> None:
        p = s.p(0)
        p.treasures, p.visited = 1, TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
        death.update_exit(s.ctx)
        p.pos = s.state.exit
        s.to_core(0)
        s.play(0, {"kind": "escape"})

    rewrite(game, change)


def test_the_end_of_the_game_shows_a_banner_and_the_standings(fated, player, opponent, spectator):
    """FL-OVR-6, FL-WIN-5, FL-WIN-7: after the escape the banner names the winner, the standings
    say how each seat ended (the winner first, escaped; the others still inside), the commands
    panel no longer asks for a phase, the status panel no longer says to find the exit, the map
    shows the whole maze, and the full log is one click away."""
    escape_with_seat_0(fated)
    winner = unescape(page(session_client(player), fated))
    assert 'id="panel-ending"' in winner and "Game over" in winner
    assert "You escaped and won." in winner.split('id="panel-ending"')[1]
    assert "You did not win" not in winner
    standings = winner.split('class="standings"')[1].split("</table>")[0]
    rows = re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", standings, re.S)
    assert len(rows) == 4 and "Aki" in rows[0] and "escaped" in rows[0]
    assert all("still inside" in row for row in rows[1:])
    assert 'class="fate fate-escaped"' in standings
    commands = winner.split('id="panel-commands"')[1].split("</section>")[0]
    assert "Core phase" not in commands and "choose one action" not in commands.lower()
    status = winner.split('id="panel-status"')[1].split("</section>")[0]
    assert "find the exit" not in status
    assert f'href="/games/{fated.pk}/log/"' in winner and f'href="/games/{fated.pk}/replay/"' in winner
    loser = unescape(page(session_client(opponent), fated))
    assert "You did not win this time (still inside)." in loser
    watcher = unescape(page(session_client(spectator), fated))
    assert "Player 01 escaped and won" in watcher and "You did not win" not in watcher
    grid = watcher.split('id="panel-map"')[1].split('class="legend"')[0]
    assert "t-unknown" not in grid and "t-floor lit" in grid  # the whole maze revealed


def test_the_standings_say_how_the_losers_are_listed_FL_WIN_7(fated, player, spectator):
    """FL-WIN-7: everyone but the winner loses; the rules give the losers no places among
    themselves, so the standings say in one line how they are listed (how they ended, then
    treasures, kills and player number), not the order of death: Player 03 died after Player 04
    yet is listed after it, as Player 04 has a kill."""

    def deaths(s: Any) -> None:
        for seat, before, kills in ((2, 100, 0), (3, 200, 1)):  # Player 04 died first
            p = s.p(seat)
            p.alive, p.hp, p.fate, p.died_at, p.kills = False, 0, "died", s.now - before, kills

    rewrite(fated, deaths)
    escape_with_seat_0(fated)
    watcher = unescape(page(session_client(spectator), fated))
    ending = watcher.split('id="panel-ending"')[1]
    assert (
        "Everyone but the winner lost; the others are listed by how they ended, then by treasures, kills "
        "and player number." in ending
    )
    standings = ending.split('class="standings"')[1].split("</table>")[0]
    rows = re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", standings, re.S)
    numbers = [re.search(r'<span class="num">(\d+)</span>', row)[1] for row in rows]  # type: ignore[index]
    assert numbers == ["01", "02", "04", "03"]  # escaped, still inside, then the dead: the kill first
    japanese = unescape(page(session_client(player), fated, HTTP_ACCEPT_LANGUAGE="ja"))
    assert "勝者以外は全員敗北です。ほかのプレイヤーは結末、財宝、撃破、プレイヤー番号の順に並んでいます。" in japanese


def test_the_ending_banner_in_japanese(fated, player):
    escape_with_seat_0(fated)
    html = unescape(page(session_client(player), fated, HTTP_ACCEPT_LANGUAGE="ja"))
    assert "ゲーム終了" in html and "最終結果" in html and "脱出" in html and "残留" in html


def test_no_ending_banner_while_the_game_runs(fated, player):
    html = page(session_client(player), fated)
    assert re.search(r'<section id="panel-ending"[^>]*></section>', html)


def test_the_full_log_page_filters_and_folds(fated, player, spectator):
    """The full log: every event the caller may see, newest first; ``mine`` keeps the caller's
    messages and the events naming them; ``attacks`` the fighting; routine lines are folded; a
    bad filter is refused and a spectator sees no private line."""
    from delve.server.games.models import EventEntry

    def add(kind: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        last = EventEntry.objects.filter(game=fated).order_by("-sequence").first()
        EventEntry.objects.create(
            game=fated,
            sequence=(last.sequence + 1) if last else 1,
            time=last.time if last else 0,
            kind=kind,
            data=data,
            visibility=EventEntry.visibility_for(to),
        )

    add("attack.normal", {"attacker": 1, "target": 2})
    add("cards.drawn", {"cards": 1}, (0,))
    add("turn.ready", {}, (0,))
    add("comment", {"player": 1})
    add("attack.normal", {"attacker": 0, "target": 1})
    add("order.fired", {"rule": "least_loss", "command": {"kind": "no_defense"}}, (0,))
    client = session_client(player)
    everything = unescape(client.get(f"/games/{fated.pk}/log/").content.decode())
    assert "full log" in everything and "The game started" in everything
    assert everything.index("You attacked Player 02.") < everything.index("Player 02 attacked Player 03.")
    folded = everything.split('<li class="folded">')[1].split("</details>")[0]
    assert "3 routine lines" in folded and "Your turn is ready." in folded and "You drew 1 card." in folded
    mine = unescape(client.get(f"/games/{fated.pk}/log/", {"show": "mine"}).content.decode())
    assert "You attacked Player 02." in mine and "Your turn is ready." in mine
    assert "Your standing order answered: Don't use a defense card." in mine
    assert "Player 02 attacked Player 03." not in mine and "updated their comment" not in mine
    attacks = unescape(client.get(f"/games/{fated.pk}/log/", {"show": "attacks"}).content.decode())
    assert "Player 02 attacked Player 03." in attacks and "You attacked Player 02." in attacks
    assert "The game started" not in attacks and "Your turn is ready." not in attacks
    watcher = unescape(session_client(spectator).get(f"/games/{fated.pk}/log/").content.decode())
    assert "Your turn is ready." not in watcher and "drew" not in watcher and "About me" not in watcher
    assert "Player 01 attacked Player 02." in watcher
    assert client.get(f"/games/{fated.pk}/log/", {"show": "nope"}).status_code == 400


def test_routine_lines_fold_into_one():
    from delve.server.play import fated_log

    lines = [{"text": "a", "noise": True}, {"text": "b", "noise": True}, {"text": "c"}, {"text": "d", "noise": True}]
    folded = fated_log.fold(lines, "en")
    assert folded[0]["summary"] == "2 routine lines" and [x["text"] for x in folded[0]["folded"]] == ["a", "b"]
    assert folded[1] == {"text": "c"} and folded[2] == {"text": "d", "noise": True}


# ---------------------------------------------------------------- card play


def test_card_play_gives_each_use_and_target_its_own_button_FL_CORE_1(fated, player):
    """FL-CORE-1, FL-USE-1..4, FL-CP-3, FL-ATK-11: in the core phase a card lists its uses, aimed
    ones first and the trap last, each with its CP; one button per target carrying the target's
    tile for picking on the map; an adjacent attack says the damage expected against the
    neighbour's visible defense and evasion; setting a trap asks for a confirmation."""
    browser = session_client(player)
    page(browser, fated)
    for direction in ("right", "left", "right"):
        engine.submit(fated.pk, player, {"kind": "move", "dir": direction})
    html = unescape(panel(browser, fated, "commands"))
    card = html.split("<strong>Attack 10</strong>")[1].split('<li class="card')[0]
    assert "<select" not in card
    order = [card.index(name) for name in ("《Adjacent》", "《Remote》", "《Trap》")]
    assert order == sorted(order)
    from delve.fated.content import load

    uses = load().cards["attack-10"].uses
    assert f'《Adjacent》</strong> <span class="cp-cost">{uses["adjacent"]} CP' in card
    adjacent = card.split('id="aim-')[1]
    assert 'data-aim-tile="4,2"' in adjacent and "→ right: Player 02" in adjacent
    view = fated_screen.load(fated, player).view
    assert view is not None
    ben = view["players"][1]
    aki = view["players"][0]
    expected = max(0, 10 + aki["attack"] - ben["defense"])
    assert f"≈ {expected} damage if it lands ({ben['evasion']}% evasion)" in adjacent
    assert "◎ Pick on the map" in adjacent
    trap = card.split("《Trap》")[1]
    assert 'hx-confirm="Set Attack 10 as a hidden trap on the tile you stand on? The card is spent."' in trap
    assert "hx-confirm" not in adjacent


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_remote_attack_at_a_player_out_of_sight_is_estimated_from_public_values_FL_USE_4(fated, player, lang):
    """FL-USE-4: a remote use attacks any other player wherever they are (not under Stealth), and
    a player's defense, evasion and statuses are public (FL-INFO-1, the all-players panel): the
    button for a player out of sight (Player 03) says the expected damage as it does for one in
    sight (it said nothing)."""
    browser = session_client(player)
    browser.cookies["django_language"] = lang
    page(browser, fated)
    for direction in ("right", "left", "right"):
        engine.submit(fated.pk, player, {"kind": "move", "dir": direction})
    view = fated_screen.load(fated, player).view
    assert view is not None
    assert not any(c["type"] == "player" and c.get("seat") == 2 for c in view["characters"]), "out of sight"
    chie = view["players"][2]
    expected = max(0, 10 - chie["defense"])
    html = unescape(panel(browser, fated, "commands"))
    card = html.split(f"<strong>{text.card_name('attack-10', lang)}</strong>")[1].split('<li class="card')[0]
    forms = card.split('<form class="use"')[1:]
    aimed = next(f for f in forms if '"target": 2, "use": "remote"' in f)
    said = (
        f"≈ {expected} damage if it lands ({chie['evasion']}% evasion)"
        if lang == "en"
        else f"命中すれば約{expected}ダメージ（回避率{chie['evasion']}%"
    )
    assert said in aimed


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_remote_estimate_mentions_a_parry_only_for_a_target_who_can_parry_FL_CLS_2_FL_DEF_3(
    player, opponent, others, lang, preset
):
    """FL-CLS-2, FL-DEF-3, FL-ATK-17: a Warrior (戦士, the same class in Level D) may nullify a
    《遠隔》 attack aimed at them for 20 CP: the remote estimate says so for a Warrior target only
    (not for the Thief, nor for an adjacent use, which cannot be parried)."""
    game = fated_game([player, opponent, *others], classes=["thief", "warrior", "cat", "warrior"], preset=preset)
    arrange(game, hands={0: ["attack-10"]}, ready=[0])
    browser = session_client(player)
    browser.cookies["django_language"] = lang
    page(browser, game)
    for direction in ("right", "left", "right"):
        engine.submit(game.pk, player, {"kind": "move", "dir": direction})
    html = unescape(panel(browser, game, "commands"))
    card = html.split(f"<strong>{text.card_name('attack-10', lang, preset)}</strong>")[1].split('<li class="card')[0]
    forms = card.split('<form class="use"')[1:]
    parry = "a Warrior may parry it for 20 CP (no damage)" if lang == "en" else "戦士は20 CPで打ち払って無効にできる"
    remote = {seat: next(f for f in forms if f'"target": {seat}, "use": "remote"' in f) for seat in (1, 2, 3)}
    assert parry in remote[1] and parry in remote[3]
    assert ("before any defense card" if lang == "en" else "防御カード使用前") in remote[2]
    assert parry not in remote[2]
    adjacent = next(f for f in forms if '"use": "adjacent"' in f)
    assert ("damage if it lands" if lang == "en" else "ダメージ") in adjacent and parry not in adjacent


def test_a_self_aimed_card_asks_first(fated, player):
    """Aiming a card at oneself spends it in a way that surprises: the button asks first."""
    from delve.server.play.fated_screen import _choice

    screen = fated_screen.load(fated, player)
    from delve.fated.content import load

    choice = _choice(screen, {"kind": "use_card", "card": 1, "target": 0}, load().cards["dowsing"])
    assert choice["confirm"] == "Use Dowsing on yourself? The card is spent."


# ---------------------------------------------------------------- what just happened, the tab, countdowns


def test_an_action_answers_with_a_short_result_where_the_player_looks(fated, player):
    """The answer to an action carries a "just now" banner with what it did (routine lines left
    out); the next refresh no longer shows it."""
    client = session_client(player)
    page(client, fated)
    for direction in ("right", "left", "right"):
        client.post(f"/games/{fated.pk}/act/", {"command": json.dumps({"kind": "move", "dir": direction})}, **HTMX)
    html = unescape(
        client.post(
            f"/games/{fated.pk}/act/", {"command": json.dumps({"kind": "attack", "dir": "right"})}, **HTMX
        ).content.decode()
    )
    banner = html.split('class="just-now"')[1].split("</div>")[0]
    assert "You attacked Player 02." in banner
    assert "just-now" not in panel(client, fated, "commands")


def test_the_defense_prompt_says_what_the_incoming_effect_does(fated, player, opponent):
    """FL-DEF, FL-ATK-3: the defender reads the damage before defense and what the special effect
    does (a status: its explanation)."""
    from delve.fated.content import load

    client = session_client(player)
    page(client, fated)
    for direction in ("right", "left", "right"):
        engine.submit(fated.pk, player, {"kind": "move", "dir": direction})
    from delve.fated.state import Status

    def prepare(s: Any) -> None:
        s.set_hand(0, "stripped")
        s.p(1).statuses = [Status(id="sluggish", turns=7)]  # evasion 0: the attack always reaches defense

    rewrite(fated, prepare)
    stripped = _card_id(fated, 0, "stripped")
    use = next(c for c in legal(fated, 0) if c.get("card") == stripped and c.get("target") == 1)
    engine.submit(fated.pk, player, use)
    rewrite(fated, lambda s: s.make_ready(1))
    html = unescape(page(session_client(opponent), fated))
    effect = html.split('class="defending-effect"')[1].split("</p>")[0]
    assert "If nothing stops it:" in effect
    assert load().statuses["stripped"].text["en"] in effect


def test_the_tab_title_and_the_countdowns_are_right_from_the_first_paint(fated, player, opponent, clock):
    """The commands panel tells the page's script the tab title when a turn waits ("(1) Your turn
    — Game N"); a countdown is rendered as the remaining time in the script's own format, never a
    clock time that the script would replace a second later."""
    html = unescape(page(session_client(player), fated))
    assert re.search(r'data-title="\(1\) Your turn — Game \d+ — Fated Labyrinth — Delve" data-alert="turn"', html)
    waiting = unescape(panel(session_client(opponent), fated, "commands"))
    assert 'data-alert=""' in waiting
    left = re.search(r'<time class="countdown" data-deadline="(\d+)"[^>]*>([^<]+)</time>', waiting)
    assert left is not None
    seconds = int(left.group(1)) - clock()
    assert left.group(2) == fated_screen.countdown(seconds, "en")
    assert re.fullmatch(r"\d+:\d\d(:\d\d)?|\d+ d \d+ h", left.group(2))
    assert fated_screen.countdown(3 * 3600 + 65, "en") == "3:01:05"
    assert fated_screen.countdown(65, "en") == "1:05"
    assert fated_screen.countdown(2 * 86400 + 3 * 3600, "ja") == "2日3時間"


def test_level_d_says_turn_everywhere_it_would_say_phase_P_25(client, db, clock, player, opponent, others):
    """P-25, AMB-66: Level D calls the phases turns: the help page (its own sentences, the command
    help, the card and status texts) and the screen never say "phase" / フェイズ."""
    for lang in ("en", "ja"):
        html = unescape(client.get("/help/?preset=level-d", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        body = re.sub(r"<[^>]+>", " ", html.split("<main", 1)[1])
        assert not re.search(r"phase|フェイズ", body, re.I), re.findall(r"[^.。]*(?:phase|フェイズ)[^.。]*", body)[:3]
    assert "move turn" in unescape(client.get("/help/?preset=level-d").content.decode())
    fated = unescape(client.get("/help/?preset=fated-labyrinth").content.decode())
    assert "move phase" in fated
    game = fated_game([player, opponent, *others], preset="level-d")
    arrange(game, hands={0: ["haste", "attack-10"]}, ready=[0])
    for lang in ("en", "ja"):
        screen = unescape(page(session_client(player), game, HTTP_ACCEPT_LANGUAGE=lang))
        body = re.sub(r"<[^>]+>", " ", screen.split("<main", 1)[1])
        assert not re.search(r"phase|フェイズ", body, re.I), re.findall(r"[^.。]*(?:phase|フェイズ)[^.。]*", body)[:3]
        attributes = " ".join(re.findall(r'data-help="([^"]*)"', screen))
        assert not re.search(r"phase|フェイズ", attributes, re.I)


def test_class_abilities_show_their_cp_cost_FL_CLS_9(fated, player):
    """FL-CLS-9, FL-UI-5: parry, steal and jump cost a flat 20 CP: their buttons say so, like a
    card's use."""
    from django.template.loader import render_to_string

    screen = fated_screen.load(fated, player)
    for kind in ("parry", "steal", "jump"):
        button = fated_screen._button(screen, {"kind": kind})
        assert button["cp"] == 20
        html = render_to_string("play/fated/_command.html", {"b": button, "s": screen})
        assert '<span class="cp-cost">20 CP</span>' in html
    assert fated_screen._button(screen, {"kind": "stay"})["cp"] is None


def test_a_dead_player_is_not_told_of_stored_turns_FL_UI_5(fated, player):
    """FL-UI-5: a player out of the game has no turns to spend: the command area says they are
    out and offers the comment, without a count of stored turns."""

    def kill(s: Any) -> None:
        s.p(0).alive = False
        s.p(0).hp = 0
        s.p(0).phase = "dead"
        s.p(0).stored = 3

    rewrite(fated, kill)
    html = panel(session_client(player), fated, "commands")
    assert "You are out of the game." in html
    assert "stored turn" not in html


@pytest.mark.parametrize(
    ("preset", "lang", "heading", "line"),
    [
        ("fated-labyrinth", "en", "Abandoned", "You abandoned the game: you are out of it."),
        ("fated-labyrinth", "ja", "放棄", "放棄しました。ゲームから退場しました。"),
        ("level-d", "en", "Resigned", "You resigned the game: you are out of it."),
        ("level-d", "ja", "投了", "投了しました。ゲームから退場しました。"),
    ],
)
def test_a_player_who_gave_up_is_told_so_not_dead_FL_ABN_4_FL_ABN_5(
    player, opponent, others, preset, lang, heading, line
):
    """FL-ABN-4/5, P-33: the command panel's heading said "Dead" and "You are out of the game"
    to a player who gave up, while the status and the players said "abandoned": it says so in
    the same word as the status and the player list, the preset's (Level D: 投了 / resigned)."""
    game = fated_game([player, opponent, *others], preset=preset)
    arrange(game, ready=[0])
    browser = session_client(player)
    browser.cookies["django_language"] = lang
    page(browser, game)
    engine.submit(game.pk, player, {"kind": "give_up"})
    html = unescape(panel(browser, game, "commands"))
    assert f'<h2 id="h-commands">{heading}</h2>' in html
    assert line in html
    assert "Dead" not in html and "死亡" not in html
    status = unescape(panel(browser, game, "status"))
    assert heading.lower() in status.lower(), "the status says the same word as the heading"


def test_the_screen_prints_no_template_comment(fated, player, clock):
    """A template note spread over two lines ({# ... #} ends with its line) was printed under the
    title of every Fated and Level D game, to players and spectators, in both languages."""
    html = page(session_client(player), fated)
    assert "{#" not in html and "#}" not in html and "is lifted here" not in html
    assert "{#" not in page(Client(), fated)


def test_the_full_log_tells_the_end_once_and_how_it_was_won_FL_WIN_6(fated, player):
    """FL-WIN-6: the last survivor wins. The engine's event says so, and the server adds its own
    outcome event for every game: the full log printed "The game ended: Player 02 won." above
    "The game ended: Player 02 won as the last survivor.". It tells it once, the engine's way."""
    from delve.server.games.models import EventEntry

    last = EventEntry.objects.filter(game=fated).order_by("-sequence").first()
    assert last is not None
    for offset, (kind, data) in enumerate(
        [
            ("game.ended", {"winner": 1, "kind": "survivor"}),  # the engine's
            ("game.ended", {"winners": [1], "results": {"1": "won"}}),  # the server's, just after
        ],
        start=1,
    ):
        EventEntry.objects.create(
            game=fated,
            sequence=last.sequence + offset,
            time=last.time,
            kind=kind,
            data=data,
            visibility=EventEntry.visibility_for(None),
        )
    log = unescape(session_client(player).get(f"/games/{fated.pk}/log/").content.decode())
    assert log.count("The game ended") == 1
    assert "The game ended: Player 02 won as the last survivor." in log


# ---------------------------------------------------------------- what a spectator is shown


def section(html: str, name: str) -> str:
    found = re.search(rf'<section id="panel-{name}"[^>]*>(.*?)</section>', html, re.S)
    assert found is not None, name
    return found.group(1)


def test_a_spectator_is_not_shown_the_panels_about_a_seat_of_their_own_FL_UI_1(fated, player, spectator):
    """A watcher has no seat: no tile in sight while the game runs, no status, no quick move, no
    comment. Their sections stay in the page, empty (hidden by the stylesheet), so the refreshes
    still find them; the player's screen keeps them all; the poll sends the spectator the same
    empty panels."""
    for lang in ("en", "ja"):
        watcher = page(session_client(spectator), fated, HTTP_ACCEPT_LANGUAGE=lang)
        for name in ("tile", "status", "quickmove", "comment"):
            assert section(watcher, name) == "", name
            assert re.search(
                rf'<section id="panel-{name}"[^>]*></section>', panel(session_client(spectator), fated, name)
            )
        assert 'class="panel panel-say"' not in watcher and 'id="comment-input"' not in watcher
        for gone in ("Select a tile in sight", "You are not playing", "Only players", "Spectators cannot move"):
            assert gone not in watcher
    assert "You are watching this game." in page(session_client(spectator), fated)
    seat = page(session_client(player), fated)
    assert "Tile details" in section(seat, "tile") and "Your status" in section(seat, "status")
    assert 'id="qm-stay"' in section(seat, "quickmove") and 'id="comment-input"' in seat
    polled = session_client(spectator).get(f"/games/{fated.pk}/poll/", {"version": "0", "force": "1"}, **HTMX)
    assert polled.status_code == 200
    assert re.search(r'<section id="panel-status"[^>]*hx-swap-oob="true"[^>]*></section>', polled.content.decode())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_spectator_gets_no_command_help_a_seat_does_FL_UI_8(fated, player, spectator, lang):
    """FL-UI-8: the command help tells what the control under the pointer or the focus does; a
    watcher (logged in or anonymous) has no control to ask about, so the panel and its keyboard
    hint are left out (no refresh swaps it), before and after the end; a seat keeps it."""
    heading = "各コマンドの説明" if lang == "ja" else "Command help"
    for watcher in (session_client(spectator), Client()):
        html = page(watcher, fated, HTTP_ACCEPT_LANGUAGE=lang)
        assert 'id="panel-help"' not in html and 'id="help-text"' not in html
        assert heading not in html
        assert "Point at a command" not in html and "フォーカスを移すと" not in html
    seat = page(session_client(player), fated, HTTP_ACCEPT_LANGUAGE=lang)
    assert 'id="panel-help"' in seat and 'id="help-text"' in seat and heading in seat
    escape_with_seat_0(fated)
    assert 'id="panel-help"' not in page(session_client(spectator), fated, HTTP_ACCEPT_LANGUAGE=lang)
    assert 'id="panel-help"' in page(session_client(player), fated, HTTP_ACCEPT_LANGUAGE=lang)


def test_after_the_end_a_spectator_can_read_the_tiles_of_the_revealed_maze(fated, spectator):
    """The whole maze is in sight for everyone once the game has ended: the tile panel comes
    back for a watcher (the status panel stays out)."""
    escape_with_seat_0(fated)
    watcher = page(session_client(spectator), fated)
    assert "Select a tile in sight on the map" in section(watcher, "tile")
    assert section(watcher, "status") == ""
    details = section(panel(session_client(spectator), fated, "tile", tile="4,3"), "tile")
    assert "Tile details" in details and "(5,4)" in details and "out of sight" not in details


def test_the_stylesheet_hides_empty_seat_panels_the_keyboard_hint_on_touch_and_keeps_stay_on_one_line():
    """The empty panels of a spectator are hidden; the arrow-key hint is left out on a device
    without a fine pointer; the Stay button's label (動かない) does not wrap."""
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "src/delve/server/static/delve/fated.css").read_text()
    assert (
        ".panel-tile:empty, .panel-status:empty, .panel-quickmove:empty, .panel-comment:empty { display: none; }" in css
    )
    site = (Path(__file__).resolve().parents[2] / "src/delve/server/static/delve/site.css").read_text()
    assert "@media (hover: none), (pointer: coarse) { .keys-hint { display: none; } }" in site
    stay = re.search(r"#qm-stay \{[^}]*\}", css)
    assert stay is not None and "white-space: nowrap" in stay.group(0)


def test_the_keyboard_hint_is_marked_for_the_touch_rule(fated, player):
    html = page(session_client(player), fated)
    assert re.search(r'<p class="hint keys-hint">Arrow keys or W A S D move too\.</p>', section(html, "quickmove"))


def _stored_on_screen(html: str) -> str:
    found = re.search(r'<p class="muted small stored-turns"[^>]*>([^<]*)</p>', html)
    return unescape(found.group(1)) if found else ""


def _stored_on_waiting_page(client: Client, game: Game, lang: str = "en") -> str:
    html = client.get("/me/waiting/", headers={"Accept-Language": lang}).content.decode()
    row = next(r for r in html.split("<tr") if f"/games/{game.pk}/" in r)
    # the cell under "Stored turns" says the count and its note, not the label again
    cell = re.search(r"data-label=\"(?:Stored turns|蓄積ターン)\">([^<]*)", row)
    assert cell is not None, row
    return unescape(cell.group(1)).strip()


def _alike(screen: str, cell: str) -> bool:
    """The waiting page's cell (``1 / 2, the one ready...`` / ``1 / 2（開始を待つ…）``) says the
    screen's count and note."""
    count = re.match(r"\d+ / \d+", cell)
    assert count is not None, cell
    note = cell[count.end() :].lstrip(", ")
    return count.group(0) in screen and note in screen


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_screen_and_the_waiting_page_count_stored_turns_alike_FL_TURN_6_AMB_4(fated, player, lang):
    """FL-TURN-6 (the cap counts the turns stored and not yet begun), AMB-4 (a turn ready to open
    is one of them), FL-TURN-8/9 (a turn is consumed as it begins): the game screen and the
    "waiting on me" page say the same count out of the cap, in the same words, in every phase
    (the page said "0 / 2" while the screen said "1 stored turn (this one included)")."""
    browser = session_client(player)
    browser.cookies["django_language"] = lang
    cap = engine.load_state(fated).settings.max_stored_turns
    ready = browser.get(f"/games/{fated.pk}/", headers={"Accept-Language": lang}).content.decode()
    assert 'data-phase-mark="ready"' in ready
    said = _stored_on_screen(ready)
    assert _alike(said, _stored_on_waiting_page(browser, fated, lang))
    assert said.startswith(f"1 / {cap}") if lang == "en" else f"1 / {cap}" in said
    assert ("the one ready to play included" if lang == "en" else "開始を待つターンを含む") in said
    playing = page(browser, fated, headers={"Accept-Language": lang})
    assert 'data-phase-mark="move"' in playing
    said = _stored_on_screen(playing)
    assert _alike(said, _stored_on_waiting_page(browser, fated, lang))
    assert f"0 / {cap}" in said and ("not counting the one you are playing" if lang == "en" else "プレイ中") in said
    rewrite(fated, lambda s: setattr(s.p(0), "stored", 1))  # another turn accumulated meanwhile
    said = _stored_on_screen(page(browser, fated, headers={"Accept-Language": lang}))
    assert _alike(said, _stored_on_waiting_page(browser, fated, lang)) and f"1 / {cap}" in said


def test_the_end_reloads_the_page_so_the_seed_and_the_replay_show_and_leaving_goes(fated, player, opponent, clock):
    """FL-OVR-6: the command that ends the game (the escape) answers with a reload (HX-Refresh), and
    so does a poll of a page drawn while the game ran: the footer then reveals the seed with the
    replay and export links, and "Leave this game" is gone, with no manual reload. A command before
    the end and a page drawn after it refresh their panels only."""
    from delve.fated import death
    from delve.fated.state import BOTTOM_LEFT, BOTTOM_RIGHT, TOP_LEFT, TOP_RIGHT

    browser = session_client(player)
    drawn = page(browser, fated)
    assert '<input type="hidden" id="game-status" name="status" value="running">' in drawn
    assert "Leave this game" in drawn and f"/games/{fated.pk}/replay/" not in drawn

    def at_the_exit(s: Any) -> None:
        p = s.p(0)
        p.treasures, p.visited = 1, TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
        death.update_exit(s.ctx)
        p.pos = s.state.exit
        s.to_core(0)

    rewrite(fated, at_the_exit)
    clock.tick(5)  # after the rewrite's moment
    drawn_version = str(_version(fated))
    comment = browser.post(f"/games/{fated.pk}/act/", {"comment": "bye", "status": "running"}, **HTMX)
    assert "HX-Refresh" not in comment and 'id="panel-players"' in comment.content.decode()
    escape = browser.post(
        f"/games/{fated.pk}/act/",
        {"command": json.dumps({"kind": "escape"}), "version": str(_version(fated)), "status": "running"},
        **HTMX,
    )
    fated.refresh_from_db()
    assert fated.status == Game.Status.ENDED
    assert escape["HX-Refresh"] == "true", "the ending command reloads the page"
    other = session_client(opponent)
    poll = other.get(f"/games/{fated.pk}/poll/", {"version": drawn_version, "status": "running"})
    assert poll["HX-Refresh"] == "true", "a page drawn while the game ran reloads"
    again = other.get(f"/games/{fated.pk}/poll/", {"version": drawn_version, "status": "ended"})
    assert "HX-Refresh" not in again
    after = browser.post(f"/games/{fated.pk}/act/", {"comment": "gg", "status": "ended"}, **HTMX)
    assert "HX-Refresh" not in after and 'id="panel-players"' in after.content.decode()
    ended = page(browser, fated)
    assert f"/games/{fated.pk}/replay/" in ended and "Leave this game" not in ended


def test_a_dead_player_sees_no_controls_but_the_comment_FL_LOGIN_4(fated, player, opponent):
    """FL-LOGIN-4: a dead player can do nothing but change their comment: their page has no
    quick-move pad, no command help and no "Leave this game" (a bot would have nothing to play),
    and keeps the comment form, the map, the log and the players; a living player keeps them all."""

    def kill(s: Any) -> None:
        s.p(0).alive = False
        s.p(0).hp = 0
        s.p(0).phase = "dead"

    alive = page(session_client(opponent), fated)
    assert 'id="h-quickmove"' in alive and 'id="panel-help"' in alive and "Leave this game" in alive
    rewrite(fated, kill)
    dead = page(session_client(player), fated)
    assert 'data-phase="dead"' in dead
    assert 'id="h-quickmove"' not in dead and 'id="panel-help"' not in dead and "Leave this game" not in dead
    assert 'id="comment-input"' in dead and 'id="h-map"' in dead and 'id="panel-players"' in dead


def test_a_dead_player_sees_no_hand_FL_LOGIN_4_FL_DEATH_4(fated, player, opponent):
    """FL-LOGIN-4, FL-DEATH-5: a dead player can use no card, and FL-DEATH-4 removes their cards
    from the game: their page shows no hand, even if the seat still listed cards; the map, the
    log, the players and the comment stay. A living player sees their hand."""

    def kill(s: Any) -> None:
        s.p(0).alive = False
        s.p(0).hp = 0
        s.p(0).phase = "dead"
        assert s.p(0).hand  # cards left in the seat: the page must still not show them

    assert 'class="hand"' in page(session_client(player), fated)
    rewrite(fated, kill)
    dead = page(session_client(player), fated)
    assert 'data-phase="dead"' in dead
    assert 'class="hand"' not in dead and "Your hand" not in dead
    for kept in ('id="h-map"', 'id="panel-events"', 'id="panel-players"', 'id="comment-input"'):
        assert kept in dead, kept
    assert 'class="hand"' in page(session_client(opponent), fated)


def test_card_names_in_the_recent_events_are_kept_whole_FL_UI_9() -> None:
    """FL-UI-9: a phone broke 攻撃３０ between its full-width digits in the recent events: every
    card name in a line is wrapped in a span the page keeps on one line, in both languages, and
    the rest of the line is still escaped."""
    html = fated_screen.log_items(
        [
            {"text": "プレイヤー01があなたに攻撃３０《遠隔》を使った。<b>"},
            {"text": "Player 01 used Attack 30 on you."},
        ]
    )
    assert '<span class="card-name">攻撃３０</span>《遠隔》' in html and "&lt;b&gt;" in html
    assert '<span class="card-name">Attack 30</span>' in html


def test_the_full_log_keeps_card_names_whole_by_the_same_rule_FL_UI_9() -> None:
    """FL-UI-9: the full log page marks card names with the recent events' one rule (its
    ``card_names`` filter is ``fated_screen.keep_card_names``), Level D's names (ワナ解除) too."""
    from django.template import engines

    line = "攻撃３０とワナ解除を使った。<b>"
    shown = engines["django"].from_string("{% load fated_text %}{{ line|card_names }}").render({"line": line})
    assert shown == str(fated_screen.keep_card_names(line)) == fated_screen.log_items([{"text": line}])[4:-6]
    assert '<span class="card-name">攻撃３０</span>' in shown and '<span class="card-name">ワナ解除</span>' in shown
    assert "&lt;b&gt;" in shown


def test_a_counter_or_a_target_moving_does_not_send_the_commands_again_FL_UI_6():
    """FL-UI-6, FL-TURN-6: the commands panel's signature is a digest of the choices: the stored
    turns, the tab's title and where a target stands leave it unchanged (the values reach the
    kept panel through ``in_place``); another choice changes it."""
    panel = (
        '<span hidden data-phase-mark="core" data-title="(1) Your turn" data-alert="turn"></span>'
        '<p class="muted small stored-turns" data-in-place="stored">0 / 2 stored turns</p>'
        '<form><input type="hidden" name="command" value="{&quot;target&quot;: 1}">\n'
        '<button type="submit" class="use-target" data-aim-tile="4,2">Ben</button></form>'
    )
    moved = panel.replace("0 / 2", "2 / 2").replace("(1)", "(2)").replace('"4,2"', '"4,3"')
    assert fated_screen.signature(moved) == fated_screen.signature(panel)
    assert fated_screen.signature(panel.replace("Ben", "Chie")) != fated_screen.signature(panel)
    carried = fated_screen.in_place(moved)
    assert '<span data-in-place-for="stored">2 / 2 stored turns</span>' in carried
    assert 'data-tab-title="(2) Your turn"' in carried
    assert '<i data-aim-for="{&quot;target&quot;: 1}" data-aim-tile="4,3"></i>' in carried


def test_pick_on_the_map_only_where_there_is_a_target_to_pick_FL_UI_9(fated, player):
    """FL-UI-9: a card acting only on its user (First Aid, Vitality, Teleport) has its one "Use"
    button and no "Pick on the map" toggle (nothing to pick); an attack at a neighbour keeps it."""
    rewrite(fated, lambda s: (s.set_hand(0, "first-aid", "vitality", "teleport", "attack-10"), s.to_core(0)))
    browser = session_client(player)
    page(browser, fated)
    html = unescape(panel(browser, fated, "commands"))
    for name in ("First Aid", "Vitality", "Teleport"):
        card = html.split(f"<strong>{name}</strong>")[1].split('<li class="card')[0]
        assert 'class="use-target' in card, name
        assert "aim-toggle" not in card, name
    attack = html.split("<strong>Attack 10</strong>")[1].split('<li class="card')[0]
    assert "aim-toggle" in attack


def test_copies_of_one_defense_card_make_one_button_FL_DEF(fated, player, opponent):
    """FL-DEF: two copies of Defense 20 defend alike: the defense phase shows one button for them,
    saying how many the player holds (it showed two identical 「防御２０で防御」 buttons)."""
    page(session_client(player), fated)
    for step in ({"kind": "move", "dir": "right"}, {"kind": "stay"}):
        engine.submit(fated.pk, player, step)
    engine.submit(fated.pk, player, {"kind": "attack", "dir": "right"})

    def defender(s: Any) -> None:
        s.set_hand(1, "defense-20", "defense-20", "defense-10")
        s.p(1).evasion = 0  # FL-DEF-6: no evasion roll spares the choice
        s.make_ready(1)

    rewrite(fated, defender)
    html = unescape(page(session_client(opponent), fated))
    defenses = html.split('class="defenses"')[1].split("</div>")[0]
    assert defenses.count("Defense 20") == 1, defenses
    assert "(you hold 2)" in defenses and defenses.count("Defense 10") == 1
    assert "you hold" not in defenses.split("Defense 10")[1].split("</button>")[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_defense_button_says_what_follows_and_the_engine_does_it_FL_DEF_1_FL_DEF_2(fated, player, opponent, lang):
    """FL-DEF-1, FL-DEF-2, FL-ATK-11: under each defense button the screen says what it leads to,
    from the view's ``defending.choices``: "Don't use a defense card" the damage power − base
    defense and the HP left, a reduction card the reduced damage, complete defense nothing; the
    HP after choosing is the one the button said."""
    page(session_client(player), fated)
    for step in ({"kind": "move", "dir": "right"}, {"kind": "stay"}):
        engine.submit(fated.pk, player, step)
    engine.submit(fated.pk, player, {"kind": "attack", "dir": "right"})

    def defender(s: Any) -> None:
        s.set_hand(1, "defense-10", "complete-defense")
        s.p(1).evasion = 0  # FL-DEF-6: no evasion roll spares the choice
        s.make_ready(1)

    rewrite(fated, defender)
    browser = session_client(opponent)
    html = unescape(page(browser, fated, HTTP_ACCEPT_LANGUAGE=lang))
    from delve.server.games import present

    fated.refresh_from_db()
    view = present.view_and_commands(fated, 1)[0]
    assert view is not None
    item = view["you"]["defending"]
    choices = {c.get("card_kind") or c["kind"]: c for c in item["choices"]}
    power, defense = item["power"], item["defense"]
    none, card = choices["no_defense"], choices["defense-10"]
    assert none["damage"] == power - defense and card["damage"] == max(0, power - defense - 10)
    for choice in item["choices"]:
        said = text.defense_result(choice, item, lang, "fated-labyrinth", 1)
        assert said in html, said
    if lang == "en":
        assert (
            f"You take {none['damage']} damage (power {power} − your defense {defense}); {none['hp']} HP left." in html
        )
        assert "Nullified: nothing reaches you." in html
    else:
        assert f"{none['damage']}ダメージを受ける（威力{power}−防御力{defense}）。残りHP{none['hp']}。" in html
    hp = none["hp"]
    engine.submit(fated.pk, opponent, {"kind": "no_defense"})
    fated.refresh_from_db()
    assert engine.load_state(fated).players[1].hp == hp
