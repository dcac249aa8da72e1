import pytest

from delve.kernel import IllegalCommand, SeatInfo, SettingsError, replay, state_hash
from delve.kernel.events import Event, private, public

from .toy import ToyRuleset

SEATS = [SeatInfo(name="ann"), SeatInfo(name="bob")]
START = 1_700_000_000


def play(seed: int, rounds: int = 40):
    ruleset = ToyRuleset()
    state = ruleset.setup({"goal": 30}, SEATS, seed, START)
    log = []
    for i in range(rounds):
        now = START + 45 * (i + 1)
        for seat in (0, 1):
            command = ruleset.legal_commands(state, seat)[-1] if ruleset.legal_commands(state, seat) else None
            if command is None:
                continue
            ruleset.apply(state, seat, command, now)
            log.append((now, seat, command))
    return ruleset, state, log


def test_replaying_the_command_log_gives_an_identical_state_hash():
    ruleset, state, log = play(seed=11)
    assert log, "the toy game should have produced commands"
    replayed, _ = replay(ruleset, {"goal": 30}, 11, log, seats=SEATS, start=START)
    assert state_hash(ruleset, replayed) == state_hash(ruleset, state)


def test_a_different_seed_gives_a_different_hash():
    ruleset, a, _ = play(seed=1)
    _, b, _ = play(seed=2)
    assert state_hash(ruleset, a) != state_hash(ruleset, b)


def test_hash_is_stable_through_encode_decode():
    ruleset, state, _ = play(seed=5)
    assert state_hash(ruleset, ruleset.decode(ruleset.encode(state))) == state_hash(ruleset, state)


def test_advance_is_idempotent_and_catches_up_any_gap():
    ruleset = ToyRuleset()
    stepwise = ruleset.setup({}, SEATS, 3, START)
    for t in range(START, START + 600, 7):
        ruleset.advance(stepwise, t)
    ruleset.advance(stepwise, START + 600)
    at_once = ruleset.setup({}, SEATS, 3, START)
    ruleset.advance(at_once, START + 600)
    ruleset.advance(at_once, START + 600)
    assert state_hash(ruleset, stepwise) == state_hash(ruleset, at_once)


def test_replay_with_clock_only_entries_and_until():
    ruleset = ToyRuleset()
    state, events = replay(ruleset, {}, 4, [(START + 120, None, None)], seats=SEATS, start=START, until=START + 300)
    assert [e.kind for e in events] == ["toy.granted"] * 5
    assert ruleset.next_due(state) == START + 360


def test_an_illegal_logged_command_stops_the_replay():
    ruleset = ToyRuleset()
    with pytest.raises(IllegalCommand) as info:
        replay(ruleset, {}, 4, [(START + 1, 0, {"kind": "roll"})], seats=SEATS, start=START)
    assert info.value.code == "command/illegal"
    assert "roll" in info.value.message


def test_bad_settings_name_the_setting():
    with pytest.raises(SettingsError) as info:
        ToyRuleset().setup({"goal": 0}, SEATS, 1, START)
    assert info.value.setting == "goal"
    assert "'goal'" in str(info.value)


def test_event_visibility():
    everyone = public("x", 1)
    secret = private("y", 1, (2, 0))
    assert everyone.visible_to(None) and everyone.visible_to(3)
    assert secret.to == (0, 2)
    assert secret.visible_to(2) and not secret.visible_to(1) and not secret.visible_to(None)
    assert isinstance(secret, Event)


def test_registry_names_unknown_rulesets():
    from delve.kernel import get_ruleset, register

    register(ToyRuleset())
    assert get_ruleset("toy").name == "toy"
    with pytest.raises(KeyError, match="unknown ruleset 'nope'"):
        get_ruleset("nope")
