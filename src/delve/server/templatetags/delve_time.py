"""``{{ when|zoned }}``: a time (engine seconds or a datetime) in the reader's zone with the zone's
abbreviation or UTC offset, "2026-12-05 22:00 JST" (``{{ when|zoned:"m-d H:i" }}`` for another
format); ``{{ when|zoned_iso }}`` for a ``<time datetime>``. See ``delve.server.usertime``."""

from __future__ import annotations

from typing import Any

from django import template

from delve.server import usertime

register = template.Library()


@register.filter
def zoned(value: Any, fmt: str = usertime.FULL) -> str:
    return usertime.say(value, fmt=fmt or usertime.FULL)


@register.filter
def zoned_iso(value: Any) -> str:
    return usertime.iso(value)
