"""The exit statuses docs/operators.md lists ("Exit statuses") are the ones the commands give: a
script or a service manager acts on them (restart on 1, not on a configuration error's 2). Each
row is tried with commands it names, as an operator runs them (a process each)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.live import ROOT, base_env

DOC = ROOT / "docs" / "operators.md"


def documented() -> dict[int, str]:
    """The statuses of the table under "## Exit statuses", with their meaning."""
    section = DOC.read_text().split("## Exit statuses", 1)[1].split("\n## ", 1)[0]
    return {int(m[1]): m[2] for m in re.finditer(r"^\| `(\d+)` \| ([^|]+) \|", section, re.M)}


def test_the_guide_lists_every_status_the_commands_give():
    assert set(documented()) == {0, 1, 2, 130, 141}


def delve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "delve.cli", *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A SQLite server's environment with a migrated database (the demo games in it)."""
    made = base_env(tmp_path)
    done = delve(made, "demo")
    assert done.returncode == 0, done.stderr
    return made


def test_each_status_is_given_as_documented(env, tmp_path):
    export = tmp_path / "not-an-export.json"
    export.write_text(json.dumps({"format": "delve-export/1"}))
    cases = [
        (0, ("check",), {}),
        (1, ("close", "1", "2", "--reason", "maintenance"), {}),  # game 2 waits for players: refused
        (1, ("restore", str(tmp_path / "missing.backup")), {}),
        (1, ("backup", str(export)), {}),  # the file exists
        (1, ("verify", str(export)), {}),
        (1, ("manage", "createsuperuser", "--noinput", "--username", "bot-8", "--email", "op@example.org"), {}),
        (2, ("check",), {"DELVE_PORT": "eighty"}),
        (2, ("serve", "--workers", "2"), {}),
        (2, ("close", "1"), {}),  # --reason missing
        (2, ("verify", str(tmp_path / "missing.json")), {}),
    ]
    for status, args, extra in cases:
        done = delve({**env, **extra}, *args)
        assert done.returncode == status, (args, done.returncode, done.stderr[-500:])
        if status:
            assert done.stderr.strip() or done.stdout.startswith("REFUSED"), args
            assert "Traceback" not in done.stderr, args


def test_a_closed_pipe_is_status_141(env):
    """``delve cards | head`` whose reader has gone (closed before the first line, so the status
    does not depend on how fast ``head`` is)."""
    import os

    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "delve.cli", "cards"],
            stdout=writer,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert done.returncode == 141 and done.stderr == b""


def test_the_capacity_planning_section_runs_benchmarks_http_with_options_it_has():
    """docs/operators.md sends operators to benchmarks/http.py for capacity planning: every option
    its commands there use is one the script takes."""
    section = DOC.read_text().split("## Capacity planning", 1)[1].split("\n## ", 1)[0]
    assert "benchmarks/http.py" in section
    options = set(re.findall(r"(--[a-z-]+)", section))
    script = (ROOT / "benchmarks" / "http.py").read_text()
    taken = set(re.findall(r"add_argument\(\s*\"(--[a-z-]+)\"", script))
    assert {"--databases", "--clients", "--processes", "--database-url"} <= options
    assert options - {"--workers"} <= taken, options - taken
