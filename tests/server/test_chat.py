"""The short chat per game (issue 15): players write, rate limited; text is shown escaped; anyone
who may watch reads; a player reports a message to the host, who hides it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.social.chat import MIN_GAP, PER_MINUTE
from delve.server.social.models import ChatMessage, ChatReport, SpectatorPolicy
from tests.server.conftest import FakeClock, session_client


@pytest.fixture
def hosted(db: None, clock: FakeClock, staff: Any, player: Any, opponent: Any) -> Game:
    game = engine.create_game("toy", "toy", {}, created_by=staff)
    engine.register(game.pk, player, "Ann", {"colour": "red"})
    engine.register(game.pk, opponent, "Bob", {"colour": "blue"})
    return game


def say(user: Any, game: Game, text: str) -> Any:
    return session_client(user).post(f"/games/{game.pk}/chat/", {"text": text})


def test_players_write_and_everyone_reads_escaped(hosted, player, spectator):
    assert say(player, hosted, "<script>alert('x')</script> & hi").status_code == 302
    for client in (Client(), session_client(spectator)):
        html = client.get(f"/games/{hosted.pk}/chat/").content.decode()
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; hi" in html
        assert "<script>alert" not in html
    assert ChatMessage.objects.get().name == "Ann"


def test_only_players_write_and_bad_text_is_refused_with_a_reason(hosted, player, spectator):
    refused = say(spectator, hosted, "hello")
    assert refused.status_code == 403 and not ChatMessage.objects.exists()
    for text, status, reason in [
        ("   ", 400, "Write something first."),
        ("x" * 301, 400, "at most 300 characters"),
        ("bell\x07", 400, "control characters"),
    ]:
        response = say(player, hosted, text)
        assert response.status_code == status and reason in response.content.decode()
    assert not ChatMessage.objects.exists()
    assert Client().post(f"/games/{hosted.pk}/chat/", {"text": "hi"}).status_code == 302  # to the log-in
    assert not ChatMessage.objects.exists()


def test_the_chat_is_rate_limited(hosted, player, clock):
    assert say(player, hosted, "one").status_code == 302
    too_soon = say(player, hosted, "two")
    assert too_soon.status_code == 429 and "too fast" in too_soon.content.decode()
    for n in range(PER_MINUTE - 1):
        clock.tick(MIN_GAP)
        assert say(player, hosted, f"line {n}").status_code == 302
    clock.tick(MIN_GAP)
    assert say(player, hosted, "one too many").status_code == 429
    assert ChatMessage.objects.count() == PER_MINUTE
    clock.tick(60)
    assert say(player, hosted, "later").status_code == 302


def test_a_player_reports_a_message_and_the_host_hides_it(hosted, player, opponent, staff, spectator):
    say(player, hosted, "something rude")
    message = ChatMessage.objects.get()
    url = f"/games/{hosted.pk}/chat/{message.pk}/"
    assert session_client(spectator).post(url, {"action": "report"}).status_code == 403
    assert session_client(opponent).post(url, {"action": "report"}).status_code == 302
    assert session_client(opponent).post(url, {"action": "report"}).status_code == 302
    assert ChatReport.objects.count() == 1, "one report per player and message"
    host_page = session_client(staff).get(f"/games/{hosted.pk}/chat/").content.decode()
    assert "reported 1 time" in host_page
    assert session_client(opponent).post(url, {"action": "hide"}).status_code == 403
    assert session_client(staff).post(url, {"action": "hide"}).status_code == 302
    public = Client().get(f"/games/{hosted.pk}/chat/").content.decode()
    assert "something rude" not in public and "(hidden by the host)" in public
    assert session_client(staff).post(url, {"action": "explode"}).status_code == 400
    session_client(staff).post(url, {"action": "show"})
    assert "something rude" in Client().get(f"/games/{hosted.pk}/chat/").content.decode()


def test_a_game_closed_to_spectators_closes_its_chat_to_them(hosted, player, staff, spectator):
    say(player, hosted, "secret plans")
    SpectatorPolicy.objects.create(game=hosted, allowed=False)
    assert session_client(spectator).get(f"/games/{hosted.pk}/chat/").status_code == 403
    assert "secret plans" in session_client(player).get(f"/games/{hosted.pk}/chat/").content.decode()


def test_the_open_chat_page_fetches_new_messages_and_keeps_what_is_typed(hosted, player, opponent, clock):
    """The page's list refreshes by itself (chat.js fetches ?lines=1, the list alone), so another
    player's message appears without a reload; a message refused as too fast keeps its text in
    the box (nothing typed is lost)."""
    from tests.server.conftest import session_client

    reader = session_client(opponent)
    page = reader.get(f"/games/{hosted.pk}/chat/").content.decode()
    assert 'id="chat-lines"' in page and "delve/chat.js" in page and "?lines=1" in page
    assert say(player, hosted, "hello from Ann").status_code == 302
    fragment = reader.get(f"/games/{hosted.pk}/chat/?lines=1").content.decode()
    assert fragment.lstrip().startswith('<ol class="chat" id="chat-lines"') and "hello from Ann" in fragment
    assert 'class="chat-form"' not in fragment and "<html" not in fragment
    refused = say(player, hosted, "typed in a hurry")
    assert refused.status_code == 429
    assert 'value="typed in a hurry"' in refused.content.decode()
