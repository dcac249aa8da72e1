from django.urls import path

from delve.server.play import maiden_views, views

app_name = "play"

urlpatterns = [
    path("<int:game_id>/", views.game, name="game"),
    path("<int:game_id>/command/", views.command, name="command"),
    path("<int:game_id>/comment/", views.comment, name="comment"),
    path("<int:game_id>/act/", views.act, name="act"),
    path("<int:game_id>/poll/", views.poll, name="poll"),
    path("<int:game_id>/panels/<slug:name>/", views.panel, name="panel"),
    path("<int:game_id>/help/", views.game_help, name="help"),
    path("<int:game_id>/maiden/act/", maiden_views.act, name="maiden_act"),
    path("<int:game_id>/maiden/poll/", maiden_views.poll, name="maiden_poll"),
    path("<int:game_id>/maiden/panels/<slug:name>/", maiden_views.panel, name="maiden_panel"),
]
