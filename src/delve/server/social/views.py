"""The host's switch for spectators (``POST /games/<id>/spectators/``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from delve.server.games.models import Game
from delve.server.social.models import SpectatorPolicy
from delve.server.social.spectators import is_host


@require_POST
@login_required
def spectators(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(game, request.user):
        message = _("Only the host of this game can open or close it to spectators.")
        return render(request, "error.html", {"status": 403, "message": message}, status=403)
    choice = request.POST.get("allowed")
    if choice not in {"0", "1"}:
        message = _("Send allowed=1 (spectators welcome) or allowed=0 (players only).")
        return render(request, "error.html", {"status": 400, "message": message}, status=400)
    SpectatorPolicy.objects.update_or_create(game=game, defaults={"allowed": choice == "1", "changed_by": request.user})
    if choice == "1":
        messages.success(request, _("Spectators may watch this game (its public view)."))
    else:
        messages.success(request, _("This game is closed to spectators: only its players can watch it."))
    return redirect("play:game", game_id=game.pk)
