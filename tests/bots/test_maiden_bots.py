"""The White Maiden bots: they finish games at every player count choosing only legal commands,
and the heuristic bot's decisions follow the odds (MV-ASC-9 ascension, the easiest room card
under Ins, growth strategies, rest when hurt, no boss fight it is not ready for)."""

from __future__ import annotations

from typing import Any

import pytest

from delve.bots.maiden import STRATEGIES, Board, MaidenBot, RandomMaidenBot
from delve.bots.maiden_eval import Stuck, play_game, waiting_seat, wilson
from delve.maiden.ruleset import MaidenRuleset
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.helpers import enter_room_check, new_game, set_dice, set_stats, to_move

FIXTURE = MaidenRuleset(content=CONTENT)


def _legal_only(seen: list[dict[str, Any]]) -> Any:
    def check(game: Any, seat: int, command: dict[str, Any], events: list[Any]) -> None:
        seen.append(command)

    return check


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_play_complete_games_at_every_player_count(players: int, bot: str) -> None:
    """MV-END-1/2: every game ends, by the Mad King's defeat (won) or after round 24 (lost)."""
    for seed in (1, 2, 3):
        seen: list[dict[str, Any]] = []
        record = play_game(players, seed, bot=bot, ruleset=FIXTURE, on_command=_legal_only(seen))
        assert record.rounds <= 24
        assert seen, "the bots played nothing"
        if record.won:
            assert record.summary["bosses_defeated"] >= 1
        else:
            assert record.rounds == 24


def test_bots_only_ever_send_legal_commands() -> None:
    """The runner asks a bot only with its seat's view and legal commands; apply() would raise
    IllegalCommand on anything else, so a finished game proves every command was legal."""
    ruleset, game = new_game(2, seed=5)
    bots = [RandomMaidenBot(1), MaidenBot(content=CONTENT)]
    for _ in range(3000):
        if game.ended:
            break
        seat = waiting_seat(game)
        assert seat is not None
        view = ruleset.view(game, seat)
        command = bots[seat].choose(view, view["legal"])
        assert command in view["legal"]
        ruleset.apply(game, seat, command, game.clock)
    assert game.ended


def test_bot_games_are_reproducible() -> None:
    first = play_game(2, 11, bot="random", ruleset=FIXTURE, keep_events=True)
    second = play_game(2, 11, bot="random", ruleset=FIXTURE, keep_events=True)
    assert [(e.kind, e.data) for e in first.events] == [(e.kind, e.data) for e in second.events]


def test_a_bot_with_nothing_to_play_is_reported() -> None:
    class Idle:
        def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
            return None

    with pytest.raises(Stuck, match="nothing to play"):
        play_game(1, 1, bots=[Idle()], ruleset=FIXTURE)


def test_unknown_strategy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown strategy 'greedy'"):
        MaidenBot("greedy", content=CONTENT)


def _at_post_roll(pie: int, faces: tuple[int, ...], card: str = "r_zero") -> tuple[Any, Any]:
    ruleset, game = new_game(1, seed=3)
    to_move(ruleset, game, pie=pie)
    enter_room_check(ruleset, game, card)
    ruleset.apply(game, 0, {"kind": "roll"}, game.clock)
    set_dice(game, *faces)
    return ruleset, game


def test_heuristic_bot_takes_the_best_ascension_mv_asc_9() -> None:
    """MV-ASC-9, MV-ASC-7: Pie 0, roll 3, 3, 4 -> ascend the 3s (AP 5)."""
    ruleset, game = _at_post_roll(0, (3, 3, 4))
    view = ruleset.view(game, 0)
    assert MaidenBot(content=CONTENT).choose(view, view["legal"]) == {"kind": "ascend", "dice": [0, 1]}


def test_heuristic_bot_does_not_ascend_when_it_lowers_ap_mv_asc_9() -> None:
    """MV-ASC-7: Pie 0, roll 4, 4, 2 -> removing the 4s leaves 3; best AP is 4 without ascending."""
    ruleset, game = _at_post_roll(0, (4, 4, 2))
    view = ruleset.view(game, 0)
    assert MaidenBot(content=CONTENT).choose(view, view["legal"]) == {"kind": "resolve"}


def test_heuristic_bot_ascends_every_pair_in_a_slate_check_mv_asc_9() -> None:
    """MV-ASC-9 (slate): every disjoint non-slate pair raises AP and removes two damage dice."""
    ruleset, game = _at_post_roll(1, (2, 3, 3, 1), card="r_red")
    view = ruleset.view(game, 0)
    assert MaidenBot(content=CONTENT).choose(view, view["legal"]) == {"kind": "ascend", "dice": [1, 2]}


def test_heuristic_bot_keeps_the_easiest_room_card_under_ins_mv_deck_2() -> None:
    """MV-DECK-2, MV-CHECK-2: with Ins she draws 1 + Ins room cards and keeps the least
    dangerous one (the lowest difficulty, no slate)."""
    ruleset, game = new_game(1, seed=4)
    to_move(ruleset, game, ins=2)
    for card in ("r_trap", "r_easy", "r_blue"):
        (game.decks.room if card in game.decks.room else game.decks.room_discard).remove(card)
        game.decks.room.append(card)
    ruleset.apply(game, 0, {"kind": "move", "to": "a1_1"}, game.clock)
    view = ruleset.view(game, 0)
    decision = view["pending"][0]
    assert decision["kind"] == "keep_card"
    command = MaidenBot(content=CONTENT).choose(view, view["legal"])
    assert command is not None
    assert decision["options"][command["card"]] == "r_easy"


def _placement_view(levels: dict[str, int]) -> tuple[Any, Any]:
    ruleset, game = new_game(1, seed=2)
    view = ruleset.view(game, 0)
    while view["pending"][0]["kind"] != "place_card":
        seat = waiting_seat(game)
        assert seat is not None
        ruleset.apply(game, seat, view["legal"][0], game.clock)
        view = ruleset.view(game, 0)
    set_stats(game, 0, **levels)
    return ruleset, ruleset.view(game, 0)


@pytest.mark.parametrize(
    ("strategy", "levels", "expected"),
    [
        ("will_first", {"pie": 0, "wil": 2, "agi": 0, "ins": 0}, "wil"),
        ("piety_first", {"pie": 1, "wil": 0, "agi": 0, "ins": 0}, "pie"),
        ("piety_first", {"pie": 3, "wil": 1, "agi": 0, "ins": 0}, "wil"),
        ("agility_first", {"pie": 0, "wil": 0, "agi": 1, "ins": 0}, "agi"),
        ("inspiration_first", {"pie": 0, "wil": 0, "agi": 0, "ins": 0}, "ins"),
        ("balanced", {"pie": 1, "wil": 1, "agi": 0, "ins": 1}, "agi"),
    ],
)
def test_growth_strategies_place_cards_by_their_plan_mv_lvl_3(
    strategy: str, levels: dict[str, int], expected: str
) -> None:
    """MV-LVL-3: the player places the card on any stat; each strategy has its own order."""
    _ruleset, view = _placement_view(levels)
    command = MaidenBot(strategy, content=CONTENT).choose(view, view["legal"])
    assert command == {"kind": "place_card", "stat": expected}


def test_after_d20_the_odds_choose_another_stat_mv_lvl_7() -> None:
    """MV-LVL-7: Wil above 4 gives no larger die, so a will_first bot stops at 4."""
    _ruleset, view = _placement_view({"pie": 0, "wil": 4, "agi": 0, "ins": 0})
    command = MaidenBot("will_first", content=CONTENT).choose(view, view["legal"])
    assert command is not None and command["stat"] in {"pie", "agi", "ins"}


def test_every_strategy_is_known() -> None:
    for strategy in STRATEGIES:
        assert MaidenBot(strategy, content=CONTENT).strategy == strategy


def test_a_hurt_maiden_heads_for_a_rest_room_mv_spec_1() -> None:
    """MV-SPEC-1: a rest room heals to the maximum; at 1 life the bot routes toward one."""
    ruleset, game = new_game(1, seed=6)
    to_move(ruleset, game, agi=2)
    game.maidens[0].life = 1
    view = ruleset.view(game, 0)
    bot = MaidenBot(content=CONTENT)
    assert bot.goal(view, view["maidens"][0], Board(view)) == "a1_3"


def test_the_bot_does_not_walk_into_a_boss_it_cannot_beat_mv_spec_5() -> None:
    """MV-SPEC-5: once in a boss room she cannot leave; a weak maiden keeps out of the Mad King's."""
    ruleset, game = new_game(1, seed=6)
    to_move(ruleset, game, agi=3)
    game.explored += ["a1_1", "a1_2", "a1_3", "a3_1", "b_warden"]
    game.bosses["warden"].defeated = True
    view = ruleset.view(game, 0)
    command = MaidenBot(content=CONTENT).choose(view, view["legal"])
    assert command is not None and command.get("to") != "b_urza"


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


SHIPPED = MaidenRuleset()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_finish_games_on_the_shipped_content(players: int, bot: str) -> None:
    """MV-END-1/2 on the shipped map, bosses and decks: the game ends by the Mad King's defeat or
    after round 24 (a longer run: the slow test below)."""
    record = play_game(players, players, bot=bot, ruleset=SHIPPED)
    assert record.rounds <= 24 and (record.won or record.rounds == 24)


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_many_bot_games_finish_on_the_shipped_content(players: int) -> None:
    """25 seeds per player count and bot (``pytest -m slow tests/bots``)."""
    for seed in range(1, 26):
        for bot in ("random", "heuristic"):
            record = play_game(players, seed, bot=bot, ruleset=SHIPPED)
            assert record.rounds <= 24 and (record.won or record.rounds == 24), (bot, seed)


def _with_die_skill(ops: list[dict[str, Any]], faces: tuple[int, ...], card: str = "r_one") -> tuple[Any, Any]:
    """A post_roll window (Wil 1: d6, Pie 0) with a free post_roll skill running ``ops``."""
    import msgspec

    from delve.maiden.state import SkillState
    from tests.maiden.fixtures.content import Skill, text

    skills = dict(CONTENT.skills)
    skills["k_die"] = Skill("k_die", text("Die"), text("die"), (), "post_roll", tuple(ops), deck=False)
    content = msgspec.structs.replace(CONTENT, skills=skills)
    ruleset, game = new_game(1, seed=3, content=content)
    to_move(ruleset, game, wil=1)
    game.maidens[0].skills = [SkillState(id="k_die")]
    enter_room_check(ruleset, game, card)
    ruleset.apply(game, 0, {"kind": "roll"}, game.clock)
    set_dice(game, *faces)
    return ruleset, game


@pytest.mark.parametrize(
    "ops", [[{"op": "set_die"}], [{"op": "die_adjust", "amount": 1}], [{"op": "reroll", "count": 1}]]
)
def test_heuristic_bot_changes_a_die_when_it_turns_a_failure_into_a_success_mv_asc_8(ops: list[dict[str, Any]]) -> None:
    """MV-ASC-8: after the roll a die skill may change the dice; the bot uses it (from its view
    and legal commands only) when the changed dice do better: faces 1, 1, 1 against target 3
    fail whatever it ascends; a die set to any face from 3, a 1 made 2 (then the 1s ascend:
    2 + 1), or a die rerolled (2 in 3 to succeed on a d6 with the 1s ascended) beat that."""
    ruleset, game = _with_die_skill(ops, (1, 1, 1), card="r_trap")
    view = ruleset.view(game, 0)
    assert view["check"]["target"] == 3
    command = MaidenBot(content=ruleset.content).choose(view, view["legal"])
    assert command is not None and command["kind"] == "use_skill" and command in view["legal"]
    if ops[0]["op"] != "reroll":
        events = ruleset.apply(game, 0, command, game.clock)
        while not any(e.kind == "check.resolved" for e in events):
            view = ruleset.view(game, 0)
            events = ruleset.apply(game, 0, MaidenBot(content=ruleset.content).choose(view, view["legal"]), game.clock)
        assert [e.data["result"] for e in events if e.kind == "check.resolved"] == ["success"]


def test_heuristic_bot_leaves_the_dice_alone_when_they_already_succeed_mv_asc_8() -> None:
    ruleset, game = _with_die_skill([{"op": "set_die"}], (6, 5, 6))
    view = ruleset.view(game, 0)
    command = MaidenBot(content=ruleset.content).choose(view, view["legal"])
    assert command is not None and command["kind"] != "use_skill"
