"""A player's standing defense order for one game (``/me/orders/<game id>/``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from delve.fated import text
from delve.server.games.models import Game, Seat
from delve.server.orders.models import StandingOrder


class OrderForm(forms.ModelForm):
    delay_minutes = forms.IntegerField(
        label=gettext_lazy("After the defense has waited (minutes)"), min_value=0, max_value=7 * 24 * 60
    )

    class Meta:
        model = StandingOrder
        fields = ["damage", "pass_by", "delay_minutes"]
        widgets = {"damage": forms.RadioSelect, "pass_by": forms.RadioSelect}

    def __init__(self, *args: Any, preset: str, **kwargs: Any) -> None:
        """The form of a game of ``preset``: its labels and choices in the preset's words (P-25,
        P-26 through text.vocabulary): Level D's says ワナ where Fated Labyrinth's says 罠."""
        super().__init__(*args, **kwargs)
        lang = get_language() or "en"
        for field in self.fields.values():
            field.label = text.vocabulary(str(field.label), lang, preset)
            if isinstance(field, forms.ChoiceField):
                field.choices = [(value, text.vocabulary(str(label), lang, preset)) for value, label in field.choices]


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def order(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    seat = Seat.objects.filter(game=game, user=request.user, index__isnull=False).first()
    if game.ruleset != "fated" or seat is None or game.status != Game.Status.RUNNING:
        message = _("Standing defense orders are for your seat in a running Fated Labyrinth or Level D game.")
        return render(request, "error.html", {"status": 404, "message": message}, status=404)
    instance = StandingOrder.objects.filter(seat=seat).first() or StandingOrder(seat=seat)
    form = OrderForm(request.POST or None, instance=instance, preset=game.preset)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your standing order is saved."))
        return redirect("orders:order", game_id=game.pk)
    intro = _(
        "Game %(id)s, %(name)s: when a defense phase of yours has waited this long, the order answers it for"
        " you through the normal command path; the game's log says the order did."
    )
    intro = text.vocabulary(intro, get_language() or "en", game.preset) % {"id": game.pk, "name": seat.name}
    return render(request, "orders/order.html", {"form": form, "game": game, "seat": seat, "intro": intro})
