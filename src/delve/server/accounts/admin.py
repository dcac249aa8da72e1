from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext as _

from delve.server.accounts.forms import AdminSignUpForm, AdminUserChangeForm
from delve.server.accounts.models import ApiToken, LoginFailures


class DelveUserAdmin(UserAdmin):
    """Django's user admin, refusing the names kept for the server's own accounts
    (``bot-...``, ``table-...``) for a new account or a renamed one."""

    add_form = AdminSignUpForm
    form = AdminUserChangeForm


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), DelveUserAdmin)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are created here (the token is shown once) and deleted to revoke them."""

    list_display = ("hint", "user", "name", "created_at", "last_used_at")
    search_fields = ("user__username", "name", "hint")
    fields = ("user", "name", "hint", "created_at", "last_used_at")
    readonly_fields = ("hint", "created_at", "last_used_at")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: ApiToken, form: Any, change: bool) -> None:
        token = obj.set_new_token()
        super().save_model(request, obj, form, change)
        messages.warning(
            request, _("The new token is %(token)s — copy it now, it is not shown again.") % {"token": token}
        )


@admin.register(LoginFailures)
class LoginFailuresAdmin(admin.ModelAdmin):
    """Failed log-ins per account (``account:<name>``) and per address; delete a row to unlock."""

    list_display = ("key", "failures", "last_failure_at", "locked_until")
    search_fields = ("key",)
    readonly_fields = ("key", "failures", "last_failure_at", "locked_until")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
