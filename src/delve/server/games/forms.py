"""Creating a game: a ruleset's preset plus setting overrides, validated by the ruleset, and the
host's bot choices (seats given to bots at once, a bot takeover time for idle seats). Used by the
lobby's staff form and by the admin."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from delve.kernel import (
    DelveError,
    Ruleset,
    SettingHelp,
    SettingsError,
    durations,
    get_ruleset,
    number_text,
    registered_names,
)
from delve.server import inputs
from delve.server.games.engine import resolve_settings
from delve.server.games.errors import Rejected
from delve.server.games.present import text

HOUR = 3600
#: Turns shorter than this are for testing: bots and monsters act at that pace (item of the form).
FAST_TURN = 60


def setting_errors(ruleset_name: str, preset: str, overrides: dict[str, Any]) -> list[SettingsError]:
    """Every invalid setting among ``overrides`` at once: the ruleset names the first one, which
    is set aside (its default stands in) before asking again, until the rest passes. Empty: valid.
    The ruleset stays the only judge (a setting whose default makes another fail is reported)."""
    left = dict(overrides)
    errors: list[SettingsError] = []
    while True:
        try:
            resolve_settings(ruleset_name, preset, left)
        except SettingsError as exc:
            errors.append(exc)
            if exc.setting not in left:
                return errors
            del left[exc.setting]
        else:
            return errors


def setting_help(ruleset: Ruleset[Any]) -> list[SettingHelp]:
    """Every setting key the ruleset accepts with its label and help (its ``setting_help()``;
    empty for a ruleset that has none)."""
    listing = getattr(ruleset, "setting_help", None)
    return list(listing()) if listing is not None else []


def setting_labels(ruleset: Ruleset[Any], preset: str) -> dict[str, str]:
    """The human label of each setting key, in the active language: every key the ruleset lists
    (:func:`setting_help`), else those it describes for the preset."""
    labels = {item.key: text(item.label) for item in setting_help(ruleset)}
    try:
        described = {line.key: text(line.label) for line in ruleset.describe_settings({"preset": preset})}
    except DelveError:
        described = {}
    return {**described, **labels}


def setting_reference() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """What the staff form lists under the overrides: for each ruleset (named with its presets),
    every setting key with its label and help in the active language."""
    out = []
    for name in registered_names():
        try:
            ruleset = get_ruleset(name)
            presets = ", ".join(text(choice.label) for choice in ruleset.presets())
        except (KeyError, DelveError):
            continue
        rows = [
            (item.key, text(item.label), " ".join([text(item.help), *([text(item.values)] if item.values else [])]))
            for item in setting_help(ruleset)
        ]
        if rows:
            out.append((f"{name} — {presets}", rows))
    return out


def _number(value: Any) -> str:
    return number_text(value)


def _amount(value: Any, unit: str) -> str:
    """A bound or an entered value in plain units, in the active language."""
    lang = (get_language() or "en")[:2]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if unit == "s":
            return durations.say(value, lang)
        if unit == "h":  # a number of hours stays one: the field asks for hours
            return _number(value) + ("時間" if lang == "ja" else " h")
        if unit == "%":
            return _number(value) + "%"
        return _number(value)
    if isinstance(value, (list, tuple)):
        return "/".join(str(v) for v in value)
    return str(value)


def setting_error_text(exc: SettingsError, label: str) -> str:
    """What a person reads about an invalid setting, in their language: the setting's label and
    what it accepts (a range in plain units: 1 s to 30 d, 1秒〜30日), never the API's wording. A
    rule that ties settings together says why in the ruleset's own words for the language."""
    if exc.words:
        return _("%(label)s: %(reason)s") % {"label": label, "reason": text(exc.words)}
    got = _amount(exc.got, exc.unit)
    low, high = _amount(exc.low, exc.unit), _amount(exc.high, exc.unit)
    values = {"label": label, "got": got, "low": low, "high": high}
    if exc.expected == "range":
        return _("%(label)s: enter a value from %(low)s to %(high)s (you entered %(got)s).") % values
    if exc.expected == "integer" and exc.low is not None:
        return _("%(label)s: enter a whole number from %(low)s to %(high)s (you entered %(got)s).") % values
    if exc.expected == "integer":
        return _("%(label)s: enter a whole number (you entered %(got)s).") % values
    if exc.expected == "number":
        return _("%(label)s: enter a number (you entered %(got)s).") % values
    if exc.expected == "boolean":
        return _("%(label)s: enter true or false (you entered %(got)s).") % values
    if exc.expected == "duration":
        return _("%(label)s: enter a time such as 45s, 30m, 6h or 2d (you entered %(got)s).") % values
    if exc.expected == "choice":
        return _("%(label)s: choose one of %(choices)s (you entered %(got)s).") % {
            **values,
            "choices": ", ".join(exc.choices),
        }
    if exc.expected == "unknown":
        return _("%(label)s is not a setting of this game.") % values
    return f"{label}: {exc.reason}"


def takeover_error(ruleset: Ruleset[Any], settings: dict[str, Any], seconds: int | None) -> str:
    """What a person reads when the bot takeover time does not fit the game (empty: it fits):
    :func:`~delve.server.games.bots.check_takeover`'s rule in their language, naming what ends
    the wait in this game (Fated Labyrinth's abandonment time, White Maiden's turn deadline)."""
    from delve.server.games.bots import abandonment_seconds, check_takeover

    try:
        check_takeover(ruleset, settings, seconds)
    except Rejected:
        lang = (get_language() or "en")[:2]
        limit = abandonment_seconds(ruleset, settings)
        if seconds is None or seconds <= 0 or limit is None:
            return _("The bot takeover time must be longer than zero.")
        values = {"takeover": durations.say(seconds, lang), "limit": durations.say(limit, lang)}
        if "turn_deadline_hours" in ruleset.validate_settings(settings):
            return (
                _("A bot takes over after %(takeover)s: that must be shorter than the turn deadline (%(limit)s).")
                % values
            )
        return (
            _("A bot takes over after %(takeover)s: that must be shorter than the abandonment time (%(limit)s).")
            % values
        )
    return ""


def fast_turn_warning(settings: dict[str, Any]) -> str:
    """A plain warning when the resolved ``settings`` turn a game faster than a person can play
    (Fated Labyrinth's wait time under a minute); empty otherwise."""
    seconds = settings.get("wait_time")
    if not isinstance(seconds, int) or seconds >= FAST_TURN:
        return ""
    lang = (get_language() or "en")[:2]
    cap = settings.get("max_stored_turns")
    if not isinstance(cap, int) or cap < 1:
        cap = 1
    # a player away that long has the most turns they can store: more are lost (said exactly:
    # it once said "within a minute" for a cap of 24 turns of 20 s, about 8 minutes)
    return _(
        "Turns come every %(time)s: bots and monsters act at that pace, and a player away for %(full)s "
        "has stored the most turns they can (%(cap)s). Too fast for people to play — for testing only."
    ) % {"time": durations.say(seconds, lang), "full": durations.say(seconds * cap, lang), "cap": cap}


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


#: The game a ruleset plays, as the operators' form groups its presets (any other: its name).
GAME_NAMES = {
    "fated": gettext_lazy("Fated Labyrinth and Level D"),
    "maiden": gettext_lazy("White Maiden"),
}


def preset_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """``ruleset:preset`` pairs of every registered ruleset, grouped by the game they play."""
    groups = []
    for name in registered_names():
        try:
            presets = get_ruleset(name).presets()
        except (KeyError, DelveError):  # a ruleset that fails to load offers no preset here
            continue
        choices = [(f"{name}:{choice.value}", f"{name} — {text(choice.label)}") for choice in presets]
        if choices:
            groups.append((str(GAME_NAMES.get(name, name)), choices))
    return groups


#: A JSON number (a ``key=value`` line's value written so must decode as a number, not as text).
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
#: A JSON whole number (out of range when it decodes to none this server takes).
_WHOLE = re.compile(r"-?[0-9]+")


def parse_overrides(raw: str) -> dict[str, Any]:
    """Setting overrides as a JSON object, or as ``key=value`` lines (values read as JSON when
    they are JSON - numbers, true/false - else as text). Decoded strictly
    (:func:`delve.server.inputs.json_text`): nested at most ``JSON_DEPTH`` deep, whole numbers that
    fit 64 bits (one beyond is refused as out of range, quoted as typed), no key twice, so a
    5000-deep list or a 5000-digit number is a form error too.

    :raises forms.ValidationError: quoting the line or the JSON error.
    """
    raw = raw.strip()
    if not raw:
        return {}
    if raw.startswith("{"):
        try:
            value = inputs.json_text(raw, "the JSON object")
        except Rejected as exc:
            raise forms.ValidationError(_("The overrides are not valid: %(error)s") % {"error": exc.message}) from None
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
                _("Line %(number)s (%(line)s) is not key=value.") % {"number": number, "line": inputs.quote(line)}
            )
        overrides[key.strip()] = _line_value(value.strip(), number)
    return overrides


def _line_value(text: str, number: int) -> Any:
    """A ``key=value`` line's value: JSON when it decodes as JSON, else the text.

    :raises forms.ValidationError: for a number out of range (64 bits), a list nested too deep.
    """
    try:
        return inputs.json_text(text, "its value")
    except Rejected as exc:
        if _WHOLE.fullmatch(text):
            raise forms.ValidationError(
                _("Line %(number)s: %(value)s is out of range: whole numbers from %(low)s to %(high)s are accepted.")
                % {"number": number, "value": inputs.quote(text), "low": inputs.INT_MIN, "high": inputs.INT_MAX}
            ) from None
        if _NUMBER.fullmatch(text):
            raise forms.ValidationError(
                _("Line %(number)s: %(value)s is not a number this server can use.")
                % {"number": number, "value": inputs.quote(text)}
            ) from None
        if "not valid JSON" not in exc.message:  # too deep, a NUL, a key twice: not a plain text
            raise forms.ValidationError(
                _("Line %(number)s is not valid: %(error)s") % {"number": number, "error": exc.message}
            ) from None
        return text


class CreateGameForm(forms.Form):
    """A preset plus overrides; ``clean`` asks the ruleset, whose message names the bad setting."""

    preset = forms.ChoiceField(label=gettext_lazy("Ruleset and preset"), choices=())
    overrides = forms.CharField(
        label=gettext_lazy("Setting overrides"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "placeholder": "players=4\nwait_time=3600"}),
        help_text=gettext_lazy(
            'One key=value per line, or a JSON object such as {"players": 8}. A wait_time under a minute '
            "(such as 5s) is for testing: turns come that fast and bots and monsters act at that pace, "
            "too fast for people."
        ),
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

    def setting_reference(self) -> list[tuple[str, list[tuple[str, str, str]]]]:
        return setting_reference()

    def clean_overrides(self) -> dict[str, Any]:
        return parse_overrides(self.cleaned_data.get("overrides") or "")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        ruleset_name, _sep, preset = cleaned["preset"].partition(":")
        errors = setting_errors(ruleset_name, preset, cleaned["overrides"])
        for exc in errors:
            if exc.setting in {"preset", "ruleset"}:
                self.add_error("preset", inputs.clip(exc.message, 240))
                continue
            label = setting_labels(get_ruleset(ruleset_name), preset).get(exc.setting)
            named = f"{label} ({exc.setting})" if label and label != exc.setting else exc.setting
            self.add_error("overrides", inputs.clip(setting_error_text(exc, named), 240))
        if errors:
            return cleaned
        ruleset, settings = resolve_settings(ruleset_name, preset, cleaned["overrides"])
        cleaned["fast_turns"] = fast_turn_warning(ruleset.validate_settings(settings))
        from delve.bots import bot_for

        cleaned["bot_takeover_after"] = takeover_seconds(cleaned.get("takeover_hours"))
        if problem := takeover_error(ruleset, settings, cleaned["bot_takeover_after"]):
            self.add_error("takeover_hours", problem)
        bots = cleaned.get("bots") or 0
        seats = ruleset.seat_count(settings)
        if bots > seats:
            self.add_error("bots", _("This game has %(n)s seats.") % {"n": seats})
        elif (bots or cleaned["bot_takeover_after"]) and bot_for(ruleset_name) is None:
            self.add_error("bots", _("No computer player for this game is installed on this server."))
        cleaned["bots"] = bots
        cleaned["ruleset"], cleaned["preset"] = ruleset_name, preset
        return cleaned
