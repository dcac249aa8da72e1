"""Comments: FL-COM-1..5, AMB-62."""

from __future__ import annotations

import pytest

from delve.kernel import IllegalCommand

from .scenario import Scenario


def test_a_comment_replaces_the_previous_one_and_is_public():
    """FL-COM-1, FL-COM-2: the comment is shown to everybody in the players panel."""
    g = Scenario.new()
    g.play(0, {"kind": "comment", "text": "hello"})
    g.play(0, {"kind": "comment", "text": "bye"}, dt=60)
    assert g.view(None)["players"][0]["comment"] == "bye"


def test_comments_are_allowed_in_any_phase_and_when_dead():
    """FL-COM-3, AMB-62, FL-LOGIN-4."""
    g = Scenario.new()
    g.start_turn(1)
    g.play(1, {"kind": "comment", "text": "moving"})
    g.play(2, {"kind": "give_up"})
    g.play(2, {"kind": "comment", "text": "gg"})
    assert g.p(2).comment == "gg"


def test_comments_are_limited_in_length_and_rate():
    """FL-COM-4, AMB-62: at most 100 characters, one change per 60 s; refused with a reason."""
    g = Scenario.new()
    with pytest.raises(IllegalCommand) as info:
        g.play(0, {"kind": "comment", "text": "x" * 101})
    assert info.value.code == "comment/too_long"
    g.play(0, {"kind": "comment", "text": "x" * 100})
    with pytest.raises(IllegalCommand) as info:
        g.play(0, {"kind": "comment", "text": "again"}, dt=30)
    assert info.value.code == "comment/too_soon" and "wait" in info.value.message
    assert g.p(0).comment == "x" * 100
    with pytest.raises(IllegalCommand) as info:
        g.play(0, {"kind": "comment"}, dt=60)
    assert info.value.code == "comment/missing_text"


def test_a_comment_never_ends_a_phase_nor_counts_as_an_action():
    """FL-COM-5, FL-ABN-3: commenting changes neither the phase nor the abandonment clock."""
    g = Scenario.new()
    g.start_turn(0)
    before = (g.p(0).phase, g.p(0).move_no, g.p(0).last_action_at)
    g.play(0, {"kind": "comment", "text": "still here"}, dt=500)
    assert (g.p(0).phase, g.p(0).move_no, g.p(0).last_action_at) == before
