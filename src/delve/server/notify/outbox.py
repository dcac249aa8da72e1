"""Sending the outbox, and the daily digests. Run by the worker (``delve tick``, or the worker
thread of ``delve serve``), never by a request.

A message is claimed with compare-and-swap (a short lease), like a game: several workers never
send the same message. A failed attempt keeps the message and moves its next attempt later
(:func:`backoff`); nothing is dropped. The first e-mail failure of a pass postpones the pass's
other e-mails (the mail server is likely down: the worker does not wait on it message after
message), and a pass sends at most ``limit`` messages, so the game clock never waits long.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.urls import reverse

from delve.server import usertime
from delve.server.notify import channels, text
from delve.server.notify.models import Notice, OutboxMessage, Preference
from delve.server.notify.triggers import site_url, still_waiting

log = logging.getLogger("delve.notify")

LEASE = 120
MAX_BACKOFF = 3600


def backoff(attempts: int) -> int:
    """Seconds until the next attempt after ``attempts`` failures: 1, 2, 4... minutes, at most an hour."""
    return min(60 * 2 ** max(0, attempts - 1), MAX_BACKOFF)


def claim(now: int, worker: str, limit: int) -> list[int]:
    """Claim up to ``limit`` due messages; their ids."""
    due = (
        OutboxMessage.objects.filter(status=OutboxMessage.Status.PENDING, next_attempt_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .order_by("next_attempt_at", "pk")
        .values_list("pk", "claimed_until")[: limit * 2]
    )
    won = []
    for pk, seen in due:
        if len(won) >= limit:
            break
        if OutboxMessage.objects.filter(pk=pk, claimed_until=seen, status=OutboxMessage.Status.PENDING).update(
            claimed_until=now + LEASE, claimed_by=worker
        ):
            won.append(pk)
    return won


def deliver(now: int, worker: str = "worker", limit: int = 50) -> dict[str, int]:
    """Send due messages; counts of ``sent``, ``failed``, ``gone`` and ``postponed``."""
    counts = {"sent": 0, "failed": 0, "gone": 0, "postponed": 0, "stale": 0}
    email_down = False
    connection: Any = None
    for pk in claim(now, worker, limit):
        message = OutboxMessage.objects.select_related("user", "notice", "notice__game").get(pk=pk)
        if message.claimed_by != worker:
            continue
        if message.notice is not None and not still_waiting(message.notice):
            # the player took the decision before the message was due (or acted, and the deadline
            # a warning waiting for a failed mail server told of moved): nothing to tell
            message.status = OutboxMessage.Status.STALE
            _release(message)
            counts["stale"] += 1
            continue
        if message.channel == OutboxMessage.Channel.EMAIL and email_down:
            _release(message, next_attempt_at=now + backoff(1))
            counts["postponed"] += 1
            continue
        try:
            if message.channel == OutboxMessage.Channel.EMAIL:
                if connection is None:
                    from django.core.mail import get_connection

                    connection = get_connection(fail_silently=False)
                channels.send_email(message, connection)
            else:
                channels.send_push(message, now)
        except channels.Gone as exc:
            message.status = OutboxMessage.Status.GONE
            message.last_error = str(exc)[:1000]
            _release(message)
            counts["gone"] += 1
        except channels.Failed as exc:
            message.attempts += 1
            message.last_error = str(exc)[:1000]
            _release(message, next_attempt_at=now + backoff(message.attempts))
            counts["failed"] += 1
            log.warning("%s message %s not sent (attempt %s): %s", message.channel, pk, message.attempts, exc)
            if message.channel == OutboxMessage.Channel.EMAIL:
                email_down = True
        else:
            message.status = OutboxMessage.Status.SENT
            message.sent_at = now
            message.attempts += 1
            _release(message)
            counts["sent"] += 1
    return counts


def _release(message: OutboxMessage, next_attempt_at: int | None = None) -> None:
    if next_attempt_at is not None:
        message.next_attempt_at = next_attempt_at
    message.claimed_until = None
    message.claimed_by = ""
    message.save(
        update_fields=["status", "attempts", "last_error", "sent_at", "next_attempt_at", "claimed_until", "claimed_by"]
    )


# --- the daily digest ------------------------------------------------------------------------


def digest_time(pref: Preference, now: int) -> int:
    """The latest digest time (the preference's hour, UTC) at or before ``now``."""
    day = dt.datetime.fromtimestamp(now, dt.UTC).replace(hour=pref.digest_hour, minute=0, second=0, microsecond=0)
    at = int(day.timestamp())
    return at if at <= now else at - 24 * 3600


def digests(now: int) -> int:
    """Queue one e-mail per digest reader whose digest time has come and who has notices waiting;
    the number queued. A reader's waiting notices go into exactly one digest."""
    queued = 0
    users = Notice.objects.filter(digest=True).values_list("user_id", flat=True).distinct()
    for user_id in list(users):
        with transaction.atomic():
            pref = Preference.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
            if pref is None:
                continue
            due_at = digest_time(pref, now)
            if pref.last_digest_at is not None and pref.last_digest_at >= due_at:
                continue
            notices = list(
                Notice.objects.select_for_update().filter(user_id=user_id, digest=True).order_by("time", "pk")
            )
            if not notices:
                continue
            lang = text.language(pref.language)
            zone = usertime.zone(pref.time_zone)  # the reader's
            lines = [text.DIGEST_INTRO[lang], ""]
            for notice in notices:
                _subject, body = text.render(notice.kind, notice.data, lang, zone)
                game_url = site_url(reverse("play:game", args=[notice.game_id]))
                lines += [f"- {text.when(notice.time, zone)} {body}", f"  {text.OPEN_LINK[lang].format(url=game_url)}"]
            lines += ["", text.FOOTER[lang].format(url=site_url(reverse("notify:preferences")))]
            message = OutboxMessage.objects.create(
                user=pref.user,
                channel=OutboxMessage.Channel.EMAIL,
                subject=text.DIGEST_SUBJECT[lang].format(count=len(notices)),
                body="\n".join(lines),
                url=site_url(reverse("notify:dashboard")),
                created_at=now,
                next_attempt_at=now,
            )
            Notice.objects.filter(pk__in=[n.pk for n in notices]).update(digest=False, message=message)
            pref.last_digest_at = now
            pref.save(update_fields=["last_digest_at"])
            queued += 1
    return queued


def run_pass(now: int, worker: str = "worker") -> dict[str, int]:
    """One notification pass of the worker: scan due games, queue digests, send."""
    from delve.server.notify.triggers import scan_due

    counts = {"notices": scan_due(now), "digests": digests(now)}
    counts.update(deliver(now, worker))
    return counts
