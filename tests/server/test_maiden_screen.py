"""The White Maiden board screen: every panel for the player, the partner, a spectator and an
anonymous visitor, with no hidden fact in any of them (deck order, undrawn cards, quests set
aside, hidden passages); whose turn it is and what they decide, for everyone; decisions only from
legal_commands through the submit path, illegal or stale ones refused with a clear message and
nothing changed; the poll never changes a game; keyboard shortcuts; the JSON API for White
Maiden (view, legal commands, submit)."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from delve.maiden.content import load
from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from delve.server.play import maiden_screen
from tests.server.conftest import session_client, token_client
from tests.server.maiden_kit import first_choice, legal, maiden_game, play_until, state, view

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PHASES = ("setup", "move", "pre_roll", "post_roll")


@pytest.fixture
def duo(clock: Any, player: Any, opponent: Any) -> Game:
    return maiden_game([player, opponent])


def clients(player: Any, opponent: Any, spectator: Any) -> dict[str, Client]:
    return {
        "player": session_client(player),
        "partner": session_client(opponent),
        "spectator": session_client(spectator),
        "visitor": Client(),
    }


def at_phase(game: Game, users: list[Any], phase: str) -> None:
    if phase != "setup":
        play_until(game, users, lambda v: v["phase"] == phase)


def everything(client: Client, game: Game) -> str:
    """The page and a forced poll (every panel, as out-of-band swaps): all a persona can get."""
    parts = [client.get(f"/games/{game.pk}/").content.decode()]
    parts.append(client.get(f"/games/{game.pk}/maiden/poll/?force=1").content.decode())
    return unescape("\n".join(parts))


def test_each_panel_alone_answers_every_persona(duo: Game, player: Any, opponent: Any, spectator: Any) -> None:
    for who, client in clients(player, opponent, spectator).items():
        for name in maiden_screen.PANELS:
            response = client.get(f"/games/{duo.pk}/maiden/panels/{name}/")
            assert response.status_code == 200, (who, name)
            assert f'id="panel-{name}"' in response.content.decode()
    assert Client().get(f"/games/{duo.pk}/maiden/panels/nope/").status_code == 404


@pytest.mark.parametrize("phase", PHASES)
def test_every_panel_renders_for_player_partner_spectator_and_visitor(
    duo: Game, player: Any, opponent: Any, spectator: Any, phase: str
) -> None:
    at_phase(duo, [player, opponent], phase)
    for who, client in clients(player, opponent, spectator).items():
        html = everything(client, duo)
        for name in maiden_screen.PANELS:
            assert f'id="panel-{name}"' in html, (who, name)
        assert "The Tree of Life" in html
        assert "Ann" in html and "Bob" in html  # both maidens, for everyone (cooperative: all public)


def test_whose_turn_and_what_they_decide_is_shown_to_everyone(
    duo: Game, player: Any, opponent: Any, spectator: Any
) -> None:
    """MV-SETUP-9: Ann chooses a familiar first; everybody reads it, only Ann gets the buttons."""
    people = clients(player, opponent, spectator)
    mine = people["player"].get(f"/games/{duo.pk}/maiden/panels/status/").content.decode()
    assert "Your decision (Ann)" in mine and "choosing a familiar" in mine
    for who in ("partner", "spectator", "visitor"):
        status = unescape(people[who].get(f"/games/{duo.pk}/maiden/panels/status/").content.decode())
        assert "<strong>Ann</strong> is choosing a familiar" in status, who
        decide = people[who].get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode()
        assert "cmd-choose_familiar" not in decide, who
    decide = people["player"].get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode()
    assert decide.count("cmd-choose_familiar") == len(legal(duo, 0)) == len(load().familiars)


def hidden_names(game: Game) -> set[str]:
    """Names of the cards nobody may see now: undrawn room, quest and skill cards and the numbered
    quests set aside, minus any name that is also visible (discarded, drawn, owned, on offer)."""
    content = load()
    st = state(game)
    public = view(game, None)
    visible: set[str] = set(public["decks"]["room"]["discard"]) | set(public["decks"]["quest"]["discard"])
    visible |= set(public["decks"]["skill"]["discard"]) | set(public["quest_area"])
    for pending in public["pending"]:
        visible |= {str(o) for o in pending["options"]}
    if public["check"]:
        visible.add(str(public["check"]["source"]))
    for maiden in public["maidens"]:
        visible |= {s["id"] for s in maiden["skills"]}
        for familiar in maiden["familiars"]:
            visible |= set(content.familiars[familiar].skills)
    hidden: set[str] = set()
    for deck, table in (("room", content.room_cards), ("quest", content.quests), ("skill", content.skills)):
        for card in getattr(st.decks, deck):
            if card not in visible:
                hidden |= {table[card].name["en"], table[card].name["ja"]}
    for quest in st.decks.quests_aside:
        hidden |= {content.quests[quest].name["en"], content.quests[quest].name["ja"]}
    shown = {content.room_cards[c].name["en"] for c in visible if c in content.room_cards}
    shown |= {content.skills[c].name["en"] for c in visible if c in content.skills}
    shown |= {content.quests[c].name["en"] for c in visible if c in content.quests}
    return hidden - shown


@pytest.mark.parametrize("phase", PHASES)
def test_no_panel_shows_a_hidden_fact_to_anyone(
    duo: Game, player: Any, opponent: Any, spectator: Any, phase: str
) -> None:
    """Contract "View": deck order, undrawn cards, quests set aside and the RNG are hidden from
    every persona; hidden passages only show to a maiden whose Ins lets her use them (SUG-10)."""
    at_phase(duo, [player, opponent], phase)
    secret = hidden_names(duo)
    assert secret, "the fixture should have undrawn cards"
    st = state(duo)
    rng = json.dumps(engine.ruleset_of(duo).encode(st).decode())
    for who, client in clients(player, opponent, spectator).items():
        html = everything(client, duo)
        leaked = sorted(name for name in secret if name in html)
        assert not leaked, (who, leaked[:5])
        assert '"rng"' not in html and rng[:80] not in html
        if who in {"spectator", "visitor"}:
            assert '<g class="passages"></g>' in html  # no maiden of theirs discovers a passage


def test_the_draw_order_of_the_room_deck_never_reaches_the_page(
    duo: Game, player: Any, opponent: Any, spectator: Any
) -> None:
    """Counts only: the deck panel says how many room cards are left, not which ones."""
    at_phase(duo, [player, opponent], "move")
    html = clients(player, opponent, spectator)["spectator"].get(f"/games/{duo.pk}/maiden/panels/decks/").content
    text = html.decode()
    assert f"<td>{len(state(duo).decks.room)}</td>" in text
    for card in state(duo).decks.room[:3]:
        assert card not in re.sub(r'id="[^"]*"', "", text)


def act(client: Client, game: Game, command: dict[str, Any], **extra: Any) -> Any:
    game.refresh_from_db()
    data = {"command": json.dumps(command), "version": game.version, **extra}
    return client.post(f"/games/{game.pk}/maiden/act/", data, **HTMX)


def digest(game: Game, seat: int) -> str:
    return engine.choices_digest(legal(game, seat))


def test_a_legal_choice_from_the_screen_goes_through_the_submit_path(duo: Game, player: Any, opponent: Any) -> None:
    command = legal(duo, 0)[0]
    before = duo.version
    response = act(session_client(player), duo, command, choices=digest(duo, 0))
    assert response.status_code == 200
    duo.refresh_from_db()
    assert duo.version == before + 1
    entry = CommandEntry.objects.filter(game=duo).latest("sequence")
    assert entry.seat == 0 and entry.command == command


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ({"kind": "move", "to": "kether"}, "choose_familiar"),  # a move during setup: wrong phase
        ({"kind": "choose_familiar", "familiar": "no_such_familiar"}, "not one of the options"),
        ({"kind": "fly"}, "unknown command kind"),
        ({"kind": "roll", "colour": "gold"}, "malformed"),
    ],
)
def test_an_illegal_choice_is_refused_with_a_message_and_nothing_changes(
    duo: Game, player: Any, command: dict[str, Any], words: str
) -> None:
    before = (duo.version, duo.state)
    response = act(session_client(player), duo, command)
    html = unescape(response.content.decode())
    assert 'class="refusal"' in html
    assert words in html
    duo.refresh_from_db()
    assert (duo.version, duo.state) == before
    assert not CommandEntry.objects.filter(game=duo, seat=0).exists()


def test_a_stale_choice_is_refused_and_the_screen_is_up_to_date_again(duo: Game, player: Any, opponent: Any) -> None:
    """The player looked at the familiar choice; meanwhile the game moved on (her partner is
    choosing now): the old choices digest is refused (409) and nothing changes."""
    old = digest(duo, 0)
    familiar = legal(duo, 0)[0]
    engine.submit(duo.pk, player, familiar)
    duo.refresh_from_db()
    before = (duo.version, duo.state)
    response = act(session_client(player), duo, familiar, choices=old)
    html = unescape(response.content.decode())
    assert "refusal" in html
    assert "changed your choices" in html or "wait for them" in html
    duo.refresh_from_db()
    assert (duo.version, duo.state) == before


def test_a_partner_cannot_act_for_another_seat(duo: Game, player: Any, opponent: Any) -> None:
    before = (duo.version, duo.state)
    response = act(session_client(opponent), duo, legal(duo, 0)[0], seat="0")
    assert "You do not play that seat" in unescape(response.content.decode())
    response = act(session_client(opponent), duo, legal(duo, 0)[0])
    assert "must decide" in unescape(response.content.decode())  # her own seat: not her decision
    duo.refresh_from_db()
    assert (duo.version, duo.state) == before


def test_a_spectator_and_a_visitor_cannot_act(duo: Game, player: Any, spectator: Any) -> None:
    before = (duo.version, duo.state)
    response = act(session_client(spectator), duo, legal(duo, 0)[0])
    assert "You do not play that seat" in unescape(response.content.decode())
    response = Client().post(f"/games/{duo.pk}/maiden/act/", {"command": "{}"}, **HTMX)
    assert response.status_code == 204 and response["HX-Redirect"].startswith("/accounts/login/")
    duo.refresh_from_db()
    assert (duo.version, duo.state) == before


def test_the_poll_answers_204_when_nothing_changed_and_never_changes_the_game(
    duo: Game, player: Any, opponent: Any
) -> None:
    client = session_client(player)
    before = (duo.version, duo.state)
    assert client.get(f"/games/{duo.pk}/maiden/poll/?version={duo.version}").status_code == 204
    changed = client.get(f"/games/{duo.pk}/maiden/poll/?version={duo.version - 1}")
    assert changed.status_code == 200 and 'hx-swap-oob="true"' in changed.content.decode()
    sigs = {m[0]: m[1] for m in re.findall(r'data-panel="(\w+)" data-sig="(\w+)"', changed.content.decode())}
    again = client.get(f"/games/{duo.pk}/maiden/poll/", {"version": duo.version - 1, "sigs": json.dumps(sigs)})
    assert 'data-panel="' not in again.content.decode()  # every panel known: nothing re-sent
    duo.refresh_from_db()
    assert (duo.version, duo.state) == before


def test_keyboard_shortcuts_mark_roll_resolve_best_ascension_and_numbered_choices(
    duo: Game, player: Any, opponent: Any
) -> None:
    client = session_client(player)
    decide = client.get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode()
    assert 'data-key="1"' in decide  # the first familiar
    play_until(duo, [player, opponent], lambda v: v["phase"] == "move")
    seat = view(duo, None)["active_seat"]
    who = session_client([player, opponent][seat])
    decide = who.get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode()
    assert 'data-key="1"' in decide and "cmd-move" in decide
    play_until(duo, [player, opponent], lambda v: v["phase"] == "pre_roll")
    seat = view(duo, None)["active_seat"]
    decide = session_client([player, opponent][seat]).get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode()
    assert re.search(r'class="cmd-roll primary"[^>]*data-key="r"', decide)
    play_until(duo, [player, opponent], lambda v: v["phase"] == "post_roll")
    seat = view(duo, None)["active_seat"]
    decide = session_client([player, opponent][seat]).get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode()
    assert re.search(r'class="cmd-resolve primary"[^>]*data-key="e"', decide)


def test_the_map_lights_exactly_the_legal_destinations(duo: Game, player: Any, opponent: Any) -> None:
    """MV-MOVE-6: the lit rooms of the SVG are the ``move`` commands, each carrying its command."""
    play_until(duo, [player, opponent], lambda v: v["phase"] == "move")
    seat = view(duo, None)["active_seat"]
    moves = {c["to"] for c in legal(duo, seat) if c["kind"] == "move"}
    html = session_client([player, opponent][seat]).get(f"/games/{duo.pk}/maiden/panels/map/").content.decode()
    lit = {
        room: json.loads(unescape(cmd)) for room, cmd in re.findall(r'data-room="(\w+)" data-command="([^"]*)"', html)
    }
    assert set(lit) == moves
    assert all(command == {"kind": "move", "to": room} for room, command in lit.items())
    other = session_client([player, opponent][1 - seat]).get(f"/games/{duo.pk}/maiden/panels/map/").content.decode()
    assert "data-command" not in other


def test_a_move_shows_the_map_around_it_with_rooms_lettered_as_their_buttons_MV_MOVE_6(
    duo: Game, player: Any, opponent: Any
) -> None:
    """MV-MOVE-6 on a phone: the move panel draws the part of the map around the move (its rooms
    lit with their commands, no keyboard stop of its own), each lit room lettered A, B ... as its
    move button is, on the zoom and on the whole map; the partner gets no zoom."""
    play_until(duo, [player, opponent], lambda v: v["phase"] == "move")
    seat = view(duo, None)["active_seat"]
    moves = [c for c in legal(duo, seat) if c["kind"] == "move"]
    client = session_client([player, opponent][seat])
    decide = unescape(client.get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode())
    zoom = decide.split('<div class="map-zoom">', 1)[1].split("</div>", 1)[0]
    assert re.search(r'<svg class="tree zoom" viewBox="[-\d.]+ [-\d.]+ [\d.]+ [\d.]+" aria-hidden="true">', zoom)
    assert 'tabindex="0"' not in zoom
    assert set(re.findall(r'data-room="(\w+)" data-command', zoom)) == {c["to"] for c in moves}
    buttons = re.findall(
        r'<li data-room="(\w+)">.*?<span class="room-no" aria-hidden="true">(\w+)</span>', decide, re.S
    )
    assert [room for room, _ in buttons] == [c["to"] for c in moves]
    assert [mark for _, mark in buttons] == [chr(ord("A") + i) for i in range(len(moves))]
    whole = unescape(client.get(f"/games/{duo.pk}/maiden/panels/map/").content.decode())
    for room, mark in buttons:
        for html in (zoom, whole):
            group = html.split(f'data-room="{room}"', 1)[1].split("</g>", 1)[0]
            assert 'class="no"' in group and f">{mark}</text>" in group
    other = session_client([player, opponent][1 - seat]).get(f"/games/{duo.pk}/maiden/panels/decide/")
    assert "map-zoom" not in other.content.decode()


def test_a_room_chosen_from_a_long_list_is_grouped_by_area_and_named_for_the_map(
    duo: Game, player: Any, opponent: Any
) -> None:
    """An effect that names a room (The Empty Almshouse: an unexplored room becomes a rest room)
    offers some 60 rooms in one list: the list is grouped by area, each choice carries its room
    for the map to mark (maiden.js), and the list is marked as one of rooms."""
    play_until(duo, [player, opponent], lambda v: v["phase"] == "move")
    seat = view(duo, None)["active_seat"]
    screen = maiden_screen.load(duo, [player, opponent][seat])
    assert screen.view is not None and screen.seat == seat
    rooms = [r for r in screen.view["map"]["rooms"] if not r["explored"] and r["type"] != "boss"][:20]
    screen.view["pending"] = [
        {
            "seat": seat,
            "kind": "choose",
            "data": {"for": "effect"},
            "source": "quest:q_empty_almshouse",
            "effect": "room_type",
            "options": [{"room": r["id"]} for r in rooms],
        }
    ]
    screen.legal = [{"kind": "choose", "option": i} for i in range(len(rooms))]
    html = unescape(maiden_screen.render_panel(screen, "decide")[0])
    select = html.split("<select", 1)[1].split("</select>", 1)[0]
    assert " data-rooms>" in select
    assert re.findall(r'data-room="(\w+)"', select) == [
        r["id"] for area in dict.fromkeys(r["area"] for r in rooms) for r in rooms if r["area"] == area
    ]
    areas = [maiden_screen.area_name(a, "en") for a in dict.fromkeys(r["area"] for r in rooms)]
    assert re.findall(r'<optgroup label="([^"]+)">', select) == areas


def test_a_decision_with_one_option_is_one_main_button_naming_it(duo: Game, player: Any, opponent: Any) -> None:
    """An effect with a single target (a duel's one skill, a shard's one boss) still waits for a
    tap (the engine and the recorded commands are unchanged): the panel shows one main button
    naming the option, no list, and says it is the only choice."""
    play_until(duo, [player, opponent], lambda v: v["phase"] == "move")
    seat = view(duo, None)["active_seat"]
    screen = maiden_screen.load(duo, [player, opponent][seat])
    assert screen.view is not None
    skill = next(iter(load().skills))
    screen.view["pending"] = [{"seat": seat, "kind": "choose", "data": {"for": "effect"}, "options": [skill]}]
    screen.legal = [{"kind": "choose", "option": 0}]
    html = unescape(maiden_screen.render_panel(screen, "decide")[0])
    assert "<select" not in html
    buttons = re.findall(r'<button type="submit"[^>]*class="([^"]*)"[^>]*>(.*?)</button>', html, re.S)
    assert len(buttons) == 1
    assert "primary" in buttons[0][0] and maiden_screen.skill_name(skill, "en") in buttons[0][1]
    assert "This is the only choice: confirm it." in html


def test_setup_choices_say_what_a_familiars_skill_and_each_stat_do_MV_SETUP_11(
    duo: Game, player: Any, opponent: Any
) -> None:
    """MV-SETUP-11/13: each familiar on offer shows its skill's timing, condition and effect (not
    only its name), and placing an action card says in one line what each stat does, the guide's
    own line, in English and in Japanese."""
    data = load()
    seat = next(s for s in (0, 1) if any(c["kind"] == "choose_familiar" for c in legal(duo, s)))
    client = session_client([player, opponent][seat])
    html = unescape(client.get(f"/games/{duo.pk}/maiden/panels/decide/").content.decode())
    for command in legal(duo, seat):
        familiar = data.familiars[command["familiar"]]
        for skill_id in familiar.skills:
            skill = data.skills[skill_id]
            assert skill.text["en"] in html
            assert maiden_screen.skill_name(skill_id, "en") in html
    assert re.search(r"<span class=\"cond\">(when moving|before the roll|after the roll|at the result|any time)", html)
    play_until(duo, [player, opponent], lambda v: any(p["kind"] == "place_card" for p in v.get("pending") or []))
    pending = view(duo, None)["pending"][0]
    client = session_client([player, opponent][pending["seat"]])
    for language in ("en", "ja"):
        with translation.override(language):
            lines = maiden_screen.stat_lines(language)
        assert len(lines) == 4 and all(lines.values())
        page = unescape(
            client.get(f"/games/{duo.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        )
        for line in lines.values():
            assert line in page, (language, line)
    assert lines["pie"].startswith("信仰")


def test_the_api_plays_white_maiden_like_fated_labyrinth(duo: Game, player: Any, opponent: Any) -> None:
    """The same JSON API: the caller's view, the legal commands with their digest, a submit, an
    illegal submit refused with its code and nothing changed."""
    api = token_client(player)
    body = api.get(f"/api/v1/games/{duo.pk}").json()
    assert body["view"]["game"] == "maiden" and body["seat"] == 0
    assert body["view"]["legal"] == legal(duo, 0)
    commands = api.get(f"/api/v1/games/{duo.pk}/commands").json()
    assert commands["commands"] == legal(duo, 0)
    version = commands["version"]
    answer = api.post(
        f"/api/v1/games/{duo.pk}/commands",
        {"command": commands["commands"][0], "version": version, "choices": commands["choices"]},
        content_type="application/json",
    )
    assert answer.status_code == 200 and answer.json()["version"] == version + 1
    duo.refresh_from_db()
    before = (duo.version, duo.state)
    refused = api.post(
        f"/api/v1/games/{duo.pk}/commands", {"command": {"kind": "roll"}}, content_type="application/json"
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["code"].startswith("command/")
    stale = api.post(
        f"/api/v1/games/{duo.pk}/commands",
        {"command": legal(duo, 0)[0] if legal(duo, 0) else {"kind": "roll"}, "version": version},
        content_type="application/json",
    )
    assert stale.status_code == 409
    duo.refresh_from_db()
    assert (duo.version, duo.state) == before
    spectator_view = Client().get(f"/api/v1/games/{duo.pk}").json()
    assert spectator_view["seat"] is None and spectator_view["view"]["legal"] == []


def test_a_bot_plays_a_whole_solo_game_on_the_answers_legal_commands(clock: Any, player: Any) -> None:
    """The API's bot loop (docs/api.md): one look at the legal commands, then each command
    decided on the legal commands the previous answer listed, with their ``choices`` digest,
    until the game ends; every answer's list is the seat's legal commands after it."""
    game = maiden_game([player])
    api = token_client(player)
    url = f"/api/v1/games/{game.pk}/commands"
    offered = api.get(url).json()
    chooser = random.Random(3)
    played = 0
    while playable := [c for c in offered["commands"] if c["kind"] not in ("comment", "give_up")]:
        answer = api.post(
            url,
            {"command": chooser.choice(playable), "choices": offered["choices"], "idempotency_key": f"k{played}"},
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.content
        offered = answer.json()
        played += 1
        if played % 25 == 0:
            assert offered["commands"] == legal(game, 0)
        assert played < 5000
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED and offered["commands"] == []
    assert CommandEntry.objects.filter(game=game, source="player").count() == played > 50


def test_the_tab_says_when_a_decision_waits_for_the_player_MV_TURN_1(
    duo: Game, player: Any, opponent: Any, spectator: Any
) -> None:
    """The tab of a player whose decision waits reads "(1) Your decision — Game N — White Maiden"
    with the alert icon (screen.js sets both from the status panel, as on the Fated screen);
    the partner's, a spectator's and a visitor's tab only name the game; in Japanese too."""
    people = clients(player, opponent, spectator)
    game = f"Game {duo.pk} — White Maiden — Delve"
    mine = unescape(people["player"].get(f"/games/{duo.pk}/").content.decode())
    assert f'data-title="(1) Your decision — {game}" data-alert="turn"' in mine
    assert "delve/screen.js" in mine and "delve/alert.svg" in mine
    for who in ("partner", "spectator", "visitor"):
        status = unescape(people[who].get(f"/games/{duo.pk}/maiden/panels/status/").content.decode())
        assert f'data-title="{game}" data-alert=""' in status, who
    # once a decision is Bob's the marks change hands
    play_until(duo, [player, opponent], lambda v: bool(legal(duo, 1)) and not legal(duo, 0))
    status = unescape(people["partner"].get(f"/games/{duo.pk}/maiden/panels/status/").content.decode())
    assert f'data-title="(1) Your decision — {game}" data-alert="turn"' in status
    japanese = session_client(opponent)
    japanese.cookies["django_language"] = "ja"
    answer = japanese.get(f"/games/{duo.pk}/maiden/panels/status/", HTTP_ACCEPT_LANGUAGE="ja")
    status = unescape(answer.content.decode())
    assert f'data-title="(1) あなたの番 — ゲーム{duo.pk} — 白き乙女 — Delve" data-alert="turn"' in status


def test_an_ascended_die_has_a_short_mark_that_fits_under_it_in_japanese_MV_ASC_1(
    duo: Game, player: Any, opponent: Any
) -> None:
    """MV-ASC-1: an ascended pair leaves the pool; each die says so under it. The Japanese word
    (アセンション済) was wider than a die and broke over the die size: the mark under the die is
    the short 使用済, and the die's label for screen readers keeps the full word."""
    play_until(duo, [player, opponent], lambda v: v["phase"] == "post_roll")
    current = state(duo)
    assert current.check is not None
    current.check.dice[0].removed = current.check.dice[1].removed = True
    Game.objects.filter(pk=duo.pk).update(state=engine.ruleset_of(duo).encode(current).decode())
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    html = unescape(client.get(f"/games/{duo.pk}/maiden/panels/dice/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert html.count('<span class="gone" aria-hidden="true">使用済</span>') == 2
    assert html.count("アセンション済") == 2  # in the two dice's labels
    english = unescape(session_client(player).get(f"/games/{duo.pk}/maiden/panels/dice/").content.decode())
    assert english.count('<span class="gone" aria-hidden="true">ascended</span>') == 2


def test_the_screen_reads_in_japanese(duo: Game, player: Any) -> None:
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    html = client.get(f"/games/{duo.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'lang="ja"' in html
    assert "生命の樹" in html  # the map's title
    assert "暁の雌鹿アイェレト" in html  # a familiar's name from the content, in Japanese
    assert "ラウンド" in html


def test_an_ended_game_shows_its_result_its_last_turn_and_why_no_arcana_is_at_hand(clock: Any, player: Any) -> None:
    """MV-ROUND-10, MV-END-2, MV-EXPL-4: after the last turn of round 24 the screen shows the
    result under "Result" (not "Decision"), the turn the game ended on (not one past the round's
    last) and, with areas freed and every Arcana used, that Arcana are discarded once used (not
    "No Arcana yet: free an area")."""
    game = maiden_game([player])
    client = session_client(player)
    fresh = unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert "No Arcana yet: free an area by exploring all its rooms." in fresh
    play_until(game, [player], lambda v: v["phase"] == "move")
    current = state(game)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    play_until(game, [player], lambda v: v["ended"], limit=200)
    ended = state(game)
    assert ended.result == "lost"
    areas = sorted(load().areas)[:2]
    ended.freed, ended.arcana, ended.arcana_used = areas, [], areas
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(ended).decode())
    html = unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert re.search(r'<h2 id="h-decide">Result', html)
    assert "Defeat: the rounds ran out." in html
    assert re.search(r"Turn <strong>3</strong>/3\b", html)  # solo: three turns a round (MV-ROUND-3)
    assert "2 of 22 areas freed" in html
    assert "No Arcana at hand: each Arcana is discarded once used." in html
    assert "No Arcana yet" not in html
    assert "The game is over: no more checks." in html and "No check right now." not in html


@pytest.mark.parametrize(("players", "en", "ja"), [(1, "lost", "敗北"), (2, "everyone lost", "全員の敗北")])
def test_a_lost_white_maiden_game_reads_as_lost_in_the_recently_ended_list(
    clock: Any, player: Any, opponent: Any, players: int, en: str, ja: str
) -> None:
    """MV-END-2, MV-OVER-5: the end of round 24 with Urza alive is a shared loss; the top page's
    "Recently ended" list says so ("everyone lost"), not "no winner" as of a game nobody won."""
    users = [player, opponent][:players]
    game = maiden_game(users)
    play_until(game, users, lambda v: v["phase"] == "move")
    current = state(game)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    play_until(game, users, lambda v: v["ended"], limit=300)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    html = unescape(Client().get("/").content.decode()).split("Recently ended")[1]
    assert re.search(rf"Game {game.pk} — White Maiden[^<]*</a>\s*· {en}\b", html), html[:600]
    assert "no winner" not in html
    japanese = unescape(Client().get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert f"· {ja}" in japanese


def test_a_boss_shows_the_life_it_will_awaken_with_before_its_fight_MV_SPEC_4(duo: Game, player: Any) -> None:
    """MV-SPEC-4: at 2 and 4 players a boss awakens with a third more life (rounded up): the
    bosses panel shows that life before the fight, not the content's base life."""
    from delve.maiden import content as maiden_content

    data = maiden_content.load()
    screen = maiden_screen.load(duo, player)
    for boss in maiden_screen.panel_context(screen, "bosses")["bosses"]:
        base = data.bosses[boss["id"]].life
        assert boss["life"] == boss["life_max"] == base + -(-base // 3), boss["id"]
    solo = maiden_game([player])
    for boss in maiden_screen.panel_context(maiden_screen.load(solo, player), "bosses")["bosses"]:
        assert boss["life"] == data.bosses[boss["id"]].life


def test_the_takeover_panel_is_empty_when_there_is_nothing_to_take_back(duo: Game, player: Any) -> None:
    """The red-bordered banner shows only when a bot plays the reader's seat or a seat may be
    handed over: otherwise its panel is empty (and hidden by :empty)."""
    html = session_client(player).get(f"/games/{duo.pk}/").content.decode()
    assert re.search(r'<section id="panel-takeover"[^>]*></section>', html), "an empty panel, not whitespace"


def test_a_room_has_the_same_name_on_the_buttons_and_in_the_log() -> None:
    """The screen named a room "The World 1", the log "The World, room 1": one name now."""
    from delve.maiden import text as maiden_text

    data = load()
    room = next(r for r in data.rooms.values() if r.type == "normal" and r.area)
    for lang in ("en", "ja"):
        assert maiden_screen.room_label(room.id, lang) == maiden_text.Names(lang, data).room(room.id)
    assert ", room " in maiden_screen.room_label(room.id, "en")


def map_shapes(html: str) -> tuple[list[tuple[str, float, float, float]], list[tuple[str, tuple[float, ...]]]]:
    """The map panel's room shapes and tokens (kind, centre x, y, reach) and its boss names with
    the box each covers (from the SVG's coordinates and the names' estimated widths)."""
    shapes: list[tuple[str, float, float, float]] = []
    for x, y, r in re.findall(r'<circle cx="([\d.-]+)" cy="([\d.-]+)" r="([\d.]+)"/>', html):
        if float(r) > 1:  # a room's circle or a maiden's token (the explored marker is inside its room)
            shapes.append(("circle", float(x), float(y), float(r)))
    for x, y in re.findall(r'<rect x="([\d.-]+)" y="([\d.-]+)" width="6" height="6"', html):
        shapes.append(("diamond", float(x) + 3, float(y) + 3, maiden_screen.BOSS_REACH))
    labels = [
        (
            unescape(text),
            maiden_screen.label_box(float(x), float(y), maiden_screen._label_width(unescape(text)), anchor),
        )
        for anchor, x, y, text in re.findall(
            r'<text class="boss-name anchor-(\w+)" x="([\d.-]+)" y="([\d.-]+)">([^<]*)</text>', html
        )
    ]
    return shapes, labels


def covered(box: tuple[float, ...], kind: str, x: float, y: float, reach: float) -> bool:
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    if kind == "diamond":
        return abs(nx - x) + abs(ny - y) < reach
    return (nx - x) ** 2 + (ny - y) ** 2 < reach**2


@pytest.mark.parametrize("language", ["en", "ja"])
def test_MV_BOSS_1_no_boss_name_on_the_map_covers_a_room_a_token_or_another_name(
    clock: Any, player: Any, opponent: Any, language: str
) -> None:
    """Boss names sat on the rooms below them on every screen (コクマー ♥1/5, Chesed ♥3/3,
    Yesod ♥3/3 behind the maidens' tokens): with every boss in a fight (the longest names, with
    their life) and the maidens in the rooms right under Yesod and Hod, no name's box meets a
    room, a token or another name, and every name is inside the map."""
    from delve.maiden import bosses
    from delve.maiden.ctx import Ctx

    game = maiden_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "move")
    game.refresh_from_db()
    rules: Any = engine.ruleset_of(game)
    current = engine.load_state(game, rules)
    ctx = Ctx(current, current.clock, rules.content)
    for n, boss in enumerate(current.bosses):
        if boss not in current.explored:
            current.explored.append(boss)
        bosses.engage(ctx, current.maidens[n % 2], boss)
    rooms = rules.content.rooms
    for maiden, boss in zip(current.maidens, ("yesod", "hod"), strict=True):
        bx, by = rooms[boss].x, rooms[boss].y
        maiden.room = min((r for r in rooms.values() if r.y > by and abs(r.x - bx) < 0.5), key=lambda r: r.y - by).id
    game.state = rules.encode(current).decode()
    game.version += 1
    game.save()
    client = session_client(player)
    client.cookies["django_language"] = language
    html = client.get(f"/games/{game.pk}/maiden/panels/map/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    shapes, labels = map_shapes(html)
    assert len(labels) == len(current.bosses) and all("♥" in text for text, _ in labels)
    assert sum(shape[0] == "circle" and shape[3] == 1.9 for shape in shapes) == 2  # both tokens drawn
    left, top, right, bottom = maiden_screen.MAP_BOX
    assert re.search(rf'viewBox="{left:g} {top:g} {right - left:g} {bottom - top:g}"', html)
    for text, box in labels:
        assert left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom, text
        hits = [shape for shape in shapes if covered(box, *shape)]
        assert not hits, (text, box, hits)
    for n, (text, box) in enumerate(labels):
        for other, second in labels[n + 1 :]:
            assert box[2] <= second[0] or second[2] <= box[0] or box[3] <= second[1] or second[3] <= box[1], (
                text,
                other,
            )
    # names are drawn last, over the tokens
    assert html.index('class="tokens"') < html.index('class="labels"')


def test_the_end_reloads_the_page_so_the_seed_and_the_replay_show_and_leaving_goes(clock: Any, player: Any) -> None:
    """MV-END-2: the decision that ends the game answers with a reload (HX-Refresh), and so does a
    poll of a page drawn while the game ran: the footer then reveals the seed with the replay and
    export links, and "Leave this game" is gone, with no manual reload. Decisions before the end
    and a page drawn after it refresh their panels only."""

    game = maiden_game([player])
    client = session_client(player)
    play_until(game, [player], lambda v: v["phase"] == "move")
    current = state(game)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    drawn = client.get(f"/games/{game.pk}/").content.decode()
    assert '<input type="hidden" id="game-status" name="status" value="running">' in drawn
    assert "the seed is revealed when the game ends" in drawn and "Leave this game" in drawn
    drawn_version = Game.objects.get(pk=game.pk).version
    answers = []
    for _ in range(200):
        if view(game, None)["ended"]:
            break
        game.refresh_from_db()
        command = first_choice(legal(game, 0))
        answers.append(
            client.post(
                f"/games/{game.pk}/maiden/act/",
                {"command": json.dumps(command), "seat": 0, "version": game.version, "status": "running"},
                HTTP_HX_REQUEST="true",
            )
        )
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert answers[-1]["HX-Refresh"] == "true", "the ending decision reloads the page"
    assert all("HX-Refresh" not in a for a in answers[:-1]), "the others refresh panels"
    poll = client.get(f"/games/{game.pk}/maiden/poll/", {"version": drawn_version, "status": "running"})
    assert poll["HX-Refresh"] == "true", "a page drawn while the game ran reloads"
    again = client.get(f"/games/{game.pk}/maiden/poll/", {"version": drawn_version, "status": "ended"})
    assert "HX-Refresh" not in again
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/replays/{game.pk}/" in page or "Replay step by step" in page
    assert "the seed is revealed when the game ends" not in page and "Leave this game" not in page


def test_MV_SETUP_15_every_player_is_told_anyone_may_choose_who_starts(
    clock: Any, player: Any, opponent: Any, make_user: Any, spectator: Any
) -> None:
    """MV-SETUP-15: the start player is chosen once, for the table, by any one player. Each of
    three players online read "Your decision (any player)" (「あなたの決定（誰か）」) at the
    same moment: each is now asked to choose who starts, with the words that anyone at the table
    may; a spectator reads that the players are choosing."""
    users = [player, opponent, make_user("carol")]
    game = maiden_game(users, start_player="choose")
    assert view(game, None)["pending"][0] == {
        **view(game, None)["pending"][0],
        "kind": "choose_start_player",
        "seat": None,
    }
    for user in users:
        html = unescape(session_client(user).get(f"/games/{game.pk}/maiden/panels/status/").content.decode())
        assert "<strong>Choose who starts (anyone at the table may)</strong>" in html
        assert "Your decision (" not in html and "any player" not in html
        japanese = session_client(user)
        japanese.cookies["django_language"] = "ja"
        ja = unescape(
            japanese.get(f"/games/{game.pk}/maiden/panels/status/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        )
        assert "スタートプレイヤーを決めてください（誰が決めてもよい）" in ja and "あなたの決定（" not in ja
    watching = unescape(session_client(spectator).get(f"/games/{game.pk}/maiden/panels/status/").content.decode())
    assert "The players are choosing the start player: any one of them may decide for the table." in watching


def test_MV_END_2_after_the_end_bosses_show_their_final_state_and_the_result_links_the_replay(
    clock: Any, player: Any
) -> None:
    """MV-END-2: once the game is over no fight goes on. A boss left in a fight was still marked
    "in battle" (戦闘中) with its next action, and its maiden "fighting" it: the boss now reads
    "not defeated" (未撃破), the maiden fights nobody, and the
    Result panel links the replay and the export (they were only in the page's footer)."""
    from django.urls import reverse

    from delve.maiden import bosses
    from delve.maiden.ctx import Ctx

    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "move")
    current = state(game)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    play_until(game, [player], lambda v: v["ended"], limit=200)
    game.refresh_from_db()
    rules: Any = engine.ruleset_of(game)
    ended = engine.load_state(game, rules)
    bosses.engage(Ctx(ended, ended.clock, rules.content), ended.maidens[0], "hod")
    Game.objects.filter(pk=game.pk).update(state=rules.encode(ended).decode())
    assert view(game, None)["ended"]
    for language, undefeated, battle in (("en", "not defeated", "in battle"), ("ja", "未撃破", "戦闘中")):
        client = session_client(player)
        client.cookies["django_language"] = language
        panel = unescape(
            client.get(f"/games/{game.pk}/maiden/panels/bosses/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        )
        assert f'<span class="tag undefeated">{undefeated}</span>' in panel
        assert battle not in panel and 'class="ptr"' not in panel and " open>" not in panel
        maidens = unescape(
            client.get(f"/games/{game.pk}/maiden/panels/maidens/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        )
        assert ("fighting" if language == "en" else "と戦闘中") not in maidens
        result = client.get(f"/games/{game.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        links = re.search(r'<p class="result-links">(.*?)</p>', result, re.S)
        assert links is not None
        assert f'href="{reverse("replays:replay", args=[game.pk])}"' in links[1]
        assert f'href="{reverse("replays:export", args=[game.pk])}" download' in links[1]
    running = maiden_game([player])
    assert (
        'class="result-links"'
        not in session_client(player).get(f"/games/{running.pk}/maiden/panels/decide/").content.decode()
    )


def test_the_check_panel_keeps_the_last_check_until_the_next_one_starts_MV_CHECK_10(duo: Game, player: Any) -> None:
    """MV-CHECK-9, MV-CHECK-10, MV-DEATH-1: once the turn of a check is over (the check is gone
    from the view) the check panel still shows its outcome from the log: who, what, success or
    failure, the damage she took after it and her death, until the next check starts. Damage in a
    later turn is not counted in it."""
    screen = maiden_screen.load(duo, player)
    card = next(iter(load().room_cards))
    name = maiden_screen.pick(load().room_cards[card].name, "en")
    first = screen.name_of(0)
    screen.view = {**(screen.view or {}), "check": None, "ended": False}
    screen.view["log"] = [
        {"time": 1, "kind": "check.started", "data": {"seat": 0, "kind": "room", "source": card, "target": 3}},
        {"time": 1, "kind": "check.rolled", "data": {"seat": 0, "dice": []}},
        {
            "time": 1,
            "kind": "check.resolved",
            "data": {"seat": 0, "ap": 2, "target": 3, "result": "failure", "kind": "room"},
        },
        {"time": 1, "kind": "maiden.damaged", "data": {"seat": 0, "amount": 2, "life": 1, "cause": "failure"}},
        {"time": 1, "kind": "maiden.damaged", "data": {"seat": 0, "amount": 1, "life": 0, "cause": "slate"}},
        {"time": 1, "kind": "maiden.died", "data": {"seat": 0, "deaths": 1}},
        {"time": 1, "kind": "turn.ended", "data": {"seat": 0}},
        {"time": 2, "kind": "turn.started", "data": {"seat": 1}},
        {"time": 2, "kind": "maiden.damaged", "data": {"seat": 0, "amount": 5, "life": 0, "cause": "effect"}},
    ]
    html = unescape(re.sub(r"\s+", " ", maiden_screen.render_panel(screen, "dice")[0]))
    assert "Last check: " in html and name in html and f"{first} checks" in html
    assert "Failure" in html and "(AP 2 against target 3)" in html
    assert f"{first} took 3 damage" in html and f"{first} died" in html
    with translation.override("ja"):  # Japanese: no space after 「：」, full-width brackets
        html = unescape(re.sub(r"\s+", " ", maiden_screen.render_panel(screen, "dice")[0]))
    assert "直前の判定：" in html and "直前の判定： " not in html
    assert "（AP 2／目標値 3）" in html and "(AP" not in html
    screen.view["log"].append({"time": 3, "kind": "check.started", "data": {"seat": 1, "kind": "room", "source": card}})
    html = maiden_screen.render_panel(screen, "dice")[0]
    assert "Last check:" not in html and "No check right now." in html


def test_the_last_check_stays_above_a_check_not_rolled_yet_MV_CHECK_10(duo: Game, player: Any, opponent: Any) -> None:
    """MV-CHECK-10, MV-MOVE-12: a check that starts at once (the next seat's boss fight starts its
    check as her turn begins) no longer hides the result of the check before it: until the new
    check is rolled, the panel shows the last check above it; once rolled, only the new one."""
    users = [player, opponent]
    resolves: list[dict[str, Any]] = []

    def policy(commands: list[dict[str, Any]]) -> dict[str, Any]:
        chosen = first_choice(commands)
        if chosen["kind"] == "resolve":
            resolves.append(chosen)
        return chosen

    public = play_until(duo, users, lambda v: v["phase"] == "pre_roll" and bool(resolves), policy=policy)
    assert not public["ended"] and resolves
    seat = public["active_seat"]
    client = session_client(users[seat])
    dice = unescape(re.sub(r"\s+", " ", client.get(f"/games/{duo.pk}/maiden/panels/dice/").content.decode()))
    assert "Last check: " in dice and 'class="last-check' in dice
    assert dice.index("Last check: ") < dice.index(f"{view(duo, seat)['maidens'][seat]['name']} checks")
    play_until(duo, users, lambda v: v["phase"] == "post_roll")
    seat = view(duo, None)["active_seat"]
    dice = session_client(users[seat]).get(f"/games/{duo.pk}/maiden/panels/dice/").content.decode()
    assert "Last check: " not in dice


def test_dice_odds_and_the_map_hint_read_as_words_in_japanese_and_english_MV_CHECK_4(
    duo: Game, player: Any, opponent: Any
) -> None:
    """MV-CHECK-4/5 (die size by Will, the pool): the Japanese screen names dice as the draft
    does (「8面体サイコロを3個振る」, 「サイコロ：4面体×3」), English keeps d8; the exact chance
    beside the percentage is said in words ("exactly 41 in 50"), not a bare "(1)"; the map's
    hint fits a finger and a mouse; the keyboard link is marked for the touch rule."""
    play_until(duo, [player, opponent], lambda v: v["phase"] == "move")
    seat = view(duo, None)["active_seat"]
    mover = session_client([player, opponent][seat])
    english = unescape(mover.get(f"/games/{duo.pk}/").content.decode())
    assert "tap or click a lit room to move there" in english and "— click" not in english
    assert '<span class="keys-hint">· <a href="#keys">Keyboard</a></span>' in english
    assert '<section class="panel keys-hint" id="keys"' in english
    mover.cookies["django_language"] = "ja"
    japanese = unescape(mover.get(f"/games/{duo.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "光っているルームを選んで移動" in japanese and "クリック" not in japanese
    maiden = view(duo, None)["maidens"][seat]
    assert f"サイコロ：{maiden['die']}面体×{maiden['pool']}・移動力" in japanese
    assert f"Dice: {maiden['pool']} × d{maiden['die']} · MP" in english
    play_until(duo, [player, opponent], lambda v: v["phase"] == "pre_roll")
    public = view(duo, None)
    check, seat = public["check"], public["active_seat"]
    roller = session_client([player, opponent][seat])
    english = unescape(roller.get(f"/games/{duo.pk}/").content.decode())
    roller.cookies["django_language"] = "ja"
    japanese = unescape(roller.get(f"/games/{duo.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    pool = 3 + int(check["white"])
    assert f"{check['size']}面体サイコロを{pool}個振る" in japanese
    assert f"Roll {pool} d{check['size']}" in english
    assert not re.search(r"個のd|× d|\(d\d|d\d+\)", japanese)
    line = re.search(r'<p class="odds-line">.*?</p>', japanese, re.S)
    assert line is not None and "(" not in line.group(0) and "）" not in re.sub(r"<[^>]+>", "", line.group(0))
    exact = re.search(r'data-p="(\d+)/(\d+)"', line.group(0))
    if exact:  # neither certain nor impossible: the fraction in words
        assert f"正確には{exact.group(2)}分の{exact.group(1)}" in line.group(0)
        assert f"exactly {exact.group(1)} in {exact.group(2)}" in english
    with translation.override("ja"):
        from fractions import Fraction

        from delve.server.play.maiden_odds import Chance

        assert Chance(Fraction(41, 50)).exact == "正確には50分の41"
        assert Chance(Fraction(1)).exact == "" and Chance(Fraction(0)).exact == ""


def test_japanese_panels_put_no_space_after_a_full_width_colon_or_before_a_bracket(
    duo: Game, player: Any, opponent: Any
) -> None:
    """Japanese typography on the screen: no space after 「：」 and none before 「（」 (a label's
    colon and an aside are part of the sentence translated, not joined by the template with a
    space), and no half-width square bracket (a skill's condition reads 「ダッシュ」, as the
    draft names the action cards), through the first decisions and checks of a game, in every
    panel."""
    users = [player, opponent]
    clients = []
    for user in users:
        client = session_client(user)
        client.cookies["django_language"] = "ja"
        clients.append(client)
    for phase in ("move", "pre_roll", "post_roll", "move", "pre_roll"):
        play_until(duo, users, lambda v, phase=phase: v["phase"] == phase)
        for client in clients:
            for panel in maiden_screen.PANELS:
                answer = client.get(f"/games/{duo.pk}/maiden/panels/{panel}/", HTTP_ACCEPT_LANGUAGE="ja")
                if answer.status_code != 200:
                    continue
                text = unescape(re.sub(r"<[^>]+>", "", answer.content.decode()))
                assert "： " not in text and " （" not in text, (panel, phase, text)
                # brackets as the draft writes them: a skill's condition in 「」, never [...]
                assert not re.search(r"[\[\]]", text), (panel, phase, text)
                if panel == "maidens":
                    assert re.search(r"Lv 0 「(ダッシュ|ジャンプ|プレイ（祈り）|ガード)」", text), text


def test_japanese_lists_the_maidens_with_a_japanese_comma_to_the_end_of_a_game(
    duo: Game, player: Any, opponent: Any
) -> None:
    """MV-END-2: the end of round 24 with Urza alive is a shared loss. In Japanese every list of
    names reads with 「、」, never an ASCII comma: each panel after the end, the replay's first step
    (who sat down), the end sentence of the replay and of the "has ended" notice (who lost);
    English keeps its comma."""
    from delve.server.notify import triggers
    from delve.server.records.replay import describe

    users = [player, opponent]
    play_until(duo, users, lambda v: v["phase"] == "move")
    current = state(duo)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=duo.pk).update(state=engine.ruleset_of(duo).encode(current).decode())
    play_until(duo, users, lambda v: v["ended"], limit=300)
    duo.refresh_from_db()
    assert duo.status == Game.Status.ENDED
    client = session_client(player)
    client.cookies["django_language"] = "ja"
    for panel in maiden_screen.PANELS:
        answer = client.get(f"/games/{duo.pk}/maiden/panels/{panel}/")
        text = unescape(re.sub(r"<[^>]+>", "", answer.content.decode()))
        assert not re.search(r"[^\x00-\x7f], ", text), (panel, text)
    # the replay's first step; its last and the "has ended" notice say the game's end event
    assert "ゲーム開始：Ann、Bob。" in unescape(client.get(f"/games/{duo.pk}/replay/").content.decode())
    english = session_client(player)
    assert "The game started: Ann and Bob." in unescape(english.get(f"/games/{duo.pk}/replay/").content.decode())
    ended = duo.events.get(kind="game.ended").data
    with translation.override("ja"):
        assert describe(duo, "game.ended", ended, 0, "ja", ["Ann", "Bob"]) == "ゲーム終了：Ann、Bobは敗北。"
    with translation.override("en"):
        assert describe(duo, "game.ended", ended, 0, "en", ["Ann", "Bob"]) == "The game ended: Ann and Bob lost."
    outcome = triggers.ended_words(duo, ended["results"])["outcome"]
    assert outcome == {"en": "Ann and Bob lost.", "ja": "Ann、Bobは敗北。"}


PHONE_ZOOM_WIDTH, PHONE_ZOOM_HEIGHT = 350.0, 352.0  # the zoom's box on a 390 px phone (22rem high at most)


def _move_screen(game: Game, seat: int, destinations: list[str]) -> Any:
    """The screen of ``seat`` in ``game``'s move phase with moves to ``destinations`` (the map's
    drawing reads only the rooms the moves name)."""
    from types import SimpleNamespace

    moves = [{"kind": "move", "to": room} for room in destinations]
    return SimpleNamespace(view=view(game, seat), legal=moves, lang="en", settings={}, seat=seat)


def test_MV_MOVE_1_the_zoom_draws_every_room_at_least_32_px_on_a_phone(clock: Any, player: Any) -> None:
    """MV-MOVE-1 on a phone: a zoom spanning rooms far apart (a long move) drew them about 24 px,
    their tap rings 40 px. The zoom shows at most 44 by 44 map units around the moving maiden's
    room, so a room (4.4 units across) is at least 32 px wide and its tap ring wider; the lit rooms
    beyond it are counted, and the hint says their buttons are in the list. A near move is drawn
    as before, the whole of it."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "move")
    rooms = load().rooms
    here = next(m for m in view(game, 0)["maidens"] if m["seat"] == 0)["room"]
    far = [r.id for r in rooms.values() if r.id != here]
    for destinations in (far, far[:3], [far[0], far[-1]]):
        zoom = maiden_screen._zoom(_move_screen(game, 0, destinations))
        assert zoom is not None
        left, top, width, height = (float(n) for n in zoom["viewbox"].split())
        scale = min(PHONE_ZOOM_WIDTH / width, PHONE_ZOOM_HEIGHT / height)
        assert 2 * 2.2 * scale >= 32 and 2 * maiden_screen.ROOM_HIT * scale >= 44, (zoom["viewbox"], scale)
        hx, hy = rooms[here].x * maiden_screen.MAP_SCALE, rooms[here].y * maiden_screen.MAP_SCALE
        assert left + maiden_screen.ZOOM_PAD <= hx + 0.01 and hx - 0.01 <= left + width - maiden_screen.ZOOM_PAD
        assert top + maiden_screen.ZOOM_PAD <= hy + 0.01 and hy - 0.01 <= top + height - maiden_screen.ZOOM_PAD
        hit = maiden_screen.ROOM_HIT  # a room in view has its whole tap ring inside
        inside = [
            d
            for d in destinations
            if left + hit <= rooms[d].x * maiden_screen.MAP_SCALE <= left + width - hit
            and top + hit <= rooms[d].y * maiden_screen.MAP_SCALE <= top + height - hit
        ]
        assert inside and zoom["outside"] == len(destinations) - len(inside)
    # the whole map's far rooms: some lie beyond, and the panel says so (English and Japanese)
    assert maiden_screen._zoom(_move_screen(game, 0, far))["outside"] > 0
    for lang, says in (("en", "more rooms you can enter lie beyond this view"), ("ja", "この範囲の外にも")):
        with translation.override(lang):
            from django.template.loader import render_to_string

            zoom = maiden_screen._zoom(_move_screen(game, 0, far))
            html = render_to_string(
                "play/maiden/panels/decide.html",
                {"phase": "move", "zoom": zoom, "mp": 3, "s": {"game": game, "legal": [{}]}, "decision": None},
            )
            assert says in html, html


def test_MV_MOVE_1_the_maidens_tokens_cover_no_lit_room_its_letter_or_its_tap_ring(
    clock: Any, player: Any, opponent: Any
) -> None:
    """MV-MOVE-1: the maidens' tokens stood above their room, and the room just above the start
    (4.5 units away) sat under them, its letter hidden, on the map and on the phone's zoom. Every
    token keeps off every other room, off each lit room's letter and, in the zoom, off its tap
    ring; with nothing in the way the tokens stand above their room as before."""
    game = maiden_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "move")
    seat = view(game, 0)["active_seat"]
    maidens = view(game, seat)["maidens"]
    current = state(game)
    for maiden in current.maidens:
        maiden.room = "s"
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    rooms = load().rooms
    lit = ["a22_2", "malkuth"]
    for zoom in (False, True):
        _, _, drawn, _ = maiden_screen._map_parts(_move_screen(game, seat, lit), zoom=zoom)
        tokens = [(float(t["x"]), float(t["y"])) for r in drawn for t in r["tokens"]]
        assert len(tokens) == len(maidens) == 2
        for r in drawn:
            x, y = float(r["x"]), float(r["y"])
            if r["id"] == "s":
                reach = maiden_screen.LETTER_R  # her own room: its S stays in sight
            elif r["json"]:
                reach = maiden_screen.ROOM_HIT if zoom else maiden_screen.room_radius(r)
            else:
                reach = 3.0 if r["boss"] else maiden_screen.room_radius(r)
            for tx, ty in tokens:
                assert (tx - x) ** 2 + (ty - y) ** 2 >= (reach + maiden_screen.TOKEN_R) ** 2 - 1e-6, (
                    zoom,
                    r["id"],
                    tx,
                    ty,
                )
    # nothing near: the row above the room, as ever
    far_room = next(r.id for r in rooms.values() if r.type == "rest" and abs(r.x - 5) > 2)
    for maiden in current.maidens:
        maiden.room = far_room
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    _, _, drawn, _ = maiden_screen._map_parts(_move_screen(game, seat, []))
    room = next(r for r in drawn if r["id"] == far_room)
    neighbours = [
        r
        for r in drawn
        if r is not room and (float(r["x"]) - float(room["x"])) ** 2 + (float(r["y"]) - float(room["y"])) ** 2 < 64
    ]
    if not neighbours:
        assert {float(t["y"]) for t in room["tokens"]} == {round(float(room["y"]) - maiden_screen.TOKEN_RISE, 2)}
