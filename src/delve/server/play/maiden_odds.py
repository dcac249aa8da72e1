"""The exact odds the White Maiden screen shows, computed from a view with ``delve.maiden.odds``.

Every probability on the screen comes from here, and every one is exact (fractions from the
odds module, never sampled): before a roll, for each room card offered by a draw, for each
ascension choice after the roll, and for dice skills (reroll, ±1 on a die).

Only the view is read: the check's die size, white dice and ascension bonus are what the engine
will use (``view["check"]``: size, white, bonus), so skills, Arcana and area effects already
played are counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from delve.maiden import odds
from delve.maiden.odds import Variant


@dataclass(frozen=True)
class Chance:
    """One probability as the screen shows it: the exact fraction and its percentage."""

    p: Fraction

    @property
    def fraction(self) -> str:
        return str(self.p)

    @property
    def percent(self) -> str:
        return percent(self.p)

    @property
    def level(self) -> str:
        """A colour band for the eye: good, fair, poor."""
        if self.p >= Fraction(2, 3):
            return "good"
        if self.p >= Fraction(1, 3):
            return "fair"
        return "poor"


def percent(p: Fraction) -> str:
    """``82.0%``; certain and impossible outcomes stay whole (``100%``, ``0%``), and a chance that
    is neither never rounds to them."""
    if p == 1:
        return "100%"
    if p == 0:
        return "0%"
    value = float(p) * 100
    text = f"{value:.1f}"
    if text == "100.0":
        text = "99.9"
    if text == "0.0":
        text = "0.1" if value >= 0.05 else "<0.1"
    return f"{text}%"


def _bonus_variant(settings: dict[str, Any]) -> Variant:
    """A variant whose ascension bonus is ``pie`` itself, so the bonus the engine reports (after
    mods such as a fixed bonus) can be passed as ``pie``."""
    base = Variant.from_settings(settings)
    return Variant(
        ascension_bonus="pie",
        pie_mode="ascension",
        slate_damage_per_die=base.slate_damage_per_die,
        multi_die_checks=base.multi_die_checks,
        slate_roll_restricted=base.slate_roll_restricted,
    )


def _slate(check: dict[str, Any]) -> str | None:
    slate = check.get("slate")
    return None if not slate or check.get("slate_ignored") else str(slate)


def _size_of_wil(wil_size: int) -> int:
    return wil_size if wil_size in odds.DIE_SIZES else 6


@dataclass(frozen=True)
class PreRoll:
    """The odds of a check before its roll."""

    success: Chance
    expected_damage: Fraction
    size: int
    dice: int
    target: int
    slate: str | None

    @property
    def expected_damage_text(self) -> str:
        return f"{float(self.expected_damage):.2f}"


def pre_roll(view: dict[str, Any], settings: dict[str, Any]) -> PreRoll | None:
    """P(success) and expected damage of the check waiting to be rolled (MV-CHECK, optimal
    ascension MV-ASC-9)."""
    check = view.get("check")
    if not check or check.get("rolled"):
        return None
    maiden = _active(view)
    if maiden is None:
        return None
    size = int(check.get("size") or maiden["die"])
    white = int(check.get("white", maiden["pool"] - 3))
    bonus = 0 if check.get("no_ascension") else int(check.get("bonus", 1))
    return _odds_for(
        size=size,
        white=white,
        bonus=bonus,
        target=int(check["target"]),
        slate=_slate(check),
        required=int(check.get("required") or 1),
        agi=int(maiden["levels"]["agi"]),
        danger_level=int(view["danger_level"]),
        settings=settings,
        pie=int(maiden["levels"]["pie"]),
    )


def _odds_for(
    *,
    size: int,
    white: int,
    bonus: int,
    target: int,
    slate: str | None,
    required: int,
    agi: int,
    danger_level: int,
    settings: dict[str, Any],
    pie: int,
) -> PreRoll:
    base = Variant.from_settings(settings)
    if base.pie_mode == "boost":
        rules, pie_arg = base, pie  # the boost points depend on Pie itself
    else:
        rules, pie_arg = _bonus_variant(settings), bonus
    result = odds.check_odds(
        4,
        pie_arg,
        max(1, target),
        agi=agi,
        slate=slate,  # type: ignore[arg-type]
        danger_level=max(1, danger_level),
        required_count=max(1, required),
        variant=rules,
        size=size,
        white=max(0, white),
    )
    return PreRoll(
        success=Chance(result.p_success),
        expected_damage=result.expected_damage,
        size=result.die_size,
        dice=result.dice,
        target=result.target,
        slate=result.slate,
    )


def _active(view: dict[str, Any]) -> dict[str, Any] | None:
    seat = view.get("active_seat")
    if seat is None:
        return None
    return next((m for m in view["maidens"] if m["seat"] == seat), None)


def room_card_odds(
    view: dict[str, Any], settings: dict[str, Any], card: Any, seat: int, mods: dict[str, Any]
) -> PreRoll:
    """The odds of checking against a room card offered by a draw (MV-CHECK-2: the player keeps
    one), for the maiden at ``seat`` in her room, with the mods in force there."""
    maiden = next(m for m in view["maidens"] if m["seat"] == seat)
    steps = int(mods.get("die_step", 0))
    sizes = list(odds.DIE_SIZES)
    index = max(0, min(len(sizes) - 1, sizes.index(_size_of_wil(int(maiden["die"]))) + steps))
    size = sizes[index]
    white = 0 if mods.get("no_white_dice") else int(maiden["levels"]["pie"])
    pie = int(maiden["levels"]["pie"])
    base = Variant.from_settings(settings)
    fixed = mods.get("ascension_bonus_fixed")
    if fixed:
        bonus = int(fixed)
    else:
        bonus = odds.ascension_bonus(0 if base.pie_mode == "boost" else pie, base.ascension_bonus)
    if mods.get("no_ascension"):
        bonus = 0
    slate = card.slate or mods.get("default_slate") or None
    multi = bool(settings.get("multi_die_checks")) and slate is None
    target = max(1, int(view["base_target"]) + int(card.difficulty) + int(mods.get("difficulty_delta", 0)))
    return _odds_for(
        size=size,
        white=white,
        bonus=bonus,
        target=target,
        slate=slate,
        required=int(getattr(card, "required_count", 1) or 1) if multi else 1,
        agi=int(maiden["levels"]["agi"]),
        danger_level=int(view["danger_level"]) + int(mods.get("dl_delta", 0)),
        settings=settings,
        pie=pie,
    )


# ---------------------------------------------------------------- after the roll


@dataclass(frozen=True)
class AscensionChoice:
    """One legal ascension (``ascend`` command), with the outcome of the best play after it."""

    command: dict[str, Any]
    pair: tuple[int, int]
    face: int
    ap_after: int
    best_ap: int
    success: Chance
    slate_damage: int
    best: bool


@dataclass(frozen=True)
class PostRoll:
    ap: int
    best_ap: int
    success_now: Chance  # resolving now
    success_best: Chance  # after the best ascensions
    best_pairs: tuple[tuple[int, int], ...]
    choices: list[AscensionChoice]
    slate_damage_now: int


def _pool(check: dict[str, Any]) -> tuple[list[tuple[str, int]], list[int]]:
    dice = [(str(d["colour"]), int(d["face"] or 1) + int(d.get("bonus") or 0)) for d in check["dice"]]
    removed = [i for i, d in enumerate(check["dice"]) if d.get("removed")]
    return dice, removed


def post_roll(view: dict[str, Any], settings: dict[str, Any], legal: list[dict[str, Any]]) -> PostRoll | None:
    """The rolled pool: AP now, the best AP (MV-ASC-9), and each legal ascension's outcome. The
    dice are known, so every probability here is 100% or 0%, exactly."""
    check = view.get("check")
    if not check or not check.get("rolled") or check.get("result") is not None or not check.get("dice"):
        return None
    maiden = _active(view)
    if maiden is None:
        return None
    if settings.get("multi_die_checks") and (check.get("required") or 1) > 1:
        return None  # bonuses sit on chosen dice: the engine's own AP is shown, no plan helper
    dice, removed = _pool(check)
    slate = _slate(check)
    bonus = 0 if check.get("no_ascension") else int(check.get("bonus", 1))
    target = int(check["target"])
    agi = int(maiden["levels"]["agi"])
    rules = _bonus_variant(settings)
    kwargs: dict[str, Any] = {
        "slate": slate,
        "target": target,
        "agi": agi,
        "danger_level": max(1, int(view["danger_level"])),
        "variant": rules,
    }
    # The odds module counts the bonus of pairs already removed; the engine's AP also holds AP
    # bonuses of skills: the offset between them is the same for every plan.
    plans = odds.ascension_plans(dice, bonus, removed=removed, **kwargs)
    stop = next(p for p in plans if not p.pairs)
    ap_now = int(check.get("ap") if check.get("ap") is not None else stop.ap)
    offset = ap_now - stop.ap
    best = plans[0]
    choices: list[AscensionChoice] = []
    best_first = best.pairs[0] if best.pairs else None
    for command in legal:
        if command.get("kind") != "ascend":
            continue
        i, j = sorted(int(x) for x in command["dice"])
        after = odds.ascension_plans(dice, bonus, removed=[*removed, i, j], **kwargs)
        after_stop = next(p for p in after if not p.pairs)
        top = after[0]
        face = dice[i][1]
        choices.append(
            AscensionChoice(
                command=command,
                pair=(i, j),
                face=face,
                ap_after=after_stop.ap + offset,
                best_ap=top.ap + offset,
                success=Chance(Fraction(int(top.ap + offset >= target))),
                slate_damage=top.slate_damage,
                best=best_first is not None and face == dice[best_first[0]][1],
            )
        )
    choices.sort(key=lambda c: (not c.best, -c.best_ap, c.slate_damage, -c.face, c.pair))
    # One choice per face: any pair of the same face gives the same outcomes (the slate die is
    # never in a pair). Only the first is marked as the suggestion (MV-ASC-9).
    faces: set[int] = set()
    marked = []
    for choice in choices:
        if choice.face in faces:
            continue
        faces.add(choice.face)
        marked.append(choice if not marked else AscensionChoice(**{**choice.__dict__, "best": False}))
    if marked and not marked[0].best:
        marked[0] = AscensionChoice(**{**marked[0].__dict__, "best": False})
    return PostRoll(
        ap=ap_now,
        best_ap=best.ap + offset,
        success_now=Chance(Fraction(int(ap_now >= target or bool(check.get("auto_success"))))),
        success_best=Chance(Fraction(int(best.ap + offset >= target))),
        best_pairs=best.pairs,
        choices=marked,
        slate_damage_now=stop.slate_damage,
    )


def reroll_chance(view: dict[str, Any], settings: dict[str, Any], index: int) -> Chance | None:
    """P(success) after rerolling die ``index`` and then ascending optimally (reroll skills)."""
    check = view.get("check")
    if not check or not check.get("rolled") or check.get("result") is not None:
        return None
    maiden = _active(view)
    if maiden is None:
        return None
    dice, removed = _pool(check)
    if not 0 <= index < len(dice) or index in removed:
        return None
    bonus = 0 if check.get("no_ascension") else int(check.get("bonus", 1))
    size = int(check["dice"][index]["size"])
    try:
        result = odds.reroll_odds(
            dice,
            index,
            bonus,
            size=size,
            slate=_slate(check),  # type: ignore[arg-type]
            target=int(check["target"]),
            agi=int(maiden["levels"]["agi"]),
            danger_level=max(1, int(view["danger_level"])),
            variant=_bonus_variant(settings),
            removed=removed,
        )
    except odds.OddsError:
        return None
    return None if result.p_success is None else Chance(result.p_success)


def adjust_chance(view: dict[str, Any], settings: dict[str, Any], index: int, delta: int) -> Chance | None:
    """Success (100% or 0%) after changing die ``index`` by ``delta`` and ascending optimally."""
    check = view.get("check")
    if not check or not check.get("rolled") or check.get("result") is not None:
        return None
    maiden = _active(view)
    if maiden is None:
        return None
    dice, removed = _pool(check)
    if not 0 <= index < len(dice) or index in removed:
        return None
    bonus = 0 if check.get("no_ascension") else int(check.get("bonus", 1))
    try:
        results = odds.adjust_options(
            dice,
            index,
            bonus,
            size=int(check["dice"][index]["size"]),
            deltas=(delta,),
            slate=_slate(check),  # type: ignore[arg-type]
            target=int(check["target"]),
            agi=int(maiden["levels"]["agi"]),
            danger_level=max(1, int(view["danger_level"])),
            variant=_bonus_variant(settings),
            removed=removed,
        )
    except odds.OddsError:
        return None
    if not results:
        return None
    plan = results[0][1]
    stop_ap = odds.ascension_plans(
        dice,
        bonus,
        removed=removed,
        slate=_slate(check),
        variant=_bonus_variant(settings),  # type: ignore[arg-type]
    )
    offset = int(check.get("ap") or 0) - next(p for p in stop_ap if not p.pairs).ap
    return Chance(Fraction(int(plan.ap + offset >= int(check["target"]))))
