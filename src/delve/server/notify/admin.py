from django.contrib import admin

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


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "endpoint", "created_at"]
