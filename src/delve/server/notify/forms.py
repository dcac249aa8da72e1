"""The notification preference form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from delve.server import usertime
from delve.server.notify import channels
from delve.server.notify.models import KINDS, Preference


def zone_choices() -> list[tuple[str, str]]:
    """The time zones offered: the server's zone (the default) first, then every zone by name,
    each with its offset from UTC now ("Asia/Tokyo (UTC+09:00)"), so typing "Asia/T" in the
    select or searching the page for "Tokyo" finds it."""
    server = usertime.server_zone()
    first = [
        ("", _("The server's zone: %(zone)s (%(offset)s)") % {"zone": server, "offset": usertime.offset_text(server)})
    ]
    return first + [(name, f"{name} ({usertime.offset_text(name)})") for name in usertime.zone_names()]


class ZoneField(forms.ChoiceField):
    """A time zone: any IANA name this server knows (a browser may report an alias such as
    "Asia/Calcutta"), or empty for the server's zone. Anything else is refused with its name."""

    def valid_value(self, value: Any) -> bool:
        return value == "" or usertime.is_zone(value)

    def validate(self, value: Any) -> None:
        if value and not usertime.is_zone(value):
            raise forms.ValidationError(
                _("“%(zone)s” is not a time zone this server knows: choose one from the list (e.g. Asia/Tokyo)."),
                code="invalid_zone",
                params={"zone": str(value)[:64]},
            )
        super().validate(value)


class PreferenceForm(forms.ModelForm):
    address = forms.EmailField(label=_("E-mail address"), required=False, max_length=254)
    kinds = forms.MultipleChoiceField(
        label=_("Tell me when"), choices=list(KINDS.items()), widget=forms.CheckboxSelectMultiple, required=False
    )
    cap_hours = forms.IntegerField(label=_("Warn this many hours before turns are lost"), min_value=1, max_value=72)
    digest_hour = forms.IntegerField(label=_("Digest hour (UTC, 0-23)"), min_value=0, max_value=23)
    language = forms.ChoiceField(label=_("Language of the messages"), choices=[("en", "English"), ("ja", "日本語")])
    time_zone = ZoneField(label=_("Time zone"), choices=zone_choices, required=False)

    class Meta:
        model = Preference
        fields = ["email", "push", "mode", "kinds", "cap_hours", "digest_hour", "language", "time_zone"]
        widgets = {"mode": forms.RadioSelect}

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["address"].initial = user.email
        # the box was shown unticked only for want of an address while the choice itself is "on"
        # (the default): giving the address turns e-mail on (see clean)
        self.mail_waits_for_address = not user.email and self.instance.email
        self.mail_turned_on = False
        if not user.email and not self.is_bound:
            # nothing can be mailed without an address: the box is not shown ticked until one is given
            self.initial["email"] = False
        self.fields["time_zone"].widget.attrs["data-device-zone"] = "1"  # timezone.js offers this device's
        kept = self.instance.time_zone
        if kept and kept not in usertime.zone_names():  # an alias a browser gave ("Asia/Calcutta"): kept as is
            self.fields["time_zone"].choices = [*zone_choices(), (kept, f"{kept} ({usertime.offset_text(kept)})")]
        self.push_available = channels.push_enabled()
        if not self.push_available:
            # nothing can be pushed on a server without push: the box is off and cannot be ticked,
            # and saving stores it off (a disabled field takes its initial value)
            self.fields["push"].disabled = True
            self.initial["push"] = False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("email") and not data.get("address") and "address" not in self.errors:
            self.add_error("address", _("Give an e-mail address, or turn e-mail off."))
        if not data.get("email") and data.get("address") and self.mail_waits_for_address:
            data["email"] = True
            self.mail_turned_on = True
        return data

    def mail_note(self) -> str:
        """What the save did to e-mail, when the page alone would not make it plain."""
        data = self.cleaned_data
        if self.mail_turned_on:
            return str(_("E-mail is on now that you gave an address."))
        if data.get("address") and not data.get("email"):
            return str(_("E-mail stays off until you tick “By e-mail”."))
        return ""

    def save(self, commit: bool = True) -> Preference:
        pref = super().save(commit=False)
        pref.user = self.user
        self.user.email = self.cleaned_data.get("address") or ""
        if commit:
            self.user.save(update_fields=["email"])
            pref.save()
        return pref
