"""Spectators: anybody may watch a running game (the ruleset's public view, ``view(state, None)``,
built from an allow-list), unless its host turns spectators off. Then only its players (and the
host of a hot-seat table playing in it), its host and operators may open its pages and its API
view; registration pages of open games and finished games (replays, exports) stay public.

The check is one middleware (:class:`SpectatorGate`) in front of the game pages and the API's
game reads, so no view has to remember it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from delve.server.games.models import Game, Seat
from delve.server.social.models import SpectatorPolicy

#: The reads a spectator makes: the game pages (all but the rules help) and the API's game reads.
GATED = {"play": None, "api": {"game", "events", "commands"}, "social": {"chat"}}
OPEN_PLAY_VIEWS = {"help"}


def is_host(game: Game, user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_staff or (game.created_by_id and game.created_by_id == user.pk)))


def may_watch(game: Game, user: Any) -> bool:
    """Whether ``user`` may see ``game``'s pages now."""
    if game.status != Game.Status.RUNNING:
        return True
    policy = SpectatorPolicy.objects.filter(game=game).first()
    if policy is None or policy.allowed:
        return True
    if not user.is_authenticated:
        return False
    if is_host(game, user):
        return True
    seats = Seat.objects.filter(game=game)
    return seats.filter(user=user).exists() or seats.filter(table__host=user).exists()


def allowed(game: Game) -> bool:
    policy = SpectatorPolicy.objects.filter(game=game).first()
    return policy is None or policy.allowed


class SpectatorGate:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        match = request.resolver_match
        if match is None or "game_id" not in kwargs or request.method not in ("GET", "HEAD"):
            return None
        namespace = match.namespace
        if namespace not in GATED:
            return None
        names = GATED[namespace]
        if (names is not None and match.url_name not in names) or (
            namespace == "play" and match.url_name in OPEN_PLAY_VIEWS
        ):
            return None
        # One query for the usual answer (a game open to spectators, or not running): its status
        # and its policy; the closed case then asks who the caller is.
        found = Game.objects.filter(pk=kwargs["game_id"]).values_list("status", "spectators__allowed").first()
        if found is None or found[0] != Game.Status.RUNNING or found[1] in (None, True):
            return None
        game = Game.objects.filter(pk=kwargs["game_id"]).only("pk", "status", "created_by_id").first()
        if game is None or may_watch(game, request.user):
            return None
        message = _("The host of this game has closed it to spectators: only its players can watch it.")
        if namespace == "api":
            return JsonResponse({"error": {"code": "game/no_spectators", "message": message}}, status=403)
        return render(request, "error.html", {"status": 403, "message": message}, status=403)
