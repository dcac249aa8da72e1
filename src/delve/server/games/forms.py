"""Creating a game: a ruleset's preset plus setting overrides, validated by the ruleset, and the
host's bot choices (seats given to bots at once, a bot takeover time for idle seats). Used by the
lobby's staff form and by the admin."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from delve.kernel import DelveError, SettingsError, get_ruleset, registered_names
from delve.server.games.engine import resolve_settings
from delve.server.games.errors import Rejected
from delve.server.games.present import text

HOUR = 3600


def takeover_field() -> forms.DecimalField:
    """The host's bot takeover time, in hours (empty: never)."""
    return forms.DecimalField(
        label=gettext_lazy("A bot takes over a seat idle for (hours)"),
        required=False,
        min_value=Decimal("0.1"),
        max_digits=7,
        decimal_places=1,
        help_text=gettext_lazy(
            "Empty: never. A seat that keeps the game waiting this long is played by a bot from then on "
            "(and keeps no record); it must be shorter than the game's abandonment time."
        ),
    )


def takeover_seconds(hours: Decimal | None) -> int | None:
    return None if hours is None else int(hours * HOUR)


def preset_choices() -> list[tuple[str, str]]:
    """``ruleset:preset`` pairs of every registered ruleset."""
    choices = []
    for name in registered_names():
        try:
            presets = get_ruleset(name).presets()
        except (KeyError, DelveError):  # a ruleset that fails to load offers no preset here
            continue
        choices.extend((f"{name}:{choice.value}", f"{name} — {text(choice.label)}") for choice in presets)
    return choices


def parse_overrides(raw: str) -> dict[str, Any]:
    """Setting overrides as a JSON object, or as ``key=value`` lines (values read as JSON when
    they are JSON - numbers, true/false - else as text).

    :raises forms.ValidationError: quoting the line or the JSON error.
    """
    raw = raw.strip()
    if not raw:
        return {}
    if raw.startswith("{"):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(_("The overrides are not valid JSON: %(error)s") % {"error": exc}) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("The overrides must be a JSON object."))
        return value
    overrides: dict[str, Any] = {}
    for number, raw_line in enumerate(raw.splitlines(), start=1):
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise forms.ValidationError(
                _("Line %(number)s (%(line)r) is not key=value.") % {"number": number, "line": line}
            )
        try:
            overrides[key.strip()] = json.loads(value.strip())
        except json.JSONDecodeError:
            overrides[key.strip()] = value.strip()
    return overrides


class CreateGameForm(forms.Form):
    """A preset plus overrides; ``clean`` asks the ruleset, whose message names the bad setting."""

    preset = forms.ChoiceField(label=gettext_lazy("Ruleset and preset"), choices=())
    overrides = forms.CharField(
        label=gettext_lazy("Setting overrides"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "placeholder": "players=4\nwait_time=3600"}),
        help_text=gettext_lazy('One key=value per line, or a JSON object such as {"players": 8}.'),
    )

    bots = forms.IntegerField(
        label=gettext_lazy("Seats given to bots now"),
        required=False,
        min_value=0,
        initial=0,
        help_text=gettext_lazy("The other seats stay open for registration; when bots fill them all, the game starts."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = preset_choices()
        self.fields["takeover_hours"] = takeover_field()

    def clean_overrides(self) -> dict[str, Any]:
        return parse_overrides(self.cleaned_data.get("overrides") or "")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        ruleset_name, _sep, preset = cleaned["preset"].partition(":")
        try:
            ruleset, settings = resolve_settings(ruleset_name, preset, cleaned["overrides"])
        except SettingsError as exc:
            self.add_error("preset" if exc.setting in {"preset", "ruleset"} else "overrides", exc.message)
            return cleaned
        from delve.bots import bot_for
        from delve.server.games.bots import check_takeover

        cleaned["bot_takeover_after"] = takeover_seconds(cleaned.get("takeover_hours"))
        try:
            check_takeover(ruleset, settings, cleaned["bot_takeover_after"])
        except Rejected as exc:
            self.add_error("takeover_hours", exc.message)
        bots = cleaned.get("bots") or 0
        seats = ruleset.seat_count(settings)
        if bots > seats:
            self.add_error("bots", _("This game has %(n)s seats.") % {"n": seats})
        elif (bots or cleaned["bot_takeover_after"]) and bot_for(ruleset_name) is None:
            self.add_error("bots", _("No computer player for this game is installed on this server."))
        cleaned["bots"] = bots
        cleaned["ruleset"], cleaned["preset"] = ruleset_name, preset
        return cleaned
