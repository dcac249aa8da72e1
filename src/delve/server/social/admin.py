from django.contrib import admin

from delve.server.social.models import ChatMessage, ChatReport, SpectatorPolicy


@admin.register(SpectatorPolicy)
class SpectatorPolicyAdmin(admin.ModelAdmin):
    list_display = ["game", "allowed", "changed_by", "changed_at"]


class ReportInline(admin.TabularInline):
    model = ChatReport
    extra = 0
    readonly_fields = ["reporter", "time"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "name", "text", "time", "hidden"]
    list_filter = ["hidden"]
    search_fields = ["text", "name"]
    readonly_fields = ["game", "user", "name", "text", "time"]
    inlines = [ReportInline]
