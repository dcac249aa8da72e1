"""The ASGI application of ``delve serve``: each request's synchronous code runs in one thread,
taken from a kept pool, so threads (and the database connections Django keeps per thread) are
not made anew for every request."""

from __future__ import annotations

import asyncio
import json
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


def _post_scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }


def _post(
    path: str, headers: list[tuple[bytes, bytes]], chunks: list[bytes]
) -> tuple[int, dict[bytes, bytes], bytes, int]:
    """POST a body given as ``chunks`` (the last one ends it) through the served handler: the
    status, the headers, the body of the answer, and how many chunks the handler asked for."""
    asked = [0]

    async def run() -> tuple[int, dict[bytes, bytes], bytes]:
        sent: list[dict[str, Any]] = []
        forever = asyncio.Event()

        async def receive() -> dict[str, Any]:
            if asked[0] < len(chunks):
                asked[0] += 1
                more = asked[0] < len(chunks)
                return {"type": "http.request", "body": chunks[asked[0] - 1], "more_body": more}
            await forever.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await Handler(keep=1)(_post_scope(path, headers), receive, send)
        start = next(m for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return start["status"], dict(start["headers"]), body

    status, answer_headers, body = run_alone(run)
    return status, answer_headers, body, asked[0]


def test_a_declared_length_over_the_limit_is_refused_without_reading_the_body(settings):
    """The docs promise a body over ``DELVE_MAX_BODY_BYTES`` is refused before it is read: Django's
    own handler read it all first (a 30 MB body was read, then refused). Not one chunk is asked
    for; the answer is the API's 413 and closes the connection."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    chunk = b"x" * 1000
    status, headers, body, asked = _post("/api/v1/games/1/commands", [(b"content-length", b"30000000")], [chunk] * 30)
    assert status == 413
    assert json.loads(body)["error"]["code"] == "request/too_large"
    assert "larger than 2048 bytes" in json.loads(body)["error"]["message"]
    assert headers[b"connection"] == b"close"
    assert asked == 0


def test_a_body_without_a_length_is_read_only_until_it_passes_the_limit(settings):
    """A chunked body (no ``Content-Length``), or one longer than it said, is read until it passes
    the limit, not to its end: of 100 chunks of 1000 bytes over a 2048-byte limit, three."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    chunks = [b"x" * 1000] * 100
    status, headers, body, asked = _post("/api/v1/games/1/commands", [(b"transfer-encoding", b"chunked")], chunks)
    assert (status, json.loads(body)["error"]["code"]) == (413, "request/too_large")
    assert headers[b"connection"] == b"close"
    assert asked == 3
    status, _, body, _ = _post("/games/1/act/", [], chunks)  # a page: the error page, not JSON
    assert status == 413 and b"too large" in body


def test_a_body_within_the_limit_is_read_whole(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    status, headers, _, asked = _post("/api/v1/openapi.json", [], [b"{", b"}"])
    assert status == 405 and asked == 2 and b"connection" not in headers


def test_uvicorn_answers_an_oversized_body_before_it_is_sent(settings):
    """Under the server ``delve serve`` runs (uvicorn): a request that declares 30 MB gets its 413
    without the server waiting for one byte of the body, and one sending a chunked body gets it
    once the body passes the limit, though the body never ends. (Without the bound, the server
    would wait for the rest; the socket's timeout then fails the test.)"""
    import socket

    import uvicorn

    from tests.server.live import _release, claim_port

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    port, handle = claim_port()
    server = uvicorn.Server(
        uvicorn.Config(Handler(keep=1), host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    )
    thread = threading.Thread(target=server.run, name="test-uvicorn")
    thread.start()
    try:
        while not server.started:
            threading.Event().wait(0.05)

        def ask(head: bytes, body: bytes) -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=60) as conn:
                conn.sendall(head + body)
                answer = b""
                while chunk := conn.recv(65536):  # the server closes the connection after its answer
                    answer += chunk
                return answer

        head = b"POST /api/v1/games/1/commands HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        declared = ask(head + b"Content-Length: 30000000\r\n\r\n", b"")
        chunked = ask(head + b"Transfer-Encoding: chunked\r\n\r\n", b"7d0\r\n" + b"x" * 2000 + b"\r\n")
        for answer in (declared, chunked):
            assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
            assert b'"request/too_large"' in answer
    finally:
        server.should_exit = True
        thread.join()
        _release(handle)
