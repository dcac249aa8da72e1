"""The ASGI application of ``delve serve``: each request's synchronous code runs in one thread,
taken from a kept pool, so threads (and the database connections Django keeps per thread) are
not made anew for every request."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from delve.server.asgi import Handler, application
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
