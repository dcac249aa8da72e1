"""The game page. Games of the ``fated`` ruleset get the Fated Labyrinth screen (nine panels,
htmx, see docs/ui.md), ``maiden`` games the White Maiden board screen (``maiden_views``); other
rulesets keep the generic page, which shows the caller's view as JSON with a form per legal
command. Opening either applies the ruleset's command on open for
the caller's seat (FL-LOGIN-3, FL-TURN-8), once per page load; panel refreshes never do.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from delve.fated import text
from delve.kernel import DelveError
from delve.kernel.words import join
from delve.server import clock, inputs
from delve.server.games import bots, engine, present
from delve.server.games.errors import Rejected
from delve.server.games.models import Game
from delve.server.play import fated_log, fated_screen, help_page, maiden_help

FATED = "fated"
MAIDEN = "maiden"

#: Refusals the screen words itself (the engine's English message stays in the title).
FRIENDLY = {
    "command/stale_version": gettext_lazy(
        "The game changed while you were choosing (somebody acted, or the clock moved on). "
        "The screen is up to date again: please choose again."
    ),
    "command/idempotency_key_reused": gettext_lazy("That choice was already sent. The screen is up to date again."),
    "command/choices_changed": gettext_lazy(
        "Something happened that changed your choices. The screen is up to date again: please choose again."
    ),
    "comment/too_soon": gettext_lazy("Comments can be changed once a minute. Please wait a little."),
    "comment/too_long": gettext_lazy("A comment has at most 100 characters."),
    "game/ended": gettext_lazy("The game has ended: only comments are still possible."),
    "player/dead": gettext_lazy("You are dead: you can only change your comment."),
    "auth/required": gettext_lazy("Log in to play."),
    "seat/not_seated": gettext_lazy("You have no seat in this game."),
    "seat/not_taken_over": gettext_lazy("No bot plays your seat: it is yours to play already."),
    "seat/bot": gettext_lazy("A bot plays that seat already."),
    "seat/not_yours": gettext_lazy("You do not play that seat in this game."),
    "seat/taken_over": gettext_lazy("A bot plays your seat: take it back first (the button at the top), then play."),
    "game/not_started": gettext_lazy("The game has not started yet."),
}


#: Refusals told by their message (their code, request/malformed, says too little on its own).
FRIENDLY_MESSAGES = {
    inputs.COMMENT_CONTROL: gettext_lazy(
        "a comment is one line of printable text: no tabs, line breaks or other control characters"
    ),
}


def refusal(error: DelveError) -> str:
    friendly = FRIENDLY.get(error.code) or FRIENDLY_MESSAGES.get(error.message)
    return str(friendly) if friendly is not None else f"{inputs.error_body(error)['message']} ({error.code})"


def moved_on(drawn: str | None, game: Game) -> bool:
    """Whether a game screen, drawn while the game was ``drawn`` (open or running: the page's
    ``#game-status``), is behind its status now: the start changes the page, and so does the end
    (the seed, the replay and export links, no leaving any more), beyond what its panels refresh.
    Both screens' polls and commands then answer :func:`reload`."""
    return drawn in (Game.Status.OPEN, Game.Status.RUNNING) and drawn != game.status


def reload() -> HttpResponse:
    """The answer that has htmx load the whole page again (``HX-Refresh``)."""
    response = HttpResponse("")
    response["HX-Refresh"] = "true"
    return response


@require_safe
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page. Reading it changes nothing: when the caller's seat has something to open (a
    stored turn, FL-TURN-8), the page posts to ``open`` itself as it loads (CSRF-protected, so
    another site's link or image cannot start anybody's turn)."""
    found = get_object_or_404(Game, pk=game_id)
    if found.ruleset == FATED:
        return _fated_page(request, found)
    if found.ruleset == MAIDEN:
        from delve.server.play import maiden_views

        return maiden_views.page(request, found)
    return _generic_page(request, found)


@require_POST
def open_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The page's opening (FL-LOGIN-3, FL-TURN-8, AMB-4): apply the ruleset's command on open for
    the caller's seat, if it has one now (at most once: a second post finds nothing to open). htmx
    gets the changed panels; a plain form post is redirected back to the page."""
    found = get_object_or_404(Game, pk=game_id)
    htmx = request.headers.get("HX-Request") == "true"
    error = ""
    try:
        engine.open_game(found.pk, request.user)
    except DelveError as exc:
        error = refusal(exc)
    if not htmx or found.ruleset != FATED:
        if error:
            messages.error(request, error)
        return redirect("play:game", game_id=found.pk)
    found.refresh_from_db()
    if moved_on(request.POST.get("status"), found):
        return reload()
    screen = fated_screen.load(found, request.user, selected=_selected(request.POST))
    screen.error = error
    return HttpResponse(fated_screen.render_panels(screen, known=_signatures(request.POST.get("sigs", ""))))


# ---------------------------------------------------------------- the Fated Labyrinth screen


def _selected(data: QueryDict) -> tuple[int, int] | None:
    """The selected map tile, ``tile=x,y`` (a malformed one is refused: 400 page)."""
    return inputs.tile(data.get("tile"))


def _fated_game(game_id: int) -> Game:
    found = get_object_or_404(Game, pk=game_id)
    if found.ruleset != FATED:
        raise Http404("this game has no Fated Labyrinth screen")
    return found


def _fated_page(request: HttpRequest, found: Game) -> HttpResponse:
    screen = fated_screen.load(found, request.user)
    summary = present.game_summary(found, seats=screen.seats, seat=screen.seat)
    return render(
        request,
        "play/fated/screen.html",
        {
            "game": found,
            "s": screen,
            "summary": summary,
            "panels": fated_screen.all_panels(screen) if screen.view is not None else {},
            "server_now": clock.now(),
            "comment_help": text.command_help("comment", screen.lang, found.preset),
            "opening": present.opening(found, screen.seat),
            # FL-LOGIN-4: a dead player can only comment: a bot would have nothing to play
            "can_leave": bots.can_leave(found, screen.mine) and not _dead(screen),
        },
    )


def _dead(screen: fated_screen.Screen) -> bool:
    return screen.you is not None and screen.you.get("phase") == "dead"


@require_safe
def panel(request: HttpRequest, game_id: int, name: str) -> HttpResponse:
    """One panel alone (``hx-get``), e.g. the tile details after a click on the map (FL-UI-2)."""
    if name not in fated_screen.PANELS:
        raise Http404("no such panel")
    found = _fated_game(game_id)
    screen = fated_screen.load(found, request.user, selected=_selected(request.GET))
    if screen.view is None:
        return HttpResponse(status=204)
    html, _sig = fated_screen.render_panel(screen, name)
    return HttpResponse(html)


@require_safe
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """The screen's refresh: 204 while the caller's version (``engine.seen_version``: it moves only
    when what the caller can see changed) is the one the page has (one row read); otherwise the
    panels whose content changed, as out-of-band swaps. ``force`` (the refresh button, FL-WAIT-2)
    sends every panel. Changes due by the clock reach the page once the turn-clock worker has
    saved them (within its interval): answering earlier, at a due moment, would tell a spectator
    when another player's hidden turn clock ticked."""
    found = _fated_game(game_id)
    version = request.GET.get("version", "")
    force = request.GET.get("force") == "1"
    if moved_on(request.GET.get("status"), found):
        return reload()  # the game started while the waiting page was open, or it ended
    if found.status == Game.Status.OPEN:
        return HttpResponse(status=204)
    seat = engine.seat_of(found, request.user)
    if version == str(engine.seen_version(found, None if seat is None else seat.index)) and not force:
        return HttpResponse(status=204)
    screen = fated_screen.load(found, request.user, selected=_selected(request.GET))
    known = None if force else _signatures(request.GET.get("sigs", ""))
    return HttpResponse(fated_screen.render_panels(screen, known=known))


def _signatures(raw: str) -> dict[str, str] | None:
    """The panel signatures the screen holds (``sigs``, a JSON object of panel name to
    signature); absent: none known, so every panel is sent. Malformed: 400."""
    if not raw:
        return None
    value = inputs.json_text(raw, "sigs", depth=1)
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise inputs.malformed("sigs is not a JSON object of panel signatures")
    return value


def web_key(version: int | None, command: Any) -> str | None:
    """The idempotency key of a decision made on the screen: the version the player saw and the
    command chosen. A double click sends the same pair, so it applies once."""
    if version is None:
        return None
    digest = hashlib.sha256(json.dumps(command, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:20]
    return f"web:{version}:{digest}"


@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    """A command from the screen, through the same submit path as the API (same parsing, same
    errors). htmx gets the changed panels with the refusal shown inline; a plain form post is
    redirected back to the screen."""
    found = _fated_game(game_id)
    htmx = request.headers.get("HX-Request") == "true"
    if not request.user.is_authenticated:
        if htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = f"/accounts/login/?next=/games/{found.pk}/"
            return response
        return redirect(f"/accounts/login/?next=/games/{found.pk}/")
    # Everything the answer needs is parsed before anything changes: malformed input is a 400
    # page and the command is not applied.
    version = _version(request.POST.get("version") or request.POST.get("form_version"), "version")
    selected = _selected(request.POST)
    known = _signatures(request.POST.get("sigs", ""))
    is_comment = "comment" in request.POST
    command: Any
    error = ""
    if is_comment:
        command = {"kind": engine.COMMENT, "text": request.POST.get("comment", "")}
    else:
        try:
            command = inputs.json_text(request.POST.get("command", ""), "command")
        except Rejected:
            command = None
            error = _("Choose a command first.")
    choices = request.POST.get("choices") or None
    done = False
    answer = None
    if not error:
        try:
            # Guard with the player's own choices, not the game's version: bots and other players
            # acting elsewhere change the version every few seconds without changing this decision.
            answer = engine.submit(
                found.pk, request.user, command, choices=choices, idempotency_key=web_key(version, command)
            )
            done = True
        except DelveError as exc:
            error = refusal(exc)
    if not htmx:
        if error:
            messages.error(request, error)
        return redirect("play:game", game_id=found.pk)
    found.refresh_from_db()
    if moved_on(request.POST.get("status"), found):
        return reload()  # this command (or another) ended the game: the whole page changes
    screen = fated_screen.load(found, request.user, selected=selected)
    if is_comment:
        screen.comment_note = error or (_("Your comment is updated.") if done else "")
    else:
        screen.error = error
        if answer is not None:
            screen.extra["just_now"] = fated_screen.just_now(screen, answer.events)
    return HttpResponse(fated_screen.render_panels(screen, known=known))


def _seat_change(request: HttpRequest, game_id: int, change: Any, done: str) -> HttpResponse:
    """A change of who plays a seat made from a game screen (``change(game_id, user)``): the page
    is loaded again with the outcome as a message (htmx: ``HX-Redirect``; a plain form: a
    redirect), since every panel changes."""
    found = get_object_or_404(Game, pk=game_id)
    page = reverse("play:game", args=[found.pk])
    if not request.user.is_authenticated:
        page = f"/accounts/login/?next={page}"
    else:
        try:
            change(found.pk, request.user)
        except DelveError as exc:
            messages.error(request, refusal(exc))
        else:
            messages.success(request, done)
    if request.headers.get("HX-Request") == "true":
        response = HttpResponse(status=204)
        response["HX-Redirect"] = page
        return response
    return redirect(page)


@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    """Both game screens' "Leave the table": a bot plays the caller's seat from now
    (``games.bots.leave``); they may take it back later. At a hot-seat table (White Maiden) the
    form names the seats to hand over: ``seat`` (one or more seat indices the caller plays), or
    ``all`` for every seat they play; the message names them and those still played here."""
    chosen = request.POST.getlist("seat")
    if "all" not in request.POST and not chosen:
        return _seat_change(
            request,
            game_id,
            bots.leave,
            _(
                "You left the table: a bot plays your seat from now on, and the game goes on for the others. You "
                "can take your seat back from this page while the game runs. This game enters no personal record."
            ),
        )
    found = get_object_or_404(Game, pk=game_id)
    playing = bots.played_seats(found, request.user)
    if "all" in request.POST:
        seats: list[Any] = [seat.index for seat in playing]
    else:
        seats = [int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else raw for raw in chosen]
    named = [seat.name for seat in playing if seat.index in seats]
    kept = [seat.name for seat in playing if seat.index not in seats]
    lang = translation.get_language() or "en"
    if kept:
        done = _(
            "A bot plays %(names)s from now on; you still play %(kept)s in this browser. You can take a seat back "
            "from this page while the game runs. A seat a bot played part of enters no personal record."
        ) % {"names": join(named, lang), "kept": join(kept, lang)}
    else:
        done = _(
            "You left the table: bots play %(names)s from now on, and the game goes on. You can take a seat back "
            "from this page while the game runs. A seat a bot played part of enters no personal record."
        ) % {"names": join(named, lang)}
    return _seat_change(request, game_id, lambda game, user: bots.leave(game, user, seats), done)


@require_POST
def hand_over(request: HttpRequest, game_id: int) -> HttpResponse:
    """Both game screens' "Hand to a bot": a player hands another's seat that has kept the game
    waiting for days to a bot (``games.bots.hand_over``); the form names the seat."""
    raw = request.POST.get("seat", "")
    seat = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else raw
    return _seat_change(
        request,
        game_id,
        lambda game, user: bots.hand_over(game, user, seat),
        _("The seat is handed to a bot: the game goes on. Its player is told and can take it back."),
    )


@require_POST
def reclaim(request: HttpRequest, game_id: int) -> HttpResponse:
    """Both game screens' "Take my seat back": the caller takes their seat back from the bot that
    took it over while they kept the game waiting or left (``games.bots.reclaim``); at a hot-seat
    table, ``seat`` names the seat of their table to take back."""
    raw = request.POST.get("seat", "")
    if not raw:
        return _seat_change(
            request,
            game_id,
            bots.reclaim,
            _(
                "Your seat is yours again: the bot no longer plays it. This game still enters no personal "
                "record, since a bot played part of it."
            ),
        )
    seat: Any = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else raw
    found = get_object_or_404(Game, pk=game_id)
    name = next((s.name for s in found.seats.all() if s.index == seat), str(raw))
    return _seat_change(
        request,
        game_id,
        lambda game, user: bots.reclaim(game, user, seat),
        _(
            "You play %(name)s again: the bot no longer plays that seat. It still enters no personal record, "
            "since a bot played part of the game for it."
        )
        % {"name": name},
    )


def _version(raw: str | None, name: str = "version") -> int | None:
    """The game version a form was made at (absent: ``None``; malformed: 400)."""
    return inputs.optional_number(raw, name)


@require_safe
def game_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """The full log of the game as the caller may see it (public events; a player's own messages
    too), newest first, filtered by ``show`` (all, mine, attacks; anything else: 400), routine
    lines folded."""
    found = _fated_game(game_id)
    shown = request.GET.get("show") or "all"
    if shown not in fated_log.FILTERS:
        raise inputs.malformed(f"show must be one of {', '.join(fated_log.FILTERS)}, got {shown!r}")
    seat = engine.seat_of(found, request.user)
    index = None if seat is None else seat.index
    lang = fated_screen.lang()
    lines = fated_log.lines(found, index, lang, shown)

    def t(en: str, ja: str) -> str:
        return ja if lang == "ja" else en

    filters = [
        {"key": "all", "label": t("Everything", "すべて")},
        {"key": "mine", "label": t("About me", "自分に関係")},
        {"key": "attacks", "label": t("Attacks", "攻撃")},
    ]
    if index is None:
        filters = [f for f in filters if f["key"] != "mine"]
    return render(
        request,
        "play/fated/log.html",
        {
            "game": found,
            "summary": present.game_summary(found),
            "shown": shown,
            "filters": filters,
            "lines": fated_log.fold(lines, lang),
            "count": len(lines),
            "words": {
                "heading": t(
                    f"Game {found.pk} — {present.preset_label(found)}: full log",
                    f"ゲーム {found.pk} — {present.preset_label(found)}：全記録",
                ),
                "back": t("Back to the game", "ゲームに戻る"),
                "count": t(f"{len(lines)} lines, newest first.", f"{len(lines)}件（新しい順）。"),
                "private": t("(only for you)", "（あなただけ）"),
                "empty": t("Nothing here yet.", "まだ何もありません。"),
                "filter": t("Show", "表示"),
                "note": t(
                    "Routine lines (cards drawn, turns ready, comments) are folded: click to open them.",
                    "定型の記録（カードを引いた、ターンが回ってきた、コメント）はまとめてあります。クリックで開きます。",
                ),
            },
        },
    )


@require_safe
def game_help(request: HttpRequest, game_id: int) -> HttpResponse:
    found = get_object_or_404(Game, pk=game_id)
    if found.ruleset == MAIDEN:
        return render(request, "play/maiden/help.html", maiden_help.context(found))
    found = _fated_game(game_id)
    return render(request, "play/fated/help.html", help_page.context(found.preset, game=found))


@require_safe
def general_help(request: HttpRequest) -> HttpResponse:
    preset = request.GET.get("preset", "fated-labyrinth")
    if preset == "white-maiden":
        return render(request, "play/maiden/help.html", maiden_help.context())
    return render(request, "play/fated/help.html", help_page.context(preset))


# ---------------------------------------------------------------- the generic page (other rulesets)


def _generic_page(request: HttpRequest, found: Game) -> HttpResponse:
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
            "version": engine.seen_version(found, index),
            "opening": present.opening(found, index),
            "summary": present.game_summary(found, seats=seats, seat=index),
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


@require_POST
@login_required
def command(request: HttpRequest, game_id: int) -> HttpResponse:
    get_object_or_404(Game, pk=game_id)  # no such game: 404, not a redirect to a page that is not there
    try:
        parsed = inputs.json_text(request.POST.get("command", ""), "command")
    except Rejected as exc:
        messages.error(request, _("The command is not valid JSON: %(error)s") % {"error": exc.message})
        return redirect("play:game", game_id=game_id)
    _submit(request, game_id, parsed)
    return redirect("play:game", game_id=game_id)


@require_POST
@login_required
def comment(request: HttpRequest, game_id: int) -> HttpResponse:
    """The comment form: its text replaces the caller's comment (an empty text clears it). A post
    without the text field is malformed (400 page), not an empty comment."""
    get_object_or_404(Game, pk=game_id)
    if "text" not in request.POST:
        raise inputs.malformed("the comment form has no text field: nothing was changed")
    _submit(request, game_id, {"kind": engine.COMMENT, "text": request.POST["text"]})
    return redirect("play:game", game_id=game_id)


def _submit(request: HttpRequest, game_id: int, parsed: object) -> None:
    try:
        engine.submit(
            game_id,
            request.user,
            parsed,
            version=_version(request.POST.get("version")),
            idempotency_key=request.POST.get("key") or None,
        )
    except DelveError as exc:
        messages.error(request, f"{inputs.error_body(exc)['message']} ({exc.code})")
    else:
        messages.success(request, _("Done."))
