"""Each player's time zone: the zone a logged-in player chose on the preference page (stored on
``notify.Preference.time_zone``; empty = the server's ``DELVE_TIME_ZONE``), activated for each of
their requests by :class:`TimeZoneMiddleware`, and the one way every time is written for a reader:
in their zone, followed by the zone's abbreviation or its UTC offset ("2026-12-05 22:00 JST",
"2026-12-05 10:00 UTC-03:00"), so a time never reads as if it were the reader's own when it is not.
Notifications are written in their recipient's zone (:func:`zone_of`), not the request's."""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

#: The format of a full date and time (Django's ``date`` filter letters); the zone follows.
FULL = "Y-m-d H:i"


@functools.cache
def zone_names() -> tuple[str, ...]:
    """The IANA zones a player may choose: the canonical region/city names (and ``UTC``), in
    alphabetical order, so a select's typing jumps to "Asia/T…" and a search finds "Tokyo"."""
    names = {
        name
        for name in zoneinfo.available_timezones()
        if "/" in name and name.split("/", 1)[0] in REGIONS and not name.startswith("Etc/")
    }
    return ("UTC", *sorted(names))


#: The areas of the zones offered (leaving out the legacy aliases: "US/Pacific", "Japan", "GB").
REGIONS = frozenset(
    {"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"}
)


def is_zone(name: Any) -> bool:
    """Whether ``name`` is a zone this server knows (any IANA name, the offered ones and their
    aliases: a browser may report "Asia/Calcutta")."""
    if not isinstance(name, str) or not name or len(name) > 64 or name != name.strip():
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return False
    return True


def server_zone() -> str:
    """The zone of players who chose none: ``DELVE_TIME_ZONE``."""
    return str(settings.TIME_ZONE)


def zone(name: str | None) -> zoneinfo.ZoneInfo:
    """The zone called ``name``, or the server's when it is empty or unknown."""
    if name and is_zone(name):
        return zoneinfo.ZoneInfo(name)
    return zoneinfo.ZoneInfo(server_zone())


def chosen_zone(user: Any) -> str:
    """The zone ``user`` chose ("" when none: they read the server's)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    from delve.server.notify.models import Preference

    found = Preference.objects.filter(user_id=user.pk).values_list("time_zone", flat=True).first()
    return found or ""


def zone_of(user: Any) -> zoneinfo.ZoneInfo:
    """The zone ``user`` reads times in (theirs, or the server's)."""
    return zone(chosen_zone(user))


def abbreviation(moment: dt.datetime) -> str:
    """The zone of an aware time as its reader knows it: the abbreviation where the zone has a
    lettered one ("JST", "CET", "UTC"), else the offset from UTC ("UTC+05:30", "UTC-03:00")."""
    name = moment.tzname() or ""
    if name and name[0] not in "+-" and not name[0].isdigit():
        return name
    return _utc_offset(moment)


def offset_text(name: str, at: dt.datetime | None = None) -> str:
    """``name``'s offset from UTC now, as the zone select lists it: "UTC+09:00"."""
    return _utc_offset((at or dt.datetime.now(dt.UTC)).astimezone(zoneinfo.ZoneInfo(name)))


def _utc_offset(moment: dt.datetime) -> str:
    """An aware time's offset from UTC: "UTC+09:00", "UTC-03:30"."""
    offset = moment.utcoffset() or dt.timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def moment(value: Any) -> dt.datetime | None:
    """An engine time (seconds since the epoch) or an aware datetime as an aware datetime."""
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value if timezone.is_aware(value) else timezone.make_aware(value, dt.UTC)
    return dt.datetime.fromtimestamp(int(value), dt.UTC)


def say(value: Any, tz: dt.tzinfo | None = None, fmt: str = FULL) -> str:
    """``value`` (engine seconds or a datetime) in ``tz`` (the current zone when none: the
    reader's on a page) as ``fmt`` says, then its zone: "2026-12-05 22:00 JST"; "" for nothing."""
    from django.utils import dateformat

    when = moment(value)
    if when is None:
        return ""
    local = when.astimezone(tz or timezone.get_current_timezone())
    return f"{dateformat.format(local, fmt)} {abbreviation(local)}"


def iso(value: Any) -> str:
    """``value`` as ISO 8601 with its offset, in the current zone (a ``<time datetime>``)."""
    when = moment(value)
    return "" if when is None else timezone.localtime(when).isoformat(timespec="seconds")


class TimeZoneMiddleware:
    """Activates the logged-in player's zone for the request (``django.utils.timezone``), the
    server's for everyone else; ``request.time_zone_chosen`` says whether the player chose one
    (the page offers the device's zone until they do)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        chosen = chosen_zone(user) if user is not None and user.is_authenticated else ""
        request.time_zone_chosen = bool(chosen)  # type: ignore[attr-defined]
        if chosen and is_zone(chosen):
            timezone.activate(zoneinfo.ZoneInfo(chosen))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
