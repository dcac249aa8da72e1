"""Boss fights (MV-BOSS-1, MV-BOSS-2, MV-BOSS-3, MV-BOSS-4, MV-BOSS-5, MV-BOSS-6, MV-BOSS-7,
MV-BOSS-8, MV-BOSS-9, MV-BOSS-10, MV-BOSS-11), Urza and the end of the game (MV-END-1,
MV-OVER-4, MV-OVER-5)."""

from __future__ import annotations

from tests.maiden.helpers import act, autoplay_one, new_game, roll, to_move


def _engage(players: int = 1, boss_room: str = "b_imp", **settings: object):  # type: ignore[no-untyped-def]
    r, g = new_game(players, start_player=0, **settings)
    to_move(r, g, wil=1)
    if boss_room != "b_imp":
        g.explored += ["a1_1", "a1_2", "a1_3", "b_warden", "a3_1"]
    act(r, g, "move", to=boss_room)
    return r, g


def test_boss_fight_is_the_room_phase_with_the_current_action_mv_boss_1_mv_boss_2() -> None:
    """MV-BOSS-1, MV-BOSS-2: the boss check uses the pointer's action (difficulty, slate) in place of a
    room card, with the same pool and target rule."""
    _r, g = _engage()
    assert g.check is not None and g.check.kind == "boss" and g.check.source == "imp"
    assert g.check.target == 1 + 0  # action markers + top action's difficulty 0


def test_success_deals_exactly_one_and_pointer_moves_mv_boss_3_mv_boss_5() -> None:
    """MV-BOSS-3: success removes exactly 1 life however high AP is; MV-BOSS-5: the pointer moves
    down after every check."""
    r, g = _engage()
    roll(r, g, 6, 6, 6)
    act(r, g, "resolve")
    boss = g.bosses["imp"]
    assert boss.life == 1 and boss.pointer == 1


def test_failure_damages_the_maiden_and_pointer_still_moves_mv_boss_4_mv_boss_5() -> None:
    r, g = _engage()
    g.check.target = 7  # type: ignore[union-attr]
    roll(r, g, 1, 2, 3)
    act(r, g, "resolve")
    assert g.maidens[0].life == 5 and g.bosses["imp"].pointer == 1 and g.bosses["imp"].life == 2


def test_damage_and_pointer_persist_mv_boss_6_mv_boss_7() -> None:
    """MV-BOSS-6: damage and pointer persist when she dies or leaves; MV-BOSS-7: another maiden
    fights the same life and pointer."""
    r, g = _engage(2)
    roll(r, g, 6, 6, 6)
    g.maidens[0].life = 1
    g.check.slate = "red"  # type: ignore[union-attr]
    act(r, g, "resolve")  # success (boss -1), then slate damage 2 kills her
    boss = g.bosses["imp"]
    assert g.maidens[0].room == "s" and g.maidens[0].boss is None
    assert boss.life == 3 - 1 and boss.pointer == 1
    assert g.active_seat == 1
    act(r, g, "move", to="b_imp")
    assert g.check is not None and g.check.action == 1 and g.maidens[1].boss == "imp"


def test_defeat_levels_up_everyone_in_turn_order_mv_boss_8_mv_lvl_2_mv_lvl_5_mv_lvl_6() -> None:
    """MV-BOSS-8: the Sephirah is recovered and all players level up (MV-LVL-2), in turn order
    from the active player (MV-LVL-5), after the whole room phase (MV-LVL-6)."""
    r, g = _engage(3)
    g.bosses["imp"].life = 1
    roll(r, g, 6, 6, 6)
    events = act(r, g, "resolve")
    kinds = [e.kind for e in events]
    assert g.sephirot == 1 and g.bosses["imp"].defeated and g.maidens[0].boss is None
    assert kinds.index("boss.defeated") < kinds.index("maiden.level_up")
    assert [d.seat for d in g.pending] == [0]
    order = []
    while g.pending and len(order) < 3:
        order.append(g.pending[0].seat)
        autoplay_one(r, g)
        while g.pending and g.pending[0].seat == order[-1]:
            autoplay_one(r, g)
    assert order == [0, 1, 2]


def test_defeated_boss_room_becomes_normal_and_explored_mv_boss_9() -> None:
    """MV-BOSS-9, OQ-20: the room counts as an explored normal room."""
    r, g = _engage()
    g.bosses["imp"].life = 1
    roll(r, g, 6, 6, 6)
    act(r, g, "resolve")
    view = r.view(g, 0)
    room = next(x for x in view["map"]["rooms"] if x["id"] == "b_imp")
    assert room["type"] == "normal" and room["explored"]


def test_boss_action_effects_resolve_like_events_mv_boss_10_mv_slate_1() -> None:
    """MV-BOSS-10, MV-SLATE-1: a boss action's slate resolves like a room card's."""
    r, g = _engage(boss_room="b_warden")
    g.bosses["warden"].pointer = 2
    g.check.action, g.check.slate = 2, "red"  # type: ignore[union-attr]
    roll(r, g, 6, 1, 2)
    life = g.maidens[0].life
    act(r, g, "resolve")
    assert g.maidens[0].life == life - 2


def test_urza_defeat_wins_at_once_without_level_up_mv_boss_11_mv_end_1_mv_over_4_mv_over_5() -> None:
    """MV-BOSS-11: Urza is fightable at any time; his defeat ends the game at once (MV-END-1,
    MV-OVER-4), a shared win (MV-OVER-5), no level-up."""
    r, g = _engage(2, boss_room="b_urza")
    g.bosses["urza"].life = 1
    roll(r, g, 6, 6, 6)
    g.check.target = 1  # type: ignore[union-attr]
    events = act(r, g, "resolve")
    assert g.ended and g.result == "won"
    assert not any(e.kind == "maiden.level_up" for e in events)
    assert r.outcome(g).winners == (0, 1)
    assert r.legal_commands(g, 0) == [] and r.next_due(g) is None


def test_boss_life_bonus_only_at_2_and_4_players_mv_round_3() -> None:
    """MV-ROUND-3, SUG-9: life + ceil(life/3) at 2 and 4 players, normal at 1 and 3."""
    for players, life in ((1, 3), (2, 4), (3, 3), (4, 4)):
        _r, g = _engage(players, boss_room="b_warden")
        assert g.bosses["warden"].life == life


def test_boss_life_bonus_setting_values() -> None:
    """``boss_life_bonus``: ceil_third (default), none, or a fixed number (CHG-6, OQ-19)."""
    assert _engage(2, boss_room="b_warden", boss_life_bonus="none")[1].bosses["warden"].life == 3
    assert _engage(4, boss_room="b_warden", boss_life_bonus=2)[1].bosses["warden"].life == 5
    assert _engage(3, boss_room="b_warden", boss_life_bonus=2)[1].bosses["warden"].life == 3
