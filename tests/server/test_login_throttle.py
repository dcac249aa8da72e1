"""Issue 16 (MEDIUM, auth): failed log-ins are throttled per account and per address, passwords
are hashed with Argon2 (older hashes upgraded at log-in), and hashing is bounded per process.
Also: numeric-only passwords are refused and a password change revokes the user's API tokens."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import make_password
from django.test import Client
from django.utils import timezone

from delve.server.accounts import hashers, throttle
from delve.server.accounts.models import ApiToken, LoginFailures
from tests.server.conftest import PASSWORD

pytestmark = pytest.mark.django_db

PRODUCTION_HASHERS = [
    "delve.server.accounts.hashers.Argon2PasswordHasher",
    "delve.server.accounts.hashers.PBKDF2PasswordHasher",
]


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.LOGIN_THROTTLE = {"PER_ACCOUNT": 3, "PER_ADDRESS": 5, "LOCKOUT_SECONDS": 900}


@pytest.fixture
def password_checks(monkeypatch):
    """How many times the backend really checked a password."""
    calls = []
    original = ModelBackend.authenticate

    def counting(self, request, username=None, password=None, **kwargs):
        calls.append(username)
        return original(self, request, username, password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    return calls


def log_in(client, username, password, address="10.0.0.1", url="/accounts/login/"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_lock_the_account_and_then_no_password_is_checked(client, player, password_checks):
    for _ in range(3):
        assert log_in(client, "ann", "wrong-guess").status_code in {200, 429}
    assert len(password_checks) == 3
    refused = log_in(client, "ann", PASSWORD)  # even the right password, from another address
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 900
    page = refused.content.decode()
    assert "Too many failed log-ins for this account or from your address. Try again in 15 minutes." in page
    assert len(password_checks) == 3, "a locked account's password is not checked"
    assert "_auth_user_id" not in client.session


def test_the_attempt_that_reaches_the_limit_already_says_so(client, player):
    assert log_in(client, "ann", "x1").status_code == 200
    assert "did not match" in log_in(client, "ann", "x2").content.decode()
    third = log_in(client, "ann", "x3")
    assert third.status_code == 429 and "Too many failed log-ins" in third.content.decode()


def test_the_account_lock_holds_from_every_address_but_not_for_other_accounts(client, player, opponent):
    for _ in range(3):
        log_in(client, "ann", "wrong-guess", address="10.0.0.1")
    assert log_in(Client(), "ann", PASSWORD, address="10.9.9.9").status_code == 429
    assert log_in(Client(), "bob", PASSWORD, address="10.0.0.1").status_code == 302


def test_guessing_many_accounts_from_one_address_locks_the_address(client, player, make_user):
    for name in ["u1", "u2", "u3", "u4", "u5"]:
        log_in(client, name, "wrong-guess", address="10.0.0.7")
    assert log_in(Client(), "ann", PASSWORD, address="10.0.0.7").status_code == 429
    assert log_in(Client(), "ann", PASSWORD, address="10.0.0.8").status_code == 302


def test_an_ipv6_client_is_counted_by_its_64_network(client, player):
    for host in range(1, 6):
        log_in(client, f"nobody{host}", "wrong-guess", address=f"2001:db8:1:2::{host}")
    assert log_in(Client(), "ann", PASSWORD, address="2001:db8:1:2::ffff").status_code == 429
    assert log_in(Client(), "ann", PASSWORD, address="2001:db8:1:3::1").status_code == 302


def test_unknown_and_known_user_names_are_counted_alike(client):
    for _ in range(3):
        log_in(client, "ghost", "wrong-guess")
    assert LoginFailures.objects.get(key="account:ghost").locked_until is not None
    assert log_in(client, "ghost", "anything").status_code == 429


def test_a_successful_log_in_clears_the_accounts_count_but_not_the_addresss(client, player):
    log_in(client, "ann", "wrong-guess")
    log_in(client, "ann", "wrong-guess")
    assert log_in(client, "ann", PASSWORD).status_code == 302
    assert not LoginFailures.objects.filter(key="account:ann").exists()
    assert LoginFailures.objects.get(key="address:10.0.0.1").failures == 2


def test_the_admin_log_in_is_throttled_too(client, staff):
    for _ in range(3):
        log_in(client, "op", "wrong-guess", url="/admin/login/")
    refused = log_in(client, "op", PASSWORD, url="/admin/login/")
    assert refused.status_code == 429
    assert "Too many failed log-ins" in refused.content.decode()


def test_the_lock_ends_after_the_lockout_and_old_failures_are_forgotten():
    limits = throttle.Limits(per_account=2, per_address=10, lockout=dt.timedelta(minutes=15))
    keys = ["account:ann"]
    t0 = timezone.now()
    throttle.note_failure(keys, t0, limits)
    # a failure older than the lockout time no longer counts: the next one starts again at 1
    throttle.note_failure(keys, t0 + dt.timedelta(minutes=16), limits)
    assert throttle.locked_for(keys, t0 + dt.timedelta(minutes=16)) == 0
    t1 = t0 + dt.timedelta(minutes=17)
    throttle.note_failure(keys, t1, limits)
    assert throttle.locked_for(keys, t1) == 15 * 60
    assert throttle.locked_for(keys, t1 + dt.timedelta(minutes=10)) == 5 * 60
    assert throttle.locked_for(keys, t1 + dt.timedelta(minutes=15)) == 0


def test_stale_rows_are_deleted():
    limits = throttle.Limits(per_account=2, per_address=10, lockout=dt.timedelta(minutes=15))
    t0 = timezone.now()
    throttle.note_failure(["account:old"], t0, limits)
    throttle.note_failure(["account:new"], t0 + dt.timedelta(hours=1), limits)
    assert list(LoginFailures.objects.values_list("key", flat=True)) == ["account:new"]


def test_scripts_without_a_request_are_not_throttled(player):
    from django.contrib.auth import authenticate

    for _ in range(5):
        assert authenticate(username="ann", password="wrong-guess") is None
    assert authenticate(username="ann", password=PASSWORD) == player
    assert not LoginFailures.objects.exists()


# -- Argon2 and bounded hashing ------------------------------------------------------------------


def test_new_passwords_are_hashed_with_argon2id(client, settings):
    settings.PASSWORD_HASHERS = PRODUCTION_HASHERS
    response = client.post("/accounts/signup/", {"username": "dora", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    stored = get_user_model().objects.get(username="dora").password
    assert stored.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")


def test_an_older_pbkdf2_hash_is_upgraded_at_log_in_without_revoking_tokens(client, settings, make_user):
    settings.PASSWORD_HASHERS = PRODUCTION_HASHERS
    settings.PASSWORD_HASH_CONCURRENCY = 1  # PBKDF2's verify calls its own encode: the slot is re-entrant
    user = make_user("eve")
    get_user_model().objects.filter(pk=user.pk).update(password=make_password(PASSWORD, hasher="pbkdf2_sha256"))
    ApiToken.issue(user, "bot")
    assert log_in(client, "eve", PASSWORD).status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$")
    assert user.check_password(PASSWORD)
    assert ApiToken.objects.filter(user=user).count() == 1, "a hash upgrade is not a password change"


def test_no_more_passwords_are_hashed_at_once_than_the_configured_slots(settings, monkeypatch):
    """Guessers wait for a hashing slot in their own threads instead of taking every core."""
    settings.PASSWORD_HASH_CONCURRENCY = 1
    busy, peak, lock = [0], [0], threading.Lock()
    parent = hashers.hashers.Argon2PasswordHasher

    def slow_verify(self, password, encoded):
        with lock:
            busy[0] += 1
            peak[0] = max(peak[0], busy[0])
        time.sleep(0.05)  # long enough for the other threads to try to overlap
        with lock:
            busy[0] -= 1
        return False

    monkeypatch.setattr(parent, "verify", slow_verify)
    hasher = hashers.Argon2PasswordHasher()
    threads = [threading.Thread(target=hasher.verify, args=("guess", "argon2$x")) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert peak[0] == 1


# -- passwords and tokens ------------------------------------------------------------------------


def test_a_numeric_only_password_is_refused(client):
    response = client.post(
        "/accounts/signup/", {"username": "dora", "password1": "83920174652", "password2": "83920174652"}
    )
    assert response.status_code == 400
    assert "entirely numeric" in response.content.decode()


def test_changing_the_password_revokes_the_api_tokens(client, player, opponent):
    _, token = ApiToken.issue(player, "bot")
    ApiToken.issue(opponent, "bot")
    bot = Client(headers={"Authorization": f"Bearer {token}"})
    assert bot.get("/api/v1/records").status_code == 200
    client.force_login(player)
    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": "Another-Pass-9", "new_password2": "Another-Pass-9"},
    )
    assert response.status_code == 302
    assert "API tokens were revoked" in client.get(response["Location"]).content.decode()
    assert bot.get("/api/v1/records").status_code == 401
    assert not ApiToken.objects.filter(user=player).exists()
    assert ApiToken.objects.filter(user=opponent).count() == 1


def test_an_operator_setting_a_password_revokes_the_tokens_too(player):
    ApiToken.issue(player, "bot")
    player.set_password("Brand-New-Pass-3")
    player.save()
    assert not ApiToken.objects.filter(user=player).exists()


def test_the_throttle_message_speaks_japanese_too(client, player):
    for _ in range(3):
        client.post("/accounts/login/", {"username": "ann", "password": "x"}, HTTP_ACCEPT_LANGUAGE="ja")
    refused = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 429
    assert "ログイン失敗が多すぎます。15分後にもう一度お試しください。" in refused.content.decode()
