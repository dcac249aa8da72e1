"""Issue 16 (LOW, deployment): Content-Security-Policy, HSTS, Secure cookies and the trusted
proxy behind TLS, private data files, no user-name enumeration on records, and a clean
``delve manage check --deploy`` in production mode."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from delve.server.env import parse_networks, private_dir, private_sqlite_file
from delve.server.security import TrustedProxyMiddleware, client_address
from tests.server.conftest import session_client
from tests.server.fated_kit import arrange, fated_game

PRODUCTION = {
    "DELVE_BEHIND_TLS": "1",
    "DELVE_TRUSTED_PROXY": "127.0.0.1,10.0.0.0/8",
    "DELVE_SECRET_KEY": "k" * 20 + "-production-secret-key-of-sixty-characters-xyz",
    "DELVE_ALLOWED_HOSTS": "delve.example.org",
    "DELVE_CSRF_TRUSTED_ORIGINS": "https://delve.example.org",
}


def run(args: list[str], env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # The browser tests' conftest sets DJANGO_ALLOW_ASYNC_UNSAFE in the test process; a deployment
    # never has it, and check --deploy rightly refuses it (async.E001).
    skipped = {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DELVE_") and k not in skipped}
    full_env.update({"DELVE_DATA_DIR": str(tmp_path / "data")}, **env)
    return subprocess.run(
        [sys.executable, *args], env=full_env, capture_output=True, text=True, timeout=120, cwd=tmp_path
    )


# -- Content-Security-Policy ---------------------------------------------------------------------


def csp_of(response: HttpResponse) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.django_db
def test_every_answer_carries_a_strict_content_security_policy(client, player):
    for url in ["/", "/accounts/login/", "/records/ann/", "/help/", "/api/v1/games", "/healthz"]:
        policy = csp_of(client.get(url))
        assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"], url
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'none'"]
        assert "'unsafe-inline'" not in str(policy) and "'unsafe-eval'" not in str(policy)


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline script"),
    (re.compile(r"\sstyle=", re.I), "an inline style attribute"),
    (re.compile(r"<style", re.I), "a style element"),
    (re.compile(r"\son[a-z]+=", re.I), "an inline event handler"),
    (re.compile(r"hx-(?:vals|headers)=[\"']js:", re.I), "htmx code evaluated with eval"),
    (re.compile(r"hx-trigger=\"[^\"]*\[", re.I), "an htmx trigger filter (evaluated with eval)"),
    (re.compile(r"hx-on", re.I), "an hx-on handler (evaluated with eval)"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


def assert_csp_clean(html: str, where: str) -> None:
    for pattern, what in INLINE:
        found = pattern.search(html)
        assert found is None, f"{where} has {what}: {html[max(0, found.start() - 60) : found.end() + 60]!r}"


@pytest.mark.django_db
def test_the_pages_need_no_inline_code_or_styles_and_no_eval(clock, player, opponent, make_user, staff):
    """Under script-src/style-src 'self' the screen still works: nothing inline, htmx without eval."""
    others = [make_user("dee"), make_user("eve")]
    game = arrange(fated_game([player, opponent, *others]), hands={0: ["attack-10"]}, ready=[0])
    client = session_client(player)
    pages = {
        "lobby": client.get("/"),
        "game screen": client.get(f"/games/{game.pk}/"),
        "records": client.get("/records/"),
        "help": client.get("/help/"),
        "game help": client.get(f"/games/{game.pk}/help/"),
        "password": client.get("/accounts/password/"),
        "log-in": Client().get("/accounts/login/"),
        "sign-up": Client().get("/accounts/signup/"),
    }
    for name in ["map", "status", "commands", "events", "players", "quickmove", "piles", "comment"]:
        pages[f"panel {name}"] = client.get(f"/games/{game.pk}/panels/{name}/")
    for where, response in pages.items():
        assert response.status_code == 200, where
        assert_csp_clean(response.content.decode(), where)
    screen = pages["game screen"].content.decode()
    assert '"allowEval": false' in screen and '"includeIndicatorStyles": false' in screen
    assert 'class="map n-9"' in screen and re.search(r'class="bar-fill w-\d+"', screen)


def test_every_map_size_and_bar_step_has_a_rule_in_the_stylesheet():
    from delve.server.play.fated_screen import _pct

    css = (Path(__file__).resolve().parents[2] / "src/delve/server/static/delve/fated.css").read_text()
    for size in range(7, 62):  # FL-CFG maze_size bounds (fated/settings.py)
        assert f".map.n-{size} {{ --n: {size}; }}" in css
    steps = {_pct(value, top) for top in range(1, 60) for value in range(top + 1)}
    assert steps <= set(range(0, 101, 5)) and {0, 5, 95, 100} <= steps
    for step in steps:
        assert f".bar-fill.w-{step} {{ width: {step}%; }}" in css
    assert _pct(1, 60) == 5 and _pct(59, 60) == 95  # never empty while alive, never full when hurt


# -- behind a TLS proxy --------------------------------------------------------------------------


def _through(middleware_networks: str, **meta: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def view(request):
        seen.update(request.META, secure=request.is_secure())
        return HttpResponse()

    request = RequestFactory().get("/", **meta)
    from django.test import override_settings

    with override_settings(
        TRUSTED_PROXY_NETWORKS=parse_networks(middleware_networks.split(",") if middleware_networks else []),
        SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
    ):
        TrustedProxyMiddleware(view)(request)
    return seen


def test_forwarded_headers_count_only_from_a_trusted_proxy():
    forged = _through("", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4", HTTP_X_FORWARDED_PROTO="https")
    assert forged["REMOTE_ADDR"] == "203.0.113.9" and not forged["secure"]
    assert "HTTP_X_FORWARDED_FOR" not in forged
    untrusted = _through("10.0.0.0/8", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert untrusted["REMOTE_ADDR"] == "203.0.113.9"
    proxied = _through(
        "10.0.0.0/8",
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7",
        HTTP_X_FORWARDED_PROTO="https",
    )
    assert proxied["REMOTE_ADDR"] == "198.51.100.7" and proxied["secure"]


def test_the_client_is_the_right_most_address_that_is_not_our_proxy():
    nets = parse_networks(["10.0.0.0/8", "::1"])
    assert client_address("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.9", nets) == "198.51.100.7"
    assert client_address("::1", "2001:db8::5", nets) == "2001:db8::5"
    assert client_address("10.0.0.2", "", nets) == "10.0.0.2"
    assert client_address("10.0.0.2", "not-an-address", nets) == "10.0.0.2"
    assert client_address("10.0.0.2", "10.1.1.1", nets) == "10.1.1.1"


@pytest.mark.django_db
def test_the_login_throttle_counts_the_forwarded_client(settings, player):
    settings.TRUSTED_PROXY_NETWORKS = parse_networks(["127.0.0.1"])
    settings.LOGIN_THROTTLE = {"PER_ACCOUNT": 50, "PER_ADDRESS": 2, "LOCKOUT_SECONDS": 900}
    proxy = Client(REMOTE_ADDR="127.0.0.1")
    for name in ["x", "y"]:
        proxy.post("/accounts/login/", {"username": name, "password": "nope"}, HTTP_X_FORWARDED_FOR="198.51.100.7")
    locked = proxy.post(
        "/accounts/login/", {"username": "ann", "password": "nope"}, HTTP_X_FORWARDED_FOR="198.51.100.7"
    )
    assert locked.status_code == 429
    other = proxy.post("/accounts/login/", {"username": "zed", "password": "nope"}, HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert other.status_code == 200


def test_bad_proxy_settings_fail_at_start(tmp_path):
    no_proxy = run(["-m", "delve.cli", "check"], {"DELVE_BEHIND_TLS": "1"}, tmp_path)
    assert no_proxy.returncode == 2 and "DELVE_BEHIND_TLS=1 needs DELVE_TRUSTED_PROXY" in no_proxy.stderr
    garbled = run(["-m", "delve.cli", "check"], {"DELVE_TRUSTED_PROXY": "10.0.0.0/99"}, tmp_path)
    assert garbled.returncode == 2 and "DELVE_TRUSTED_PROXY: '10.0.0.0/99' is not an IP address" in garbled.stderr


def test_check_deploy_is_clean_in_production_mode(tmp_path):
    result = run(["-m", "delve.cli", "manage", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    plain = run(["-m", "delve.cli", "manage", "check", "--deploy"], {}, tmp_path)
    assert "security.W004" in plain.stdout + plain.stderr  # without TLS it says what is missing


PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
names = ["SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
         "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER", "SECURE_REDIRECT_EXEMPT"]
print(json.dumps({name: getattr(settings, name) for name in names}))
"""


def test_behind_tls_cookies_are_secure_http_redirects_and_hsts_is_sent(tmp_path):
    env = {**PRODUCTION, "DJANGO_SETTINGS_MODULE": "delve.server.settings"}
    values = json.loads(run(["-c", PRINT_SETTINGS], env, tmp_path).stdout)
    assert values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"] and values["SECURE_SSL_REDIRECT"]
    assert values["SECURE_HSTS_SECONDS"] == 31536000 and values["SECURE_HSTS_INCLUDE_SUBDOMAINS"]
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    plain = json.loads(
        run(["-c", PRINT_SETTINGS], {"DJANGO_SETTINGS_MODULE": "delve.server.settings"}, tmp_path).stdout
    )
    assert not plain["SESSION_COOKIE_SECURE"] and not plain["SECURE_SSL_REDIRECT"] and plain["SECURE_HSTS_SECONDS"] == 0


@pytest.mark.django_db
def test_the_tls_settings_in_action(settings, player):
    settings.TRUSTED_PROXY_NETWORKS = parse_networks(["127.0.0.1"])
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    proxy = Client(REMOTE_ADDR="127.0.0.1")
    plain = proxy.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="http")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    assert proxy.get("/healthz").status_code == 200  # the health check works over plain HTTP
    forged = Client(REMOTE_ADDR="203.0.113.9").get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert forged.status_code == 301, "only the trusted proxy may say the request came over HTTPS"
    secure = proxy.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000"
    assert secure.cookies["csrftoken"]["secure"]
    logged_in = proxy.post(
        "/accounts/login/", {"username": "ann", "password": "Correct-Horse-7"}, HTTP_X_FORWARDED_PROTO="https"
    )
    assert logged_in.status_code == 302 and logged_in.cookies["sessionid"]["secure"]


# -- private data files --------------------------------------------------------------------------


def test_the_sqlite_database_and_its_wal_files_are_private(tmp_path):
    data = private_dir(tmp_path / "data")
    assert oct(data.stat().st_mode & 0o777) == "0o700"
    path = private_sqlite_file(data / "delve.sqlite3")
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE t (x)")
    connection.execute("INSERT INTO t VALUES (1)")
    connection.commit()
    for name in ["delve.sqlite3", "delve.sqlite3-wal", "delve.sqlite3-shm"]:
        assert oct((data / name).stat().st_mode & 0o777) == "0o600", name
    connection.close()


def test_existing_world_readable_files_are_made_private(tmp_path):
    data = tmp_path / "old"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    (data / "delve.sqlite3").write_bytes(b"")
    os.chmod(data / "delve.sqlite3", 0o644)
    private_dir(data)
    private_sqlite_file(data / "delve.sqlite3")
    assert oct(data.stat().st_mode & 0o777) == "0o700"
    assert oct((data / "delve.sqlite3").stat().st_mode & 0o777) == "0o600"


def test_a_fresh_server_keeps_its_data_private(tmp_path):
    result = run(["-m", "delve.cli", "check"], {}, tmp_path)
    assert result.returncode == 0, result.stderr
    data = tmp_path / "data"
    assert oct(data.stat().st_mode & 0o777) == "0o700"
    assert oct((data / "delve.sqlite3").stat().st_mode & 0o777) == "0o600"
    assert oct((data / "secret_key").stat().st_mode & 0o777) == "0o600"


# -- no user-name enumeration --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("unknown", ["ghost", "a" * 400, "名前"])
def test_an_unknown_name_on_records_answers_like_a_player_without_records(client, make_user, unknown):
    make_user("quiet")  # exists, never recorded a game
    known_page = client.get("/records/quiet/")
    unknown_page = client.get(f"/records/{unknown}/")
    assert known_page.status_code == unknown_page.status_code == 200
    varying = re.compile(
        r'Personal records of [^<]*|under the name “[^”]*”|name="next" value="[^"]*"|value="[A-Za-z0-9]{64}"'
    )
    assert varying.sub("", known_page.content.decode()) == varying.sub("", unknown_page.content.decode())
    known_api = client.get("/api/v1/records/quiet")
    unknown_api = client.get(f"/api/v1/records/{unknown}")
    assert known_api.status_code == unknown_api.status_code == 200
    assert known_api.json()["records"] == unknown_api.json()["records"] == []


@pytest.mark.django_db
def test_a_name_with_a_nul_character_is_refused_whether_or_not_a_player_exists(client, make_user):
    """No name can hold a NUL (sign-up forms refuse it), so the request guard's 400 for a NUL in
    the address tells nothing about who exists (see tests/server/test_bad_input.py)."""
    make_user("quiet")
    for name in ("quiet\x00", "gh\x00ost"):
        assert client.get(f"/records/{name}/").status_code == 400
        assert client.get(f"/api/v1/records/{name}").status_code == 400
