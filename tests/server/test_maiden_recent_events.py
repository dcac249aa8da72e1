"""White Maiden's recent-events log comes from the event table, not from the state: the server's
views (the JSON API, the board screen's "What happened" panel) show every persona the log the state
used to keep (the newest 30 public events, oldest first, from the start player the setup fixed,
MV-SETUP-16), including the events of the clock advance a request makes; a state stored with its
own log still loads, shows the same and is saved without it; exports made when the state kept its
log still verify; the change counters move when a public event is saved.

(The White Maiden rules name no rule for the log: it is the view contract's ``log``.)
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from delve.kernel import Event, Recorder, SeatInfo, get_ruleset, plain_hash
from delve.maiden import journal
from delve.server.games import engine, present
from delve.server.games.engine import _observe
from delve.server.games.models import Game
from delve.server.records.verify import LogEntry, steps, verify
from tests.server.conftest import FakeClock, session_client
from tests.server.maiden_kit import first_choice, legal, maiden_game, play_until

pytestmark = pytest.mark.django_db
HOUR = 3600
EXPORTS = Path(__file__).parent / "exports"


@pytest.fixture
def duo(clock: FakeClock, player: Any, opponent: Any) -> Game:
    """Two maidens, a one-hour turn deadline (the autopilot plays a seat that lets it pass)."""
    return maiden_game([player, opponent], turn_deadline_hours=1)


def table_log(game: Game) -> list[dict[str, Any]]:
    """The log as the state kept it, made here from the event table: the setup's start player (at
    the start, seat 0 as the test game's settings fix it) and then every event the ruleset wrote,
    the newest 30, oldest first."""
    rows = game.events.order_by("sequence")
    entries = [{"time": game.started_at, "kind": "setup.start_player", "data": {"seat": 0, "chosen": True}}]
    entries += [{"time": e.time, "kind": e.kind, "data": e.data} for e in rows if not engine.own_event(e.kind, e.data)]
    return entries[-30:]


def replayed(game: Game, now: int) -> tuple[Any, Recorder, list[Event]]:
    """The game replayed in-process from its command log (as an export is checked) and advanced
    to ``now``, with a journal fed the ruleset's events (and those events)."""
    ruleset = get_ruleset("maiden")
    seats = [SeatInfo(s.name, dict(s.options)) for s in game.seats.filter(index__isnull=False).order_by("index")]
    log = [LogEntry(time=c.time, seat=c.seat, command=c.command) for c in game.commands.order_by("sequence")]
    recorder: Recorder | None = None
    own: list[Event] = []
    state = None
    for step in steps(ruleset, game.settings, seats, game.seed, game.started_at or 0, log):
        state = step.state
        recorder = recorder or Recorder(ruleset, state)
        own += recorder.record([e for e in step.events if not engine.own_event(e.kind, e.data)])
    assert recorder is not None and state is not None
    own += recorder.record(ruleset.advance(state, now))
    return state, recorder, own


def api_log(client: Client, game: Game) -> list[dict[str, Any]]:
    return client.get(f"/api/v1/games/{game.pk}").json()["view"]["log"]  # type: ignore[no-any-return]


def panel_lines(client: Client, game: Game) -> list[str]:
    html = client.get(f"/games/{game.pk}/maiden/panels/log/").content.decode()
    return [unescape(re.sub(r"<[^>]+>", "", line)) for line in re.findall(r'<li class="ev-[^"]*">(.*?)</li>', html)]


def test_right_after_the_start_the_log_holds_the_start_player_the_setup_fixed_mv_setup_16(
    duo: Game, player: Any, spectator: Any
) -> None:
    """MV-SETUP-16: the setup returns no events, yet the log (API and screen) begins with the
    start player it fixed, at the game's start, for a player and a spectator alike."""
    start = {"time": duo.started_at, "kind": "setup.start_player", "data": {"seat": 0, "chosen": True}}
    for client in (session_client(player), session_client(spectator), Client()):
        assert api_log(client, duo) == [start]
        lines = panel_lines(client, duo)
        assert len(lines) == 1 and "Ann" in lines[0], lines
    assert b'"log"' not in duo.state.encode()


def test_every_persona_sees_the_log_the_state_kept_from_the_event_table(
    duo: Game, clock: FakeClock, player: Any, opponent: Any, spectator: Any
) -> None:
    """The log every persona gets from the API is the newest 30 of the ruleset's events in the
    event table, oldest first, from the setup's start player on (what the state used to keep),
    the same for everyone; the screen's panel shows as many lines, newest first."""
    users = [player, opponent]
    play_until(duo, users, lambda view: view["round"] >= 2)
    duo.refresh_from_db()
    expected = table_log(duo)
    assert len(expected) == 30 and expected[0]["kind"] != "setup.start_player"
    for client in (session_client(player), session_client(opponent), session_client(spectator), Client()):
        assert api_log(client, duo) == expected
        lines = panel_lines(client, duo)
        assert len(lines) == 30 and all(lines)
    assert b'"log"' not in duo.state.encode()


def test_the_log_holds_the_events_of_the_advance_the_request_makes(
    duo: Game, clock: FakeClock, player: Any, opponent: Any, spectator: Any
) -> None:
    """A view made after a turn deadline passed shows the autopilot's events (not saved yet): the
    same log as an in-process replay of the game advanced to now, for every persona."""
    play_until(duo, [player, opponent], lambda view: view["phase"] == "move")
    clock.tick(3 * HOUR)
    duo.refresh_from_db()
    state, recorder, _ = replayed(duo, clock.t)
    expected = json.loads(json.dumps(recorder.view(state, None)["log"]))
    assert any(e["kind"] == "turn.autoplayed" for e in expected)
    for client in (session_client(player), session_client(opponent), session_client(spectator)):
        assert api_log(client, duo) == expected


def old_format(game: Game) -> str:
    """The game's stored state as the engine that kept the log in it stored it: no ``t0``, a
    ``log`` of the newest ``event_log_size`` (60) public events, ``[time, kind, data]``."""
    plain = json.loads(game.state)
    del plain["t0"]
    start = [game.started_at, "setup.start_player", {"seat": 0, "chosen": True}]
    rows = game.events.order_by("sequence")
    entries = [start] + [[e.time, e.kind, e.data] for e in rows if not engine.own_event(e.kind, e.data)]
    plain["log"] = entries[-60:]
    return json.dumps(plain)


@pytest.mark.parametrize("rounds", [0, 2])
def test_a_state_stored_with_its_log_still_loads_shows_the_same_and_is_saved_without_it(
    duo: Game, clock: FakeClock, player: Any, opponent: Any, rounds: int
) -> None:
    """A game saved before the change (its state with ``log``, without ``t0``) shows the same
    views, takes commands and is saved without its log: early on (the log still begins with the
    setup's start player) with the setup's time as ``t0``; later (the log no longer reaches back
    to it) with ``t0`` unknown (-1), its views still the same."""
    users = [player, opponent]
    play_until(duo, users, lambda view: view["round"] > rounds and view["phase"] == "move")
    duo.refresh_from_db()
    before = {seat: present.caller_view(duo, seat) for seat in (None, 0, 1)}
    Game.objects.filter(pk=duo.pk).update(state=old_format(duo))
    duo.refresh_from_db()
    assert b'"log"' in duo.state.encode()
    for seat, view in before.items():
        assert present.caller_view(duo, seat) == view, seat
    clock.tick(1)
    seat = engine.load_state(duo).active_seat
    assert seat is not None
    engine.submit(duo.pk, users[seat], first_choice(legal(duo, seat)))
    duo.refresh_from_db()
    saved = json.loads(duo.state)
    assert "log" not in saved
    assert saved["t0"] == (duo.started_at if rounds == 0 else -1)
    assert api_log(session_client(player), duo) == table_log(duo)


def test_an_export_made_when_the_state_kept_its_log_still_verifies() -> None:
    """``exports/maiden-state-with-its-log.json`` was made (by ``exports/make_maiden_export.py``)
    by the engine that still kept the log in the state, autopilot turns included: its final-state
    hash is that format's, and ``delve verify`` still confirms it; a wrong hash is still refused."""
    export = json.loads((EXPORTS / "maiden-state-with-its-log.json").read_text())
    verdict = verify(export)
    assert verdict.ok, verdict.problems
    assert export["final_state_sha256"][:16] in verdict.summary
    assert not verify({**export, "final_state_sha256": "0" * 64}).ok


def test_an_export_of_a_game_stored_from_an_old_state_without_its_start_verifies() -> None:
    """A game whose old state (its log long past the setup) was loaded and saved again has
    ``t0`` unknown: its export carries that state's hash, which ``delve verify`` accepts as an
    earlier format of the replayed state."""
    export = json.loads((EXPORTS / "maiden-state-with-its-log.json").read_text())
    ruleset = get_ruleset("maiden")
    seats = [SeatInfo(s["name"], s["options"]) for s in export["seats"]]
    log = [LogEntry(time=c["time"], seat=c["seat"], command=c["command"]) for c in export["commands"]]
    game = export["game"]
    own: list[Event] = []
    final = None
    for step in steps(ruleset, game["settings"], seats, export["seed"], game["started_at"], log):
        own += [e for e in step.events if not engine.own_event(e.kind, e.data)]
        final = step.state
    assert final is not None
    resaved = ruleset.encode(ruleset.decode(json.dumps(journal.earlier_form(final, own)).encode()))
    assert json.loads(resaved)["t0"] == -1
    verdict = verify({**export, "final_state_sha256": plain_hash(json.loads(resaved))})
    assert verdict.ok, verdict.problems


def test_counters_move_when_a_public_event_is_saved(duo: Game) -> None:
    """The views the counters digest leave the log out (it comes from the event table), so saving
    one of the ruleset's events moves every audience's counter (every White Maiden event is
    public), while the server's own events and no event at all move none."""
    ruleset = engine.ruleset_of(duo)
    state = engine.load_state(duo, ruleset)
    _observe(duo, ruleset, state, [])
    counters = {key: entry[0] for key, entry in duo.observed.items()}
    assert set(counters) == {"*", "0", "1"}
    _observe(duo, ruleset, state, [Event(kind="game.started", time=1, data={"seats": ["Ann", "Bob"]})])
    assert {key: entry[0] for key, entry in duo.observed.items()} == counters
    _observe(duo, ruleset, state, [Event(kind="turn.autoplayed", time=1, data={"seats": [0], "deadline": 1})])
    assert {key: entry[0] for key, entry in duo.observed.items()} == {key: n + 1 for key, n in counters.items()}
