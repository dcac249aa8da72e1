"""The exact odds the White Maiden screen shows, computed from a view with ``delve.maiden.odds``.

Every probability on the screen comes from here, and every one is exact (fractions from the
odds module, never sampled): before a roll, for each room card offered by a draw, for each
ascension choice after the roll, and for dice skills (reroll, ±1 on a die).

Only the view is read: the check's die size, white dice and ascension bonus are what the engine
will use (``view["check"]``: size, white, bonus), so skills, Arcana and area effects already
played are counted.
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ParamSpec, TypeVar

from django.utils.translation import gettext as _

from delve.maiden import odds
from delve.maiden.odds import Variant

log = logging.getLogger(__name__)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def _quiet(question: Callable[_P, _R | None]) -> Callable[_P, _R | None]:
    """A chance the screen cannot count is left out, never the page: a question the odds model
    refuses (a pool it cannot hold) is logged as the defect it is and answered None. A refusal
    once escaped to the page, and every poll of the game and its replay answered 400 from then on."""

    @functools.wraps(question)
    def asked(*args: _P.args, **kwargs: _P.kwargs) -> _R | None:
        try:
            return question(*args, **kwargs)
        except odds.OddsError:
            log.exception("the odds of %s could not be counted; the screen shows none", question.__name__)
            return None

    return asked


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
    def exact(self) -> str:
        """The exact chance in words beside the percentage ("exactly 41 in 50" / 「正確には50分の
        41」); none when it is certain or impossible (100% and 0% are exact already). A bare
        fraction in brackets, "(1)", read as a count of dice."""
        if self.p in (0, 1):
            return ""
        return _("exactly %(num)s in %(den)s") % {"num": self.p.numerator, "den": self.p.denominator}

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


def _danger_level(view: dict[str, Any]) -> int:
    """The danger level the check's damage counts: with the mods' ``dl_delta`` (the view's
    check says it), else the game's."""
    return int((view.get("check") or {}).get("danger_level", view["danger_level"]))


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


@_quiet
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
        danger_level=_danger_level(view),
        settings=settings,
        pie=int(maiden["levels"]["pie"]),
        failure_delta=int(check.get("failure_damage_delta", 0)),
        slate_delta=int(check.get("slate_per_die_delta", 0)),
        reroll_highest=bool(check.get("reroll_highest")),
    )


def boss_move(view: dict[str, Any], settings: dict[str, Any], room: str) -> PreRoll | None:
    """The odds of the boss check a move to ``room`` leads into (the view's ``boss_checks``: the
    check against the boss's next action, as the check panel will show it once started), counted
    as :func:`pre_roll` counts that check; None for a room without a living boss, or when the odds
    model refuses it."""
    entry = (view.get("boss_checks") or {}).get(room)
    if not entry or not entry.get("check"):
        return None
    return pre_roll({**view, "check": entry["check"]}, settings)


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
    failure_delta: int = 0,
    slate_delta: int = 0,
    reroll_highest: bool = False,
) -> PreRoll:
    """``failure_delta`` and ``slate_delta``: the failure damage and the slate damage per die
    that mods add (``failure_damage_delta``, ``slate_per_die_delta``), counted in the expected
    damage: the odds' damage is the danger level on a failure plus, with a slate, the dice left
    times the damage per die. ``reroll_highest``: the mod of that name is in force, so the
    engine rerolls the highest die right after the roll; the odds count it (MV-BOSS-10)."""
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
        reroll_highest=reroll_highest,
    )
    expected = result.expected_damage + max(-max(1, danger_level), failure_delta) * (1 - result.p_success)
    per_die = base.per_die(max(1, danger_level))
    if slate_delta and result.slate is not None and per_die > 0:
        dice_left = result.slate_damage.mean() / per_die  # the slate damage is dice left x per die
        expected += dice_left * (max(0, per_die + slate_delta) - per_die)
    return PreRoll(
        success=Chance(result.p_success),
        expected_damage=expected,
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


@_quiet
def room_card_odds(
    view: dict[str, Any], settings: dict[str, Any], card: Any, seat: int, room_check: dict[str, Any]
) -> PreRoll:
    """The odds of checking against a room card offered by a draw (MV-CHECK-2: the player keeps
    one), for the maiden at ``seat`` in her room, with the rules in force there as the engine
    gives them (``room_check`` of the view's pending draw: the mods, the danger level and the
    failure damage they add; MV-EXPL-8)."""
    maiden = next(m for m in view["maidens"] if m["seat"] == seat)
    mods = room_check["mods"]
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
        danger_level=int(room_check["danger_level"]),
        settings=settings,
        pie=pie,
        failure_delta=int(room_check["failure_damage_delta"]),
        slate_delta=int(mods.get("slate_per_die_delta", 0)),
        reroll_highest=bool(mods.get("reroll_highest")),
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


@_quiet
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
    # Dice already taken out (pairs ascended, or a near pair of Many Eyes or the Hanged Man, whose
    # unequal faces the odds model's removed pairs cannot hold) leave the pool here: their bonus
    # is in the engine's AP, which the offset below carries to every plan.
    kept = [k for k in range(len(dice)) if k not in removed]
    at = {k: n for n, k in enumerate(kept)}
    pool = [dice[k] for k in kept]
    slate = _slate(check)
    bonus = 0 if check.get("no_ascension") else int(check.get("bonus", 1))
    target = int(check["target"])
    agi = int(maiden["levels"]["agi"])
    rules = _bonus_variant(settings)
    kwargs: dict[str, Any] = {
        "slate": slate,
        "target": target,
        "agi": agi,
        "danger_level": max(1, _danger_level(view)),
        "variant": rules,
        "slate_per_die_delta": int(check.get("slate_per_die_delta", 0)),  # a mod's (MV-BOSS-10)
    }
    # The odds module counts the bonus of pairs already removed; the engine's AP also holds AP
    # bonuses of skills: the offset between them is the same for every plan.
    plans = odds.ascension_plans(pool, bonus, **kwargs)
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
        if i not in at or j not in at:
            continue
        after = odds.ascension_plans(pool, bonus, removed=[at[i], at[j]], **kwargs)
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
                best=best_first is not None and face == pool[best_first[0]][1],
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
        best_pairs=tuple((kept[a], kept[b]) for a, b in best.pairs),
        choices=marked,
        slate_damage_now=stop.slate_damage,
    )


@_quiet
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
    if check.get("auto_success"):
        return Chance(Fraction(1))
    try:
        # the engine's AP also holds AP bonuses of skills and Arcana already used: the offset
        # between its AP and the model's is the same after any reroll
        stop = odds.ascension_plans(
            dice,
            bonus,
            removed=removed,
            slate=_slate(check),  # type: ignore[arg-type]
            variant=_bonus_variant(settings),
        )
        offset = int(check.get("ap") or 0) - next(p for p in stop if not p.pairs).ap
        result = odds.reroll_odds(
            dice,
            index,
            bonus,
            size=size,
            slate=_slate(check),  # type: ignore[arg-type]
            target=int(check["target"]),
            agi=int(maiden["levels"]["agi"]),
            danger_level=max(1, _danger_level(view)),
            variant=_bonus_variant(settings),
            removed=removed,
            ap_bonus=offset,
        )
    except odds.OddsError:
        return None
    return None if result.p_success is None else Chance(result.p_success)


@_quiet
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
            danger_level=max(1, _danger_level(view)),
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


# ---------------------------------------------------------------- skills and Arcana that change a check

#: Ops that change the dice or the outcome of a check (docs/maiden.md, OPS). A skill or Arcana
#: shows a chance when its ops contain one of these and every op is one the odds model knows.
USE_ODDS_DICE = 8
"""After the roll, a use that sets, swaps or pairs dice shows its chance for pools of at most
this many dice left: each of its variants (a die and a face, a pair of dice) counts every plan
of the pool, and a twelve-die pool's thirty variants took seconds per check. Rerolls count face
totals instead, and the one-die buttons a dynamic programme: they show a chance at any size."""

CHECK_CHANGING_OPS = frozenset(
    {
        "reroll",
        "die_adjust",
        "set_die",
        "swap_colours",
        "near_pair",
        "ap_bonus",
        "auto_success",
        "ignore_slate",
        "ignore_slate_dice",
        "extra_white",
        "die_bonus_size",
    }
)
#: Ops that do not change P(success) of the check in progress (damage, healing, the map, the
#: decks, other maidens): a use that also has them still shows the chance of its check ops.
_NEUTRAL_OPS = frozenset(
    {
        "reduce_damage",
        "heal",
        "mp",
        "free_pass",
        "refresh_skills",
        "learn_skill",
        "skill_level",
        "extra_draw",
        "look_rooms",
        "reveal_passage",
        "boss_disable_action",
        "boss_damage",
    }
)


@dataclass
class _Table:
    """The rolled check as the odds model sees it, changed op by op (a copy per branch)."""

    dice: list[tuple[str, int]]
    removed: list[int]
    sizes: list[int]
    slate: str | None
    agi: int
    ap_bonus: int  # the engine's AP bonuses (skills, Arcana) and the near pairs' bonuses
    reroll: tuple[int, ...] | None = None  # dice rerolled last (the outcome is then random)

    def copy(self) -> _Table:
        return _Table(list(self.dice), list(self.removed), list(self.sizes), self.slate, self.agi, self.ap_bonus)

    def remaining(self) -> list[int]:
        return [i for i in range(len(self.dice)) if i not in self.removed]

    def slate_index(self) -> int | None:
        return next((i for i, d in enumerate(self.dice) if d[0] == self.slate), None) if self.slate else None


@_quiet
def use_chance(
    view: dict[str, Any],
    settings: dict[str, Any],
    ops: list[dict[str, Any]],
    command: dict[str, Any],
    *,
    view_key: str | None = None,
) -> Chance | None:
    """:func:`_use_chance`, kept per process for the same arguments: every poll of every viewer
    renders the check panel again while a check waits, and the uses of a large pool need not be
    counted again each time. ``view_key``: the view as canonical JSON when the caller has it (a
    screen makes it once for all its buttons; a view is tens of kilobytes)."""
    if view_key is None:
        view_key = canonical(view)
    return _kept_use_chance(view_key, canonical([settings, ops, command]))


def canonical(value: Any) -> str:
    """The JSON text of a view or an argument, the same for the same content."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


@functools.lru_cache(maxsize=4096)
def _kept_use_chance(view_key: str, arguments: str) -> Chance | None:
    settings, ops, command = json.loads(arguments)
    return _use_chance(_decoded(view_key), settings, ops, command)


@functools.lru_cache(maxsize=16)
def _decoded(view_key: str) -> dict[str, Any]:
    """A view decoded once for all its buttons (read only: the counting copies what it changes)."""
    value: dict[str, Any] = json.loads(view_key)
    return value


def _use_chance(
    view: dict[str, Any], settings: dict[str, Any], ops: list[dict[str, Any]], command: dict[str, Any]
) -> Chance | None:
    """P(success) after using a skill or Arcana (its ``ops``, already scaled by the skill's
    level) with the picks of ``command``, then playing optimally, exactly (``delve.maiden.odds``).

    Before the roll: the check's odds with the white dice or the die size the ops give. After the
    roll: the ops are applied in order to the rolled dice; the first op with a pick takes it from
    the command, a later one (a ``choose`` decision after the use) is taken at its best; a
    reroll, last, is counted over every face (:func:`odds.reroll_dice_odds`), so rerolling one,
    two or any number of dice and the ±1 / set-a-face buttons all read the same model.

    None (nothing shown) when the use does not change the check, or when it is outside the odds
    model: an op the model does not know; dice carrying points (``pie_mode = boost``) or
    bonuses placed on chosen dice (``multi_die_checks``), which the screen's pool does not keep
    apart from the faces; a near pair already ascended, whose unequal faces the model's removed
    dice cannot hold; or an op after a reroll (its outcome would depend on the new faces).
    """
    check = view.get("check")
    maiden = _active(view)
    if not check or maiden is None or check.get("result") is not None:
        return None
    names = [str(op.get("op")) for op in ops]
    if not any(n in CHECK_CHANGING_OPS for n in names) or any(
        n not in CHECK_CHANGING_OPS and n not in _NEUTRAL_OPS for n in names
    ):
        return None
    if not check.get("rolled"):
        return _pre_roll_use(view, settings, ops, maiden)
    if settings.get("multi_die_checks") or settings.get("pie_mode") == "boost":
        return None  # bonuses sit on dice: outside the screen's model of the pool
    if any(d.get("bonus") for d in check["dice"]):
        return None
    if check.get("auto_success"):
        return Chance(Fraction(1))
    dice, removed = _pool(check)
    if len(dice) - len(removed) > USE_ODDS_DICE and not all(str(op.get("op")) == "reroll" for op in ops):
        return None  # too many dice to count every plan of every variant while the page waits
    table = _Table(
        dice, removed, [int(d["size"]) for d in check["dice"]], _slate(check), int(maiden["levels"]["agi"]), 0
    )
    rules = _bonus_variant(settings)
    bonus = 0 if check.get("no_ascension") else int(check.get("bonus", 1))
    try:
        stop = next(p for p in _plans(table, bonus, rules, None, view) if not p.pairs)
    except odds.OddsError:
        return None  # a near pair among the removed dice: outside the model
    table.ap_bonus = int(check.get("ap") if check.get("ap") is not None else stop.ap) - stop.ap
    target = int(check["target"])
    try:
        best = _best_after(table, ops, dict(command), True, bonus, rules, target, view)
    except odds.OddsError:
        return None
    return None if best is None else Chance(best[0])


def _check_args(table: _Table, rules: Variant, target: int | None, view: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments every question to the odds module asks about this table."""
    return {
        "slate": table.slate,
        "target": target,
        "agi": table.agi,
        "danger_level": max(1, _danger_level(view)),
        "variant": rules,
        "removed": table.removed,
        "ap_bonus": table.ap_bonus,
    }


def _plans(table: _Table, bonus: int, rules: Variant, target: int | None, view: dict[str, Any]) -> list[odds.Plan]:
    return odds.ascension_plans(table.dice, bonus, **_check_args(table, rules, target, view))


def _amount(op: dict[str, Any], view: dict[str, Any]) -> int:
    value = op.get("amount", 1)
    return int(view["danger_level"]) if value == "dl" else int(value)


def _best_after(
    table: _Table,
    ops: list[dict[str, Any]],
    picks: dict[str, Any],
    from_command: bool,
    bonus: int,
    rules: Variant,
    target: int,
    view: dict[str, Any],
) -> tuple[Fraction, Fraction] | None:
    """(P(success), −expected damage) after ``ops`` and optimal play; a pick op takes ``picks``
    (the command's) when ``from_command``, else its best legal pick (the player's choice)."""
    for n, op in enumerate(ops):
        name = str(op.get("op"))
        if table.reroll is not None and name in CHECK_CHANGING_OPS:
            return None  # an op after a reroll would depend on the new faces
        if name == "ap_bonus":
            table.ap_bonus += _amount(op, view)
        elif name == "auto_success":
            return Fraction(1), -_expected_damage(table, bonus, rules, target, view, auto=True)
        elif name == "ignore_slate":
            table.slate = None
        elif name == "ignore_slate_dice":
            table.agi += _amount(op, view)
        elif name in ("die_adjust", "set_die", "swap_colours", "near_pair", "reroll"):
            rest = ops[n + 1 :]
            if from_command:
                return _apply_pick(table, name, picks, rest, bonus, rules, target, view)
            options = _legal_picks(table, op, name, view)
            if not options:
                continue  # nothing to act on: the op does nothing (effect.no_target)
            outcomes = [_apply_pick(table.copy(), name, pick, rest, bonus, rules, target, view) for pick in options]
            known = [o for o in outcomes if o is not None]
            return max(known) if len(known) == len(outcomes) else None
        elif name in ("extra_white", "die_bonus_size"):
            return None  # before the roll only
    if table.reroll is not None:
        result = odds.reroll_dice_odds(
            table.dice,
            table.reroll,
            bonus,
            size=table.sizes[table.reroll[0]],
            **_check_args(table, rules, target, view),
        )
        assert result.p_success is not None and result.damage is not None
        return result.p_success, -result.damage.mean()
    plan = _plans(table, bonus, rules, target, view)[0]
    return Fraction(int(bool(plan.success))), -Fraction(plan.damage or 0)


def _apply_pick(
    table: _Table,
    name: str,
    pick: dict[str, Any],
    rest: list[dict[str, Any]],
    bonus: int,
    rules: Variant,
    target: int,
    view: dict[str, Any],
) -> tuple[Fraction, Fraction] | None:
    if name in ("die_adjust", "set_die"):
        die, face = int(pick["die"]), int(pick["face"])
        if die in table.removed or not 1 <= face <= table.sizes[die]:
            return None
        table.dice[die] = (table.dice[die][0], face)
    elif name == "swap_colours":
        i, j = (int(x) for x in pick["dice"])
        (ci, fi), (cj, fj) = table.dice[i], table.dice[j]
        table.dice[i], table.dice[j] = (cj, fi), (ci, fj)
    elif name == "near_pair":
        i, j = sorted(int(x) for x in pick["dice"])
        # checked by the odds module (MV-ASC-6); then the pair leaves the pool with its bonus
        odds.near_pair_plan(
            table.dice,
            (i, j),
            bonus,
            slate=table.slate,
            variant=rules,
            removed=table.removed,  # type: ignore[arg-type]
        )
        keep = [k for k in range(len(table.dice)) if k not in (i, j)]
        table.dice = [table.dice[k] for k in keep]
        table.sizes = [table.sizes[k] for k in keep]
        table.removed = [keep.index(k) for k in table.removed]
        table.ap_bonus += bonus
    else:  # reroll: counted over every face once the other ops are applied
        table.reroll = tuple(int(x) for x in pick["dice"])
    return _best_after(table, rest, {}, False, bonus, rules, target, view)


def _legal_picks(table: _Table, op: dict[str, Any], name: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The picks the engine would offer for ``op`` on this table (``effects``' choosers)."""
    left = table.remaining()
    slate = table.slate_index()
    if name == "reroll":
        count = op.get("count", 1)
        sizes = range(1, len(left) + 1) if count == "any" else [min(len(left), max(1, int(count)))]
        return [{"dice": list(c)} for n in sizes for c in itertools.combinations(left, n)]
    if name == "swap_colours":
        return [{"dice": [i, j]} for i, j in itertools.combinations(left, 2) if table.dice[i][0] != table.dice[j][0]]
    if name == "near_pair":
        if (view.get("check") or {}).get("no_ascension") or (slate is None and len(left) <= 2):
            return []
        return [
            {"dice": [i, j]}
            for i, j in itertools.combinations(left, 2)
            if slate not in (i, j) and abs(table.dice[i][1] - table.dice[j][1]) == 1
        ]
    if name == "set_die":
        return [{"die": i, "face": f} for i in left for f in range(1, table.sizes[i] + 1) if f != table.dice[i][1]]
    step = abs(_amount(op, view))
    return [
        {"die": i, "face": new}
        for i in left
        for new in sorted({max(1, table.dice[i][1] - step), min(table.sizes[i], table.dice[i][1] + step)})
        if new != table.dice[i][1]
    ]


def _expected_damage(
    table: _Table, bonus: int, rules: Variant, target: int, view: dict[str, Any], *, auto: bool
) -> Fraction:
    """Slate damage of the best plan when success is certain (auto_success)."""
    plans = _plans(table, bonus, rules, target, view)
    return Fraction(min(p.slate_damage for p in plans) if auto else plans[0].damage or 0)


def _pre_roll_use(
    view: dict[str, Any], settings: dict[str, Any], ops: list[dict[str, Any]], maiden: dict[str, Any]
) -> Chance | None:
    """Before the roll: the check's odds (:func:`pre_roll`) with the white dice, die size and
    slate the ops give (MV-CHECK-4/5, MV-SLATE-2), as the engine computes them."""
    check = dict(view["check"])
    for op in ops:
        name = str(op.get("op"))
        if name == "extra_white":
            if not check.get("no_white_dice"):
                check["white"] = int(check.get("white", 0)) + _amount(op, view)
        elif name == "die_bonus_size":
            check["size_bonus"] = int(check.get("size_bonus") or 0) + _amount(op, view)
            if not check.get("size_chosen"):
                wil = int(maiden["levels"]["wil"]) + int(check["size_bonus"])
                index = max(0, min(wil, 4) + int(check.get("die_step") or 0))
                check["size"] = odds.DIE_SIZES[min(index, len(odds.DIE_SIZES) - 1)]
        elif name == "ignore_slate":
            check["slate_ignored"] = True
        elif name == "auto_success":
            return Chance(Fraction(1))
        elif name in ("ap_bonus", "ignore_slate_dice"):
            pass  # AP bonuses count after the roll; the chance below adds them
        elif name in CHECK_CHANGING_OPS:
            return None  # a die op: after the roll only
    extra_ap = sum(_amount(op, view) for op in ops if op.get("op") == "ap_bonus")
    if extra_ap:
        check["target"] = max(1, int(check["target"]) - extra_ap)
    before = pre_roll({**view, "check": check}, settings)
    return None if before is None else before.success
