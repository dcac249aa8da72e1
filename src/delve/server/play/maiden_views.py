"""The White Maiden screen's requests: the page, one panel, the poll and a decision (``act``).

Decisions go through the same submit path as the JSON API (``engine.submit``), guarded by the
digest of the choices the player saw; a hot-seat host acts for the seat the screen showed, and
only for a seat of their table.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from delve.kernel import DelveError
from delve.kernel.words import join
from delve.server import clock, inputs
from delve.server.games import bots, engine, present
from delve.server.games.errors import Rejected
from delve.server.games.models import Game
from delve.server.play import maiden_screen
from delve.server.play.views import _signatures, _version, moved_on, refusal, reload, web_key


def _maiden_game(game_id: int) -> Game:
    found = get_object_or_404(Game, pk=game_id)
    if found.ruleset != maiden_screen.MAIDEN:
        raise Http404("this game has no White Maiden screen")
    return found


def _prefer(raw: str | None) -> int | None:
    """The seat the screen shows (``seat=N``; absent: the caller's own; malformed: 400)."""
    return inputs.optional_number(raw, "seat", maximum=999)


def page(request: HttpRequest, found: Game) -> HttpResponse:
    screen = maiden_screen.load(found, request.user, prefer=_prefer(request.GET.get("seat")))
    # a hot-seat table: the seats the player plays, each of which they may hand to a bot
    leave_seats = bots.leave_seats(found, request.user) if screen.table else []
    return render(
        request,
        "play/maiden/screen.html",
        {
            "game": found,
            "s": screen,
            "summary": present.game_summary(found, seats=screen.seats),
            "panels": maiden_screen.all_panels(screen) if screen.view is not None else {},
            "server_now": clock.now(),
            "can_leave": bool(leave_seats) or (not screen.table and bots.can_leave(found, screen.mine)),
            "leave_seats": leave_seats,
            "leave_names": join([seat.name for seat in leave_seats], screen.lang),
        },
    )


@require_safe
def panel(request: HttpRequest, game_id: int, name: str) -> HttpResponse:
    if name not in maiden_screen.PANELS:
        raise Http404("no such panel")
    found = _maiden_game(game_id)
    screen = maiden_screen.load(found, request.user, prefer=_prefer(request.GET.get("seat")))
    if screen.view is None:
        return HttpResponse(status=204)
    html, _sig = maiden_screen.render_panel(screen, name)
    return HttpResponse(html)


@require_safe
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """204 while nothing can have changed since ``version``; otherwise the changed panels as
    out-of-band swaps (``force`` sends them all). Never changes the game."""
    found = _maiden_game(game_id)
    if moved_on(request.GET.get("status"), found):
        return reload()
    due = found.next_due_at is not None and found.next_due_at <= clock.now()
    unchanged = request.GET.get("version", "") == str(found.version) and not due
    force = request.GET.get("force") == "1"
    if found.status == Game.Status.OPEN or (unchanged and not force):
        return HttpResponse(status=204)
    screen = maiden_screen.load(found, request.user)
    known = None if force else _signatures(request.GET.get("sigs", ""))
    return HttpResponse(maiden_screen.render_panels(screen, known=known))


def _with_dice(command: Any, ticked: list[str]) -> tuple[Any, str]:
    """A use whose variants differ only by a set of dice (``pick=dice``): the ticked boxes make
    its ``dice``; the engine then accepts it only if that set is one of the legal picks."""
    if not isinstance(command, dict) or "dice" in command:
        return command, _("Choose a command first.")
    try:
        chosen = sorted({inputs.whole_number(raw, "pick_dice", maximum=99) for raw in ticked})
    except Rejected:
        return command, _("Tick the dice first.")
    if not chosen:
        return command, _("Tick the dice first.")
    return {**command, "dice": chosen}, ""


def _with_die_face(command: Any, die: str | None, face: str | None) -> tuple[Any, str]:
    """A use whose variants differ only by a die and a face (``pick=die_face``, Verdict): the two
    chosen values make its ``die`` and ``face``; the engine accepts it only if it is a legal pick."""
    if not isinstance(command, dict) or "die" in command or "face" in command:
        return command, _("Choose a command first.")
    try:
        chosen_die = inputs.whole_number(die or "", "pick_die", maximum=99)
        chosen_face = inputs.whole_number(face or "", "pick_face", maximum=999)
    except Rejected:
        return command, _("Choose a die and a face first.")
    return {**command, "die": chosen_die, "face": chosen_face}, ""


@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    """One decision from the screen. ``seat`` names the seat the screen showed: the caller's own,
    or one of their table's (hot-seat); anything else is refused and nothing changes."""
    found = _maiden_game(game_id)
    htmx = request.headers.get("HX-Request") == "true"
    if not request.user.is_authenticated:
        if htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = f"/accounts/login/?next=/games/{found.pk}/"
            return response
        return redirect(f"/accounts/login/?next=/games/{found.pk}/")
    # Everything the answer needs is parsed before anything changes (malformed: a 400 page).
    version = _version(request.POST.get("version"))
    known = _signatures(request.POST.get("sigs", ""))
    error = ""
    command: Any = None
    try:
        command = inputs.json_text(request.POST.get("command", ""), "command")
    except Rejected:
        error = _("Choose a command first.")
    if not error and request.POST.get("pick") == "dice":
        command, error = _with_dice(command, request.POST.getlist("pick_dice"))
    elif not error and request.POST.get("pick") == "die_face":
        command, error = _with_die_face(command, request.POST.get("pick_die"), request.POST.get("pick_face"))
    seats = present.public_seats(found)
    controlled = maiden_screen.controlled_seats(found, request.user, seats)
    wanted = _prefer(request.POST.get("seat"))
    seat = next((s for s in controlled if s.index == wanted), None) if wanted is not None else None
    if seat is None and not error:
        own = present.own_seat(seats, request.user)
        if wanted is None and own is not None:
            seat = own
        else:
            error = _("You do not play that seat in this game.")
    choices = request.POST.get("choices") or None
    if not error and seat is not None:
        try:
            engine.submit(found.pk, seat.user, command, choices=choices, idempotency_key=web_key(version, command))
        except DelveError as exc:
            error = refusal(exc)
    if not htmx:
        if error:
            messages.error(request, error)
        return redirect("play:game", game_id=found.pk)
    found.refresh_from_db()
    if moved_on(request.POST.get("status"), found):
        return reload()  # this decision (or another) ended the game: the whole page changes
    screen = maiden_screen.load(found, request.user)
    screen.error = error
    return HttpResponse(maiden_screen.render_panels(screen, known=known))
