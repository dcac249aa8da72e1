"""The game page: a placeholder screen that shows the caller's view (pretty-printed JSON), the
players, the recent events the caller may see, and forms for the legal commands and the comment.
Opening it applies the ruleset's command on open for the caller's seat (FL-LOGIN-3)."""

from __future__ import annotations

import json
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from delve.kernel import DelveError
from delve.server.games import engine, present
from delve.server.games.models import Game


@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    found = get_object_or_404(Game, pk=game_id)
    try:
        if engine.open_game(found.pk, request.user) is not None:
            found.refresh_from_db()
    except DelveError as exc:
        messages.error(request, exc.message)
    seats = present.public_seats(found)
    mine = present.own_seat(seats, request.user)
    index = None if mine is None else mine.index
    view = present.caller_view(found, index)
    commands = present.legal_commands(found, index) if index is not None else []
    return render(
        request,
        "play/game.html",
        {
            "game": found,
            "summary": present.game_summary(found, seats=seats),
            "seats": seats,
            "mine": mine,
            "view_json": None if view is None else json.dumps(view, indent=2, ensure_ascii=False, sort_keys=True),
            "commands": [{"json": json.dumps(c, ensure_ascii=False), "label": _label(c)} for c in commands],
            "events": present.recent_events(found, index),
            "outcome": present.outcome_dict(found),
            "form_key": secrets.token_urlsafe(12),
        },
    )


def _label(command: dict[str, object]) -> str:
    rest = " ".join(f"{key}={value}" for key, value in command.items() if key != "kind")
    return f"{command['kind']} {rest}".strip()


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdigit() else None


@require_POST
@login_required
def command(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        parsed = json.loads(request.POST.get("command", ""))
    except json.JSONDecodeError as exc:
        messages.error(request, _("The command is not valid JSON: %(error)s") % {"error": exc})
        return redirect("play:game", game_id=game_id)
    _submit(request, game_id, parsed)
    return redirect("play:game", game_id=game_id)


@require_POST
@login_required
def comment(request: HttpRequest, game_id: int) -> HttpResponse:
    _submit(request, game_id, {"kind": engine.COMMENT, "text": request.POST.get("text", "")})
    return redirect("play:game", game_id=game_id)


def _submit(request: HttpRequest, game_id: int, parsed: object) -> None:
    try:
        engine.submit(
            game_id, request.user, parsed, version=_version(request), idempotency_key=request.POST.get("key") or None
        )
    except DelveError as exc:
        messages.error(request, f"{exc.message} ({exc.code})")
    else:
        messages.success(request, _("Done."))
