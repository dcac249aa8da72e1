"""Sentences for every event kind, in English and Japanese (the recent-events panel, the CLI,
notifications). ``sentence(kind, data, lang, content, names)`` never raises for a known kind;
ids are shown by their content names in the language asked for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LANGS = ("en", "ja")

#: kind -> (English, Japanese); placeholders are filled by ``_fields``.
SENTENCES: dict[str, tuple[str, str]] = {
    "setup.start_player": ("{seat} is the start player.", "スタートプレイヤーは{seat}です。"),
    "setup.familiar": ("{seat} takes the familiar {familiar}.", "{seat}は従者{familiar}を選びました。"),
    "setup.done": ("Setup is complete; the game begins.", "準備が終わり、ゲームが始まります。"),
    "round.started": (
        "Round {round} begins: {action_markers} action markers, base target {base_target}.",
        "ラウンド{round}開始：アクションマーカー{action_markers}個、基本目標値{base_target}。",
    ),
    "turn.started": ("{seat}'s turn.", "{seat}の手番です。"),
    "turn.ended": ("{seat}'s turn ends.", "{seat}の手番が終わりました。"),
    "turn.autoplayed": (
        "The deadline passed: the autopilot played for {seats}.",
        "期限が過ぎたため、{seats}の手番を自動で進めました。",
    ),
    "maiden.moved": ("{seat} moves to {to} ({cost} MP).", "{seat}は{to}へ移動しました（移動力{cost}）。"),
    "maiden.stayed": ("{seat} has nowhere to go and stays.", "{seat}は移動先がなく、留まりました。"),
    "maiden.entered": ("{seat} enters {room} ({type}).", "{seat}は{room}（{type}）に入室しました。"),
    "maiden.healed": ("{seat} heals {amount} (life {life}).", "{seat}はライフを{amount}回復しました（ライフ{life}）。"),
    "maiden.damaged": (
        "{seat} takes {amount} damage ({cause}); life {life}.",
        "{seat}は{amount}ダメージを受けました（{cause}）。ライフ{life}。",
    ),
    "maiden.died": ("{seat} dies and revives on S with 1 life.", "{seat}は死亡し、Ｓでライフ1で復活しました。"),
    "maiden.level_up": ("{seat} levels up.", "{seat}がレベルアップします。"),
    "maiden.extra_draw": ("{seat} will draw {extra} extra card(s).", "{seat}の次のドローは{extra}枚多くなります。"),
    "maiden.mp": ("{seat} gains movement: +{bonus} MP this turn.", "{seat}の移動力がこの手番+{bonus}されます。"),
    "maiden.free_pass": (
        "Unexplored rooms cost {seat} nothing to pass this turn.",
        "この手番、{seat}は未探索ルームを無償で通過できます。",
    ),
    "area.freed": ("{seat} frees the area {area}!", "{seat}がエリア「{area}」を解放しました！"),
    "arcana.gained": ("The Arcana {area} joins the quest area.", "アルカナ「{area}」がクエスト置き場に置かれました。"),
    "arcana.used": (
        "{seat} uses the Arcana {area} for {for_seat}.",
        "{seat}がアルカナ「{area}」を{for_seat}のために使いました。",
    ),
    "familiar.evolved": (
        "{seat}'s familiar evolves: ultimate skill {skill}.",
        "{seat}の使い魔が進化し、奥義「{skill}」を得ました。",
    ),
    "danger.changed": ("The danger level is now {danger_level}.", "デンジャーレベルが{danger_level}になりました。"),
    "deck.reshuffled": ("The {deck} deck is reshuffled ({count} cards).", "{deck}の山を切り直しました（{count}枚）。"),
    "deck.empty": ("The {deck} deck is empty: nothing is drawn.", "{deck}の山が空のため、何も引きません。"),
    "card.drawn": ("{seat} draws {count} {deck} card(s).", "{seat}は{deck}を{count}枚引きました。"),
    "card.kept": ("{seat} keeps {card}.", "{seat}は{card}を残しました。"),
    "card.placed": (
        "{seat} places {card} on {stat} (level {level}).",
        "{seat}は{card}を{stat}に置きました（レベル{level}）。",
    ),
    "card.discarded": ("{card} goes to the discard pile.", "{card}は捨て札になりました。"),
    "skill.learned": ("{seat} learns the skill {skill}.", "{seat}はスキル「{skill}」を習得しました。"),
    "skill.used": ("{seat} uses {skill}.", "{seat}は「{skill}」を使いました。"),
    "skill.exhausted": ("{seat}'s skill {skill} is exhausted.", "{seat}のスキル「{skill}」が消耗しました。"),
    "skill.refreshed": ("{seat}'s skills are ready again ({count}).", "{seat}のスキルが{count}枚回復しました。"),
    "skill.levelled": (
        "{seat}'s skill {skill} rises to level {level}.",
        "{seat}のスキル「{skill}」がレベル{level}になりました。",
    ),
    "check.started": (
        "{seat} faces {source}: target {target}.",
        "{seat}は{source}に挑みます：目標値{target}。",
    ),
    "check.die_size": ("{seat} rolls d{size} this check.", "{seat}はこの判定で{size}面体を振ります。"),
    "check.rolled": ("{seat} rolls {dice}.", "{seat}の出目：{dice}。"),
    "check.rerolled": ("The highest die is rerolled: {faces}.", "最も高い出目を振り直しました：{faces}。"),
    "check.ascended": (
        "{seat} ascends a pair of {face}s: +{bonus} AP.",
        "{seat}は{face}のゾロ目でアセンション：AP+{bonus}。",
    ),
    "check.boosted": ("{seat} boosts a die to {value}.", "{seat}はダイスを{value}に高めました。"),
    "check.modified": ("The check changes: {field} {value}.", "判定が変化しました：{field} {value}。"),
    "check.resolved": ("{seat}: AP {ap} against {target}, {result}.", "{seat}：AP{ap}、目標値{target}で{result}。"),
    "check.event": ("An event occurs ({on}).", "イベントが発生しました（{on}）。"),
    "effect.unsupported": ("The effect {op} is not available yet.", "効果「{op}」はまだ使えません。"),
    "quest.drawn": ("{seat} takes on the quest {quest}.", "{seat}はクエスト「{quest}」を引きました。"),
    "quest.added": ("Quest #{number} joins the quest deck.", "クエスト{number}番がクエストの山に加わりました。"),
    "passage.revealed": ("A hidden passage is revealed: {passage}.", "隠し通路が明らかになりました：{passage}。"),
    "room.changed": ("{room} becomes a {to} room.", "{room}は{to}ルームになりました。"),
    "map.edge_added": ("A new way opens between {a} and {b}.", "{a}と{b}の間に道が開きました。"),
    "boss.engaged": ("{boss} awakens with {life} life.", "{boss}がライフ{life}で目覚めました。"),
    "boss.joined": ("{seat} fights {boss}.", "{seat}は{boss}と戦います。"),
    "boss.hit": ("{boss} loses {amount} life ({life} left).", "{boss}のライフが{amount}減りました（残り{life}）。"),
    "boss.pointer": ("{boss} readies its next action.", "{boss}は次の行動に移ります。"),
    "boss.weakened": ("{boss} is weakened by {amount}.", "{boss}は{amount}弱体化しました。"),
    "boss.defeated": (
        "{boss} is defeated: a Sephirah is recovered ({sephirot} in all).",
        "{boss}を倒し、セフィラを取り戻しました（計{sephirot}）。",
    ),
    "game.won": ("The Mad King has fallen. The maidens win!", "狂王は倒れました。乙女たちの勝利です！"),
    "game.lost": (
        "Round 24 is over and the Mad King lives. The maidens lose.",
        "24ラウンドが終わり、狂王は健在です。敗北です。",
    ),
}

_WORDS: dict[str, tuple[str, str]] = {
    "success": ("success", "成功"),
    "failure": ("failure", "失敗"),
    "always": ("always", "常時"),
    "action": ("action", "アクションカード"),
    "skill": ("skill", "スキルカード"),
    "room": ("room", "ルームカード"),
    "quest": ("quest", "クエストカード"),
    "pie": ("Piety", "信仰"),
    "wil": ("Will", "意思"),
    "agi": ("Agility", "敏捷"),
    "ins": ("Inspiration", "霊感"),
    "normal": ("normal", "通常"),
    "rest": ("rest", "レスト"),
    "danger": ("danger", "デンジャー"),
    "boss": ("boss", "ボス"),
    "start": ("start", "スタート"),
    "rest_room": ("rest room", "レストルーム"),
}


def _text(value: Any, lang: str) -> str:
    try:
        return str(value[lang])
    except (KeyError, TypeError, IndexError):
        return str(value)


def _name(table: Mapping[str, Any] | None, key: Any, lang: str) -> str:
    item = table.get(str(key)) if table is not None else None
    name = getattr(item, "name", None) if item is not None else None
    return _text(name, lang) if name is not None else str(key)


def _fields(data: Mapping[str, Any], lang: str, content: Any, names: Sequence[str] | None) -> dict[str, Any]:
    i = LANGS.index(lang)

    def seat(value: Any) -> str:
        if isinstance(value, int) and names is not None and 0 <= value < len(names):
            return names[value]
        return (
            f"Player {value + 1}"
            if isinstance(value, int) and lang == "en"
            else f"プレイヤー{value + 1}"
            if isinstance(value, int)
            else "—"
        )

    out: dict[str, Any] = dict(data)
    for key in ("seat", "for_seat"):
        if key in data:
            out[key] = seat(data[key])
    if "seats" in data:
        out["seats"] = (
            "、".join(seat(s) for s in data["seats"]) if lang == "ja" else ", ".join(seat(s) for s in data["seats"])
        )
    tables = {
        "familiar": getattr(content, "familiars", None),
        "skill": getattr(content, "skills", None),
        "quest": getattr(content, "quests", None),
        "boss": getattr(content, "bosses", None),
        "area": getattr(content, "areas", None),
        "passage": getattr(content, "passages", None),
    }
    for key, table in tables.items():
        if key in data and isinstance(data[key], str):
            out[key] = _name(table, data[key], lang)
    if "source" in data:
        kind = data.get("kind")
        table = tables["boss"] if kind == "boss" else getattr(content, "room_cards", None)
        out["source"] = _name(table, data["source"], lang)
    if "card" in data and data.get("deck") in ("room", "skill", "quest"):
        table = {"room": getattr(content, "room_cards", None), "skill": tables["skill"], "quest": tables["quest"]}
        out["card"] = _name(table[data["deck"]], data["card"], lang)
    elif "card" in data and isinstance(data["card"], str) and getattr(content, "symbols", None):
        out["card"] = _name({k: _Named(v) for k, v in content.symbols.items()}, data["card"], lang)
    for key in ("result", "on", "deck", "stat", "type", "to"):
        if key in data and data[key] in _WORDS:
            out[key] = _WORDS[data[key]][i]
    if "dice" in data and isinstance(data["dice"], list) and data["dice"] and isinstance(data["dice"][0], list):
        out["dice"] = " ".join(f"{face}({colour[0]})" for colour, _, face in data["dice"])
    if "faces" in data:
        out["faces"] = " ".join(str(f) for f in data["faces"])
    if "cause" in data:
        out["cause"] = _WORDS.get(str(data["cause"]), (str(data["cause"]), str(data["cause"])))[i]
    return out


class _Named:
    def __init__(self, name: Any) -> None:
        self.name = name


def sentence(
    kind: str, data: Mapping[str, Any], lang: str = "en", content: Any = None, names: Sequence[str] | None = None
) -> str:
    """The sentence of one event. Unknown kinds fall back to the kind itself.

    :raises ValueError: for a language other than en or ja.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    template = SENTENCES.get(kind)
    if template is None:
        return kind
    fields = _fields(data, lang, content, names)
    try:
        return template[LANGS.index(lang)].format(**fields)
    except (KeyError, IndexError):
        return template[LANGS.index(lang)].format_map(_Missing(fields))


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"
