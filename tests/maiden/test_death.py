"""Life, damage, death and respawn (MV-LIFE-1, MV-LIFE-2, MV-LIFE-3, MV-DEATH-1, MV-DEATH-2,
MV-DEATH-3, MV-DEATH-4, MV-DEATH-5, MV-DEATH-6)."""

from __future__ import annotations

from tests.maiden.helpers import act, enter_room_check, new_game, roll, to_move


def test_life_bounds_mv_life_1_mv_life_3() -> None:
    """MV-LIFE-1: never above the maximum; MV-LIFE-3: never below 0 (death at 0)."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.arcana.append("a3")
    enter_room_check(r, g, "r_heal")
    roll(r, g, 6, 6, 5)
    act(r, g, "resolve")  # success: heal 2 at full life
    assert g.maidens[0].life == 6


def test_damage_sources_mv_life_2() -> None:
    """MV-LIFE-2: failure (DL), slate, and effect texts (r_trap's failure event) deal damage."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.action_markers = 6
    enter_room_check(r, g, "r_trap")
    roll(r, g, 1, 2, 3)
    events = act(r, g, "resolve")
    causes = [e.data["cause"] for e in events if e.kind == "maiden.damaged"]
    assert causes == ["failure", "room:r_trap"]


def test_death_respawn_on_start_with_one_life_ready_skills_mv_death_1_mv_death_2_mv_death_3() -> None:
    """MV-DEATH-1, MV-DEATH-2, MV-DEATH-3: at 0 life she dies, revives on S with life 1 and every skill ready."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.action_markers = 6
    g.maidens[0].life = 1
    g.maidens[0].skills[0].exhausted = True
    enter_room_check(r, g, "r_one")
    roll(r, g, 1, 2, 3)
    act(r, g, "resolve")
    m = g.maidens[0]
    assert m.room == "s" and m.life == 1 and not m.skills[0].exhausted and m.deaths == 1


def test_death_keeps_stats_skills_arcana_and_game_goes_on_mv_death_4_mv_death_6() -> None:
    """MV-DEATH-4: no other penalty; MV-DEATH-6: no elimination, the game continues."""
    r, g = new_game()
    to_move(r, g, wil=1, pie=1)
    g.arcana.append("a3")
    g.action_markers = 6
    g.maidens[0].life = 1
    stats = {k: list(v) for k, v in g.maidens[0].stats.items()}
    skills = [s.id for s in g.maidens[0].skills]
    enter_room_check(r, g, "r_one")
    roll(r, g, 1, 2, 3, 4)
    act(r, g, "resolve")
    m = g.maidens[0]
    assert m.stats == stats and [s.id for s in m.skills] == skills and g.arcana == ["a3"]
    assert not g.ended and g.step == "move"  # MV-DEATH-5: her next turn of the round starts from S


def test_death_skips_the_rest_of_the_room_phase_mv_death_5() -> None:
    """MV-DEATH-5: killed by the failure damage, she takes no slate damage and the event does
    not happen; the room card is still discarded."""
    r, g = new_game()
    to_move(r, g, wil=1)
    g.action_markers = 6
    g.maidens[0].life = 1
    enter_room_check(r, g, "r_trap")
    roll(r, g, 1, 2, 3)
    events = act(r, g, "resolve")
    assert [e.kind for e in events].count("maiden.damaged") == 1
    assert g.danger_level == 1  # the failure event (DL +1) was skipped
    assert "r_trap" in g.decks.room_discard


def test_boss_damage_stands_when_she_dies_mv_death_5_mv_boss_5() -> None:
    r, g = new_game()
    to_move(r, g, wil=1)
    act(r, g, "move", to="b_imp")
    g.maidens[0].life = 1
    g.check.slate = "red"  # type: ignore[union-attr]
    roll(r, g, 6, 1, 2)
    act(r, g, "resolve")
    assert g.bosses["imp"].life == 1 and g.bosses["imp"].pointer == 1 and g.maidens[0].room == "s"
