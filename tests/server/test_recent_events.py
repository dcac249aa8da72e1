"""The recent events and private messages of a Fated view come from the event table, not from the
state (FL-INFO-4, FL-INFO-5): the server shows each viewer exactly what an in-process replay of the
same game shows, a state stored with its old copies of the log still loads, and a request decodes
the state once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from delve.fated.ruleset import FatedRuleset
from delve.kernel import Recorder, SeatInfo, get_ruleset
from delve.server.games import bots, engine, present
from delve.server.games.models import Game
from delve.server.games.worker import Worker
from delve.server.records.export import export_game
from delve.server.records.verify import LogEntry, steps, verify
from tests.server.conftest import FakeClock, session_client
from tests.server.fated_kit import bot_table, rewrite, run_worker

pytestmark = pytest.mark.django_db
MINUTE = 60


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in ("ann", "bob", "cid", "dan")]


def bot_game(users: list[Any], clock: FakeClock, passes: int, **settings: Any) -> Game:
    """A Fated Labyrinth game of four bots on a 9x9 maze, played by the worker on the fake clock."""
    return run_worker(bot_table(users, **settings), clock, Worker(name="recent-events-test"), passes)


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per decoding of a Fated state from now on."""
    calls: list[int] = []
    original = FatedRuleset.decode

    def counting(self: FatedRuleset, data: bytes) -> Any:
        calls.append(1)
        return original(self, data)

    monkeypatch.setattr(FatedRuleset, "decode", counting)
    return calls


def replayed(game: Game, now: int) -> tuple[Any, Recorder]:
    """The game replayed in-process from its command log (``verify.steps``, as an export is
    checked) and advanced to ``now``, with a journal fed the ruleset's events only."""
    ruleset = get_ruleset("fated")
    seats = [SeatInfo(s.name, {**s.options, "keep_record": s.keep_record}) for s in game.seats.order_by("index")]
    log = [LogEntry(time=c.time, seat=c.seat, command=c.command) for c in game.commands.order_by("sequence")]
    recorder: Recorder | None = None
    state = None
    for step in steps(ruleset, game.settings, seats, game.seed, game.started_at or 0, log):
        state = step.state
        recorder = recorder or Recorder(ruleset, state)
        recorder.record([e for e in step.events if not engine.own_event(e.kind, e.data)])
    assert recorder is not None and state is not None
    recorder.record(ruleset.advance(state, now))
    return state, recorder


def test_each_viewer_sees_the_recent_events_and_its_messages_from_the_event_table_FL_INFO_4_FL_INFO_5(four, clock):
    """FL-INFO-4, FL-INFO-5: the JSON API's view of every seat and of a spectator holds the same
    recent events (public, newest first, 50 at most, from the game's start) and the same private
    messages as an in-process replay of the game, including the events of the clock advance the
    request itself makes; the server's own events (game start, standing orders) are not among
    them."""
    game = bot_game(four, clock, passes=30, event_log_size=12)
    clock.tick(7 * MINUTE)  # the view advances the clock in memory: its events are shown too
    state, recorder = replayed(game, clock.t)
    logs = set()
    for seat in (None, 0, 1, 2, 3):
        client = Client() if seat is None else session_client(four[seat])
        shown = client.get(f"/api/v1/games/{game.pk}").json()["view"]
        expected = json.loads(json.dumps(recorder.view(state, seat)))
        assert shown == expected, seat
        assert len(shown["events"]) == 12
        logs.add(json.dumps(shown["events"]))
        if seat is not None:
            messages = shown["you"]["messages"]
            assert messages and all(m["kind"] not in ("order.fired",) for m in messages)
    assert len(logs) == 1, "the log is the same for every viewer"
    assert b'"log"' not in game.state.encode() and b'"messages"' not in game.state.encode()


def test_a_short_game_log_begins_with_the_start_FL_INFO_4(four, clock):
    """FL-INFO-4: while fewer events than the log holds have happened, the log ends (oldest) with
    the engine's own start line, with the number of players."""
    game = bot_game(four, clock, passes=1)
    events = Client().get(f"/api/v1/games/{game.pk}").json()["view"]["events"]
    assert events[-1] == {"kind": "game.started", "time": game.started_at, "players": 4}
    assert [e["kind"] for e in events].count("game.started") == 1


def old_format(game: Game, state: Any, recorder: Recorder) -> str:
    """The game's state as it was stored before the state stopped keeping copies of the events:
    a ``log`` of the public events and each player's ``messages`` (``[time, kind, data]``)."""
    plain = json.loads(game.state)
    journal = recorder.journal
    assert journal is not None
    view = recorder.view(state, 0)

    def entries(shown: list[dict[str, Any]]) -> list[list[Any]]:
        return [[e["time"], e["kind"], {k: v for k, v in e.items() if k not in ("time", "kind")}] for e in shown]

    plain["log"] = entries(list(reversed(view["events"])))
    for seat, player in enumerate(plain["players"]):
        player["messages"] = entries(list(reversed(recorder.view(state, seat)["you"]["messages"])))
    return json.dumps(plain)


def test_a_state_stored_with_its_own_log_and_messages_still_loads_and_the_next_save_drops_them(four, clock):
    """A game saved before the change (its state with ``log`` and ``messages``) shows the same view,
    takes commands, and is saved without them; an export of such a game verifies."""
    game = bot_game(four, clock, passes=12)
    state, recorder = replayed(game, clock.t)
    before = present.caller_view(game, 1)
    Game.objects.filter(pk=game.pk).update(state=old_format(game, state, recorder))
    game.refresh_from_db()
    assert b'"messages"' in game.state.encode()
    assert present.caller_view(game, 1) == before
    clock.tick(1)
    for user in four:
        engine.submit(game.pk, user, {"kind": "give_up"})
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
    assert game.status == Game.Status.ENDED
    assert b'"messages"' not in game.state.encode() and b'"log"' not in game.state.encode()
    Game.objects.filter(pk=game.pk).update(state=old_format(game, *replayed(game, clock.t)))
    game.refresh_from_db()
    verdict = verify(json.loads(json.dumps(export_game(game))))
    assert verdict.ok, verdict.problems


def test_a_request_decodes_the_state_once(four, clock, decoded):
    """The game page, the API's view and the generic page's helpers decode the stored state once
    per request (the view, the legal commands, the opening check and the outcome share it)."""
    game = bot_game(four, clock, passes=3)
    decoded.clear()
    client = session_client(four[0])
    pages = ("", "panels/events/", "poll/?force=1")
    for url in [f"/api/v1/games/{game.pk}", *(f"/games/{game.pk}/{page}" for page in pages)]:
        decoded.clear()
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        assert len(decoded) == 1, url


def test_the_bot_worker_decodes_the_state_once_per_bot_command(four, clock, decoded):
    """A bot decides on the state the worker decoded, and the command it submits goes on with
    that state (no second decoding while the game has not moved meanwhile)."""
    game = bot_game(four, clock, passes=2)
    clock.tick(30 * MINUTE)
    decoded.clear()
    before = game.commands.count()
    played = bots.play_once(game.pk)
    assert played >= 1
    assert game.commands.count() == before + played
    assert len(decoded) == 4, "one decoding per bot seat looked at, none more for its command"


def test_opening_the_screen_with_a_stored_turn_decodes_the_state_once_FL_TURN_8(four, clock, decoded):
    """FL-TURN-8: opening the game with a stored turn starts it; the state looked at to decide
    that is the one the command goes on with (the game did not move meanwhile)."""
    game = bot_game(four, clock, passes=1)

    def waiting(game: Game) -> list[int]:
        return [p.seat for p in engine.load_state(game).players if p.alive and p.phase in ("wait", "ready")]

    # the game's seed is random: play on until some seat is between turns
    run_worker(game, clock, Worker(name="recent-events-test"), 100, tick=MINUTE, until=waiting)
    assert waiting(game), "no seat came between turns"
    seat = waiting(game)[0]
    rewrite(game, lambda scenario: scenario.make_ready(seat))
    clock.tick(1)
    decoded.clear()
    answer = engine.open_game(game.pk, four[seat])
    assert answer is not None
    assert len(decoded) == 1
    game.refresh_from_db()
    assert engine.load_state(game).players[seat].phase != "ready"


EXPORTS = Path(__file__).parent / "exports"


def test_an_export_made_when_the_state_kept_its_log_still_verifies():
    """``exports/fated-state-with-its-log.json`` was made (by ``exports/make_fated_export.py``) by
    the engine that still kept the log and messages in the state: its final-state hash is that
    format's, and ``delve verify`` still confirms it; a wrong hash is still refused."""
    export = json.loads((EXPORTS / "fated-state-with-its-log.json").read_text())
    verdict = verify(export)
    assert verdict.ok, verdict.problems
    assert export["final_state_sha256"][:16] in verdict.summary
    forged = {**export, "final_state_sha256": "0" * 64}
    assert not verify(forged).ok
