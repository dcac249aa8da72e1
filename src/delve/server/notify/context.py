"""The template context of every page: what waits for the logged-in player (the site header's
"waiting on you: N"), worked out only when a page shows it."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from delve.server.notify.waiting import Waiting


def waiting(request: HttpRequest) -> dict[str, Waiting | str | None]:
    """Also the server's VAPID public key for a logged-in player when push is on: every page
    then checks that this browser's push subscription, if any, was made with it (push-key.js)."""
    from delve.server.notify.channels import push_enabled

    user = getattr(request, "user", None)
    logged_in = user is not None and user.is_authenticated
    return {
        "waiting_on_me": Waiting(user) if logged_in else None,
        "push_key": settings.DELVE_VAPID_PUBLIC_KEY if logged_in and push_enabled() else "",
    }
