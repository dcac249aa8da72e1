"""``delve lab odds --room/--boss`` and the mod options: a check named by its content takes the
card's or the action's difficulty, slate and mods (MV-CHECK-2/3, MV-BOSS-2, MV-BOSS-10,
MV-CHECK-16), and the odds count the mods exactly. Checked against a brute force over every roll
with the engine's own dice: ``dice.pool``, ``dice.die_size`` (die_step), ``dice.highest`` (the
die ``reroll_highest`` rerolls), every legal ascension (MV-ASC-1..6) scored by ``dice.ap`` and
``dice.slate_damage_dice``, best play kept (MV-ASC-9), and the damage as ``checks.after_result``
deals it (DL + failure_damage_delta on a failure, dice left × (1 + slate_per_die_delta))."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from delve.cli import main
from delve.maiden import content as maiden_content
from delve.maiden import dice as engine_dice
from delve.maiden.odds import Distribution
from delve.maiden.odds_named import boss_action, markers, named_odds, room_card
from delve.maiden.odds_text import percent
from delve.maiden.state import Check


def _best(check: Check, bonus: int, agi: int, ascend: bool) -> tuple[int, int]:
    """(AP, slate dice left beyond Agi) of the best way to finish ascending (MV-ASC-9)."""
    found = [(engine_dice.ap(check, bonus, False), engine_dice.slate_damage_dice(check, agi))]
    if ascend:
        for i, j in engine_dice.legal_pairs(check):
            check.dice[i].removed = check.dice[j].removed = True
            check.ascensions += 1
            found.append(_best(check, bonus, agi, ascend))
            check.ascensions -= 1
            check.dice[i].removed = check.dice[j].removed = False
    return max(found, key=lambda o: (o[0], -o[1]))


def brute(wil: int, pie: int, target: int, mods: dict, *, slate: str | None = None, agi: int = 0, dl: int = 1):
    """P(success) and the total damage distribution of one check, every roll counted."""
    size = engine_dice.die_size(wil, int(mods.get("die_step", 0)))
    white = 0 if mods.get("no_white_dice") else pie
    bonus = 1 + pie
    dl += int(mods.get("dl_delta", 0))
    failure = max(0, dl + int(mods.get("failure_damage_delta", 0)))
    per_die = max(0, 1 + int(mods.get("slate_per_die_delta", 0)))
    pool = engine_dice.pool(size, white, slate=slate, restricted=False)
    fresh_faces = range(1, size + 1) if mods.get("reroll_highest") else [None]
    damage: Counter[int] = Counter()
    successes = total = 0
    for faces in itertools.product(range(1, size + 1), repeat=len(pool)):
        for fresh in fresh_faces:
            check = Check(kind="boss", source="x", target=target, room="r", slate=slate)
            check.dice = [type(d)(colour=d.colour, size=size, face=f) for d, f in zip(pool, faces, strict=True)]
            if fresh is not None:
                check.dice[engine_dice.highest(check)].face = fresh
            ap, left = _best(check, bonus, agi, not mods.get("no_ascension"))
            won = ap >= target
            successes += won
            total += 1
            damage[left * per_die + (0 if won else failure)] += 1
    return Fraction(successes, total), Distribution.from_counts(damage, total)


CASES = [
    # (boss or action, action, wil, pie, round, agi, dl): one per mod the shipped bosses carry
    ("Gilded Glare", None, 1, 1, 6, 0, 1),  # reroll_highest
    ("chokmah", "2", 2, 1, 4, 0, 1),  # die_step -1: Wil 2's d8 rolls d6
    ("binah", "Dirge of Sorrows", 1, 2, 4, 0, 1),  # no_white_dice (+ failure_exhausts_skill)
    ("chesed", "1", 0, 1, 3, 1, 1),  # blue slate, slate_per_die_delta +1
    ("geburah", "1", 1, 1, 5, 0, 2),  # failure_damage_delta +1
    ("hod", "Sealed Equation", 1, 2, 7, 0, 1),  # no_ascension
    ("tiphareth", "Solar Lance", 0, 1, 4, 1, 1),  # red slate, no mods
]


@pytest.mark.parametrize(("boss", "action", "wil", "pie", "round_", "agi", "dl"), CASES)
def test_a_named_boss_action_is_counted_exactly_with_its_mods(boss, action, wil, pie, round_, agi, dl):
    """MV-BOSS-2, MV-BOSS-10, MV-CHECK-3: target = ⌈round/2⌉ markers + the action's difficulty;
    the action's slate and mods as the engine applies them, against every roll."""
    source = boss_action(boss, action)
    target = max(1, markers(round_) + source.difficulty)
    odds, _dl, _failure = named_odds(
        wil, pie, markers(round_), source.difficulty, mods=source.mods, agi=agi, slate=source.slate, danger_level=dl
    )
    p, damage = brute(wil, pie, target, source.mods, slate=source.slate, agi=agi, dl=dl)
    assert odds.target == target
    assert odds.p_success == p
    assert odds.damage.as_dict() == damage.as_dict()


def test_the_command_line_names_the_action_its_mods_and_prints_the_exact_odds(capsys):
    """MV-BOSS-10: ``--boss "Gilded Glare" --round 6`` is Prince Aurel's first action, difficulty 2,
    reroll_highest counted; P(success) equals the brute force."""
    code = main(["lab", "odds", "--wil", "1", "--pie", "1", "--boss", "Gilded Glare", "--round", "6"])
    out, err = capsys.readouterr()
    p, _ = brute(1, 1, 5, {"reroll_highest": True})
    assert (code, err) == (0, "")
    assert "action 1 Gilded Glare: difficulty 2 (round 6: 3 action markers)" in out
    assert "target 5 (base 3 + difficulty 2)" in out
    assert "reroll_highest = true" in out
    assert f"P(success) = {p} = {percent(p)}" in out


def test_the_mod_options_alone_equal_the_named_action(capsys):
    """The mods as options (--die-step -1, --no-white-dice, --reroll-highest) give the same odds
    as the boss action that carries them."""
    code = main(["lab", "odds", "--wil", "2", "--pie", "1", "--target", "5", "--die-step", "-1", "--no-white-dice"])
    out, _ = capsys.readouterr()
    p, _ = brute(2, 1, 5, {"die_step": -1, "no_white_dice": True})
    assert code == 0
    assert "Wil 2 → d8, rolling d6 (die_step -1), Pie 1 → 3 dice (red, blue, black)" in out
    assert f"P(success) = {p} = {percent(p)}" in out


def test_a_room_card_gives_its_difficulty_and_slate(capsys):
    """MV-CHECK-2/3, MV-SLATE-2: a room card by name: its difficulty and its slate."""
    data = maiden_content.load()
    card = next(c for c in data.room_cards.values() if c.slate is not None)
    code = main(["lab", "odds", "--wil", "0", "--pie", "1", "--room", card.name.en.upper(), "--base", "3"])
    out, _ = capsys.readouterr()
    p, _ = brute(0, 1, max(1, 3 + card.difficulty), {}, slate=card.slate)
    assert code == 0
    assert f"room card {card.id} {card.name.en}" in out
    assert f"Slate {card.slate}" in out
    assert f"P(success) = {p} = {percent(p)}" in out
    assert room_card(card.id) == room_card(card.name.en)


@pytest.mark.parametrize(
    ("argv", "option", "says"),
    [
        (["--boss", "kether", "--round", "5"], "--action", "Crown of Madness"),
        (["--boss", "nobody", "--action", "1", "--round", "5"], "--boss", "is no boss"),
        (["--room", "nowhere", "--round", "5"], "--room", "is no room card"),
        (["--boss", "kether", "--action", "1"], "--boss", "--round"),
        (["--boss", "kether", "--action", "1", "--round", "5", "--target", "9"], "--target", "gives the difficulty"),
        (["--boss", "Solar Lance", "--round", "5", "--slate", "blue"], "--slate", "red slate"),
        (["--target", "5", "--die-step", "1"], "--die-step", "smaller"),
        (["--target", "5", "--slate-per-die-delta", "1"], "--slate-per-die-delta", "--slate"),
        (["--target", "5", "--action", "1"], "--action", "--boss"),
    ],
)
def test_named_checks_refuse_what_does_not_fit_in_one_line(capsys, argv, option, says):
    try:
        code = main(["lab", "odds", "--wil", "1", "--pie", "1", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert f"argument {option}" in err
    assert says in err


def test_markers_follow_the_round_track():
    """MV-ROUND-7: one action marker on every odd round square, ⌈r/2⌉ in round r."""
    assert [markers(r) for r in (1, 2, 3, 22, 23, 24)] == [1, 1, 2, 11, 12, 12]
    assert all(markers(r) == math.ceil(r / 2) for r in range(1, 25))
