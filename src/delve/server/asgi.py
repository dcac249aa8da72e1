"""The ASGI application ``delve serve`` runs (uvicorn).

Django's ASGI handler runs each request's synchronous code (the middleware, the views, the
database) in a thread of that request's own: a new thread per request, and with it a new
database connection, since Django keeps connections per thread. On SQLite a connection costs
more to open (the file, the pragmas, Django's SQL functions) than a durable command costs to
commit. :class:`Handler` gives each request a thread of a kept pool instead: still one thread
for all of one request's synchronous code, never two requests at once in a thread, but the
threads, and with them the connections, stay for the next requests.

It also bounds what it reads of a request's body (:class:`BoundedBody`): Django's own handler reads
a whole body into a file before any middleware runs, so the guard's 413 came only after a body
of any size had been read. A body whose ``Content-Length`` is over ``DELVE_MAX_BODY_BYTES`` is not
read at all, and one without a length (chunked) is read only until it passes the limit; the
request then goes on to the guard (:mod:`delve.server.guard`), which answers it with its 413 (JSON
under ``/api/``, the error page elsewhere), and the connection is closed after that answer, so
the rest of the body is never read.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from types import FrameType
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "delve.server.settings")
# WhiteNoise streams static files with a synchronous iterator; Django's ASGI handler serves it
# from a thread and warns on every file. Static files are small and long-cached, so that is fine.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")

#: Idle request threads kept for the next requests (more are made while more requests run at once).
KEEP_THREADS = 32


def _declared_length(scope: dict[str, Any]) -> int | None:
    """The body's ``Content-Length`` (``None`` when none is given or it is not a number: the
    guard refuses a malformed one)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            return int(value) if value.isdigit() else None
    return None


class _BoundedReceive:
    """The request's ``receive``, cut off once the body is known to be over ``limit`` bytes: it
    then reports the body's end (marking the scope with :data:`delve.server.guard.BODY_CUT`), and afterwards waits until
    the request is answered (Django cancels its wait for a disconnect then) without reading on."""

    def __init__(self, scope: dict[str, Any], receive: Any, limit: int) -> None:
        self.scope = scope
        self.receive = receive
        self.limit = limit
        self.read = 0
        declared = _declared_length(scope)
        self.cut = False
        self.over = declared is not None and declared > limit

    async def __call__(self) -> dict[str, Any]:
        if self.cut:
            await asyncio.Event().wait()  # never set: nothing more is read of this request
        if not self.over:
            message: dict[str, Any] = await self.receive()
            if message["type"] != "http.request":
                return message
            self.read += len(message.get("body", b""))
            if self.read <= self.limit:
                return message
        from delve.server.guard import BODY_CUT

        self.cut = True
        self.scope[BODY_CUT] = True
        return {"type": "http.request", "body": b"", "more_body": False}


class BoundedBody(ASGIHandler):
    """Django's ASGI handler reading at most ``DELVE_MAX_BODY_BYTES`` of a request's body (see
    the module documentation); the answer to a request whose body was cut closes the connection."""

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        from django.conf import settings

        from delve.server import guard

        bounded = _BoundedReceive(scope, receive, int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))

        async def closing_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and scope.get(guard.BODY_CUT):
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await super().handle(scope, bounded, closing_send)


def _close_connections() -> None:
    from django.db import connections

    connections.close_all()


class Handler(BoundedBody):
    """Django's ASGI handler with each request's synchronous code run in a reused thread."""

    def __init__(self, keep: int = KEEP_THREADS) -> None:
        super().__init__()
        self.keep = keep
        self._idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)  # Django's own answer to other protocols
            return
        executor = self._idle.pop() if self._idle else ThreadPoolExecutor(1, thread_name_prefix="delve-request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            if len(self._idle) < self.keep:
                self._idle.append(executor)
            else:  # a burst is over: this thread goes, and its connections with it
                executor.submit(_close_connections)
                executor.shutdown(wait=False)


async def _lifespan(receive: Any, send: Any) -> None:
    """The server's start and stop messages. Nothing is to be set up at the start (``delve
    serve`` sets everything up before the server starts), but the stop signals are hooked there
    (:func:`end_streams_on_stop`); each message is acknowledged: without an answer uvicorn logged
    "ASGI 'lifespan' protocol appears unsupported" at every start."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            end_streams_on_stop(asyncio.get_running_loop())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def end_streams_on_stop(loop: asyncio.AbstractEventLoop, signals: tuple[signal.Signals, ...] = STOP_SIGNALS) -> None:
    """Chain a step in front of the server's own stop-signal handlers: the open event streams
    say goodbye and end (``Hub.end_all``) as the server begins to stop. uvicorn waits for every
    open response before it stops and its lifespan "shutdown" comes only after that wait, so
    without this an open game page held each stop for the whole grace period and was then cut
    with an error in the log. uvicorn installs its handlers before the lifespan starts and puts
    back the ones it found when it has stopped, which drops this step with its own. Signals can
    be handled in the main thread only: elsewhere (a test's server) nothing is chained."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in signals:
        previous = signal.getsignal(number)
        if callable(previous):
            signal.signal(number, functools.partial(_on_stop_signal, loop, previous))


def _on_stop_signal(loop: asyncio.AbstractEventLoop, previous: Any, number: int, frame: FrameType | None) -> None:
    # A signal handler may interrupt the loop's thread anywhere, even inside a lock the hub
    # holds: the streams are ended from the loop, soon, not from here.
    with contextlib.suppress(RuntimeError):  # a closed loop: nothing is streaming any more
        loop.call_soon_threadsafe(_end_streams)
    previous(number, frame)


def _end_streams() -> None:
    from delve.server.live.hub import hub

    hub().end_all()


def _application() -> ASGIHandler:
    django.setup(set_prefix=False)  # as Django's own get_asgi_application()
    try:
        ThreadSensitiveContext(executor=None)
    except TypeError:  # an asgiref without reusable executors: a thread per request, as before
        handler: ASGIHandler = BoundedBody()
    else:
        handler = Handler()
    from delve.server import gcpolicy

    gcpolicy.freeze_startup()
    return handler


application = _application()
