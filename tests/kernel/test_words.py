"""Lists of names and words as each language writes them (``delve.kernel.words``), shared by both
games and the server: Japanese separates items with 「、」, never an ASCII comma."""

from __future__ import annotations

from delve.kernel.words import join, listing


def test_a_list_is_separated_as_its_language_writes_one() -> None:
    assert listing(["Ann", "Bo", "Cy"], "en") == "Ann, Bo, Cy"
    assert listing(["Ann", "Bo", "Cy"], "ja") == "Ann、Bo、Cy"
    assert listing(["Ann", "Bo"], "ja-jp") == "Ann、Bo"
    assert listing(iter(["Ann", "Bo"]), None) == "Ann, Bo"  # no language: English
    assert listing([], "ja") == "" and listing(["Ann"], "ja") == "Ann"


def test_a_sentence_says_and_before_the_last_name_in_english_only() -> None:
    assert join(["Ann"], "en") == "Ann"
    assert join(["Ann", "Bo"], "en") == "Ann and Bo"
    assert join(iter(["Ann", "Bo", "Cy"]), "en") == "Ann, Bo and Cy"  # no comma before "and"
    assert join(["Ann", "Bo", "Cy", "Di"], "en") == "Ann, Bo, Cy and Di"
    assert join(["Ann", "Bo", "Cy"], "ja") == "Ann、Bo、Cy"
    assert join(["Ann", "Bo"], "fr") == "Ann and Bo"  # a language without its own words: English
    assert join([], "en") == "" and join(["Ann", "Bo"], "ja") == "Ann、Bo"
