"""Lobby records beside the games: the seats a host plays from one browser (hot-seat)."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TableSeat(models.Model):
    """A seat played at its host's table ("play every seat in this browser"): the host may act
    for it on the game screen. The seat belongs to a table account that cannot log in."""

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="table")
    host = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("table seat")
        verbose_name_plural = _("table seats")

    def __str__(self) -> str:
        return f"{self.seat} at {self.host}'s table"
