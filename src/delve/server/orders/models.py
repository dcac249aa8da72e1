"""Standing defense orders (Fated Labyrinth, Level D): how a player's defense phases are answered
when the player has left them waiting for a while."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class StandingOrder(models.Model):
    class Damage(models.TextChoices):
        OFF = "off", _("wait for me")
        LEAST_LOSS = "least_loss", _("use the option that loses least (the best reduction card, or none)")
        NO_CARD = "no_card", _("take it without a card (keep my cards)")

    class PassBy(models.TextChoices):
        OFF = "off", _("wait for me")
        DECLINE = "decline", _("refuse pass-bys")
        ACCEPT = "accept", _("let them pass")

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="standing_order")
    damage = models.CharField(
        _("against attacks, traps and steals"), max_length=20, choices=Damage.choices, default=Damage.OFF
    )
    pass_by = models.CharField(_("against pass-by requests"), max_length=20, choices=PassBy.choices, default=PassBy.OFF)
    delay_minutes = models.PositiveIntegerField(_("after the defense has waited (minutes)"), default=30)
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("standing defense order")
        verbose_name_plural = _("standing defense orders")

    def __str__(self) -> str:
        return f"{self.seat}: {self.damage}/{self.pass_by} after {self.delay_minutes} min"

    @property
    def active(self) -> bool:
        return self.damage != self.Damage.OFF or self.pass_by != self.PassBy.OFF


#: The rule an ``order.fired`` event names (``orders.fire.choose``) and the option of /me/orders/
#: that made it answer.
FIRED_RULES: dict[str, StandingOrder.Damage | StandingOrder.PassBy] = {
    "no_card": StandingOrder.Damage.NO_CARD,
    "least_loss": StandingOrder.Damage.LEAST_LOSS,
    "decline_pass_by": StandingOrder.PassBy.DECLINE,
    "accept_pass_by": StandingOrder.PassBy.ACCEPT,
}


def rule_label(rule: str) -> str:
    """The words of the option behind a fired order's rule, as /me/orders/ shows it (in the active
    language; a preset's own words are the caller's: ``fated.text.vocabulary``)."""
    choice = FIRED_RULES.get(rule)
    return str(choice.label) if choice is not None else rule
