"""The operator console: games, seats and the logs. Engine-owned fields are read-only; the logs
are append-only (no add, change or delete here)."""

from __future__ import annotations

import json
import logging
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from delve.kernel import DelveError
from delve.server import usertime
from delve.server.games import engine
from delve.server.games.forms import CreateGameForm
from delve.server.games.models import CommandEntry, EventEntry, Game, Seat

log = logging.getLogger("delve.games")

ENGINE_OWNED = (
    "ruleset",
    "preset",
    "settings",
    "status",
    "seat_count",
    "version",
    "seed",
    "next_due",
    "claimed_until",
    "claimed_by",
    "event_count",
    "created_at",
    "created_by",
    "started",
    "ended",
    "state_json",
)


def _when(seconds: int | None) -> str:
    if seconds is None:
        return "—"
    return usertime.say(seconds, fmt="Y-m-d H:i:s")  # the operator's zone


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "name", "user", "options", "keep_record", "is_bot", "comment")


class GameCreationForm(CreateGameForm, forms.ModelForm):
    class Meta:
        model = Game
        fields: list[str] = []


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    class Media:
        css = {"all": ["delve/admin.css"]}  # no inline styles: the Content-Security-Policy forbids them

    list_display = ("id", "ruleset", "preset", "status", "seats_taken", "version", "next_due", "created_at")
    list_filter = ("status", "ruleset", "preset")
    inlines = [SeatInline]
    actions = ["open_same_settings", "close_games"]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = GameCreationForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("preset", "overrides") if obj is None else ENGINE_OWNED

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else ENGINE_OWNED

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return [] if obj is None else self.inlines

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        if change:
            return  # nothing on an existing game is editable here
        data = form.cleaned_data
        created = engine.create_game(data["ruleset"], data["preset"], data["overrides"], created_by=request.user)
        obj.pk = created.pk
        obj.__dict__.update(created.__dict__)
        if data.get("fast_turns"):
            messages.warning(request, data["fast_turns"])

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        if change:
            super().save_related(request, form, formsets, change)

    @admin.display(description=gettext_lazy("seats"))
    def seats_taken(self, obj: Game) -> str:
        return f"{obj.seats.count()}/{obj.seat_count}"

    @admin.display(description=gettext_lazy("next due"))
    def next_due(self, obj: Game) -> str:
        return _when(obj.next_due_at)

    @admin.display(description=gettext_lazy("started"))
    def started(self, obj: Game) -> str:
        return _when(obj.started_at)

    @admin.display(description=gettext_lazy("ended"))
    def ended(self, obj: Game) -> str:
        return _when(obj.ended_at)

    @admin.display(description=gettext_lazy("state"))
    def state_json(self, obj: Game) -> Any:
        if not obj.state:
            return "—"
        pretty = json.dumps(json.loads(obj.state), indent=1, sort_keys=True)
        return format_html('<pre class="delve-state">{}</pre>', pretty)

    @admin.action(description=gettext_lazy("Open a new game with the same settings"))
    def open_same_settings(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            overrides = {k: v for k, v in game.settings.items() if k != "preset"}
            try:
                new = engine.create_game(game.ruleset, game.preset, overrides, created_by=request.user)
            except DelveError as exc:
                messages.error(request, f"#{game.pk}: {exc.message}")
            else:
                messages.success(request, _("Game %(id)s is open for registration.") % {"id": new.pk})

    @admin.action(description=gettext_lazy("Close selected games (end them now, keeping their history)"))
    def close_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> TemplateResponse | None:
        """End running games (``engine.close``) after asking for the reason the players read; a
        game not running is left as it is, and said so."""
        games = list(queryset.order_by("pk"))
        form = CloseGamesForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            for game in games:
                try:
                    engine.close(game.pk, reason)
                except DelveError as exc:
                    messages.error(request, f"#{game.pk}: {exc.message}")
                else:
                    log.info("operator %s closed game %s: %s", request.user, game.pk, reason)
                    messages.success(request, _("Game %(id)s is closed.") % {"id": game.pk})
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Close games"),
            "opts": self.model._meta,
            "games": games,
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/games/game/close_games.html", context)


class CloseGamesForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason the players read"),
        max_length=engine.REASON_MAX,
        widget=forms.TextInput(attrs={"size": 80}),
        help_text=gettext_lazy("One line, shown in the game's log and in the “has ended” notice."),
    )

    def clean_reason(self) -> str:
        try:
            return engine.close_reason_text(self.cleaned_data["reason"])
        except DelveError as exc:
            raise forms.ValidationError(exc.message) from None


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    """Seats come from registration; an operator may only mark a seat as a bot, or delete a seat
    of a game that has not started (a withdrawal on the player's behalf)."""

    list_display = ("game", "number", "name", "user", "keep_record", "is_bot", "comment")
    list_filter = ("is_bot", "keep_record")
    search_fields = ("name", "user__username")
    readonly_fields = ("game", "user", "index", "name", "options", "keep_record", "comment", "registered_at")
    fields = (*readonly_fields, "is_bot")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.game.status != Game.Status.OPEN:
            return False
        return super().has_delete_permission(request, obj)


class AppendOnlyAdmin(admin.ModelAdmin):
    list_filter = ("game",)
    list_select_related = ("game",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(CommandEntry)
class CommandEntryAdmin(AppendOnlyAdmin):
    list_display = ("game", "sequence", "at", "seat", "source", "command", "idempotency_key")

    @admin.display(description=gettext_lazy("time"))
    def at(self, obj: CommandEntry) -> str:
        return _when(obj.time)


@admin.register(EventEntry)
class EventEntryAdmin(AppendOnlyAdmin):
    list_display = ("game", "sequence", "at", "kind", "visibility", "data")

    @admin.display(description=gettext_lazy("time"))
    def at(self, obj: EventEntry) -> str:
        return _when(obj.time)
