from django.urls import path

from delve.server.records import views

app_name = "records"

urlpatterns = [
    path("", views.mine, name="mine"),
    path("<str:username>/", views.of_user, name="of_user"),
]
