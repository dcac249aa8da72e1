"""The OPS interpreter's core: implemented ops, the ``who`` targets, ops without an
implementation (not offered to commands, reported and skipped in automatic effects)."""

from __future__ import annotations

import msgspec

from delve.maiden import effects
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.helpers import act, ctx, new_game, to_move


def _arcana(ops: tuple[dict[str, object], ...], timing: str = "any"):  # type: ignore[no-untyped-def]
    areas = dict(CONTENT.areas)
    areas["a3"] = msgspec.structs.replace(areas["a3"], arcana=ops, arcana_timing=timing)
    return msgspec.structs.replace(CONTENT, areas=areas)


def test_who_choose_lets_the_player_name_the_maiden() -> None:
    r, g = new_game(3, start_player=0, content=_arcana(({"op": "heal", "amount": 2, "who": "choose"},)))
    to_move(r, g, wil=1)
    g.arcana.append("a3")
    g.maidens[2].life = 1
    uses = [c for c in r.legal_commands(g, 1) if c["kind"] == "use_arcana"]
    assert uses == [{"kind": "use_arcana", "area": "a3", "seat": s} for s in range(3)]
    r.apply(g, 1, {"kind": "use_arcana", "area": "a3", "seat": 2}, g.clock)
    assert g.maidens[2].life == 3 and g.maidens[0].life == 6


def test_a_choice_form_without_a_target_and_unknown_ops_are_not_offered() -> None:
    """boss = choose_engaged with no boss engaged has nothing to pick: not offered; an op without
    an implementation is not ``supported``."""
    r, g = new_game(content=_arcana(({"op": "boss_damage", "boss": "choose_engaged", "amount": 1},)))
    to_move(r, g, wil=1)
    g.arcana.append("a3")
    assert not [c for c in r.legal_commands(g, 0) if c["kind"] == "use_arcana"]
    assert effects.supported([{"op": "boss_damage", "boss": "imp"}])
    assert effects.supported([{"op": "swap_colours"}, {"op": "near_pair"}])
    assert not effects.supported([{"op": "no_such_op"}])


def test_automatic_effects_skip_and_report_unimplemented_ops() -> None:
    r, g = new_game()
    to_move(r, g, wil=1)
    c = ctx(r, g)
    g.maidens[0].life = 3
    effects.run(
        c,
        [{"op": "no_such_op", "count": 3}, {"op": "heal", "amount": 1}],
        "event",
        {},
        actor=g.maidens[0],
        strict=False,
    )
    assert [e.kind for e in c.events][:1] == ["effect.unsupported"] and g.maidens[0].life == 4


def test_who_targets_all_others_area() -> None:
    r, g = new_game(3, start_player=0)
    to_move(r, g, wil=1)
    c = ctx(r, g)
    g.maidens[1].room = "a1_1"
    g.maidens[0].room = "a1_2"
    for m in g.maidens:
        m.life = 3
    effects.run(c, [{"op": "heal", "amount": 1, "who": "area"}], "t", {}, actor=g.maidens[0])
    assert [m.life for m in g.maidens] == [4, 4, 3]
    effects.run(c, [{"op": "damage", "amount": 1, "who": "others"}], "t", {}, actor=g.maidens[0])
    assert [m.life for m in g.maidens] == [4, 3, 2]
    effects.run(
        c, [{"op": "dl", "delta": -5}, {"op": "heal", "amount": "dl", "who": "all"}], "t", {}, actor=g.maidens[0]
    )
    assert g.danger_level == 1 and [m.life for m in g.maidens] == [5, 4, 3]


def test_learn_skill_for_several_and_map_ops() -> None:
    r, g = new_game(2, start_player=0)
    to_move(r, g, wil=1)
    c = ctx(r, g)
    before = [len(m.skills) for m in g.maidens]
    effects.run(
        c,
        [{"op": "learn_skill", "who": "all"}, {"op": "add_edge", "a": "a1_1", "b": "a2_1"}],
        "t",
        {},
        actor=g.maidens[0],
    )
    assert [len(m.skills) for m in g.maidens] == [b + 1 for b in before]
    assert ["a1_1", "a2_1"] in g.extra_edges
    effects.run(
        c,
        [{"op": "room_type", "room": "a1_1", "to": "rest"}, {"op": "reveal_passage", "passage": "hid"}],
        "t",
        {},
        actor=g.maidens[0],
    )
    assert g.room_types == {"a1_1": "rest"} and g.revealed_passages == ["hid"]
    effects.run(
        c,
        [{"op": "boss_damage", "boss": "warden", "amount": 1}, {"op": "add_quest", "number": 2}],
        "t",
        {},
        actor=g.maidens[0],
    )
    assert g.bosses["warden"].life_delta == -1 and "q_lost" in g.decks.quest
    act(r, g, "move", to="a1_1")


def test_an_op_can_suspend_for_a_choice_and_resume() -> None:
    """The hook for ops that let "the player pick": push a ``choose`` decision carrying the op and
    the rest; the chosen option comes back as a param and the rest of the ops run afterwards."""
    from delve.maiden.state import Decision

    def pick_amount(c, op, actor, params, rest, source):  # type: ignore[no-untyped-def]
        if "amount" not in params:
            c.state.pending.append(
                Decision(
                    kind="choose",
                    seat=actor.seat,
                    options=[1, 2, 3],
                    data={"for": "effect", "param": "amount", "actor": actor.seat},
                    ops=[dict(op), *rest],
                    source=source,
                )
            )
            return True
        actor.life -= int(params["amount"])
        return False

    import pytest

    mp = pytest.MonkeyPatch()
    mp.setitem(effects._HANDLERS, "test_pick", pick_amount)
    try:
        r, g = new_game()
        to_move(r, g, wil=1)
        c = ctx(r, g)
        effects.run(c, [{"op": "test_pick"}, {"op": "dl", "delta": 2}], "test", {}, actor=g.maidens[0])
        assert g.pending[0].kind == "choose" and g.danger_level == 1
        assert r.legal_commands(g, 0) == [{"kind": "choose", "option": i} for i in range(3)]
        act(r, g, "choose", option=2)
        assert g.maidens[0].life == 3 and g.danger_level == 3
    finally:
        mp.undo()


def test_automatic_who_choose_asks_the_acting_player() -> None:
    """An event with ``who = choose`` does not pick silently: the acting player names the maiden."""
    r, g = new_game(2, start_player=0)
    to_move(r, g, wil=1)
    c = ctx(r, g)
    g.maidens[1].life = 2
    effects.run(
        c,
        [{"op": "heal", "amount": 3, "who": "choose"}, {"op": "dl", "delta": 1}],
        "event",
        {},
        actor=g.maidens[0],
        strict=False,
    )
    assert g.pending[0].kind == "choose" and g.pending[0].options == [0, 1] and g.danger_level == 1
    act(r, g, "choose", option=1)
    assert g.maidens[1].life == 5 and g.danger_level == 2
