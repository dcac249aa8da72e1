"""The player's pages: "waiting on me" (``/me/waiting/``), notification preferences
(``/me/notifications/``), the calendar feed at its secret URL and the Web Push subscription."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from delve.server import clock, usertime
from delve.server.env import b64decode
from delve.server.notify import calendar, channels, text, waiting
from delve.server.notify.forms import PreferenceForm
from delve.server.notify.models import Preference, PushSubscription
from delve.server.notify.triggers import preference

WORKER_JS = Path(__file__).resolve().parent / "push-worker.js"


@require_safe
@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The page; with ``?part=now`` only what it lists (its poll, every few seconds: the page
    follows the games by itself), with the header's count (out of band), or ``204`` while that
    is what the page shows already (``sig``)."""
    running, open_seats = waiting.rows(request.user)
    lang = text.language((get_language() or "en")[:2])
    count = waiting.count(running)
    inner = render_to_string(
        "notify/_waiting_rows.html",
        {"rows": running, "waiting_count": count, "open_seats": open_seats, "lang": lang, "now": clock.now()},
        request=request,
    )
    sig = hashlib.sha256(inner.encode()).hexdigest()[:16]
    now = {"inner": mark_safe(inner), "sig": sig}  # rendered by the template engine above
    if request.GET.get("part") == "now":
        if request.GET.get("sig") == sig:
            return HttpResponse(status=204)
        return HttpResponse(
            render_to_string("notify/_waiting_now.html", now, request=request)
            + render_to_string("notify/_badge.html", {"n": count, "oob": True}, request=request)
        )
    return render(request, "notify/dashboard.html", {**now, "waiting_count": count})


@require_safe
def badge(request: HttpRequest) -> HttpResponse:
    """The site header's "waiting on you: N" (its poll); nothing for a visitor."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    return render(request, "notify/_badge.html", {"n": waiting.count(waiting.rows(request.user)[0])})


def _calendar_url(request: HttpRequest, pref: Preference) -> str:
    if not pref.calendar_token:
        return ""
    return request.build_absolute_uri(reverse("notify:calendar", args=[pref.calendar_token]))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    pref = preference(request.user)
    if request.method == "POST":
        form = PreferenceForm(request.POST, instance=pref, user=request.user)
        if form.is_valid():
            form.save()
            messages.success(request, _("Your notification preferences are saved."))
            note = form.mail_note()
            if note:
                messages.info(request, note)
            return redirect("notify:preferences")
        return _preferences_page(request, pref, form)  # the form again, each refusal beside its field
    return _preferences_page(request, pref)


def _preferences_page(
    request: HttpRequest, pref: Preference, form: PreferenceForm | None = None, status: int = 200
) -> HttpResponse:
    if form is None:
        if pref.pk is None:
            pref.language = text.language((get_language() or "en")[:2])
        form = PreferenceForm(instance=pref, user=request.user)
    return render(
        request,
        "notify/preferences.html",
        {
            "form": form,
            "calendar_url": _calendar_url(request, pref),
            "push_key": settings.DELVE_VAPID_PUBLIC_KEY if channels.push_enabled() else "",
            "push_count": PushSubscription.objects.filter(user=request.user).count() if channels.push_enabled() else 0,
            "zone_now": usertime.say(clock.now()),
            "zone_select": True,  # base.html loads timezone.js (the device's zone beside the select)
        },
        status=status,
    )


@require_POST
@login_required
def time_zone(request: HttpRequest) -> HttpResponse:
    """The device-zone offer's answer (``time_zone``: an IANA name, or ``keep``: the server's zone,
    chosen so the offer stops): saved at once, back to the page it was given on. A zone this server
    does not know is refused (400) with its name and changes nothing."""
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=False):
        back = ""
    back = back or reverse("notify:preferences")
    wanted = request.POST.get("time_zone", "")
    if wanted == "keep":
        wanted = usertime.server_zone()
    if not usertime.is_zone(wanted):
        shown = wanted[:64] if isinstance(wanted, str) else ""
        messages.error(
            request,
            _("“%(zone)s” is not a time zone this server knows: nothing was changed. Choose one on this page.")
            % {"zone": shown},
        )
        return _preferences_page(request, preference(request.user), status=400)
    pref = preference(request.user)
    if pref.pk is None:
        pref.language = text.language((get_language() or "en")[:2])
    pref.time_zone = wanted
    pref.save()
    messages.success(request, _("Times are now shown in %(zone)s.") % {"zone": wanted})
    return redirect(back)


@require_POST
@login_required
def calendar_link(request: HttpRequest) -> HttpResponse:
    """``action=new``: a new secret URL (the old one stops working); ``action=off``: no feed."""
    action = request.POST.get("action")
    if action not in {"new", "off"}:
        messages.error(request, _("Unknown calendar action: choose a new link or turn the feed off."))
        return redirect("notify:preferences")
    pref = preference(request.user)
    if action == "new":
        had_link = bool(pref.calendar_token)
        pref.new_calendar_token()
        if had_link:
            messages.success(request, _("Your calendar has a new secret link; the old one no longer works."))
        else:
            messages.success(request, _("Your calendar link is made: subscribe to it in your calendar application."))
    else:
        pref.calendar_token = None
        messages.success(request, _("Your calendar feed is off; its link no longer works."))
    pref.save()
    return redirect("notify:preferences")


@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    pref = Preference.objects.select_related("user").filter(calendar_token=token).first() if token else None
    if pref is None or not pref.user.is_active:
        return HttpResponse(
            "no such calendar (the link may have been replaced)\n", status=404, content_type="text/plain"
        )
    now = clock.now()
    lang = text.language(pref.language)
    name = {"en": "Delve deadlines", "ja": "Delve の期限"}[lang]
    zone = usertime.zone(pref.time_zone)  # the reader's, as their messages say times
    body = calendar.feed(name, waiting.deadlines(pref.user, lang, now, zone), now, zone.key)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    return response


@require_POST
@login_required
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """Store a browser's subscription (the JSON of ``PushSubscription.toJSON()``), marked with the
    server's current VAPID public key. Optional fields: ``applicationServerKey``, the key the
    browser subscribed with (refused, 409, when it is not the current one), and ``replaces``, the
    endpoint of this player's subscription it takes the place of (made with an older key: it is
    deleted)."""
    if not channels.push_enabled():
        return _error("push/off", "Web Push is not configured on this server", 503)
    current = settings.DELVE_VAPID_PUBLIC_KEY
    try:
        data = json.loads(request.body)
        endpoint, keys = data["endpoint"], data["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
        used, replaces = data.get("applicationServerKey", current), data.get("replaces", "")
    except (ValueError, KeyError, TypeError, AttributeError):
        return _error("request/malformed", 'send {"endpoint": ..., "keys": {"p256dh": ..., "auth": ...}}', 400)
    if not isinstance(replaces, str) or not isinstance(used, str):
        return _error("request/malformed", "applicationServerKey and replaces must be texts", 400)
    if b64decode(used) != b64decode(current):
        return _error(
            "push/old-key",
            "the browser subscribed with another key than the server's: subscribe again with the current key",
            409,
        )
    problem = channels.subscription_problem(endpoint, p256dh, auth)
    if problem:
        return _error("request/malformed", problem, 400)
    if len(endpoint) > 1000 or len(p256dh) > 200 or len(auth) > 100:
        return _error("request/malformed", "the subscription is too long", 400)
    with transaction.atomic():
        PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": request.user, "p256dh": p256dh, "auth": auth, "server_key": current}
        )
        replaced = 0
        if replaces and replaces != endpoint:
            replaced, _by_model = PushSubscription.objects.filter(user=request.user, endpoint=replaces).delete()
    return JsonResponse({"subscribed": True, "replaced": replaced})


@require_POST
@login_required
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    deleted, _by_model = PushSubscription.objects.filter(user=request.user).delete()
    messages.success(request, _("This account receives no more browser push messages."))
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"deleted": deleted})
    return redirect("notify:preferences")


@require_safe
def push_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that shows a push message and opens its game when clicked."""
    response = HttpResponse(WORKER_JS.read_text(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def _error(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)
