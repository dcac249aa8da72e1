"""Status effects (FL-STS-1..19): kinds, who they work on, durations, opposites in both presets,
re-application, and what each status does, applied through the cards that give them."""

from __future__ import annotations

from delve.fated import clock, combat, content, death, effects, statuses, visibility
from delve.fated.state import Status

from .cardkit import arena, card_command, has_use, place_trap, use

DATA = content.load()
PLUS = {"ironwall", "nimble", "sage", "haste", "light", "insight", "float", "stealth", "keen_ear"}
MINUS = {"hp_poison", "cp_poison", "stripped", "sluggish", "fool", "blind", "exposed", "paralysis"}


def next_turn(game, seat: int) -> None:
    """Run the clock to the seat's next accumulation instant: its turn-start event fires."""
    player = game.p(seat)
    assert player.phase == "wait"
    game.tick(max(1, clock.accumulation_at(game.state, player, player.acc_next) - game.now))
    assert player.phase == "ready"


def hit_with(game, attacker: int, kind: str, target: int) -> None:
    """``attacker`` uses ``kind`` remote on ``target``, who takes it with no defense."""
    game.to_core(attacker)
    use(game, attacker, kind, use="remote", target=target)
    game.start_turn(target)
    game.play(target, {"kind": "no_defense"})


def test_plus_and_minus_statuses_FL_STS_1():
    """FL-STS-1: the 9 plus and 8 minus statuses of §11."""
    assert {s.id for s in DATA.statuses.values() if s.kind == "plus"} == PLUS
    assert {s.id for s in DATA.statuses.values() if s.kind == "minus"} == MINUS


def test_who_statuses_work_on_FL_STS_2_FL_STS_3():
    """FL-STS-2: Ironwall, Nimble, Haste, HP Poison, Stripped, Sluggish (and Paralysis only)
    work on monsters. FL-STS-3, AMB-35: a status that does not work is not recorded, and the
    card is still spent."""
    assert {s.id for s in DATA.statuses.values() if s.monsters} == {
        "ironwall",
        "nimble",
        "haste",
        "hp_poison",
        "stripped",
        "sluggish",
        "paralysis",
    }
    game = arena()
    game.to_core(0)
    use(game, 0, "summon-zombie", dir="up")
    game.to_core(1)
    game.p(1).pos = game.at(2, 1)  # next to the zombie at (2, 2)
    game.state.monsters[0].evasion = 0
    discard = len(game.state.discard)
    use(game, 1, "fool", use="adjacent", dir="down")  # Fool does not work on monsters
    assert game.state.monsters[0].statuses == [] and len(game.state.discard) == discard + 1
    game.to_core(1)
    use(game, 1, "stripped", use="adjacent", dir="down")
    assert [s.id for s in game.state.monsters[0].statuses] == ["stripped"]
    assert not statuses.works_on(game.ctx, "paralysis", game.p(0))
    assert not statuses.apply(game.ctx, game.p(0), "paralysis") and not game.p(0).has("paralysis")


def test_poisons_last_until_cured_FL_STS_4():
    """FL-STS-4: HP Poison and CP Poison never wear off; only the cards that name them cure them."""
    game = arena()
    hit_with(game, 0, "hp-poison", 1)
    game.play(1, {"kind": "stay"})
    game.play(1, {"kind": "nothing"})
    for _ in range(12):
        next_turn(game, 1)
        game.play(1, {"kind": "start_turn"})
        game.play(1, {"kind": "stay"})
        if _ < 11:
            game.play(1, {"kind": "nothing"})
    assert game.p(1).has("hp_poison") and game.p(1).hp == 120 - 12 * 2
    use(game, 1, "remedy")  # the timed-status cure does not touch poison
    assert game.p(1).has("hp_poison")
    game.to_core(1)
    use(game, 1, "antidote")
    assert not game.p(1).has("hp_poison")


def test_other_statuses_wear_off_after_7_turn_starts_FL_STS_5():
    """FL-STS-5, AMB-31: counter 7, minus 1 at each turn-start event, removed at 0 (before
    the turn's phases)."""
    game = arena()
    game.to_core(1)
    use(game, 1, "nimble")
    for remaining in range(6, 0, -1):
        next_turn(game, 1)
        assert game.p(1).status("nimble").turns == remaining
        game.to_core(1)
        game.play(1, {"kind": "nothing"})
    next_turn(game, 1)
    assert not game.p(1).has("nimble")
    assert any(e.kind == "status.expired" and e.to == (1,) for e in game.events)


def test_priest_plus_statuses_last_10_FL_STS_6():
    """FL-STS-6: a plus status on a Priest lasts 10 turns, a minus status 7."""
    game = arena(["explorer", "priest", "warrior", "thief"])
    game.to_core(1)
    use(game, 1, "haste")
    assert game.p(1).status("haste").turns == 10
    hit_with(game, 0, "fool", 1)
    assert game.p(1).status("fool").turns == 7


def test_statuses_on_monsters_are_permanent_FL_STS_7():
    """FL-STS-7: a status on a monster never counts down."""
    game = arena()
    game.to_core(0)
    use(game, 0, "summon-golem", dir="up")
    game.to_core(0)
    use(game, 0, "frenzy", monster=game.state.monsters[0].id)
    assert game.state.monsters[0].statuses == [Status(id="haste", turns=0)]
    next_turn(game, 0)
    assert game.state.monsters[0].statuses == [Status(id="haste", turns=0)]


def test_opposite_pairs_FL_STS_8_and_others_coexist_FL_STS_9():
    """FL-STS-8: exactly five opposite pairs. FL-STS-9: non-opposites coexist."""
    pairs = {frozenset((s.id, s.opposite)) for s in DATA.statuses.values() if s.opposite}
    assert pairs == {
        frozenset(p)
        for p in (
            ("ironwall", "stripped"),
            ("nimble", "sluggish"),
            ("sage", "fool"),
            ("light", "blind"),
            ("stealth", "exposed"),
        )
    }
    game = arena()
    game.to_core(0)
    use(game, 0, "blessing")
    game.to_core(0)
    use(game, 0, "float")
    assert {s.id for s in game.p(0).statuses} == {"ironwall", "nimble", "float"}


def test_re_application_strengthens_poison_and_extends_others_FL_STS_10():
    """FL-STS-10, AMB-32/33: poison strength +1 per application (2, 4, ...); Deadly Poison
    applies it twice; other statuses get +7 turns."""
    game = arena()
    hit_with(game, 0, "hp-poison", 1)
    hit_with(game, 2, "hp-poison", 1)
    assert game.p(1).status("hp_poison").strength == 2
    assert statuses.poison_loss(game.ctx, game.p(1), "hp_poison") == 4
    hit_with(game, 3, "deadly-poison", 1)
    assert game.p(1).status("hp_poison").strength == 4
    hit_with(game, 0, "blind", 2)
    hit_with(game, 3, "blind", 2)
    assert game.p(2).status("blind").turns == 14


def test_opposite_replaces_in_fated_labyrinth_FL_STS_11():
    """FL-STS-11 (spec T-8): Ironwall, then Stripped: only Stripped remains (x1.5); and a plus
    status removes one's own minus status at once."""
    game = arena()
    game.to_core(1)
    use(game, 1, "ironwall")
    hit_with(game, 0, "stripped", 1)
    assert [s.id for s in game.p(1).statuses] == ["stripped"]
    assert statuses.damage_multiplier(game.ctx, game.p(1)) == 1.5
    game.play(1, {"kind": "stay"})
    use(game, 1, "transmute")  # its utility use: Ironwall replaces Stripped
    assert [s.id for s in game.p(1).statuses] == ["ironwall"] and game.p(1).status("ironwall").turns == 7


def test_level_d_opposite_cancels_the_earlier_status_and_keeps_it_listed_FL_STS_12():
    """FL-STS-12, AMB-34 (revised): in Level D the earlier status's effect is gone exactly as in
    FL-STS-11, but its name stays listed, marked cancelled; only the later one works."""
    game = arena(preset="level-d")
    player = game.p(1)
    for a, b in (("ironwall", "stripped"), ("nimble", "sluggish"), ("sage", "fool"), ("light", "blind")):
        statuses.apply(game.ctx, player, a)
        statuses.apply(game.ctx, player, b)
    statuses.apply(game.ctx, player, "exposed")
    statuses.apply(game.ctx, player, "stealth")
    assert len(player.statuses) == 10
    cancelled = {s.id for s in player.statuses if s.cancelled}
    assert cancelled == {"ironwall", "nimble", "sage", "light", "exposed"}
    ctx = game.ctx
    assert statuses.damage_multiplier(ctx, player) == 1.5  # Stripped alone, not x0.75
    assert statuses.evasion(ctx, player) == 0  # Sluggish alone
    assert statuses.cp_factor(ctx, player) == 2  # Fool alone
    assert statuses.sight_radius(ctx, player) == 2 - 1 + (1 if player.cls in {"cat", "ninja"} else 0)
    assert statuses.hidden_by_stealth(ctx, player) and not statuses.exposed(ctx, player)
    listed = game.view(1)["players"][1]["statuses"]
    assert {s["id"] for s in listed if s.get("cancelled")} == cancelled  # FL-STS-19: both listed
    assert all(not s.get("cancelled") for s in listed if s["id"] not in cancelled)


def test_level_d_cancelled_status_keeps_its_duration_and_never_revives_FL_STS_12():
    """FL-STS-12: the cancelled status runs out on its own clock; it does not come back when the
    later one ends or is cured."""
    game = arena(preset="level-d")
    player = game.p(1)
    statuses.apply(game.ctx, player, "ironwall")
    player.status("ironwall").turns = 3
    statuses.apply(game.ctx, player, "stripped")
    assert player.status("ironwall").turns == 3 and player.status("stripped").turns == 7
    statuses.remove(player, "stripped")
    assert not statuses.active(player, "ironwall", game.ctx)  # never revives
    assert statuses.damage_multiplier(game.ctx, player) == 1
    for _ in range(3):
        statuses.countdown(game.ctx, player)
    assert player.status("ironwall") is None  # gone with its own duration


def test_level_d_reapplying_a_cancelled_status_reactivates_it_FL_STS_12():
    """FL-STS-12: re-applying A while it is listed as cancelled makes it active again (a fresh
    duration) and cancels B in turn; FL (replace) lists only the later one."""
    game = arena(preset="level-d")
    player = game.p(1)
    statuses.apply(game.ctx, player, "nimble")
    statuses.apply(game.ctx, player, "sluggish")
    player.status("nimble").turns = 2
    statuses.apply(game.ctx, player, "nimble")
    assert not player.status("nimble").cancelled and player.status("nimble").turns == 7
    assert player.status("sluggish").cancelled
    assert statuses.evasion(game.ctx, player) == min(100, player.evasion + 20)
    assert [s.id for s in player.statuses] == ["nimble", "sluggish"]  # no duplicate entry
    fated = arena()
    other = fated.p(1)
    statuses.apply(fated.ctx, other, "nimble")
    statuses.apply(fated.ctx, other, "sluggish")
    assert [s.id for s in other.statuses] == ["sluggish"]  # FL-STS-11


def test_hp_poison_ticks_at_turn_start_ignoring_defense_and_can_kill_FL_STS_14(monkeypatch):
    """FL-STS-14, AMB-72: -2 x strength at the turn-start event, not reduced by Ironwall; at 0
    the death check applies."""
    game = arena()
    hit_with(game, 0, "hp-poison", 1)
    game.play(1, {"kind": "stay"})
    use(game, 1, "ironwall")
    next_turn(game, 1)
    assert game.p(1).hp == 118
    game.p(1).hp = 2
    game.to_core(1)
    game.play(1, {"kind": "nothing"})
    player = game.p(1)
    monkeypatch.setattr(death, "DEATH_CHECK_SUCCESS", (0, 1))  # the death check fails
    game.tick(clock.accumulation_at(game.state, player, player.acc_next) - game.now)
    assert not player.alive
    died = [e.data for e in game.events if e.kind == "player.died"]
    assert died[-1]["cause"] == "poison" and died[-1]["credited"] == [0, 2, 3]  # FL-KILL-5


def test_cp_poison_ticks_but_never_below_zero_FL_STS_15():
    """FL-STS-15: CP -2 x strength at each turn-start event, not below 0."""
    game = arena()
    hit_with(game, 0, "cp-poison", 1)
    game.play(1, {"kind": "stay"})
    game.play(1, {"kind": "nothing"})
    game.p(1).cp = 1
    next_turn(game, 1)
    assert game.p(1).cp == 0


def test_haste_gives_one_more_move_phase_FL_STS_16():
    """FL-STS-16: with Haste the move-phase count is M + 1, fixed at the start of move phase 1."""
    game = arena()
    game.to_core(0)
    use(game, 0, "haste")
    game.start_turn(0)
    assert game.p(0).moves_total == 4
    for _ in range(4):
        assert game.p(0).phase == "move"
        game.play(0, {"kind": "move", "dir": "up" if game.p(0).pos >= game.at(0, 1) else "right"})
    assert game.p(0).phase == "core"


def test_light_blind_insight_float_keen_ear_exposed_FL_STS_17():
    """FL-STS-17: Light/Blind change the sight radius; Insight learns enemy traps and fakes in
    sight for good; Float never triggers traps or slips; Keen Ear shows every monster; Exposed
    shows the player on every map."""
    game = arena(["explorer", "warrior", "priest", "thief"])
    ctx = game.ctx
    statuses.apply(ctx, game.p(0), "light")
    statuses.apply(ctx, game.p(2), "blind")
    assert statuses.sight_radius(ctx, game.p(0)) == 3 and statuses.sight_radius(ctx, game.p(2)) == 1
    trap = place_trap(game, 2, 5, "attack-20", setter=3)
    game.to_core(0)
    use(game, 0, "insight")
    assert visibility.knows_trap(game.state, 0, trap)
    game.p(0).statuses = []
    visibility.refresh(game.ctx)
    assert visibility.knows_trap(game.state, 0, trap)  # knowledge stays after Insight ends

    game = arena(["explorer", "warrior", "priest", "thief"])
    place_trap(game, 2, 4, "attack-40", setter=3)
    game.state.grid = game.state.grid[: game.at(2, 5)] + "~" + game.state.grid[game.at(2, 5) + 1 :]
    game.to_core(0)
    use(game, 0, "float")
    game.start_turn(0)
    game.play(0, {"kind": "move", "dir": "down"})  # onto the trap: nothing
    game.play(0, {"kind": "move", "dir": "down"})  # onto ice: no slip
    assert game.p(0).pos == game.at(2, 5) and game.p(0).hp == 120 and game.p(0).phase == "move"

    game = arena()
    game.to_core(3)
    use(game, 3, "summon-slime", dir="up")
    monster_id = game.state.monsters[0].id
    assert monster_id not in {c.get("id") for c in game.view(0)["characters"]}
    statuses.apply(game.ctx, game.p(0), "keen_ear")
    assert monster_id in {c.get("id") for c in game.view(0)["characters"]}
    hit_with(game, 1, "exposed", 3)
    assert 3 in {c.get("seat") for c in game.view(0)["characters"]}


def test_stealth_hides_status_and_blocks_designation_but_not_adjacent_FL_STS_18():
    """FL-STS-18, AMB-37: others see no status of a stealthy player, and no card can designate
    them (remote uses, player-target cards); adjacent uses and area effects still reach them."""
    game = arena()
    game.to_core(1)
    use(game, 1, "stealth")
    entry = game.view(0)["players"][1]
    assert entry.get("hidden") and "hp" not in entry and "statuses" not in entry
    assert "statuses" in game.view(1)["players"][1]
    game.to_core(0)
    game.set_hand(0, "attack-20", "peek", "quake")
    assert not has_use(game, 0, "attack-20", use="remote", target=1)
    assert not has_use(game, 0, "peek", target=1)
    assert has_use(game, 0, "attack-20", use="adjacent", dir="right")
    game.play(0, card_command(game, 0, "quake"))
    assert game.p(1).pending and game.p(1).pending[0].row == "terrain"


def test_status_panel_lists_plus_and_minus_FL_STS_19():
    """FL-STS-19: the own panel lists current statuses with their kind (plus light blue, minus
    red) and turns left; others see the names unless under Stealth."""
    game = arena()
    game.to_core(1)
    use(game, 1, "haste")
    hit_with(game, 0, "blind", 1)
    own = game.view(1)["players"][1]["statuses"]
    assert {(s["id"], s["kind"]) for s in own} == {("haste", "plus"), ("blind", "minus")}
    assert all("turns" in s for s in own)
    other = game.view(2)["players"][1]["statuses"]
    assert {s["id"] for s in other} == {"haste", "blind"} and not any("turns" in s for s in other)


def test_special_effects_are_not_statuses_and_do_nothing_to_monsters_AMB_35():
    """FL-STS-13, FL-ATK-3: special attacks are minus statuses or instant special effects; a
    special effect on a monster does nothing (AMB-35)."""
    for card in DATA.cards.values():
        if card.special is not None:
            assert card.special in effects.SPECIAL_EFFECTS or DATA.statuses[card.special].kind == "minus"
    game = arena()
    game.to_core(0)
    use(game, 0, "summon-zombie", dir="up")
    zombie = game.state.monsters[0]
    report = combat.hit_monster(game.ctx, 1, zombie, 0, "misfortune", label="adjacent", evadable=False)
    assert "special" not in report and zombie.statuses == []
