"""Public change counters move only on changes their audience can see (FL-INFO-3: clock times of
others are never public). A player's turn is stored at a secret instant of their own clock
(FL-TURN-4/5): saving it must not move the version a spectator or another player sees, nor turn
their poll's 204 into a 200, nor change the API view's ETag."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from delve.fated import clock as fated_clock
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.games.worker import Worker
from tests.server.conftest import session_client
from tests.server.fated_kit import fated_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def others(make_user: Any) -> list[Any]:
    return [make_user("dee"), make_user("eve")]


@pytest.fixture
def fated(db: None, clock: Any, player: Any, opponent: Any, others: list[Any]) -> Game:
    """Every seat waits for its first turn, at its own secret instant within the first hour."""
    return fated_game([player, opponent, *others], wait_time=3600)


def next_accumulation(game: Game) -> tuple[int, int]:
    """(instant, seat) of the next stored turn (the engine's secret clock, read by the test)."""
    state = engine.load_state(game)
    return min((fated_clock.accumulation_at(state, p, p.acc_next), p.seat) for p in state.players)


def observe(client: Client, game: Game, seat: int | None) -> dict[str, Any]:
    """Everything a caller can poll: the API view's version and ETag, the screen poll's status
    with the version the page holds, and the events API."""
    api = client.get(f"/api/v1/games/{game.pk}")
    version = api.json()["game"]["version"]
    game.refresh_from_db()
    return {
        "version": version,
        "etag": api["ETag"],
        "games": [g["version"] for g in client.get("/api/v1/games").json()["games"] if g["id"] == game.pk],
        "poll": client.get(f"/games/{game.pk}/poll/", {"version": str(version)}).status_code,
        "events": client.get(f"/api/v1/games/{game.pk}/events").json(),
        "not_modified": client.get(f"/api/v1/games/{game.pk}", HTTP_IF_NONE_MATCH=api["ETag"]).status_code,
    }


def test_a_hidden_turn_accumulation_changes_nothing_another_viewer_observes_FL_INFO_3(
    fated, clock, player, opponent, spectator, others
):
    """The worker saves one seat's stored turn at its secret instant; the game's own version moves,
    but the spectator, a visitor and every other seat observe exactly what they did before
    (version, ETag, 304, the poll's 204, the events); the seat itself sees its turn (FL-TURN-7)."""
    at, seat = next_accumulation(fated)
    users = [player, opponent, *others]
    clients: dict[Any, Client] = {None: session_client(spectator), "visitor": Client()}
    clients.update({index: session_client(user) for index, user in enumerate(users)})
    clock.tick(at - clock.t - 1)
    before = {who: observe(c, fated, None if not isinstance(who, int) else who) for who, c in clients.items()}
    internal = fated.version
    clock.tick(1)
    assert Worker("w").run_once() == 1
    fated.refresh_from_db()
    assert fated.version == internal + 1  # the game did change, inside
    after = {who: observe(c, fated, None if not isinstance(who, int) else who) for who, c in clients.items()}
    for who in clients:
        if who == seat:
            continue
        assert after[who] == before[who], who
        assert after[who]["poll"] == 204 and after[who]["not_modified"] == 304
    assert after[seat]["version"] == before[seat]["version"] + 1
    assert after[seat]["etag"] != before[seat]["etag"]
    assert after[seat]["poll"] == 204  # the page that holds the new version is up to date
    assert clients[seat].get(f"/games/{fated.pk}/poll/", {"version": str(before[seat]["version"])}).status_code == 200


def test_a_stale_version_is_one_the_caller_could_see_change(fated, clock, player, opponent):
    """The version guard uses the caller's own counter: another seat's secret instant does not
    make a decision stale, a change the caller sees does (409 with the caller's version)."""
    at, seat = next_accumulation(fated)
    other = 1 if seat == 0 else 0
    user = [player, opponent][other] if other < 2 else None
    seen = engine.seen_version(fated, other)
    clock.tick(at - clock.t)
    Worker("w").run_once()
    fated.refresh_from_db()
    assert engine.seen_version(fated, other) == seen
    engine.submit(fated.pk, user, {"kind": "comment", "text": "still fresh"}, version=seen)
    fated.refresh_from_db()
    assert engine.seen_version(fated, other) == seen + 1  # the own comment is visible to oneself
    with pytest.raises(engine.Rejected) as stale:
        engine.submit(fated.pk, user, {"kind": "give_up"}, version=seen)
    assert stale.value.code == "command/stale_version" and stale.value.details == {"current_version": seen + 1}
