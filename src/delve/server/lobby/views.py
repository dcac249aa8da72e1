"""The top page (games with their active settings and a registration form per open game), the
registration and withdrawal forms, and the staff-only form that creates a game."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from delve.kernel import DelveError, durations
from delve.kernel.words import join
from delve.server.games import bots, closing, engine, present
from delve.server.games.errors import status_for
from delve.server.games.forms import CreateGameForm
from delve.server.games.models import Game
from delve.server.lobby import maiden
from delve.server.lobby.forms import RegistrationForm, error_summary

ENDED_SHOWN = 10

#: The settings a White Maiden card shows in one line above its seats.
MAIDEN_FACTS = ("players", "difficulty", "turn_deadline_hours")


def _name_label(game: Game) -> str | None:
    """The registration form's word for the name: a White Maiden player names a maiden."""
    return _("Your maiden's name") if game.ruleset == "maiden" else None


def _card(request: HttpRequest, game: Game, form: RegistrationForm | None = None) -> dict[str, Any]:
    seats = present.public_seats(game)
    present.label_choices(game, seats)
    mine = present.own_seat(seats, request.user)
    card: dict[str, Any] = {
        "game": game,
        "summary": present.game_summary(game, seats=seats),
        "seats": seats,
        "mine": mine,
        "form": None,
        "takeover_time": None
        if game.bot_takeover_after is None
        else durations.say(game.bot_takeover_after, (get_language() or "en")[:2]),
    }
    if game.status == Game.Status.OPEN and mine is None:
        card["form"] = form or RegistrationForm(
            engine.ruleset_of(game).seat_options(game.settings),
            prefix=f"g{game.pk}",
            name_label=_name_label(game),
            # the name starts as the account's, as on the form that opens a White Maiden game
            initial={"name": request.user.get_username()[: engine.NAME_MAX]} if request.user.is_authenticated else None,
        )
    # the marks the seat table uses, said in words below it (a tooltip is no help on a phone)
    card["marks"] = {
        "practice": any(not seat.keep_record and not seat.is_bot for seat in seats),
        "bot": any(seat.is_bot and not seat.bot_since for seat in seats),
        "took_over": any(seat.bot_since for seat in seats),
    }
    card.update(maiden.card_extras(request, game, seats))
    if card.get("maiden"):
        # a White Maiden seat chooses nothing and has no comment: the card says the game's main
        # settings instead of two empty columns
        card["facts"] = [
            {**line, "label": re.split(r"\s*[（(]", line["label"])[0]}  # "Turn deadline", not "(hours, 0 = off)"
            for line in card["summary"]["settings"]
            if line.get("key") in MAIDEN_FACTS
            and not (line["key"] == "turn_deadline_hours" and str(line["value"]) in ("", "0", "None"))
        ]
    if game.ruleset == "fated" and card["form"] is not None:
        from delve.fated import text as fated_text

        card["fated"] = _fated_choices(game)
        card["form"].fields["keep_record"].label = fated_text.word(  # the preset's record word (P-29)
            "keep_record", (get_language() or "en")[:2], game.preset
        )
    return card


def _fated_choices(game: Game) -> dict[str, Any]:
    """What the registration form shows beside a Fated class and image: each class's abilities,
    max cards and description (the preset's names and labels), and each image's emblem."""
    from delve.fated import content, text

    lang = (get_language() or "en")[:2]
    data = content.load()
    preset = game.preset
    labels = {key: text.word(key, lang, preset) for key in ("attack", "defense", "magic", "evasion")}
    classes = [
        {
            "value": c.id,
            "label": data.class_name(c.id, preset, lang if lang in content.LANGS else "en"),
            "stats": [
                (labels["attack"], c.attack),
                (labels["defense"], c.defense),
                (labels["magic"], c.magic),
                (labels["evasion"], f"{c.evasion}%"),
                ("最大カード" if lang == "ja" else "Max cards", c.max_cards),
            ],
            "description": text.vocabulary(text.pick(c.description, lang), lang, preset),  # P-26
            "glyph": data.class_name(c.id, preset, "ja")[:1],
        }
        for c in data.classes.values()
    ]
    return {"classes": classes}


def _index(request: HttpRequest, bound: dict[int, RegistrationForm] | None = None, status: int = 200) -> HttpResponse:
    bound = bound or {}
    games = list(Game.objects.exclude(status=Game.Status.ENDED).order_by("status", "-id"))
    ended = list(Game.objects.filter(status=Game.Status.ENDED).order_by("-ended_at")[:ENDED_SHOWN])
    cards = [_card(request, game, bound.get(game.pk)) for game in games]
    return render(
        request,
        "lobby/index.html",
        {
            "open_cards": [card for card in cards if card["game"].status == Game.Status.OPEN],
            "running_cards": [card for card in cards if card["game"].status == Game.Status.RUNNING],
            "turn_games": [card["game"].pk for card in cards if _follows_turns(card)],
            "ended_cards": [{**_card(request, game), "result": _winner_line(game)} for game in ended],
        },
        status=status,
    )


def _follows_turns(card: dict[str, Any]) -> bool:
    """Whether the lobby follows this card's "your decision is waiting" line by itself (the
    running White Maiden games the visitor plays: :func:`turns`)."""
    return bool(card.get("plays")) and card["game"].status == Game.Status.RUNNING


@require_safe
def turns(request: HttpRequest) -> HttpResponse:
    """The lobby's poll: for the running games it names (``games=1,3``) that the visitor plays,
    whether a decision waits for them now (each card's line, out of band), and the header's count."""
    from delve.server.notify import waiting

    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    wanted = {int(p) for p in request.GET.get("games", "").split(",")[:50] if p.isdigit() and len(p) < 10}
    games = Game.objects.filter(pk__in=wanted, status=Game.Status.RUNNING, seats__user=request.user)
    parts = []
    for game in games.distinct().order_by("pk"):
        card = _card(request, game)
        if _follows_turns(card):
            parts.append(render_to_string("lobby/_turn_line.html", {"card": card, "oob": True}, request=request))
    count = waiting.count(waiting.rows(request.user)[0])
    parts.append(render_to_string("notify/_badge.html", {"n": count, "oob": True}, request=request))
    return HttpResponse("".join(parts))


CLOSED_REASON_SHOWN = 120
"""The longest operator's reason the "Recently ended" list shows (longer ones end with "…"; the
game's own screen and log give it whole)."""


def _winner_line(game: Game) -> str:
    """Who won an ended game, for the "Recently ended" list: "won by 01 Aki", "everyone won",
    "everyone lost" (a cooperative game lost together), "no winner"; a game an operator closed
    (``delve close``, some seat's result ``closed``) says so with the operator's reason, in every
    ruleset ("closed by an operator: …" / 「運営者により終了：…」), where it read "no winner"."""
    try:
        outcome = present.outcome_dict(game)
    except DelveError:
        return ""
    if outcome is None:
        return ""
    ja = (get_language() or "en")[:2] == "ja"
    if "closed" in set(outcome["results"].values()):
        said = closing.RESULT["ja" if ja else "en"]
        why = " ".join((closing.reason(game) or "").split())
        if len(why) > CLOSED_REASON_SHOWN:
            why = why[: CLOSED_REASON_SHOWN - 1].rstrip() + "…"
        if not why:
            return said
        return f"{said}：{why}" if ja else f"{said}: {why}"
    winners = set(outcome["winners"])
    seats = present.public_seats(game)
    if not winners:
        words = set(outcome["results"].values())
        if words == {"lost"}:  # every seat lost: a cooperative game lost together, or a solo game
            if len(outcome["results"]) > 1:
                return "全員の敗北" if ja else "everyone lost"
            return "敗北" if ja else "lost"
        return "勝者なし" if ja else "no winner"
    if len(winners) == len(seats) > 1:
        return "全員の勝利" if ja else "everyone won"
    names = join((f"{seat.number} {seat.name}" for seat in seats if seat.index in winners), get_language())
    return f"勝者：{names}" if ja else f"won by {names}"


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    return _index(request)


@require_POST
@login_required
def register(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    form = RegistrationForm(
        engine.ruleset_of(game).seat_options(game.settings),
        request.POST,
        prefix=f"g{game.pk}",
        name_label=_name_label(game),
    )
    if not form.is_valid():
        return _index(request, {game.pk: form}, status=400)
    try:
        engine.register(
            game.pk,
            request.user,
            form.cleaned_data["name"],
            form.options(),
            keep_record=form.cleaned_data["keep_record"],
        )
    except DelveError as exc:
        if exc.code == "registration/name_taken":
            message = _("The name “%(name)s” is already taken in this game.") % {
                "name": form.cleaned_data["name"].strip()
            }
        else:
            message = engine.shown_name_fault(exc.message)
        form.add_error(None, message)
        return _index(request, {game.pk: form}, status=status_for(exc))
    game.refresh_from_db()
    if game.status == Game.Status.RUNNING:
        messages.success(request, _("You are registered, and every seat is taken: the game has started."))
        return redirect("play:game", game_id=game.pk)
    messages.success(request, _("You are registered. The game starts when every seat is taken."))
    return redirect("lobby:index")


@require_POST
@login_required
def withdraw(request: HttpRequest, game_id: int) -> HttpResponse:
    get_object_or_404(Game, pk=game_id)
    try:
        engine.withdraw(game_id, request.user)
    except DelveError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your registration is withdrawn."))
    return redirect("lobby:index")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def create_game(request: HttpRequest) -> HttpResponse:
    """The operators' form for a Fated Labyrinth or Level D game (any preset, overrides, bots).
    A visitor is sent to log in; a player who is not staff gets a 403 page saying who may open
    these games and where every player may open one (White Maiden)."""
    if not request.user.is_staff:
        return render(request, "lobby/staff_only.html", status=403)
    form = CreateGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with transaction.atomic():
            game = engine.create_game(
                data["ruleset"],
                data["preset"],
                data["overrides"],
                created_by=request.user,
                bot_takeover_after=data["bot_takeover_after"],
            )
            if data["bots"]:
                bots.seat_bots(game.pk, request.user, data["bots"])
        game.refresh_from_db()
        if game.status == Game.Status.RUNNING:
            messages.success(request, _("Game %(id)s: bots took every seat, it has started.") % {"id": game.pk})
        else:
            messages.success(request, _("Game %(id)s is open for registration.") % {"id": game.pk})
        if data.get("fast_turns"):
            messages.warning(request, data["fast_turns"])
        return redirect("lobby:index")
    return render(
        request,
        "lobby/create_game.html",
        {"form": form, "errors": error_summary(form)},
        status=400 if form.errors else 200,
    )
