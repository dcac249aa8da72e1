"""Shared fixtures. Server tests run on whatever DATABASE_URL selects (SQLite by default);
tests marked ``postgres`` run only in the PostgreSQL pass of scripts/test; tests marked ``slow``
only when selected with ``-m slow``."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_slow(config, items)
    if not any(item.get_closest_marker("postgres") for item in items):
        return
    from django.db import connection

    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(
        reason="needs PostgreSQL: runs in the PostgreSQL pass of scripts/test "
        "(DATABASE_URL=postgres://...), which runs when PostgreSQL answers on 127.0.0.1:5432"
    )
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(skip)


def skip_slow(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run only when asked for (``-m slow``); the suite keeps their shorter
    versions."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long run: select it with -m slow (see the test module's docstring)")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
