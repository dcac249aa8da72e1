"""Notifications: what each player wants to hear about, what happened (one notice per event), and
the outbox the worker sends from.

The request path never sends anything and never writes here except the preferences: the worker
scans games (``notify.triggers``), records each event once as a :class:`Notice` (a unique
constraint makes a second detection of the same event a no-op) and queues its messages in the
:class:`OutboxMessage` table in the same transaction; ``notify.outbox`` sends them and keeps a
failed message for a later attempt. Times are engine seconds since the epoch (``clock.now()``).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The events a player may be told about, in the order the preference page lists them.
KINDS: dict[str, Any] = {
    "turn": _("a turn is ready"),
    "defense": _("you are attacked and a defense waits"),
    "cap": _("your stored turns will hit the cap and turns will be lost"),
    "deadline_24h": _("the deadline (abandonment or autopilot) is 24 hours away"),
    "deadline_1h": _("the deadline (abandonment or autopilot) is 1 hour away"),
    "takeover": _("a bot took over your seat (you kept the game waiting too long)"),
    "started": _("the game has started"),
    "ended": _("the game has ended"),
}


def all_kinds() -> list[str]:
    return list(KINDS)


class Preference(models.Model):
    """A player's notification choices and their time zone. A player without a row has the
    defaults: e-mail and push on, every kind, sent at once, the cap warning 6 hours ahead, times in
    the server's zone (``time_zone`` empty: ``DELVE_TIME_ZONE``, see ``delve.server.usertime``)."""

    class Mode(models.TextChoices):
        INSTANT = "instant", _("at once")
        DIGEST = "digest", _("one e-mail a day (digest)")

    user = models.OneToOneField(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_preference"
    )
    email = models.BooleanField(_("by e-mail"), default=True)
    push = models.BooleanField(_("by browser push"), default=True)
    mode = models.CharField(_("when"), max_length=10, choices=Mode.choices, default=Mode.INSTANT)
    kinds = models.JSONField(_("about"), default=all_kinds, blank=True)
    cap_hours = models.PositiveSmallIntegerField(_("warn this many hours before turns are lost"), default=6)
    digest_hour = models.PositiveSmallIntegerField(_("digest hour (UTC)"), default=8)
    language = models.CharField(_("language"), max_length=10, default="en")
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        default="",
        help_text=_("An IANA zone such as Asia/Tokyo; empty: the server's zone (DELVE_TIME_ZONE)."),
    )
    calendar_token = models.CharField(_("calendar token"), max_length=64, null=True, blank=True, unique=True)
    last_digest_at = models.BigIntegerField(_("last digest"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return f"{self.user} ({self.mode})"

    def wants(self, kind: str) -> bool:
        return kind in (self.kinds or [])

    def new_calendar_token(self) -> str:
        """A fresh secret for the calendar feed URL; the old URL stops working."""
        self.calendar_token = secrets.token_urlsafe(24)
        return self.calendar_token


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the endpoint and its keys, as the browser gave them)."""

    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("p256dh key"), max_length=200)
    auth = models.CharField(_("auth secret"), max_length=100)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    server_key = models.CharField(
        _("server key"),
        max_length=100,
        blank=True,
        default="",
        help_text=_("The VAPID public key the browser subscribed with (empty: before Delve recorded it)."),
    )

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user}: {self.endpoint[:40]}…"

    def info(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def key_state(self, current: str) -> str:
        """``current`` (made with the server's key ``current``), ``older`` (with another key: it
        cannot be pushed to) or ``unknown`` (made before the key was recorded)."""
        if not self.server_key:
            return "unknown"
        return "current" if self.server_key == current else "older"


class OutboxMessage(models.Model):
    """A message to send. Sent messages stay as the record of what was sent; a failed attempt
    moves ``next_attempt_at`` later and keeps the message (nothing is dropped)."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("e-mail")
        PUSH = "push", _("browser push")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting to be sent")
        SENT = "sent", _("sent")
        GONE = "gone", _("recipient gone")
        STALE = "stale", _("not sent: the player acted before it was due")

    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("body"))
    url = models.CharField(_("link"), max_length=500, blank=True, default="")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.BigIntegerField(_("created at"))
    next_attempt_at = models.BigIntegerField(_("next attempt at"), db_index=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True, default="")
    sent_at = models.BigIntegerField(_("sent at"), null=True, blank=True)
    claimed_until = models.BigIntegerField(_("claimed until"), null=True, blank=True)
    claimed_by = models.CharField(_("claimed by"), max_length=100, blank=True, default="")
    notice = models.ForeignKey(
        "Notice",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The notice a message about a waiting decision tells of (checked again before sending)."),
    )

    class Meta:
        ordering = ["id"]
        verbose_name = _("outgoing message")
        verbose_name_plural = _("outbox")
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")]

    def __str__(self) -> str:
        return f"{self.channel} to {self.user}: {self.subject}"


class Notice(models.Model):
    """One event a player may be told about, recorded once: ``(user, game, kind, key)`` is unique,
    so detecting it again (another pass, another worker) sends nothing more. ``digest`` marks a
    notice waiting for the player's daily digest; ``message`` is the digest it went out in."""

    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(_("kind"), max_length=20)
    key = models.CharField(_("key"), max_length=100)
    time = models.BigIntegerField(_("time"))
    data = models.JSONField(_("data"), default=dict)
    digest = models.BooleanField(_("waiting for the digest"), default=False, db_index=True)
    message = models.ForeignKey(OutboxMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    skipped = models.BooleanField(_("not sent (preferences)"), default=False)

    class Meta:
        ordering = ["id"]
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        constraints = [models.UniqueConstraint(fields=["user", "game", "kind", "key"], name="notice_once_per_event")]

    def __str__(self) -> str:
        return f"{self.user} game {self.game_id}: {self.kind} {self.key}"


class Watch(models.Model):
    """The notification scanner's bookmark for one game: the game version it last scanned and
    the next time something becomes due without a change (a deadline warning, a cap warning)."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True, related_name="notify_watch")
    scanned_version = models.PositiveBigIntegerField(_("scanned version"), default=0)
    next_check_at = models.BigIntegerField(_("next check at"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("notification watch")
        verbose_name_plural = _("notification watches")

    def __str__(self) -> str:
        return f"game {self.game_id} at version {self.scanned_version}"
