"""The ASGI application of ``delve serve``: each request's synchronous code runs in one thread,
taken from a kept pool, so threads (and the database connections Django keeps per thread) are
not made anew for every request."""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import Any

import pytest

from delve.server import asgi
from delve.server.asgi import Handler, application
from delve.server.live import hub as hub_module
from delve.server.live.hub import Hub
from tests.aio import run_alone


async def get(app: Any, path: str) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    body = [{"type": "http.request", "body": b"", "more_body": False}]
    forever = asyncio.Event()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if body:
            return body.pop()
        await forever.wait()  # the client stays connected
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_the_served_application_reuses_request_threads():
    assert isinstance(application, Handler)


def test_sequential_requests_run_in_the_same_kept_thread():
    handler = Handler(keep=2)
    seen: list[int] = []

    async def run() -> None:
        for _ in range(3):
            status, body = await get(handler, "/api/v1/openapi.json")
            assert status == 200 and b"openapi" in body
            seen.append(len(handler._idle))

    run_alone(run)
    assert seen == [1, 1, 1]  # one thread made, given back and taken again


def test_requests_at_once_get_threads_of_their_own_and_only_keep_are_kept():
    handler = Handler(keep=1)
    before = threading.active_count()

    async def run() -> None:
        results = await asyncio.gather(*(get(handler, "/api/v1/openapi.json") for _ in range(3)))
        assert [status for status, _ in results] == [200, 200, 200]

    run_alone(run)
    assert len(handler._idle) == 1
    assert threading.active_count() <= before + 3


def test_the_server_start_and_stop_are_acknowledged():
    """uvicorn's lifespan messages get their answers (it logged "ASGI 'lifespan' protocol appears
    unsupported" at every start): startup complete, shutdown complete, and the handler returns."""
    incoming = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    run_alone(lambda: asyncio.wait_for(application({"type": "lifespan"}, receive, send), timeout=5))
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def test_a_stop_signal_ends_the_open_streams_then_reaches_the_servers_own_handler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn waits for every open response before it stops, and its lifespan "shutdown" comes
    after that wait: an open game page held every stop for the whole grace period and was cut
    with an error in the log. The lifespan's start chains a step in front of the server's stop
    handlers: the streams are ended on the loop, then the server's handler runs as before."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers can be set in the main thread only")
    loop = asyncio.new_event_loop()
    running = threading.Thread(target=loop.run_forever, name="test-loop")
    running.start()
    received: list[int] = []
    before = signal.signal(signal.SIGUSR1, lambda number, frame: received.append(number))
    process_hub = Hub()
    monkeypatch.setattr(hub_module, "hub", lambda: process_hub)
    subscription = process_hub.subscribe(1)
    try:
        asgi.end_streams_on_stop(loop, (signal.SIGUSR1,))
        signal.raise_signal(signal.SIGUSR1)
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(timeout=5)  # the loop ran its queue
        assert received == [signal.SIGUSR1]  # the server's own handler still ran
        assert subscription.ending
    finally:
        subscription.close()
        signal.signal(signal.SIGUSR1, before)
        loop.call_soon_threadsafe(loop.stop)
        running.join()
        loop.close()


def test_outside_the_main_thread_no_signal_is_touched() -> None:
    """A server run in a thread of its own (a test's) cannot handle signals: nothing is chained."""
    before = signal.getsignal(signal.SIGUSR1)
    loop = asyncio.new_event_loop()
    done = threading.Thread(target=asgi.end_streams_on_stop, args=(loop, (signal.SIGUSR1,)))
    done.start()
    done.join()
    loop.close()
    assert signal.getsignal(signal.SIGUSR1) is before
