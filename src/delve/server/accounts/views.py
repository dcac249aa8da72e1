"""Sign up, log in, log out, change password (Django auth with our templates)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from delve.server.accounts.forms import SignUpForm


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby:index")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="delve.server.accounts.backends.ThrottledModelBackend")
        messages.success(request, _("Welcome, %(name)s. Your account is ready.") % {"name": user.username})
        return redirect("lobby:index")
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)
