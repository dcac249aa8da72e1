"""What each defense choice leads to, shown before it is chosen (FL-DEF-1..7, matrix §10.3,
FL-ATK-9..17): the seat's view lists, for every legal defense command, the damage, the HP left,
the special part, the CP paid, what a counter does and what happens to a trap. Every test here
plays the choice afterwards and checks that the engine did exactly what was shown."""

from __future__ import annotations

from typing import Any

import pytest

from delve.fated import combat
from delve.fated import state as fstate
from delve.fated.death import REVIVED_HP
from delve.fated.state import DEAD, DEFENSE, Pending, Status, Trap
from delve.kernel import Rng

from .cardkit import arena
from .playout import RULESET, new_playout, step
from .scenario import Scenario

DEFENSE_KINDS = frozenset({"defend", "no_defense", "parry", "accept_pass_by", "decline_pass_by"})


def defending(g: Scenario, seat: int) -> dict[str, Any]:
    return g.view(seat)["you"]["defending"]


def choice_for(g: Scenario, seat: int, kind: str, card_kind: str | None = None) -> dict[str, Any]:
    for choice in defending(g, seat)["choices"]:
        if choice["kind"] == kind and (card_kind is None or choice.get("card_kind") == card_kind):
            return choice
    raise AssertionError(f"no {kind} {card_kind} among {defending(g, seat)['choices']}")


def command_of(choice: dict[str, Any]) -> dict[str, Any]:
    return {k: choice[k] for k in ("kind", "card") if k in choice}


def attacked(g: Scenario, seat: int, *, row: str, power: int, source: int = 0, special: str | None = None, **kw: Any):
    use = kw.pop("use", row.rsplit("_", 1)[1] if row != "terrain" else None)
    item = combat.attack_item(g.ctx, row=row, power=power, source=source, label=kw.pop("label", use), use=use, **kw)
    item.special = special
    combat.queue(g.ctx, g.p(seat), item)
    g.start_turn(seat)
    assert g.p(seat).phase == DEFENSE
    return item


def play_shown(g: Scenario, seat: int, choice: dict[str, Any]) -> dict[str, Any]:
    """Play the choice; check the HP and CP it showed; return the defense.result event's data."""
    player = g.p(seat)
    hp, cp = player.hp, player.cp
    events = g.play(seat, command_of(choice))
    if choice.get("death_check"):
        assert player.hp in (0, REVIVED_HP) or player.phase == DEAD
    elif "hp" in choice:
        assert player.hp == choice["hp"] == hp - choice["damage"]
    else:
        assert player.hp == hp
    if choice.get("special") != "cp_drain":
        assert cp - player.cp == choice.get("cp", 0)
    results = [e.data for e in events if e.kind == "defense.result" and e.data["defender"] == seat]
    return results[0] if results else {}


def test_no_defense_shows_the_damage_left_after_base_defense_FL_DEF_2():
    """FL-DEF-2, FL-ATK-11: "don't use a card" shows D = power − base defense and the HP left."""
    g = arena()
    attacked(g, 0, row="dmg_adjacent", power=30, source=1, label="normal", use=None)
    shown = defending(g, 0)
    assert shown["power"] == 30 and shown["defense"] == g.p(0).defense
    choice = choice_for(g, 0, "no_defense")
    assert choice["damage"] == 30 - g.p(0).defense and choice["reduction"] == g.p(0).defense
    assert choice["result"] == "hit" and "special" not in choice
    report = play_shown(g, 0, choice)
    assert report["damage"] == choice["damage"]


def test_no_defense_receives_a_special_attack_as_is_FL_DEF_2():
    """FL-DEF-2, FL-ATK-10: a special attack card is received in full without a card."""
    g = arena()
    attacked(g, 0, row="sp_remote", power=0, source=1, special="blind")
    choice = choice_for(g, 0, "no_defense")
    assert choice["special"] == "blind" and choice["damage"] == 0 and "reduction" not in choice
    report = play_shown(g, 0, choice)
    assert report["special"] == "blind" and g.p(0).has("blind")


@pytest.mark.parametrize(
    ("card", "row", "power", "special"),
    [
        ("defense-10", "dmg_adjacent", 30, None),
        ("defense-10", "dmgsp_remote", 30, "hp_poison"),
        ("defense-20", "dmgsp_adjacent", 20, "blind"),  # damage 0: the special part does not land
        ("special-defense", "dmgsp_remote", 30, "stripped"),
        ("special-defense", "sp_adjacent", 0, "sluggish"),
        ("complete-defense", "dmgsp_remote", 40, "hp_poison"),
        ("complete-defense", "terrain", 25, None),
        ("drag-along", "dmgsp_adjacent", 25, "blind"),
    ],
)
def test_each_defense_card_shows_what_it_does_FL_DEF_1(card, row, power, special):
    """FL-DEF-1, FL-ATK-9 (tri: the special lands only if D ≥ 1), FL-ATK-13 (special defense
    blocks the special part only), FL-ATK-14 (complete defense): the shown damage, HP, CP and
    special part are what the engine then applies."""
    g = arena()
    g.set_hand(0, card)
    attacked(g, 0, row=row, power=power, source=1, special=special)
    choice = choice_for(g, 0, "defend", card)
    report = play_shown(g, 0, choice)
    assert report.get("damage", 0) == choice["damage"]
    assert report.get("special") == choice.get("special")
    if special and choice.get("special"):
        assert g.p(0).has(special)
    elif special:
        assert not g.p(0).has(special)
    if card == "defense-20":
        assert choice["damage"] == 0 and "special" not in choice  # FL-ATK-9, AMB-26
    if card == "complete-defense":
        assert choice["result"] == "blocked" and choice["damage"] == 0


def test_ironwall_and_stripped_multiply_the_shown_damage_FL_ATK_11():
    """FL-ATK-11: the multiplier is shown and its floor(max(0, B − R) × m) is what HP loses."""
    for status, expected in (("ironwall", [1, 2]), ("stripped", [3, 2])):
        g = arena()
        g.p(0).statuses = [Status(id=status, turns=5)]
        attacked(g, 0, row="dmg_remote", power=33, source=1)
        assert defending(g, 0)["damage_ratio"] == expected
        choice = choice_for(g, 0, "no_defense")
        assert choice["damage"] == (33 - g.p(0).defense) * expected[0] // expected[1]
        play_shown(g, 0, choice)


def test_a_deadly_hit_says_a_death_check_follows_FL_DEF_2():
    """FL-DEF-2, FL-DEATH-1: when the damage takes HP to 0 the choice says so (the check itself
    is a roll not made yet)."""
    g = arena()
    g.p(0).hp = 10
    attacked(g, 0, row="dmg_remote", power=50, source=1)
    choice = choice_for(g, 0, "no_defense")
    assert choice["hp"] == 0 and choice["death_check"] is True
    play_shown(g, 0, choice)


def test_parry_shows_a_nullified_remote_attack_for_20_cp_FL_DEF_3():
    """FL-DEF-3, FL-ATK-17: the warrior's parry costs 20 CP and nothing gets through."""
    g = arena()
    attacked(g, 1, row="dmgsp_remote", power=40, source=0, special="hp_poison")
    choice = choice_for(g, 1, "parry")
    assert (choice["cp"], choice["damage"], choice["result"]) == (combat.ABILITY_CP, 0, "blocked")
    report = play_shown(g, 1, choice)
    assert report["outcome"] == "blocked" and not g.p(1).has("hp_poison")


def test_counters_show_where_the_attack_goes_FL_DEF_1():
    """FL-DEF-1, FL-ATK-16, AMB-30: Counter returns the attack to its source (named), Deflect
    sends it to a player picked at random (said, not guessed); the defender takes nothing."""
    g = arena()
    g.set_hand(0, "counter", "deflect")
    attacked(g, 0, row="dmg_remote", power=30, source=1)
    back = choice_for(g, 0, "defend", "counter")
    on = choice_for(g, 0, "defend", "deflect")
    assert (back["result"], back["counter"], back["to"]) == ("reflected", "return", 1)
    assert (on["result"], on["counter"], on["random"]) == ("reflected", "redirect", True) and "to" not in on
    play_shown(g, 0, back)
    assert [(i.source, i.power, i.reflected) for i in g.p(1).pending] == [(0, 30, True)]


def test_pass_by_choices_say_swap_or_stay_FL_DEF_4_FL_DEF_5():
    """FL-DEF-4, FL-DEF-5: accepting swaps the two players, declining leaves both in place."""
    for kind, result in (("accept_pass_by", "swap"), ("decline_pass_by", "refuse")):
        g = arena()
        mine, theirs = g.p(0).pos, g.p(1).pos
        request = Pending(
            id=g.state.new_id(),
            kind="pass_by",
            created=g.now,
            source=1,
            label="pass_by",
            tile=theirs,
            target_tile=mine,
        )
        combat.queue(g.ctx, g.p(0), request)
        g.start_turn(0)
        choice = choice_for(g, 0, kind)
        assert choice == {"kind": kind, "result": result}
        g.play(0, command_of(choice))
        swapped = (g.p(0).pos, g.p(1).pos) == (theirs, mine)
        assert swapped is (result == "swap")


def test_trap_choices_show_what_happens_to_the_trap_FL_DEF_1():
    """FL-DEF-1, FL-ATK-15, FL-TRAP-6: a trap countermeasure nullifies; the trap disappears,
    stays or becomes the defender's as shown; no defense takes the trap's damage."""
    for card, fate in (
        ("trap-disarm", "removed"),
        ("trap-sidestep", "stays"),
        ("trap-seize", "seized"),
        (None, "removed"),
    ):
        g = arena()
        if card:
            g.set_hand(0, card)
        tile = g.p(0).pos
        g.state.traps[tile] = Trap(card="attack-20", setter=2)
        item = combat.attack_item(
            g.ctx,
            kind="trap",
            row="dmg_trap",
            power=20,
            source=2,
            label="trap",
            card=g.ctx.content.cards["attack-20"],
            use="trap",
            tile=tile,
        )
        combat.queue(g.ctx, g.p(0), item)
        g.start_turn(0)
        choice = choice_for(g, 0, "defend" if card else "no_defense", card)
        assert choice["trap"] == fate
        play_shown(g, 0, choice)
        trap = g.state.traps.get(tile)
        assert {"removed": trap is None, "stays": trap is not None and trap.setter == 2}.get(
            fate, trap is not None and trap.setter == 0
        )


def test_a_trap_item_never_names_its_setter_FL_DEF_7():
    """FL-DEF-7, FL-INFO-3: the trap's choices, like the item, say nothing of who set it; and no
    other seat sees the defender's choices."""
    g = arena()
    g.set_hand(0, "trap-disarm", "complete-defense")
    item = combat.attack_item(
        g.ctx,
        kind="trap",
        row="dmg_trap",
        power=20,
        source=2,
        label="trap",
        card=g.ctx.content.cards["attack-20"],
        use="trap",
        tile=g.p(0).pos,
    )
    combat.queue(g.ctx, g.p(0), item)
    g.start_turn(0)
    shown = defending(g, 0)
    assert "source" not in shown and all("to" not in c for c in shown["choices"])
    for seat in (1, 2, 3, None):
        assert "choices" not in str(g.view(seat))


def test_steal_choices_say_stolen_blocked_or_nothing_AMB_29_FL_DEF_1():
    """FL-DEF-1, FL-CORE-9, AMB-29: without a card a random card is stolen (the pick is a draw
    not made yet); special defense stops it; an empty hand loses nothing."""
    g = arena()
    g.set_hand(0, "special-defense", "attack-10")
    item = combat.attack_item(g.ctx, kind="steal", row="sp_adjacent", power=0, source=3, label="steal")
    combat.queue(g.ctx, g.p(0), item)
    g.start_turn(0)
    assert choice_for(g, 0, "no_defense") == {
        "kind": "no_defense",
        "method": "none",
        "cp": 0,
        "result": "stolen",
        "random": True,
    }
    blocked = choice_for(g, 0, "defend", "special-defense")
    assert blocked["result"] == "blocked"
    report = play_shown(g, 0, blocked)
    assert report["outcome"] == "blocked" and len(g.p(0).hand) == 1


def test_every_shown_choice_is_what_the_engine_does_in_playouts_FL_DEF_1_FL_DEF_2_FL_DEF_3():
    """FL-DEF-1..5: in random games of both presets, at every defense phase, each shown choice
    is played on a copy of the game: the HP, CP and outcome are exactly the ones shown."""
    checked = 0
    for preset, seed in (("fated-labyrinth", 21), ("level-d", 22), ("fated-labyrinth", 23)):
        playout = new_playout(preset, seed, players=4)
        rng = Rng.seeded(seed)
        while playout.commands < 500 and step(playout, rng, check=False):
            for player in playout.state.players:
                if player.phase != DEFENSE or not player.pending:
                    continue
                shown = RULESET.view(playout.state, player.seat)["you"]["defending"]
                offered = [c for c in RULESET.legal_commands(playout.state, player.seat) if c["kind"] in DEFENSE_KINDS]
                assert [command_of(c) for c in shown["choices"]] == offered
                for choice in shown["choices"]:
                    copy = fstate.decode(fstate.encode(playout.state))
                    me = copy.players[player.seat]
                    hp, cp = me.hp, me.cp
                    events = RULESET.apply(copy, player.seat, command_of(choice), playout.now)
                    if "hp" in choice:
                        if choice.get("death_check"):
                            assert me.hp in (0, REVIVED_HP) or not me.alive
                        else:
                            assert me.hp == choice["hp"], (choice, shown)
                    else:
                        assert me.hp == hp, (choice, shown)
                    if choice.get("special") != "cp_drain" and choice["kind"] != "accept_pass_by":
                        assert cp - me.cp == choice.get("cp", 0), (choice, shown)
                    results = [
                        e.data for e in events if e.kind == "defense.result" and e.data["defender"] == player.seat
                    ]
                    if results:
                        # the log's word: a steal from an empty hand is "stolen" (of nothing); Drag
                        # Along "reflected" (the choice says what reaches the defender: "hit")
                        said = {"nothing": "stolen"}.get(choice["result"], choice["result"])
                        said = "reflected" if choice.get("counter") == "both" else said
                        assert results[0]["outcome"] == said, (choice, results[0])
                        assert results[0].get("damage", 0) == choice.get("damage", 0)
                        assert results[0].get("special") == choice.get("special")
                    checked += 1
    assert checked >= 20, f"only {checked} defense choices met in the playouts"
