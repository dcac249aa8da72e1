"""The turn clock: ``turn_deadline_hours`` > 0 sets a deadline for the waiting seat; ``advance``
past it plays that seat's decisions by the deterministic autopilot (``turn.autoplayed``)."""

from __future__ import annotations

from delve.kernel import replay, state_hash
from tests.maiden.helpers import T0, finish_setup, new_game, seats

HOUR = 3600


def test_no_deadline_when_off() -> None:
    r, g = new_game(2)
    assert g.deadline is None and r.next_due(g) is None
    assert r.advance(g, T0 + 1000 * HOUR) == []


def test_deadline_is_next_due_and_autoplay_at_it() -> None:
    r, g = new_game(2, start_player=1, turn_deadline_hours=24)
    assert r.next_due(g) == T0 + 24 * HOUR and g.waiting == [1]
    assert r.advance(g, T0 + 24 * HOUR - 1) == []
    events = r.advance(g, T0 + 24 * HOUR)
    assert events[0].kind == "turn.autoplayed" and events[0].data["seats"] == [1]
    assert g.maidens[1].familiars and g.waiting == [0]
    assert r.next_due(g) == T0 + 48 * HOUR  # the next seat's deadline counts from the autoplay


def test_a_command_resets_the_deadline_for_the_next_seat() -> None:
    r, g = new_game(2, start_player=0, turn_deadline_hours=2)
    r.apply(g, 0, {"kind": "choose_familiar", "familiar": "fam_d"}, T0 + HOUR)
    assert g.waiting == [0] and g.deadline == T0 + 2 * HOUR  # still seat 0's decisions
    r.apply(g, 0, {"kind": "place_card", "stat": "wil"}, T0 + HOUR)
    assert g.waiting == [1] and g.deadline == T0 + 3 * HOUR


def test_advance_is_idempotent_and_split_independent() -> None:
    """advance(t) twice changes nothing more; advancing in steps equals one big step (replay)."""
    settings = {"players": 3, "start_player": 0, "turn_deadline_hours": 1}
    r, a = new_game(3, start_player=0, turn_deadline_hours=1)
    r.advance(a, T0 + 40 * HOUR)
    h = state_hash(r, a)
    assert r.advance(a, T0 + 40 * HOUR) == [] and state_hash(r, a) == h
    _, b = new_game(3, start_player=0, turn_deadline_hours=1)
    for k in range(1, 41):
        r.advance(b, T0 + k * HOUR)
    assert state_hash(r, b) == h
    replayed, _ = replay(r, settings, 1, [(T0 + 40 * HOUR, None, None)], seats=seats(3), start=T0)
    assert state_hash(r, replayed) == h


def test_autopilot_plays_a_whole_game_by_deadlines() -> None:
    r, g = new_game(4, turn_deadline_hours=1)
    events = r.advance(g, T0 + 100_000 * HOUR)
    assert g.ended and r.next_due(g) is None
    assert any(e.kind == "turn.autoplayed" for e in events)


def test_choose_start_player_waits_for_everyone() -> None:
    r, g = new_game(3, start_player="choose", turn_deadline_hours=5)
    assert g.waiting == [0, 1, 2]
    r.advance(g, T0 + 5 * HOUR)
    assert g.start_player == 0


def test_hot_seat_after_setup() -> None:
    r, g = new_game(2)
    finish_setup(r, g)
    assert g.deadline is None


def test_solo_turns_each_get_their_own_deadline() -> None:
    """Solo plays 3 turns in a row (MV-ROUND-4): each is a turn of its own for the clock."""
    r, g = new_game(1, turn_deadline_hours=1)
    finish_setup(r, g)
    first = g.turn.number
    due = r.next_due(g)
    assert due is not None
    events = r.advance(g, due)
    assert [e.kind for e in events].count("turn.autoplayed") == 1
    assert g.turn.number == first + 1 and g.deadline == due + HOUR
