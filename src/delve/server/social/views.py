"""The host's switch for spectators (``POST /games/<id>/spectators/``) and the game's chat
(``/games/<id>/chat/``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from delve.server.games.errors import Rejected
from delve.server.games.models import Game
from delve.server.social import chat as game_chat
from delve.server.social.models import ChatMessage, SpectatorPolicy
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


# --- the chat ---------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def chat(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/games/<id>/chat/``: read (anyone who may watch) and write (players)."""
    game = get_object_or_404(Game, pk=game_id)
    status = 200
    error = ""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next=/games/{game.pk}/chat/")
        try:
            game_chat.post(game, request.user, request.POST.get("text", ""))
            return redirect("social:chat", game_id=game.pk)
        except Rejected as exc:
            error, status = exc.message, exc.status
    seated = request.user.is_authenticated and game.seats.filter(user=request.user, index__isnull=False).exists()
    if request.method != "POST" and request.GET.get("lines") == "1":
        # the list alone: the open page fetches it every few seconds (static/delve/chat.js)
        lines = {"game": game, "lines": game_chat.lines(game), "seated": seated, "host": is_host(game, request.user)}
        return render(request, "social/_chat_lines.html", lines)
    context = {
        "game": game,
        "lines": game_chat.lines(game),
        "seated": seated,
        "host": is_host(game, request.user),
        "error": error,
        "text": request.POST.get("text", "") if error else "",
        "max_length": ChatMessage.MAX_LENGTH,
    }
    return render(request, "social/chat.html", context, status=status)


@require_POST
@login_required
def chat_action(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    """Report a message (a player) or hide / show it (the host)."""
    message = ChatMessage.objects.select_related("game").filter(pk=message_id, game_id=game_id).first()
    if message is None:
        raise Http404("no such chat message in this game")
    action = request.POST.get("action")
    try:
        if action == "report":
            if game_chat.report(message, request.user):
                messages.success(request, _("Reported to the host."))
            else:
                messages.info(request, _("You had already reported this message."))
        elif action in {"hide", "show"}:
            game_chat.hide(message, request.user, hidden=action == "hide")
        else:
            message_text = _("Choose report, hide or show.")
            return render(request, "error.html", {"status": 400, "message": message_text}, status=400)
    except Rejected as exc:
        return render(request, "error.html", {"status": exc.status, "message": exc.message}, status=exc.status)
    return redirect("social:chat", game_id=game_id)
