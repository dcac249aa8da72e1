"""Players who saved their notification choices before the ``takeover`` kind existed hear about
it too, as new players do (every kind is on by default); a player who chose to hear about
nothing keeps hearing about nothing."""

from typing import Any

from django.db import migrations

KIND = "takeover"


def add_kind(apps: Any, schema_editor: Any) -> None:
    Preference = apps.get_model("notify", "Preference")
    for pref in Preference.objects.all():
        kinds = list(pref.kinds or [])
        if kinds and KIND not in kinds:
            pref.kinds = [*kinds, KIND]
            pref.save(update_fields=["kinds"])


def remove_kind(apps: Any, schema_editor: Any) -> None:
    Preference = apps.get_model("notify", "Preference")
    for pref in Preference.objects.all():
        kinds = list(pref.kinds or [])
        if KIND in kinds:
            pref.kinds = [kind for kind in kinds if kind != KIND]
            pref.save(update_fields=["kinds"])


class Migration(migrations.Migration):
    dependencies = [("notify", "0001_initial")]

    operations = [migrations.RunPython(add_kind, remove_kind)]
