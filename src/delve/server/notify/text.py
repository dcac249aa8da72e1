"""The words of notifications, in both languages (a message is written in its reader's language)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from delve.server import usertime

LANGUAGES = ("en", "ja")

SUBJECTS: dict[str, dict[str, str]] = {
    "turn": {"en": "{game}: your turn is ready", "ja": "{game}：手番が来ました"},
    "defense": {"en": "{game}: you are attacked, a defense waits", "ja": "{game}：攻撃を受けました（防御待ち）"},
    "cap": {"en": "{game}: turns will be lost soon", "ja": "{game}：まもなくターンが失われます"},
    "deadline_24h": {"en": "{game}: 24 hours left to act", "ja": "{game}：行動の期限まで24時間"},
    "deadline_1h": {"en": "{game}: 1 hour left to act", "ja": "{game}：行動の期限まで1時間"},
    "takeover": {"en": "{game}: a bot now plays your seat", "ja": "{game}：ボットがあなたの席をプレイしています"},
    "started": {"en": "{game} has started", "ja": "{game}が始まりました"},
    "ended": {"en": "{game} has ended", "ja": "{game}が終わりました"},
}

BODIES: dict[str, dict[str, str]] = {
    "turn": {
        "en": "{name}'s turn is ready in {game}.",
        "ja": "{game}で{name}の手番です。",
    },
    "defense": {
        "en": "{name} was attacked in {game}: a defense waits for you.",
        "ja": "{game}で{name}が攻撃を受けました。防御の選択が待っています。",
    },
    "cap": {
        "en": "{name} has {stored} of {cap} stored turns in {game}: from {at} every new turn is lost unless you play.",
        "ja": "{game}の{name}は貯まったターンが{stored}/{cap}です。{at}以降、プレイしないと新しいターンが失われます。",
    },
    "deadline_24h": {
        "en": "{name} must act in {game} before {at} (about 24 hours), or {consequence}.",
        "ja": "{game}の{name}は{at}（約24時間後）までに行動しないと、{consequence}。",
    },
    "deadline_1h": {
        "en": "{name} must act in {game} before {at} (about 1 hour), or {consequence}.",
        "ja": "{game}の{name}は{at}（約1時間後）までに行動しないと、{consequence}。",
    },
    "takeover": {
        "en": "You kept {game} waiting too long: since {at} a bot plays {name} (player {number}) for you. "
        "Open the game to take your seat back. A game partly played by a bot enters no personal record.",
        "ja": "{game}を長く待たせたため、{at}からボットが{name}（プレイヤー{number}）を代わりにプレイしています。"
        "ゲームを開くと席を取り戻せます。ボットが一部をプレイしたゲームは個人記録に残りません。",
    },
    "started": {
        "en": "{game} has started: you play {name} (player {number}).",
        "ja": "{game}が始まりました。あなたは{name}（プレイヤー{number}）です。",
    },
    "ended": {
        "en": "{game} has ended: {name} {result}.",
        "ja": "{game}が終わりました：{name}は{result}。",
    },
}

#: The "has ended" notice of a game whose outcome it was given (``triggers.ended_words``): the
#: outcome of the whole game, the reader's own seat, and the replay.
ENDED_OUTCOME = {
    "en": "{game} has ended: {outcome} You played {name}: {result}.\nThe replay, step by step: {replay}",
    "ja": "{game}が終わりました：{outcome}あなたの{name}は{result}。\nリプレイ（一手ずつ）：{replay}",
}

CONSEQUENCES = {
    "abandon": {"en": "the character is abandoned", "ja": "キャラクターは放棄されます"},
    "autoplay": {"en": "the autopilot plays for you", "ja": "オートパイロットが代わりにプレイします"},
}

RESULTS = {
    "won": {"en": "won", "ja": "勝利しました"},
    "lost": {"en": "lost", "ja": "敗北しました"},
    "won_escape": {"en": "won (escaped)", "ja": "脱出して勝利しました"},
    "won_survivor": {"en": "won (the last survivor)", "ja": "最後の生存者として勝利しました"},
    "abandoned": {"en": "gave up", "ja": "放棄しました"},
    "closed": {"en": "the game was closed before its end", "ja": "途中で終了となりました"},
}

DIGEST_SUBJECT = {
    "en": "Delve: {count} things happened in your games",
    "ja": "Delve：あなたのゲームで{count}件の出来事",
}
DIGEST_INTRO = {"en": "Since the last digest:", "ja": "前回のダイジェスト以降："}
OPEN_LINK = {"en": "Open: {url}", "ja": "開く：{url}"}
FOOTER = {
    "en": "Change what you are told about: {url}",
    "ja": "通知の設定を変更する：{url}",
}


def consequence(data: Mapping[str, Any], lang: str) -> str:
    """What a missed deadline brings: the autopilot, or the character given up in the game's
    preset's words (P-33: Level D says 投了, "deemed to have resigned")."""
    kind = str(data.get("deadline_kind", "")) or "abandon"
    if kind == "abandon" and data.get("preset"):
        from delve.fated import text as fated_text

        return fated_text.word("abandon_consequence", lang, str(data["preset"]))
    return CONSEQUENCES.get(kind, CONSEQUENCES["abandon"])[lang]


def result_word(data: Mapping[str, Any], lang: str) -> str:
    """A seat's result at the end, a give-up in the game's preset's words (P-33: Level D's
    "resigned" / 投了, as its records and standings say)."""
    result = str(data.get("result", ""))
    if result == "abandoned" and data.get("preset"):
        from delve.fated import text as fated_text

        said = fated_text.word("fate_gave_up", lang, str(data["preset"]))
        return said + "しました" if lang == "ja" else said  # 放棄しました / 投了しました, as 勝利しました
    return RESULTS.get(result, {}).get(lang, result)


def language(code: str) -> str:
    return code if code in LANGUAGES else "en"


def when(seconds: int, zone: dt.tzinfo | None = None) -> str:
    """An engine time in the reader's zone (``zone``; UTC when none is given), with the zone's
    abbreviation or offset: "2026-12-05 22:00 JST"."""
    return usertime.say(seconds, zone or dt.UTC)


def render(kind: str, data: Mapping[str, Any], lang: str, zone: dt.tzinfo | None = None) -> tuple[str, str]:
    """The subject and the body of a notice in ``lang``, its times in ``zone`` (the recipient's)."""
    lang = language(lang)
    game = data.get("game", {}).get(lang) or data.get("game", {}).get("en", "")
    fields = {
        "game": game,
        "name": data.get("name", ""),
        "number": data.get("number", ""),
        "stored": data.get("stored", ""),
        "cap": data.get("cap", ""),
        "at": when(int(data["at"]), zone) if data.get("at") is not None else "",
        "consequence": consequence(data, lang),
        "result": result_word(data, lang),
    }
    body = BODIES[kind][lang]
    outcome = data.get("outcome")
    if kind == "ended" and isinstance(outcome, Mapping) and data.get("replay"):
        fields["outcome"] = str(outcome.get(lang) or outcome.get("en") or "")
        fields["replay"] = str(data["replay"])
        body = ENDED_OUTCOME[lang]
    return SUBJECTS[kind][lang].format(**fields), body.format(**fields)
