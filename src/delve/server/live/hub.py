"""The fan-out of change notices: in the process, or through Redis pub/sub between processes.

``publish(game_id, seen)`` is called once a game's change has committed, with the game's
per-audience change counters (``{"*": 12, "0": 9, "1": 11}``). ``subscribe(game_id)`` gives a
:class:`Subscription` that an event stream waits on, from a thread (WSGI) or from the event loop
(ASGI).

With ``REDIS_URL`` set, publishing is a Redis ``PUBLISH`` on ``<prefix>game:<id>`` (a command on
one process, or the tick worker on another machine) and each server process runs one listener
thread, started by its first subscription, that pattern-subscribes to ``<prefix>game:*`` and
delivers to its own subscriptions. When the listener loses Redis, every open subscription is
marked broken (its stream ends, and the page falls back to polling and says so) and the listener
reconnects with a growing pause; new streams are refused (503) until it is back, logged at
warning level once per outage (:meth:`Hub.refused`), not as an error per request. Without Redis,
``publish`` delivers to the process's own subscriptions (one process: ``delve serve`` on SQLite).
A failed publish is logged, never raised: the change is committed, and pages still poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import time
from typing import Any

log = logging.getLogger("delve.live")

#: How long a new stream waits for the Redis listener's first connection before it is refused.
CONNECT_WAIT = 3.0
#: While Redis stays away, the refused streams are said again (with their count) at most this often.
REFUSALS_REMINDER = 600.0


class Subscription:
    """One viewer's stream of notices for one game. The latest counters win: a viewer that has
    not looked yet needs only the newest."""

    def __init__(self, hub: Hub, game_id: int) -> None:
        self.hub = hub
        self.game_id = game_id
        self.broken = False
        #: the server is stopping: the stream says goodbye and ends (see :meth:`Hub.end_all`)
        self.ending = False
        self._latest: dict[str, int] | None = None
        self._lock = threading.Lock()
        self._event = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._async_event: asyncio.Event | None = None

    def deliver(self, seen: dict[str, int]) -> None:
        """From any thread: a newer set of counters."""
        with self._lock:
            self._latest = seen
        self._wake()

    def break_(self) -> None:
        """The fan-out lost its connection: the stream must end (the page then polls)."""
        self.broken = True
        self._wake()

    def end(self) -> None:
        """The server is stopping: the stream must say goodbye now (its page connects again)."""
        self.ending = True
        self._wake()

    def _wake(self) -> None:
        with self._lock:
            loop, event = self._loop, self._async_event
        if loop is None or event is None:
            self._event.set()
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: the stream is gone
            loop.call_soon_threadsafe(event.set)

    def take(self) -> dict[str, int] | None:
        with self._lock:
            latest, self._latest = self._latest, None
        return latest

    def wait(self, timeout: float) -> bool:
        """Block (a WSGI thread) until a notice or a break, or ``timeout`` seconds. A notice that
        arrives as the wait times out (its wake-up cleared with the timed-out wait's) still counts:
        it is waiting to be taken."""
        woken = self._event.wait(timeout)
        self._event.clear()
        if not woken:
            with self._lock:
                woken = self._latest is not None
        return woken

    async def wait_async(self, timeout: float) -> bool:
        """Wait on the running event loop (ASGI) until a notice or a break, or ``timeout`` seconds."""
        if self._async_event is None:
            with self._lock:
                self._loop = asyncio.get_running_loop()
                self._async_event = asyncio.Event()
                pending = self._latest is not None or self._event.is_set()
            if pending or self.broken or self.ending:
                self._async_event.set()
        try:
            await asyncio.wait_for(self._async_event.wait(), timeout)
        except TimeoutError:
            return False
        self._async_event.clear()
        return True

    def close(self) -> None:
        self.hub.unsubscribe(self)


class Hub:
    """The process's subscriptions, and its link to the other processes (Redis) when configured."""

    def __init__(self, redis_url: str = "", prefix: str = "delve:") -> None:
        self.redis_url = redis_url
        self.prefix = prefix
        self._subscriptions: dict[int, set[Subscription]] = {}
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None
        self._connected = threading.Event()
        self._publisher: Any = None
        self._ending = False
        self.last_error = ""  # why the listener last lost (or could not reach) Redis
        self._refusals = 0  # streams refused since the last line said so
        self._refusals_said: float | None = None  # when that line was said (None: not in this outage)

    @property
    def mode(self) -> str:
        return "redis" if self.redis_url else "local"

    def channel(self, game_id: int) -> str:
        return f"{self.prefix}game:{game_id}"

    # -- publishing -------------------------------------------------------------------------

    def publish(self, game_id: int, seen: dict[str, int]) -> None:
        if not self.redis_url:
            self._deliver(game_id, seen)
            return
        import redis

        message = json.dumps({"game": game_id, "seen": seen}, separators=(",", ":"))
        try:
            self._client().publish(self.channel(game_id), message)
        except (redis.RedisError, OSError) as exc:
            log.warning("live: notice for game %s not published (%s); pages catch up by polling", game_id, exc)
            self._publisher = None

    def _client(self) -> Any:
        if self._publisher is None:
            import redis

            self._publisher = redis.Redis.from_url(
                self.redis_url, socket_timeout=2, socket_connect_timeout=2, health_check_interval=30
            )
        return self._publisher

    # -- subscribing ------------------------------------------------------------------------

    def subscribe(self, game_id: int) -> Subscription:
        subscription = Subscription(self, game_id)
        with self._lock:
            subscription.ending = self._ending  # a stream accepted as the server stops ends at once
            self._subscriptions.setdefault(game_id, set()).add(subscription)
        if self.redis_url:
            self._ensure_listener()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            subscriptions = self._subscriptions.get(subscription.game_id)
            if subscriptions is not None:
                subscriptions.discard(subscription)
                if not subscriptions:
                    del self._subscriptions[subscription.game_id]

    def ready(self, wait: float = CONNECT_WAIT) -> bool:
        """Whether notices can reach this process (always, without Redis)."""
        if not self.redis_url:
            return True
        self._ensure_listener()
        return self._connected.wait(wait)

    def refused(self, now: float | None = None) -> None:
        """A new stream was refused (503) because the listener is not connected: an expected
        degradation (the page polls), logged at warning level once per outage, then at most every
        :data:`REFUSALS_REMINDER` seconds with the number refused meanwhile, not once per request."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._refusals += 1
            if self._refusals_said is not None and now - self._refusals_said < REFUSALS_REMINDER:
                return
            count, self._refusals, self._refusals_said = self._refusals, 0, now
        log.warning(
            "live: %d event stream(s) refused (503) since the last such line: Redis is not connected (%s); "
            "pages poll until it is back",
            count,
            self.last_error or "not connected yet",
        )

    def _connected_again(self) -> None:
        """The listener is connected: the next refusal (of another outage) is said at once."""
        with self._lock:
            self._refusals, self._refusals_said = 0, None
        self._connected.set()
        self.last_error = ""

    def health(self, wait: float = 1.0) -> dict[str, object]:
        """The live-update channel's state for ``/healthz``: ``{"mode": "local", "ok": True}``, or
        with Redis whether this process's listener is connected (waiting up to ``wait`` seconds
        for a first connection), and if not, why."""
        if not self.redis_url:
            return {"mode": "local", "ok": True}
        if self.ready(wait):
            return {"mode": "redis", "ok": True}
        return {"mode": "redis", "ok": False, "error": self.last_error or "not connected to Redis yet"}

    def subscribers(self, game_id: int | None = None) -> int:
        with self._lock:
            if game_id is not None:
                return len(self._subscriptions.get(game_id, ()))
            return sum(len(s) for s in self._subscriptions.values())

    def _deliver(self, game_id: int, seen: dict[str, int]) -> None:
        with self._lock:
            subscriptions = list(self._subscriptions.get(game_id, ()))
        for subscription in subscriptions:
            subscription.deliver(seen)

    def break_all(self) -> None:
        """End every open stream of this process (their pages poll, then connect again)."""
        with self._lock:
            subscriptions = [s for group in self._subscriptions.values() for s in group]
        for subscription in subscriptions:
            subscription.break_()

    def end_all(self) -> None:
        """The server is stopping: every open stream of this process sends ``event: bye`` and ends
        at once, instead of holding the shutdown until it is cut (the pages connect again: to
        another process behind a proxy, or to this server when it is back; they poll meanwhile)."""
        with self._lock:
            self._ending = True
            subscriptions = [s for group in self._subscriptions.values() for s in group]
        for subscription in subscriptions:
            subscription.end()

    # -- the Redis listener -----------------------------------------------------------------

    def _ensure_listener(self) -> None:
        with self._lock:
            if self._listener is not None and self._listener.is_alive():
                return
            self._listener = threading.Thread(target=self._listen, name="delve-live", daemon=True)
            self._listener.start()

    def _listen(self) -> None:
        import redis

        pause = 0.5
        while True:
            try:
                client = redis.Redis.from_url(self.redis_url, socket_connect_timeout=2, health_check_interval=5)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(f"{self.prefix}game:*")
                self._connected_again()
                pause = 0.5
                log.info("live: listening for notices on %s", self.redis_url)
                while True:
                    message = pubsub.get_message(timeout=5.0)
                    if message is None:
                        pubsub.check_health()
                        continue
                    self._received(message)
            except (redis.RedisError, OSError) as exc:
                if self._connected.is_set():
                    log.warning("live: lost Redis (%s); open streams end, pages poll until it is back", exc)
                self._connected.clear()
                self.last_error = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                self.break_all()
                time.sleep(pause)
                pause = min(pause * 2, 10.0)

    def _received(self, message: dict[str, Any]) -> None:
        try:
            body = json.loads(message["data"])
            game_id = int(body["game"])
            seen = {str(k): int(v) for k, v in body["seen"].items()}
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("live: a malformed notice on %r ignored", message.get("channel"))
            return
        self._deliver(game_id, seen)


@functools.cache
def hub() -> Hub:
    """The process's hub, configured from the settings (``REDIS_URL``, ``DELVE_REDIS_PREFIX``)."""
    from django.conf import settings

    return Hub(getattr(settings, "REDIS_URL", ""), getattr(settings, "DELVE_REDIS_PREFIX", "delve:"))


def publish_on_commit(game_id: int, observed: dict[str, Any] | None, version: int, connection: Any = None) -> None:
    """Publish a game's counters once the current transaction commits (at once outside one).
    ``connection``: the transaction's connection (Django's default one) when the caller has it
    at hand, instead of looking it up again."""
    seen = {str(key): int(entry[0]) for key, entry in (observed or {}).items()}
    seen.setdefault("*", version)
    if connection is None:
        from django.db import transaction

        connection = transaction.get_connection()
    connection.on_commit(lambda: hub().publish(game_id, seen))
