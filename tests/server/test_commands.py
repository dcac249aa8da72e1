"""One transaction per command: advance, apply, version + 1, append command and events; explicit
rejections that change nothing; idempotency keys; comments (FL-COM); opening the game."""

from __future__ import annotations

import pytest

from delve.kernel import IllegalCommand, replay, state_hash
from delve.server.games import engine
from delve.server.games.errors import Rejected
from delve.server.games.models import CommandEntry, EventEntry, Game, Seat

pytestmark = pytest.mark.django_db


def test_a_command_advances_the_clock_applies_and_saves_version_plus_one(game, player, clock):
    assert game.version == 1
    clock.tick(60)  # one roll is granted at START + 60
    answer = engine.submit(game.pk, player, {"kind": "roll"}, version=1)
    game.refresh_from_db()
    assert (answer.version, game.version) == (2, 2)
    entry = CommandEntry.objects.get(game=game, sequence=2)
    assert (entry.seat, entry.command, entry.time, entry.source) == (0, {"kind": "roll"}, clock.t, "player")
    kinds = list(EventEntry.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["game.started", "toy.granted", "toy.rolled"]
    assert [event["kind"] for event in answer.events] == ["toy.granted", "toy.rolled"]
    assert engine.load_state(game).seats[0].position > 0


def test_a_stale_version_is_refused_with_409_and_the_current_version(game, player, clock):
    engine.submit(game.pk, player, {"kind": "wait"})
    with pytest.raises(Rejected) as info:
        engine.submit(game.pk, player, {"kind": "wait"}, version=1)
    assert info.value.status == 409
    assert info.value.code == "command/stale_version"
    assert info.value.as_dict()["details"] == {"current_version": 2}
    assert "version 2" in info.value.message


def test_an_illegal_command_is_refused_with_the_rulesets_code_and_nothing_is_saved(game, player, clock):
    before = (game.version, game.state, CommandEntry.objects.count(), EventEntry.objects.count())
    clock.tick(30)
    with pytest.raises(IllegalCommand) as info:
        engine.submit(game.pk, player, {"kind": "roll"})  # no roll stored yet
    assert info.value.code == "command/illegal"
    assert "roll" in info.value.message
    game.refresh_from_db()
    assert (game.version, game.state, CommandEntry.objects.count(), EventEntry.objects.count()) == before


def test_a_malformed_command_is_refused_before_the_game_is_touched(game, player):
    for bad in ([], "roll", {"dir": "up"}, {"kind": ""}, {"kind": 3}):
        with pytest.raises(Rejected) as info:
            engine.submit(game.pk, player, bad)
        assert info.value.code == "request/malformed"
        assert '"kind"' in info.value.message


def test_a_repeated_idempotency_key_returns_the_first_answer_and_applies_nothing(game, player, clock):
    clock.tick(60)
    first = engine.submit(game.pk, player, {"kind": "roll"}, idempotency_key="k-1")
    clock.tick(60)
    again = engine.submit(game.pk, player, {"kind": "roll"}, idempotency_key="k-1", version=1)
    assert again.replayed and not first.replayed
    assert again.as_dict() == first.as_dict()
    assert CommandEntry.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == 2


def test_an_idempotency_key_reused_for_another_command_is_refused(game, player):
    engine.submit(game.pk, player, {"kind": "wait"}, idempotency_key="k-1")
    with pytest.raises(Rejected) as info:
        engine.submit(game.pk, player, {"kind": "comment", "text": "hi"}, idempotency_key="k-1")
    assert (info.value.code, info.value.status) == ("command/idempotency_key_reused", 422)


def test_idempotency_keys_belong_to_one_seat(game, player, opponent):
    engine.submit(game.pk, player, {"kind": "wait"}, idempotency_key="same")
    answer = engine.submit(game.pk, opponent, {"kind": "wait"}, idempotency_key="same")
    assert not answer.replayed
    assert list(CommandEntry.objects.values_list("seat", flat=True)) == [0, 1]


def test_a_rejected_command_does_not_spend_its_idempotency_key(game, player, clock):
    with pytest.raises(IllegalCommand):
        engine.submit(game.pk, player, {"kind": "roll"}, idempotency_key="k-1")
    clock.tick(60)
    answer = engine.submit(game.pk, player, {"kind": "roll"}, idempotency_key="k-1")
    assert not answer.replayed


def test_commands_before_the_start_are_refused(make_game, player, clock):
    open_game = make_game()
    engine.register(open_game.pk, player, "Ann")
    with pytest.raises(Rejected) as info:
        engine.submit(open_game.pk, player, {"kind": "wait"})
    assert (info.value.code, info.value.status) == ("game/not_started", 422)


def test_a_user_without_a_seat_cannot_act(game, spectator):
    with pytest.raises(Rejected) as info:
        engine.submit(game.pk, spectator, {"kind": "wait"})
    assert (info.value.code, info.value.status) == ("seat/not_seated", 403)


def test_an_unknown_game_is_404(db, player):
    with pytest.raises(Rejected) as info:
        engine.submit(987654, player, {"kind": "wait"})
    assert (info.value.code, info.value.status) == ("game/not_found", 404)


def test_a_comment_is_a_command_of_the_ruleset_and_is_mirrored_on_the_seat(game, player, opponent):
    """FL-COM-1: a player replaces their own comment; FL-COM-2: everyone sees it."""
    engine.submit(game.pk, player, {"kind": "comment", "text": "first"})
    engine.submit(game.pk, player, {"kind": "comment", "text": "second"})
    assert Seat.objects.get(game=game, user=player).comment == "second"
    assert Seat.objects.get(game=game, user=opponent).comment == ""
    state = engine.load_state(Game.objects.get(pk=game.pk))
    assert engine.ruleset_of(game).view(state, None)["comments"] == ["second", ""]


def test_the_ruleset_validates_comments(game, player):
    """FL-COM-4: the ruleset limits the length; the server passes its refusal on."""
    with pytest.raises(IllegalCommand) as info:
        engine.submit(game.pk, player, {"kind": "comment", "text": "x" * 101})
    assert info.value.code == "comment/invalid"
    assert Seat.objects.get(game=game, user=player).comment == ""


def test_after_the_end_only_comments_are_possible(game, player, opponent, clock):
    """AMB-75: when the game ends every command but comments stops; FL-COM-3, AMB-62: the server
    passes a comment to the ruleset in any state after the start, ended included."""
    finish(game, player, clock)
    with pytest.raises(Rejected) as info:
        engine.submit(game.pk, opponent, {"kind": "wait"})
    assert info.value.code == "game/ended"
    engine.submit(game.pk, opponent, {"kind": "comment", "text": "well played"})
    assert Seat.objects.get(game=game, user=opponent).comment == "well played"


def finish(game, user, clock):
    """Roll for ``user`` until someone wins (the toy's goal is 20)."""
    for _ in range(40):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            return
        clock.tick(60)
        engine.submit(game.pk, user, {"kind": "roll"})
    raise AssertionError("the toy game should have ended")


def test_the_end_is_saved_once_with_a_public_event_and_no_next_due_time(game, player, clock):
    finish(game, player, clock)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert game.next_due_at is None and game.ended_at == clock.t
    ended = EventEntry.objects.get(game=game, kind="game.ended")
    assert ended.visibility == "*"
    assert ended.data == {"winners": [0], "results": {"0": "won", "1": "lost"}}


def test_the_command_log_replays_to_the_saved_state(db, clock, start_game, player, opponent):
    game = start_game(goal=1000)
    for step in range(12):
        clock.tick(45)
        for user in (player, opponent):
            try:
                engine.submit(game.pk, user, {"kind": "roll"})
            except IllegalCommand:
                engine.submit(game.pk, user, {"kind": "wait"})
        if step % 3 == 0:
            game.refresh_from_db()
            engine.advance(game, clock.t)  # a clock-only entry, as the worker makes
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    seats = engine.seat_infos(list(game.seats.order_by("index")))
    log = []
    for entry in game.commands.order_by("sequence"):
        log.append((entry.time, None, None))
        if entry.command is not None:
            log.append((entry.time, entry.seat, entry.command))
    replayed, _ = replay(ruleset, game.settings, game.seed, log, seats=seats, start=game.started_at)
    assert state_hash(ruleset, replayed) == state_hash(ruleset, engine.load_state(game))
