"""The replay of a White Maiden game draws the board at each step with the game screen's own
panels (round and danger, the map with the maidens on it, the check, the maidens, the bosses), as
a spectator saw it then: the same panels the spectator's screen showed at that moment, nothing
hidden in them, read-only, in Japanese too; the whole state stays below, collapsed."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.play.maiden_screen import REPLAY_PANELS, room_label
from tests.server.conftest import session_client
from tests.server.maiden_kit import first_choice, maiden_game, play_until, state, view
from tests.server.test_maiden_screen import hidden_names

pytestmark = pytest.mark.django_db


def panel(html: str, name: str) -> str:
    found = re.search(rf'<section id="panel-{name}".*?</section>', html, re.S)
    assert found is not None, name
    return found[0]


def board(page: str) -> str:
    """The replay page's board: from its region to the step buttons under it."""
    found = re.search(
        r'<div class="maiden replay-board".*?(?=<nav class="replay-steps"|<section class="game">)', page, re.S
    )
    assert found is not None
    return found[0]


def moment(game: Game, spectator: Client) -> dict[str, Any]:
    """What the spectator's screen showed now, with the step of the replay that is this moment."""
    game.refresh_from_db()
    return {
        "step": game.commands.count(),
        "view": view(game, None),
        "hidden": hidden_names(game),
        "panels": {
            name: spectator.get(f"/games/{game.pk}/maiden/panels/{name}/").content.decode() for name in REPLAY_PANELS
        },
    }


@pytest.fixture
def played(clock: Any, player: Any, opponent: Any, spectator: Any) -> tuple[Game, list[dict[str, Any]]]:
    """A finished two-maiden game and what the spectator saw at two moments of it: the first move
    of the game, a rolled check, and later, in round 2 or after, once a maiden has lost life."""
    users = [player, opponent]
    watcher = session_client(spectator)
    game = maiden_game(users)
    play_until(game, users, lambda v: v["phase"] == "move")
    moments = [moment(game, watcher)]
    play_until(game, users, lambda v: v["phase"] == "post_roll")  # a check rolled: the dice panel
    moments.append(moment(game, watcher))
    assert moments[-1]["view"]["check"]["rolled"]
    play_until(
        game,
        users,
        lambda v: v["round"] >= 2 and v["phase"] == "move" and any(m["life"] < m["life_max"] for m in v["maidens"]),
    )
    moments.append(moment(game, watcher))
    # to the end quickly: the last round (an edit that is not in the log, after the steps looked at)
    current = state(game)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    play_until(game, users, lambda v: v["ended"], limit=300, policy=first_choice)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    return game, moments


def test_a_replay_step_shows_the_board_the_spectator_saw_at_that_moment(
    played: tuple[Game, list[dict[str, Any]]],
) -> None:
    """MV-TURN-1 (everyone sees whose turn it is), contract "View": each step's board is the
    spectator's own status, map, dice, maidens and bosses panels of that moment."""
    game, moments = played
    for seen in moments:
        page = Client().get(f"/games/{game.pk}/replay/?step={seen['step']}")
        assert page.status_code == 200
        html = page.content.decode()
        for name in ("status", "map", "dice", "maidens", "bosses"):
            shown, then = panel(html, name), panel(seen["panels"][name], name)
            if name == "map":  # the replay's legend leaves out "you can move here" (nobody moves in it)
                shown, then = (re.search(r"<svg.*</svg>", part, re.S)[0] for part in (shown, then))  # type: ignore[index]
            assert shown == then, (seen["step"], name)


def test_two_steps_show_where_each_maiden_was_her_life_the_bosses_and_the_round(
    played: tuple[Game, list[dict[str, Any]]],
) -> None:
    game, moments = played
    boards = []
    for seen in moments:
        public = seen["view"]
        text = unescape(board(Client().get(f"/games/{game.pk}/replay/?step={seen['step']}").content.decode()))
        assert f"Round <strong>{public['round']}</strong>/{public['rounds']}" in text
        assert f"Danger <strong>{public['danger_level']}</strong>" in text
        for maiden in public["maidens"]:
            card = re.search(rf'<article class="maiden-card seat-{maiden["seat"]}.*?</article>', text, re.S)
            assert card is not None
            assert f"{maiden['life']}/{maiden['life_max']}</span>" in card[0]
            assert f'<p class="where">{room_label(maiden["room"], "en")}' in card[0]
            # her token on the map, in her room
            room = re.search(rf'<g class="room[^"]*" data-room="{maiden["room"]}"[^>]*>', text)
            assert room is not None and f"{maiden['name']} is here" in room[0]
        for boss in public["bosses"]:
            assert boss["name"]["en"] in text
        boards.append(text)
    first, later = moments[0]["view"], moments[-1]["view"]
    assert later["round"] > first["round"]
    assert [m["life"] for m in later["maidens"]] != [m["life"] for m in first["maidens"]]
    assert boards[0] != boards[-1]


def test_the_replay_board_shows_nothing_hidden_and_offers_no_command(played: tuple[Game, list[dict[str, Any]]]) -> None:
    """Contract "View": the undrawn cards, the quests set aside and the RNG are in the whole state
    (collapsed, below) but never on the board; no button, form or poll on the board."""
    game, moments = played
    for seen in moments:
        page = unescape(Client().get(f"/games/{game.pk}/replay/?step={seen['step']}").content.decode())
        shown = board(page)
        assert seen["hidden"]
        leaked = sorted(name for name in seen["hidden"] if name in shown)
        assert not leaked, (seen["step"], leaked[:5])
        assert '"rng"' not in shown and '"rng"' in page  # the whole state keeps it, collapsed
        assert re.search(r'<details class="state"><summary>', page)
        assert "<form" not in shown and "<button" not in shown and "data-command" not in shown
        assert "hx-" not in shown and "countdown" not in shown
        assert '<g class="passages"></g>' in shown  # no passage a spectator does not know


def test_the_replay_board_speaks_japanese(played: tuple[Game, list[dict[str, Any]]]) -> None:
    game, moments = played
    seen = moments[-1]
    client = Client()
    client.cookies["django_language"] = "ja"
    shown = unescape(board(client.get(f"/games/{game.pk}/replay/?step={seen['step']}").content.decode()))
    assert "このステップの盤面" in shown and "生命の樹" in shown and "乙女たち" in shown and "ボス" in shown
    assert f"ラウンド <strong>{seen['view']['round']}</strong>" in shown
    with translation.override("ja"):
        for maiden in seen["view"]["maidens"]:
            assert room_label(maiden["room"], "ja") in shown
    assert "Round" not in shown and "The Tree of Life" not in shown


def test_a_running_game_still_has_no_replay(clock: Any, player: Any, opponent: Any) -> None:
    """The board is drawn only where the replay is open: after the end."""
    game = maiden_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "move")
    page = Client().get(f"/games/{game.pk}/replay/?step=1")
    assert page.status_code == 404 and "replay-board" not in page.content.decode()


def test_a_seat_a_bot_took_over_later_is_not_marked_a_bot_at_the_steps_before(
    clock: Any, player: Any, opponent: Any
) -> None:
    """The maidens panel marks a seat "bot (took over)" only from the step the bot took it over:
    before it, its player played it."""
    from delve.server.games import bots
    from delve.server.games.worker import Worker
    from tests.server.maiden_kit import legal

    users = [player, opponent]
    game = maiden_game(users)
    Game.objects.filter(pk=game.pk).update(bot_takeover_after=3600)
    play_until(game, users, lambda v: v["phase"] == "move" and v["active_seat"] == 1)  # Bob keeps it waiting
    before = game.commands.count()
    clock.tick(2 * 3600)
    assert bots.take_over_idle(clock()) == 1
    took_over = game.commands.count()
    assert game.seats.get(user=opponent).bot_since == clock()
    current = state(game)  # to the end quickly: the last round (after the steps looked at)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    worker = Worker(name="replay-bots")
    for _ in range(600):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        commands = legal(game, 0)
        if commands:
            engine.submit(game.pk, player, first_choice(commands))
        else:
            clock.tick(60)
            worker.run_once()
            worker.run_bots()
    assert game.status == Game.Status.ENDED

    def bob(step: int) -> str:
        page = Client().get(f"/games/{game.pk}/replay/?step={step}").content.decode()
        card = re.search(r'<article class="maiden-card seat-1.*?</article>', board(page), re.S)
        assert card is not None
        return card[0]

    assert "bot (took over)" not in bob(before)
    assert "bot (took over)" in bob(took_over)


def test_the_steps_are_offered_again_under_the_board(played: tuple[Game, list[dict[str, Any]]]) -> None:
    """The board makes a step's page long (on a phone a whole scroll): the step buttons come again
    under it, the same links, so the next step is a tap away wherever the reader is."""
    game, moments = played
    step = moments[1]["step"]
    html = Client().get(f"/games/{game.pk}/replay/?step={step}").content.decode()
    navs = re.findall(r'<nav class="replay-steps".*?</nav>', html, re.S)
    assert len(navs) == 2 and navs[0] == navs[1]
    assert f'href="?step={step + 1}" rel="next"' in navs[1]
    assert html.index(navs[1], html.index('id="h-replay-board"')) > html.index('id="panel-maidens"')
