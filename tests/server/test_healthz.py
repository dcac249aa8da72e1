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
