"""Fated Labyrinth / Level D games played to the end by bots for the simulation runner
(delve.sim.games.fated): one CSV-able row per game, the same row for the same spec, bots that see
their seat's view and legal commands only, and the clock driven at the preset's turn time."""

from __future__ import annotations

import json

import pytest

from delve.bots import REGISTRY
from delve.bots.fated import FatedBot
from delve.sim.games import fated
from delve.sim.games import player as player_of
from delve.sim.spec import COMMON_COLUMNS, GameSpec, SpecError

FAST = {"maze_size": 9}  # small mazes: short games with every kind of victory
JSON_COLUMNS = ("settings", "death_causes", "cards_used", "command_kinds", "players")


def spec(seed: int, bots=("heuristic",) * 4, **kwargs) -> GameSpec:
    kwargs.setdefault("settings", FAST)
    return GameSpec.of("fated", seed, bots, **kwargs)


@pytest.fixture(scope="module")
def rows():
    return [fated.play(spec(seed)) for seed in range(1, 7)]


def test_a_game_gives_one_row_of_csv_values_with_the_common_columns(rows):
    for row in rows:
        assert set(COMMON_COLUMNS) <= set(row)
        assert all(v is None or isinstance(v, str | int | float | bool) for v in row.values())
        for column in JSON_COLUMNS:
            json.loads(row[column])
        assert row["game"] == "fated" and row["preset"] == "fated-labyrinth" and row["seats"] == 4
        assert row["outcome"] in {"escape-A", "escape-B", "survivor", "none"}
        assert row["commands"] > 0 and row["turns"] > 0 and row["days"] > 0


def test_the_winner_deaths_and_cards_of_a_row_agree_with_its_players(rows):
    for row in rows:
        players = json.loads(row["players"])
        winners = [p["seat"] for p in players if p["won"]]
        assert row["winner"] == ("" if not winners else str(winners[0]))
        assert row["winner_class"] == ("" if not winners else players[winners[0]]["class"])
        assert row["deaths"] == sum(1 for p in players if p["fate"] in ("died", "abandoned"))
        assert sum(json.loads(row["death_causes"]).values()) == sum(1 for p in players if p["cause"])
        assert row["classes"] == ",".join(p["class"] for p in players)
        total = {}
        for p in players:
            for card, n in p["cards"].items():
                total[card] = total.get(card, 0) + n
        assert json.loads(row["cards_used"]) == total
        assert sum(json.loads(row["command_kinds"]).values()) == row["commands"]


def test_FL_WIN_1_and_2_an_escape_is_B_exactly_when_the_winner_visited_all_four_corners(rows):
    escapes = [r for r in rows if r["outcome"].startswith("escape")]
    assert escapes, "small mazes give escapes"
    for row in escapes:
        corners = json.loads(row["players"])[int(row["winner"])]["corners"]
        assert (row["outcome"] == "escape-B") == (corners == 4)
        assert corners >= 2


def test_the_same_spec_gives_the_same_row_apart_from_wall_time(rows):
    again = fated.play(spec(1))
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in rows[0].items() if k != "seconds"}


def test_the_runner_finds_the_fated_module():
    assert player_of("fated") is fated.play


def test_FL_TURN_5_turns_come_at_the_presets_turn_time_so_days_are_real_days():
    """A turn accumulates every wait_time (FL-TURN-5): a game cannot play more turns than its
    length allows, at 6 hours (fated-labyrinth) or 1 hour (a shorter override)."""
    for wait in (21_600, 3_600):
        row = fated.play(spec(3, settings={**FAST, "wait_time": wait}))
        assert row["wait_time"] == wait
        assert row["turns"] <= row["days"] * 86_400 / wait + 2
        assert row["turns"] >= row["days"] * 86_400 / wait / 2  # bots play their turns as they come


def test_bots_choose_from_their_own_seats_view_and_legal_commands_only(monkeypatch):
    seen: list[tuple[int, int]] = []

    class Spy:
        def __init__(self, seat: int) -> None:
            self.seat, self.inner = seat, FatedBot()

        def choose(self, view, legal):
            assert isinstance(view, dict) and "rng" not in view and "deck" not in view
            seen.append((self.seat, view["you"]["seat"]))
            command = self.inner.choose(view, legal)
            assert command is None or command in legal
            return command

    seats = iter(range(4))
    monkeypatch.setitem(REGISTRY["fated"], "spy", lambda seed, settings, option: Spy(next(seats)))
    row = fated.play(spec(2, bots=("spy",) * 4))
    assert row["outcome"] != "unfinished" and seen
    assert all(seat == own for seat, own in seen)
    assert {seat for seat, _ in seen} == {0, 1, 2, 3}


def test_each_seat_gets_its_own_bot_and_seed(monkeypatch):
    requests: list[tuple[int, dict]] = []

    def factory(seed, settings, option):
        requests.append((seed, settings))
        return FatedBot()

    monkeypatch.setitem(REGISTRY["fated"], "spy", factory)
    fated.play(spec(4, bots=("spy", "heuristic", "spy", "random")))
    assert [seed for seed, _ in requests] == [fated.bot_seed(4, 0), fated.bot_seed(4, 2)]
    assert requests[0][1]["preset"] == "fated-labyrinth"


def test_classes_are_drawn_from_the_seed_or_given_by_the_classes_setting():
    drawn = {tuple(fated.classes_for(spec(seed), 4)) for seed in range(20)}
    assert len(drawn) > 15
    assert fated.classes_for(spec(1), 4) == fated.classes_for(spec(1), 4)
    assert fated.classes_for(spec(1, settings={"classes": "cat"}), 4) == ["cat"] * 4
    given = ["cat", "noble", "thief", "priest"]
    assert fated.classes_for(spec(1, settings={"classes": given}), 4) == given
    row = fated.play(spec(5, settings={**FAST, "classes": "warrior,priest,thief,cat"}))
    assert row["classes"] == "warrior,priest,thief,cat"


def _asked(monkeypatch, settings: dict) -> list[tuple[int, list[int]]]:
    """Each round of a game in which a seat was asked: the seat the round started from, and the
    seats asked, in order."""
    rounds: list[tuple[int, list[int]]] = []
    real_round = fated._round

    def round_(*args, first=0):
        rounds.append((first, []))
        return real_round(*args, first=first)

    class Spy:
        def __init__(self, seat: int) -> None:
            self.seat, self.inner = seat, FatedBot()

        def choose(self, view, legal):
            rounds[-1][1].append(self.seat)
            return self.inner.choose(view, legal)

    seats = iter(range(4))
    monkeypatch.setitem(REGISTRY["fated"], "spy", lambda seed, settings, option: Spy(next(seats)))
    monkeypatch.setattr(fated, "_round", round_)
    fated.play(spec(3, bots=("spy",) * 4, settings={**FAST, **settings}))
    return [r for r in rounds if r[1]]


def test_the_seats_are_asked_in_seat_order_or_from_one_seat_later_each_round(monkeypatch):
    plain = _asked(monkeypatch, {})
    assert {first for first, _ in plain} == {0}
    assert all(asked == sorted(asked) for _, asked in plain)
    rotating = _asked(monkeypatch, {"ask_order": "rotating"})
    assert {first for first, _ in rotating} == {0, 1, 2, 3}
    for first, asked in rotating:  # from the round's first seat on, wrapping round
        assert asked == sorted(asked, key=lambda seat: (seat - first) % 4)


def test_the_ask_order_is_a_setting_of_the_runner_not_of_the_game():
    row = fated.play(spec(5, settings={**FAST, "ask_order": "rotating"}))
    assert json.loads(row["settings"])["ask_order"] == "rotating"
    assert row["outcome"] != "unfinished"


@pytest.mark.parametrize(
    ("kwargs", "argument", "message"),
    [
        ({"bots": ("heuristic",) * 3}, "bots", "3 bots for the 4 seats"),
        ({"bots": ("heuristic", "nope", "random", "random")}, "bots", "no bot 'nope' for game 'fated'"),
        ({"preset": "level-x"}, "preset", "unknown preset 'level-x'"),
        ({"settings": {"maze_size": 2}}, "settings", "maze_size"),
        ({"settings": {"classes": "wizard"}}, "settings", "unknown class 'wizard'"),
        ({"settings": {"classes": "cat,cat"}}, "settings", "2 classes for 4 seats"),
        ({"settings": {"ask_order": "random"}}, "settings", "ask_order: 'random' is not one of seat, rotating"),
    ],
)
def test_a_spec_the_game_cannot_play_is_refused_before_anything_is_played(kwargs, argument, message):
    with pytest.raises(SpecError, match=message) as caught:
        fated.check(spec(1, **kwargs))
    assert caught.value.argument == argument


def test_a_level_d_game_has_eight_seats():
    assert fated.seat_count("level-d", {}) == 8
    assert fated.seat_count(None, {"players": 8}) == 8


def test_a_game_stopped_by_the_command_limit_is_unfinished(monkeypatch):
    monkeypatch.setattr(fated, "COMMAND_LIMIT", 40)
    row = fated.play(spec(1))
    assert row["outcome"] == "unfinished" and row["winner"] == ""
    assert 40 <= row["commands"] < 44


@pytest.mark.parametrize(
    ("cause", "hit", "expected"),
    [
        ("poison", {"label": "normal"}, "poison"),
        ("abandoned", None, "abandoned"),
        ("trap", {"label": "trap", "card": "pitfall"}, "trap:pitfall"),
        ("remote", {"label": "remote", "card": "attack-30", "use": "remote"}, "card:attack-30"),
        ("monster", {"label": "monster", "monster": "dragon"}, "monster:dragon"),
        ("breath", {"label": "breath", "monster": "dragon"}, "monster:dragon"),
        ("normal", {"label": "normal", "source": 2}, "attack"),
    ],
)
def test_FL_DEATH_a_death_is_put_down_to_the_last_blow(cause, hit, expected):
    assert fated.death_cause(cause, hit) == expected
