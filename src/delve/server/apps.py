from django.apps import AppConfig
from django.utils.translation import gettext_noop

#: Django ends every form's labels with ``gettext(":")`` (``BoundField.label_tag``: the lobby's
#: forms, the accounts', the admin's) unless a label already ends in one of ``gettext(":?.!")``.
#: Japanese writes a full-width 「：」 (プレイ人数：), so the Japanese catalogue translates both,
#: in this one place for every form; English keeps ":". Marked here so that makemessages keeps
#: the two entries.
FORM_LABEL_SUFFIX = (gettext_noop(":"), gettext_noop(":?.!"))


class DelveServerConfig(AppConfig):
    name = "delve.server"
    label = "delve"
    verbose_name = "Delve"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from delve.server import gcpolicy

        gcpolicy.configure()
