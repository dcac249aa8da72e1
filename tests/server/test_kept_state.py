"""A game's state kept decoded in the process after a committed change (``games.kept``): the next
change of the same game goes on with it instead of decoding the row, but only when the locked row
is still at the version and state text it was saved with, and never after a change that rolled
back. That relies on the ruleset contract that a saved state goes on exactly as the row decoded."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from delve.kernel import IllegalCommand, Ruleset, SeatInfo, get_ruleset
from delve.server.games import engine, kept
from delve.server.games.models import Game
from tests.kernel.toy import ToyRuleset

T0 = 1_700_000_000


@pytest.fixture(autouse=True)
def nothing_kept() -> Any:
    kept.forget_all()
    yield
    kept.forget_all()


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per decoding of a toy state from now on."""
    calls: list[int] = []
    original = ToyRuleset.decode

    def counting(self: ToyRuleset, data: bytes) -> Any:
        calls.append(1)
        return original(self, data)

    monkeypatch.setattr(ToyRuleset, "decode", counting)
    return calls


@pytest.mark.parametrize("name", ["fated", "maiden", "toy"])
def test_a_state_kept_after_saving_goes_on_exactly_as_the_saved_row_decoded(name: str) -> None:
    """The same commands at the same times, on the state kept in memory and on the state decoded
    from its encoding before each command: the same events, the same saved encoding and views."""
    ruleset: Ruleset[Any] = get_ruleset(name) if name != "toy" else ToyRuleset()
    settings: dict[str, Any] = {
        "fated": {"preset": "fated-labyrinth", "players": 4, "maze_size": 13},
        "maiden": {"preset": "white-maiden", "players": 2, "start_player": 0},
        "toy": {},
    }[name]
    classes = ["explorer", "warrior", "priest", "thief"]
    seats = [SeatInfo(f"P{i}", {"class": classes[i]} if name == "fated" else {}) for i in range(4)]
    seats = seats[: {"fated": 4, "maiden": 2, "toy": 2}[name]]
    rng = random.Random(7)
    memory = ruleset.setup(settings, seats, 11, T0)
    now = T0
    for _ in range(80):
        saved = ruleset.encode(memory)
        row = ruleset.decode(saved)
        now += rng.choice((1, 5, 30))
        assert ruleset.advance(memory, now) == ruleset.advance(row, now)
        choices = [(s, c) for s in range(len(seats)) for c in ruleset.legal_commands(memory, s)]
        assert choices == [(s, c) for s in range(len(seats)) for c in ruleset.legal_commands(row, s)]
        choices = [(s, c) for s, c in choices if c["kind"] not in {"give_up", "comment"}]
        if not choices or ruleset.outcome(memory).ended:
            break
        seat, command = rng.choice(choices)
        assert ruleset.apply(memory, seat, command, now) == ruleset.apply(row, seat, command, now)
        assert ruleset.encode(memory) == ruleset.encode(row)
        assert [ruleset.view(memory, s) for s in [None, *range(len(seats))]] == [
            ruleset.view(row, s) for s in [None, *range(len(seats))]
        ]


@pytest.mark.django_db
def test_the_next_command_goes_on_with_the_kept_state_without_decoding(
    game: Game, player: Any, clock: Any, decodes: list[int], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        engine.submit(game.pk, player, {"kind": "wait"})
    assert len(decodes) == 1  # the first command decoded the row
    decodes.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = engine.submit(game.pk, player, {"kind": "wait"})
    assert decodes == []
    assert answer.sequence == 3
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == 3
    fresh = engine.load_state(stored)
    assert engine.ruleset_of(stored).encode(fresh).decode() == stored.state


@pytest.mark.django_db
def test_a_row_changed_behind_the_kept_state_is_decoded_again(
    game: Game, player: Any, clock: Any, decodes: list[int], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """Another process's change moves the version; an edit of the row (a restore) changes the text."""
    with django_capture_on_commit_callbacks(execute=True):
        engine.submit(game.pk, player, {"kind": "wait"})
    stored = Game.objects.get(pk=game.pk)
    ruleset = engine.ruleset_of(stored)
    state = engine.load_state(stored, ruleset)
    state.seats[0].position = 7  # the same version, another state text
    Game.objects.filter(pk=game.pk).update(state=ruleset.encode(state).decode())
    decodes.clear()
    with django_capture_on_commit_callbacks(execute=True):
        engine.submit(game.pk, player, {"kind": "wait"})
    assert decodes == [1]
    assert engine.load_state(Game.objects.get(pk=game.pk)).seats[0].position == 7
    Game.objects.filter(pk=game.pk).update(version=10)  # another process's change
    decodes.clear()
    with django_capture_on_commit_callbacks(execute=True):
        engine.submit(game.pk, player, {"kind": "wait"})
    assert decodes == [1]


@pytest.mark.django_db
def test_nothing_is_kept_from_a_change_that_rolled_back(
    game: Game, player: Any, clock: Any, decodes: list[int], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """A refused command (its state advanced in memory) and a reused key (applied, then refused
    by the log's constraint) leave nothing kept: the next command decodes the row."""
    with django_capture_on_commit_callbacks(execute=True):
        engine.submit(game.pk, player, {"kind": "wait"}, idempotency_key="k")
    clock.tick(120)  # the toy's apply advances the clock before it judges the command
    decodes.clear()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(IllegalCommand):
        engine.submit(game.pk, player, {"kind": "fly"})
    assert decodes == []  # it took the kept state, then rolled back
    with django_capture_on_commit_callbacks(execute=True):
        replayed = engine.submit(game.pk, player, {"kind": "wait"}, idempotency_key="k")
    assert replayed.replayed and decodes == [1]  # applied, then refused by the command log
    with django_capture_on_commit_callbacks(execute=True):
        answer = engine.submit(game.pk, player, {"kind": "wait"})
    assert decodes == [1, 1]
    stored = Game.objects.get(pk=game.pk)
    assert answer.sequence == stored.version == 3
    assert engine.ruleset_of(stored).encode(engine.load_state(stored)).decode() == stored.state


@pytest.mark.django_db
def test_nothing_is_kept_before_the_transaction_commits(
    game: Game, player: Any, clock: Any, decodes: list[int], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        engine.submit(game.pk, player, {"kind": "wait"})
        decodes.clear()
        engine.submit(game.pk, player, {"kind": "wait"})  # the first one has not committed yet
        assert decodes == [1]
    assert callbacks  # what would have kept the states after the commit


def test_the_keep_holds_at_most_its_limit_the_least_recently_kept_going_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept, "LIMIT", 3)
    for game_id in range(1, 6):
        kept.keep("default", game_id, "toy", 2, f"state {game_id}", object())
    assert [kept.take("default", game_id, "toy", 2, f"state {game_id}") is not None for game_id in range(1, 6)] == [
        False,
        False,
        True,
        True,
        True,
    ]
    thing = object()
    kept.keep("default", 9, "toy", 2, "text", thing)
    assert kept.take("default", 9, "other-ruleset", 2, "text") is None  # taken, and not the same game's
    assert kept.take("default", 9, "toy", 2, "text") is None  # gone: it was handed over (or refused) once
