"""Accounts with Django auth: sign up, log in, log out, change password; API tokens."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from delve.server.accounts.models import ApiToken
from tests.server.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_signing_up_logs_the_new_player_in(client):
    response = client.post("/accounts/signup/", {"username": "dora", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="dora").exists()
    assert "dora" in client.get("/").content.decode()


def test_a_bad_sign_up_says_why(client):
    response = client.post("/accounts/signup/", {"username": "dora", "password1": "short", "password2": "short"})
    assert response.status_code == 400
    assert "too short" in response.content.decode()


def test_logging_in_and_out(client, player):
    response = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/records/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/records/").status_code == 302


def test_passwords_are_case_sensitive(client, player):
    """FL-REG-3: the password is compared case-sensitively (mind Caps Lock)."""
    response = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD.swapcase()})
    assert response.status_code == 200
    assert "passwords are case-sensitive" in response.content.decode()


def test_changing_the_password(client, player):
    client.force_login(player)
    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": "Another-Pass-9", "new_password2": "Another-Pass-9"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("Another-Pass-9")
    wrong = client.post("/accounts/password/", {"old_password": "nope", "new_password1": "x1", "new_password2": "x1"})
    assert wrong.status_code == 200 and "incorrectly" in wrong.content.decode()


def test_create_token_prints_a_token_once_and_stores_its_digest(player, capsys):
    call_command("create_token", "ann", "--name", "my bot")
    token = capsys.readouterr().out.strip()
    row = ApiToken.objects.get()
    assert (row.user, row.name) == (player, "my bot")
    assert ApiToken.user_for(token) == player
    assert token not in row.digest


def test_create_token_names_an_unknown_user(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="there is no user 'ghost'"):
        call_command("create_token", "ghost")


def test_the_sign_up_form_shows_the_rules_for_names_and_passwords_before_any_error(client):
    """The help texts were not rendered: the rules appeared only in an error message."""
    html = client.get("/accounts/signup/").content.decode()
    assert "150 characters or fewer: letters of any script (Japanese too), digits and @ . + - _ only" in html
    assert "Names beginning with “bot-” or “table-”, and “demo”, are kept" in html
    assert "Your password must contain at least 8 characters." in html
    assert 'aria-describedby="id_username_helptext"' in html and 'id="id_username_helptext"' in html
    japanese = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "「bot-」や「table-」で始まる名前と「demo」" in japanese
