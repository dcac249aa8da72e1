from django.urls import path
from django.views.generic import RedirectView

import delve.server.converters  # noqa: F401 - registers <id:...>
from delve.server.lobby import maiden, views

app_name = "lobby"

urlpatterns = [
    path("", views.index, name="index"),
    # the games are listed on the front page (the header's "Games" link): a typed /games/ goes there
    path("games/", RedirectView.as_view(pattern_name="lobby:index", permanent=False)),
    path("games/new/", views.create_game, name="create_game"),
    path("games/turns/", views.turns, name="turns"),
    path("games/<id:game_id>/register/", views.register, name="register"),
    path("games/<id:game_id>/withdraw/", views.withdraw, name="withdraw"),
    path("maiden/new/", maiden.new_game, name="maiden_new"),
    path("games/<id:game_id>/maiden/bots/", maiden.add_bots, name="maiden_bots"),
]
