"""Victory, the exit and the end of the game: FL-WIN, FL-EXIT, FL-OVR, AMB-51..53."""

from __future__ import annotations

from delve.fated import death
from delve.fated.grid import EXIT, FLOOR, TREASURE
from delve.fated.state import BOTTOM_LEFT, BOTTOM_RIGHT, TOP_LEFT, TOP_RIGHT

from .scenario import RULESET, Scenario

MAP = [
    "C.......C",
    ".1.......",
    ".........",
    ".........",
    "....2....",
    ".........",
    "....3....",
    ".......4.",
    "C.......C",
]


def game(**kw) -> Scenario:
    return Scenario.from_map(MAP, classes=["explorer", "warrior", "priest", "thief"], **kw)


def test_condition_a_treasure_kill_and_a_diagonal_pair():
    """FL-WIN-1, FL-WIN-3, FL-EXIT-1: treasure + a kill + two opposite corners make the exit appear."""
    g = game()
    p = g.p(0)
    ctx = g.ctx
    p.treasures, p.visited = 1, TOP_LEFT | BOTTOM_RIGHT
    assert not death.qualifies(ctx, p)
    p.kills = 1
    assert death.qualifies(ctx, p)
    p.visited = TOP_LEFT | TOP_RIGHT
    assert not death.qualifies(ctx, p)  # not a diagonal
    p.visited = TOP_RIGHT | BOTTOM_LEFT
    assert death.qualifies(ctx, p)


def test_condition_b_treasure_and_all_four_corners():
    """FL-WIN-2: all four checkpoints and a treasure, no kill needed."""
    g = game()
    p = g.p(0)
    p.treasures, p.visited = 1, TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
    assert death.qualifies(g.ctx, p)
    p.treasures = 0
    assert not death.qualifies(g.ctx, p)


def test_quotas_come_from_the_settings():
    """FL-WIN-3, FL-CFG-1: the treasure and kill quotas are basic rules."""
    g = game(treasure_quota=2, treasure_count=3, kill_quota=2)
    p = g.p(0)
    p.treasures, p.kills, p.visited = 1, 2, TOP_LEFT | BOTTOM_RIGHT
    assert not death.qualifies(g.ctx, p)
    p.treasures = 2
    assert death.qualifies(g.ctx, p)


def test_visiting_checkpoints_is_recorded_and_the_exit_appears():
    """FL-MAP-10, AMB-56, FL-EXIT-1, FL-EXIT-2, AMB-52: moving onto a corner records it; when a
    player qualifies the exit appears on a random free floor tile (announced, no location)."""
    g = game()
    p = g.p(0)
    p.treasures = 1
    p.visited = TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
    g.start_turn(0)
    g.play(0, {"kind": "move", "dir": "up"})
    g.play(0, {"kind": "move", "dir": "left"})
    assert p.visited & TOP_LEFT
    assert g.state.exit is not None and g.state.grid[g.state.exit] == EXIT
    appeared = [e for e in g.events if e.kind == "exit.appeared"]
    assert appeared and appeared[0].public and appeared[0].data == {}
    assert g.state.exit not in (p.pos, *[q.pos for q in g.state.players])


def test_escaping_through_the_real_exit_wins_and_ends_the_game():
    """FL-CORE-5, FL-WIN-4, FL-WIN-5, FL-OVR-5, FL-OVR-6, FL-WIN-7: the qualifying player on the
    exit escapes; the game ends; everyone else loses (records say so)."""
    g = game()
    p = g.p(0)
    p.treasures, p.visited = 1, TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
    death.update_exit(g.ctx)
    p.pos = g.state.exit
    g.to_core(0)
    assert {"kind": "escape"} in g.legal(0)
    g.play(0, {"kind": "escape"})
    assert g.state.ended and g.state.winner == 0 and g.state.win_kind == "escape"
    outcome = RULESET.outcome(g.state)
    assert outcome.winners == (0,)
    assert outcome.results == {0: "won_escape", 1: "lost", 2: "lost", 3: "lost"}
    assert outcome.stats[0]["treasures"] == 1
    assert all(RULESET.legal_commands(g.state, s) == [{"kind": "comment"}] for s in range(4))


def test_the_exit_disappears_when_nobody_qualifies_any_more_and_reappears_elsewhere():
    """FL-EXIT-3, FL-EXIT-4, FL-EXIT-5, FL-WIN-3: losing the treasure breaks the condition; the
    exit disappears; when someone qualifies again it appears on a different tile."""
    g = game()
    p = g.p(0)
    p.treasures, p.visited = 1, TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
    death.update_exit(g.ctx)
    first = g.state.exit
    assert first is not None
    p.treasures = 0
    death.update_exit(g.ctx)
    assert g.state.exit is None and g.state.grid[first] == FLOOR
    assert [e.kind for e in g.log()][-2:] == ["exit.appeared", "exit.disappeared"]
    p.treasures = 1
    death.update_exit(g.ctx)
    assert g.state.exit is not None and g.state.exit != first


def test_the_exit_stays_while_anyone_qualifies():
    """FL-EXIT-3, FL-EXIT-5, AMB-53: at most one exit; it stays while any living player qualifies."""
    g = game()
    for seat in (0, 1):
        g.p(seat).treasures = 1
        g.p(seat).visited = TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
    death.update_exit(g.ctx)
    exit_tile = g.state.exit
    g.p(0).treasures = 0
    death.update_exit(g.ctx)
    assert g.state.exit == exit_tile
    assert g.state.grid.count(EXIT) == 1


def test_picking_up_a_treasure_can_make_the_exit_appear():
    """FL-CORE-4, FL-EXIT-5: conditions are re-evaluated after every change of treasures held."""
    g = game()
    p = g.p(0)
    p.visited = TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
    g.state.set_tile(p.pos, TREASURE)
    g.to_core(0)
    g.play(0, {"kind": "pick_up"})
    assert g.state.exit is not None


def test_the_last_survivor_wins_at_once():
    """FL-WIN-6, FL-OVR-5, AMB-51: when only one player is alive, that player wins immediately."""
    g = game()
    g.play(1, {"kind": "give_up"})
    g.play(2, {"kind": "give_up"})
    assert not g.state.ended
    g.play(3, {"kind": "give_up"})
    assert g.state.ended and g.state.winner == 0 and g.state.win_kind == "survivor"
    assert RULESET.outcome(g.state).results[0] == "won_survivor"
    assert RULESET.outcome(g.state).results[3] == "abandoned"


def test_two_players_timing_out_together_leave_the_later_one_the_winner():
    """FL-WIN-6, AMB-51, AMB-77: deaths are processed one by one in player order, and the check
    after each death crowns the last one alive."""
    g = game()
    g.play(2, {"kind": "give_up"})
    g.play(3, {"kind": "give_up"})
    for seat in (0, 1):
        g.make_ready(seat)
        g.p(seat).last_action_at = g.now
    g.tick(g.state.settings.abandon_time)
    assert g.state.ended and g.state.winner == 1


def test_nobody_left_ends_the_game_without_a_winner():
    """AMB-51: if no player is left alive the game ends with no winner; everyone lost."""
    g = game()
    for p in g.state.players:
        p.alive = False
    death.check_last_survivor(g.ctx)
    assert g.state.ended and g.state.winner is None and g.state.win_kind == "none"
    assert set(RULESET.outcome(g.state).results.values()) == {"lost"}


def test_a_player_qualifying_only_by_kills_must_also_hold_treasure():
    """FL-WIN-1: the treasure quota is part of condition A."""
    g = game()
    p = g.p(0)
    p.kills, p.visited = 3, TOP_LEFT | BOTTOM_RIGHT
    assert not death.qualifies(g.ctx, p)


def test_the_game_needs_its_full_player_count():
    """FL-OVR-4, FL-REG-7: a game is set up only with exactly `players` seats."""
    import pytest

    from delve.kernel import SeatInfo, SettingsError

    seats = [SeatInfo(f"p{i}", {"class": "explorer"}) for i in range(3)]
    with pytest.raises(SettingsError) as info:
        RULESET.setup({}, seats, 1, 0)
    assert info.value.setting == "players"


def test_players_hinder_each_other_with_attacks_and_traps():
    """FL-OVR-1, FL-OVR-2, FL-OVR-3: each player controls one adventurer; the opponents are the
    other players, who can be attacked from afar and trapped."""
    g = game()
    (card,) = g.set_hand(0, "attack-10")
    g.to_core(0)
    legal = g.legal(0)
    remote_targets = {c["target"] for c in legal if c.get("use") == "remote"}
    assert remote_targets == {1, 2, 3}
    assert {"kind": "use_card", "card": card, "use": "trap"} in legal
    assert [p["number"] for p in g.view(0)["players"]] == ["01", "02", "03", "04"]


def test_tiles_not_seen_since_the_exit_appeared_are_marked_in_the_own_view_FL_EXIT_2():
    """FL-EXIT-1/2 (the exit's place is not announced): a player's view marks as stale the tiles
    not in sight since the exit appeared, remembered or never seen (black); seeing a tile
    again clears its mark; no marks without an exit; never in anybody else's view."""
    g = game()
    p = g.p(0)
    n = g.state.size
    p.memory = "." * (n * n)  # the whole maze remembered before the exit appears...
    black = g.at(7, 8)
    p.memory = p.memory[:black] + "?" + p.memory[black + 1 :]  # ...but one tile never seen
    assert "stale" not in g.view(0)["map"]
    p.treasures, p.visited = 1, TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
    g.start_turn(0)
    death.update_exit(g.ctx)
    from delve.fated import visibility

    visibility.refresh(g.ctx)
    view = g.view(0)["map"]
    stale, lit = view["stale"], view["lit"]
    far = g.at(8, 8)
    near = g.at(1, 2)
    assert p.pos == g.at(1, 1)
    assert lit[near] == "1" and stale[near] == "0"  # in sight now
    assert stale[far] == "1"  # remembered, not seen since
    # FL-EXIT-1: the exit may be on a never-seen tile as much as on a remembered one
    assert view["tiles"][black] == "?" and stale[black] == "1"
    p.pos = g.at(8, 7)
    visibility.refresh(g.ctx)
    p.pos = g.at(1, 1)
    visibility.refresh(g.ctx)
    assert g.view(0)["map"]["stale"][far] == "0"  # seen again: no longer marked
    assert "stale" not in g.view(None)["map"]
    p.treasures = 0
    death.update_exit(g.ctx)
    assert "stale" not in g.view(0)["map"] and p.seen_since_exit == ""
