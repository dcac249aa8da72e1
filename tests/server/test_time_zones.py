"""Each player's time zone: chosen on the preference page (or from the device's zone the pages
offer), refused when it is no zone (nothing changes), activated for the player's pages, which say
every time with its zone, and used for the messages they receive (their zone, not the server's nor
the request's). A player who chose none reads the server's zone (DELVE_TIME_ZONE)."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from delve.server import usertime
from delve.server.games.models import Game
from delve.server.notify import text
from delve.server.notify.models import Preference
from tests.server.conftest import START, FakeClock, session_client
from tests.server.maiden_kit import maiden_game
from tests.server.notify_kit import HOUR, fated, player, step

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")
PREFS = {"mode": "instant", "cap_hours": "6", "digest_hour": "8", "language": "en"}


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name, email=f"{name}@example.org") for name in ("ann", "bob", "cid", "dan")]


@pytest.fixture
def game(db: None, clock: FakeClock, four: list[Any]) -> Game:
    game = fated(four)
    clock.t = START + HOUR
    step()
    return game


def at(seconds: int, zone: dt.tzinfo, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return dt.datetime.fromtimestamp(seconds, zone).strftime(fmt)


# --- the preference -------------------------------------------------------------------------------


def test_the_time_zone_is_saved_with_the_preferences(game, four):
    client = session_client(four[0])
    page = client.get("/me/notifications/").content.decode()
    assert '<option value="Asia/Tokyo">Asia/Tokyo (UTC+09:00)</option>' in page
    assert re.search(r'<option value="" selected>The server.s zone: UTC \(UTC\+00:00\)</option>', unescape(page))
    response = client.post("/me/notifications/", {**PREFS, "time_zone": "Asia/Tokyo"})
    assert response.status_code == 302
    assert Preference.objects.get(user=four[0]).time_zone == "Asia/Tokyo"
    page = client.get("/me/notifications/").content.decode()
    assert '<option value="Asia/Tokyo" selected>' in page
    assert "JST" in page, "the page says what time it is in the chosen zone"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "asia/tokyo ", "../../etc/passwd", "x" * 100])
def test_a_zone_that_is_no_zone_is_refused_and_changes_nothing(game, four, zone):
    client = session_client(four[0])
    client.post("/me/notifications/", {**PREFS, "time_zone": "Europe/London", "language": "ja"})
    response = client.post("/me/notifications/", {**PREFS, "time_zone": zone})
    html = unescape(response.content.decode())
    assert response.status_code == 200 and "is not a time zone this server knows" in html
    pref = Preference.objects.get(user=four[0])
    assert (pref.time_zone, pref.language) == ("Europe/London", "ja"), "nothing of the refused form is saved"
    answer = client.post("/me/time-zone/", {"time_zone": zone})
    assert answer.status_code == 400
    assert "is not a time zone this server knows: nothing was changed" in unescape(answer.content.decode())
    assert Preference.objects.get(user=four[0]).time_zone == "Europe/London"


def test_the_device_zone_offer_shows_until_a_zone_is_chosen(game, four):
    client = session_client(four[0])
    page = client.get("/").content.decode()
    assert 'class="zone-offer"' in page and 'data-current="UTC"' in page and "delve/timezone.js" in page
    response = client.post("/me/time-zone/", {"time_zone": "Asia/Tokyo", "next": "/me/waiting/"})
    assert response.status_code == 302 and response["Location"] == "/me/waiting/"
    assert Preference.objects.get(user=four[0]).time_zone == "Asia/Tokyo"
    assert 'class="zone-offer"' not in client.get("/").content.decode(), "chosen: no offer"
    # keeping the server's zone is a choice too: the offer stops, the zone is the server's
    other = session_client(four[1])
    assert other.post("/me/time-zone/", {"time_zone": "keep", "next": "https://evil.example/"})["Location"] == (
        "/me/notifications/"
    ), "an outside address is not followed"
    assert Preference.objects.get(user=four[1]).time_zone == "UTC"
    assert 'class="zone-offer"' not in other.get("/").content.decode()


def test_a_browser_alias_of_a_zone_is_accepted(game, four):
    """Browsers may report an old name ("Asia/Calcutta"): it is a zone, though not listed."""
    assert session_client(four[0]).post("/me/time-zone/", {"time_zone": "Asia/Calcutta"}).status_code == 302
    assert Preference.objects.get(user=four[0]).time_zone == "Asia/Calcutta"
    page = session_client(four[0]).get("/me/notifications/").content.decode()
    assert '<option value="Asia/Calcutta" selected>Asia/Calcutta (UTC+05:30)</option>' in page, "saving keeps it"


# --- the pages ------------------------------------------------------------------------------------


def test_the_waiting_page_shows_the_deadline_in_the_players_zone_with_its_abbreviation(game, four):
    deadline = player(game, 0).wait_ended_at + 100 * HOUR
    client = session_client(four[0])
    html = client.get("/me/waiting/").content.decode()
    assert f"{at(deadline, dt.UTC)} UTC" in html, "no zone chosen: the server's (UTC here)"
    client.post("/me/time-zone/", {"time_zone": "Asia/Tokyo"})
    html = client.get("/me/waiting/").content.decode()
    assert f"{at(deadline, TOKYO)} JST" in html and f"{at(deadline, dt.UTC)} UTC" not in html
    # another player of the same game still reads UTC: the zone is per player, per request
    other = session_client(four[1]).get("/me/waiting/").content.decode()
    assert re.search(r'<span class="when">\d{4}-\d\d-\d\d \d\d:\d\d UTC</span>', other) and "JST" not in other


def test_the_server_zone_is_the_default_of_players_who_chose_none(game, four, settings):
    settings.TIME_ZONE = "Europe/Paris"
    deadline = player(game, 0).wait_ended_at + 100 * HOUR
    html = session_client(four[0]).get("/me/waiting/").content.decode()
    shown = dt.datetime.fromtimestamp(deadline, zoneinfo.ZoneInfo("Europe/Paris"))
    assert f"{shown:%Y-%m-%d %H:%M} {shown.tzname()}" in html


def test_a_zone_without_letters_is_said_as_its_utc_offset(game, four):
    session_client(four[0]).post("/me/time-zone/", {"time_zone": "America/Sao_Paulo"})
    deadline = player(game, 0).wait_ended_at + 100 * HOUR
    html = session_client(four[0]).get("/me/waiting/").content.decode()
    assert f"{at(deadline, zoneinfo.ZoneInfo('America/Sao_Paulo'))} UTC-03:00" in html


def test_the_fated_screen_says_its_times_in_the_players_zone(game, four, clock):
    client = session_client(four[0])
    client.post("/me/time-zone/", {"time_zone": "Asia/Tokyo"})
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Times in Asia/Tokyo." in html
    titles = re.findall(r'<time class="countdown"[^>]*title="([^"]+)"', html)
    shown = re.findall(r'<span class="at"> \(([^)]+)\)</span>', html)
    assert titles and shown, "the next turn's countdown and its time"
    assert all(found.endswith(" JST") for found in titles + shown), (titles, shown)


def test_the_lobby_lists_games_with_their_times_in_the_players_zone(game, four):
    client = session_client(four[0])
    client.post("/me/time-zone/", {"time_zone": "Asia/Tokyo"})
    game.refresh_from_db()
    html = client.get("/").content.decode()
    assert f"Started {at(game.started_at, TOKYO)} JST" in html


# --- White Maiden ---------------------------------------------------------------------------------


def test_the_white_maiden_deadline_is_shown_with_its_zone(db, clock, player, opponent):
    game = maiden_game([player, opponent], turn_deadline_hours=24)
    client = session_client(player)
    html = client.get(f"/games/{game.pk}/").content.decode()
    countdown = re.search(r'<time class="countdown" data-deadline="(\d+)" datetime="([^"]+)" title="([^"]+)">', html)
    assert countdown is not None, "a decision waits under a 24-hour deadline"
    deadline = int(countdown.group(1))
    assert countdown.group(3) == f"{at(deadline, dt.UTC)} UTC"
    assert countdown.group(2) == dt.datetime.fromtimestamp(deadline, dt.UTC).isoformat(timespec="seconds")
    client.post("/me/time-zone/", {"time_zone": "Asia/Tokyo"})
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'title="{at(deadline, TOKYO)} JST"' in html
    assert f'<span class="at"> ({at(deadline, TOKYO, "%m-%d %H:%M")} JST)</span>' in html
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'<span class="at">（{at(deadline, TOKYO, "%m-%d %H:%M")} JST）</span>' in html, "full-width in Japanese"
    assert dt.datetime.fromtimestamp(deadline, TOKYO).isoformat(timespec="seconds") in html


# --- notifications --------------------------------------------------------------------------------


def test_a_deadline_message_is_written_in_its_recipients_zone(game, four, clock):
    Preference.objects.create(user=four[0], time_zone="Asia/Tokyo", language="ja")
    deadline = player(game, 0).wait_ended_at + 100 * HOUR
    clock.t = deadline - 24 * HOUR
    timezone.activate(zoneinfo.ZoneInfo("America/New_York"))  # whatever the worker's own zone is
    try:
        step()
    finally:
        timezone.deactivate()
    ann = [m for m in mail.outbox if "ann@example.org" in m.to and "24時間" in m.subject]
    assert len(ann) == 1 and f"{at(deadline, TOKYO)} JST（約24時間後）" in ann[0].body
    new_york = at(deadline, zoneinfo.ZoneInfo("America/New_York"))
    assert new_york not in ann[0].body and at(deadline, dt.UTC) not in ann[0].body


def test_the_notification_text_says_the_time_in_the_zone_it_is_given():
    data = {"game": {"en": "#3 Fated Labyrinth"}, "name": "Aki", "at": 1_796_000_000, "deadline_kind": "autoplay"}
    _, tokyo = text.render("deadline_1h", data, "en", TOKYO)
    assert f"before {at(1_796_000_000, TOKYO)} JST (about 1 hour)" in tokyo
    _, utc = text.render("deadline_1h", data, "en")
    assert f"before {at(1_796_000_000, dt.UTC)} UTC" in utc


def test_the_calendar_feed_names_the_readers_zone(game, four):
    client = session_client(four[0])
    client.post("/me/time-zone/", {"time_zone": "Asia/Tokyo"})
    client.post("/me/notifications/calendar/", {"action": "new"})
    token = Preference.objects.get(user=four[0]).calendar_token
    feed = client.get(f"/me/calendar/{token}.ics").content.decode()
    deadline = player(game, 0).wait_ended_at + 100 * HOUR
    assert "X-WR-TIMEZONE:Asia/Tokyo" in feed
    assert f"DTSTART:{at(deadline, dt.UTC, '%Y%m%dT%H%M%SZ')}" in feed, "the event itself stays in UTC"
    assert f"{at(deadline, TOKYO)} JST" in feed.replace("\r\n ", "")


def test_the_zone_list_is_sorted_and_every_name_is_a_zone():
    names = usertime.zone_names()
    assert names[0] == "UTC" and list(names[1:]) == sorted(names[1:])
    assert "Asia/Tokyo" in names and "Europe/London" in names and "Japan" not in names
    assert all(usertime.is_zone(name) for name in names)
