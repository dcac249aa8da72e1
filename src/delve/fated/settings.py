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

from delve.fated import content, maze, text
from delve.fated.state import Settings
from delve.kernel import SettingsError, Text, durations, number_text, setting_int

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
    "registration_image": {"en": "Image chosen at registration", "ja": "登録時にイメージを選ぶ"},
    "monster_roster": {"en": "Monsters", "ja": "モンスターの顔ぶれ"},
    "start_hp": {"en": "Starting HP", "ja": "開始時のHP"},
    "start_cp": {"en": "Starting CP", "ja": "開始時のCP"},
    "status_turns": {"en": "Status duration (turns)", "ja": "状態変化の持続ターン"},
    "priest_plus_status_turns": {
        "en": "Priest's plus status duration (turns)",
        "ja": "僧侶のプラス状態変化の持続ターン",
    },
    "poison_step": {"en": "Poison loss per application", "ja": "毒の重ね掛けごとの減少量"},
    "sight_metric": {"en": "Sight distance", "ja": "視界の距離の測り方"},
    "door_rate": {"en": "Door rate", "ja": "扉の率"},
    "event_log_size": {"en": "Event log length", "ja": "イベントログの件数"},
    "comment_max_len": {"en": "Comment length (characters)", "ja": "コメントの最大文字数"},
    "comment_min_interval": {"en": "Time between comments", "ja": "コメントの最短間隔"},
    "first_accumulation_max": {"en": "Longest wait for the first turn", "ja": "最初のターン蓄積までの最長時間"},
}
#: A short help for each setting (the staff form lists every key with its label and this).
HELP: dict[str, dict[str, str]] = {
    "players": {
        "en": "Seats in the game, a multiple of 4 (FL-CFG-2); it starts when all are taken.",
        "ja": "ゲームの席数。4の倍数（FL-CFG-2）。全席が埋まると始まります。",
    },
    "wait_time": {
        "en": "A turn comes every wait time (e.g. 6h, 30m; under a minute is for testing).",
        "ja": "この時間ごとにターンが来ます（例: 6h、30m。1分未満はテスト用）。",
    },
    "maze_size": {
        "en": "Tiles per side of the square maze (7 to 61).",
        "ja": "正方形の迷宮の一辺のマス数（7〜61）。",
    },
    "ice_rate": {
        "en": "Share of the maze that is frozen floor, in percent (0 to 50).",
        "ja": "迷宮のうち氷床の割合（%、0〜50）。",
    },
    "treasure_count": {
        "en": "Treasures placed in the maze: a number, or players/2.",
        "ja": "迷宮に置く財宝の数。数か players/2。",
    },
    "treasure_quota": {
        "en": "Treasures a player needs to win (at most the treasures placed).",
        "ja": "勝利に必要な財宝の数（財宝設置数まで）。",
    },
    "kill_quota": {
        "en": "Players one must defeat to win (0 to players - 1).",
        "ja": "勝利に必要な撃破人数（0〜プレイ人数−1）。",
    },
    "move_count": {"en": "Move phases in each turn.", "ja": "1ターンの移動フェイズの回数。"},
    "decks": {"en": "How many 500-card sets the game uses.", "ja": "使う500枚組のカードの組数。"},
    "abandon_time": {
        "en": "A player who does not act for this long has abandoned the game.",
        "ja": "この時間行動しないプレイヤーはゲームを放棄したとみなされます。",
    },
    "max_stored_turns": {
        "en": "Turns a player can store up; more are lost.",
        "ja": "蓄積できるターン数。超えた分は失われます。",
    },
    "pass_cp_move": {
        "en": "CP a character regains by passing in the move phase.",
        "ja": "移動フェイズでパスしたときに回復するCP。",
    },
    "pass_cp_core": {
        "en": "CP a character regains by passing in the core phase.",
        "ja": "中心フェイズでパスしたときに回復するCP。",
    },
    "opposite_status_mode": {
        "en": "replace: an opposite status removes the first; coexist: both stay listed, the first cancelled.",
        "ja": "replace: 対極の状態変化は前のものを消す。coexist: 両方表示され、前のものは打ち消される。",
    },
    "trap_cancel_on_forced_move": {
        "en": "Whether a forced move cancels a trap the character set (true or false).",
        "ja": "強制移動でキャラクターの仕掛けたワナがキャンセルされるか（true / false）。",
    },
    "registration_image": {
        "en": "Whether players choose an image at registration; set by the preset.",
        "ja": "登録時にイメージを選ぶか。プリセットで決まります。",
    },
    "monster_roster": {
        "en": "The monsters of the maze; set by the preset.",
        "ja": "迷宮に現れるモンスター。プリセットで決まります。",
    },
    "start_hp": {"en": "HP (and maximum HP) at the start.", "ja": "開始時のHP（最大HP）。"},
    "start_cp": {"en": "CP (and maximum CP) at the start.", "ja": "開始時のCP（最大CP）。"},
    "status_turns": {"en": "Turns a status lasts.", "ja": "状態変化が続くターン数。"},
    "priest_plus_status_turns": {
        "en": "Turns a plus status given by a priest lasts.",
        "ja": "僧侶がかけたプラスの状態変化が続くターン数。",
    },
    "poison_step": {
        "en": "HP lost per turn for each application of poison.",
        "ja": "毒を1回重ねるごとに増える、1ターンのHP減少量。",
    },
    "sight_metric": {
        "en": "chebyshev: sight is a square; manhattan: a diamond.",
        "ja": "chebyshev: 視界は正方形。manhattan: ひし形。",
    },
    "door_rate": {
        "en": "Share of the maze's tiles that are doors, in percent (0 to 20).",
        "ja": "迷宮のマスのうち扉の割合（%、0〜20）。",
    },
    "event_log_size": {
        "en": "Events the game screen's log keeps.",
        "ja": "ゲーム画面のイベントログに残る件数。",
    },
    "comment_max_len": {
        "en": "Longest comment a player may set, in characters.",
        "ja": "プレイヤーが設定できるコメントの最大文字数。",
    },
    "comment_min_interval": {
        "en": "Shortest time between two comments of a player.",
        "ja": "同じプレイヤーのコメントの最短間隔。",
    },
    "first_accumulation_max": {
        "en": "Each player's first turn comes after a random wait up to this (0: the wait time).",
        "ja": "各プレイヤーの最初のターンは、この時間までのランダムな時間の後に来ます（0: 待機時間）。",
    },
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
#: The bounds of the percentage settings (FL-CFG-1, FL-CFG-5).
NUMBER_RANGES: dict[str, tuple[float, float]] = {"ice_rate": (0, 50), "door_rate": (0, 20)}
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
    """A percentage setting as a float. One outside its range (:data:`NUMBER_RANGES`) is refused
    here, quoting the value as given: ``float`` would round a long whole number."""
    if isinstance(value, bool):
        raise SettingsError(key, f"expected a number, got {value!r}", expected="number", got=value)
    number: float | None = None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip().rstrip("%"))
        except ValueError:
            number = None
    if number is None:
        raise SettingsError(key, f"expected a number, got {value!r}", expected="number", got=value)
    low, high = NUMBER_RANGES[key]
    if not low <= number <= high:
        shown = value.strip().rstrip("%") if isinstance(value, str) else value
        _range(key, shown if isinstance(shown, int) else number, low, high, got=shown)
    return number


def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in {"true", "false", "1", "0", "yes", "no"}:
        return value.strip().lower() in {"true", "1", "yes"}
    raise SettingsError(key, f"expected true or false, got {value!r}", expected="boolean", got=value)


def _range(key: str, value: float, low: float, high: float, *, got: Any = None) -> None:
    """Refuse ``value`` outside ``low``..``high``, quoting ``got`` (default: ``value``) in all its
    digits (:func:`~delve.kernel.number_text`: ``18446744073709551616``, never ``1.84467e+19``)."""
    if not low <= value <= high:
        got = value if got is None else got
        raise SettingsError(
            key,
            f"must be between {number_text(low)} and {number_text(high)}, got {number_text(got)}",
            expected="range",
            low=low,
            high=high,
            unit="s" if key in TIME_KEYS else "%" if key in PERCENT_KEYS else "",
            got=got,
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
            raise SettingsError(
                key,
                "belongs to the preset and cannot be overridden",
                expected="rule",
                got=value,
                words={
                    "en": "belongs to the preset and cannot be changed: choose another preset.",
                    "ja": "プリセットで決まる設定で、変更できません。別のプリセットを選んでください。",
                },
            )
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
        raise maze.not_multiple_of_4(s.players, "(FL-CFG-2)")
    _range("players", s.players, 4, 64)
    _range("wait_time", s.wait_time, 1, 30 * 86400)
    _range("max_stored_turns", s.max_stored_turns, 1, 1000)
    _range("maze_size", s.maze_size, 7, 61)
    _range("ice_rate", s.ice_rate, *NUMBER_RANGES["ice_rate"])
    _range("door_rate", s.door_rate, *NUMBER_RANGES["door_rate"])
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
        label = preset_label(key, s.preset)
        if key in TIME_KEYS:
            lines.append((key, label, format_duration(value), durations.text(value)))
            continue
        shown = f"{value:g}%" if key in PERCENT_KEYS else str(value)
        lines.append((key, label, shown, {lang: shown for lang in durations.LANGS}))
    return lines


def preset_label(key: str, preset: str) -> Text:
    """A setting's label in the preset's words (FL-CFG-5, P-25/26, through text.vocabulary):
    Level D's table says "Dungeon size" / ダンジョンの広さ where Fated Labyrinth's says
    "Maze size" / 迷宮の広さ, and 移動ターン where it says 移動フェイズ."""
    return {lang: text.vocabulary(label, lang, preset) for lang, label in LABELS[key].items()}


def as_dict(s: Settings) -> dict[str, Any]:
    return {f: getattr(s, f) for f in s.__struct_fields__}
