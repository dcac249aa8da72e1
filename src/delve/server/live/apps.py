from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "delve.server.live"
    label = "live"
    verbose_name = "Live updates"
