from __future__ import annotations

import math
from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext

from delve.server.accounts.backends import throttled_for


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


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
