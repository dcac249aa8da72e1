"""A short chat per game, beside each player's one-line comment: players write (rate limited,
plain text shown escaped), anyone who may watch the game reads, any player may report a message
to the host, and the host hides what should not stay.

Limits: a message has 1 to 300 characters and no control characters; a player sends at most
:data:`PER_MINUTE` messages a minute in one game and waits :data:`MIN_GAP` seconds between two."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from delve.server import clock, usertime
from delve.server.games.errors import Rejected
from delve.server.games.models import Game, Seat
from delve.server.inputs import has_control
from delve.server.social.models import ChatMessage, ChatReport
from delve.server.social.spectators import is_host

PER_MINUTE = 5
MIN_GAP = 3
SHOWN = 100


def post(game: Game, user: Any, text: str) -> ChatMessage:
    """:raises Rejected: not a player (403), an empty, long or control-carrying text (400), too fast (429)."""
    seat = Seat.objects.filter(game=game, user=user, index__isnull=False).first() if user.is_authenticated else None
    if seat is None:
        raise Rejected("chat/not_a_player", _("Only the players of this game can write in its chat."), status=403)
    text = (text or "").strip()
    if not text:
        raise Rejected("chat/empty", _("Write something first."), status=400)
    if len(text) > ChatMessage.MAX_LENGTH:
        raise Rejected(
            "chat/too_long",
            _("A chat message has at most %(n)s characters.") % {"n": ChatMessage.MAX_LENGTH},
            status=400,
        )
    if has_control(text):
        raise Rejected("chat/invalid", _("A chat message cannot contain control characters."), status=400)
    now = clock.now()
    with transaction.atomic():
        Seat.objects.select_for_update().filter(pk=seat.pk).first()  # one writer per seat at a time
        recent = list(
            ChatMessage.objects.filter(game=game, user=user, time__gt=now - 60)
            .order_by("-time")
            .values_list("time", flat=True)
        )
        if len(recent) >= PER_MINUTE or (recent and now - recent[0] < MIN_GAP):
            raise Rejected(
                "chat/too_fast",
                _("You are writing too fast: at most %(n)s messages a minute, %(gap)s seconds apart.")
                % {"n": PER_MINUTE, "gap": MIN_GAP},
                status=429,
            )
        return ChatMessage.objects.create(game=game, user=user, name=seat.name, text=text, time=now)


def report(message: ChatMessage, user: Any) -> bool:
    """Report a message to the host; ``False`` when this player had already reported it.

    :raises Rejected: when the reporter is not a player of the game (403)."""
    if not Seat.objects.filter(game=message.game, user=user, index__isnull=False).exists():
        raise Rejected("chat/not_a_player", _("Only the players of this game can report its chat."), status=403)
    try:
        with transaction.atomic():
            ChatReport.objects.create(message=message, reporter=user, time=clock.now())
    except IntegrityError:
        return False
    return True


def hide(message: ChatMessage, user: Any, hidden: bool = True) -> None:
    """:raises Rejected: when ``user`` is not the game's host (403)."""
    if not is_host(message.game, user):
        raise Rejected("chat/not_host", _("Only the host of this game can hide chat messages."), status=403)
    message.hidden = hidden
    message.save(update_fields=["hidden"])


def lines(game: Game) -> list[ChatMessage]:
    """The last :data:`SHOWN` messages, oldest first, with their report counts."""
    from django.db.models import Count

    recent = list(ChatMessage.objects.filter(game=game).annotate(report_count=Count("reports")).order_by("-id")[:SHOWN])
    for line in recent:
        line.time_text = usertime.say(line.time, fmt="m-d H:i")  # type: ignore[attr-defined]  # the reader's zone
    return list(reversed(recent))
