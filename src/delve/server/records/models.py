"""Personal records (FL-REC): one row per game result of a seat that keeps records."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Record(models.Model):
    """What a player's record keeps of one finished game (AMB-61): the date, the preset, the
    character and its registration choices (the class), the result word, and the numbers the
    ruleset reports (kills, treasures, turns; everything it reports stays in ``stats``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="records")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="records")
    ruleset = models.CharField(_("ruleset"), max_length=50)
    preset = models.CharField(_("preset"), max_length=50)
    character_name = models.CharField(_("character name"), max_length=40)
    character_class = models.CharField(_("class"), max_length=50, blank=True, default="")
    options = models.JSONField(_("options"), default=dict)
    result = models.CharField(_("result"), max_length=30)
    won = models.BooleanField(_("won"), default=False)
    kills = models.IntegerField(_("kills"), null=True, blank=True)
    treasures = models.IntegerField(_("treasures"), null=True, blank=True)
    turns = models.IntegerField(_("turns"), null=True, blank=True)
    stats = models.JSONField(_("stats"), default=dict)
    ended_at = models.DateTimeField(_("date"))

    class Meta:
        ordering = ["-ended_at", "-id"]
        verbose_name = _("personal record")
        verbose_name_plural = _("personal records")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(game__isnull=False), name="record_once_per_game_and_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.character_name}: {self.result}"
