"""The real-time turn clock: FL-TURN-3..14, FL-TURN-23, AMB-1..AMB-4."""

from __future__ import annotations

from delve.fated import clock
from delve.fated.state import READY, WAIT
from delve.kernel import state_hash

from .scenario import RULESET, T0, Scenario

H = 3600


def fresh(**settings) -> Scenario:
    return Scenario.new(**settings)


def test_every_player_starts_in_the_wait_phase():
    """FL-TURN-3, FL-OVR-7: at game start every player waits on an independent clock."""
    g = fresh()
    assert all(p.phase == WAIT and p.stored == 0 for p in g.state.players)
    assert len({p.first_at for p in g.state.players}) > 1


def test_first_accumulation_is_random_within_the_wait_time():
    """FL-TURN-4, AMB-1: r is a whole number of seconds in [1, wait_time], per player."""
    offsets = []
    for seed in range(150):
        g = Scenario.new(seed=seed)
        offsets += [p.first_at - T0 for p in g.state.players]
    assert all(1 <= r <= 6 * H for r in offsets)
    mean = sum(offsets) / len(offsets)
    assert 2.5 * H < mean < 3.5 * H  # uniform over (0, 6h]
    assert Scenario.new(seed=3).state.players[0].first_at == Scenario.new(seed=3).state.players[0].first_at


def test_the_manuals_example_stored_turns_and_the_cap():
    """FL-TURN-5, FL-TURN-6, FL-TURN-12 (Appendix T-1): W = 6 h, CAP = 2, r = 2 h. Turns
    accumulate at t0+2h and t0+8h; at t0+14h and t0+20h they are lost; the grid goes on."""
    g = fresh()
    p = g.p(0)
    p.first_at = T0 + 2 * H
    g.now = T0
    g.tick(2 * H - 1)
    assert p.phase == WAIT
    g.tick(1)  # t0 + 2h
    assert (p.phase, p.stored) == (READY, 1)
    g.tick(6 * H)  # t0 + 8h
    assert p.stored == 2
    g.tick(13 * H)  # t0 + 21h: t0+14h and t0+20h were lost
    assert p.stored == 2
    assert p.lost_turns == 2
    assert clock.accumulation_at(g.state, p, p.acc_next) == T0 + 26 * H
    assert [m.kind for m in g.messages(0)].count("turn.lost") == 1


def test_logging_in_consumes_one_turn_and_the_next_plays_at_once():
    """FL-TURN-8, FL-TURN-9, FL-TURN-12, FL-LOGIN-3, AMB-4: at t0+11h the player has 2 turns;
    opening the screen consumes one; after the core phase the stored one starts at once; after
    that the player waits until t0+14h."""
    g = fresh()
    p = g.p(0)
    p.first_at = T0 + 2 * H
    g.now = T0 + 11 * H
    RULESET.advance(g.state, g.now)
    assert p.stored == 2
    assert RULESET.command_on_open(g.state, 0) == {"kind": "start_turn"}
    g.play(0, {"kind": "start_turn"}, dt=0)
    assert p.stored == 1 and p.phase != READY
    g.play(0, {"kind": "stay"})
    g.play(0, {"kind": "nothing"})
    assert p.stored == 0 and p.phase not in (WAIT, READY)
    assert p.turns_played == 2
    g.play(0, {"kind": "stay"})
    g.play(0, {"kind": "nothing"})
    assert p.phase == WAIT
    assert clock.accumulation_at(g.state, p, p.acc_next) == T0 + 14 * H
    assert RULESET.command_on_open(g.state, 0) is None


def test_waiting_ends_exactly_at_the_accumulation_instant():
    """FL-TURN-7, FL-TURN-5, FL-OVR-8: the wait phase lasts until W after the previous wait
    phase's end, measured on the fixed grid however late the player acted (AMB-2): acting late
    never shifts the clock, so acting promptly pays."""
    g = fresh()
    p = g.p(0)
    p.first_at = T0 + H
    g.tick(H)
    g.play(0, {"kind": "start_turn"}, dt=4 * H)  # acted late, at t0+5h
    g.play(0, {"kind": "stay"})
    g.play(0, {"kind": "nothing"})
    assert p.phase == WAIT
    g.now = T0 + 7 * H - 1
    RULESET.advance(g.state, g.now)
    assert p.phase == WAIT
    g.tick(1)
    assert p.phase == READY and p.wait_ended_at == T0 + 7 * H


def test_the_turn_start_event_fires_when_the_wait_ends_and_when_a_stored_turn_starts():
    """FL-TURN-13, FL-TURN-14, AMB-3: exactly one turn-start event per turn played, at the later
    of the accumulation instant and the end of the previous turn; poison takes effect there."""
    g = fresh()
    p = g.p(0)
    p.first_at = T0 + H
    from delve.fated.state import Status

    p.statuses.append(Status(id="hp_poison"))
    g.tick(H + 6 * H)  # two accumulations: t0+1h (wait ends) and t0+7h (stored)
    assert p.hp == 118  # one turn-start event so far (at t0+1h)
    g.play(0, {"kind": "start_turn"})
    assert p.hp == 118  # consuming is not a turn-start event
    g.play(0, {"kind": "stay"})
    g.play(0, {"kind": "nothing"})  # the stored turn starts now: its event fires now
    assert p.hp == 116
    poison = [m for m in g.messages(0) if m.kind == "poison.hp"]
    assert [m.time for m in poison] == [T0 + H, g.now]


def test_status_countdown_happens_at_turn_start_after_poison():
    """FL-TURN-14 (order), FL-STS-5: timed statuses lose a turn at the event."""
    g = fresh()
    p = g.p(0)
    from delve.fated.state import Status

    p.statuses = [Status(id="light", turns=2), Status(id="cp_poison")]
    p.first_at = T0 + 10
    g.tick(10)
    assert p.status("light").turns == 1 and p.cp == 118
    g.play(0, {"kind": "start_turn"})
    g.play(0, {"kind": "stay"})
    g.tick(6 * H)
    g.play(0, {"kind": "nothing"})
    assert p.status("light") is None
    assert any(m.kind == "status.expired" for m in g.messages(0))


def test_advance_is_idempotent_and_independent_of_how_it_is_split():
    """FL-TURN-11: due instants are processed in chronological order whether or not players
    are online; catching up a long gap at once equals stepping through it (replay needs it)."""
    a = Scenario.new(preset="level-d", seed=11)
    b = Scenario.new(preset="level-d", seed=11)
    for step in range(1, 150):
        RULESET.advance(a.state, T0 + step * 953)
    RULESET.advance(a.state, T0 + 150 * 953)
    RULESET.advance(b.state, T0 + 150 * 953)
    RULESET.advance(b.state, T0 + 150 * 953)
    assert state_hash(RULESET, a.state) == state_hash(RULESET, b.state)
    assert not a.state.ended and all(p.stored >= 24 for p in a.state.players)  # capped, turns lost
    # ...and past the abandon time (48 h) everybody has abandoned: the same either way
    for step in range(150, 220):
        RULESET.advance(a.state, T0 + step * 953)
    RULESET.advance(b.state, T0 + 220 * 953)
    RULESET.advance(a.state, T0 + 220 * 953)
    assert a.state.ended and state_hash(RULESET, a.state) == state_hash(RULESET, b.state)


def test_ties_are_processed_in_player_number_order():
    """AMB-77: events due at the same instant are processed by player number."""
    g = fresh()
    for p in g.state.players:
        p.first_at = T0 + 100
    events = g.tick(100)
    ready = [e.to[0] for e in events if e.kind == "turn.ready"]
    assert ready == [0, 1, 2, 3]


def test_dead_players_have_no_clock_and_an_ended_game_has_none():
    """FL-TURN-23: dead players have no turns; when the game ends all clocks stop."""
    g = fresh()
    g.play(1, {"kind": "give_up"})
    assert not g.p(1).alive
    assert clock.abandon_deadline(g.state, g.p(1)) is None
    for seat in (2, 3):
        g.play(seat, {"kind": "give_up"})
    assert g.state.ended
    assert RULESET.next_due(g.state) is None
    before = state_hash(RULESET, g.state)
    RULESET.advance(g.state, g.now + 100 * H)
    assert g.state.players[0].stored == 0
    assert g.state.clock == g.now + 100 * H
    assert before != state_hash(RULESET, g.state)  # only the clock moved
    g.state.clock = g.now
    assert before == state_hash(RULESET, g.state)


def test_next_due_is_the_earliest_accumulation_or_deadline():
    """FL-TURN-11: the server schedules the next wake-up from next_due."""
    g = fresh()
    assert RULESET.next_due(g.state) == min(p.first_at for p in g.state.players)
