from django.urls import path

import delve.server.converters  # noqa: F401 - registers <id:...>
from delve.server.live import views as live_views
from delve.server.play import maiden_views, views

app_name = "play"

urlpatterns = [
    path("<id:game_id>/", views.game, name="game"),
    path("<id:game_id>/command/", views.command, name="command"),
    path("<id:game_id>/comment/", views.comment, name="comment"),
    path("<id:game_id>/act/", views.act, name="act"),
    path("<id:game_id>/open/", views.open_game, name="open"),
    path("<id:game_id>/reclaim/", views.reclaim, name="reclaim"),
    path("<id:game_id>/leave/", views.leave, name="leave"),
    path("<id:game_id>/handover/", views.hand_over, name="handover"),
    path("<id:game_id>/poll/", views.poll, name="poll"),
    path("<id:game_id>/live/", live_views.stream, name="live"),
    path("<id:game_id>/panels/<slug:name>/", views.panel, name="panel"),
    path("<id:game_id>/help/", views.game_help, name="help"),
    path("<id:game_id>/log/", views.game_log, name="log"),
    path("<id:game_id>/maiden/act/", maiden_views.act, name="maiden_act"),
    path("<id:game_id>/maiden/poll/", maiden_views.poll, name="maiden_poll"),
    path("<id:game_id>/maiden/panels/<slug:name>/", maiden_views.panel, name="maiden_panel"),
]
