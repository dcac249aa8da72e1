"""The Japanese catalogue: the compiled .mo is committed (so `delve serve` needs no gettext
tools) and must say what the .po says; every string is translated and none is fuzzy.
docs/ui.md tells the workflow (makemessages, translate, compilemessages, commit both)."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "src" / "delve" / "server" / "locale" / "ja" / "LC_MESSAGES"


def catalogue(path: Path) -> dict[object, str]:
    with path.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]


def test_the_po_has_no_fuzzy_or_empty_translation():
    po = (LOCALE / "django.po").read_text(encoding="utf-8")
    assert "#, fuzzy" not in po
    entries = po.split("\n\n")[1:]
    empty = [entry for entry in entries if entry.rstrip().endswith('msgstr ""') or 'msgstr[0] ""' in entry]
    assert not empty, empty[:3]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_the_committed_mo_is_compiled_from_the_po(tmp_path):
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "-o", str(compiled), str(LOCALE / "django.po")], check=True)
    fresh, committed = catalogue(compiled), catalogue(LOCALE / "django.mo")
    stale = sorted(str(key) for key in fresh if committed.get(key) != fresh[key] and key != "")
    assert not stale, f"recompile the catalogue (docs/ui.md): {stale[:5]}"
