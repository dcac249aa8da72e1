"""The odds the White Maiden screen shows equal exact enumeration: every roll of the pool is
listed, each scored by trying every legal set of ascensions (MV-ASC-1..6, MV-SLATE-2), and the
count of successes over all rolls is compared to the fraction on the page (MV-ASC-9, the best
ascension suggested, is checked the same way). No sampling anywhere."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from html import unescape
from typing import Any

import pytest

from delve.server.play import maiden_odds
from delve.server.play.maiden_odds import percent
from tests.server.conftest import session_client
from tests.server.maiden_kit import maiden_game, play_until, view

COLOURS = ("red", "blue", "black")


def plans(faces: list[int], slate: int | None) -> list[tuple[list[int], int]]:
    """Every legal set of disjoint equal pairs: (remaining indices, pairs removed)."""
    out: list[tuple[list[int], int]] = []

    def walk(left: list[int], pairs: int) -> None:
        out.append((left, pairs))
        for a, b in itertools.combinations(left, 2):
            if slate in (a, b) or faces[a] != faces[b]:
                continue
            rest = [i for i in left if i not in (a, b)]
            if slate is None and not rest:
                continue  # MV-ASC-6a: one die must remain
            walk(rest, pairs + 1)

    walk(list(range(len(faces))), 0)
    return out


def best_ap(faces: list[int], slate: int | None, bonus: int) -> int:
    best = 0
    for left, pairs in plans(faces, slate):
        base = faces[slate] if slate is not None else max(faces[i] for i in left)
        best = max(best, base + bonus * pairs)
    return best


def enumerate_success(size: int, white: int, bonus: int, target: int, slate: str | None) -> Fraction:
    colours = [*COLOURS, *["white"] * white]
    slate_index = colours.index(slate) if slate else None
    hits = 0
    total = 0
    for roll in itertools.product(range(1, size + 1), repeat=len(colours)):
        total += 1
        hits += best_ap(list(roll), slate_index, bonus) >= target
    return Fraction(hits, total)


def pre_roll_view(*, size: int, white: int, bonus: int, target: int, slate: str | None, pie: int = 0) -> dict[str, Any]:
    return {
        "active_seat": 0,
        "danger_level": 1,
        "maidens": [{"seat": 0, "die": size, "pool": 3 + white, "levels": {"pie": pie, "wil": 0, "agi": 0, "ins": 0}}],
        "check": {
            "rolled": False,
            "size": size,
            "white": white,
            "bonus": bonus,
            "target": target,
            "slate": slate,
            "slate_ignored": False,
            "required": 1,
            "no_ascension": False,
        },
    }


FIXTURES = [
    # size, white dice, ascension bonus, target, slate
    (4, 0, 1, 4, None),  # Appendix B's smallest pool: 3d4
    (4, 1, 2, 6, None),  # Pie 1: 4d4, bonus 1 + 1
    (6, 1, 2, 7, None),
    (6, 2, 3, 9, None),  # Pie 2: 5d6
    (6, 0, 1, 5, "red"),  # a slate check: the red die + pairs of the others
    (4, 2, 3, 7, "blue"),
    (8, 0, 1, 9, None),  # beyond the die: only ascension can reach it
    (4, 1, 0, 4, None),  # ascension_bonus = pie with Pie 0: pairs give nothing
]


@pytest.mark.parametrize(("size", "white", "bonus", "target", "slate"), FIXTURES)
def test_the_chance_before_a_roll_equals_enumeration_of_every_roll(
    size: int, white: int, bonus: int, target: int, slate: str | None
) -> None:
    """MV-CHECK-5..9, MV-ASC-9, MV-SLATE-2: P(success) under the best ascensions."""
    shown = maiden_odds.pre_roll(pre_roll_view(size=size, white=white, bonus=bonus, target=target, slate=slate), {})
    assert shown is not None
    exact = enumerate_success(size, white, bonus, target, slate)
    assert shown.success.p == exact
    assert shown.success.fraction == str(exact)
    assert shown.success.percent == percent(exact)


def test_percentages_never_round_to_certain_or_impossible() -> None:
    assert percent(Fraction(1)) == "100%" and percent(Fraction(0)) == "0%"
    assert percent(Fraction(9999, 10000)) == "99.9%"
    assert percent(Fraction(1, 10000)) == "<0.1%"
    assert percent(Fraction(105, 128)) == "82.0%"


def post_roll_view(faces: list[int], *, bonus: int, target: int, slate: str | None) -> dict[str, Any]:
    colours = [*COLOURS, *["white"] * (len(faces) - 3)]
    return {
        "active_seat": 0,
        "danger_level": 1,
        "maidens": [{"seat": 0, "die": 6, "pool": len(faces), "levels": {"pie": 0, "wil": 1, "agi": 0, "ins": 0}}],
        "check": {
            "rolled": True,
            "result": None,
            "dice": [
                {"colour": c, "size": 6, "face": f, "removed": False, "bonus": 0}
                for c, f in zip(colours, faces, strict=True)
            ],
            "ap": faces[colours.index(slate)] if slate else max(faces),
            "bonus": bonus,
            "target": target,
            "slate": slate,
            "slate_ignored": False,
            "required": 1,
            "no_ascension": False,
        },
    }


@pytest.mark.parametrize(
    ("faces", "bonus", "target", "slate"),
    [
        ([3, 3, 4], 1, 5, None),  # MV-ASC-7: Pie 0, 3 3 4 -> 5
        ([5, 5, 2, 6], 2, 8, None),  # MV-ASC-7: keep 6, remove the 5s -> 8
        ([4, 4, 2], 1, 5, None),  # removing the 4s is worse: best 4 (resolve now)
        ([4, 4, 4], 1, 5, None),  # one pair of 4s, keep a 4 -> 5
        ([2, 5, 5, 2, 2], 3, 11, None),
        ([6, 3, 3, 1, 1], 2, 9, "red"),  # slate: every other pair is good
    ],
)
def test_each_ascension_choice_shows_the_outcome_enumeration_gives(
    faces: list[int], bonus: int, target: int, slate: str | None
) -> None:
    """Each legal pair (one per face) shows the best AP after it, equal to trying every plan;
    the suggestion is a pair that reaches the best AP of all (MV-ASC-9)."""
    colours = [*COLOURS, *["white"] * (len(faces) - 3)]
    slate_index = colours.index(slate) if slate else None
    legal = [
        {"kind": "ascend", "dice": [i, j]}
        for i, j in itertools.combinations(range(len(faces)), 2)
        if faces[i] == faces[j] and slate_index not in (i, j) and (slate or len(faces) > 2)
    ]
    shown = maiden_odds.post_roll(post_roll_view(faces, bonus=bonus, target=target, slate=slate), {}, legal)
    assert shown is not None
    best = best_ap(faces, slate_index, bonus)
    assert shown.best_ap == best
    assert shown.success_best.p == (1 if best >= target else 0)
    for choice in shown.choices:
        i, j = choice.pair
        rest = [f for k, f in enumerate(faces) if k not in (i, j)]
        rest_slate = None if slate_index is None else slate_index - sum(1 for k in (i, j) if k < slate_index)
        after = best_ap(rest, rest_slate, bonus) + bonus
        assert choice.best_ap == after, choice
        assert choice.success.p == (1 if after >= target else 0)
    suggested = [c for c in shown.choices if c.best]
    if best > (faces[slate_index] if slate_index is not None else max(faces)):
        assert len(suggested) == 1 and suggested[0].best_ap == best
    else:
        assert not suggested  # no pair helps: resolve as rolled


@pytest.mark.django_db
def test_the_page_shows_the_exact_chance_of_the_check_about_to_be_rolled(
    clock: Any, player: Any, opponent: Any
) -> None:
    """A live game at its first roll: the percentage and fraction on the roll button are the
    enumeration's, for the pool and target the engine reports."""
    game = maiden_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "pre_roll")
    public = view(game, None)
    check = public["check"]
    seat = public["active_seat"]
    exact = enumerate_success(
        check["size"],
        check["white"],
        check["bonus"],
        check["target"],
        check["slate"] if not check["slate_ignored"] else None,
    )
    html = session_client([player, opponent][seat]).get(f"/games/{game.pk}/maiden/panels/decide/").content.decode()
    button = re.search(r'class="cmd-roll primary".*?</button>', html, re.S)
    assert button is not None
    assert f'data-p="{exact}"' in button.group(0)
    assert percent(exact) in unescape(button.group(0))


@pytest.mark.parametrize(
    ("slate", "target", "die", "face", "expected"),
    [
        ("black", 3, 2, 1, 0),  # the slate die lowered: 1 < 3
        ("black", 3, 2, 3, 1),  # raised: 3 reaches 3
        ("black", 3, 0, 5, 0),  # another die: the slate die's 2 stays the AP
        (None, 6, 0, 5, 0),  # no slate: the 6 lowered to 5 misses 6 (it showed no chance)
        (None, 5, 1, 5, 1),  # the 4 raised to 5, the 6 still there
    ],
)
def test_a_plus_or_minus_skill_shows_the_chance_of_its_own_new_face_MV_SLATE_2(slate, target, die, face, expected):
    """MV-SLATE-2: on a slate check the slate die's face is the AP. Moon Hop (±1) offers a -1 and
    a +1 button: each shows the chance of the face it makes (the -1 showed the +1's 100%, and a
    6 lowered to 5 on a d6 showed no chance at all)."""
    from types import SimpleNamespace

    from delve.server.play.maiden_screen import _skill_button

    view = post_roll_view([6, 4, 2], bonus=1, target=target, slate=slate)
    screen = SimpleNamespace(view=view, lang="en", settings={}, seat=0, legal=[])
    button = _skill_button(screen, {"kind": "use_skill", "skill": "moon_hop", "die": die, "face": face})
    assert button["odds"] is not None, button
    assert button["odds"].p == expected
