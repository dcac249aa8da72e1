"""Japanese is written as Japanese: no space between a name and its particle (はるかの個人記録,
Grimbleだけが見た), full-width brackets in Japanese texts (（あなただけ）, the card texts'
（僧侶は15）), lists joined with 「、」, and a sign-up help that says what names are accepted."""

from __future__ import annotations

import re
from html import unescape

import pytest

from delve.fated import content
from delve.server.records.replay import _event_line


def test_the_records_title_has_no_space_before_no(db, make_user):
    from tests.server.conftest import session_client

    client = session_client(make_user("はるか"))
    client.cookies["django_language"] = "ja"
    html = unescape(client.get("/records/", headers={"Accept-Language": "ja"}).content.decode())
    assert "はるかの個人記録" in html and "はるか の" not in html


def test_the_replay_says_who_saw_an_event_in_japanese_list_words(db):
    from delve.kernel.events import Event
    from delve.server.games.models import Game

    game = Game(ruleset="fated", preset="fated-labyrinth")
    event = Event(kind="card.drawn", time=0, data={"player": 0}, to=[0, 2])
    assert _event_line(game, event, "ja", ["Grimble", "Nyx", "Oona"])["seen_by"] == "Grimble、Oona"
    assert _event_line(game, event, "en", ["Grimble", "Nyx", "Oona"])["seen_by"] == "Grimble and Oona"


def test_the_seen_by_tag_has_no_space_before_dake():
    from pathlib import Path

    po = (Path(__file__).resolve().parents[2] / "src/delve/server/locale/ja/LC_MESSAGES/django.po").read_text()
    assert 'msgstr "%(who)sだけが見た"' in po


def test_japanese_card_status_and_class_texts_use_full_width_brackets():
    """The Japanese catalogue read 「HPを10回復する(僧侶は15)」: full-width （） as the rest of the
    Japanese text."""
    data = content.load()
    texts = [c.text.get("ja", "") for c in data.cards.values()]
    texts += [s.text.get("ja", "") for s in data.statuses.values()]
    texts += [c.description.get("ja", "") for c in data.classes.values()]
    assert any("（僧侶は15）" in t for t in texts)
    assert not [t for t in texts if re.search(r"[()]", t)]


def test_the_sign_up_help_says_japanese_names_are_accepted(db, client):
    """The help said 半角アルファベット (Django's) while はるか was accepted: it says what the
    name rules accept (Unicode letters, digits, @ . + - _), and はるか signs up."""
    html = unescape(client.get("/accounts/signup/", headers={"Accept-Language": "ja"}).content.decode())
    assert "半角" not in html
    assert "ひらがな・カタカナ・漢字も可" in html
    html = unescape(client.get("/accounts/signup/", headers={"Accept-Language": "en"}).content.decode())
    assert "letters of any script (Japanese too)" in html
    password = "a-long-Passw0rd!"
    response = client.post("/accounts/signup/", {"username": "はるか", "password1": password, "password2": password})
    assert response.status_code == 302


@pytest.mark.parametrize(("lang", "said"), [("ja", "（あなただけ）"), ("en", "(only for you)")])
def test_the_full_log_marks_a_private_line_with_the_languages_brackets(db, clock, make_user, lang, said):
    """The full log's private lines read 「(あなただけ)」 with half-width brackets."""
    from delve.server.games import engine
    from tests.server.conftest import START, session_client
    from tests.server.notify_kit import HOUR, fated, step

    users = [make_user(name) for name in ("ann", "bob", "cid", "dan")]
    game = fated(users)
    clock.t = START + HOUR
    step()
    engine.submit(game.pk, users[0], {"kind": "start_turn"})
    client = session_client(users[0])
    client.cookies["django_language"] = lang
    html = unescape(client.get(f"/games/{game.pk}/log/", headers={"Accept-Language": lang}).content.decode())
    assert 'class="private' in html, "the turn begun is told to its player alone"
    assert said in html
    assert "(あなただけ)" not in html and "((" not in html


@pytest.mark.parametrize(("lang", "said"), [("en", "Times in UTC."), ("ja", "時刻はUTC。")])
def test_the_game_screen_and_the_full_log_say_the_time_zone_of_their_times(db, clock, make_user, lang, said):
    """Event times (23:45) carried no zone while the waiting page and the mails say UTC: the
    events panel and the full log say the zone their times are in (the server's DELVE_TIME_ZONE)."""
    from tests.server.conftest import session_client
    from tests.server.notify_kit import fated

    users = [make_user(name) for name in ("ann", "bob", "cid", "dan")]
    game = fated(users)
    client = session_client(users[0])
    client.cookies["django_language"] = lang
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/log/"):
        html = unescape(client.get(url, headers={"Accept-Language": lang}).content.decode())
        assert said in html, url
