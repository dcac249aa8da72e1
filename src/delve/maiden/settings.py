"""Game settings: the game settings (players, start player, turn deadline) and every variant
toggle of §6.3 with its default, validated with a :class:`SettingsError` naming the setting.

A game is ``{"players": 2, "ascension_bonus": "pie", ...}``; a ``preset`` supplies a bundle of
values first (``white-maiden``: the rulebook; ``white-maiden-normal``: the CHG-13/16 valves).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from delve.kernel import Choice, SettingsError, Text, durations, quote, setting_int
from delve.maiden.state import Settings

DEFAULT_PRESET = "white-maiden"
PRESETS: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "white-maiden": ({"en": "White Maiden (rulebook)", "ja": "白き乙女（ルールブック）"}, {}),
    "white-maiden-normal": (
        {"en": "White Maiden, normal difficulty", "ja": "白き乙女（ノーマル難易度）"},
        {"difficulty": "normal", "entry_restrictions": True},
    ),
}

LABELS: dict[str, dict[str, str]] = {
    "players": {"en": "Players", "ja": "プレイ人数"},
    "start_player": {"en": "Start player", "ja": "スタートプレイヤー"},
    "turn_deadline_hours": {"en": "Turn deadline (hours, 0 = off)", "ja": "手番の期限（時間、0 = なし）"},
    "life_max": {"en": "Maximum life", "ja": "最大ライフ"},
    "boss_life_bonus": {"en": "Boss life bonus at 2/4 players", "ja": "2・4人時のボスライフ増加"},
    "ascension_bonus": {"en": "Ascension bonus", "ja": "アセンションのボーナス"},
    "slate_damage_per_die": {"en": "Slate damage per die", "ja": "スレートのサイコロ毎ダメージ"},
    "danger_room_entry_damage": {"en": "Danger room entry damage", "ja": "デンジャールーム入室ダメージ"},
    "quest_room_skips_check": {"en": "Quest rooms skip the check", "ja": "クエストルームは判定なし"},
    "danger_room_skips_check": {"en": "Danger rooms skip the check", "ja": "デンジャールームは判定なし"},
    "difficulty": {"en": "Difficulty", "ja": "難易度"},
    "room_reduction_2p_4p": {"en": "Fewer special rooms at 2/4 players", "ja": "2・4人時の特殊ルーム削減"},
    "entry_restrictions": {"en": "Entry-restricted rooms", "ja": "入室制限ルーム"},
    "multi_die_checks": {"en": "Checks needing several dice", "ja": "複数サイコロ判定"},
    "pie_mode": {"en": "Piety mode", "ja": "信仰の効果"},
    "agi_skill_level_option": {"en": "Agility may level a skill", "ja": "敏捷でスキルレベル上昇を選択可"},
    "familiar_evolution": {"en": "Familiar evolution", "ja": "従者の進化"},
    "familiars_per_player": {"en": "Familiars per player (1p/2p/3p/4p)", "ja": "従者の数（1〜4人）"},
    "ins_applies_to_room_deck": {
        "en": "Inspiration applies to room and quest draws",
        "ja": "霊感をルーム・クエストにも適用",
    },
    "boss_rooms_block_passage": {"en": "Living bosses block passage", "ja": "ボスルームは通過不可"},
    "allow_smaller_die": {"en": "Smaller dice allowed (simulation)", "ja": "小さいサイコロを選択可（検証用）"},
    "slate_roll_restricted": {
        "en": "Slate checks roll slate + white only (simulation)",
        "ja": "スレート判定は色＋白のみ（検証用）",
    },
    "base_target": {"en": "Base target number", "ja": "基本目標値"},
    "event_log_size": {"en": "Event log length", "ja": "イベントログの件数"},
}
#: The variants kept for the balance lab's simulations (§6.3: "simulation only"): players cannot
#: choose them, so the new-game form leaves them out and a game's "Rules of this game" lists one
#: only when a staff-made game turned it on; the staff form and the lab still list them.
SIMULATION_ONLY = frozenset({"allow_smaller_die", "slate_roll_restricted", "base_target"})
#: The settings the games list and the new-game form show (every labelled one but the tuning
#: parameters only an operator sets through the overrides, and the simulation-only variants).
DESCRIBED = tuple(key for key in LABELS if key != "event_log_size" and key not in SIMULATION_ONLY)
#: The values a setting takes on the staff form, where they are typed, when they are not the words
#: the players' form shows (its choices say "seat 1" to "seat 4").
VALUES: dict[str, dict[str, str]] = {
    "start_player": {
        "en": "Values: random, choose, or the seat's index 0-3.",
        "ja": "設定値：random、choose、または席の番号0〜3。",
    },
}
#: A short help for each setting, in the players' words: the new-game form shows it under the
#: setting, the staff form lists every key with its label and this (and VALUES). No spec IDs and no
#: stored values here (tests/server/test_maiden_lobby.py holds it).
HELP: dict[str, dict[str, str]] = {
    "players": {"en": "Seats in the game, 1 to 4.", "ja": "ゲームの席数（1〜4）。"},
    "start_player": {
        "en": "Who plays first: random, chosen at the table, or seat 1 to 4.",
        "ja": "最初の手番：ランダム、卓で決める、または席1〜4。",
    },
    "turn_deadline_hours": {
        "en": "Hours a decision may wait before the autopilot plays it (0: no deadline).",
        "ja": "決定を待つ時間。過ぎると自動で進めます（0: 期限なし）。",
    },
    "life_max": {"en": "A maiden's maximum life.", "ja": "乙女の最大ライフ。"},
    "boss_life_bonus": {
        "en": "Extra boss life in 2- and 4-player games: a third of its life rounded up, none, or a fixed "
        "bonus of up to +20.",
        "ja": "2・4人プレイ時のボスのライフ増加：ライフの3分の1（切り上げ）、なし、または+20までの固定値。",
    },
    "ascension_bonus": {
        "en": "Ascension adds 1 + Piety (the rulebook) or Piety alone.",
        "ja": "アセンションのボーナスは 1＋信仰（ルールブック）か信仰のみ。",
    },
    "slate_damage_per_die": {
        "en": "Damage for each die a slate check leaves: 1 or the danger level.",
        "ja": "スレート判定で残ったサイコロ1個ごとのダメージ：1 かデンジャーレベル。",
    },
    "danger_room_entry_damage": {
        "en": "Damage on entering a danger room: none or the new danger level.",
        "ja": "デンジャールーム入室時のダメージ：なし か 上がった後のデンジャーレベル。",
    },
    "quest_room_skips_check": {
        "en": "Quest rooms have no room check, like rest rooms.",
        "ja": "クエストルームではレストルームと同じくルーム判定をしません。",
    },
    "danger_room_skips_check": {
        "en": "Danger rooms have no room check, like rest rooms.",
        "ja": "デンジャールームではレストルームと同じくルーム判定をしません。",
    },
    "difficulty": {
        "en": "Easy: every special room is active (the rulebook); normal: fewer rest rooms.",
        "ja": "イージー：特殊ルームはすべて有効（ルールブック）。ノーマル：レストルームが減ります。",
    },
    "room_reduction_2p_4p": {
        "en": "Some special rooms are inactive in 2- and 4-player games.",
        "ja": "2・4人プレイ時は一部の特殊ルームが無効になります。",
    },
    "entry_restrictions": {
        "en": "Some rooms need certain symbols to enter; normal difficulty only.",
        "ja": "入室に特定のシンボルが必要なルーム。ノーマル難易度のみ。",
    },
    "multi_die_checks": {
        "en": "Checks may need several dice at or above the target.",
        "ja": "目標値以上のサイコロが複数必要な判定。",
    },
    "pie_mode": {
        "en": "Piety raises the ascension bonus, or boosts rolled dice past their maximum.",
        "ja": "信仰はアセンションのボーナスを上げるか、振ったサイコロを最大値を超えて増やします。",
    },
    "agi_skill_level_option": {
        "en": "A card placed on Agility may raise a skill's level instead of learning one.",
        "ja": "敏捷にカードを置くとき、新しいスキルの代わりにスキルレベルを上げられます。",
    },
    "familiar_evolution": {
        "en": "A freed area's Arcana may give a familiar its ultimate skill.",
        "ja": "エリア解放のアルカナで従者に奥義を与えられます。",
    },
    "familiars_per_player": {
        "en": "Familiars each player takes in a game of 1, 2, 3 and 4 players, e.g. 1/1/1/1.",
        "ja": "1〜4人プレイ時に各プレイヤーが連れる従者の数。例: 1/1/1/1。",
    },
    "ins_applies_to_room_deck": {
        "en": "Inspiration's extra draws apply to room and quest cards too.",
        "ja": "霊感による追加ドローをルーム・クエストカードにも適用します。",
    },
    "boss_rooms_block_passage": {
        "en": "A boss room cannot be passed through while its boss lives.",
        "ja": "ボスが生きている間はボスルームを通過できません。",
    },
    "allow_smaller_die": {
        "en": "Dice smaller than Will's size may be rolled; for simulations.",
        "ja": "意志のサイズより小さいサイコロを振れます。検証用。",
    },
    "slate_roll_restricted": {
        "en": "A slate check rolls only the slate colour and white; for simulations.",
        "ja": "スレート判定では色と白のサイコロだけを振ります。検証用。",
    },
    "base_target": {
        "en": "The base target is the action markers (the rule) or the round number; for simulations.",
        "ja": "基本目標値はアクションマーカー数（ルール）かラウンド数。検証用。",
    },
    "event_log_size": {
        "en": "Events the game screen's log keeps.",
        "ja": "ゲーム画面のイベントログに残る件数。",
    },
}

_DANGER_LEVEL: Text = {"en": "the danger level", "ja": "デンジャーレベル"}
_NONE: Text = {"en": "none", "ja": "なし"}
#: The values of the choice settings with their labels for people (the new-game form's options
#: and the shown settings; one source for both).
CHOICE_LABELS: dict[str, dict[str, Text]] = {
    "ascension_bonus": {"one_plus_pie": {"en": "1 + Piety", "ja": "1＋信仰"}, "pie": {"en": "Piety", "ja": "信仰"}},
    "slate_damage_per_die": {"1": {"en": "1", "ja": "1"}, "danger_level": _DANGER_LEVEL},
    "danger_room_entry_damage": {"none": _NONE, "danger_level": _DANGER_LEVEL},
    "difficulty": {
        "easy": {"en": "easy (the rulebook)", "ja": "イージー（ルールブック）"},
        "normal": {"en": "normal", "ja": "ノーマル"},
    },
    "pie_mode": {
        "ascension": {"en": "ascension bonus", "ja": "アセンションのボーナス"},
        "boost": {"en": "boost the dice", "ja": "サイコロを増やす"},
    },
    "base_target": {
        "action_markers": {"en": "action markers", "ja": "アクションマーカー数"},
        "round_number": {"en": "round number", "ja": "ラウンド数"},
    },
}
_CHOICES: dict[str, tuple[str, ...]] = {key: tuple(labels) for key, labels in CHOICE_LABELS.items()}
VALUES.update(
    {
        key: {"en": f"Values: {', '.join(values)}.", "ja": f"設定値：{'、'.join(values)}。"}
        for key, values in _CHOICES.items()
    }
)
VALUES["boss_life_bonus"] = {
    "en": "Values: ceil_third, none, or a fixed bonus 0-20.",
    "ja": "設定値：ceil_third、none、または固定値0〜20。",
}
START_PLAYER_LABELS: dict[str, Text] = {
    "random": {"en": "random", "ja": "ランダム"},
    "choose": {"en": "chosen at the table", "ja": "卓で決める"},
    **{str(seat): {"en": f"seat {seat + 1}", "ja": f"席{seat + 1}"} for seat in range(4)},
}
BOSS_LIFE_BONUS_LABELS: dict[str, Text] = {
    "ceil_third": {"en": "a third of its life, rounded up", "ja": "ライフの3分の1（切り上げ）"},
    "none": _NONE,
    **{str(n): {"en": f"+{n}", "ja": f"+{n}"} for n in range(1, 21)},
}
ON_OFF: dict[bool, Text] = {True: {"en": "on", "ja": "あり"}, False: {"en": "off", "ja": "なし"}}
#: The bounds of the whole-number settings (validation and the form's inputs read them).
RANGES: dict[str, tuple[int, int]] = {
    "players": (1, 4),
    "turn_deadline_hours": (0, 24 * 30),
    "life_max": (1, 20),
    "event_log_size": (1, 500),
}
_BOOLS = frozenset(
    {
        "quest_room_skips_check",
        "danger_room_skips_check",
        "room_reduction_2p_4p",
        "entry_restrictions",
        "multi_die_checks",
        "agi_skill_level_option",
        "familiar_evolution",
        "ins_applies_to_room_deck",
        "boss_rooms_block_passage",
        "allow_smaller_die",
        "slate_roll_restricted",
    }
)


def _int(key: str, value: Any, low: int, high: int) -> int:
    try:
        number = setting_int(key, value)
    except SettingsError:
        raise SettingsError(
            key, f"expected an integer, got {quote(value)}", expected="integer", low=low, high=high, got=value
        ) from None
    if not low <= number <= high:
        unit = "h" if key == "turn_deadline_hours" else ""
        raise SettingsError(
            key,
            f"must be between {low} and {high}, got {number}",
            expected="range",
            low=low,
            high=high,
            unit=unit,
            got=number,
        )
    return number


def _ranged(key: str, value: Any) -> int:
    low, high = RANGES[key]
    return _int(key, value, low, high)


def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in {"true", "false", "1", "0", "yes", "no", "on", "off"}:
        return value.strip().lower() in {"true", "1", "yes", "on"}
    raise SettingsError(key, f"expected true or false, got {value!r}", expected="boolean", got=value)


def _choice(key: str, value: Any) -> str:
    text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if text not in _CHOICES[key]:
        raise SettingsError(
            key,
            f"must be one of {', '.join(_CHOICES[key])}, got {value!r}",
            expected="choice",
            choices=_CHOICES[key],
            got=value,
        )
    return text


def _start_player(key: str, value: Any) -> int | str:
    if isinstance(value, str) and value.strip() in {"random", "choose"}:
        return value.strip()
    try:
        return _int(key, value, 0, 3)
    except SettingsError:
        raise SettingsError(
            key,
            f"must be random, choose or a seat number 0-3, got {value!r}",
            expected="choice",
            choices=tuple(START_PLAYER_LABELS),
            got=value,
        ) from None


def _boss_life_bonus(key: str, value: Any) -> int | str:
    if isinstance(value, str) and value.strip() in {"ceil_third", "none"}:
        return value.strip()
    try:
        return _int(key, value, 0, 20)
    except SettingsError:
        raise SettingsError(
            key,
            f"must be ceil_third, none or a fixed bonus 0-20, got {value!r}",
            expected="choice",
            choices=tuple(BOSS_LIFE_BONUS_LABELS),
            got=value,
        ) from None


def _familiars(key: str, value: Any) -> tuple[int, int, int, int]:
    if isinstance(value, (list, tuple)):
        if len(value) != 4:
            raise SettingsError(
                key,
                f"expected 4 numbers (for 1, 2, 3 and 4 players), got {value!r}",
                expected="integer",
                low=1,
                high=4,
                got=value,
            )
        counts = [_int(key, v, 1, 4) for v in value]
        return (counts[0], counts[1], counts[2], counts[3])
    n = _int(key, value, 1, 4)
    return (n, n, n, n)


_COERCE: dict[str, Callable[[str, Any], Any]] = {
    **{key: _ranged for key in RANGES},
    "start_player": _start_player,
    "boss_life_bonus": _boss_life_bonus,
    "familiars_per_player": _familiars,
    **{key: _choice for key in _CHOICES},
    **{key: _bool for key in _BOOLS},
}


def resolve(overrides: Mapping[str, Any]) -> Settings:
    """The complete settings: the preset's values with ``overrides`` applied, every default filled.

    :raises SettingsError: naming the first unknown or invalid setting.
    """
    preset = overrides.get("preset", DEFAULT_PRESET)
    if preset not in PRESETS:
        raise SettingsError("preset", f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    merged: dict[str, Any] = dict(PRESETS[preset][1])
    for key, value in overrides.items():
        if key == "preset":
            continue
        if key not in _COERCE:
            raise SettingsError(
                key, f"unknown setting; known: {', '.join(sorted(_COERCE))}", expected="unknown", got=value
            )
        merged[key] = value
    values = {key: _COERCE[key](key, value) for key, value in merged.items()}
    settings = msgspec.convert({"preset": preset, **values}, type=Settings)
    _check(settings)
    return settings


def _check(s: Settings) -> None:
    """The rules that tie two settings together, each with its words for people (``words``: the
    pages show them after the setting's label, in the reader's language)."""
    if isinstance(s.start_player, int) and s.start_player >= s.players:
        seat = s.start_player + 1
        raise SettingsError(
            "start_player",
            f"seat {s.start_player} does not exist in a {s.players}-player game",
            expected="rule",
            got=s.start_player,
            words={
                "en": f"seat {seat} does not exist in a {s.players}-player game: choose one of its seats, "
                "random or chosen at the table, or more players.",
                "ja": f"{s.players}人のゲームに席{seat}はありません。その人数の席、ランダム、卓で決めるのいずれかを"
                "選ぶか、プレイ人数を増やしてください。",
            },
        )
    if s.entry_restrictions and s.difficulty == "easy":
        raise SettingsError(
            "entry_restrictions",
            "entry-restricted rooms are absent in easy difficulty (CHG-16)",
            expected="rule",
            got=s.entry_restrictions,
            words={
                "en": "entry-restricted rooms need normal difficulty: easy difficulty (the rulebook) has none. "
                "Turn them off or choose normal difficulty.",
                "ja": "入室制限ルームはノーマル難易度のものです：イージー難易度（ルールブック）にはありません。"
                "入室制限をなしにするか、ノーマル難易度を選んでください。",
            },
        )


def familiars_per_player(s: Settings) -> int:
    return s.familiars_per_player[s.players - 1]


def boss_life(s: Settings, life: int) -> int:
    """MV-SPEC-4, SUG-9: a boss's starting life, with ``boss_life_bonus`` at 2 and 4 players."""
    return starting_life(s.players, s.boss_life_bonus, life)


def starting_life(players: int, bonus: int | str, life: int) -> int:
    """:func:`boss_life` from the two settings it reads (the screens show it before a fight)."""
    if players not in (2, 4) or bonus == "none":
        return life
    if bonus == "ceil_third":
        return life + -(-life // 3)
    return life + int(bonus)


def presets() -> list[Choice]:
    return [Choice(key, label) for key, (label, _) in PRESETS.items()]


#: Settings of the table, not of the rules: a game with other values still plays its preset's rules.
TABLE_KEYS = frozenset({"preset", "players", "start_player", "turn_deadline_hours", "event_log_size"})

_DIFFICULTY_WORDS: dict[str, Text] = {
    "easy": {"en": "easy", "ja": "イージー"},
    "normal": {"en": "normal", "ja": "ノーマル"},
}


def title(values: Mapping[str, Any]) -> Text:
    """A game's name as the lobby and its pages show it: the name of the preset whose rules it
    plays (every setting but the table's equal to that preset's), else the game and its difficulty
    with "changed rules" (a normal-difficulty game from the rulebook preset was titled
    "White Maiden (rulebook)")."""
    try:
        rules = as_dict(resolve(values))
    except SettingsError:
        return PRESETS.get(str(values.get("preset")), PRESETS[DEFAULT_PRESET])[0]
    own = str(values.get("preset", DEFAULT_PRESET))
    for key in sorted(PRESETS, key=lambda k: k != own):  # its own preset first
        base = as_dict(resolve({"preset": key}))
        if all(rules.get(k) == v for k, v in base.items() if k not in TABLE_KEYS):
            return PRESETS[key][0]
    word = _DIFFICULTY_WORDS.get(str(rules.get("difficulty")), {"en": str(rules.get("difficulty")), "ja": ""})
    return {
        "en": f"White Maiden, {word['en']} difficulty (changed rules)",
        "ja": f"白き乙女（{word['ja'] or word['en']}難易度・ルール変更あり）",
    }


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    return str(value)


def _labels(key: str) -> dict[str, Text]:
    """The labelled values of a choice setting (empty: not a choice)."""
    if key == "start_player":
        return START_PLAYER_LABELS
    if key == "boss_life_bonus":
        return BOSS_LIFE_BONUS_LABELS
    return CHOICE_LABELS.get(key, {})


def _shown(key: str, value: Any) -> Text:
    """``value`` of ``key`` for people, in every language."""
    if isinstance(value, bool):
        return ON_OFF[value]
    if key == "turn_deadline_hours":
        return _NONE if value == 0 else durations.text(value * 3600)
    labels = _labels(key)
    if _value(value) in labels:
        return labels[_value(value)]
    return {lang: _value(value) for lang in durations.LANGS}


def choices(key: str) -> tuple[Choice, ...]:
    """The values ``key`` accepts with their labels, for a form (empty: not a choice)."""
    return tuple(Choice(value, label) for value, label in _labels(key).items())


def describe(s: Settings, *, every: bool = False) -> list[tuple[str, Text, str, Text]]:
    """(key, label, value as the settings write it, value for people per language) of every
    setting players see, game settings first, then any simulation-only variant ``s`` turns away
    from its default (two "(simulation)" lines were listed to players who could not choose them);
    ``every``: the simulation-only ones too, as the lab's report lists them."""
    default = Settings()
    keys = [
        *DESCRIBED,
        *(k for k in LABELS if k in SIMULATION_ONLY and (every or getattr(s, k) != getattr(default, k))),
    ]
    return [(key, LABELS[key], _value(getattr(s, key)), _shown(key, getattr(s, key))) for key in keys]


def as_dict(s: Settings) -> dict[str, Any]:
    return {f: (list(v) if isinstance(v := getattr(s, f), tuple) else v) for f in s.__struct_fields__}
