"""Personal records pages: ``/records/`` (yours) and ``/records/<username>/``."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from delve.server.records.models import Record


def record_dict(record: Record) -> dict[str, Any]:
    return {
        "game": record.game_id,
        "date": record.ended_at.isoformat(),
        "ruleset": record.ruleset,
        "preset": record.preset,
        "character_name": record.character_name,
        "class": record.character_class,
        "options": record.options,
        "result": record.result,
        "won": record.won,
        "kills": record.kills,
        "treasures": record.treasures,
        "turns": record.turns,
    }


def public_records(username: str) -> tuple[str, list[Record]]:
    """The name to show and the records of the player called ``username``.

    An unknown name answers exactly like a player without records (no way to learn which names
    exist); a name no account could have is not even looked up.
    """
    if len(username) > 150 or not re.fullmatch(r"[\w.@+-]+", username):
        return username, []
    owner = get_user_model().objects.filter(username=username).first()
    if owner is None:
        return username, []
    return owner.get_username(), list(owner.records.all())


def _page(request: HttpRequest, name: str, records: list[Record]) -> HttpResponse:
    wins = sum(record.won for record in records)
    return render(request, "records/records.html", {"owner_name": name, "records": records, "wins": wins})


@require_GET
@login_required
def mine(request: HttpRequest) -> HttpResponse:
    return _page(request, request.user.get_username(), list(request.user.records.all()))


@require_GET
def of_user(request: HttpRequest, username: str) -> HttpResponse:
    return _page(request, *public_records(username))
