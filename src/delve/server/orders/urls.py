from django.urls import path

import delve.server.converters  # noqa: F401 - registers <id:...>
from delve.server.orders import views

app_name = "orders"

urlpatterns = [path("orders/<id:game_id>/", views.order, name="order")]
