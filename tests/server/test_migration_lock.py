"""Migrations at start are safe when several processes start at once on a new database
(``delve.server.migrating``): one applies them, the others wait for it and find nothing to do,
instead of dying half-way with a raw traceback (PostgreSQL: a unique violation on ``pg_type``,
``MigrationSchemaMissing``). Runs on SQLite in the SQLite pass and on a fresh PostgreSQL database
of its own in the PostgreSQL pass of scripts/test."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.server.live import ROOT, live_database

#: Set up Django, wait for the common start moment, then run the start-up migrate step.
MIGRATE_AT = """
import os, sys, time
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
import django
django.setup()
from django.db import connection
connection.ensure_connection()
from delve.server import migrating
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
migrating.migrate(verbosity=0)
from django.db.migrations.executor import MigrationExecutor
executor = MigrationExecutor(connection)
print("pending", len(executor.migration_plan(executor.loader.graph.leaf_nodes())))
"""


def test_processes_starting_together_on_a_new_database_all_migrate_it(tmp_path: Path) -> None:
    with live_database(tmp_path) as env:
        start = time.time() + 6  # every process has set up Django by then: they migrate at once
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", MIGRATE_AT, str(start)],
                env=env,
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        results = [run.communicate(timeout=240) for run in runs]
    for run, (out, err) in zip(runs, results, strict=True):
        assert run.returncode == 0, err
        assert "Traceback" not in err
        assert out.split() == ["pending", "0"]


def test_tick_waits_for_a_migration_under_way_instead_of_refusing(tmp_path: Path) -> None:
    """`delve tick` started while a `delve serve` migrates: it checks the migrations under the same
    lock, so it sees the finished schema rather than refusing a half-migrated database."""
    script = (
        "import os, sys, time, subprocess\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'delve.server.settings'\n"
        "import django\n"
        "django.setup()\n"
        "from delve.server import migrating\n"
        "with migrating.migration_lock():\n"
        "    tick = subprocess.Popen([sys.executable, '-m', 'delve.cli', 'tick', '--once'])\n"
        "    time.sleep(3)\n"
        "    assert tick.poll() is None, 'tick did not wait for the lock'\n"
        "    from django.core import management\n"
        "    management.call_command('migrate', interactive=False, verbosity=0)\n"
        "sys.exit(tick.wait(timeout=120))\n"
    )
    with live_database(tmp_path) as env:
        result = subprocess.run(
            [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True, timeout=240
        )
    assert result.returncode == 0, result.stderr
    assert "advanced 0 game(s)" in result.stdout
