"""The "waiting on me" dashboard, the notification preference page and the personal iCalendar feed
at its secret, revocable URL (issue 15). The feed is parsed back with the icalendar package."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import icalendar
import pytest

from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.notify import calendar
from delve.server.notify.models import Preference, PushSubscription
from tests.server.conftest import START, FakeClock, session_client
from tests.server.notify_kit import HOUR, browser_keys, fated, player, step


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name, email=f"{name}@example.org") for name in ("ann", "bob", "cid", "dan")]


@pytest.fixture
def game(db: None, clock: FakeClock, four: list[Any]) -> Game:
    game = fated(four)
    clock.t = START + HOUR
    step()
    return game


# --- the dashboard ---------------------------------------------------------------------------------


def test_the_dashboard_lists_what_waits_with_its_deadline_and_stored_turns(game, four, make_user, clock):
    other = fated([make_user(n) for n in ("eve", "fay", "gus", "hal")])
    page = session_client(four[0]).get("/me/waiting/")
    assert page.status_code == 200
    html = page.content.decode()
    aki = player(game, 0)
    deadline = dt.datetime.fromtimestamp(aki.wait_ended_at + 100 * HOUR, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    assert "1 game needs you." in html
    assert "Your turn" in html and deadline in html and "1 / 2" in html
    assert f'href="/games/{game.pk}/"' in html, "one click to act"
    assert f"/games/{other.pk}/" not in html, "only my games"


def test_the_dashboard_shows_a_waiting_defense_and_a_game_not_started(db, clock, four, make_user):
    from delve.fated.state import Pending
    from tests.server.fated_kit import rewrite

    game = fated(four)
    waiting_room = engine.create_game("fated", "fated-labyrinth", {"players": 4, "maze_size": 9})
    engine.register(waiting_room.pk, four[0], "Solo", {"class": "warrior"})
    rewrite(
        game,
        lambda s: s.p(0).pending.append(
            Pending(id=7, kind="attack", created=s.now, row="dmg_adjacent", label="normal")
        ),
    )
    html = session_client(four[0]).get("/me/waiting/").content.decode()
    assert "attacked: a defense waits at your next turn" in html
    assert "Registered, not started yet" in html and f"/games/{waiting_room.pk}/" in html


def test_the_dashboard_is_for_logged_in_players(db):
    from django.test import Client

    response = Client().get("/me/waiting/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_dashboard_speaks_japanese(game, four):
    client = session_client(four[0])
    client.cookies["django_language"] = "ja"
    html = client.get("/me/waiting/", headers={"Accept-Language": "ja"}).content.decode()
    assert "Fated Labyrinth（フェイティド・ラビリンス）" in html


# --- following the games by itself: the page's poll and the header's count -------------------------


def _count(html: str) -> int:
    found = re.search(r'id="waiting-badge"[^>]*data-count="(\d+)"', html)
    assert found is not None, "the header shows the waiting count"
    return int(found.group(1))


def test_the_page_and_the_header_follow_the_turn_passing_to_the_player(db, clock, four):
    """Bob opens "waiting on me" while Ann plays the first turn of a White Maiden game: the page's
    poll (``?part=now``), the header's count (``/me/waiting/count/``, on every page) and the
    lobby's poll all say when it becomes Bob's turn, without a reload, and agree on the number."""
    from tests.server.maiden_kit import legal, maiden_game, play_until

    ann, bob = four[0], four[1]
    game = maiden_game([ann, bob])
    client = session_client(bob)
    page = client.get("/me/waiting/").content.decode()
    assert "0 games need you." in page and _count(page) == 0
    assert 'hx-get="/me/waiting/?part=now"' in page and "data-poll-every" in page, "the page polls itself"
    sig = re.search(r'"sig": "([0-9a-f]+)"', page)
    assert sig is not None
    assert client.get("/me/waiting/", {"part": "now", "sig": sig.group(1)}).status_code == 204, "nothing new"
    assert _count(client.get("/me/waiting/count/").content.decode()) == 0
    assert _count(client.get("/").content.decode()) == 0, "the header on any page"

    play_until(game, [ann, bob], lambda _view: bool(legal(game, 1)))

    part = client.get("/me/waiting/", {"part": "now", "sig": sig.group(1)})
    html = part.content.decode()
    assert part.status_code == 200 and "1 game needs you." in html and "Your turn" in html
    assert 'id="waiting-now"' in html and 'hx-swap-oob="true"' in html and _count(html) == 1, "with the header"
    assert _count(client.get("/me/waiting/count/").content.decode()) == 1
    assert _count(client.get("/records/").content.decode()) == 1
    lobby = client.get("/").content.decode()
    assert _count(lobby) == 1 and "your-decision" in lobby
    turns = client.get("/games/turns/", {"games": f"{game.pk},99999"}).content.decode()
    assert f'id="turn-{game.pk}"' in turns and "your-decision" in turns and _count(turns) == 1
    assert _count(session_client(ann).get("/me/waiting/count/").content.decode()) == 0
    screen = client.get(f"/games/{game.pk}/").content.decode()
    # the game screen asks for its header count as it loads: its own request decodes its game once
    assert re.search(r'id="waiting-badge"[^>]*hx-trigger="load, delve:poll"', screen)


def test_the_header_count_is_for_logged_in_players_only(db, clock, four):
    from django.test import Client

    assert 'id="waiting-badge"' not in Client().get("/").content.decode()
    assert Client().get("/me/waiting/count/").status_code == 204
    assert Client().get("/games/turns/", {"games": "1"}).status_code == 204


def test_a_white_maiden_game_without_a_clock_waits_for_the_others_and_numbers_seats_as_its_screen(
    db, clock, four, game
):
    """A White Maiden game with no turn deadline waits for the players alone: the page says so (no
    clock); with a deadline it names the clock too. Its seats are numbered as the game screen
    numbers them (1, 2: "Seat 1"), here and in the lobby; Fated Labyrinth keeps its two-digit
    player numbers (FL-REG-10)."""
    from tests.server.maiden_kit import maiden_game

    ann, bob = four[0], four[1]
    free = maiden_game([ann, bob])
    timed = maiden_game([ann, bob], turn_deadline_hours=48)
    html = session_client(bob).get("/me/waiting/").content.decode()
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"#(\d+) [^<]*</strong>(.*?)</tr>", html, re.S)}
    assert "· 2 Bob" in rows[free.pk] and "Nothing (waiting for the others)" in rows[free.pk]
    assert "· 2 Bob" in rows[timed.pk] and "Nothing (waiting for the clock or the others)" in rows[timed.pk]
    assert "· 02 " in rows[game.pk], "Fated Labyrinth: two digits"
    ja = session_client(bob)
    ja.cookies["django_language"] = "ja"
    assert "なし（他のプレイヤーを待っています）" in ja.get("/me/waiting/").content.decode()
    lobby = session_client(bob).get("/").content.decode()
    free_card = lobby[lobby.index(f"Game {free.pk} —") :]
    assert re.search(r"<td>1</td>\s*<td>Ann", free_card) and re.search(r"<td>2</td>\s*<td>Bob", free_card)
    fated_card = lobby[lobby.index(f"Game {game.pk} —") :]
    assert re.search(r"<td>01</td>\s*<td>Ann", fated_card) or "<td>01</td>" in fated_card


# --- the preference page ---------------------------------------------------------------------------


def test_the_preference_page_saves_choices_and_the_address(game, four):
    client = session_client(four[1])
    assert client.get("/me/notifications/").status_code == 200
    response = client.post(
        "/me/notifications/",
        {
            "email": "on",
            "address": "bob@new.example",
            "mode": "digest",
            "kinds": ["turn", "defense"],
            "cap_hours": "3",
            "digest_hour": "7",
            "language": "ja",
        },
    )
    assert response.status_code == 302
    pref = Preference.objects.get(user=four[1])
    assert (pref.email, pref.push, pref.mode, pref.kinds, pref.cap_hours, pref.digest_hour, pref.language) == (
        True,
        False,
        "digest",
        ["turn", "defense"],
        3,
        7,
        "ja",
    )
    four[1].refresh_from_db()
    assert four[1].email == "bob@new.example"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("address", "", "Give an e-mail address, or turn e-mail off."),
        ("address", "not-an-address", "Enter a valid email address."),
        ("cap_hours", "0", "greater than or equal to 1"),
        ("digest_hour", "24", "less than or equal to 23"),
        ("kinds", "everything", "Select a valid choice."),
        ("mode", "hourly", "Select a valid choice."),
    ],
)
def test_bad_preferences_are_refused_with_a_reason_and_change_nothing(game, four, field, value, message):
    data = {"email": "on", "address": "a@b.example", "mode": "instant", "cap_hours": "6", "digest_hour": "8"}
    data["language"] = "en"
    data[field] = value
    response = session_client(four[0]).post("/me/notifications/", data)
    assert response.status_code == 200 and message in response.content.decode()
    assert not Preference.objects.filter(user=four[0]).exists()


# --- the calendar feed -----------------------------------------------------------------------------


def calendar_url(client: Any) -> str:
    client.post("/me/notifications/calendar/", {"action": "new"})
    token = Preference.objects.get(user__username="ann").calendar_token
    assert token
    return f"/me/calendar/{token}.ics"


def test_the_calendar_feed_is_valid_icalendar_with_my_deadlines(game, four, clock):
    client = session_client(four[0])
    url = calendar_url(client)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    parsed = icalendar.Calendar.from_ical(response.content)
    events = [c for c in parsed.walk("VEVENT")]
    aki = player(game, 0)
    starts = sorted(int(e.decoded("DTSTART").timestamp()) for e in events)
    lost_at = aki.first_at + (aki.acc_next + 1) * HOUR
    assert starts == sorted([aki.wait_ended_at + 100 * HOUR, lost_at])
    summaries = " ".join(str(e["SUMMARY"]) for e in events)
    assert "Aki is abandoned unless you act" in summaries and "Aki starts losing turns" in summaries
    assert all(str(e["URL"]).endswith(f"/games/{game.pk}/") for e in events)
    assert len({str(e["UID"]) for e in events}) == 2


def test_the_calendar_feed_needs_no_login_but_its_secret(game, four):
    from django.test import Client

    url = calendar_url(session_client(four[0]))
    assert Client().get(url).status_code == 200
    assert Client().get("/me/calendar/not-the-token.ics").status_code == 404


def test_a_new_calendar_link_revokes_the_old_one_and_off_revokes_all(game, four):
    from django.test import Client

    client = session_client(four[0])
    old = calendar_url(client)
    new = calendar_url(client)
    assert old != new
    assert Client().get(old).status_code == 404 and Client().get(new).status_code == 200
    client.post("/me/notifications/calendar/", {"action": "off"})
    assert Client().get(new).status_code == 404
    assert client.post("/me/notifications/calendar/", {"action": "explode"}).status_code == 302


def test_calendar_text_is_escaped_and_long_lines_are_folded():
    body = calendar.feed(
        "x",
        [calendar.Deadline(uid="u", at=START, summary="a, b; c\\d\ne " + "長" * 40, description="d", url="https://e/")],
        START,
    )
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))
    [event] = icalendar.Calendar.from_ical(body).walk("VEVENT")
    assert str(event["SUMMARY"]) == "a, b; c\\d\ne " + "長" * 40


# --- push subscription -----------------------------------------------------------------------------


def test_a_browser_subscribes_to_push_only_when_the_server_has_keys(game, four, settings):
    client = session_client(four[0])
    sub = {"endpoint": "https://push.example/abc", "keys": browser_keys()}
    response = client.post("/me/push/subscribe/", sub, content_type="application/json")
    assert response.status_code == 503 and response.json()["error"]["code"] == "push/off"
    settings.DELVE_VAPID_PUBLIC_KEY, settings.DELVE_VAPID_PRIVATE_KEY = "pub", "priv"
    assert client.post("/me/push/subscribe/", sub, content_type="application/json").status_code == 200
    assert PushSubscription.objects.get(user=four[0]).endpoint == "https://push.example/abc"
    for endpoint, keys, why in [
        ("http://insecure.example/", browser_keys(), "the endpoint must be an https URL"),
        ("https://push.example/x", {"p256dh": "BK", "auth": browser_keys()["auth"]}, "the p256dh key is not"),
        ("https://push.example/x", {"p256dh": browser_keys()["p256dh"], "auth": "au"}, "the auth secret is not"),
    ]:
        bad = {"endpoint": endpoint, "keys": keys}
        response = client.post("/me/push/subscribe/", bad, content_type="application/json")
        assert response.status_code == 400 and why in response.json()["error"]["message"]
    assert PushSubscription.objects.count() == 1, "a refused subscription is not stored"
    assert client.post("/me/push/subscribe/", "{", content_type="application/json").status_code == 400
    client.post("/me/push/unsubscribe/")
    assert not PushSubscription.objects.exists()


def test_the_service_worker_is_served_as_javascript(db):
    from django.test import Client

    response = Client().get("/me/push-worker.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert b"showNotification" in response.content


def test_a_white_maiden_row_marks_its_empty_deadline_and_stored_turns_cells(game, four):
    """White Maiden keeps no stored turns, and without a turn deadline has none: the row marks
    those cells empty (``none``), which a phone's stacked layout leaves out instead of printing
    "Stored turns: –"; a Fated row keeps both."""
    import re

    from tests.server.maiden_kit import maiden_game

    maiden = maiden_game(four[:1])
    fated_game = game  # a running Fated game with a deadline and stored turns
    html = session_client(four[0]).get("/me/waiting/").content.decode()
    rows = {int(m[1]): m[0] for m in re.finditer(r'<tr class="[^"]*">.*?/games/(\d+)/.*?</tr>', html, re.S)}
    assert set(rows) >= {maiden.pk, fated_game.pk}
    assert rows[maiden.pk].count('class="none"') == 2 and "Your turn" in rows[maiden.pk]
    assert 'class="none"' not in rows[fated_game.pk]


def test_without_an_address_the_mail_box_is_not_shown_ticked(game, four, make_user):
    """Nothing can be mailed without an address: a new account's page does not look subscribed
    (the box unticked until an address is given); with an address it is ticked as saved."""
    nobody = make_user("noaddress")
    nobody.email = ""
    nobody.save()
    html = session_client(nobody).get("/me/notifications/").content.decode()
    box = re.search(r'<input[^>]*name="email"[^>]*>', html)
    assert box is not None and "checked" not in box.group(0)
    four[0].email = "ann@example.org"
    four[0].save()
    html = session_client(four[0]).get("/me/notifications/").content.decode()
    box = re.search(r'<input[^>]*name="email"[^>]*>', html)
    assert box is not None and "checked" in box.group(0)


def test_a_malformed_address_gets_one_message(game, four):
    data = {"email": "on", "address": "not-an-address", "mode": "instant", "cap_hours": "6", "digest_hour": "8"}
    html = session_client(four[0]).post("/me/notifications/", {**data, "language": "en"}).content.decode()
    assert "Enter a valid email address." in html and "Give an e-mail address, or turn e-mail off." not in html


def _box(html: str, name: str) -> str:
    box = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert box is not None
    return box.group(0)


def test_without_push_on_the_server_the_push_box_is_off_and_cannot_be_ticked(game, four, settings):
    """A server without VAPID keys sends no push: the box is shown unticked and disabled (in both
    languages), a posted tick is ignored and the preference is stored off; with keys it is a
    normal box, ticked by default."""
    settings.DELVE_VAPID_PUBLIC_KEY = settings.DELVE_VAPID_PRIVATE_KEY = ""
    client = session_client(four[0])
    for lang in ("en", "ja"):
        client.cookies["django_language"] = lang
        html = client.get("/me/notifications/").content.decode()
        box = _box(html, "push")
        assert "checked" not in box and "disabled" in box
    assert "Browser push is not set up on this server." not in html  # Japanese page
    data = {"email": "on", "push": "on", "address": "ann@example.org", "mode": "instant"}
    client.post("/me/notifications/", {**data, "cap_hours": "6", "digest_hour": "8", "language": "en"})
    assert Preference.objects.get(user=four[0]).push is False
    settings.DELVE_VAPID_PUBLIC_KEY, settings.DELVE_VAPID_PRIVATE_KEY = "pub", "priv"
    fresh = session_client(four[1])
    box = _box(fresh.get("/me/notifications/").content.decode(), "push")
    assert "checked" in box and "disabled" not in box


def test_giving_an_address_to_an_account_without_one_turns_mail_on_and_says_so(game, four, make_user):
    """The mail box is unticked only for want of an address (e-mail is on by default): giving
    the address turns it on, and the page says so."""
    nobody = make_user("noaddress")
    nobody.email = ""
    nobody.save()
    client = session_client(nobody)
    data = {"address": "no@example.org", "mode": "instant", "cap_hours": "6", "digest_hour": "8", "language": "en"}
    html = client.post("/me/notifications/", data, follow=True).content.decode()
    assert "E-mail is on now that you gave an address." in html
    assert Preference.objects.get(user=nobody).email is True
    assert "checked" in _box(html, "email")


def test_an_address_without_the_mail_box_says_mail_stays_off(game, four):
    """A player who turned e-mail off and saves with an address is told plainly that e-mail
    stays off until the box is ticked; nothing turns it on behind their back."""
    client = session_client(four[0])
    data = {"address": "ann@example.org", "mode": "instant", "cap_hours": "6", "digest_hour": "8", "language": "en"}
    html = client.post("/me/notifications/", data, follow=True).content.decode()
    assert "Your notification preferences are saved." in html
    assert "E-mail stays off until you tick “By e-mail”." in html
    assert Preference.objects.get(user=four[0]).email is False
    client.cookies["django_language"] = "ja"
    html = client.post("/me/notifications/", data, follow=True).content.decode()
    assert "「メールで」にチェックを入れるまで、メールは届きません。" in html


def test_the_first_calendar_link_is_not_said_to_replace_an_old_one(game, four):
    client = session_client(four[0])
    first = client.post("/me/notifications/calendar/", {"action": "new"}, follow=True).content.decode()
    assert "Your calendar link is made" in first and "the old one no longer works" not in first
    again = client.post("/me/notifications/calendar/", {"action": "new"}, follow=True).content.decode()
    assert "Your calendar has a new secret link; the old one no longer works." in again
    client.post("/me/notifications/calendar/", {"action": "off"})
    after_off = client.post("/me/notifications/calendar/", {"action": "new"}, follow=True).content.decode()
    assert "Your calendar link is made" in after_off


# --- a seat out of the running game (FL-DEATH-5) -----------------------------------------------------


def _kill(game: Game, seat: int, fate: str = "died") -> None:
    from tests.server.fated_kit import rewrite

    def change(s: Any) -> None:
        p = s.p(seat)
        p.alive, p.hp, p.fate, p.died_at, p.stored = False, 0, fate, s.now, 0

    rewrite(game, change)


@pytest.mark.parametrize(
    ("lang", "said", "other"), [("en", "You died", "Nothing (waiting"), ("ja", "あなたは死亡しました", "なし（")]
)
def test_a_dead_player_is_told_they_died_and_offered_no_standing_order_FL_DEATH_5(
    game, four, make_user, lang, said, other
):
    """FL-DEATH-5: after death a player can do nothing but comment: the game stays listed until it
    ends, last, saying so, with no "nothing waits" line, no standing order and no stored turns."""
    alive = fated([make_user(n) for n in ("eve", "fay", "gus")] + [four[0]])
    _kill(game, 0)
    client = session_client(four[0])
    client.cookies["django_language"] = lang
    html = client.get("/me/waiting/", headers={"Accept-Language": lang}).content.decode()
    dead_row = next(row for row in html.split("<tr") if f"/games/{game.pk}/" in row)
    assert said in dead_row and other not in dead_row
    assert f"/me/orders/{game.pk}/" not in html and f"/me/orders/{alive.pk}/" in html
    assert " / 2" not in dead_row, "a dead player stores no turns"
    assert html.index(f"/games/{alive.pk}/") < html.index(f"/games/{game.pk}/"), "the game they are out of comes last"


def test_an_abandoned_player_is_told_so(game, four):
    _kill(game, 0, "abandoned")
    html = session_client(four[0]).get("/me/waiting/").content.decode()
    assert "You abandoned the game" in html and "You died" not in html
    assert f"/me/orders/{game.pk}/" not in html


def test_the_api_says_a_dead_player_is_out_and_must_not_act_FL_DEATH_5(game, four):
    from tests.server.conftest import token_client

    rows = token_client(four[0]).get("/api/v1/me/games").json()["games"]
    assert [(g["id"], g["must_act"], g["out"]) for g in rows] == [(game.pk, True, None)]
    _kill(game, 0)
    rows = token_client(four[0]).get("/api/v1/me/games").json()["games"]
    assert [(g["id"], g["status"], g["must_act"], g["out"]) for g in rows] == [(game.pk, "running", False, "died")]


@pytest.mark.parametrize("part", ["", "?part=now"])
def test_without_a_running_game_the_page_shows_no_empty_table(db, make_user, part):
    """The page (and its live part, ``?part=now``) drew the table's headers (Game | What waits |
    Deadline | Stored turns) above "You have no running game.": without a game there is no table,
    just the sentence with its links."""
    client = session_client(make_user("idle"))
    body = client.get(f"/me/waiting/{part}").content.decode()
    assert "You have no running game." in body and "Join one" in body
    assert "<table" not in body and "What waits" not in body and "0 games need you" not in body
    ja = client.get(f"/me/waiting/{part}", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "<table" not in ja and "0 games need you" not in ja
