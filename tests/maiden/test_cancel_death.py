"""cancel_death and the damage window (MV-DEATH-1, MV-DEATH-5; MV-SKILL-2, MV-SKILL-7, MV-SKILL-9;
MV-EXPL-4): when damage would kill a maiden and one of her ready, unused skills of timing
``damage`` or an Arcana of the pool cancels a death, her player chooses to use it or to die;
until then she stands at 0 life and what hurt her waits; a cancelled death leaves her at 1 life
where she is and the rest goes on, an accepted one happens at once."""

from __future__ import annotations

from typing import Any

import msgspec

from delve.maiden import effects
from delve.maiden.state import SkillState
from tests.maiden.fixtures.content import CONTENT, Skill, text
from tests.maiden.helpers import act, ctx, enter_room_check, new_game, roll, to_move

SAVE = [{"op": "cancel_death"}]


def _game(ops: list[dict[str, Any]] = SAVE, *, arcana: bool = False, players: int = 1, life: int = 1):  # type: ignore[no-untyped-def]
    """A game at the move window with a damage-timing skill k_save (or the Arcana of area a1)
    running ``ops``; the active maiden at ``life``; Wil 1 (d6)."""
    skills = dict(CONTENT.skills)
    skills["k_save"] = Skill("k_save", text("Save"), text("save"), (), "damage", tuple(ops), deck=False)
    areas = dict(CONTENT.areas)
    areas["a1"] = msgspec.structs.replace(areas["a1"], arcana=tuple(ops), arcana_timing="damage")
    content = msgspec.structs.replace(CONTENT, skills=skills, areas=areas)
    r, g = new_game(players, content=content)
    to_move(r, g, wil=1)
    g.action_markers = 6
    if arcana:
        g.arcana = ["a1"]
    else:
        g.maidens[0].skills = [SkillState(id="k_save")]
    g.maidens[0].life = life
    return r, g


def _fail(r, g, card: str = "r_trap") -> list[Any]:  # type: ignore[no-untyped-def]
    enter_room_check(r, g, card)
    roll(r, g, 1, 2, 3)
    return act(r, g, "resolve")


def _window(g) -> Any:  # type: ignore[no-untyped-def]
    assert g.pending and g.pending[0].data.get("for") == "death"
    return g.pending[0]


def test_a_damage_window_opens_instead_of_the_death_mv_death_1_mv_skill_9() -> None:
    """MV-DEATH-1 with a cancel at hand: at 0 life her player decides first (use the damage
    skill, or die); nothing else happens meanwhile (the failure event waits)."""
    r, g = _game()
    events = _fail(r, g)
    window = _window(g)
    assert window.seat == 0 and window.options == ["k_save", "die"]
    assert g.maidens[0].life == 0 and g.maidens[0].deaths == 0
    assert "maiden.died" not in [e.kind for e in events] and "maiden.dying" in [e.kind for e in events]
    assert g.danger_level == 1  # r_trap's failure event (DL +1) has not happened yet
    assert r.legal_commands(g, 0) == [{"kind": "choose", "option": 0}, {"kind": "choose", "option": 1}]


def test_a_cancelled_death_leaves_her_at_1_life_where_she_is_and_the_room_phase_goes_on() -> None:
    """The skill cancels the death (used as any skill: once this turn, MV-SKILL-2); she stays in
    the room with 1 life, and the rest of the result happens: r_trap's event (1 damage, DL +1)
    hurts her again, and with the skill used this turn nothing can cancel that death, which
    skips the rest of the event (MV-DEATH-5: no DL +1)."""
    r, g = _game()
    _fail(r, g)
    room = g.maidens[0].room
    events = act(r, g, "choose", option=0)
    kinds = [e.kind for e in events]
    assert kinds.index("maiden.death_cancelled") < kinds.index("check.event")
    assert g.danger_level == 1
    m = g.maidens[0]
    assert m.deaths == 1 and m.room == "s"  # the event's 1 damage killed her: no second window
    assert [e.data["cause"] for e in events if e.kind == "maiden.damaged"] == ["room:r_trap"]
    assert room != "s"


def test_a_cancelled_death_with_life_left_after_the_event() -> None:
    """Bulwark-like ops (cancel, then heal 1) leave her at 2 life: r_trap's event damage (1)
    leaves her alive in her room."""
    r, g = _game([{"op": "cancel_death"}, {"op": "heal", "amount": 1}])
    _fail(r, g)
    room = g.maidens[0].room
    events = act(r, g, "choose", option=0)
    m = g.maidens[0]
    assert (m.life, m.deaths, m.room) == (1, 0, room)
    assert [e.data["skill"] for e in events if e.kind == "skill.used"] == ["k_save"]


def test_choosing_to_die_is_the_death_at_once_mv_death_1_mv_death_5() -> None:
    """MV-DEATH-1..3, MV-DEATH-5: she revives on S with 1 life; the rest of the room phase (the
    failure event) is skipped; the room card is still discarded."""
    r, g = _game()
    _fail(r, g)
    act(r, g, "choose", option=1)
    m = g.maidens[0]
    assert (m.life, m.deaths, m.room) == (1, 1, "s")
    assert g.danger_level == 1 and "r_trap" in g.decks.room_discard
    assert not m.skills[0].used and not g.pending


def test_an_arcana_of_the_pool_cancels_a_death_and_is_discarded_mv_expl_4() -> None:
    """MV-EXPL-4: the Arcana is discarded after its use, never back."""
    r, g = _game(arcana=True)
    g.maidens[0].skills = []
    _fail(r, g, "r_one")
    assert _window(g).options == ["a1", "die"]
    events = act(r, g, "choose", option=0)
    assert g.arcana == [] and "a1" in g.arcana_used
    assert [e.data for e in events if e.kind == "arcana.used"] == [{"area": "a1", "seat": 0, "for_seat": 0}]
    assert (g.maidens[0].life, g.maidens[0].deaths) == (1, 0)


def test_no_window_without_a_ready_unused_cancel_mv_skill_2_mv_skill_7() -> None:
    """MV-SKILL-7: an exhausted skill cannot be used; MV-SKILL-2: nor one used this turn. Then
    the death happens at once, as without any cancel."""
    for flag in ("exhausted", "used"):
        r, g = _game()
        setattr(g.maidens[0].skills[0], flag, True)
        _fail(r, g, "r_one")
        assert not g.pending or g.pending[0].data.get("for") != "death"
        assert g.maidens[0].deaths == 1 and g.maidens[0].room == "s"


def test_a_damage_skill_is_never_offered_in_a_window_and_cancels_nothing_alive_mv_skill_9() -> None:
    """MV-SKILL-9: a skill of timing ``damage`` is no move, pre-roll or post-roll command; the op
    outside a window has no death to cancel (``effect.no_target``)."""
    r, g = _game(life=6)
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_skill"]
    enter_room_check(r, g, "r_one")
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_skill"]
    roll(r, g, 1, 2, 3)
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_skill"]
    c = ctx(r, g)
    effects.run(c, SAVE, "test", {}, actor=g.maidens[0], strict=True)
    assert g.maidens[0].life == 6 and [e.kind for e in c.events] == ["effect.no_target"]


def test_damage_to_several_maidens_waits_for_the_window_of_the_first_mv_life_2() -> None:
    """An effect hurting all maidens (MV-LIFE-2) stops at the first one in a window: the others
    and the ops after it are hurt and run once the window is answered."""
    r, g = _game(players=2)
    g.maidens[1].life = 5
    c = ctx(r, g)
    ops = [{"op": "damage", "amount": 2, "who": "all"}, {"op": "dl", "delta": 1}]
    effects.run(c, ops, "test", {}, actor=g.maidens[0], strict=False)
    assert _window(g).seat == 0 and g.maidens[1].life == 5 and g.danger_level == 1
    act(r, g, "choose", option=0)
    assert (g.maidens[0].life, g.maidens[0].deaths) == (1, 0)
    assert g.maidens[1].life == 3 and g.danger_level == 2


def test_after_a_cancelled_failure_death_the_slate_damage_still_comes_mv_death_5() -> None:
    """The window waits between the failure damage and the slate damage (MV-SLATE-6/7): once the
    death is cancelled the slate damage follows; had she died, it would have been skipped."""
    r, g = _game([{"op": "cancel_death"}, {"op": "heal", "amount": 5}])
    events = _fail(r, g, "r_blue")
    assert [e.data["cause"] for e in events if e.kind == "maiden.damaged"] == ["failure"]
    events = act(r, g, "choose", option=0)
    slate = [e.data["amount"] for e in events if e.kind == "maiden.damaged" and e.data["cause"] == "slate"]
    assert slate and g.maidens[0].life == 6 - slate[0]
