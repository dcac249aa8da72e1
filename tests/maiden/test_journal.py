"""White Maiden's recent-events log (the view's ``log``) comes from the events, not from the state
(``delve.maiden.journal``): a view fed every event the game returned shows exactly the log the
state used to keep (the newest 30 of its newest ``event_log_size`` public events, oldest first,
``{"time", "kind", "data"}``), beginning with the start player the setup fixed (MV-SETUP-15,
MV-SETUP-16); a state stored with its own log still decodes, and its hash in that format is one
of ``earlier_state_hashes``.

``fixtures/state-with-its-log.json`` was written by ``fixtures/make_state_with_its_log.py`` with
the engine that still kept the log in the state: what it stored then is the reference here.

(The White Maiden rules name no rule for the log: it is the view contract's ``log``.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from delve.kernel import Event, Recorder, SeatInfo, has_journal, plain_hash, state_hash
from delve.maiden import journal
from delve.maiden import state as maiden_state
from delve.maiden.ruleset import MaidenRuleset
from delve.maiden.view import LOG_SHOWN
from tests.maiden.helpers import T0, act, new_game, play_until, seats

RECORD = json.loads((Path(__file__).parent / "fixtures" / "state-with-its-log.json").read_text())


def as_shown(entries: list[list[Any]]) -> list[dict[str, Any]]:
    """Entries of a stored ``log`` (``[time, kind, data]``) as the view showed them."""
    return [{"time": time, "kind": kind, "data": data} for time, kind, data in entries[-LOG_SHOWN:]]


def replayed(commands: int) -> tuple[MaidenRuleset, maiden_state.Game, Recorder, list[Event]]:
    """The fixture's game replayed by this engine through its first ``commands`` commands, with a
    journal fed every event it returned."""
    ruleset = MaidenRuleset()
    game = ruleset.setup(
        RECORD["settings"], [SeatInfo(name) for name in RECORD["seats"]], RECORD["seed"], RECORD["start"]
    )
    recorder = Recorder(ruleset, game)
    events: list[Event] = []
    for now, seat, command in RECORD["commands"][:commands]:
        events += recorder.record(ruleset.apply(game, seat, command, now))
    return ruleset, game, recorder, events


@pytest.mark.parametrize(("stored", "commands"), [("early_state", 5), ("state", len(RECORD["commands"]))])
def test_a_journal_fed_view_shows_the_log_the_state_kept(stored: str, commands: int) -> None:
    """The view's ``log`` from the journal equals the log of the state the earlier engine stored at
    the same point of the same game, for every seat and a spectator: early on (the setup's start
    player first, MV-SETUP-16) and once the log holds more than a view shows."""
    ruleset, game, recorder, _ = replayed(commands)
    old = json.loads(RECORD[stored])
    expected = as_shown(old["log"])
    for seat in (None, 0, 1):
        assert json.loads(json.dumps(recorder.view(game, seat)))["log"] == expected
    assert b'"log"' not in ruleset.encode(game)


def test_an_old_state_with_its_log_decodes_and_is_saved_without_it() -> None:
    """A state stored with its ``log`` decodes to the game this engine reaches by the same
    commands: early on its log's first entry (the setup's start player) gives ``t0``, exactly;
    later the log no longer reaches back to the setup, ``t0`` stays unknown (-1) and nothing else
    differs. Encoded again, it has no log."""
    for stored, commands in (("early_state", 5), ("state", len(RECORD["commands"]))):
        ruleset, game, _, _ = replayed(commands)
        old = RECORD[stored].encode()
        assert b'"log"' in old and b'"t0"' not in old
        decoded = ruleset.decode(old)
        assert b'"log"' not in ruleset.encode(decoded)
        if stored == "early_state":
            assert decoded.t0 == game.t0 == RECORD["start"]
            assert ruleset.encode(decoded) == ruleset.encode(game)
        else:
            assert decoded.t0 == -1
            assert ruleset.encode(msgspec.structs.replace(decoded, t0=game.t0)) == ruleset.encode(game)


def test_the_hash_of_an_old_state_is_one_of_the_earlier_state_hashes() -> None:
    """``earlier_state_hashes`` gives the hash the state had when the earlier engine stored it (so
    its exports still verify) and the hash of the state stored since from an old one whose log no
    longer reached the setup (``t0`` unknown)."""
    for stored, commands in (("early_state", 5), ("state", len(RECORD["commands"]))):
        ruleset, game, _, events = replayed(commands)
        hashes = ruleset.earlier_state_hashes(game, events)
        assert plain_hash(json.loads(RECORD[stored])) == hashes[0]
        resaved = ruleset.encode(ruleset.decode(RECORD[stored].encode()))
        if stored == "state":
            assert plain_hash(json.loads(resaved)) == hashes[1]
    ruleset, game, _, events = replayed(len(RECORD["commands"]) - 1)
    assert plain_hash(json.loads(RECORD["state"])) not in ruleset.earlier_state_hashes(game, events)
    assert plain_hash(json.loads(RECORD["state"])) != state_hash(ruleset, replayed(len(RECORD["commands"]))[1])


@pytest.mark.parametrize(("start_player", "chosen"), [(0, True), (1, True), ("random", False)])
def test_the_log_begins_with_the_start_player_the_setup_fixed_mv_setup_16(start_player: Any, chosen: bool) -> None:
    """MV-SETUP-16: the start player drawn (or set by the settings) during ``setup``, which returns
    no events, is the log's first entry right after the setup, at the setup's time, as the state
    used to keep it; the state itself holds no copy."""
    ruleset, game = new_game(2, start_player=start_player)
    assert has_journal(ruleset)
    log = Recorder(ruleset, game).view(game, None)["log"]
    assert log == [{"time": T0, "kind": "setup.start_player", "data": {"seat": game.start_player, "chosen": chosen}}]
    assert game.t0 == T0 and b'"log"' not in ruleset.encode(game)
    assert "log" not in ruleset.view(game, 0)


def test_a_start_player_chosen_by_a_seat_comes_from_its_command_mv_setup_15() -> None:
    """MV-SETUP-15: with ``start_player = choose`` the setup fixes nothing (an empty log); the
    choice is a command, whose event the journal takes like any other."""
    ruleset, game = new_game(2, start_player="choose")
    recorder = Recorder(ruleset, game)
    assert journal.started(game) == [] and recorder.view(game, 1)["log"] == []
    recorder.record(act(ruleset, game, "choose_start_player", seat=1))
    first = recorder.view(game, 1)["log"][0]
    assert first["kind"] == "setup.start_player" and first["data"] == {"seat": 1, "chosen": True}


def test_the_log_keeps_the_newest_30_or_event_log_size_when_smaller() -> None:
    """A view shows the newest 30 public events, or ``event_log_size`` when that is smaller,
    oldest first; the setup's entry goes once newer ones fill the log."""
    for size, shown in ((60, LOG_SHOWN), (12, 12)):
        ruleset, game = new_game(2, event_log_size=size)
        recorder = Recorder(ruleset, game)
        events = [*journal.started(game), *recorder.record(play_until(ruleset, game, lambda g: g.round >= 3))]
        assert len(events) > shown
        expected = [{"time": e.time, "kind": e.kind, "data": dict(e.data)} for e in events[-shown:]]
        assert recorder.view(game, 0)["log"] == expected
        assert journal.Journal(game).public_kept == shown


def test_the_state_is_smaller_without_the_log() -> None:
    """The log was most of the stored state: the same mid-game state is less than half as big."""
    _, game, _, _ = replayed(len(RECORD["commands"]))
    assert len(maiden_state.encode(game)) * 2 < len(RECORD["state"])


def test_a_setup_of_every_player_count_starts_a_journal() -> None:
    ruleset = MaidenRuleset()
    for players in (1, 2, 3, 4):
        game = ruleset.setup({"players": players}, seats(players), 3, T0)
        assert [e["kind"] for e in Recorder(ruleset, game).view(game, None)["log"]] == ["setup.start_player"]
