"""Around a game: who may watch it (the host can close a running game to spectators)."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SpectatorPolicy(models.Model):
    """Whether people without a seat may watch a running game (the public view only). A game
    without a row is open to spectators."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True, related_name="spectators")
    allowed = models.BooleanField(_("spectators allowed"), default=True)
    changed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("spectator policy")
        verbose_name_plural = _("spectator policies")

    def __str__(self) -> str:
        return f"game {self.game_id}: spectators {'allowed' if self.allowed else 'not allowed'}"
