"""The odds of a check named by its content (``delve lab odds --room/--boss``) and of the check
modifiers (MODS) a boss action or an area applies, counted exactly as the engine plays them.

A room card gives its difficulty and slate (MV-CHECK-2/3); a boss action (MV-BOSS-2,
MV-CHECK-16) its difficulty, slate and ``mods``. The mods that change the dice or the damage are
counted as ``delve.maiden.checks`` applies them:

* ``difficulty_delta``: added to the target (MV-CHECK-3, at least 1);
* ``dl_delta``: added to the danger level the check's damage counts (failure damage and, under
  ``slate_damage_per_die = danger_level``, the slate damage per die);
* ``failure_damage_delta``: added to the failure damage (DL + delta, never below 0);
* ``slate_per_die_delta``: added to the slate damage per remaining die (never below 0);
* ``die_step``: the die one size smaller per step (min d4, ``dice.die_size``);
* ``no_white_dice``: no white dice (Pie still gives the ascension bonus);
* ``no_ascension``: no pair is ascended (:mod:`delve.maiden.odds_baseline`);
* ``ascension_bonus_fixed``: the bonus per ascension, whatever Pie is;
* ``reroll_highest``: the highest die rerolled once right after the roll (MV-BOSS-10).

``skills_always_exhaust`` and ``failure_exhausts_skill`` change what a check costs in skills,
not its odds: they are named, not counted.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from delve.maiden import content as maiden_content
from delve.maiden import dice as engine_dice
from delve.maiden.odds import (
    CheckOdds,
    Distribution,
    Objective,
    OddsError,
    SlateColour,
    Variant,
    check_odds,
    target_number,
)
from delve.maiden.odds_baseline import no_ascension_odds

#: The check mods (content.CHECK_MODS) that only change what the check costs in skills; the odds
#: count every other one.
NOT_COUNTED = ("skills_always_exhaust", "failure_exhausts_skill")
COUNTED = tuple(sorted(maiden_content.CHECK_MODS - set(NOT_COUNTED)))


@dataclass(frozen=True)
class Source:
    """What a named room card or boss action gives the check."""

    label: str
    difficulty: int
    slate: SlateColour | None
    required_count: int = 1
    mods: dict[str, Any] = field(default_factory=dict)


def markers(round_: int) -> int:
    """MV-ROUND-7: the action markers in round r, ⌈r/2⌉ (the base target, OQ-4)."""
    return math.ceil(round_ / 2)


def _match(text: str, key: str, names: tuple[str, ...]) -> bool:
    wanted = text.strip().casefold()
    return wanted == key.casefold() or any(wanted == n.casefold() for n in names)


def room_card(name: str) -> Source:
    """A room card by id (``r05``) or English/Japanese name (any case).

    :raises OddsError: naming ``room``, with the cards' ids when none matches.
    """
    data = maiden_content.load()
    for card in data.room_cards.values():
        if _match(name, card.id, (card.name.en, card.name.ja)):
            return Source(
                label=f"room card {card.id} {card.name.en}",
                difficulty=int(card.difficulty),
                slate=card.slate,
                required_count=int(card.required_count),
            )
    raise OddsError("room", f"{name!r} is no room card (ids {', '.join(sorted(data.room_cards))}, or a card's name)")


def boss_action(boss: str, action: str | None) -> Source:
    """A boss (id like ``tiphareth`` or name) and one of its three actions (1-3, or the action's
    name; the action's name alone is enough when ``boss`` is an action's name).

    :raises OddsError: naming ``boss`` or ``action``.
    """
    data = maiden_content.load()
    for definition in data.bosses.values():
        actions = definition.actions
        if _match(boss, definition.id, (definition.name.en, definition.name.ja)):
            if action is None:
                listing = "; ".join(f"{i} {a.name.en}" for i, a in enumerate(actions, 1))
                raise OddsError("action", f"{definition.name.en} has three actions: name one with --action ({listing})")
            index = next(
                (
                    i
                    for i, a in enumerate(actions)
                    if action.strip() == str(i + 1) or _match(action, "", (a.name.en, a.name.ja))
                ),
                None,
            )
            if index is None:
                listing = "; ".join(f"{i} {a.name.en}" for i, a in enumerate(actions, 1))
                raise OddsError("action", f"{action!r} is not an action of {definition.name.en} ({listing})")
            return _source(definition, index)
        for index, a in enumerate(actions):
            if action is None and _match(boss, "", (a.name.en, a.name.ja)):
                return _source(definition, index)
    raise OddsError("boss", f"{boss!r} is no boss (ids {', '.join(data.bosses)}, a boss's or an action's name)")


def _source(definition: Any, index: int) -> Source:
    a = definition.actions[index]
    return Source(
        label=f"{definition.name.en} ({definition.id}, life {definition.life}), action {index + 1} {a.name.en}",
        difficulty=int(a.difficulty),
        slate=a.slate,
        required_count=int(a.required_count),
        mods=dict(a.mods.active()),
    )


def named_odds(
    wil: int,
    pie: int,
    base: int,
    difficulty: int,
    *,
    mods: dict[str, Any],
    agi: int = 0,
    slate: SlateColour | None = None,
    danger_level: int = 1,
    required_count: int = 1,
    variant: Variant | None = None,
    objective: Objective = "success",
) -> tuple[CheckOdds, int, int]:
    """The exact odds of one check with ``mods`` in force, and the danger level and failure
    damage it counts (DL + ``dl_delta``, and that + ``failure_damage_delta``, not below 0).

    The odds' ``damage`` is the total the engine deals (``checks.after_result``): the failure
    damage on a failure plus, with a slate, the dice left beyond Agi times the damage per die
    (with ``slate_per_die_delta``).

    :raises OddsError: naming the bad argument, or ``mods`` for a combination not counted
        (``no_ascension`` with a slate and another dice mod).
    """
    variant = variant or Variant()
    unknown = sorted(set(mods) - set(COUNTED) - set(NOT_COUNTED))
    if unknown:
        raise OddsError("mods", f"{', '.join(unknown)} do not apply to one check")
    dl = max(1, danger_level + int(mods.get("dl_delta", 0)))
    failure = max(0, dl + int(mods.get("failure_damage_delta", 0)))
    target = target_number(base, difficulty + int(mods.get("difficulty_delta", 0)))
    size = engine_dice.die_size(wil, int(mods.get("die_step", 0)))
    white = 0 if mods.get("no_white_dice") else pie
    reroll = bool(mods.get("reroll_highest"))
    fixed = mods.get("ascension_bonus_fixed")
    if mods.get("no_ascension"):
        if slate is not None and (size != engine_dice.die_size(wil) or white != pie or reroll):
            raise OddsError("mods", "no_ascension with a slate and another dice mod is not counted by the lab")
        if slate is not None:
            result = no_ascension_odds(
                wil, pie, target, agi=agi, slate=slate, danger_level=dl, variant=variant, objective=objective
            )
        else:
            result = check_odds(
                wil,
                pie,
                target,
                agi=agi,
                danger_level=dl,
                required_count=required_count,
                variant=variant,
                size=size,
                white=white,
                bonus=0,
                reroll_highest=reroll,
                objective=objective,
            )
    else:
        result = check_odds(
            wil,
            pie,
            target,
            agi=agi,
            slate=slate,
            danger_level=dl,
            required_count=required_count,
            variant=variant,
            size=size,
            white=white,
            bonus=None if fixed is None else int(fixed),
            reroll_highest=reroll,
            objective=objective,
        )
    per_die = variant.per_die(dl)
    per_die_now = max(0, per_die + int(mods.get("slate_per_die_delta", 0)))
    if failure == dl and per_die_now == per_die:
        return result, dl, failure
    counts: dict[int, Fraction] = {}
    slate_counts: dict[int, Fraction] = {}
    for (ap, slate_dealt), p in result.joint.outcomes:
        dealt = slate_dealt // per_die * per_die_now
        total = dealt + (0 if ap >= result.target else failure)
        counts[total] = counts.get(total, Fraction(0)) + p
        slate_counts[dealt] = slate_counts.get(dealt, Fraction(0)) + p
    damage = Distribution(tuple(sorted((k, p) for k, p in counts.items() if p)))
    slate_damage = Distribution(tuple(sorted((k, p) for k, p in slate_counts.items() if p)))
    return dataclasses.replace(result, damage=damage, slate_damage=slate_damage), dl, failure
