from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "delve.server.notify"
    label = "notify"
    default_auto_field = "django.db.models.BigAutoField"
