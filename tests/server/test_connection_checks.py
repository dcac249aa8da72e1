"""PostgreSQL connections from the pool are checked before a request uses them (a connection the
database dropped is replaced, never a failed request); a bot's token lookup, or a browser's session
lookup, is that check itself, one round trip fewer (delve.server.postgresql_backend)."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client
from psycopg_pool import ConnectionPool

from delve.server.accounts.models import ApiToken

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The pool checks made (psycopg_pool's empty statement), one entry each, on a new pool (no
    connection an earlier test left broken in it)."""
    connection.close()
    connection.close_pool()
    made: list[Any] = []
    check = ConnectionPool.check_connection

    def counted(conn: Any) -> None:
        made.append(conn)
        check(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return made


def drop_pooled_connections() -> int:
    """Ends, from outside the pool, every other session on the test database (the pool's idle
    connections), as a restart of the database would; how many."""
    connection.close()  # this thread's connection goes back to the pool, idle
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


def test_a_request_takes_a_checked_connection_and_a_token_lookup_checks_its_own(checks, make_user):
    _, token = ApiToken.issue(make_user("ann"))
    connection.close()
    checks.clear()
    assert Client().get("/healthz").status_code == 200
    assert len(checks) == 1, "a request's connection is checked as it leaves the pool"
    connection.close()
    checks.clear()
    bot = Client(headers={"Authorization": f"Bearer {token}"})
    assert bot.get("/api/v1/games").status_code == 200
    assert checks == [], "the token's lookup was the check: no empty statement before it"


def test_a_session_lookup_checks_its_own_connection(checks, make_user):
    browser = Client()
    browser.force_login(make_user("ann"))
    connection.close()
    checks.clear()
    assert browser.get("/api/v1/records").json()["user"] == "ann"
    assert checks == [], "the session's lookup was the check: no empty statement before it"
    browser.logout()
    connection.close()
    assert browser.get("/api/v1/records").status_code == 401  # logged out: at once, as ever


def test_a_dropped_connection_is_replaced_not_a_failed_request(make_user):
    user = make_user("ann")
    _, token = ApiToken.issue(user)
    bot = Client(headers={"Authorization": f"Bearer {token}"})
    assert bot.get("/api/v1/games").status_code == 200
    assert drop_pooled_connections() >= 1
    assert ApiToken.user_for(token) == user  # the lookup's connection was dead: read again on another
    assert drop_pooled_connections() >= 1
    assert bot.get("/api/v1/games").status_code == 200
    assert drop_pooled_connections() >= 1
    assert Client().get("/healthz").json()["database"]["ok"] is True  # checked before use: replaced
    browser = Client()
    browser.force_login(user)
    assert drop_pooled_connections() >= 1
    assert browser.get("/api/v1/records").json()["user"] == "ann"  # the session read again on another
