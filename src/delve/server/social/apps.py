from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "delve.server.social"
    label = "social"
    default_auto_field = "django.db.models.BigAutoField"
