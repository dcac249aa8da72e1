"""/healthz reports whether the database answers (runs in both the SQLite and the PostgreSQL pass)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.django_db
def test_healthz_reports_the_database_it_reached(client):
    from django.db import connection

    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] == connection.vendor
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.postgres
@pytest.mark.django_db
def test_healthz_on_postgresql(client):
    assert client.get("/healthz").json()["database"]["vendor"] == "postgresql"


def test_healthz_answers_503_when_the_database_is_down(tmp_path):
    script = (
        "import django, os;"
        "os.environ['DJANGO_SETTINGS_MODULE']='delve.server.settings';"
        "django.setup();"
        "from django.test import Client;"
        "r=Client().get('/healthz');"
        "print(r.status_code, r.json()['status'], r.json()['database']['ok'])"
    )
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://nobody@127.0.0.1:9/nowhere",
        "DELVE_DATA_DIR": str(tmp_path),
        "DELVE_DB_POOL_TIMEOUT": "2",  # the pool retries for this long before it gives up
    }
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["503", "error", "False"], result.stderr


@pytest.mark.django_db
def test_healthz_refuses_other_methods(client):
    assert client.post("/healthz").status_code == 405


@pytest.fixture
def live_hub(monkeypatch):
    """Put a hub of the test's choosing behind /healthz."""
    from delve.server.live import hub as hub_module

    def install(hub):
        monkeypatch.setattr(hub_module, "hub", lambda: hub)
        return hub

    return install


@pytest.mark.django_db
def test_healthz_reports_the_live_channel_of_one_process(client):
    body = client.get("/healthz").json()
    assert body["live"] == {"mode": "local", "ok": True}


@pytest.mark.django_db
def test_healthz_says_degraded_when_redis_is_not_reachable_and_503_when_strict(client, live_hub):
    """A process whose REDIS_URL is wrong serves every page, but its viewers see other processes'
    changes only at their next poll: /healthz says "degraded" (200, so a Redis outage does not take
    every process out of rotation) and /healthz?strict=1 answers 503 for a load balancer that
    should tell."""
    from delve.server.live.hub import Hub

    live_hub(Hub("redis://127.0.0.1:1/0", "delve-test-healthz:"))
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["database"]["ok"] is True
    assert body["live"]["mode"] == "redis" and body["live"]["ok"] is False
    assert body["live"]["error"]  # why, in one line (refused, or not connected yet)
    strict = client.get("/healthz?strict=1")
    assert strict.status_code == 503 and strict.json()["status"] == "degraded"


@pytest.mark.django_db
def test_healthz_is_ok_with_a_connected_redis(client, live_hub):
    from delve.server.live.hub import Hub
    from tests.server.scale import REDIS_URL, redis_absent

    if why := redis_absent():
        pytest.skip(why)
    live_hub(Hub(REDIS_URL, "delve-test-healthz:"))
    response = client.get("/healthz?strict=1")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "ok"
    assert response.json()["live"] == {"mode": "redis", "ok": True}


def test_tick_says_once_at_start_that_redis_is_not_reachable(tmp_path):
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}},
        "DELVE_DATA_DIR": str(tmp_path),
        "DELVE_SECRET_KEY": "k" * 40,
    }
    delve = [sys.executable, "-m", "delve.cli"]
    migrate = subprocess.run([*delve, "manage", "migrate", "-v0"], env=env, capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    env["REDIS_URL"] = "redis://127.0.0.1:1/0"
    result = subprocess.run([*delve, "tick", "--once"], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "REDIS_URL" in line]
    assert line.startswith("delve tick: Redis at REDIS_URL is not reachable: ")
    assert "games still advance" in line and "Traceback" not in result.stderr
    assert ".;" not in line  # the reason's own full stop is not doubled by what follows
