from django.urls import path

from delve.server.play import views

app_name = "play"

urlpatterns = [
    path("<int:game_id>/", views.game, name="game"),
    path("<int:game_id>/command/", views.command, name="command"),
    path("<int:game_id>/comment/", views.comment, name="comment"),
]
