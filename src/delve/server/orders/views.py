"""A player's standing defense order for one game (``/me/orders/<game id>/``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from delve.server.games.models import Game, Seat
from delve.server.orders.models import StandingOrder


class OrderForm(forms.ModelForm):
    delay_minutes = forms.IntegerField(
        label=_("After the defense has waited (minutes)"), min_value=0, max_value=7 * 24 * 60
    )

    class Meta:
        model = StandingOrder
        fields = ["damage", "pass_by", "delay_minutes"]
        widgets = {"damage": forms.RadioSelect, "pass_by": forms.RadioSelect}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def order(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    seat = Seat.objects.filter(game=game, user=request.user, index__isnull=False).first()
    if game.ruleset != "fated" or seat is None or game.status != Game.Status.RUNNING:
        message = _("Standing defense orders are for your seat in a running Fated Labyrinth or Level D game.")
        return render(request, "error.html", {"status": 404, "message": message}, status=404)
    instance = StandingOrder.objects.filter(seat=seat).first() or StandingOrder(seat=seat)
    form = OrderForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your standing order is saved."))
        return redirect("orders:order", game_id=game.pk)
    return render(request, "orders/order.html", {"form": form, "game": game, "seat": seat})
