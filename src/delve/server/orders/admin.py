from django.contrib import admin

from delve.server.orders.models import StandingOrder


@admin.register(StandingOrder)
class StandingOrderAdmin(admin.ModelAdmin):
    list_display = ["seat", "damage", "pass_by", "delay_minutes", "updated_at"]
