"""Concurrency, on SQLite (IMMEDIATE transactions) and PostgreSQL (row locks): identical
submissions apply once; concurrent workers never advance a game twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from delve.server.games import engine
from delve.server.games.models import CommandEntry, EventEntry, Game
from delve.server.games.worker import Worker

THREADS = 10


def in_threads(count: int, target: Callable[[int], Any]) -> list[Any]:
    """Run ``target(i)`` in ``count`` threads released together; their results (or exceptions)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = target(i)
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return results


@pytest.mark.django_db(transaction=True)
def test_ten_identical_submissions_apply_exactly_once(clock, start_game, player):
    game = start_game()
    clock.tick(60)  # one roll stored: a second application would be refused or would roll again

    def submit(i: int) -> engine.Answer:
        return engine.submit(game.pk, player, {"kind": "roll"}, version=1, idempotency_key="same-click")

    answers = in_threads(THREADS, submit)
    assert all(isinstance(answer, engine.Answer) for answer in answers), answers
    assert sum(not answer.replayed for answer in answers) == 1
    assert len({json.dumps(answer.as_dict(), sort_keys=True) for answer in answers}) == 1
    assert CommandEntry.objects.filter(game=game).count() == 1
    assert EventEntry.objects.filter(game=game, kind="toy.rolled").count() == 1
    game.refresh_from_db()
    assert game.version == 2
    assert engine.load_state(game).seats[0].stored == 0


@pytest.mark.django_db(transaction=True)
def test_ten_different_submissions_with_the_same_version_apply_once_the_rest_get_409(clock, start_game, player):
    game = start_game()
    answers = in_threads(THREADS, lambda i: engine.submit(game.pk, player, {"kind": "wait"}, version=1))
    applied = [a for a in answers if isinstance(a, engine.Answer)]
    stale = [a for a in answers if getattr(a, "code", None) == "command/stale_version"]
    assert (len(applied), len(stale)) == (1, THREADS - 1), answers
    assert CommandEntry.objects.filter(game=game).count() == 1


def running_games(count: int, make_game: Callable[..., Game], make_user: Callable[..., Any]) -> list[Game]:
    """``count`` toy games, all started now by the same two players."""
    users = [make_user(f"p{i}") for i in range(2)]
    games = []
    for _ in range(count):
        game = make_game()
        engine.register(game.pk, users[0], "A")
        engine.register(game.pk, users[1], "B")
        games.append(game)
    return games


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_workers_never_process_a_game_twice(clock, make_game, make_user):
    games = running_games(12, make_game, make_user)
    clock.tick(60)  # every game is due once
    workers = [Worker("w1"), Worker("w2")]
    advanced = in_threads(2, lambda i: workers[i].run_once())
    assert all(isinstance(count, int) for count in advanced), advanced
    assert sum(advanced) == len(games)
    for game in games:
        assert CommandEntry.objects.filter(game=game, source="clock").count() == 1
        assert EventEntry.objects.filter(game=game, kind="toy.granted").count() == 1
        game.refresh_from_db()
        assert game.version == 2 and game.claimed_by == ""


WORKER_SCRIPT = """
import os, sys, django
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
django.setup()
from tests.server.toys import register_all
from delve.server import clock
from delve.server.games.worker import Worker
register_all()
clock.now = lambda: int(sys.argv[1])
print(Worker(sys.argv[2]).run_once())
"""


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_worker_processes_never_process_a_game_twice(clock, make_game, make_user):
    """The same as above with two ``delve tick``-style processes on PostgreSQL."""
    games = running_games(30, make_game, make_user)
    clock.tick(60)
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": os.getcwd()}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER_SCRIPT, str(clock.t), f"proc{i}"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    outputs = [process.communicate(timeout=120) for process in processes]
    assert all(process.returncode == 0 for process in processes), outputs
    assert sum(int(out.strip().splitlines()[-1]) for out, _ in outputs) == len(games)
    for game in games:
        assert CommandEntry.objects.filter(game=game, source="clock").count() == 1
