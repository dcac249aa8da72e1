"""Durations as people read them (the settings lists, form errors, the lobby's takeover line): one
function, exact, in English and Japanese."""

from __future__ import annotations

import pytest

from delve.kernel import durations


@pytest.mark.parametrize(
    ("seconds", "en", "ja"),
    [
        (1, "1 s", "1秒"),
        (60, "1 min", "1分"),
        (3600, "1 h", "1時間"),
        (5400, "1 h 30 min", "1時間30分"),
        (86400, "1 d", "1日"),
        (172800, "2 d", "2日"),
        (86460, "1 d 1 min", "1日1分"),
        (0, "0 s", "0秒"),
    ],
)
def test_a_duration_reads_in_whole_units_in_each_language(seconds: int, en: str, ja: str) -> None:
    """FL-CFG-1: the wait and abandon times of the basic rules are shown this way."""
    assert durations.say(seconds, "en") == en
    assert durations.say(seconds, "ja") == ja
    assert durations.text(seconds) == {"en": en, "ja": ja}
