from django.urls import path

import delve.server.converters  # noqa: F401 - registers <id:...>
from delve.server.api import docs, views

app_name = "api"

urlpatterns = [
    path("games", views.games, name="games"),
    path("me/games", views.my_games, name="my_games"),
    path("games/<id:game_id>", views.game, name="game"),
    path("games/<id:game_id>/seats", views.seats, name="seats"),
    path("games/<id:game_id>/commands", views.commands, name="commands"),
    path("games/<id:game_id>/comment", views.comment, name="comment"),
    path("games/<id:game_id>/reclaim", views.reclaim, name="reclaim"),
    path("games/<id:game_id>/leave", views.leave, name="leave"),
    path("games/<id:game_id>/handover", views.hand_over, name="handover"),
    path("games/<id:game_id>/events", views.events, name="events"),
    path("records", views.my_records, name="my_records"),
    path("records/<str:username>", views.user_records, name="user_records"),
    path("openapi.json", views.schema, name="openapi"),
    path("docs", docs.docs, name="docs"),
    path("<path:rest>", views.not_found, name="not_found"),
]
