"""The registration form: a character name, the ruleset's seat options (rendered generically from
``seat_options``; Fated Labyrinth's class), and the keep-record box, checked by default (FL-REG-2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from delve.kernel import SeatOption
from delve.server.games.engine import NAME_MAX, player_options
from delve.server.games.present import text

OPTION = "option_"


class RegistrationForm(forms.Form):
    name = forms.CharField(label=_("Character name"), max_length=NAME_MAX)
    keep_record = forms.BooleanField(label=_("Keep the result in my personal record"), required=False, initial=True)

    def __init__(
        self, seat_options: Sequence[SeatOption], *args: Any, name_label: str | None = None, **kwargs: Any
    ) -> None:
        """``name_label``: the game's own word for the name field (a White Maiden player names
        a maiden, as on the form that opens the game)."""
        super().__init__(*args, **kwargs)
        if name_label:
            self.fields["name"].label = name_label
        self.fields["keep_record"].label_suffix = ""  # a box and its sentence: no colon after it
        seat_options = player_options(seat_options)
        for option in seat_options:
            self.fields[OPTION + option.key] = forms.ChoiceField(
                label=text(option.label),
                choices=[(choice.value, text(choice.label)) for choice in option.choices],
                initial=option.default,
                help_text=text(option.help) if option.help else "",
            )
        self.order_fields(["name", *(OPTION + option.key for option in seat_options), "keep_record"])

    def options(self) -> dict[str, str]:
        return {key[len(OPTION) :]: value for key, value in self.cleaned_data.items() if key.startswith(OPTION)}
