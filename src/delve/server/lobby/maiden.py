"""White Maiden in the lobby: any player may open a game (1-4 seats, difficulty, every §6.3
variant with its default, a turn deadline or none) and take a seat; the host may fill the empty
seats with bots, or play every seat in this browser (hot-seat, ``TableSeat``).

The settings form is built from the ruleset (``describe_settings`` for the keys and labels,
``validate_settings`` for the defaults and the final word), so a new variant shows up here
without a change.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from delve.bots import bot_for
from delve.kernel import DelveError
from delve.server import inputs
from delve.server.accounts.reserved import machine_account
from delve.server.games import engine, present
from delve.server.games.demo import bot_user
from delve.server.games.errors import Rejected
from delve.server.games.forms import (
    setting_error_text,
    setting_errors,
    setting_help,
    takeover_error,
    takeover_field,
    takeover_seconds,
)
from delve.server.games.models import Game, Seat
from delve.server.lobby.forms import error_summary
from delve.server.lobby.models import TableSeat
from delve.server.lobby.table import controlled_seats, table_seats, waiting_for

MAIDEN = "maiden"
PRESET = "white-maiden"
#: Settings asked first, outside the variants box.
MAIN = ("players", "difficulty", "turn_deadline_hours", "start_player")
BOT_NAMES = ("Lumen", "Seraphine", "Ilse")

TABLE_OPEN = "open"
TABLE_HOTSEAT = "hotseat"
TABLE_BOTS = "bots"


def _ruleset() -> Any:
    from delve.kernel import get_ruleset

    return get_ruleset(MAIDEN)


def _shown(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "/".join(str(v) for v in value)
    return str(value)


class MaidenGameForm(forms.Form):
    """A new White Maiden game: the host's maiden name, how the table is filled, and one field per
    setting of the ruleset (defaults from ``validate_settings({})``)."""

    name = forms.CharField(label=gettext_lazy("Your maiden's name"), max_length=engine.NAME_MAX)
    table = forms.ChoiceField(
        label=gettext_lazy("The other seats"),
        choices=[
            (TABLE_OPEN, gettext_lazy("open them to other players (you may add bots later)")),
            (TABLE_HOTSEAT, gettext_lazy("play every seat in this browser (hot-seat)")),
            (TABLE_BOTS, gettext_lazy("fill them with bots now")),
        ],
        initial=TABLE_OPEN,
        widget=forms.RadioSelect,
    )
    keep_record = forms.BooleanField(
        label=gettext_lazy("Keep the result in my personal record"), required=False, initial=True
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["keep_record"].label_suffix = ""  # a box and its sentence: no colon after it
        for number in TABLE_NUMBERS:  # the names of the seats played at the table (hot-seat)
            field = self.fields[f"seat_{number}"] = forms.CharField(
                label=_("Seat %(n)s's maiden") % {"n": number}, max_length=engine.NAME_MAX, required=False
            )
            field.widget.attrs["placeholder"] = default_seat_name(number)
        takeover = self.fields["takeover_hours"] = takeover_field()
        takeover.help_text = gettext_lazy(
            "Empty: never. A seat whose decision keeps the game waiting this long is played by a bot from then "
            "on (and keeps no record). With a turn deadline it must be shorter than the deadline: at the "
            "deadline the autopilot plays the waiting decisions anyway."
        )
        rules = _ruleset()
        helps = {item.key: present.text(item.help) for item in setting_help(rules)}
        self.defaults: dict[str, Any] = rules.validate_settings({"preset": PRESET})
        self.setting_keys: list[str] = []
        self.labels: dict[str, str] = {}
        for line in rules.describe_settings({"preset": PRESET}):
            key = line.key
            default = self.defaults.get(key)
            label = self.labels[key] = present.text(line.label)
            field: forms.Field
            if line.choices:  # the labels the settings list shows too (one source)
                field = forms.ChoiceField(
                    label=label,
                    choices=[(c.value, present.text(c.label)) for c in line.choices],
                    initial=_shown(default),
                )
            elif line.low is not None and line.high is not None and line.high - line.low < 10:
                field = forms.TypedChoiceField(
                    label=label,
                    choices=[(n, str(n)) for n in range(line.low, line.high + 1)],
                    coerce=int,
                    initial=default,
                )
            elif isinstance(default, bool):
                field = forms.BooleanField(label=label, required=False, initial=default)
            elif isinstance(default, int):
                # The browser's bounds are the ruleset's; the ruleset's own check reports a value
                # outside them (with the range in words), like every other setting.
                field = forms.IntegerField(label=label, initial=default)
                field.widget.attrs.update({k: v for k, v in (("min", line.low), ("max", line.high)) if v is not None})
            else:
                field = forms.CharField(label=label, initial=_shown(default), max_length=40)
            field.help_text = helps.get(key, "")  # what the setting does, in the reader's language
            if isinstance(field, forms.BooleanField):
                field.label_suffix = ""  # a box and its sentence: no colon after it
            self.fields["s_" + key] = field
            self.setting_keys.append(key)

    def table_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{number}"] for number in TABLE_NUMBERS]

    def table_names(self) -> list[str]:
        """The names given to the table's seats 2, 3 and 4 (blank: the default)."""
        return [self.cleaned_data.get(f"seat_{number}") or "" for number in TABLE_NUMBERS]

    def main_fields(self) -> list[forms.BoundField]:
        return [self["s_" + key] for key in MAIN if key in self.setting_keys]

    def variant_fields(self) -> list[forms.BoundField]:
        return [self["s_" + key] for key in self.setting_keys if key not in MAIN]

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from the defaults, as the ruleset reads them (a field that
        failed its own check is left out)."""
        out: dict[str, Any] = {}
        for key in self.setting_keys:
            if "s_" + key not in self.cleaned_data:
                continue
            value = self.cleaned_data.get("s_" + key)
            default = self.defaults.get(key)
            if isinstance(default, list) and isinstance(value, str):
                parts = [p.strip() for p in value.replace(",", "/").split("/") if p.strip()]
                value = [int(p) if inputs.is_number(p) else p for p in parts]
            elif isinstance(value, str) and inputs.is_number(value) and key in {"start_player", "boss_life_bonus"}:
                value = int(value)  # a seat number, a fixed boss life bonus
            if value != default:
                out[key] = value
        return out

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # Every invalid setting at once, each next to its field, in the reader's words.
        errors = setting_errors(MAIDEN, PRESET, self.overrides())
        for exc in errors:
            field = "s_" + exc.setting if "s_" + exc.setting in self.fields else None
            self.add_error(field, setting_error_text(exc, self.labels.get(exc.setting, exc.setting)))
        if not errors and not self.errors:
            rules, settings = engine.resolve_settings(MAIDEN, PRESET, self.overrides())
            cleaned["bot_takeover_after"] = takeover_seconds(cleaned.get("takeover_hours"))
            if problem := takeover_error(rules, settings, cleaned["bot_takeover_after"]):
                self.add_error("takeover_hours", problem)
        if cleaned.get("table") == TABLE_HOTSEAT:
            self._check_table_names(cleaned)
        if cleaned.get("table") == TABLE_BOTS and bot_for(MAIDEN) is None:
            self.add_error("table", _("No computer player for White Maiden is installed on this server yet."))
        return cleaned

    def _check_table_names(self, cleaned: dict[str, Any]) -> None:
        """The table's names as the first one is checked (the engine's rules for a character
        name, :func:`delve.server.inputs.name_fault`; the length is the field's), and each her
        own."""
        taken = {(cleaned.get("name") or "").strip()}
        for number in TABLE_NUMBERS:
            key = f"seat_{number}"
            name = (cleaned.get(key) or "").strip()
            if not name:
                continue
            fault = inputs.name_fault(name)
            if fault == "control":
                self.add_error(key, _("A name cannot contain control characters."))
            elif fault == "format":
                self.add_error(
                    key, _("A name cannot contain invisible characters (zero-width spaces, text direction controls).")
                )
            elif fault == "blank":
                self.add_error(key, _("A name needs something visible."))
            elif name in taken:
                self.add_error(key, _("Each maiden needs her own name."))
            taken.add(name)


#: The seats a host may name for a hot-seat table (their own is seat 1).
TABLE_NUMBERS = (2, 3, 4)


def default_seat_name(number: int) -> str:
    """A table seat's name when the host gives none: "Maiden 2", in the host's language."""
    return _("Maiden %(n)s") % {"n": number}


def table_user(host: Any, number: int) -> Any:
    """The account of seat ``number`` at ``host``'s table (it cannot log in; never a person's
    account that happens to have its name: see :mod:`delve.server.accounts.reserved`)."""
    return machine_account(f"table-{host.pk}-{number}")


def create_table_game(
    host: Any,
    name: str,
    overrides: dict[str, Any],
    table: str,
    bot_takeover_after: int | None = None,
    *,
    keep_record: bool = True,
    table_names: list[str] | None = None,
) -> Game:
    """Open a game, seat the host, and fill the other seats as asked (in one transaction, so a
    hot-seat or bot game is running when this returns). ``bot_takeover_after``: seconds after
    which a bot plays a seat that keeps the game waiting (None: never); ``keep_record``: whether
    the host's result enters their personal record (as a joining player chooses);
    ``table_names``: the names of a hot-seat table's seats 2, 3, ... (blank or absent: "Maiden 2"...)."""
    with transaction.atomic():
        game = engine.create_game(MAIDEN, PRESET, overrides, created_by=host, bot_takeover_after=bot_takeover_after)
        engine.register(game.pk, host, name, keep_record=keep_record)
        if table == TABLE_HOTSEAT:
            names = list(table_names or [])
            for number in range(2, game.seat_count + 1):
                given = names[number - 2] if number - 2 < len(names) else ""
                seat = _register_table_seat(game, host, number, given)
                TableSeat.objects.create(seat=seat, host=host)
        elif table == TABLE_BOTS:
            fill_with_bots(game.pk, host)
        game.refresh_from_db()
        return game


def _register_table_seat(game: Game, host: Any, number: int, name: str = "") -> Seat:
    user = table_user(host, number)
    taken = set(game.seats.values_list("name", flat=True))
    label = name.strip() or default_seat_name(number)
    while label in taken:
        label += "′"
    return engine.register(game.pk, user, label)


def fill_with_bots(game_id: int, host: Any) -> int:
    """Seat bots in every empty seat of an open White Maiden game; only its host may.

    :raises Rejected: not the host, not open, or no White Maiden bot on this server.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.ruleset != MAIDEN:
        raise Rejected("game/not_found", f"there is no White Maiden game {game_id}", status=404)
    if game.created_by_id != host.pk and not host.is_staff:
        raise Rejected("lobby/not_host", "only the player who opened this game may seat bots", status=403)
    if game.status != Game.Status.OPEN:
        raise Rejected("registration/closed", "this game has already started", status=409)
    if bot_for(MAIDEN) is None:
        raise Rejected("lobby/no_bot", "no computer player for White Maiden is installed on this server", status=409)
    seated = 0
    taken = set(game.seats.values_list("user_id", flat=True))
    names = set(game.seats.values_list("name", flat=True))
    number = 0
    while game.seats.count() < game.seat_count:
        number += 1
        user = bot_user(number)
        if user.pk in taken:
            continue
        name = BOT_NAMES[(number - 1) % len(BOT_NAMES)]
        while name in names:
            name += "′"
        engine.register(game.pk, user, name, keep_record=False, is_bot=True)
        names.add(name)
        seated += 1
        game.refresh_from_db()
        if game.status != Game.Status.OPEN:
            break
    return seated


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    form = MaidenGameForm(request.POST or None, initial={"name": request.user.get_username()[:20]})
    if request.method == "POST" and form.is_valid():
        try:
            game = create_table_game(
                request.user,
                form.cleaned_data["name"],
                form.overrides(),
                form.cleaned_data["table"],
                form.cleaned_data.get("bot_takeover_after"),
                keep_record=form.cleaned_data["keep_record"],
                table_names=form.table_names(),
            )
        except DelveError as exc:
            form.add_error(None, engine.shown_name_fault(exc.message))
        else:
            if game.status == Game.Status.RUNNING:
                return redirect("play:game", game_id=game.pk)
            messages.success(
                request, _("Game %(id)s is open: other players can register from this page.") % {"id": game.pk}
            )
            return redirect(f"/#game-{game.pk}")
    order = [
        "name",
        *(f.name for f in form.main_fields()),
        "keep_record",
        "table",
        *(f.name for f in form.table_fields()),
        "takeover_hours",
        *(f.name for f in form.variant_fields()),
    ]
    return render(
        request,
        "lobby/maiden_new.html",
        {"form": form, "errors": error_summary(form, order)},
        status=400 if form.errors else 200,
    )


@require_POST
@login_required
def add_bots(request: HttpRequest, game_id: int) -> HttpResponse:
    get_object_or_404(Game, pk=game_id)
    try:
        seated = fill_with_bots(game_id, request.user)
    except DelveError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:index")
    game = Game.objects.get(pk=game_id)
    if game.status == Game.Status.RUNNING:
        messages.success(request, _("Bots took the empty seats: the game has started."))
        return redirect("play:game", game_id=game.pk)
    messages.success(request, _("%(n)s bots seated.") % {"n": seated})
    return redirect("lobby:index")


def card_extras(request: HttpRequest, game: Game, seats: list[Seat]) -> dict[str, Any]:
    """What a White Maiden game's lobby card adds: the host's bot button, and for a running game
    whether the visitor (or their table) has a decision waiting - one click away."""
    if game.ruleset != MAIDEN:
        return {}
    user = request.user
    out: dict[str, Any] = {"maiden": True}
    if not user.is_authenticated:
        return out
    out["is_host"] = game.created_by_id == user.pk
    out["bots_available"] = bot_for(MAIDEN) is not None
    if game.status != Game.Status.RUNNING:
        return out
    controlled = [s for s in controlled_seats(game, user, seats) if s.index is not None]
    if not controlled:
        return out
    out["plays"] = True
    own = present.own_seat(seats, user) or controlled[0]
    try:
        rules = engine.ruleset_of(game)
        state = engine.load_state(game, rules)
        # the dashboard's, the API's and the notifications' answer (lobby.table.waiting_for)
        out["decide"] = bool(waiting_for(rules, state, own, table_seats(game, user))[1].action)
    except DelveError:
        out["decide"] = False
    return out
