"""The two ways out: e-mail through Django's mail backend (console by default, SMTP when the
environment names a host, see settings) and Web Push through pywebpush (only when the VAPID keys
are in the environment). A channel raises :class:`Failed` (try later) or :class:`Gone` (the
recipient no longer exists: a push subscription the push service has dropped)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection

from delve.server.notify.models import OutboxMessage, PushSubscription


class Failed(Exception):
    """The message could not be sent now; it stays in the outbox for a later attempt."""


class Gone(Exception):
    """The recipient no longer exists; the message is not sent again."""


def push_enabled() -> bool:
    return bool(settings.DELVE_VAPID_PUBLIC_KEY and settings.DELVE_VAPID_PRIVATE_KEY)


def send_email(message: OutboxMessage, connection: Any = None) -> None:
    address = message.user.email
    if not address:
        raise Gone("the account has no e-mail address")
    body = message.body
    if message.url:
        body += f"\n\n{message.url}"
    try:
        sent = EmailMessage(
            subject=message.subject,
            body=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[address],
            connection=connection or get_connection(fail_silently=False),
        ).send(fail_silently=False)
    except (OSError, ValueError) as exc:  # smtplib's errors are OSErrors; a refused address is a ValueError
        raise Failed(f"{type(exc).__name__}: {exc}") from exc
    if sent != 1:
        raise Failed("the mail backend accepted no message")


#: Seconds a push service keeps a message for a browser it cannot reach now (a phone switched off,
#: asleep or out of coverage) before it drops it: a day, or less when the message tells of a
#: deadline that comes sooner (:func:`push_ttl`). pywebpush's default, 0, meant "now or never":
#: the push services dropped a "your turn" at once when the phone was offline.
PUSH_TTL = 24 * 3600


def push_ttl(message: OutboxMessage, now: int) -> int:
    """The push service's ``TTL`` for ``message`` sent at ``now``: until the deadline its notice
    tells of (a deadline warning's deadline, or the deadline of the seat whose turn or defense
    waits), at most :data:`PUSH_TTL`, at least one second."""
    deadline = message.notice.data.get("deadline") if message.notice is not None else None
    if not isinstance(deadline, int):
        return PUSH_TTL
    return max(1, min(PUSH_TTL, deadline - now))


def webpush(subscription: dict[str, Any], data: str, ttl: int) -> None:
    """One Web Push request (pywebpush), kept ``ttl`` seconds by the push service for a browser it
    cannot reach now (the ``TTL`` header); a seam the tests replace."""
    from pywebpush import webpush as send

    send(
        subscription_info=subscription,
        data=data,
        vapid_private_key=settings.DELVE_VAPID_PRIVATE_KEY,
        vapid_claims={"sub": settings.DELVE_VAPID_SUBJECT},
        timeout=settings.DELVE_PUSH_TIMEOUT,
        ttl=ttl,
    )


def send_push(message: OutboxMessage, now: int) -> None:
    """Send to each of the user's browsers (kept by the push service for :func:`push_ttl`
    seconds); subscriptions the push service reports gone (404, 410) are deleted. Fails when no
    browser took it and at least one failed."""
    from pywebpush import WebPushException

    if not push_enabled():
        raise Failed("Web Push is off (no VAPID keys in the environment)")
    data = json.dumps({"title": message.subject, "body": message.body, "url": message.url})
    subscriptions = list(PushSubscription.objects.filter(user=message.user))
    if not subscriptions:
        raise Gone("the user has no push subscription left")
    ttl = push_ttl(message, now)
    delivered, errors = 0, []
    for subscription in subscriptions:
        try:
            webpush(subscription.info(), data, ttl)
            delivered += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                subscription.delete()
            else:
                errors.append(str(exc))
        except OSError as exc:  # connection errors
            errors.append(f"{type(exc).__name__}: {exc}")
    if not delivered and errors:
        raise Failed("; ".join(errors)[:1000])
    if not delivered:
        raise Gone("every push subscription of the user is gone")
