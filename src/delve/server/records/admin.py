from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from delve.server.records.models import Record


@admin.register(Record)
class RecordAdmin(admin.ModelAdmin):
    """Records are written by the server when a game ends; operators read them (and may delete)."""

    list_display = ("ended_at", "user", "character_name", "preset", "character_class", "result", "kills", "treasures")
    list_filter = ("ruleset", "preset", "result", "won")
    search_fields = ("user__username", "character_name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
