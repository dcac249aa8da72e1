"""The JSON API, ``/api/v1/`` (documented in docs/api.md; schema at ``/api/v1/openapi.json``).

The seat a request reads or acts for is the caller's own seat, unless it names another seat the
caller plays as the game screen lets them: a seat of their hot-seat table (``lobby.TableSeat``),
with ``?seat=n`` on a read or ``"seat": n`` in a command's body.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, TypeVar

from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse, RawPostDataException

from delve.server.api.auth import endpoint, parse_body, query_int, require_user
from delve.server.api.schema import openapi
from delve.server.api.types import (
    AFTER_MAX,
    CommandBody,
    CommentBody,
    HandOverBody,
    LeaveBody,
    ReclaimBody,
    RegisterBody,
)
from delve.server.games import bots, engine, present
from delve.server.games.errors import Rejected, game_not_found, not_seated
from delve.server.games.models import Game, Seat
from delve.server.inputs import quote
from delve.server.records.views import public_records, record_dict

T = TypeVar("T")

KEY_HEADER = "Idempotency-Key"
Result = dict[str, Any] | tuple[dict[str, Any], int]


def _game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise game_not_found(game_id)
    return game


def _seat_index(game: Game, request: HttpRequest) -> int | None:
    seat = _seat(game, request, query_int(request, "seat", -1, maximum=SEAT_MAX))
    return None if seat is None or seat.index is None else seat.index


SEAT_MAX = 255


def _seat(game: Game, request: HttpRequest, wanted: int | None) -> Seat | None:
    """The seat a request is for: the caller's own (``wanted`` None or -1), or the seat of index
    ``wanted`` if the caller plays it, their own or one of their hot-seat table's, as the game
    screen's ``seat`` field (``play.maiden_views.act``).

    :raises Rejected: 401 a seat named by a caller not logged in, 403 ``seat/not_yours`` a seat
        the caller does not play."""
    if wanted is None or wanted < 0:
        return engine.seat_of(game, request.user)
    user = require_user(request)
    seat = (
        Seat.objects.filter(game=game, index=wanted)
        .filter(Q(user=user) | Q(table__host=user))
        .select_related("user")
        .first()
    )
    if seat is None:
        raise Rejected(
            "seat/not_yours",
            f"you do not play seat index {wanted} in this game (seats are numbered from 0): name your own seat "
            "or one of your hot-seat table's",
            status=403,
        )
    return seat


def _key(request: HttpRequest, body_key: str | None) -> str | None:
    header = request.headers.get(KEY_HEADER)
    if header is not None and body_key is not None and header != body_key:
        raise Rejected("request/malformed", f"the {KEY_HEADER} header and idempotency_key differ")
    return body_key if body_key is not None else header


def _answer(answer: engine.Answer) -> HttpResponse:
    response = JsonResponse(answer.as_dict())
    response["Idempotent-Replayed"] = "true" if answer.replayed else "false"
    return response


@endpoint("GET")
def games(request: HttpRequest) -> dict[str, Any]:
    status = request.GET.get("status")
    query = Game.objects.all().order_by("-id")
    if status is not None:
        if status not in Game.Status.values:
            raise Rejected("request/malformed", f"status={quote(status)} is not one of {', '.join(Game.Status.values)}")
        query = query.filter(status=status)
    limit = query_int(request, "limit", 50, minimum=1, maximum=200)
    return {"games": [present.game_summary(game) for game in query[:limit]]}


@endpoint("GET")
def my_games(request: HttpRequest) -> dict[str, Any]:
    """The caller's games, as the "Waiting on me" page lists them: the running ones (those that
    wait for the caller first, then by deadline), each with the caller's seat and what waits
    (``must_act``, the ``deadline``, epoch seconds or null; ``out`` once the caller's character
    has died or was abandoned, the game listed until it ends), then the open ones the caller is
    registered in (``seat`` null until the start). ``?status=`` lists only the ``running``, the
    ``open`` or the ``ended`` ones (these are left out unless asked for: the last to end first);
    ``limit`` (1 to 200, default 50) how many."""
    from delve.server.notify import waiting

    user = require_user(request)
    status = request.GET.get("status")
    if status is not None and status not in Game.Status.values:
        raise Rejected("request/malformed", f"status={quote(status)} is not one of {', '.join(Game.Status.values)}")
    limit = query_int(request, "limit", MY_GAMES_LIMIT, minimum=1, maximum=200)
    if status == Game.Status.ENDED:
        return {"games": _my_ended_games(user, limit)}
    running, open_seats = waiting.rows(user)
    if status == Game.Status.OPEN:
        running = []
    elif status == Game.Status.RUNNING:
        open_seats = []
    out = []
    for row in running:
        out.append(
            {
                **present.game_summary(row.game, seat=row.seat.index),
                "seat": row.seat.index,
                "must_act": row.waiting,
                "deadline": row.attention.deadline,
                "out": row.out or None,
            }
        )
    for seat in open_seats:
        out.append({**present.game_summary(seat.game), "seat": None, "must_act": False, "deadline": None, "out": None})
    return {"games": out[:limit]}


#: How many games ``GET /me/games`` lists unless ``limit`` says otherwise.
MY_GAMES_LIMIT = 50


def _my_ended_games(user: Any, limit: int) -> list[dict[str, Any]]:
    """The ended games the caller had a seat in, the last to end first, each with the caller's
    ``seat`` (nothing waits: ``must_act`` false, ``deadline`` and ``out`` null; how it ended is the
    game's ``outcome``, ``GET /games/{id}``)."""
    seats = (
        Seat.objects.filter(user=user, game__status=Game.Status.ENDED)
        .select_related("game")
        .order_by("-game__ended_at", "-game_id")[:limit]
    )
    return [
        {
            **present.game_summary(seat.game, seat=seat.index),
            "seat": seat.index,
            "must_act": False,
            "deadline": None,
            "out": None,
        }
        for seat in seats
    ]


@endpoint("GET")
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The caller's view. Reading never changes the game (a stored turn starts with the
    ``start_turn`` command, or when the game page posts its opening). The ``ETag`` is a digest of
    the answer, so it changes exactly when what the caller can see does; ``If-None-Match`` with it
    answers 304 Not Modified."""
    found = _game(game_id)
    seat = _seat_index(found, request)
    body = {
        "game": present.game_summary(found, seat=seat),
        "seat": seat,
        "view": present.caller_view(found, seat),
        "outcome": present.outcome_dict(found),
    }
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:24]
    tag = f'"{digest}"'
    if tag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(body)
    response["ETag"] = tag
    return response


@endpoint("POST", "DELETE")
def seats(request: HttpRequest, game_id: int) -> Result:
    """POST: register a character (FL-REG). DELETE: withdraw before the start (FL-REG-8)."""
    user = require_user(request)
    _game(game_id)
    if request.method == "DELETE":
        engine.withdraw(game_id, user)
        return {"game": present.game_summary(_game(game_id))}
    body = parse_body(request, RegisterBody)
    seat = engine.register(game_id, user, body.name, body.options, keep_record=body.keep_record)
    return {"seat": present.seat_dict(seat), "game": present.game_summary(_game(game_id))}, 201


@endpoint("GET", "POST")
def commands(request: HttpRequest, game_id: int) -> dict[str, Any] | HttpResponse:
    """GET: the caller's legal commands now. POST: submit one (the command's own transaction
    finds the game, or answers 404)."""
    user = require_user(request)
    if request.method == "POST":
        body = parse_body(request, CommandBody)
        if body.seat is not None:  # a seat the caller plays (their table's): act as its account
            seat = _seat(_game(game_id), request, body.seat)
            assert seat is not None
            user = seat.user
        answer = engine.submit(
            game_id,
            user,
            body.command,
            version=body.version,
            choices=body.choices,
            idempotency_key=_key(request, body.idempotency_key),
            listing=True,
        )
        if answer.commands is None:  # a replayed answer: the legal commands as they are now
            found = _game(game_id)
            answer.commands = _legal(found, engine.seat_of(found, user))["commands"]
        return _answer(answer)
    found = _game(game_id)
    return _legal(found, _seat(found, request, query_int(request, "seat", -1, maximum=SEAT_MAX)))


def _legal(found: Game, seat: Seat | None) -> dict[str, Any]:
    """A seat's legal commands now, as ``GET .../commands`` answers them."""
    if seat is None:
        raise not_seated()
    legal = present.legal_commands(found, seat.index) if seat.index is not None else []
    legal = engine.offered(legal, taken_over=seat.bot_since is not None)
    return {
        "version": engine.seen_version(found, seat.index),
        "seat": seat.index,
        "commands": legal,
        "choices": engine.choices_digest(legal),
    }


@endpoint("POST")
def comment(request: HttpRequest, game_id: int) -> HttpResponse:
    """Replace the caller's comment (FL-COM-1): the ruleset's ``comment`` command."""
    user = require_user(request)
    body = parse_body(request, CommentBody)
    answer = engine.submit(
        game_id,
        user,
        {"kind": engine.COMMENT, "text": body.text},
        version=body.version,
        idempotency_key=_key(request, body.idempotency_key),
    )
    return _answer(answer)


@endpoint("POST")
def reclaim(request: HttpRequest, game_id: int) -> HttpResponse:
    """Take a seat back from the bot that took it over while its player kept the game waiting or
    left it (``games.bots.reclaim``): the caller's own (no body, or ``{}``), or ``{"seat": n}``, a
    seat the caller controls (their hot-seat table's; else 403 ``seat/not_yours``, nothing
    changes). The seat still keeps no personal record."""
    user = require_user(request)
    body = _optional_body(request, ReclaimBody, "taking a seat back")
    seat = _controlled(request, game_id, body.seat if body is not None else None)
    return _answer(bots.reclaim(game_id, user, seat))


def _controlled(request: HttpRequest, game_id: int, wanted: int | None) -> int | None:
    """``wanted``, a seat index named by a seat change (leave, reclaim), once the caller is seen
    to control it (:func:`_seat`: their own or their hot-seat table's); None for their own.

    :raises Rejected: 404 no such game, 403 ``seat/not_yours`` a seat the caller does not control."""
    if wanted is not None:
        _seat(_game(game_id), request, wanted)
    return wanted


def _optional_body(request: HttpRequest, kind: type[T], what: str) -> T | None:
    """A request whose body may be left out: none, or a JSON object of ``kind`` (parsed; None when
    there is no body)."""
    try:
        raw = request.body
    except RawPostDataException:  # a form body, read already as form fields: there must be none
        if request.POST or request.FILES:
            raise Rejected("request/malformed", f"{what} takes no fields") from None
        raw = b""
    if raw.strip():
        return parse_body(request, kind)
    return None


@endpoint("POST")
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    """Leave the table: a bot plays the caller's seat from now (``games.bots.leave``); the game
    goes on for the others and the caller may take the seat back (``reclaim``). No body (or
    ``{}``) for the caller's own seat; ``{"seat": n}`` for a seat the caller controls (their
    hot-seat table's; else 403 ``seat/not_yours``, nothing changes)."""
    user = require_user(request)
    body = _optional_body(request, LeaveBody, "leaving a game")
    seat = _controlled(request, game_id, body.seat if body is not None else None)
    return _answer(bots.leave(game_id, user, None if seat is None else [seat]))


@endpoint("POST")
def hand_over(request: HttpRequest, game_id: int) -> HttpResponse:
    """Hand another player's seat that has kept the game waiting at least
    ``games.bots.IDLE_HANDOVER`` seconds to a bot (``games.bots.hand_over``)."""
    user = require_user(request)
    body = parse_body(request, HandOverBody)
    return _answer(bots.hand_over(game_id, user, body.seat))


@endpoint("GET")
def events(request: HttpRequest, game_id: int) -> dict[str, Any]:
    found = _game(game_id)
    cursor = query_int(request, "after", 0, maximum=AFTER_MAX)
    limit = query_int(request, "limit", present.EVENTS_LIMIT, minimum=1, maximum=present.EVENTS_LIMIT)
    page, next_cursor = present.events_after(found, _seat_index(found, request), cursor, limit)
    return {"events": page, "cursor": next_cursor}


@endpoint("GET")
def my_records(request: HttpRequest) -> dict[str, Any]:
    user = require_user(request)
    return {"user": user.get_username(), "records": [record_dict(r) for r in user.records.all()]}


@endpoint("GET")
def user_records(request: HttpRequest, username: str) -> dict[str, Any]:
    """A player's records; an unknown name answers like a player without records (no enumeration)."""
    name, records = public_records(username)
    return {"user": name, "records": [record_dict(r) for r in records]}


@endpoint("GET")
def schema(request: HttpRequest) -> dict[str, Any]:
    return openapi()


@endpoint("GET", "POST", "PUT", "PATCH", "DELETE")
def not_found(request: HttpRequest, rest: str) -> dict[str, Any]:
    raise Rejected("request/not_found", f"there is no API endpoint {quote('/api/v1/' + rest, 64)}", status=404)
