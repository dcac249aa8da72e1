from django.contrib import admin
from django.urls import path

from delve.server.health import healthz

admin.site.site_header = "Delve operator console"
admin.site.site_title = "Delve"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
