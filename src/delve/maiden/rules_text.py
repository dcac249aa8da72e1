"""Player-facing sentences made from the content's data, in English and Japanese: what each
passive modifier (MODS: a boss action's extra rules, MV-BOSS-10) does, when an event triggers
(MV-EVENT-2), and which Inspiration opens which hidden passages (SUG-10).

A boss action's effect and a room card's event have their own texts; the extra rules, the
trigger (success, failure, always) and the passages' thresholds are in the data only, so the
words for them are made here, and every place that describes them before they matter (the help,
the bosses panel, the check panel, a room card offered by a draw) uses these functions. Every
MODS field has a sentence (``MOD_SENTENCES``; a test checks it), so a modifier added to the
content is never silent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from delve.maiden.text import COLOUR_NAMES, die_name, pick

Said = tuple[str, str]


def _n(value: Any) -> int:
    return int(value or 0)


def _signed(value: Any) -> str:
    return f"{_n(value):+d}"


def _step(value: Any) -> Said:
    n = abs(_n(value))
    if _n(value) < 0:
        sizes = "one size" if n == 1 else f"{n} sizes"
        return (
            f"Dice are {sizes} smaller ({die_name(4, 'en')} at least).",
            f"サイコロが{n}段階小さくなる（最小{die_name(4, 'ja')}）。",
        )
    sizes = "one size" if n == 1 else f"{n} sizes"
    return (
        f"Dice are {sizes} bigger ({die_name(20, 'en')} at most).",
        f"サイコロが{n}段階大きくなる（最大{die_name(20, 'ja')}）。",
    )


def _failure_damage(mods: Mapping[str, Any]) -> Said:
    n = _n(mods.get("failure_damage_delta"))
    if mods.get("failure_damage_unless_partner"):
        return (
            f"A failure deals {n} more damage, unless another maiden is in the same area.",
            f"同じエリアに他の白き乙女がいなければ、失敗時のダメージが{n}増える。",
        )
    if n < 0:
        return f"A failure deals {-n} less damage.", f"失敗時のダメージが{-n}減る。"
    return f"A failure deals {n} more damage.", f"失敗時のダメージが{n}増える。"


def _slate(value: Any) -> Said:
    colour = COLOUR_NAMES.get(str(value), {"en": str(value), "ja": str(value)})
    return (
        f"A check without a slate has a {colour['en']} slate.",
        f"スレートのない判定は{colour['ja']}のスレートを持つ。",
    )


#: Each MODS field: its sentence (en, ja) from the field's value and all the mods given with it
#: (None: said by another field's sentence; ``failure_damage_unless_partner`` is part of
#: ``failure_damage_delta``'s).
MOD_SENTENCES: dict[str, Callable[[Any, Mapping[str, Any]], Said] | None] = {
    "explored_pass_cost": lambda v, m: (
        f"Explored rooms cost {_n(v)} movement to pass.",
        f"探索済みのルームの通過に移動力{_n(v)}がかかる。",
    ),
    "mp_delta": lambda v, m: (
        f"Movement points {_signed(v)} (1 at least).",
        f"移動力{_signed(v)}（最低1）。",
    ),
    "stop_at_first_unexplored": lambda v, m: (
        "A maiden must stop in the first unexplored room she moves into.",
        "白き乙女は最初に入った未探索のルームで止まらなければならない。",
    ),
    "one_maiden_per_room": lambda v, m: ("At most one maiden per room.", "1つのルームには白き乙女1人まで。"),
    "difficulty_delta": lambda v, m: (f"Target {_signed(v)}.", f"目標値{_signed(v)}。"),
    "dl_delta": lambda v, m: (
        f"The danger level counts as {_signed(v)} (failure and slate damage).",
        f"デンジャーレベルを{_signed(v)}として扱う（失敗とスレートのダメージ）。",
    ),
    "failure_damage_delta": lambda v, m: _failure_damage(m),
    "failure_damage_unless_partner": None,
    "slate_per_die_delta": lambda v, m: (
        f"Slate damage {_signed(v)} per die.",
        f"スレートのダメージがサイコロ1個につき{_signed(v)}。",
    ),
    "default_slate": lambda v, m: _slate(v),
    "die_step": lambda v, m: _step(v),
    "no_white_dice": lambda v, m: ("No white dice are rolled.", "白いサイコロを振らない。"),
    "no_ascension": lambda v, m: ("No ascension.", "アセンションできない。"),
    "ascension_bonus_fixed": lambda v, m: (
        f"Each ascension adds {_n(v)}, whatever Piety is.",
        f"アセンション1回のボーナスは信仰にかかわらず{_n(v)}。",
    ),
    "reroll_highest": lambda v, m: (
        "After the roll, the highest die is rerolled once.",
        "サイコロを振った後、最も大きい出目のサイコロを1回振り直す。",
    ),
    "skills_always_exhaust": lambda v, m: (
        "Skills used in this check always exhaust, even with their condition met.",
        "この判定で使ったスキルは、条件を満たしていても消耗する。",
    ),
    "ins_draws_disabled": lambda v, m: (
        "Inspiration draws no extra cards.",
        "霊感による追加のドローがない。",
    ),
    "blind_draw": lambda v, m: (
        "Room cards are drawn blind: no choice of card.",
        "ルームカードは選べず、引いた1枚に挑む。",
    ),
    "rest_heal_cap": lambda v, m: (
        f"Rest rooms heal up to {_n(v)} life only.",
        f"レストルームではライフが{_n(v)}までしか回復しない。",
    ),
    "rest_no_refresh": lambda v, m: (
        "Rest rooms do not ready exhausted skills.",
        "レストルームで消耗したスキルが回復しない。",
    ),
    "failure_exhausts_skill": lambda v, m: (
        "A failure also exhausts one of your ready skills.",
        "失敗すると、さらに未消耗のスキル1つを消耗する。",
    ),
    "boss_life_delta": lambda v, m: (
        f"Bosses awaken with {_signed(v)} life.",
        f"ボスのライフが{_signed(v)}された状態で始まる。",
    ),
}


def given(mods: Any) -> dict[str, Any]:
    """The fields of ``mods`` (a Mods struct or a mapping) that differ from their default."""
    if mods is None:
        return {}
    if isinstance(mods, Mapping):
        return {k: v for k, v in mods.items() if v not in (None, False, 0)}
    active = getattr(mods, "active", None)
    return dict(active()) if callable(active) else {}


def mod_sentences(mods: Any, lang: str) -> list[str]:
    """One sentence per rule in ``mods``, in the order of ``MOD_SENTENCES``, in ``lang``. A field
    without a sentence (never in the shipped content: a test sees to it) is named as it is."""
    found = given(mods)
    if found.get("failure_damage_unless_partner") and not found.get("failure_damage_delta"):
        found.pop("failure_damage_unless_partner")  # adds nothing to no extra damage
    ja = (lang or "en")[:2] == "ja"
    out = []
    for key in [k for k in MOD_SENTENCES if k in found] + [k for k in found if k not in MOD_SENTENCES]:
        if key not in MOD_SENTENCES:
            out.append(f"{key} = {found[key]}")
            continue
        say = MOD_SENTENCES[key]
        if say is not None:
            en, jp = say(found[key], found)
            out.append(jp if ja else en)
    return out


def mods_text(mods: Any, lang: str) -> str:
    """The rules of ``mods`` as one text ("" without any)."""
    return ("" if (lang or "en")[:2] == "ja" else " ").join(mod_sentences(mods, lang))


#: When an event happens (MV-EVENT-2: every event says it).
TRIGGERS: dict[str, dict[str, str]] = {
    "success": {"en": "On a success", "ja": "成功時"},
    "failure": {"en": "On a failure", "ja": "失敗時"},
    "always": {"en": "Success or failure", "ja": "成否にかかわらず"},
}


def trigger_label(on: Any, lang: str) -> str:
    """ "On a success" / "成功時"..., the trigger of an event (MV-EVENT-2)."""
    return pick(TRIGGERS.get(str(on), {"en": str(on), "ja": str(on)}), lang)


def event_text(effect: Any, lang: str) -> str:
    """An event (a room card's event, a boss action's effect) as a player reads it before the
    check, its trigger first (MV-EVENT-2): "On a success: His golden blood scalds you: take 1
    damage." ("" without an event)."""
    if effect is None:
        return ""
    on = effect.get("on") if isinstance(effect, Mapping) else getattr(effect, "on", None)
    text = effect.get("text") if isinstance(effect, Mapping) else getattr(effect, "text", None)
    said = pick(text, lang)
    if not said:
        return ""
    colon = "：" if (lang or "en")[:2] == "ja" else ": "
    return f"{trigger_label(on or 'always', lang)}{colon}{said}"


def action_text(action: Any, lang: str) -> str:
    """Everything a boss action does besides its difficulty and slate: its extra rules (mods)
    and its effect with the effect's trigger ("" for a plain action). ``action``: the content's BossAction, or a view's
    action (``mods``, ``effect``: the effect's texts, ``on``: its trigger)."""
    if isinstance(action, Mapping):
        mods = action.get("mods")
        effect = {"on": action.get("on"), "text": action["effect"]} if action.get("effect") else None
    else:
        mods, effect = getattr(action, "mods", None), getattr(action, "effect", None)
    parts = [p for p in (mods_text(mods, lang), event_text(effect, lang)) if p]
    return ("" if (lang or "en")[:2] == "ja" else " ").join(parts)


def passage_thresholds(content: Any) -> list[int]:
    """The Inspiration levels at which hidden passages open (SUG-10), smallest first."""
    return sorted({int(p.min_ins) for p in content.passages.values()})


def passages_sentence(content: Any, lang: str) -> str:
    """Which Inspiration opens which hidden passages, from the map's data (SUG-10), e.g. "At 1
    or more you may also take Qesheth, the Rainbow Bridge; at 2 or more, also the other hidden
    passages (the dashed lines on the map).\""""
    ja = (lang or "en")[:2] == "ja"
    passages = sorted(content.passages.values(), key=lambda p: (int(p.min_ins), p.id))
    if not passages:
        return ""
    levels = passage_thresholds(content)
    if len(levels) == 1:
        if ja:
            return f"{levels[0]}以上になると隠し通路（地図の点線）も通れる。"
        return f"At {levels[0]} or more you may also take the hidden passages (the dashed lines on the map)."
    parts = []
    for level in levels:
        names = [pick(p.name, lang) for p in passages if int(p.min_ins) == level]
        parts.append((level, names))
    if ja:
        said = "、".join(f"{level}以上で{'・'.join(names)}" for level, names in parts)
        return f"隠し通路（地図の点線）は霊感{said}を通れる。"
    said = "; ".join(f"at {level} or more, {' and '.join(names)}" for level, names in parts)
    return f"You may also take the hidden passages (the dashed lines on the map): {said}."
