from django.apps import AppConfig


class DelveServerConfig(AppConfig):
    name = "delve.server"
    label = "delve"
    verbose_name = "Delve"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from delve.server import gcpolicy

        gcpolicy.configure()
