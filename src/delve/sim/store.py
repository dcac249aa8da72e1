"""The results of a run on disk: ``DIR/results.csv``, one row per finished game, appended and
flushed as each game ends, so that an interrupted run resumes where it stopped.

CSV cells are text; ``DIR/results.columns.json`` keeps the Python types seen in each column
(``int``, ``float``, ``bool``, ``str``, ``NoneType``) so that rows read back equal the rows
written: an empty cell is ``""`` in a text column and None otherwise. A last line cut short
(the process was killed while writing it) is dropped when the file is opened again.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

RESULTS = "results.csv"
COLUMNS = "results.columns.json"
KEY = "key"


def encode_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool | int | float | str):
        return str(value)
    raise TypeError(f"a row value must be str, int, float, bool or None, not {type(value).__name__}: {value!r}")


def decode_cell(text: str, types: set[str]) -> Any:
    if text == "":
        return "" if "str" in types or not types else None
    if "bool" in types and text in ("True", "False"):
        return text == "True"
    if "int" in types:
        try:
            return int(text)
        except ValueError:
            pass
    if "float" in types:
        try:
            return float(text)
        except ValueError:
            pass
    return text


class ResultStore:
    """``DIR/results.csv`` and its column types."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.path = self.directory / RESULTS
        self.types_path = self.directory / COLUMNS
        self.columns: list[str] = []
        self.types: dict[str, set[str]] = {}
        self._file: IO[str] | None = None
        self._writer: Any = None

    # ------------------------------------------------------------------ reading

    def load(self) -> dict[str, dict[str, Any]]:
        """The rows already in the file, by key (a cut-off last line is removed first)."""
        if not self.path.exists():
            return {}
        self._drop_partial_line()
        if self.types_path.exists():
            raw = json.loads(self.types_path.read_text(encoding="utf-8"))
            self.types = {column: set(kinds) for column, kinds in raw.items()}
        rows: dict[str, dict[str, Any]] = {}
        with self.path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            self.columns = list(reader.fieldnames or [])
            for record in reader:
                row = {c: decode_cell(record.get(c) or "", self.types.get(c, set())) for c in self.columns}
                if row.get(KEY):
                    rows[str(row[KEY])] = row
        return rows

    def _drop_partial_line(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with self.path.open("r+b") as f:
                f.truncate(cut)

    # ------------------------------------------------------------------ writing

    def append(self, row: Mapping[str, Any]) -> None:
        """Write one row and flush it to disk."""
        cells = {column: encode_cell(value) for column, value in row.items()}
        new_types = {c: type(v).__name__ for c, v in row.items() if type(v).__name__ not in self.types.get(c, set())}
        for column, kind in new_types.items():
            self.types.setdefault(column, set()).add(kind)
        if new_types:
            self._write_types()
        missing = [c for c in row if c not in self.columns]
        if missing:
            self._extend(missing)
        if self._writer is None:
            self._open()
        assert self._file is not None
        self._writer.writerow(cells)
        self._file.flush()

    def _write_types(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        temporary = self.types_path.with_suffix(".tmp")
        temporary.write_text(json.dumps({c: sorted(k) for c, k in self.types.items()}, indent=1), encoding="utf-8")
        os.replace(temporary, self.types_path)

    def _open(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        self._file = self.path.open("a", newline="", encoding="utf-8")
        self._writer = csv.DictWriter(self._file, fieldnames=self.columns, restval="")
        if fresh:
            self._writer.writeheader()

    def _extend(self, missing: list[str]) -> None:
        """New columns: the key stays last; rows written before get empty cells there."""
        self.close()
        old = self.load() if self.path.exists() else {}
        columns = [c for c in self.columns if c != KEY] + [c for c in missing if c != KEY] + [KEY]
        self.columns = columns
        if old:
            temporary = self.path.with_suffix(".tmp")
            with temporary.open("w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, fieldnames=columns, restval="")
                writer.writeheader()
                for row in old.values():
                    writer.writerow({c: encode_cell(v) for c, v in row.items()})
            os.replace(temporary, self.path)
        elif self.path.exists():
            self.path.unlink()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        self._file = None
        self._writer = None
