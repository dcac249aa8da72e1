from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "delve.server.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from delve.server.accounts import signals

        signals.connect()
