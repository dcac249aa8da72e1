from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from delve.server.notify.channels import key_census
from delve.server.notify.models import Notice, OutboxMessage, Preference, PushSubscription


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "email", "push", "mode", "language"]
    exclude = ["calendar_token"]


@admin.register(OutboxMessage)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "channel", "subject", "status", "attempts", "next_attempt_at", "sent_at"]
    list_filter = ["status", "channel"]
    readonly_fields = [field.name for field in OutboxMessage._meta.fields]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "game", "kind", "key", "time", "digest", "skipped"]
    list_filter = ["kind"]
    readonly_fields = [field.name for field in Notice._meta.fields]


#: How the console shows a subscription's server key (``PushSubscription.key_state``).
KEY_STATES = {"current": _("current"), "older": _("older: no push"), "unknown": _("not recorded")}


class ServerKeyFilter(admin.SimpleListFilter):
    """Subscriptions by the VAPID key they were made with: after the keys are changed, those made
    with an older one get nothing until their browser subscribes again."""

    title = _("server key")
    parameter_name = "server_key"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("current", _("the current key")), ("older", _("an older key")), ("unknown", _("not recorded"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        current = settings.DELVE_VAPID_PUBLIC_KEY
        if self.value() == "current":
            return queryset.filter(server_key=current).exclude(server_key="")
        if self.value() == "older":
            return queryset.exclude(server_key=current).exclude(server_key="")
        if self.value() == "unknown":
            return queryset.filter(server_key="")
        return queryset


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "endpoint", "created_at", "key"]
    list_filter = [ServerKeyFilter]

    @admin.display(description=_("server key"))
    def key(self, subscription: PushSubscription) -> str:
        return str(KEY_STATES[subscription.key_state(settings.DELVE_VAPID_PUBLIC_KEY)])

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        """Says above the list how many subscriptions still use an older key (after a key change)."""
        census = key_census()
        if census["older"]:
            self.message_user(
                request,
                ngettext(
                    "%(n)d browser subscribed with an older VAPID key and gets no push until it subscribes again "
                    "(its player's next visit does it).",
                    "%(n)d browsers subscribed with an older VAPID key and get no push until they subscribe again "
                    "(their players' next visit does it).",
                    census["older"],
                )
                % {"n": census["older"]},
                level=messages.WARNING,
            )
        return super().changelist_view(request, extra_context)
