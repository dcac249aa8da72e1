"""The Japanese catalogue: the compiled .mo is committed (so `delve serve` needs no gettext
tools) and must say what the .po says; every string is translated and none is fuzzy, and every
string the templates and the Python sources mark for translation is in it.
docs/ui.md tells the workflow (makemessages, translate, compilemessages, commit both)."""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "src" / "delve" / "server"
LOCALE = SERVER / "locale" / "ja" / "LC_MESSAGES"


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


def msgids(po: Path, *attributes: str) -> list[str]:
    """The msgids of ``po`` that msgattrib selects with ``attributes`` (the header left out)."""
    listed = subprocess.run(
        ["msgattrib", "--no-wrap", "--no-obsolete", *attributes, str(po)], check=True, capture_output=True, text=True
    ).stdout
    return [msgid for msgid in re.findall(r'^msgid "(.*)"$', listed, re.MULTILINE) if msgid]


@pytest.mark.skipif(
    shutil.which("xgettext") is None or shutil.which("msgattrib") is None,
    reason="GNU gettext's xgettext and msgattrib are not installed",
)
def test_every_string_marked_in_the_sources_has_its_japanese(tmp_path):
    """makemessages over a copy of the server (templates and Python) merges what the sources mark
    into the committed catalogue: a string added without its Japanese comes out untranslated or
    fuzzy, and a template string with a percent sign must be written as makemessages extracts it
    (``%%``), or the page shows the English."""
    copy = tmp_path / "server"
    shutil.copytree(SERVER, copy, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "delve.server.settings"}
    command = [sys.executable, "-m", "django", "makemessages", "-l", "ja", "--no-obsolete"]
    subprocess.run(command, cwd=copy, env=environment, check=True, capture_output=True)
    merged = copy / "locale" / "ja" / "LC_MESSAGES" / "django.po"
    assert len(msgids(merged)) > 600  # the extraction found the sources
    untranslated, fuzzy = msgids(merged, "--untranslated"), msgids(merged, "--only-fuzzy")
    assert not untranslated, f"translate these in django.po (docs/ui.md): {untranslated[:10]}"
    assert not fuzzy, f"these are not in django.po as written in the sources: {fuzzy[:10]}"


# English joins these clauses with colons, commas or a dash where Japanese ends each one with 。;
# read and found to say what the English says, once.
CLAUSES_AS_SENTENCES = {
    "The new token is %(token)s — copy it now, it is not shown again.",
}
CLAUSES_AS_SENTENCES_PREFIX = ("Attack cards have three uses: ",)
# Not sentences: the punctuation after which Django's forms put no colon after a label (its
# Japanese adds the full-width marks).
PUNCTUATION = {":?.!"}


def sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)", text))


def test_no_japanese_translation_says_more_sentences_than_its_english():
    """A msgstr with more Japanese sentences (。！？) than its msgid has sentences, plus one, is two
    translations run together (the start-player refusal once said its apology twice), and no
    Japanese sentence is said twice in one msgstr."""
    long, repeated = [], []
    for key, text in catalogue(LOCALE / "django.mo").items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid or not isinstance(msgid, str):
            continue
        parts = [part for part in re.split(r"(?<=[。！？])", text) if part.strip()]
        if len(parts) != len(set(parts)):
            repeated.append(text)
        if msgid in PUNCTUATION:
            continue
        if msgid in CLAUSES_AS_SENTENCES or msgid.startswith(CLAUSES_AS_SENTENCES_PREFIX):
            continue
        said = sum(text.count(mark) for mark in "。！？")
        if said > sentences(msgid) + 1:
            long.append((msgid, text))
    assert not long, long[:3]
    assert not repeated, repeated[:3]
