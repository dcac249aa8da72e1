from django.urls import path

import delve.server.converters  # noqa: F401 - registers <id:...>
from delve.server.social import views

app_name = "social"

urlpatterns = [
    path("<id:game_id>/spectators/", views.spectators, name="spectators"),
]
