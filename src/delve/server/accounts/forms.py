from __future__ import annotations

import math
from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AdminUserCreationForm, AuthenticationForm, UserChangeForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy, ngettext

from delve.server.accounts.backends import throttled_for
from delve.server.accounts.reserved import check_not_reserved

NAME_HELP = gettext_lazy(
    "Required. 150 characters or fewer: letters of any script (Japanese too), digits and @ . + - _ only, no spaces."
)
"""What Django's UnicodeUsernameValidator accepts (``[\\w.@+-]``), said as it is: its own Japanese help
said half-width letters only (半角アルファベット) while はるか was taken."""

RESERVED_HELP = gettext_lazy(
    "Names beginning with “bot-” or “table-”, and “demo”, are kept for the server’s own accounts."
)


class SignUpForm(UserCreationForm):
    """A new player's account. Names kept for the server's own accounts (``bot-...``,
    ``table-...``, ``demo``) are refused, in any case (:mod:`delve.server.accounts.reserved`)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.help_text = format_lazy("{} {}", NAME_HELP, RESERVED_HELP)

    def clean_username(self) -> str:
        username: str = super().clean_username()
        check_not_reserved(username)
        return username


class AdminSignUpForm(AdminUserCreationForm):
    """The admin's "add user": the same kept names are refused."""

    def clean_username(self) -> str:
        username: str = super().clean_username()
        check_not_reserved(username)
        return username


class AdminUserChangeForm(UserChangeForm):
    """The admin's user form: an account may keep its name (the bots' own), but nobody may be
    renamed to a kept name."""

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if username != self.instance.username:
            check_not_reserved(username)
        return username


class _Throttled:
    """A log-in form that says when the log-in throttle refused the attempt."""

    request: Any
    throttled = False

    def get_invalid_login_error(self) -> ValidationError:
        wait = throttled_for(self.request)
        if not wait:
            return super().get_invalid_login_error()  # type: ignore[misc, no-any-return]
        self.throttled = True
        minutes = max(1, math.ceil(wait / 60))
        message = ngettext(
            "Too many failed log-ins for this account or from your address. Try again in %(minutes)d minute.",
            "Too many failed log-ins for this account or from your address. Try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        return ValidationError(message, code="throttled")


class LoginForm(_Throttled, AuthenticationForm):
    pass


class AdminLoginForm(_Throttled, AdminAuthenticationForm):
    pass
