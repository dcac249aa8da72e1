"""Live updates (delve.server.live): the game's event stream, the per-audience filter, the local
and the Redis fan-out, and the page's wiring. The multi-process run is test_scale.py."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest
from django.test import Client

from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.live import hub as hub_module
from delve.server.live import views as live_views
from delve.server.live.hub import Hub
from tests.aio import run_alone
from tests.server.conftest import session_client, token_client
from tests.server.maiden_kit import legal, maiden_game
from tests.server.scale import REDIS_URL, redis_absent

pytestmark = pytest.mark.django_db


class Stream:
    """The frames of an open event stream; ``close()`` ends it as a disconnecting browser does."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.frames = iter(response.streaming_content)

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> bytes:
        return bytes(next(self.frames))

    def close(self) -> None:
        # Close the test client's wrapper of the stream: it ends the request the way the client
        # does at a stream's end (without closing the test's database connection).
        self.response._iterator.close()


def _open(client: Client, game: Game) -> Stream:
    response = client.get(f"/games/{game.pk}/live/")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    frames = Stream(response)
    first = next(frames)
    assert first.startswith(b"retry: ") and b"event: ready" in first
    return frames


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_views, "KEEPALIVE", 0.05)


def test_a_players_stream_tells_of_every_change_of_their_view(
    player: Any, opponent: Any, quick: None, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command handled anywhere reaches the stream as ``changed``, after its commit; a stream
    with nothing new sends keep-alive comments."""
    game = maiden_game([player, opponent])
    frames = _open(session_client(opponent), game)
    assert next(frames) == b": keep-alive\n\n"
    published: list[int] = []
    publish = hub_module.hub().publish

    def noting(game_id: int, seen: dict[str, int]) -> None:
        published.append(game_id)
        publish(game_id, seen)

    monkeypatch.setattr(hub_module.hub(), "publish", noting)
    with django_capture_on_commit_callbacks(execute=True):
        engine.submit(game.pk, player, legal(game, 0)[0])
        assert published == []  # not before the commit
    assert published == [game.pk]  # one notice
    assert next(frames) == b"event: changed\ndata: {}\n\n"
    assert next(frames) == b": keep-alive\n\n"  # one change, one notice
    frames.close()
    assert hub_module.hub().subscribers(game.pk) == 0  # closing the stream unsubscribes


def test_a_notice_reaches_only_the_audiences_whose_view_changed(spectator: Any, player: Any, quick: None) -> None:
    """Another player's hidden moment moves only that player's counter: a spectator's stream
    sends nothing for it (no timing leak), and a notice for the spectators' counter goes through."""
    game = maiden_game([player])
    game.refresh_from_db()
    spectators = int(game.observed["*"][0])
    frames = _open(session_client(spectator), game)
    hub_module.hub().publish(game.pk, {"*": spectators, "0": spectators + 5})
    assert next(frames) == b": keep-alive\n\n"
    hub_module.hub().publish(game.pk, {"*": spectators + 1, "0": spectators + 6})
    assert next(frames) == b"event: changed\ndata: {}\n\n"
    hub_module.hub().publish(game.pk, {"*": spectators + 1, "0": spectators + 7})  # seen already
    assert next(frames) == b": keep-alive\n\n"
    frames.close()


def test_api_clients_follow_with_their_token_and_a_bad_token_is_refused(player: Any, opponent: Any) -> None:
    game = maiden_game([player, opponent])
    _open(token_client(player), game).close()
    refused = Client(headers={"Authorization": "Bearer nope"}).get(f"/games/{game.pk}/live/")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "auth/invalid_token"
    assert Client().get("/games/999999/live/").status_code == 404
    assert Client().post(f"/games/{game.pk}/live/").status_code in {403, 405}


def test_the_stream_ends_with_bye_after_its_lifetime(player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream lives ``LIFETIME`` seconds, then says ``bye`` (the page connects again at once)."""
    monkeypatch.setattr(live_views, "LIFETIME", 0.0)
    game = maiden_game([player])
    frames = _open(Client(), game)
    assert next(frames) == b"event: bye\ndata: {}\n\n"
    with pytest.raises(StopIteration):
        next(frames)


def test_without_reachable_redis_the_stream_is_refused_and_the_page_polls(
    player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REDIS_URL set but Redis unreachable: the stream answers 503 (JSON) at once, the page keeps
    polling (live.js) and commands still commit (the notice is logged as not published)."""
    down = Hub("redis://127.0.0.1:9/0", "delve-test-down:")
    monkeypatch.setattr(hub_module, "CONNECT_WAIT", 0.2)
    monkeypatch.setattr(live_views, "hub", lambda: down)
    game = maiden_game([player])
    response = Client().get(f"/games/{game.pk}/live/")
    assert response.status_code == 503 and response.json()["error"]["code"] == "live/unavailable"
    down.publish(game.pk, {"*": 1})  # logged, never raised


def test_streams_refused_while_redis_is_away_log_one_warning_not_an_error_each(
    player: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Each browser reconnecting during a Redis outage got a 503, and each 503 was logged as
    ``ERROR django.request``: an expected, documented degradation filled the error log. It is
    said once, at warning level, by the hub; a real failure of the view is still an error."""
    import logging

    down = Hub("redis://127.0.0.1:9/0", "delve-test-down:")
    monkeypatch.setattr(hub_module, "CONNECT_WAIT", 0.2)
    monkeypatch.setattr(live_views, "hub", lambda: down)
    game = maiden_game([player])
    caplog.set_level(logging.INFO)
    for _ in range(3):
        assert Client().get(f"/games/{game.pk}/live/").status_code == 503
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    said = [r for r in caplog.records if r.name == "delve.live" and "refused (503)" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert "1 event stream(s) refused" in said[0].getMessage()
    caplog.clear()

    def broken(*args: Any) -> Any:
        raise RuntimeError("a real bug")

    monkeypatch.setattr(live_views, "hub", Hub)
    monkeypatch.setattr(live_views, "_audiences", broken)
    assert Client(raise_request_exception=False).get(f"/games/{game.pk}/live/").status_code == 500
    assert [r.levelno for r in caplog.records if r.name == "django.request"] == [logging.ERROR]


def test_refusals_are_said_once_per_outage_and_then_every_ten_minutes_with_their_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import logging

    caplog.set_level(logging.WARNING, logger="delve.live")
    hub = Hub("redis://127.0.0.1:9/0", "delve-test-down:")
    said = lambda: [r.getMessage() for r in caplog.records if "refused (503)" in r.getMessage()]  # noqa: E731
    for at in (0.0, 1.0, 2.0, 599.0):
        hub.refused(now=at)
    assert len(said()) == 1
    hub.refused(now=600.0)
    assert len(said()) == 2 and said()[1].startswith("live: 4 event stream(s) refused"), said()
    hub._connected_again()  # Redis is back; the next outage is said at once
    hub.refused(now=601.0)
    assert len(said()) == 3 and said()[2].startswith("live: 1 event stream(s) refused")


def test_the_async_stream_waits_on_the_event_loop() -> None:
    """Under ASGI the stream is an async generator: a notice published from another thread (a
    Redis listener, a worker thread) wakes it through the loop."""
    hub = Hub()
    subscription = hub.subscribe(5)

    async def follow() -> list[bytes]:
        frames = live_views._async_events(subscription, ["*"], {"*": 3})
        got = [await frames.__anext__()]
        threading.Timer(0.05, hub.publish, args=(5, {"*": 4})).start()
        got.append(await frames.__anext__())
        await frames.aclose()
        return got

    ready, changed = run_alone(follow)
    assert b"event: ready" in ready and changed == b"event: changed\ndata: {}\n\n"
    assert hub.subscribers(5) == 0


def test_a_notice_arriving_as_a_threads_wait_times_out_is_not_lost() -> None:
    """Under WSGI the stream waits in a thread: a notice delivered just as that wait times out
    (its wake-up cleared with the timed-out wait's) is still reported, not left until the next
    notice or keep-alive."""
    hub = Hub()
    subscription = hub.subscribe(6)

    class LateEvent(threading.Event):
        """The wait times out, and the notice arrives before the waiter clears the event."""

        def wait(self, timeout: float | None = None) -> bool:
            hub.publish(6, {"*": 9})
            return False

    subscription._event = LateEvent()
    assert subscription.wait(0.01) is True
    assert subscription.take() == {"*": 9}
    # nothing more waiting: an ordinary timed-out wait says so
    subscription._event = threading.Event()
    assert subscription.wait(0.01) is False
    subscription.close()


def test_a_stopping_server_ends_every_stream_with_bye_at_once() -> None:
    """At a stop signal (see test_asgi) the hub ends every open stream: each sends ``event: bye``
    (its page connects again, to another process or to this one when it is back) instead of
    holding the server's shutdown until it is cut; a stream accepted while the server stops ends
    at once too. Both the event-loop and the thread streams."""
    hub = Hub()
    waiting = hub.subscribe(7)
    threaded = hub.subscribe(7)

    async def follow() -> list[bytes]:
        frames = live_views._async_events(waiting, ["*"], {"*": 3})
        got = [await frames.__anext__()]
        threading.Timer(0.05, hub.end_all).start()
        got += [frame async for frame in frames]
        return got

    frames = live_views._events(threaded, ["*"], {"*": 3})
    assert b"event: ready" in next(frames)
    ready, *rest = run_alone(follow)
    assert b"event: ready" in ready and rest == [b"event: bye\ndata: {}\n\n"]
    assert list(frames) == [b"event: bye\ndata: {}\n\n"]
    late = hub.subscribe(7)
    assert list(live_views._events(late, ["*"], {"*": 3}))[1:] == [b"event: bye\ndata: {}\n\n"]
    assert hub.subscribers(7) == 0


@pytest.mark.skipif(redis_absent() is not None, reason=f"needs Redis: {redis_absent()}")
def test_two_hubs_on_redis_are_two_processes_sharing_notices() -> None:
    """A notice published by one process (or a tick worker) reaches the subscriptions of another
    through Redis pub/sub, under the configured key prefix only."""
    prefix = f"delve-test-{time.monotonic_ns()}:"
    a, b, other = Hub(REDIS_URL, prefix), Hub(REDIS_URL, prefix), Hub(REDIS_URL, prefix + "x:")
    subscription = a.subscribe(42)
    elsewhere = other.subscribe(42)
    assert a.ready() and other.ready()
    b.publish(42, {"*": 7, "1": 9})
    assert subscription.wait(5)
    assert subscription.take() == {"*": 7, "1": 9}
    assert not elsewhere.wait(0.3)
    subscription.close()
    elsewhere.close()


def test_the_screens_follow_the_stream_and_say_when_they_poll(player: Any) -> None:
    game = maiden_game([player])
    page = session_client(player).get(f"/games/{game.pk}/").content.decode()
    assert f'data-live-url="/games/{game.pk}/live/"' in page
    assert 'id="live-status" role="status" hidden' in page and "/static/delve/live.js" in page


def test_several_processes_without_redis_turn_live_updates_off_and_say_so(
    settings: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], player: Any
) -> None:
    """``delve serve --workers 2`` without REDIS_URL: a process would not hear of the others'
    changes, so the screens poll (no event stream on the page), and the start says why."""
    from delve import cli

    settings.REDIS_URL = ""
    settings.LIVE_PUSH = True
    monkeypatch.setenv("DELVE_LIVE_PUSH", "1")  # restored after the test
    cli._live_push(1)
    assert settings.LIVE_PUSH is True and capsys.readouterr().out == ""
    cli._live_push(2)
    assert settings.LIVE_PUSH is False and "live updates are off" in capsys.readouterr().out
    assert os.environ["DELVE_LIVE_PUSH"] == "0"  # the HTTP worker processes read it
    game = maiden_game([player])
    page = session_client(player).get(f"/games/{game.pk}/").content.decode()
    assert "data-live-url" not in page and 'data-poll-every="3"' in page


def test_a_game_closed_to_spectators_keeps_its_stream_from_them(player: Any, spectator: Any) -> None:
    """The stream is one of the game's pages: when the host closes the game to spectators, only
    its players may follow it (no change times for anybody else either)."""
    from delve.server.social.models import SpectatorPolicy

    game = maiden_game([player])
    SpectatorPolicy.objects.create(game=game, allowed=False)
    assert Client().get(f"/games/{game.pk}/live/").status_code == 403
    assert session_client(spectator).get(f"/games/{game.pk}/live/").status_code == 403
    _open(session_client(player), game).close()
