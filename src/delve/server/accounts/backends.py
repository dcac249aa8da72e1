"""The authentication backend: Django's ModelBackend behind the log-in throttle."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils import timezone

from delve.server.accounts import throttle

THROTTLED = "delve_login_throttled"  # request attribute: seconds until the attempt may be retried


def throttled_for(request: HttpRequest | None) -> int:
    return int(getattr(request, THROTTLED, 0) or 0)


class ThrottledModelBackend(ModelBackend):
    """Refuses, without checking the password, log-ins for a locked account or from a locked
    address (see :mod:`delve.server.accounts.throttle`), and counts every failure.

    A refused attempt raises ``PermissionDenied`` (Django then stops trying backends) and leaves
    the wait in ``request.delve_login_throttled`` for the form's message and the 429 answer.
    Calls without a request (scripts, management commands) are not throttled.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if request is None or username is None or password is None:
            return super().authenticate(request, username, password, **kwargs)
        keys = throttle.keys_for(request, username)
        now = timezone.now()
        wait = throttle.locked_for(keys, now)
        if wait:
            setattr(request, THROTTLED, wait)
            raise PermissionDenied("too many failed log-ins")
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            throttle.note_failure(keys, now)
            wait = throttle.locked_for(keys, now)
            if wait:
                setattr(request, THROTTLED, wait)
        else:
            throttle.note_success(username)
        return user
