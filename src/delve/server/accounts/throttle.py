"""Failed log-ins are counted per account and per address, in the database, so every server
process (on SQLite or PostgreSQL) sees the same counts without a cache server.

After ``per_account`` failures for one user name, or ``per_address`` failures from one address
(an IPv6 address counts by its /64 network), with no more than the lockout time between two of
them, further attempts for that account or from that address are refused for the lockout time
without checking the password at all. A successful log-in clears its account's count (not the
address's: guessing between two log-ins to one's own account stays counted).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import math
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.http import HttpRequest

from delve.server.accounts.models import LoginFailures

ACCOUNT = "account:"
ADDRESS = "address:"


@dataclass(frozen=True)
class Limits:
    per_account: int
    per_address: int
    lockout: dt.timedelta

    @classmethod
    def from_settings(cls) -> Limits:
        conf = settings.LOGIN_THROTTLE
        return cls(conf["PER_ACCOUNT"], conf["PER_ADDRESS"], dt.timedelta(seconds=conf["LOCKOUT_SECONDS"]))

    def limit_for(self, key: str) -> int:
        return self.per_account if key.startswith(ACCOUNT) else self.per_address


def account_key(username: str) -> str:
    return ACCOUNT + username.strip().casefold()[:150]


def address_key(request: HttpRequest) -> str | None:
    """The client's address (``REMOTE_ADDR``, which the trusted-proxy middleware has already set
    from ``X-Forwarded-For`` when the request came through a trusted proxy)."""
    raw = request.META.get("REMOTE_ADDR") or ""
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return None
    if address.version == 6:
        mapped = address.ipv4_mapped
        if mapped is None:
            return ADDRESS + str(ipaddress.ip_network(f"{address}/64", strict=False))
        address = mapped
    return ADDRESS + str(address)


def keys_for(request: HttpRequest, username: str | None) -> list[str]:
    keys = [key for key in (address_key(request),) if key]
    if username:
        keys.append(account_key(username))
    return keys


def locked_for(keys: Iterable[str], now: dt.datetime) -> int:
    """Seconds until the longest lock among ``keys`` ends (0: not locked)."""
    ends = LoginFailures.objects.filter(key__in=list(keys), locked_until__gt=now).values_list("locked_until", flat=True)
    return max((math.ceil((end - now).total_seconds()) for end in ends), default=0)


def note_failure(keys: Iterable[str], now: dt.datetime, limits: Limits | None = None) -> None:
    """Count one failed log-in for each key; lock the keys that reach their limit."""
    limits = limits or Limits.from_settings()
    stale = now - limits.lockout
    for key in keys:
        with transaction.atomic():
            # One UPDATE: atomic on both databases, so concurrent processes never lose a count.
            counted = LoginFailures.objects.filter(key=key).update(
                failures=Case(When(last_failure_at__lt=stale, then=Value(1)), default=F("failures") + 1),
                last_failure_at=now,
            )
            if not counted:
                try:
                    with transaction.atomic():
                        LoginFailures.objects.create(key=key, failures=1, last_failure_at=now)
                except IntegrityError:  # another process created it first: count on its row
                    LoginFailures.objects.filter(key=key).update(failures=F("failures") + 1, last_failure_at=now)
            LoginFailures.objects.filter(key=key, failures__gte=limits.limit_for(key)).update(
                locked_until=now + limits.lockout
            )
    LoginFailures.objects.filter(
        Q(locked_until__isnull=True) | Q(locked_until__lt=now), last_failure_at__lt=stale
    ).delete()


def note_success(username: str) -> None:
    LoginFailures.objects.filter(key=account_key(username)).delete()
