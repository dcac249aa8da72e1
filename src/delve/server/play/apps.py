from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "delve.server.play"
    label = "play"
    default_auto_field = "django.db.models.BigAutoField"
