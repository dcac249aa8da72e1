"""Replays and exports of finished games, under ``/games/<id>/``."""

from django.urls import path

import delve.server.converters  # noqa: F401 - registers <id:...>
from delve.server.records import replay

app_name = "replays"

urlpatterns = [
    path("<id:game_id>/replay/", replay.replay, name="replay"),
    path("<id:game_id>/export.json", replay.export, name="export"),
]
