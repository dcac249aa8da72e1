"""Game specs: what one simulated game is, and the key a resumed run recognises it by."""

from __future__ import annotations

import json

import pytest

from delve.sim.spec import GameSpec, SpecError, seat_bots, seeded_specs


def test_a_spec_keeps_its_settings_sorted_and_hashable():
    a = GameSpec.of("fated", 3, ["heuristic"] * 4, preset="level-d", settings={"b": [1, 2], "a": 1})
    b = GameSpec("fated", 3, ("heuristic",) * 4, "level-d", (("a", 1), ("b", (1, 2))))
    assert a == b and hash(a) == hash(b)
    assert a.settings == (("a", 1), ("b", (1, 2)))
    assert a.settings_dict() == {"a": 1, "b": [1, 2]}


def test_the_key_names_game_preset_seed_bots_settings_and_tag():
    spec = GameSpec.of("fated", 7, ["heuristic", "random"], preset="level-d", settings={"maze_size": 9}, tag="t/1")
    assert json.loads(spec.key()) == ["fated", "level-d", 7, ["heuristic", "random"], [["maze_size", 9]], "t/1"]
    others = [
        GameSpec.of("fated", 8, ["heuristic", "random"], preset="level-d", settings={"maze_size": 9}, tag="t/1"),
        GameSpec.of("fated", 7, ["random", "heuristic"], preset="level-d", settings={"maze_size": 9}, tag="t/1"),
        GameSpec.of("fated", 7, ["heuristic", "random"], preset="level-d", settings={"maze_size": 11}, tag="t/1"),
        GameSpec.of("fated", 7, ["heuristic", "random"], preset="level-d", settings={"maze_size": 9}, tag="t/2"),
        GameSpec.of("fated", 7, ["heuristic", "random"], settings={"maze_size": 9}, tag="t/1"),
    ]
    assert len({spec.key(), *(o.key() for o in others)}) == 6


def test_the_common_columns_come_from_the_spec():
    spec = GameSpec.of("fated", 2, ["heuristic", "random"], preset="level-d", settings={"x": True}, tag="q")
    assert spec.common() == {
        "game": "fated",
        "preset": "level-d",
        "seed": 2,
        "seats": 2,
        "bots": "heuristic,random",
        "tag": "q",
        "settings": '{"x":true}',
    }


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"game": "", "seed": 1, "bots": ("heuristic",)}, "game"),
        ({"game": "fated", "seed": -1, "bots": ("heuristic",)}, "seed"),
        ({"game": "fated", "seed": True, "bots": ("heuristic",)}, "seed"),
        ({"game": "fated", "seed": 1, "bots": ()}, "bots"),
        ({"game": "fated", "seed": 1, "bots": ("heuristic", "")}, "bots"),
        ({"game": "fated", "seed": 1, "bots": ("heuristic",), "settings": (("a", 1), ("a", 2))}, "settings"),
        ({"game": "fated", "seed": 1, "bots": ("heuristic",), "preset": ""}, "preset"),
    ],
)
def test_a_bad_spec_is_refused_naming_the_field(kwargs, argument):
    with pytest.raises(SpecError) as caught:
        GameSpec(**kwargs)
    assert caught.value.argument == argument


def test_one_bot_name_fills_every_seat_and_a_line_up_must_fit_the_seats():
    assert seat_bots(["heuristic"], 4) == ("heuristic",) * 4
    assert seat_bots(["h", "r", "r", "r"], 4) == ("h", "r", "r", "r")
    with pytest.raises(SpecError, match="2 names for 4 seats"):
        seat_bots(["h", "r"], 4)


def test_rotation_moves_the_line_up_one_seat_per_seed():
    specs = seeded_specs("fated", range(4), ["h", "r", "r", "r"], 4, rotate=True)
    assert [s.bots.index("h") for s in specs] == [0, 1, 2, 3]
    assert [s.seed for s in specs] == [0, 1, 2, 3]
    assert all(s.bots == ("h", "r", "r", "r") for s in seeded_specs("fated", range(4), ["h", "r", "r", "r"], 4))
