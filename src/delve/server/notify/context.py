"""The template context of every page: what waits for the logged-in player (the site header's
"waiting on you: N"), worked out only when a page shows it."""

from __future__ import annotations

from django.http import HttpRequest

from delve.server.notify.waiting import Waiting


def waiting(request: HttpRequest) -> dict[str, Waiting | None]:
    user = getattr(request, "user", None)
    return {"waiting_on_me": Waiting(user) if user is not None and user.is_authenticated else None}
