"""Game settings: a preset plus operator overrides, validated with messages naming the setting.

A game is ``{"preset": "level-d", "wait_time": "30m", ...}``. Times accept seconds or a number
with a unit (``"6h"``, ``"90m"``, ``"45s"``, ``"2d"``). ``treasure_count`` accepts an integer or
the formula ``"players/2"`` (AMB-54). Only the operator's basic rules (FL-CFG-1) and the
tuning parameters (FL-CFG-5/8) can be overridden; the class names, the monster roster and the
registration image belong to the preset.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from delve.fated import content, maze
from delve.fated.state import Settings
from delve.kernel import SettingsError, Text, durations, setting_int

DEFAULT_PRESET = "fated-labyrinth"

LABELS: dict[str, dict[str, str]] = {
    "players": {"en": "Players", "ja": "プレイ人数"},
    "wait_time": {"en": "Wait time", "ja": "待機時間"},
    "maze_size": {"en": "Maze size (tiles per side)", "ja": "迷宮の広さ"},
    "ice_rate": {"en": "Ice rate", "ja": "氷床率"},
    "treasure_count": {"en": "Treasures placed", "ja": "財宝設置数"},
    "treasure_quota": {"en": "Treasure quota", "ja": "財宝ノルマ"},
    "kill_quota": {"en": "Kill quota", "ja": "撃破ノルマ"},
    "move_count": {"en": "Moves per turn", "ja": "移動回数"},
    "decks": {"en": "Card decks (500 cards each)", "ja": "カードデッキ"},
    "abandon_time": {"en": "Abandon time", "ja": "放棄時間"},
    "max_stored_turns": {"en": "Max stored turns", "ja": "最大蓄積ターン"},
    "pass_cp_move": {"en": "CP for passing in the move phase", "ja": "移動フェイズのパスで回復するCP"},
    "pass_cp_core": {"en": "CP for passing in the core phase", "ja": "中心フェイズのパスで回復するCP"},
    "opposite_status_mode": {"en": "Opposite statuses", "ja": "対極の状態変化"},
    "trap_cancel_on_forced_move": {"en": "Forced move cancels a trap", "ja": "強制移動でワナがキャンセル"},
}
BASIC_RULES = (
    "players",
    "wait_time",
    "maze_size",
    "ice_rate",
    "treasure_count",
    "treasure_quota",
    "kill_quota",
    "move_count",
    "decks",
    "abandon_time",
    "max_stored_turns",
)
PRESET_ONLY = frozenset({"monster_roster", "registration_image", "preset"})
PERCENT_KEYS = frozenset({"ice_rate", "door_rate"})
TIME_KEYS = frozenset({"wait_time", "abandon_time", "comment_min_interval", "first_accumulation_max"})
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")


def parse_duration(key: str, value: Any) -> int:
    if isinstance(value, bool):
        raise SettingsError(
            key, f"expected seconds or a duration like '6h', got {value!r}", expected="duration", got=value
        )
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        match = _DURATION.match(value)
        if match:
            seconds = float(match.group(1)) * _UNITS[match.group(2) or "s"]
            if seconds.is_integer():
                return int(seconds)
    raise SettingsError(
        key, f"expected seconds or a duration like '6h', '90m', '45s', got {value!r}", expected="duration", got=value
    )


def format_duration(seconds: int) -> str:
    """A time in the settings' own syntax (``"6h"``, ``"90s"``), which :func:`parse_duration`
    reads back: the API's value. People read :func:`delve.kernel.durations.say`."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _int(key: str, value: Any) -> int:
    return setting_int(key, value)


def _number(key: str, value: Any) -> float:
    if isinstance(value, bool):
        raise SettingsError(key, f"expected a number, got {value!r}", expected="number", got=value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().rstrip("%"))
        except ValueError:
            pass
    raise SettingsError(key, f"expected a number, got {value!r}", expected="number", got=value)


def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in {"true", "false", "1", "0", "yes", "no"}:
        return value.strip().lower() in {"true", "1", "yes"}
    raise SettingsError(key, f"expected true or false, got {value!r}", expected="boolean", got=value)


def _range(key: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise SettingsError(
            key,
            f"must be between {low:g} and {high:g}, got {value:g}",
            expected="range",
            low=low,
            high=high,
            unit="s" if key in TIME_KEYS else "%" if key in PERCENT_KEYS else "",
            got=value,
        )


def resolve(overrides: Mapping[str, Any]) -> Settings:
    """The complete settings for a game: the preset's values with ``overrides`` applied.

    :raises SettingsError: naming the first unknown or invalid setting.
    """
    data = content.load()
    preset_id = overrides.get("preset", DEFAULT_PRESET)
    if preset_id not in data.presets:
        raise SettingsError("preset", f"unknown preset {preset_id!r}; known: {', '.join(sorted(data.presets))}")
    merged: dict[str, Any] = dict(data.presets[preset_id].settings)
    known = set(Settings.__struct_fields__)
    for key, value in overrides.items():
        if key == "preset":
            continue
        if key not in known:
            raise SettingsError(
                key, f"unknown setting; known: {', '.join(sorted(known - {'preset'}))}", expected="unknown", got=value
            )
        if key in PRESET_ONLY:
            raise SettingsError(key, "belongs to the preset and cannot be overridden")
        merged[key] = value
    values = _coerce(merged)
    values["preset"] = preset_id
    settings = msgspec.convert(values, type=Settings)
    _check(settings)
    return settings


_COERCE: dict[str, Callable[[str, Any], Any]] = {
    "ice_rate": _number,
    "door_rate": _number,
    "trap_cancel_on_forced_move": _bool,
    "registration_image": _bool,
}


def _coerce(merged: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in merged.items():
        if key in TIME_KEYS:
            out[key] = parse_duration(key, value)
        elif key in _COERCE:
            out[key] = _COERCE[key](key, value)
        elif key in {"opposite_status_mode", "sight_metric"}:
            out[key] = str(value)
        elif key == "monster_roster":
            out[key] = tuple(value)
        elif key == "treasure_count":
            out[key] = value  # resolved below, once players is known
        else:
            out[key] = _int(key, value)
    players = out.get("players", 4)
    count = out.get("treasure_count", "players/2")
    if isinstance(count, str) and count.replace(" ", "") == "players/2":
        out["treasure_count"] = players // 2 if isinstance(players, int) else 0
    else:
        out["treasure_count"] = _int("treasure_count", count)
    return out


def _check(s: Settings) -> None:
    if s.players < 4 or s.players % 4:
        raise SettingsError("players", f"must be a multiple of 4 (4, 8, 12, ...), got {s.players} (FL-CFG-2)")
    _range("players", s.players, 4, 64)
    _range("wait_time", s.wait_time, 1, 30 * 86400)
    _range("max_stored_turns", s.max_stored_turns, 1, 1000)
    _range("maze_size", s.maze_size, 7, 61)
    _range("ice_rate", s.ice_rate, 0, 50)
    _range("door_rate", s.door_rate, 0, 20)
    _range("treasure_count", s.treasure_count, 1, 100)
    _range("treasure_quota", s.treasure_quota, 1, s.treasure_count)
    _range("kill_quota", s.kill_quota, 0, s.players - 1)
    _range("move_count", s.move_count, 1, 20)
    _range("decks", s.decks, 1, 20)
    _range("abandon_time", s.abandon_time, 60, 365 * 86400)
    _range("pass_cp_move", s.pass_cp_move, 0, 1000)
    _range("pass_cp_core", s.pass_cp_core, 0, 1000)
    _range("start_hp", s.start_hp, 1, 10000)
    _range("start_cp", s.start_cp, 0, 10000)
    _range("status_turns", s.status_turns, 1, 100)
    _range("priest_plus_status_turns", s.priest_plus_status_turns, 1, 100)
    _range("poison_step", s.poison_step, 0, 100)
    _range("event_log_size", s.event_log_size, 1, 500)
    _range("comment_max_len", s.comment_max_len, 1, 1000)
    _range("comment_min_interval", s.comment_min_interval, 0, 86400)
    _range("first_accumulation_max", s.first_accumulation_max, 0, 30 * 86400)
    if s.opposite_status_mode not in {"replace", "coexist"}:
        raise SettingsError(
            "opposite_status_mode",
            f"must be replace or coexist, got {s.opposite_status_mode!r}",
            expected="choice",
            choices=("replace", "coexist"),
            got=s.opposite_status_mode,
        )
    if s.sight_metric not in {"chebyshev", "manhattan"}:
        raise SettingsError(
            "sight_metric",
            f"must be chebyshev or manhattan, got {s.sight_metric!r}",
            expected="choice",
            choices=("chebyshev", "manhattan"),
            got=s.sight_metric,
        )
    maze.check_fits(
        size=s.maze_size,
        players=s.players,
        ice_rate_percent=s.ice_rate,
        treasure_count=s.treasure_count,
        door_rate_percent=s.door_rate,
    )


def first_accumulation_max(s: Settings) -> int:
    return s.first_accumulation_max or s.wait_time


def describe(s: Settings) -> list[tuple[str, Text, str, Text]]:
    """(key, label, value as the settings write it, value for people per language) for every basic
    rule, in the manual's order: ``("wait_time", ..., "1m", {"en": "1 min", "ja": "1分"})``."""
    lines = []
    for key in BASIC_RULES:
        value = getattr(s, key)
        if key in TIME_KEYS:
            lines.append((key, LABELS[key], format_duration(value), durations.text(value)))
            continue
        shown = f"{value:g}%" if key in PERCENT_KEYS else str(value)
        lines.append((key, LABELS[key], shown, {lang: shown for lang in durations.LANGS}))
    return lines


def as_dict(s: Settings) -> dict[str, Any]:
    return {f: getattr(s, f) for f in s.__struct_fields__}
