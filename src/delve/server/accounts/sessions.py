"""Django's database sessions, whose lookup, as a browser request's first statement, also checks
the connection the request takes from the PostgreSQL pool (:func:`delve.server.rawsql.first_read`):
one round trip fewer per request, the same session, expiry and checks as Django's own."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router

from delve.server.rawsql import first_read


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        connection = connections[router.db_for_read(self.model, instance=None)]
        return first_read(connection, lambda cursor: db.SessionStore._get_session_from_db(self))
