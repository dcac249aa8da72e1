from django.urls import path

from delve.server.notify import views

app_name = "notify"

urlpatterns = [
    path("waiting/", views.dashboard, name="dashboard"),
    path("waiting/count/", views.badge, name="badge"),
    path("notifications/", views.preferences, name="preferences"),
    path("time-zone/", views.time_zone, name="time_zone"),
    path("notifications/calendar/", views.calendar_link, name="calendar_link"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="calendar"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("push-worker.js", views.push_worker, name="push_worker"),
]
