"""Rounds and turns (MV-ROUND-1, MV-ROUND-2, MV-ROUND-3, MV-ROUND-4, MV-ROUND-5, MV-ROUND-6,
MV-ROUND-7, MV-ROUND-8, MV-ROUND-9, MV-ROUND-10, MV-TURN-1, MV-TURN-2, MV-ENDT-1, MV-ENDT-2,
MV-ENDT-3, MV-END-2, MV-END-3)."""

from __future__ import annotations

import pytest

from delve.kernel import Event
from delve.maiden import rounds
from delve.maiden.state import ROUNDS
from tests.maiden.helpers import autoplay_one, ctx, finish_setup, new_game


@pytest.mark.parametrize(
    ("players", "start", "order"),
    [(1, 0, [0, 0, 0]), (2, 1, [1, 0, 1, 0]), (3, 2, [2, 0, 1]), (4, 1, [1, 2, 3, 0])],
)
def test_turn_order_mv_round_3_mv_round_4(players: int, start: int, order: list[int]) -> None:
    """MV-ROUND-3, MV-ROUND-4: solo 3 turns in a row, 2 players alternate, 3-4 one each clockwise."""
    assert rounds.turn_order(players, start) == order


def test_action_markers_curve_fixture_7_mv_round_7_mv_round_8_mv_round_9() -> None:
    """Appendix B fixture 7, MV-ROUND-6, MV-ROUND-7, MV-ROUND-8, MV-ROUND-9: base target 1
    after rounds 1 and 2, 2 after round 3, 12 after round 24; markers never removed."""
    r, g = new_game(1)
    finish_setup(r, g)
    seen = {}
    while not g.ended:
        seen[g.round] = g.action_markers
        g.maidens[0].room = "s"  # keep her out of boss fights: only the round counter matters here
        g.maidens[0].boss = None
        autoplay_one(r, g)
        if g.round == ROUNDS and g.step == "move":
            break
    assert seen[1] == 1 and seen[2] == 1 and seen[3] == 2
    assert all(seen[k] <= seen[k + 1] for k in range(1, max(seen)))


def test_round_start_then_action_phase_mv_round_1_mv_round_2_mv_round_5() -> None:
    """MV-ROUND-1, MV-ROUND-2, MV-ROUND-5: each round starts with its round start, then the turns from the same
    start player."""
    r, g = new_game(2, start_player=1)
    events = finish_setup(r, g)
    assert g.order == [1, 0, 1, 0] and g.active_seat == 1
    kinds = [e.kind for e in events]
    assert kinds.index("round.started") < kinds.index("turn.started")


def test_end_of_turn_passes_on_and_next_round_mv_endt_1_mv_endt_3() -> None:
    """MV-ENDT-1: the turn passes clockwise; MV-ENDT-3: after the last turn the next round."""
    r, g = new_game(3, start_player=0)
    finish_setup(r, g)
    seen = []
    while g.round == 1:
        seen.append(g.active_seat) if not seen or seen[-1] != g.active_seat else None
        autoplay_one(r, g)
    assert seen == [0, 1, 2]
    assert g.round == 2 and g.active_seat == 0


def test_base_target_round_number_variant_oq_4() -> None:
    """``base_target = round_number`` (OQ-4, simulation only) vs the default action markers."""
    r, g = new_game(1, base_target="round_number")
    finish_setup(r, g)
    g.round = 5
    assert rounds.base_target(ctx(r, g)) == 5
    r2, g2 = new_game(1)
    finish_setup(r2, g2)
    g2.round, g2.action_markers = 5, 3
    assert rounds.base_target(ctx(r2, g2)) == 3


def test_game_lost_after_round_24_mv_round_10_mv_end_2_mv_end_3() -> None:
    """MV-ROUND-10, MV-END-2, MV-OVER-5: after round 24 with Urza alive, everyone loses; the
    summary (MV-END-3) lists rounds, bosses, areas, deaths and DL."""
    r, g = new_game(2)
    finish_setup(r, g)
    g.round = 24
    g.turn_index = len(g.order) - 1
    events: list[Event] = []
    while not g.ended:
        autoplay_one(r, g, events)
    assert g.result == "lost" and g.round == 24
    lost = next(e for e in events if e.kind == "game.lost")
    assert set(lost.data) >= {"rounds", "bosses_defeated", "areas_freed", "deaths", "danger_level"}
    outcome = r.outcome(g)
    assert outcome.ended and outcome.winners == () and outcome.results == {0: "lost", 1: "lost"}
    # the view stays on the round's last turn: the game ended with it (the screen showed "Turn 5/4")
    view = r.view(g, 0)
    assert (view["round"], view["turn_in_round"], view["turns_per_round"]) == (24, 4, 4)
