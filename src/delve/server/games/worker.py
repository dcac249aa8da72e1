"""The turn clock: a worker that advances games whose ``next_due_at`` has come.

A worker claims one due game at a time with compare-and-swap (a conditional ``UPDATE`` that sets
a short lease, ``claimed_until``/``claimed_by``, only if nobody holds a live one), then advances it
in a transaction that locks the row and checks again that the game is due and still claimed by
this worker. Several workers (threads, processes, machines) may run at once: a game is advanced
by exactly one of them, and a crashed worker's lease simply expires.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable

from django.db import close_old_connections, connection, transaction
from django.db.models import Q

from delve.kernel import DelveError
from delve.server import clock
from delve.server.games import engine
from delve.server.games.models import Game

log = logging.getLogger("delve.worker")

LEASE_SECONDS = 60
CANDIDATES = 20


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Worker:
    """Advances due games. :meth:`run_once` processes what is due now; :meth:`run` loops until
    ``stop`` is set, finishing the game it is on first."""

    def __init__(self, name: str | None = None, *, poll: float = 1.0, lease: int = LEASE_SECONDS) -> None:
        self.name = name or worker_name()
        self.poll = poll
        self.lease = lease
        self.processed = 0

    def claim(self, now: int, skip: set[int] | frozenset[int] = frozenset()) -> int | None:
        """Claim one due game with compare-and-swap; its id, or ``None`` when nothing is due."""
        due = (
            Game.objects.filter(status=Game.Status.RUNNING, next_due_at__lte=now)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .exclude(pk__in=skip)
            .order_by("next_due_at", "pk")
            .values_list("pk", "claimed_until")[:CANDIDATES]
        )
        for game_id, seen_lease in due:
            won = (
                Game.objects.filter(pk=game_id, claimed_until=seen_lease)
                .filter(status=Game.Status.RUNNING, next_due_at__lte=now)
                .update(claimed_until=now + self.lease, claimed_by=self.name)
            )
            if won:
                return int(game_id)
        return None

    def process(self, game_id: int) -> bool:
        """Advance a claimed game if it is still due and still ours; release the claim."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.claimed_by != self.name:
                return False  # our lease expired and another worker took the game
            now = clock.now()
            game.claimed_until = None
            game.claimed_by = ""
            due = game.status == Game.Status.RUNNING and game.next_due_at is not None and game.next_due_at <= now
            if not due:  # a player's command advanced it meanwhile
                game.save(update_fields=["claimed_until", "claimed_by"])
                return False
            engine.advance(game, now)
        self.processed += 1
        return True

    def run_once(self) -> int:
        """Advance every game due now (each at most once); the number advanced."""
        done: set[int] = set()
        advanced = 0
        while True:
            game_id = self.claim(clock.now(), skip=done)
            if game_id is None:
                return advanced
            done.add(game_id)
            try:
                advanced += self.process(game_id)
            except DelveError as exc:  # e.g. a ruleset this process does not know: leave the lease to expire
                log.error("game %s not advanced: %s", game_id, exc)

    def run_bots(self) -> int:
        """Let the bots of running games play one command each (see ``games.bots``)."""
        from delve.server.games import bots

        try:
            return bots.play_all()
        except DelveError as exc:
            log.error("bots not played: %s", exc)
            return 0

    def run_orders(self) -> int:
        """Let standing defense orders answer the defense phases they cover (``orders.fire``)."""
        from delve.server.orders import fire

        try:
            return fire.fire_due(clock.now())
        except DelveError as exc:
            log.error("standing orders not fired: %s", exc)
            return 0

    def run_notifications(self) -> dict[str, int]:
        """One notification pass (``notify.outbox.run_pass``): scan, digests, send."""
        from delve.server.notify import outbox

        try:
            return outbox.run_pass(clock.now(), self.name)
        except DelveError as exc:
            log.error("notifications not processed: %s", exc)
            return {}

    def run(self, stop: threading.Event, on_ready: Callable[[], None] | None = None) -> None:
        """Loop until ``stop`` is set. SIGTERM handlers set ``stop``; the current game finishes."""
        log.info("worker %s started (poll every %ss)", self.name, self.poll)
        if on_ready is not None:
            on_ready()
        try:
            while not stop.is_set():
                close_old_connections()
                try:
                    advanced = self.run_once()
                    self.run_bots()
                    self.run_orders()
                    self.run_notifications()
                except Exception:  # keep the clock running through a passing database error
                    log.exception("worker %s: a pass failed; retrying", self.name)
                    advanced = 0
                if not advanced:
                    connection.close()  # idle: give the connection back (to the pool on PostgreSQL)
                    stop.wait(self.poll)
        finally:
            connection.close()
            log.info("worker %s stopped after %s advances", self.name, self.processed)


def start_in_thread(poll: float = 1.0) -> Callable[[], None]:
    """Run a worker in a daemon thread (``delve serve``); returns a function that stops it."""
    stop = threading.Event()
    worker = Worker(poll=poll)
    thread = threading.Thread(target=worker.run, args=(stop,), name="delve-worker", daemon=True)
    thread.start()

    def shutdown() -> None:
        stop.set()
        thread.join(timeout=30)

    return shutdown
