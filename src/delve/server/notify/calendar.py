"""The personal iCalendar feed (RFC 5545): one event per upcoming deadline of the player's running
games (abandonment or autopilot) and per first lost turn. Written by hand: the format is small, and
the tests parse it back with the ``icalendar`` package."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True)
class Deadline:
    uid: str
    at: int
    summary: str
    description: str
    url: str


def escape(value: str) -> str:
    """A TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and newlines escaped."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")


def fold(line: str) -> str:
    """Lines longer than 75 octets continue on the next line after a space (RFC 5545 3.1)."""
    encoded = line.encode()
    if len(encoded) <= 75:
        return line
    parts, current = [], b""
    for char in line:
        piece = char.encode()
        if len(current) + len(piece) > (75 if not parts else 74):
            parts.append(current.decode())
            current = b""
        current += piece
    parts.append(current.decode())
    return "\r\n ".join(parts)


def stamp(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def feed(name: str, deadlines: Iterable[Deadline], now: int, zone: str = "") -> str:
    """The feed; ``zone``: the reader's time zone, named for the calendar applications that show
    a feed in the zone it says (X-WR-TIMEZONE); the times themselves are UTC, which every
    application shows in its own zone."""
    host = settings.DELVE_SITE_URL.split("://", 1)[-1].split("/", 1)[0] or "delve"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Delve//deadlines//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(name)}",
        *([f"X-WR-TIMEZONE:{escape(zone)}"] if zone else []),
    ]
    for item in deadlines:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{escape(item.uid)}@{host}",
            f"DTSTAMP:{stamp(now)}",
            f"DTSTART:{stamp(item.at)}",
            f"DTEND:{stamp(item.at + 15 * 60)}",
            f"SUMMARY:{escape(item.summary)}",
            f"DESCRIPTION:{escape(item.description)}",
            f"URL:{item.url}",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            f"DESCRIPTION:{escape(item.summary)}",
            "TRIGGER:-PT1H",
            "END:VALARM",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
