"""The kernel's ``attention`` (what waits for a seat): a ruleset's own method, or the fallback from
its legal commands for a ruleset without one."""

from __future__ import annotations

from delve.kernel import Attention, SeatInfo, attention
from tests.kernel.toy import ToyRuleset


def test_without_its_own_method_a_seat_with_a_legal_command_has_a_turn_waiting():
    toy = ToyRuleset()
    state = toy.setup({}, [SeatInfo("a"), SeatInfo("b")], 1, 0)
    assert attention(toy, state, 0) == Attention(action="turn")
    state.winner = 1
    assert attention(toy, state, 0) == Attention()


def test_a_rulesets_own_method_answers():
    class Attentive(ToyRuleset):
        def attention(self, state: object, seat: int) -> Attention:
            return Attention(action="defense", defense_key=f"seat-{seat}")

    toy = Attentive()
    state = toy.setup({}, [SeatInfo("a"), SeatInfo("b")], 1, 0)
    assert attention(toy, state, 1).defense_key == "seat-1"
