"""The two ways out: e-mail through Django's mail backend (console by default, SMTP when the
environment names a host, see settings) and Web Push through pywebpush (only when the VAPID keys
are in the environment). A channel raises :class:`Failed` (try later) or :class:`Gone` (the
recipient no longer exists: a push subscription the push service has dropped)."""

from __future__ import annotations

import json
import logging
import re
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage, get_connection

from delve.server.notify.models import OutboxMessage, PushSubscription

log = logging.getLogger("delve.notify")


class Failed(Exception):
    """The message could not be sent now; it stays in the outbox for a later attempt."""


class Gone(Exception):
    """The recipient no longer exists; the message is not sent again."""


def push_enabled() -> bool:
    return bool(settings.DELVE_VAPID_PUBLIC_KEY and settings.DELVE_VAPID_PRIVATE_KEY)


def key_census() -> dict[str, int]:
    """How many push subscriptions were made with the server's current VAPID public key
    (``current``), with another one (``older``: the keys were changed since; such a browser gets
    nothing until it subscribes again, which the site's script does when its player next opens
    a page) and before Delve recorded the key (``unknown``)."""
    from django.db.models import Count

    current = settings.DELVE_VAPID_PUBLIC_KEY
    census = {"current": 0, "older": 0, "unknown": 0}
    for row in PushSubscription.objects.values("server_key").annotate(n=Count("pk")):
        key = row["server_key"]
        census["unknown" if not key else "current" if key == current else "older"] += row["n"]
    return census


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
    cannot reach now (the ``TTL`` header); a seam the tests replace. A private key pywebpush
    cannot read raises :class:`py_vapid.VapidException`, as a refused subject does."""
    from py_vapid import Vapid, VapidException
    from pywebpush import webpush as send

    try:
        key = Vapid.from_string(private_key=settings.DELVE_VAPID_PRIVATE_KEY)
    except Exception as exc:  # py_vapid raises what cryptography raises: ValueError, TypeError...
        raise VapidException(f"DELVE_VAPID_PRIVATE_KEY cannot be read: {type(exc).__name__}: {exc}") from exc
    send(
        subscription_info=subscription,
        data=data,
        vapid_private_key=key,
        vapid_claims={"sub": settings.DELVE_VAPID_SUBJECT},
        timeout=settings.DELVE_PUSH_TIMEOUT,
        ttl=ttl,
    )


def subscription_problem(endpoint: Any, p256dh: Any, auth: Any) -> str | None:
    """Why a browser's subscription cannot be pushed to (None when it can): the endpoint must be
    an ``https`` URL with a host (the VAPID audience is made of it), ``p256dh`` the base64url text
    of an uncompressed P-256 point and ``auth`` that of a 16-byte secret, as browsers give them."""
    from cryptography.hazmat.primitives.asymmetric import ec

    from delve.server.env import b64decode

    if not all(isinstance(value, str) and value for value in (endpoint, p256dh, auth)):
        return "the endpoint and the keys must be non-empty texts"
    try:
        origin = urlsplit(endpoint)
        good = origin.scheme == "https" and re.fullmatch(r"[^/:@\s]+(:\d+)?", origin.netloc) is not None
    except ValueError:
        good = False
    if not good:
        return "the endpoint must be an https URL with a host"
    raw = b64decode(p256dh)
    try:
        if raw is None or len(raw) != 65 or raw[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return "the p256dh key is not the base64url text of a P-256 public key"
    secret = b64decode(auth)
    if secret is None or len(secret) != 16:
        return "the auth secret is not the base64url text of 16 bytes"
    return None


def send_push(message: OutboxMessage, now: int) -> None:
    """Send to each of the user's browsers (kept by the push service for :func:`push_ttl`
    seconds), except those made with an older VAPID key (see :func:`key_census`). A subscription
    the push service reports gone (404, 410), or one that cannot be pushed to at all
    (:func:`subscription_problem`: stored before it was checked, or damaged), is deleted. Any
    other error of one browser, including one of the push library, is that browser's: the others
    are still sent to, and one warning names what failed. A refused VAPID key or subject stops the
    message (every browser would fail alike). Fails when no browser took it and at least one
    failed."""
    from py_vapid import VapidException
    from pywebpush import WebPushException

    if not push_enabled():
        raise Failed("Web Push is off (no VAPID keys in the environment)")
    data = json.dumps({"title": message.subject, "body": message.body, "url": message.url})
    subscriptions = list(PushSubscription.objects.filter(user=message.user))
    if not subscriptions:
        raise Gone("the user has no push subscription left")
    ttl = push_ttl(message, now)
    delivered, errors, older = 0, [], 0
    for subscription in subscriptions:
        if subscription.key_state(settings.DELVE_VAPID_PUBLIC_KEY) == "older":
            older += 1  # the push service would refuse it; kept, should the old keys come back
            continue
        problem = subscription_problem(subscription.endpoint, subscription.p256dh, subscription.auth)
        if problem:
            log.warning(
                "push subscription %s of %s deleted: %s (its player can turn push on again on the preferences page)",
                subscription.pk,
                message.user,
                problem,
            )
            subscription.delete()
            continue
        try:
            webpush(subscription.info(), data, ttl)
            delivered += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                subscription.delete()
            else:
                errors.append(f"subscription {subscription.pk}: {_one_line(exc)}")
        except VapidException as exc:
            errors.append(f"the VAPID key or subject was refused: {_one_line(exc)}")
            break  # signed before anything is sent: every browser would fail alike
        except OSError as exc:  # connection errors (requests' are OSErrors)
            errors.append(f"subscription {subscription.pk}: {type(exc).__name__}: {_one_line(exc)}")
        except Exception as exc:  # noqa: BLE001 (a library error for one browser must not stop the others)
            errors.append(f"subscription {subscription.pk}: {type(exc).__name__}: {_one_line(exc)}")
    if not delivered and errors:
        raise Failed("; ".join(errors)[:1000])
    if errors:
        log.warning(
            "push message %s sent to %s browser(s) of %s, not to %s: %s",
            message.pk,
            delivered,
            message.user,
            len(errors),
            "; ".join(errors)[:1000],
        )
    if not delivered and older:
        raise Gone(
            f"the user's {older} browser(s) subscribed with an older VAPID key: they subscribe again with the "
            "current one when the player next opens Delve"
        )
    if not delivered:
        raise Gone("every push subscription of the user is gone")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] or type(exc).__name__
