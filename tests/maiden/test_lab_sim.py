"""One White Maiden game for the simulation runner (delve.sim.games.maiden.play): the row's common
columns, its metrics checked against the game's own events, determinism, bad specs."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import msgspec
import pytest

from delve.bots.maiden_eval import play_game
from delve.maiden.content import Effect
from delve.sim.games.maiden import Metrics, check, play
from delve.sim.spec import GameSpec, SpecError
from tests.maiden.fixtures.content import CONTENT, text
from tests.maiden.helpers import new_game, set_dice, to_move, waiting

COMMON = ("game", "preset", "seed", "seats", "bots", "tag", "settings", "winner", "outcome", "turns", "commands")


def Spec(
    game: str,
    seed: int,
    bots: tuple[str, ...],
    preset: str | None = None,
    settings: tuple[tuple[str, Any], ...] = (),
    tag: str = "",
) -> GameSpec:
    return GameSpec(game, seed, bots, preset, settings, tag)


def test_a_row_has_the_common_columns_and_only_csv_values() -> None:
    row = play(Spec("maiden", 3, ("heuristic:will-first", "heuristic:balanced"), tag="BQ-14/2p"))
    for column in (*COMMON, "seconds"):
        assert column in row
    assert all(v is None or isinstance(v, (str, int, float, bool)) for v in row.values())
    assert row["game"] == "maiden" and row["seats"] == 2 and row["tag"] == "BQ-14/2p"
    assert row["bots"] == "heuristic:will-first,heuristic:balanced"
    assert row["outcome"] in ("won", "lost")
    assert (row["winner"] == "all") == row["won"] == (row["outcome"] == "won")
    # JSON columns decode
    for column in ("boss_rounds", "deaths_per_maiden", "dl_by_round", "dice_by_size", "reach_by_agi", "final_stats"):
        json.loads(row[column])


def test_the_same_spec_gives_the_same_row_apart_from_seconds() -> None:
    spec = Spec("maiden", 11, ("heuristic:piety-first",) * 3, settings=(("ascension_bonus", "pie"),))
    first, second = play(spec), play(spec)
    first.pop("seconds")
    second.pop("seconds")
    assert first == second
    assert json.loads(first["settings"]) == {"ascension_bonus": "pie"}


def test_the_metrics_agree_with_the_games_own_events() -> None:
    """MV-END-3 summary and the event log, counted independently of the harness."""
    bots = ("heuristic:agility-first", "heuristic:inspiration-first")
    row = play(Spec("maiden", 7, bots))
    record = play_game(2, 7, bot_names=bots, keep_events=True)
    kinds = Counter(e.kind for e in record.events)
    damage = Counter()
    for e in record.events:
        if e.kind == "maiden.damaged":
            damage[e.data["cause"]] += e.data["amount"]
    assert row["won"] == record.won and row["rounds"] == record.rounds
    assert row["commands"] == record.commands
    assert row["checks"] == kinds["check.resolved"]
    assert row["successes"] == sum(
        1 for e in record.events if e.kind == "check.resolved" and e.data["result"] == "success"
    )
    assert row["slate_damage"] == damage["slate"] and row["failure_damage"] == damage["failure"]
    assert row["deaths"] == kinds["maiden.died"] == sum(json.loads(row["deaths_per_maiden"]))
    assert row["deaths"] == record.summary["deaths"]
    assert row["bosses_defeated"] == kinds["boss.defeated"] == len(json.loads(row["boss_rounds"]))
    assert row["areas_freed"] == record.summary["areas_freed"] == kinds["area.freed"]
    assert row["quests_resolved"] == kinds["quest.drawn"]
    assert row["turns"] == kinds["turn.started"] == sum(json.loads(row["turns_by_round"]).values())
    assert row["checks"] == row["boss_checks"] + sum(c for c, _ in json.loads(row["room_checks_by_round"]).values())
    assert row["failure_damage"] == sum(json.loads(row["failure_damage_by_round"]).values())
    sizes = json.loads(row["dice_by_size"])
    assert sum(c[0] for c in sizes.values()) == kinds["check.rolled"]
    assert sum(c[2] for c in sizes.values()) == kinds["check.ascended"]
    assert all(c[1] <= c[0] for c in sizes.values())
    assert len(json.loads(row["dl_by_round"])) == row["rounds"]
    drawn = Counter()
    for e in record.events:
        if e.kind == "card.drawn":
            drawn[e.data["deck"]] += e.data["count"]
    assert json.loads(row["cards_drawn"]) == dict(drawn)
    rests = [e for e in record.events if e.kind == "maiden.entered" and e.data["type"] == "rest"]
    assert (row["first_rest_turn"] is None) == (not rests)
    if rests:
        first = rests[0].data["seat"]
        own = 0
        for e in record.events:
            if e.kind == "turn.started" and e.data["seat"] == first:
                own += 1
            if e is rests[0]:
                break
        assert row["first_rest_turn"] == own
    assert row["urza_round"] == (row["rounds"] if row["won"] else None)


def test_each_seat_follows_its_own_strategy() -> None:
    """The strategy after ':' reaches the bot: Will-first maidens reach Wil 4 before any Pie."""
    row = play(Spec("maiden", 2, ("heuristic:will-first",)))
    pie, wil, _agi, _ins = (int(x) for x in json.loads(row["final_stats"])[0].split("/"))
    assert wil == 4 or pie == 0
    row = play(Spec("maiden", 2, ("heuristic:piety-first",)))
    pie, wil, _agi, _ins = (int(x) for x in json.loads(row["final_stats"])[0].split("/"))
    assert pie == 3 or wil == 0


def test_variant_settings_and_presets_reach_the_game() -> None:
    """CHG-16 entry restrictions (white-maiden-normal preset) and CHG-4b slate damage per DL."""
    row = play(Spec("maiden", 4, ("heuristic",) * 2, preset="white-maiden-normal"))
    assert row["preset"] == "white-maiden-normal"
    assert isinstance(json.loads(row["restricted_entered"]), list)
    row = play(Spec("maiden", 4, ("random",), settings=(("slate_damage_per_die", "danger_level"),)))
    assert row["bots"] == "random"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (Spec("fated", 1, ("heuristic",)), "game"),
        (Spec("maiden", 1, ("heuristic",) * 5), "bots"),
        (Spec("maiden", 1, ("heuristic",), preset="white-maiden-hard"), "preset"),
        (Spec("maiden", 1, ("heuristic:sloth-first",)), "sloth-first"),
        (Spec("maiden", 1, ("random:fast",)), "random"),
        (Spec("maiden", 1, ("genius",)), "genius"),
    ],
)
def test_a_bad_spec_is_refused_with_its_reason_before_any_game(spec: GameSpec, message: str) -> None:
    """The runner calls check(spec) before playing anything; play refuses the same specs."""
    with pytest.raises(SpecError, match=message):
        check(spec)
    with pytest.raises(SpecError, match=message):
        play(spec)


def test_a_bad_setting_names_the_setting() -> None:
    spec = Spec("maiden", 1, ("heuristic",), settings=(("ascension_bonus", "lots"),))
    with pytest.raises(SpecError, match="settings: setting 'ascension_bonus'") as caught:
        check(spec)
    assert caught.value.argument == "settings"


def test_deaths_fights_and_rounds_by_boss_agree_with_the_games_own_events() -> None:
    """MV-DEATH-3 (a death throws her out of the boss fight), MV-BOSS-8, MV-END-2: the ``by_boss``
    column counted again from the event log: deaths in each boss's fight, joins, the fight lost
    when its last maiden died, the boss's defeat and its checks; Urza's life left at the end."""
    bots = ("heuristic:will-first",) * 2
    row = play(Spec("maiden", 1, bots))
    record = play_game(2, 1, bot_names=bots, keep_events=True)
    by_boss = json.loads(row["by_boss"])
    deaths = Counter(str(e.data["boss"]) for e in record.events if e.kind == "maiden.died" and e.data.get("boss"))
    joined = Counter(str(e.data["boss"]) for e in record.events if e.kind == "boss.joined")
    defeated = {str(e.data["boss"]) for e in record.events if e.kind == "boss.defeated"}
    assert {b: f["deaths"] for b, f in by_boss.items() if f["deaths"]} == dict(deaths)
    assert {b: f["joined"] for b, f in by_boss.items()} == dict(joined)
    assert {b for b, f in by_boss.items() if f["won"]} == defeated
    assert sum(f["deaths"] for f in by_boss.values()) == row["deaths_in_boss_fight"]
    assert sum(f["checks"] for f in by_boss.values()) == row["boss_checks"]
    assert all(f["lost"] <= f["deaths"] and f["fight_rounds"] >= 1 for f in by_boss.values())
    assert all(f["life_left"] == 0 for b, f in by_boss.items() if b in defeated)
    assert row["bosses_left"] == 10 - row["bosses_defeated"]
    assert (row["final_boss_life_left"] == 0) == row["won"]


def _all_hurt_fight(players: int):  # type: ignore[no-untyped-def]
    """A game on the fixture content whose Imp actions hurt every maiden by 1 on a success, with
    every maiden in the Imp's fight (each entered it on her own turn, the harness fed every
    command's events), the last one's boss check started; returns (ruleset, game, metrics, apply)."""
    bosses = dict(CONTENT.bosses)
    hurt = Effect("success", ({"op": "damage", "who": "all", "amount": 1},), text("every maiden loses 1 life"))
    bosses["imp"] = msgspec.structs.replace(
        bosses["imp"], actions=tuple(msgspec.structs.replace(a, effect=hurt) for a in bosses["imp"].actions)
    )
    r, g = new_game(players, content=msgspec.structs.replace(CONTENT, bosses=bosses))
    metrics = Metrics(players)
    metrics.on_command(g, 0, {}, to_move(r, g, wil=1))

    def apply(command: dict[str, Any], *faces: int) -> list[Any]:
        seat = waiting(g)
        events = r.apply(g, seat, command, g.clock)
        if faces:
            set_dice(g, *faces)
        metrics.on_command(g, seat, command, events)
        return events

    for seat in range(players):
        assert g.active_seat == seat and g.step == "move"
        apply({"kind": "move", "to": "b_imp"})
        assert g.maidens[seat].boss == "imp"
        g.bosses["imp"].life = 9  # no success of the set-up defeats it
        for m in g.maidens:
            m.life = 5
        if seat < players - 1:
            apply({"kind": "roll"}, 1, 2, 3)
            g.check.target = 99  # type: ignore[union-attr]
            g.danger_level = 0
            apply({"kind": "resolve"})
    return r, g, metrics, apply


def test_two_maidens_dying_in_one_command_lose_the_boss_fight_once_mv_death_2() -> None:
    """MV-DEATH-2 (a dead maiden leaves the boss fight, the boss keeps its damage): the Imp's action
    hurts both maidens in its fight, both at life 1, in one command (the successful check's
    resolve). Two deaths in its fight, and one lost fight: a fight is lost by a command after
    which the boss is undefeated and no maiden is in its fight, once per command however many
    of its maidens died in it. The count is read from the game after the command, not from the
    joins the harness saw: a harness that reads only this command (the fight's state built before
    it, no join seen) counts the same one lost fight."""
    _r, g, metrics, apply = _all_hurt_fight(2)
    assert [m.boss for m in g.maidens] == ["imp", "imp"]
    apply({"kind": "roll"}, 6, 6, 6)
    g.check.target = 1  # type: ignore[union-attr]
    for m in g.maidens:
        m.life = 1
    events = apply({"kind": "resolve"})
    late = Metrics(2)
    late.on_command(g, 1, {"kind": "resolve"}, events)
    assert late._by_boss(g)["imp"]["lost"] == 1 and late._by_boss(g)["imp"]["deaths"] == 2
    died = [e for e in events if e.kind == "maiden.died"]
    assert [(e.data["seat"], e.data["boss"]) for e in died] == [(0, "imp"), (1, "imp")]
    assert not g.bosses["imp"].defeated and all(m.boss is None for m in g.maidens)
    fight = metrics._by_boss(g)["imp"]
    assert fight["deaths"] == 2 and fight["lost"] == 1 and fight["joined"] == 2


def test_a_fight_with_a_maiden_left_in_it_is_not_lost_mv_death_2() -> None:
    """MV-DEATH-2: two of three maidens die in one command, the third stays in the fight: no fight
    is lost; when she dies later, alone, the fight is lost once."""
    r, g, metrics, apply = _all_hurt_fight(3)
    apply({"kind": "roll"}, 6, 6, 6)
    g.check.target = 1  # type: ignore[union-attr]
    g.maidens[0].life = g.maidens[2].life = 1
    events = apply({"kind": "resolve"})
    assert sorted(e.data["seat"] for e in events if e.kind == "maiden.died") == [0, 2]
    assert g.maidens[1].boss == "imp"
    assert metrics._by_boss(g)["imp"]["lost"] == 0
    # Alba plays her turn away from the fight; Bianca's turn is her boss check: she fails it at
    # life 1 and dies alone in the fight, which is lost then, once
    while not (g.active_seat == 1 and g.step == "pre_roll" and not g.pending):
        legal = r.legal_commands(g, waiting(g))
        apply(next(c for c in legal if c["kind"] in ("keep_card", "roll", "resolve") or c.get("to") == "a1_1"))
    assert g.check is not None and g.check.source == "imp"
    apply({"kind": "roll"}, 1, 2, 3)
    g.check.target, g.danger_level, g.maidens[1].life = 99, 1, 1
    events = apply({"kind": "resolve"})
    assert [e.data["seat"] for e in events if e.kind == "maiden.died"] == [1]
    fight = metrics._by_boss(g)["imp"]
    assert fight["deaths"] == 3 and fight["lost"] == 1


def test_checks_by_die_size_count_each_check_with_its_own_dice_and_slate_bq_2() -> None:
    """BQ-2 (pairs in play by die size): one command's events hold two checks rolled and resolved,
    then a third check started (the game after the command holds the third, unrolled, with a red
    slate). Each rolled check counts under the size of its own dice, its pair read on the dice
    that are not its own slate (the slate its check.started named), its ascension under its size:
    nothing is read from the check the game holds after the command."""
    from delve.kernel import Event
    from delve.maiden.state import Check

    _r, g = new_game(1)
    metrics = Metrics(1)

    def ev(name: str, **data: Any) -> Event:
        return Event(name, 0, data)

    events = [
        # a d6 check, blue slate: red 4 and black 4 are a pair (the blue 4 would make none alone)
        ev("check.started", seat=0, kind="room", source="r1", action=0, target=5, slate="blue", required=1),
        ev("check.rolled", seat=0, dice=[["red", 6, 4], ["blue", 6, 2], ["black", 6, 4]]),
        ev("check.ascended", seat=0, dice=[0, 2], face=4, bonus=1, onto=None),
        ev("check.resolved", seat=0, ap=5, target=5, result="success", kind="room"),
        # a d8 check, red slate: only the red die shows the 3 twice, so no pair among the others
        ev("check.started", seat=0, kind="room", source="r2", action=0, target=5, slate="red", required=1),
        ev("check.rolled", seat=0, dice=[["red", 8, 3], ["blue", 8, 5], ["black", 8, 3]]),
        ev("check.resolved", seat=0, ap=5, target=5, result="success", kind="room"),
        # a third check started, not rolled: the game holds it after the command
        ev("check.started", seat=0, kind="room", source="r3", action=0, target=5, slate=None, required=1),
    ]
    g.check = Check(kind="room", source="r3", target=5, room="a1_1", slate="red")
    metrics.on_command(g, 0, {"kind": "resolve"}, events)
    assert dict(metrics.dice) == {6: [1, 1, 1], 8: [1, 0, 0]}
    assert metrics.slate_checks == 2
