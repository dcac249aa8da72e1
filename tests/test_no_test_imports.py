"""The shipped code and the benchmarks stand on their own: nothing under ``src`` or ``benchmarks``
imports the test suite (a benchmark that did would measure, or break with, test helpers)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("src", "benchmarks")


def _test_imports(source: str, name: str) -> list[str]:
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "tests":
            found.append(f"{name}:{node.lineno} imports {node.module}")
        elif isinstance(node, ast.Import):
            found += [
                f"{name}:{node.lineno} imports {alias.name}"
                for alias in node.names
                if alias.name.split(".")[0] == "tests"
            ]
    return found


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_imports_the_tests(folder: str) -> None:
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files, f"no Python files under {folder}"
    offending = [
        line for path in files for line in _test_imports(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert offending == []


def test_the_check_sees_an_import_of_the_tests() -> None:
    source = "import os\nfrom tests.bots import helper\nimport tests.fated.scenario as s\nimport testsuite\n"
    assert _test_imports(source, "sample.py") == [
        "sample.py:2 imports tests.bots",
        "sample.py:3 imports tests.fated.scenario",
    ]
