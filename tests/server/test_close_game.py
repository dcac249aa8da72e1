"""An operator ends a running game (``delve close``, the admin's *Close selected games*): the game
ends through the same end every game has (the ruleset's end with no winner, FL-WIN-7 / AMB-51's
"no winner" in Fated Labyrinth and Level D, MV-OVER-5's shared result in White Maiden; the
server's ``game.ended``, records written once), its history stays (log, replay, an export that
``delve verify`` accepts), and the players read the operator's reason in the game's log, on the
screen and in the "has ended" notice. Before, the admin offered only deleting the game (its
history gone) or opening a new one."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from html import unescape
from typing import Any

import pytest
from django.core import mail

from delve import cli
from delve.kernel import get_ruleset
from delve.server.games import engine
from delve.server.games.errors import Rejected
from delve.server.games.models import CommandEntry, Game
from delve.server.notify import text, triggers
from delve.server.records.export import export_game
from delve.server.records.models import Record
from delve.server.records.verify import verify
from tests.server.conftest import session_client
from tests.server.fated_kit import fated_game
from tests.server.maiden_kit import maiden_game, play_until
from tests.server.notify_kit import step

pytestmark = pytest.mark.django_db

REASON = "The server moves to a new machine tonight"


@pytest.fixture
def four(make_user: Any) -> list[Any]:
    return [make_user(name, email=f"{name}@example.org") for name in ("aki", "ben", "chie", "dan")]


def page(client: Any, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return unescape(response.content.decode())


def closes_like_an_end(game: Game) -> dict[str, Any]:
    """What every closed game has: ended once with its clock stopped, the server's events in
    order, a command-log entry of source ``close`` carrying the reason, commands refused, and an
    export that replays to the same events and final state."""
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED and game.ended_at is not None and game.next_due_at is None
    kinds = list(game.events.order_by("sequence").values_list("kind", flat=True))
    assert kinds[-1] == "game.ended" and "game.closed" in kinds
    closed = game.events.get(kind="game.closed")
    assert closed.data == {"reason": REASON} and closed.visibility == "*"
    entry = CommandEntry.objects.get(game=game, source="close")
    assert entry.seat is None and entry.command == {"kind": "close", "reason": REASON}
    assert entry.sequence == game.version
    export = export_game(game)
    verdict = verify(export)
    assert verdict.ok, verdict.problems
    outcome = get_ruleset(game.ruleset).outcome(engine.load_state(game))
    assert outcome.ended and outcome.winners == ()
    return export


def test_closing_a_fated_labyrinth_game_ends_it_with_no_winner_FL_WIN_7_AMB_51(clock, four):
    """FL-WIN-7, AMB-51: the game ends as a game with no winner ends (the ruleset's end, kind
    ``closed``): the seats still inside are ``closed`` (a record that is neither a win nor a loss),
    one who gave up before keeps ``abandoned`` (FL-ABN-5). Both logs, the ending banner and the
    replay tell the reason; nothing more can be played."""
    game = fated_game(four)
    engine.submit(game.pk, four[3], {"kind": "give_up"})  # FL-ABN-4: seat 3 leaves first
    clock.tick(600)
    engine.close(game.pk, REASON)
    export = closes_like_an_end(game)
    ended = [e for e in export["events"] if e["kind"] == "game.ended"]
    assert ended[0]["data"] == {"winner": None, "kind": "closed"}  # the ruleset's end (death.end_game)
    assert ended[-1]["data"] == {
        "winners": [],
        "results": {"0": "closed", "1": "closed", "2": "closed", "3": "abandoned"},
    }
    records = {r.character_name: (r.result, r.won) for r in Record.objects.filter(game=game)}
    assert records == {
        "Aki": ("closed", False),
        "Ben": ("closed", False),
        "Chie": ("closed", False),
        "Dan": ("abandoned", False),
    }
    with pytest.raises(Rejected) as refused:
        engine.submit(game.pk, four[0], {"kind": "give_up"})
    assert refused.value.code == "game/ended"

    client = session_client(four[0])
    screen = page(client, f"/games/{game.pk}/")
    assert "An operator closed the game before its end: nobody won." in screen
    assert f"The operator's reason: {REASON}" in screen
    assert f"An operator closed the game: {REASON}" in page(client, f"/games/{game.pk}/log/")
    replay = page(client, f"/games/{game.pk}/replay/?step={len(export['commands'])}")
    assert f"An operator closed the game: {REASON}" in replay and "An operator closed the game." in replay
    assert "Closed by an operator (no result)" in page(client, "/records/")


def test_closing_a_level_d_game_from_the_command_line(clock, four):
    """``delve close GAME --reason ...``: one line per game, status 0; the Level D screen tells
    the end in its own words, in Japanese too (運営者, the spec's word for the operator)."""
    game = fated_game(four, preset="level-d", players=4)
    clock.tick(60)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(["close", str(game.pk), "--reason", REASON])
    assert status == 0, err.getvalue()
    assert out.getvalue().strip() == f"game {game.pk} closed: the players read “{REASON}”"
    closes_like_an_end(game)
    client = session_client(four[1])
    client.cookies["django_language"] = "ja"
    screen = page(client, f"/games/{game.pk}/")
    assert "運営者がゲームを途中で終了しました。勝者はいません。" in screen
    assert f"運営者からの理由：{REASON}" in screen


def test_closing_a_white_maiden_game_from_the_admin_MV_OVER_5(clock, make_user, staff):
    """MV-OVER-5 has a shared win or a shared loss; a closed game has neither: every seat's
    result is ``closed``. The admin's action asks for the reason first, then closes the running
    games it was given and leaves the others as they are, saying so."""
    ann, bo = make_user("ann"), make_user("bo")
    game = maiden_game([ann, bo])
    play_until(game, [ann, bo], lambda public: public["phase"] != "setup")
    waiting = engine.create_game("maiden", "white-maiden", {"players": 2})
    admin = session_client(staff)
    chosen = {"action": "close_games", "_selected_action": [str(game.pk), str(waiting.pk)]}
    asked = admin.post("/admin/games/game/", chosen)
    assert asked.status_code == 200 and "Reason the players read" in unescape(asked.content.decode())
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING, "asking for the reason closes nothing"
    blank = admin.post("/admin/games/game/", {**chosen, "apply": "1", "reason": "  "})
    assert blank.status_code == 200 and "This field is required." in unescape(blank.content.decode())
    done = admin.post("/admin/games/game/", {**chosen, "apply": "1", "reason": REASON}, follow=True)
    said = unescape(done.content.decode())
    assert f"Game {game.pk} is closed." in said and "has not started" in said
    export = closes_like_an_end(game)
    assert export["events"][-1]["data"] == {"winners": [], "results": {"0": "closed", "1": "closed"}}
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.OPEN
    assert set(Record.objects.filter(game=game).values_list("result", flat=True)) == {"closed"}

    screen = page(session_client(ann), f"/games/{game.pk}/")
    assert "An operator closed the game before its end: nobody won." in screen
    assert f"The operator's reason: {REASON}" in screen
    assert f"An operator closed the game: {REASON}" in screen  # the log panel


def test_the_lobby_says_a_closed_game_was_closed_and_why_in_every_ruleset_FL_WIN_7_MV_OVER_5(clock, four):
    """FL-WIN-7, MV-OVER-5: the top page's "Recently ended" list said "no winner" of a game an
    operator closed (``delve close GAME --reason``), as of a game that ended by its rules with
    nobody winning. A closed Fated Labyrinth, Level D and White Maiden game each says it was
    closed by an operator, with the reason, in English and Japanese; a game that ended by its
    rules reads as before."""
    fated = fated_game(four)
    level_d = fated_game(four, preset="level-d", players=4)
    maiden = maiden_game(four[:2])
    play_until(maiden, four[:2], lambda public: public["phase"] != "setup")
    clock.tick(60)
    long = "A test table of White Maiden, " * 6  # a long reason is cut short, its end marked
    for pk, reason in ((fated.pk, REASON), (level_d.pk, "Level D  maintenance"), (maiden.pk, long)):
        engine.close(pk, reason)
    shown = {fated.pk: REASON, level_d.pk: "Level D maintenance", maiden.pk: long.strip()[:119].rstrip() + "…"}
    for lang, said, colon in (("en", "closed by an operator", ": "), ("ja", "運営者により終了", "：")):
        client = session_client(four[0])
        client.cookies["django_language"] = lang
        html = page(client, "/")
        ended = html.split("Recently ended" if lang == "en" else "最近終わったゲーム")[1].split("</ul>")[0]
        items = re.findall(r"<li>(.*?)</li>", ended, re.S)
        for pk, reason in shown.items():
            item = next(i for i in items if f"/games/{pk}/" in i)
            assert f" · {said}{colon}{reason}" in item, item
            assert "no winner" not in item and "勝者なし" not in item, item


def test_the_has_ended_notice_tells_the_operators_reason(clock, four):
    game = fated_game(four)
    step()
    clock.tick(60)
    engine.close(game.pk, REASON)
    step()
    [english] = [m for m in mail.outbox if "aki@example.org" in m.to and "has ended" in m.subject]
    assert "An operator closed the game before its end: nobody won." in english.body
    assert f"The reason: {REASON}." in english.body
    assert "You played Aki: the game was closed before its end." in english.body
    game.refresh_from_db()
    data = next(d for seat, kind, _key, _at, d in triggers.find(game, clock.t).events if kind == "ended")
    _subject, japanese = text.render("ended", data, "ja")
    assert f"理由：{REASON}。" in japanese and "途中で終了となりました" in japanese


def test_closing_is_refused_for_a_game_not_running_and_for_a_reason_that_is_no_line(clock, four, make_user):
    open_game = engine.create_game("fated", "level-d", {"players": 4, "maze_size": 9})
    with pytest.raises(Rejected) as refused:
        engine.close(open_game.pk, REASON)
    assert refused.value.status == 409 and "has not started" in refused.value.message
    game = fated_game(four)
    for bad in ("", "   ", "two\nlines", "x" * (engine.REASON_MAX + 1), None):
        with pytest.raises(Rejected) as refused:
            engine.close(game.pk, bad)  # type: ignore[arg-type]
        assert refused.value.code == "request/malformed"
    engine.close(game.pk, REASON)
    with pytest.raises(Rejected) as refused:
        engine.close(game.pk, "again")
    assert refused.value.status == 409 and "already ended" in refused.value.message
    with pytest.raises(Rejected) as refused:
        engine.close(999_999, REASON)
    assert refused.value.status == 404
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        status = cli.main(["close", str(game.pk), str(open_game.pk), "--reason", REASON])
    assert status == 1
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("delve close: game ") for line in lines)
