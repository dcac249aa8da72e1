"""The template context of live updates: whether the screens follow their game's event stream."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def live(request: HttpRequest) -> dict[str, bool]:
    return {"live_push": bool(getattr(settings, "LIVE_PUSH", True))}
