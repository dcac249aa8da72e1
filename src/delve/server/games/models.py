"""Games, seats and the append-only logs.

Engine-owned fields (``state``, ``version``, ``seed``, ``next_due_at``, the logs) are written only
by :mod:`delve.server.games.engine`, inside one transaction per change that holds the game row's
lock. Engine times (``next_due_at``, log ``time``) are integer seconds since the epoch, exactly the
numbers the engine received, so a game can be replayed from its log.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("registration open")
        RUNNING = "running", _("running")
        ENDED = "ended", _("ended")

    ruleset = models.CharField(_("ruleset"), max_length=50)
    preset = models.CharField(_("preset"), max_length=50)
    settings = models.JSONField(
        _("settings"), default=dict, help_text=_("The preset plus the operator's overrides, as validated at creation.")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    state = models.TextField(_("state"), blank=True, default="", help_text=_("The engine state as JSON."))
    version = models.PositiveBigIntegerField(_("version"), default=0)
    seed = models.BigIntegerField(_("seed"))
    next_due_at = models.BigIntegerField(_("next due at"), null=True, blank=True, db_index=True)
    claimed_until = models.BigIntegerField(_("claimed until"), null=True, blank=True)
    claimed_by = models.CharField(_("claimed by"), max_length=100, blank=True, default="")
    event_count = models.PositiveBigIntegerField(_("events"), default=0)
    observed = models.JSONField(
        _("observed"),
        default=dict,
        blank=True,
        help_text=_(
            'Per audience ("*": spectators and visitors, "0", "1"...: seats), the change counter of what '
            "it can see and the digest of its last view: the counter moves only when that view changes."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot_takeover_after = models.PositiveIntegerField(
        _("bot takes over after"),
        null=True,
        blank=True,
        help_text=_("Seconds a seat may keep the game waiting before a bot plays it (empty: never)."),
    )
    started_at = models.BigIntegerField(_("started at"), null=True, blank=True)
    ended_at = models.BigIntegerField(_("ended at"), null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"#{self.pk} {self.ruleset}/{self.preset} ({self.status})"


class Seat(models.Model):
    """A character registered into a game. ``index`` (0-based) is assigned at the start, in
    registration order after withdrawals (AMB-59); it is ``None`` while the game is open."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("index"), null=True, blank=True)
    name = models.CharField(_("character name"), max_length=40)
    options = models.JSONField(_("options"), default=dict, help_text=_("Registration choices such as the class."))
    keep_record = models.BooleanField(_("keep record"), default=True)
    comment = models.CharField(_("comment"), max_length=500, blank=True, default="")
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_since = models.BigIntegerField(
        _("bot since"),
        null=True,
        blank=True,
        help_text=_("When a bot took this seat over from its idle player (engine time)."),
    )
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        ordering = ["game", "index", "id"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "name"], name="seat_name_unique_per_game"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user_per_game"),
            models.UniqueConstraint(
                fields=["game", "index"], condition=Q(index__isnull=False), name="seat_index_unique_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number or '--'} {self.name}"

    @property
    def number(self) -> str:
        """The player number people see, empty before the start: two digits in Fated Labyrinth
        and Level D (01, 02, ...: FL-REG-10), White Maiden's seat number as its game screen says
        it (1, 2, ...), so the lobby, the "waiting on me" page and the game agree."""
        if self.index is None:
            return ""
        return str(self.index + 1) if self.game.ruleset == "maiden" else f"{self.index + 1:02d}"


class CommandEntry(models.Model):
    """One accepted change of a game, append-only. ``sequence`` is the game version it produced.

    A player's command has a ``seat`` and a ``command``; a clock advance by the worker has neither;
    a change of who plays a seat (a bot taking an idle seat over, its player taking it back) has
    the ``seat`` and no command; an operator closing the game has no seat and the command
    ``{"kind": "close", "reason": ...}``. ``answer`` is what the caller was told, returned again for a
    repeated idempotency key.
    """

    class Source(models.TextChoices):
        PLAYER = "player", _("player")
        OPEN = "open", _("opening the game")
        CLOCK = "clock", _("clock")
        TAKEOVER = "takeover", _("a bot taking an idle seat over")
        RECLAIM = "reclaim", _("a player taking their seat back")
        LEAVE = "leave", _("a player handing their own seat to a bot")
        HANDOVER = "handover", _("a player handing a long-idle seat to a bot")
        CLOSE = "close", _("an operator closing the game")

    # no index of its own: the unique (game, sequence) constraint's index serves every lookup by game
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="commands", db_index=False)
    sequence = models.PositiveBigIntegerField(_("sequence"))
    time = models.BigIntegerField(_("time"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    command = models.JSONField(_("command"), null=True, blank=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=100, null=True, blank=True)
    answer = models.JSONField(_("answer"), null=True, blank=True)

    class Meta:
        ordering = ["game", "sequence"]
        verbose_name = _("command")
        verbose_name_plural = _("command log")
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="command_sequence_unique"),
            models.UniqueConstraint(
                fields=["game", "seat", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="command_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.sequence}"


PUBLIC = "*"


def event_body(kind: str, time: int, data: dict[str, Any], *, private: bool) -> dict[str, Any]:
    """An event as it leaves the server. ``private`` marks events only some seats see; which
    seats is not said."""
    body: dict[str, Any] = {"kind": kind, "time": time, "data": data}
    if private:
        body["private"] = True
    return body


class EventEntry(models.Model):
    """One event, append-only. ``visibility`` is ``"*"`` for everyone, otherwise the seat indexes
    that may see it wrapped in commas (``",0,2,"``) so that a filter is one ``LIKE``."""

    # no index of its own: the unique (game, sequence) constraint's index serves every lookup by game
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", db_index=False)
    sequence = models.PositiveBigIntegerField(_("sequence"))
    time = models.BigIntegerField(_("time"))
    kind = models.CharField(_("kind"), max_length=100)
    data = models.JSONField(_("data"), default=dict)
    visibility = models.CharField(_("visibility"), max_length=200, default=PUBLIC)

    class Meta:
        ordering = ["game", "sequence"]
        verbose_name = _("event")
        verbose_name_plural = _("event log")
        constraints = [models.UniqueConstraint(fields=["game", "sequence"], name="event_sequence_unique")]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.sequence} {self.kind}"

    @staticmethod
    def visibility_for(to: tuple[int, ...] | None) -> str:
        if to is None:
            return PUBLIC
        return "," + ",".join(str(seat) for seat in sorted(set(to))) + ","

    @property
    def to(self) -> tuple[int, ...] | None:
        if self.visibility == PUBLIC:
            return None
        return tuple(int(part) for part in self.visibility.strip(",").split(",") if part)
