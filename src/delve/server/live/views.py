"""A game's event stream (``GET /games/<id>/live/``, ``text/event-stream``; a ``HEAD`` gets the
same headers and no stream).

The stream opens with ``event: ready`` (the page fetches its panels once: a notice may have been
missed while it was not connected), then sends ``event: changed`` each time the change counter
of the caller's own audience moves (their seat's, every seat's of a hot-seat table, or the
spectators'), so nobody learns of a change they cannot see (another player's hidden moments
move only that player's counter). A notice carries no content: the page fetches its own panels
through the poll, which renders the caller's view. A comment line every ``KEEPALIVE`` seconds
keeps proxies from closing an idle stream; after ``LIFETIME`` seconds the stream ends and the
browser connects again at once (``event: bye``; behind a proxy, possibly to another process).
When the server stops, every stream ends the same way at once (``Hub.end_all``, called from the
ASGI application's stop-signal hook): a stream does not hold the server's shutdown.

Under ASGI (``delve serve``) the stream waits on the event loop; under WSGI in a thread. The
database is read only before streaming, and its connection given back at once.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from delve.server.api.auth import authenticate, error_response
from delve.server.games import engine
from delve.server.games.errors import Rejected
from delve.server.games.models import Game, Seat
from delve.server.live.hub import Subscription, hub

KEEPALIVE = 15.0
LIFETIME = 300.0
#: How long the browser waits before connecting again after the stream ended (ms).
RETRY_MS = 2000


@require_safe
def stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """The stream of the page's browser (session cookie), of an API client (``Authorization:
    Bearer <token>``), or of a visitor (the spectators' counter)."""
    try:
        authenticate(request)
    except Rejected as exc:
        _release_database()
        return error_response(exc)
    found = get_object_or_404(Game, pk=game_id)
    fanout = hub()
    if not fanout.ready():
        _release_database()
        refused = JsonResponse(
            {"error": {"code": "live/unavailable", "message": "live updates are unavailable now; the page polls"}},
            status=503,
        )
        # An expected, documented degradation (Redis away; the page polls): the hub says it at
        # warning level once per outage, so Django's request log does not log an ERROR for every
        # reconnecting browser (the attribute its log_response looks for). Real failures of this
        # view are 500s and are still logged as errors.
        fanout.refused()
        refused._has_been_logged = True  # type: ignore[attr-defined]
        return refused
    if request.method == "HEAD":  # the headers a GET would get, and no stream to wait on
        _release_database()
        return _headers(HttpResponse(content_type="text/event-stream"))
    subscription = fanout.subscribe(found.pk)
    try:
        audiences = _audiences(found, request)
        found.refresh_from_db(fields=["observed", "version"])  # after subscribing: no notice falls between
        last = _counters(found.observed, found.version, audiences)
    except BaseException:
        subscription.close()
        raise
    finally:
        _release_database()
    body: Iterator[bytes] | AsyncIterator[bytes]
    if isinstance(request, ASGIRequest):
        body = _async_events(subscription, audiences, last)
    else:
        body = _events(subscription, audiences, last)
    return _headers(StreamingHttpResponse(body, content_type="text/event-stream"))


def _headers(response: Any) -> Any:
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _audiences(found: Game, request: HttpRequest) -> list[str]:
    if not request.user.is_authenticated:
        return [engine.audience(None)]
    # Their own seats, and the seats they play at their hot-seat table.
    mine = Seat.objects.filter(game=found, index__isnull=False).filter(
        Q(user=request.user) | Q(table__host=request.user)
    )
    seats = sorted(set(mine.values_list("index", flat=True)))
    return [engine.audience(index) for index in seats] or [engine.audience(None)]


def _counters(observed: object, version: int, audiences: list[str]) -> dict[str, int]:
    entries = observed if isinstance(observed, dict) else {}
    out = {}
    for key in audiences:
        entry = entries.get(key)
        out[key] = int(entry[0]) if entry else version
    return out


def _release_database() -> None:
    """Give the connection back (to the pool on PostgreSQL) before a long stream (not inside a
    transaction someone else opened: a test's)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _moved(seen: dict[str, int] | None, audiences: list[str], last: dict[str, int]) -> bool:
    if not seen:
        return False
    moved = False
    for key in audiences:
        value = seen.get(key, seen.get("*") if key == "*" else None)
        if value is not None and value > last.get(key, -1):
            last[key] = value
            moved = True
    return moved


def _frame(event: str, data: dict[str, object] | None = None) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data or {}, separators=(',', ':'))}\n\n".encode()


OPENING = f"retry: {RETRY_MS}\n\n".encode()


def _events(subscription: Subscription, audiences: list[str], last: dict[str, int]) -> Iterator[bytes]:
    try:
        yield OPENING + _frame("ready")
        ends = time.monotonic() + LIFETIME
        while time.monotonic() < ends:
            woken = subscription.wait(KEEPALIVE)
            if subscription.ending:
                break
            if subscription.broken:
                return
            if woken and _moved(subscription.take(), audiences, last):
                yield _frame("changed")
            elif not woken:
                yield b": keep-alive\n\n"
        yield _frame("bye")
    finally:
        subscription.close()


async def _async_events(subscription: Subscription, audiences: list[str], last: dict[str, int]) -> AsyncIterator[bytes]:
    try:
        yield OPENING + _frame("ready")
        ends = time.monotonic() + LIFETIME
        while time.monotonic() < ends:
            woken = await subscription.wait_async(KEEPALIVE)
            if subscription.ending:
                break
            if subscription.broken:
                return
            if woken and _moved(subscription.take(), audiences, last):
                yield _frame("changed")
            elif not woken:
                yield b": keep-alive\n\n"
        yield _frame("bye")
    finally:
        subscription.close()
