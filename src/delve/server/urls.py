from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from delve.server.accounts.forms import AdminLoginForm
from delve.server.health import healthz
from delve.server.play.views import general_help

admin.site.site_header = "Delve operator console"
admin.site.site_title = "Delve"
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("delve.server.api.urls")),
    path("accounts/", include("delve.server.accounts.urls")),
    path("games/", include("delve.server.play.urls")),
    path("games/", include("delve.server.records.game_urls")),
    path("games/", include("delve.server.social.urls")),
    path("records/", include("delve.server.records.urls")),
    path("me/", include("delve.server.notify.urls")),
    path("me/", include("delve.server.orders.urls")),
    path("help/", general_help, name="help"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("delve.server.lobby.urls")),
]
