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


def error_summary(form: forms.Form, order: Sequence[str] | None = None) -> dict[str, Any]:
    """The errors of a submitted form for the summary at its top (``_form_errors.html``): the
    form-wide ones, then each field's, in the order the page shows the fields (``order``, else the
    form's). The first field in error gets ``autofocus``, so the page opens on it, scrolled to it
    (on a phone the message was two screens below the fold); every field in error is marked
    ``aria-invalid``; with form-wide errors only, the summary takes the focus (``focus``). Both
    new-game forms use it (White Maiden's, the operators' for any ruleset)."""
    if not form.is_bound or not form.errors:
        return {"items": [], "focus": False}
    out = [{"id": "", "label": "", "message": str(message)} for message in form.non_field_errors()]
    first = True
    for name in [*(order or []), *(n for n in form.fields if n not in (order or []))]:
        if name not in form.errors or name not in form.fields:
            continue
        bound = form[name]
        attrs = form.fields[name].widget.attrs
        attrs["aria-invalid"] = "true"
        if first:
            attrs["autofocus"] = True
            first = False
        label = str(form.fields[name].label or name)
        out.extend({"id": bound.id_for_label or "", "label": label, "message": str(m)} for m in form.errors[name])
    return {"items": out, "focus": first}
