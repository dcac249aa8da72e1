"""URL converters. ``<id:game_id>``: a row id, 1 to 18 ASCII digits, so an address with a
number beyond the database's 64-bit integers is simply not found (404) instead of overflowing
in the query (Django's ``<int:...>`` takes any length)."""

from __future__ import annotations

from django.urls import register_converter


class RowId:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowId, "id")
