"""Personal records pages: ``/records/`` (yours) and ``/records/<username>/``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
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


def _page(request: HttpRequest, owner: Any) -> HttpResponse:
    records = list(owner.records.all())
    wins = sum(record.won for record in records)
    return render(
        request,
        "records/records.html",
        {"owner": owner, "records": records, "wins": wins, "mine": owner == request.user},
    )


@require_GET
@login_required
def mine(request: HttpRequest) -> HttpResponse:
    return _page(request, request.user)


@require_GET
def of_user(request: HttpRequest, username: str) -> HttpResponse:
    owner = get_user_model().objects.filter(username=username).first()
    if owner is None:
        raise Http404(f"there is no player {username!r}")
    return _page(request, owner)
