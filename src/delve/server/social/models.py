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


class ChatMessage(models.Model):
    """A line of a game's short chat, by one of its players. ``time`` is engine seconds."""

    MAX_LENGTH = 300

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(_("character name"), max_length=40)
    text = models.CharField(_("text"), max_length=MAX_LENGTH)
    time = models.BigIntegerField(_("time"))
    hidden = models.BooleanField(_("hidden by the host"), default=False)

    class Meta:
        ordering = ["game", "id"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"game {self.game_id} {self.name}: {self.text[:40]}"


class ChatReport(models.Model):
    """A player's report of a chat message to the game's host (once per message and reporter)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    time = models.BigIntegerField(_("time"))

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter}"
