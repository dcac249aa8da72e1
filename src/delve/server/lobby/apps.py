from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "delve.server.lobby"
    label = "lobby"
    default_auto_field = "django.db.models.BigAutoField"
