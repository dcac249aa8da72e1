"""Checks, ascension and slate: Appendix B order and fixtures (MV-CHECK, MV-ASC, MV-SLATE)."""

from __future__ import annotations

import pytest

from delve.kernel import IllegalCommand
from delve.maiden import dice
from delve.maiden.state import Check, Die
from tests.maiden.helpers import act, ctx, enter_room_check, new_game, result_of, roll, set_stats, to_move


def _check_with(faces: list[int], *, size: int = 6, slate: str | None = None, whites: int = 0) -> Check:
    colours = ["red", "blue", "black"] + ["white"] * whites
    return Check(
        kind="room",
        source="x",
        target=1,
        room="a1_1",
        slate=slate,
        dice=[Die(colour=c, size=size, face=f) for c, f in zip(colours, faces, strict=True)],
        rolled=True,
    )


@pytest.mark.parametrize(
    ("faces", "bonus", "expected"),
    [
        ([3, 3, 4], 1, 5),  # Appendix B fixture 1, MV-ASC-7 draft example
        ([4, 4, 2], 1, 4),  # fixture 2: do not ascend
        ([4, 4, 4], 1, 5),  # fixture 3
        ([1, 1, 2, 2, 3, 3, 4], 5, 19),  # fixture 4, bonus 1 + Pie
        ([1, 1, 2, 2, 3, 3, 4], 4, 16),  # fixture 4 under CHG-11 (bonus Pie)
        ([5, 5, 2, 6], 2, 8),  # MV-ASC-7 second example
    ],
)
def test_best_ascension_helper_mv_asc_9(faces: list[int], bonus: int, expected: int) -> None:
    """MV-ASC-9, MV-ASC-2, MV-ASC-7: the best AP over the ascension choices."""
    assert dice.best_ap(faces, bonus) == expected


def test_slate_best_ap_takes_every_non_slate_pair_mv_asc_9() -> None:
    assert dice.best_ap([2, 2, 5, 5], 1, slate_face=3) == 5


def test_draft_example_by_commands_fixture_1() -> None:
    """Appendix B fixture 1 played through commands: Pie 0, roll 3,3,4, ascend the 3s: AP 5.
    MV-CHECK-8 (highest remaining die), MV-ASC-1 (+1 + Pie), MV-ASC-4 (removed dice don't count)."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 3, 3, 4)
    c = ctx(r, g)
    assert {"kind": "ascend", "dice": [0, 1]} in r.legal_commands(g, 0)
    act(r, g, "ascend", dice=[1, 0])  # any order is accepted
    assert g.check is not None and g.check.dice[0].removed and g.check.dice[1].removed
    from delve.maiden import checks

    assert checks.current_ap(c, g.maidens[0]) == 5


def test_ascension_needs_one_die_left_mv_asc_6a() -> None:
    """MV-ASC-6(a): in a normal check at least one die remains; MV-ASC-5 ascension is optional."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 4, 4, 4)
    act(r, g, "ascend", dice=[0, 1])
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "ascend"]
    with pytest.raises(IllegalCommand) as err:
        act(r, g, "ascend", dice=[1, 2])
    assert err.value.code in {"command/invalid_pair", "command/not_your_phase"}


def test_pairs_of_any_colours_several_times_mv_asc_2_mv_asc_3() -> None:
    """MV-ASC-2, MV-ASC-3: several ascensions in one check, pairs of any colours (white included)."""
    r, g = new_game()
    to_move(r, g, pie=2, wil=1, agi=0, ins=0)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 2, 5, 2, 5, 6)
    act(r, g, "ascend", dice=[0, 2])
    act(r, g, "ascend", dice=[1, 3])
    from delve.maiden import checks

    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 6 + 2 * 3  # bonus 1 + Pie = 3 (MV-STAT-4)


def test_slate_fixture_5_success_with_damage_mv_slate_2_mv_slate_4() -> None:
    """Appendix B fixture 5: slate red, roll red 5 / blue 5 / black 2, target 4 -> AP 5, success,
    the red slate die cannot pair (MV-ASC-6b), slate damage 2 (MV-SLATE-4, MV-SLATE-6, MV-SLATE-7)."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    g.action_markers = 4  # target = 4 + difficulty 0
    enter_room_check(r, g, "r_red")
    assert g.check is not None and g.check.target == 4 and g.check.slate == "red"
    roll(r, g, 5, 5, 2)
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "ascend"]
    life = g.maidens[0].life
    assert result_of(act(r, g, "resolve")) == "success"
    assert g.maidens[0].life == life - 2


@pytest.mark.parametrize(("agi", "per_die", "dl", "expected"), [(1, "1", 1, 1), (0, "danger_level", 2, 4)])
def test_slate_fixture_5_variants_mv_slate_5_mv_slate_6(agi: int, per_die: str, dl: int, expected: int) -> None:
    """Fixture 5 with Agi 1 (MV-SLATE-5: one die removed automatically): 1 damage; with
    ``slate_damage_per_die = danger_level`` at DL 2: 4 damage (CHG-4b)."""
    r, g = new_game(slate_damage_per_die=per_die)
    to_move(r, g, pie=0, wil=1, agi=agi, ins=0)
    g.action_markers = 4
    g.danger_level = dl
    enter_room_check(r, g, "r_red")
    roll(r, g, 5, 5, 2)
    life = g.maidens[0].life
    act(r, g, "resolve")
    assert g.maidens[0].life == life - expected


def test_slate_fixture_6_failure_no_slate_damage_mv_slate_9() -> None:
    """Appendix B fixture 6: slate blue, roll red 3 / blue 2 / black 3, target 4, DL 1: ascend
    red + black -> AP 3, failure -> 1 damage (MV-CHECK-10); slate damage 0 (MV-SLATE-9)."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    g.action_markers = 3  # r_blue has difficulty 1 -> target 4
    enter_room_check(r, g, "r_blue")
    assert g.check is not None and g.check.target == 4
    roll(r, g, 3, 2, 3)
    act(r, g, "ascend", dice=[0, 2])
    life = g.maidens[0].life
    assert result_of(act(r, g, "resolve")) == "failure"
    assert g.maidens[0].life == life - 1


def test_white_dice_count_for_slate_mv_slate_8() -> None:
    """MV-SLATE-8: white dice are remaining dice and add slate damage."""
    r, g = new_game()
    to_move(r, g, pie=1, wil=1, agi=0, ins=0)
    g.action_markers = 1
    enter_room_check(r, g, "r_red")
    roll(r, g, 6, 1, 2, 3)
    life = g.maidens[0].life
    act(r, g, "resolve")
    assert g.maidens[0].life == life - 3


def test_target_and_pool_mv_check_3_4_5() -> None:
    """MV-CHECK-3: target = action markers + difficulty, at least 1 (OQ-36); MV-CHECK-4, MV-CHECK-5: one
    red, blue, black and Pie white dice of the size Wil gives (Wil 2, Pie 1: four d8)."""
    r, g = new_game()
    to_move(r, g, pie=1, wil=2, agi=0, ins=0)
    assert g.action_markers == 1
    enter_room_check(r, g, "r_easy")  # difficulty -1
    assert g.check is not None and g.check.target == 1  # max(1, 1 - 1)
    roll(r, g)
    assert [d.colour for d in g.check.dice] == ["red", "blue", "black", "white"]
    assert {d.size for d in g.check.dice} == {8}
    assert all(1 <= (d.face or 0) <= 8 for d in g.check.dice)


@pytest.mark.parametrize(("wil", "size"), [(0, 4), (1, 6), (2, 8), (3, 12), (4, 20), (6, 20)])
def test_die_size_by_will_mv_check_4_mv_stat_5_mv_lvl_7(wil: int, size: int) -> None:
    """MV-CHECK-4, MV-STAT-5; MV-LVL-7: Wil above 4 gives no larger die."""
    assert dice.die_size(wil) == size


def test_no_smaller_die_by_default_mv_check_6() -> None:
    """MV-CHECK-6: the player may not choose a smaller die (no die_size command)."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=3, agi=0, ins=0)
    enter_room_check(r, g, "r_zero")
    assert [c["kind"] for c in r.legal_commands(g, 0)] == ["roll"]


def test_failure_damage_is_dl_and_exploration_stays_mv_check_10_mv_check_11() -> None:
    """MV-CHECK-10, MV-CHECK-11, MV-EXPL-7: failure deals DL damage; the room stays explored."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=0, agi=0, ins=0)
    g.action_markers = 10
    g.danger_level = 2
    enter_room_check(r, g, "r_zero")
    roll(r, g, 1, 2, 3)
    act(r, g, "resolve")
    assert g.maidens[0].life == 4
    assert "a1_1" in g.explored


def test_success_has_no_other_effect_and_card_is_discarded_mv_check_12_mv_check_15() -> None:
    """MV-CHECK-12: success only avoids the damage; MV-CHECK-15: the card goes to the discard."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 6, 2, 3)
    act(r, g, "resolve")
    assert g.maidens[0].life == 6
    assert g.decks.room_discard[-1] == "r_zero"


def test_event_after_damage_on_its_trigger_mv_check_14_mv_event_1_mv_event_2() -> None:
    """MV-CHECK-13, MV-CHECK-14, MV-EVENT-1, MV-EVENT-2: the event resolves after success/failure and all damage,
    only for its trigger (r_trap: on failure, 1 damage and DL +1)."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    g.action_markers = 5
    enter_room_check(r, g, "r_trap")
    roll(r, g, 1, 2, 3)
    events = act(r, g, "resolve")
    kinds = [e.kind for e in events]
    assert kinds.index("maiden.damaged") < kinds.index("check.event")
    assert g.maidens[0].life == 6 - 1 - 1
    assert g.danger_level == 2


def test_event_not_triggered_on_the_other_result_mv_event_2() -> None:
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    enter_room_check(r, g, "r_trap")
    roll(r, g, 6, 6, 6)
    act(r, g, "resolve")
    assert g.danger_level == 1


def test_windows_any_order_mv_check_7() -> None:
    """MV-CHECK-7: after the roll, skills, Arcana and ascension in any order before resolve."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    g.arcana.append("a2")  # +3 AP, post_roll
    enter_room_check(r, g, "r_zero")
    roll(r, g, 3, 3, 4)
    legal = r.legal_commands(g, 0)
    assert {"kind": "use_arcana", "area": "a2"} in legal and {"kind": "ascend", "dice": [0, 1]} in legal
    act(r, g, "use_arcana", area="a2")
    act(r, g, "ascend", dice=[0, 1])
    from delve.maiden import checks

    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 4 + 1 + 3


def test_ascension_never_changes_a_face_mv_asc_8() -> None:
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    enter_room_check(r, g, "r_zero")
    roll(r, g, 3, 3, 4)
    act(r, g, "ascend", dice=[0, 1])
    assert g.check is not None and [d.face for d in g.check.dice] == [3, 3, 4]


def test_full_resolution_order_appendix_b_mv_check_16_mv_check_17() -> None:
    """MV-CHECK-17 (Appendix B order) for a boss check: boss hit and pointer before the maiden's
    damage (MV-BOSS-5), then slate damage; MV-CHECK-16: the boss action replaces the card."""
    r, g = new_game()
    to_move(r, g, pie=0, wil=1, agi=0, ins=0)
    set_stats(g, 0, agi=3)
    g.action_markers = 1
    g.explored += ["a1_1", "a1_2", "a1_3"]
    g.bosses["warden"].disabled = []
    act(r, g, "move", to="b_warden")
    assert g.check is not None and g.check.kind == "boss" and g.check.action == 0
    g.bosses["warden"].pointer = 2  # the red-slate action (difficulty 1)
    g.check.action = 2
    g.check.slate = "red"
    roll(r, g, 6, 1, 2)
    events = act(r, g, "resolve")
    kinds = [e.kind for e in events]
    assert kinds.index("boss.hit") < kinds.index("boss.pointer")
    assert g.bosses["warden"].pointer == 0  # from the bottom back to the top


def test_resolved_check_keeps_its_ap_after_piety_changes_mv_check_mv_asc_1() -> None:
    """MV-CHECK (AP is final at resolution), MV-ASC-1 (bonus 1 + Pie): a resolved check keeps the
    AP it was resolved with; a Piety card going down afterwards (the level-up of a boss defeat,
    the check still on the table) does not recount its ascension bonus in the check's panel."""
    from delve.maiden import checks

    r, g = new_game(start_player=0)
    to_move(r, g, pie=2, wil=1, agi=0, ins=0)
    act(r, g, "move", to="b_imp")
    g.bosses["imp"].life = 1
    roll(r, g, 2, 5, 2, 5, 6)
    act(r, g, "ascend", dice=[0, 2])
    act(r, g, "ascend", dice=[1, 3])
    events = act(r, g, "resolve")
    resolved = next(e for e in events if e.kind == "check.resolved")
    assert resolved.data["ap"] == 6 + 2 * 3 and resolved.data["result"] == "success"
    assert g.check is not None and g.check.ap == 12 and g.pending  # the level-up waits
    set_stats(g, 0, pie=3, wil=1, agi=0, ins=0)  # Piety 2 -> 3 while the check is shown
    assert checks.current_ap(ctx(r, g), g.maidens[0]) == 12
    panel = r.view(g, 0)["check"]
    assert panel is not None and panel["ap"] == 12 and panel["result"] == "success"


def test_a_success_an_arcana_forces_says_so_in_the_log_mv_check_9() -> None:
    """MV-CHECK-9 (success is AP >= target) and the auto-success Arcana (SUG-3, A13 of the
    draft's table): a check that succeeds with AP under its target reads, in both languages, as
    made by an Arcana or a skill, not "succeeded with 1 AP against target 5" alone; the effect's
    own line names the Arcana; a check the dice won anyway reads as an ordinary success. The
    event is recorded as before (exports of earlier games must still verify)."""
    import msgspec

    from delve.maiden import text
    from tests.maiden.fixtures.content import CONTENT

    areas = dict(CONTENT.areas)
    areas["a3"] = msgspec.structs.replace(areas["a3"], arcana=({"op": "auto_success"},))
    content = msgspec.structs.replace(CONTENT, areas=areas)
    for faces, forced in (((1, 1, 1), True), ((6, 6, 6), False)):
        r, g = new_game(content=content)
        to_move(r, g, pie=0, wil=1, agi=0, ins=0)
        g.action_markers = 3
        enter_room_check(r, g, "r_zero")
        roll(r, g, *faces)
        g.arcana.append("a3")
        used = act(r, g, "use_arcana", area="a3")
        events = act(r, g, "resolve")
        resolved = next(e for e in events if e.kind == "check.resolved")
        assert set(resolved.data) == {"seat", "ap", "target", "result", "kind"}
        assert resolved.data["result"] == "success"
        en = text.event_sentence(resolved, "en", content, ["Yui"])
        ja = text.event_sentence(resolved, "ja", content, ["ゆい"])
        modified = next(e for e in used if e.kind == "check.modified")
        area_ja = text.Names("ja", content).area("a3")
        assert text.event_sentence(modified, "ja", content, ["ゆい"]) == (
            f"ゆいに{area_ja}のアルカナ：判定は自動的に成功する。"
        )
        ap, target = resolved.data["ap"], resolved.data["target"]
        if forced:
            assert ap < target
            assert en == (
                "Yui succeeded through an Arcana or a skill that makes the check succeed "
                f"(the dice gave {ap} AP against target {target})."
            )
            assert ja == f"ゆいはアルカナかスキルの効果で成功した（出目はAP{ap}で目標値{target}に届かなかった）。"
        else:
            assert en == f"Yui succeeded with {ap} AP against target {target}."
            assert ja == f"ゆいはAP{ap}で成功した（目標値{target}）。"
