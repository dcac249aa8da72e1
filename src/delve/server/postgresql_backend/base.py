"""Django's PostgreSQL backend, checking the connections it takes from the pool itself.

psycopg's pool can check a connection before it lends it (an empty statement: a round trip), so
that one the database has dropped since (a restart, an idle timeout) is replaced before a request
uses it. This backend runs that same check when it takes a connection, unless the caller said
that its first statement only reads and may be the check instead (:meth:`DatabaseWrapper.first_read`,
through :func:`delve.server.rawsql.first_read`): the connection is then taken unchecked, and if
that read finds it broken it is given back (the pool discards it) and the read runs again on a
checked one. The answer is the same either way, with one round trip fewer: a bot's API request,
whose token's lookup comes first, makes one.

:func:`delve.server.env.database_from_url` sets ``CONN_HEALTH_CHECKS`` off for a pooled
database, so that Django does not give the pool a check of its own as well.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import Error
from django.db.backends.postgresql import base

T = TypeVar("T")


class DatabaseWrapper(base.DatabaseWrapper):
    #: The next connection taken from the pool goes unchecked: the caller's first read checks it.
    _take_unchecked = False

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is None or self._take_unchecked:
            return connection
        from psycopg_pool import ConnectionPool

        deadline = time.monotonic() + pool.timeout
        while True:
            try:
                ConnectionPool.check_connection(connection)
            except Exception:  # as the pool's own check: give it back (discarded), take another
                pool.putconn(connection)
                if time.monotonic() > deadline:
                    raise
                connection = super().get_new_connection(conn_params)
            else:
                return connection

    def first_read(self, read: Callable[[Any], T]) -> T:
        """``read(cursor)``; when it takes a connection from the pool, the read is also that
        connection's check (see the module's documentation). ``read`` must only read: on a
        broken connection it runs a second time."""
        if self.connection is not None or self.in_atomic_block or self.pool is None:
            with self.cursor() as cursor:
                return read(cursor)
        self._take_unchecked = True
        try:
            cursor = self.cursor()
        finally:
            self._take_unchecked = False
        try:
            with cursor:
                return read(cursor)
        except Error:
            raw = self.connection
            if raw is not None and not raw.closed and not raw.broken:
                raise
        self.close()  # the pool discards a broken connection given back
        with self.cursor() as cursor:
            return read(cursor)
