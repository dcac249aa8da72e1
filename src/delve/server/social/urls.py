from django.urls import path

import delve.server.converters  # noqa: F401 - registers <id:...>
from delve.server.social import views

app_name = "social"

urlpatterns = [
    path("<id:game_id>/spectators/", views.spectators, name="spectators"),
    path("<id:game_id>/chat/", views.chat, name="chat"),
    path("<id:game_id>/chat/<int:message_id>/", views.chat_action, name="chat_action"),
]
