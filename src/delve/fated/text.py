"""Sentences for the game screen, in English and Japanese: events of the recent-events log
(FL-INFO-4), private messages (FL-INFO-5), what a defense phase defends against (FL-DEF), the
names and help texts of the commands of every phase (FL-UI-5, FL-UI-8) and a few labels.

Pure functions of view data and content: no Django, no state. Player numbers are shown as
"Player 03" (FL-REG-10); cards, monsters, statuses and classes take their names from content in
the chosen language, with the preset's class names and words (Level D: 忍者, ワナ, 投了...).
Every event or message kind the engine emits has a sentence here; an unknown kind falls back to
a readable generic sentence, so a new kind never breaks the page (a test lists the missing ones).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from delve.fated import content
from delve.fated.death import DEATH_CHECK_SUCCESS, REVIVED_HP
from delve.kernel.words import join

LANGS = content.LANGS
DIRECTIONS = ("up", "down", "left", "right")

#: Names of the special effects (FL-ATK-3) that are not statuses.
SPECIAL_EFFECT_NAMES: dict[str, dict[str, str]] = {
    "cp_drain": {"en": "CP Drain", "ja": "ＣＰ減少"},
    "loss": {"en": "Loss", "ja": "紛失"},
    "misfortune": {"en": "Misfortune", "ja": "不幸"},
    "treasure_toss": {"en": "Treasure Toss", "ja": "宝飛ばし"},
    "steal_card": {"en": "Card theft", "ja": "カード奪取"},
}

CATEGORY_NAMES: dict[str, dict[str, str]] = {
    "damage": {"en": "Damage card", "ja": "ダメージカード"},
    "special_attack": {"en": "Special attack card", "ja": "特殊攻撃カード"},
    "special_utility": {"en": "Special attack / utility card", "ja": "特殊攻撃／便利カード"},
    "influence": {"en": "Influence card", "ja": "影響カード"},
    "defense": {"en": "Defense card", "ja": "防御カード"},
    "utility": {"en": "Utility card", "ja": "便利カード"},
    "terrain": {"en": "Terrain-change card", "ja": "地形変化カード"},
    "recovery": {"en": "Recovery card", "ja": "回復カード"},
    "summon": {"en": "Summon card", "ja": "召喚カード"},
    "unclassifiable": {"en": "Unclassifiable card", "ja": "分類不能カード"},
}

DIRECTION_NAMES: dict[str, dict[str, str]] = {
    "up": {"en": "up", "ja": "上"},
    "down": {"en": "down", "ja": "下"},
    "left": {"en": "left", "ja": "左"},
    "right": {"en": "right", "ja": "右"},
}

TERRAIN_NAMES: dict[str, dict[str, str]] = {
    "?": {"en": "Unexplored", "ja": "未探査"},
    ".": {"en": "Floor", "ja": "普通の床"},
    "#": {"en": "Wall", "ja": "壁"},
    "+": {"en": "Door", "ja": "扉"},
    "~": {"en": "Frozen floor", "ja": "凍結した床"},
    "C": {"en": "Checkpoint", "ja": "チェックポイント"},
    "T": {"en": "Treasure", "ja": "財宝"},
    "E": {"en": "Exit", "ja": "出口"},
    "t": {"en": "Fake treasure", "ja": "ニセ物の財宝"},
    "e": {"en": "Fake exit", "ja": "ニセ物の出口"},
    "o": {"en": "Your trap", "ja": "自分が設置したワナ"},
    "x": {"en": "Trap", "ja": "ワナ"},
}

_PHASES: dict[str, dict[str, str]] = {
    "wait": {"en": "Wait", "ja": "待機"},
    "ready": {"en": "Turn ready", "ja": "ターン開始待ち"},
    "move": {"en": "Move", "ja": "移動"},
    "core": {"en": "Core", "ja": "中心"},
    "defense": {"en": "Defense", "ja": "防御"},
    "dead": {"en": "Dead", "ja": "死亡"},
}


def _lang(lang: str) -> str:
    lang = (lang or "en")[:2]
    return lang if lang in LANGS else "en"


def pick(texts: Mapping[str, str], lang: str) -> str:
    return texts.get(_lang(lang)) or texts.get("en") or next(iter(texts.values()), "")


def word(key: str, lang: str, preset: str) -> str:
    """A display word of the preset (``maze``, ``trap``, ``give_up``...; FL-CFG-5)."""
    data = content.load()
    words = data.presets[preset].words if preset in data.presets else {}
    if key in words:
        return pick(words[key], lang)
    fallback = content.load().presets.get("fated-labyrinth")
    if fallback is not None and key in fallback.words:
        return pick(fallback.words[key], lang)
    return key


def vocabulary(sentence: str, lang: str, preset: str) -> str:
    """A content text (a card's name or text, a status's, a monster's or class's description) in
    the preset's words. The content is written in Fated Labyrinth's words; Level D says "turn" /
    ターン for "phase" / フェイズ (P-25, AMB-66), ワナ for 罠 (P-26, C-19 「ワナ○○」) and
    "dungeon" / ダンジョン for "maze" / 迷宮 (its ``maze`` word)."""
    phase, trap, maze = (word(key, lang, preset) for key in ("phase", "trap", "maze"))
    if _lang(lang) == "ja":
        for fl, own in (("フェイズ", phase), ("罠", trap), ("迷宮", maze)):
            if own != fl:
                sentence = sentence.replace(fl, own)
        return sentence
    if phase.lower() != "phase":
        sentence = re.sub(
            r"\b([Pp])hase(s?)\b",
            lambda m: (phase if m.group(1) == "p" else phase.capitalize()) + m.group(2),
            sentence,
        )
    if trap.lower() != "trap":
        sentence = re.sub(
            r"\b([Tt])rap(s?)\b",
            lambda m: (trap.lower() if m.group(1) == "t" else trap.capitalize()) + m.group(2),
            sentence,
        )
    if maze.lower() not in {"maze", "labyrinth"}:
        sentence = re.sub(
            r"\b([Mm]aze|[Ll]abyrinth)(s?)\b",
            lambda m: (maze.lower() if m.group(1).islower() else maze.capitalize()) + m.group(2),
            sentence,
        )
    return sentence


_SHORT: dict[str, dict[str, str]] = {
    "attack": {"en": "Atk", "ja": "攻"},
    "defense": {"en": "Def", "ja": "防"},
    "magic": {"en": "Mag", "ja": "魔"},
    "evasion": {"en": "Eva", "ja": "回"},
}


def short_label(key: str, lang: str) -> str:
    """A one-word label for compact lists (the all-players panel)."""
    return pick(_SHORT.get(key, {"en": key}), lang)


def number(seat: int) -> str:
    """The two-digit player number of a seat (FL-REG-10)."""
    return f"{seat + 1:02d}"


def player_name(seat: int | None, lang: str, viewer: int | None = None) -> str:
    """ "Player 03" / "プレイヤー03"; "you" / "あなた" for the viewer's own seat."""
    if seat is None:
        return pick({"en": "someone", "ja": "誰か"}, lang)
    if viewer is not None and seat == viewer:
        return pick({"en": "you", "ja": "あなた"}, lang)
    return pick({"en": f"Player {number(seat)}", "ja": f"プレイヤー{number(seat)}"}, lang)


def card_name(kind: str | None, lang: str, preset: str | None = None) -> str:
    """A card's name; in the preset's words when ``preset`` is given (Level D: 「ワナ解除」, P-26,
    C-19). Only for display: commands, events and the bots name cards by their kind."""
    cards = content.load().cards
    if kind is None:
        return pick({"en": "a card", "ja": "カード"}, lang)
    if kind not in cards:
        return kind
    name = pick(cards[kind].name, lang)
    return vocabulary(name, lang, preset) if preset else name


def monster_name(kind: str | None, lang: str) -> str:
    monsters = content.load().monsters
    if kind is None:
        return pick({"en": "a monster", "ja": "モンスター"}, lang)
    return pick(monsters[kind].name, lang) if kind in monsters else kind


def monster_glyph(kind: str | None, lang: str, default: str = "?") -> str:
    """A monster's map glyph in the language of the screen (FL-VIS-7): the kanji (粘, 術...) in
    Japanese, the first letter(s) of the English name (S, N...) in English; unique within a
    roster in either language (checked when the content loads)."""
    monsters = content.load().monsters
    if kind not in monsters:
        return default
    return monsters[kind].glyph if _lang(lang) == "ja" else monsters[kind].glyph_en


def status_name(status_id: str, lang: str) -> str:
    statuses = content.load().statuses
    if status_id in statuses:
        return pick(statuses[status_id].name, lang)
    if status_id in SPECIAL_EFFECT_NAMES:
        return pick(SPECIAL_EFFECT_NAMES[status_id], lang)
    return status_id


def class_name(class_id: str, lang: str, preset: str) -> str:
    data = content.load()
    if class_id not in data.classes:
        return class_id
    if preset in data.presets:
        return data.class_name(class_id, preset, _lang(lang))
    return pick(data.classes[class_id].name, lang)


def category_name(category: str, lang: str) -> str:
    return pick(CATEGORY_NAMES.get(category, {"en": category}), lang)


def direction_name(direction: str, lang: str) -> str:
    return pick(DIRECTION_NAMES.get(direction, {"en": direction}), lang)


def terrain_name(code: str, lang: str, preset: str) -> str:
    if code in {"o", "x"}:
        trap = word("trap", lang, preset)
        return pick({"en": f"Your {trap.lower()}", "ja": f"自分が設置した{trap}"}, lang) if code == "o" else trap
    return pick(TERRAIN_NAMES.get(code, {"en": code}), lang)


def use_name(use: str | None, lang: str, preset: str) -> str:
    """《罠》/《ワナ》 (the preset's trap word), 《隣接》, 《遠隔》 (FL-USE)."""
    if use == "trap":
        return f"《{word('trap', lang, preset)}》"
    names = {"adjacent": {"en": "Adjacent", "ja": "隣接"}, "remote": {"en": "Remote", "ja": "遠隔"}}
    if use in names:
        return f"《{pick(names[use], lang)}》"
    return ""


def phase_name(phase: str, lang: str, preset: str) -> str:
    """ "Move phase" / "移動フェイズ"; Level D says "turn" / "移動ターン" (AMB-66)."""
    base = pick(_PHASES.get(phase, {"en": phase}), lang)
    if phase in {"dead", "ready"}:
        return base
    suffix = word("phase", lang, preset)
    return f"{base}{suffix}" if _lang(lang) == "ja" else f"{base} {suffix}"


def duration(seconds: int, lang: str) -> str:
    """A short human duration: "2 h 05 min", "45 s" / "2時間5分", "45秒"."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if _lang(lang) == "ja":
        if days:
            return f"{days}日{hours}時間"
        if hours:
            return f"{hours}時間{minutes}分"
        if minutes:
            return f"{minutes}分{secs}秒" if minutes < 10 and secs else f"{minutes}分"
        return f"{secs}秒"
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min {secs:02d} s" if minutes < 10 and secs else f"{minutes} min"
    return f"{secs} s"


def article(name: str) -> str:
    """ "a Slime", "an Imp" (English only)."""
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


# ---------------------------------------------------------------- events and messages


class _T:
    """Helpers bound to one language, preset and viewer."""

    def __init__(self, lang: str, preset: str, viewer: int | None, names: Sequence[str] | None = None) -> None:
        self.lang = _lang(lang)
        self.preset = preset
        self.viewer = viewer
        self.names = names

    def say(self, en: str, ja: str) -> str:
        return ja if self.lang == "ja" else en

    def p(self, seat: Any) -> str:
        """ "Player 03", "you" for the viewer; the player's name when the names are given."""
        if isinstance(seat, int) and seat != self.viewer and self.names and 0 <= seat < len(self.names):
            return self.names[seat]
        return player_name(seat if isinstance(seat, int) else None, self.lang, self.viewer)

    def poss(self, seat: Any) -> str:
        """ "Player 02's" / "your"; "プレイヤー02の" / "あなたの"."""
        if isinstance(seat, int) and seat == self.viewer:
            return self.say("your", "あなたの")
        return self.say(f"{self.p(seat)}'s", f"{self.p(seat)}の")

    def self_(self, seat: Any) -> str:
        """The reflexive: "yourself" for the viewer, else "themselves"."""
        return (
            self.say("yourself", "自分")
            if isinstance(seat, int) and seat == self.viewer
            else self.say("themselves", "自分")
        )

    def their(self, seat: Any) -> str:
        """ "your" for the viewer, else "their" (of the sentence's subject)."""
        return (
            self.say("your", "自分の") if isinstance(seat, int) and seat == self.viewer else self.say("their", "自分の")
        )

    def them(self, seat: Any) -> str:
        """ "you" for the viewer, else "them" (the sentence's subject as an object)."""
        return "you" if isinstance(seat, int) and seat == self.viewer else "them"

    def be(self, seat: Any) -> str:
        """ "are" after "you", else "is"."""
        return "are" if isinstance(seat, int) and seat == self.viewer else "is"

    def ps(self, seats: Any) -> str:
        return join([self.p(s) for s in seats or []], self.lang)

    def card(self, kind: Any) -> str:
        return card_name(kind if isinstance(kind, str) else None, self.lang, self.preset)

    def status(self, status_id: Any) -> str:
        return status_name(str(status_id), self.lang)

    def owned(self, owner: Any, kind: Any) -> str:
        """ "Player 02's Slime" / "your Slime" (FL-INFO-4)."""
        name = monster_name(kind if isinstance(kind, str) else None, self.lang)
        if isinstance(owner, int):
            return self.say(f"{self.poss(owner)} {name}", f"{self.poss(owner)}{name}")
        return name

    def use(self, use: Any) -> str:
        return use_name(use if isinstance(use, str) else None, self.lang, self.preset)

    def trap(self) -> str:
        return word("trap", self.lang, self.preset)

    def cards(self, e: Mapping[str, Any], key: str = "cards") -> str:
        value = e.get(key)
        count = len(value) if isinstance(value, list) else int(value or 0)
        return self.say(f"{count} card{'s' if count != 1 else ''}", f"{count}枚")

    def attack(self, e: Mapping[str, Any]) -> str:
        """What made a pending item: "Player 01's Attack 10 《Remote》", "a trap (Attack 20)",
        "Player 02's Dragon's breath"... (FL-DEF: the source, card/label)."""
        label = e.get("label")
        source = e.get("source")
        monster = e.get("monster") or e.get("monster_kind")
        card = e.get("card")
        if label == "trap":
            text = self.say(f"a {self.trap().lower()} ({self.card(card)})", f"{self.trap()}（{self.card(card)}）")
        elif label == "pass_by":
            text = self.say(f"{self.poss(source)} pass-by request", f"{self.poss(source)}すれ違い要求")
        elif label == "steal":
            text = self.say(f"{self.poss(source)} attempt to steal", f"{self.poss(source)}盗み")
        elif monster and label in {"monster", "magic", "breath"}:
            what = {
                "monster": ("attack", "攻撃"),
                "magic": ("magic", "魔法"),
                "breath": ("breath", "ブレス"),
            }[str(label)]
            mon = self.owned(source, monster)
            text = self.say(f"{mon}'s {what[0]}", f"{mon}の{what[1]}")
            if label == "magic" and card:
                text += self.say(f" ({self.card(card)})", f"（{self.card(card)}）")
        elif card:
            text = self.say(
                f"{self.poss(source)} {self.card(card)} {self.use(e.get('use'))}",
                f"{self.poss(source)}{self.card(card)}{self.use(e.get('use'))}",
            )
        else:
            text = self.say(f"{self.poss(source)} normal attack", f"{self.poss(source)}通常攻撃")
        if e.get("reflected"):
            text = self.say(f"{text} (reflected)", f"{text}（反撃）")
        return text


def _game_started(e: Mapping[str, Any], t: _T) -> str:
    count = e.get("players") or len(e.get("seats") or [])
    maze = word("maze", t.lang, t.preset)
    return t.say(f"The game started with {count} players. Into the {maze}!", f"{count}人でゲーム開始。{maze}へ！")


def _game_ended(e: Mapping[str, Any], t: _T) -> str:
    winner = e.get("winner")
    if winner is None and isinstance(e.get("winners"), list) and e["winners"]:
        winner = e["winners"][0]
    # the event's own "kind" field (escape / survivor) is shadowed by the event kind in a body:
    # callers pass it on as "win_kind"
    kind = e.get("win_kind") or (e.get("kind") if e.get("kind") != "game.ended" else None)
    if kind == "closed":
        return t.say("An operator closed the game: nobody won.", "運営者がゲームを終了した。勝者なし。")
    if winner is None:
        return t.say("The game ended with no winner.", "勝者なしでゲームが終了した。")
    if kind == "survivor":
        return t.say(
            f"The game ended: {t.p(winner)} won as the last survivor.",
            f"ゲーム終了：{t.p(winner)}が最後の生存者として勝利した。",
        )
    return t.say(f"The game ended: {t.p(winner)} won.", f"ゲーム終了：{t.p(winner)}の勝利。")


def _card_used(e: Mapping[str, Any], t: _T) -> str:
    who, use = t.p(e.get("player")), t.use(e.get("use"))
    card = f"{t.card(e.get('card'))} {use}" if use and t.lang == "en" else f"{t.card(e.get('card'))}{use}"
    if "target" in e:
        target = t.p(e["target"])
        if e.get("target") == e.get("player"):
            return t.say(f"{who} used {card} on {t.self_(e.get('player'))}.", f"{who}が自分に{card}を使った。")
        return t.say(f"{who} used {card} on {target}.", f"{who}が{target}に{card}を使った。")
    if "monster" in e:
        mon = t.owned(e.get("owner"), e["monster"])
        return t.say(f"{who} used {card} on {mon}.", f"{who}が{mon}に{card}を使った。")
    if e.get("door"):
        return t.say(f"{who} used {card} on a door.", f"{who}が扉に{card}を使った。")
    on = e.get("on")
    if on == "self":
        return t.say(f"{who} used {card} on {t.self_(e.get('player'))}.", f"{who}が自分に{card}を使った。")
    if on == "area":
        return t.say(f"{who} used {card} all around.", f"{who}が周囲に{card}を使った。")
    if on == "line":
        return t.say(f"{who} used {card} in a straight line.", f"{who}が一直線に{card}を使った。")
    if on == "tile":
        return t.say(f"{who} used {card} on a nearby tile.", f"{who}が近くのマスに{card}を使った。")
    return t.say(f"{who} used {card}.", f"{who}が{card}を使った。")


def _attack_normal(e: Mapping[str, Any], t: _T) -> str:
    who = t.p(e.get("attacker"))
    if "target" in e:
        return t.say(f"{who} attacked {t.p(e['target'])}.", f"{who}が{t.p(e['target'])}を攻撃した。")
    if "monster" in e:
        mon = t.owned(e.get("owner"), e["monster"])
        return t.say(f"{who} attacked {mon}.", f"{who}が{mon}を攻撃した。")
    return t.say(f"{who} attacked a door.", f"{who}が扉を攻撃した。")


def _turn_passed(e: Mapping[str, Any], t: _T) -> str:
    who = t.p(e.get("player"))
    if e.get("reward") == "cards":
        return t.say(
            f"{who} passed the turn and took {t.cards(e, 'count')}.",
            f"{who}がターンをパスしてカードを{t.cards(e, 'count')}得た。",
        )
    amount = int(e.get("amount") or 0)
    return t.say(f"{who} passed the turn and recovered {amount} CP.", f"{who}がターンをパスしてCPを{amount}回復した。")


def _defense_result(e: Mapping[str, Any], t: _T) -> str:
    defender = t.p(e.get("defender"))
    what = t.attack(e)
    outcome = e.get("outcome")
    method = e.get("method")
    card = e.get("defense_card")
    if outcome == "evaded":
        return t.say(f"{defender} evaded {what}.", f"{defender}は{what}を回避した。")
    if outcome == "stolen":
        return t.say(
            f"{t.p(e.get('source'))} stole a card from {defender}.",
            f"{t.p(e.get('source'))}が{defender}からカードを1枚盗んだ。",
        )
    if outcome == "reflected":
        # where the attack went (AMB-30, from the card's counter mode the event keeps): Deflect
        # sends it to another living player drawn at random, named by that player's own line
        # when it resolves; Counter back to its source; Drag Along to the source, the defender
        # taking it too
        source = e.get("source")
        if e.get("counter") == "redirect":
            return t.say(
                f"{defender} deflected {what} with {t.card(card)} onto another player drawn at random.",
                f"{defender}は{t.card(card)}で、{what}をランダムに選ばれたほかのプレイヤーへそらした。",
            )
        if e.get("counter") in {"return", "both"} and (source is not None or e.get("monster")):
            back = t.p(source) if source is not None else t.say("the monster", "モンスター")
            if e.get("counter") == "both":
                return t.say(
                    f"{defender} sent {what} back to {back} with {t.card(card)}, taking it too.",
                    f"{defender}は{what}を{t.card(card)}で{back}にも返し、自分も受けた。",
                )
            return t.say(
                f"{defender} sent {what} back to {back} with {t.card(card)}.",
                f"{defender}は{what}を{t.card(card)}で{back}に跳ね返した。",
            )
        return t.say(
            f"{defender} turned back {what} with {t.card(card)}.", f"{defender}は{what}を{t.card(card)}で跳ね返した。"
        )
    if outcome == "blocked":
        if method == "parry":
            return t.say(f"{defender} parried {what}.", f"{defender}は{what}を打ち払った。")
        if card:
            return t.say(
                f"{defender} blocked {what} with {t.card(card)}.", f"{defender}は{what}を{t.card(card)}で防いだ。"
            )
        return t.say(f"{defender} blocked {what}.", f"{defender}は{what}を防いだ。")
    damage = int(e.get("damage") or 0)
    special = e.get("special") if e.get("special") and e.get("applied") else None
    en, ja = f"{what} hit {defender}", f"{what}が{defender}に命中"
    if damage:
        en += f": {damage} damage"
        ja += f"：{damage}ダメージ"
    if special and t.status(special) == t.card(e.get("card")):
        # a special attack card named after its effect (Treasure Toss, Fool): said once (FL-ATK-3)
        en += ", and it took effect" if damage else " and took effect"
        ja += "、さらに効果が発動した" if damage else "し、効果が発動した"
    elif special:
        en += f", and {t.status(special)}" if damage else f": {t.status(special)}"
        ja += f"、さらに{t.status(special)}" if damage else f"：{t.status(special)}"
    elif e.get("special") and not damage:
        # the special attack landed but had nothing to act on (no treasure to toss...)
        en += f", but {t.status(e['special'])} had no effect"
        ja += f"したが、{t.status(e['special'])}は効果がなかった"
    elif not damage:
        en += ", but did no damage"
        ja += "したが、ダメージはなかった"
    if card:
        # the attack got through: say what the defense card did (FL-ATK-6)
        en_note, ja_note = _DEFENDED[_defense_kind(card)]
        en += en_note.format(card=t.card(card))
        ja += ja_note.format(card=t.card(card))
    return t.say(en + ".", ja + "。")


_DEFENDED: dict[str, tuple[str, str]] = {
    # what the defense card did when the attack still got through (FL-ATK-6)
    "reduction": (" ({card} reduced the damage)", "（{card}でダメージを軽減）"),
    "special": (" ({card} stopped the special attack only)", "（{card}で特殊攻撃のみ防いだ）"),
    "": (" (despite {card})", "（{card}で防御したが）"),
}


def _defense_kind(card: Any) -> str:
    definition = content.load().cards.get(card) if isinstance(card, str) else None
    kind = definition.defense if definition is not None else None
    return kind if kind in _DEFENDED else ""


def _player_died(e: Mapping[str, Any], t: _T) -> str:
    who = t.p(e.get("player"))
    credited = e.get("credited") or []
    if e.get("fate") == "abandoned" and e.get("cause") == "abandoned":
        return t.say(f"{who} gave up the exploration and left the game.", f"{who}は探索を断念し、ゲームから退場した。")
    causes = {
        "poison": ("poison", "毒"),
        "trap": (f"a {t.trap().lower()}", t.trap()),
        "breath": ("a monster's breath", "モンスターのブレス"),
        "magic": ("a monster's magic", "モンスターの魔法"),
        "monster": ("a monster's attack", "モンスターの攻撃"),
    }
    cause = causes.get(str(e.get("cause")), ("an attack", "攻撃"))
    # a death ("died", not an abandonment: FL-ABN-5 makes no check) follows a failed death check
    check = _failed_check() if e.get("fate", "died") == "died" else ("", "")
    killer = credited[0] if len(credited) == 1 and e.get("cause") != "poison" else None
    if killer is not None and killer != e.get("player"):
        # the credited player is the one whose attack, monster or trap dealt the blow (FL-KILL-1..3)
        by = {
            "trap": (f"{t.trap().lower()}", t.trap()),
            "breath": ("monster's breath", "モンスターのブレス"),
            "magic": ("monster's magic", "モンスターの魔法"),
            "monster": ("monster", "モンスター"),
        }.get(str(e.get("cause")), ("attack", "攻撃"))
        was = "were" if e.get("player") == t.viewer else "was"
        return t.say(
            f"{who} {was} killed by {t.poss(killer)} {by[0]}{check[0]}. Kill credited to {t.p(killer)}.",
            f"{who}は{t.poss(killer)}{by[1]}で死亡した{check[1]}。撃破数：{t.p(killer)}に+1。",
        )
    en = f"{who} died of {cause[0]}{check[0]}."
    ja = f"{who}が{cause[1]}で死亡した{check[1]}。"
    if credited:
        en += f" Kill credited to {t.ps(credited)}."
        ja += f"撃破数：{t.ps(credited)}に+1。"
    return t.say(en, ja)


def _death_check_chance() -> int:
    """The death check's chance of success in percent (FL-DEATH-1: 25%)."""
    wins, out_of = DEATH_CHECK_SUCCESS
    return round(100 * wins / out_of)


def _failed_check() -> tuple[str, str]:
    chance = _death_check_chance()
    return (f" (failed the death check: {chance}% to survive)", f"（死亡判定に失敗：成功率{chance}%）")


def _death_survived(e: Mapping[str, Any], t: _T) -> str:
    """FL-DEATH-1/2: HP reached 0 and the death check succeeded: back with 10 HP."""
    who, chance = t.p(e.get("player")), _death_check_chance()
    return t.say(
        f"{who} survived the death check ({chance}% chance) and rose from the brink of death (HP {REVIVED_HP}).",
        f"{who}は死亡判定（成功率{chance}%）に成功し、死の淵から蘇った（HP {REVIVED_HP}）。",
    )


def _monster_attacked(e: Mapping[str, Any], t: _T) -> str:
    mon = t.owned(e.get("owner"), e.get("monster"))
    who = t.p(e.get("attacker")) if "attacker" in e else t.say("Something", "何か")
    if e.get("outcome") == "evaded":
        who = t.poss(e["attacker"]) if "attacker" in e else t.say("an", "")
        return t.say(f"{mon} evaded {who} attack.", f"{mon}は{who}攻撃を回避した。")
    damage = int(e.get("damage") or 0)
    if damage:
        en = f"{who} hit {mon} for {damage} damage"
        ja = f"{who}が{mon}に{damage}ダメージを与えた"
    else:
        whose = t.poss(e["attacker"]) if "attacker" in e else ""
        en, ja = f"{who} hit {mon}", f"{whose}攻撃が{mon}に命中"
    if e.get("special"):
        en += f" and {t.status(e['special'])}" if damage else f": {t.status(e['special'])}"
        ja += f"（{t.status(e['special'])}）" if damage else f"：{t.status(e['special'])}"
    elif e.get("no_effect"):
        # FL-STS-2, AMB-35: most statuses and every special effect do nothing to a monster
        none = t.status(e["no_effect"])
        en += f", but {none} has no effect on monsters"
        ja += f"。{none}はモンスターには効かない" if damage else f"したが、{none}はモンスターには効かない"
    elif not damage:
        en += ", but did no damage"
        ja += "したが、ダメージはなかった"
    return t.say(en + ".", ja + "。")


def _monster_vanished(e: Mapping[str, Any], t: _T) -> str:
    mon = t.owned(e.get("owner"), e.get("monster"))
    reasons = {
        "destroyed": ("was destroyed", "倒された"),
        "owner_died": ("vanished with its owner", "所有者の死亡とともに消えた"),
        "poison": ("died of poison", "毒で消滅した"),
    }
    en, ja = reasons.get(str(e.get("reason")), ("vanished", "消えた"))
    return t.say(f"{mon[0].upper() + mon[1:]} {en}.", f"{mon}が{ja}。")


def _status_lost(e: Mapping[str, Any], t: _T) -> str:
    names = join([t.status(s) for s in e.get("statuses") or []], t.lang)
    return t.say(f"Misfortune: you lost {names}.", f"不幸：{names}が消えた。")


_CORNERS = {
    1: ("top-left", "左上"),
    2: ("top-right", "右上"),
    4: ("bottom-left", "左下"),
    8: ("bottom-right", "右下"),
}


def _checkpoint(e: Mapping[str, Any], t: _T) -> str:
    en, ja = _CORNERS.get(int(e.get("corner") or 0), ("a", ""))
    return t.say(f"You visited the {en} checkpoint.", f"{ja}のチェックポイントを踏破した。")


def _steal_card(e: Mapping[str, Any], t: _T) -> str:
    card = t.card(e.get("card_kind") or e.get("card"))
    if e.get("target") == t.viewer:
        return t.say(f"Your {card} was stolen.", f"{card}を盗まれた。")
    return t.say(f"You stole {card} from {t.p(e.get('target'))}.", f"{t.p(e.get('target'))}から{card}を盗んだ。")


def _steal_failed(e: Mapping[str, Any], t: _T) -> str:
    if e.get("target") == t.viewer:
        return t.say("Nothing was stolen from you.", "何も盗まれなかった。")
    return t.say(
        f"Your attempt to steal from {t.p(e.get('target'))} failed.", f"{t.p(e.get('target'))}からの盗みは失敗した。"
    )


def _trap_sprung(e: Mapping[str, Any], t: _T) -> str:
    """The setter's private part of a trap's hit (the public result does not name the setter)."""
    return _stepped_on(e, t, t.say("your", "あなたの"), t.say("you", "あなた"))


def _stepped_on(e: Mapping[str, Any], t: _T, whose: str, setter: str) -> str:
    """A trap's hit told to its setter (``whose`` "your", ``setter`` "you") or, in a replay,
    about them: its damage and what its special attack did (FL-TRAP-7: Pickpocket steals a card
    for the setter; the card itself is the setter's own ``steal.card`` message)."""
    trap = t.trap() if t.lang == "ja" else t.trap().lower()
    who, card = t.p(e.get("defender")), t.card(e.get("card"))
    if e.get("outcome") != "hit":
        return t.say(
            f"{who} stepped on {whose} {trap} ({card}) but blocked it.",
            f"{who}が{whose}{trap}（{card}）を踏んだが、防がれた。",
        )
    damage = int(e.get("damage") or 0)
    en: list[str] = [f"{damage} damage"] if damage else []
    ja: list[str] = [f"{damage}ダメージ"] if damage else []
    special = e.get("special")
    if special and e.get("applied"):
        if special == "steal_card":
            en.append(f"{setter} stole a card from them" if damage else f"{setter} stole a card")
            ja.append("カードを1枚奪った" if setter == "あなた" else f"{setter}がカードを1枚奪った")
        elif special == "treasure_toss":
            en.append("one of their treasures was flung away")
            ja.append("財宝を1つ飛ばした")
        else:
            name = t.status(special)
            en.append(name if not en else f"and {name}")
            ja.append(name)
    elif special == "steal_card":
        en.append("they had no card to steal")
        ja.append("盗めるカードがなかった")
    elif special:
        en.append(f"{t.status(special)} had no effect")
        ja.append(f"{t.status(special)}は効果がなかった")
    if not en:
        en, ja = ["it did no damage"], ["ダメージはなかった"]
    return t.say(
        f"{who} stepped on {whose} {trap} ({card}): {', '.join(en)}.",
        f"{who}が{whose}{trap}（{card}）を踏んだ：{'、'.join(ja)}。",
    )


def _steal_empty(e: Mapping[str, Any], t: _T) -> str:
    if e.get("target") == t.viewer:
        return t.say("A thief found your hand empty.", "手札が無かったので何も盗まれなかった。")
    return t.say(
        f"{t.p(e.get('target'))} had no card to steal.", f"{t.p(e.get('target'))}は盗めるカードを持っていなかった。"
    )


def _pass_by(verb_en: str, verb_ja: str) -> Callable[[Mapping[str, Any], _T], str]:
    def sentence(e: Mapping[str, Any], t: _T) -> str:
        a, b = t.p(e.get("requester")), t.p(e.get("target"))
        return t.say(verb_en.format(a=a, b=b), verb_ja.format(a=a, b=b))

    return sentence


def _simple(en: str, ja: str) -> Callable[[Mapping[str, Any], _T], str]:
    """A sentence with {player} (the ``player`` field), {card}, {amount}, {status} slots."""

    def sentence(e: Mapping[str, Any], t: _T) -> str:
        values = _values(e, t)
        return t.say(en.format(**values), ja.format(**values))

    return sentence


def _values(e: Mapping[str, Any], t: _T) -> dict[str, Any]:
    """The slots of a simple sentence filled from an event's fields."""
    return {
        "player": t.p(e.get("player")),
        "card": t.card(e.get("card")),
        "amount": e.get("amount", ""),
        "status": t.status(e.get("status", "")),
        "cards": t.cards(e),
        "thief": t.p(e.get("thief")),
        "target": t.p(e.get("target")),
        "victim": t.p(e.get("victim")),
        "attacker": t.p(e.get("attacker")),
        "damage": e.get("damage", ""),
        "monster": t.owned(e.get("owner"), e.get("monster")),
        "owner": t.p(e.get("owner")),
        "trap": t.trap() if t.lang == "ja" else t.trap().lower(),
        "by": t.p(e.get("by")),
    }


def _monster_breath(e: Mapping[str, Any], t: _T) -> str:
    mon = t.owned(e.get("owner"), e.get("monster"))
    targets = e.get("targets") or []
    if not targets:
        return t.say(f"{mon} breathed fire.", f"{mon}がブレスを吐いた。")
    return t.say(f"{mon} breathed at {t.ps(targets)}.", f"{mon}が{t.ps(targets)}にブレスを吐いた。")


def _monster_made_fake(e: Mapping[str, Any], t: _T) -> str:
    mon = t.owned(e.get("owner"), e.get("monster"))
    if e.get("fake") == "exit":
        return t.say(f"{mon} made a fake exit.", f"{mon}がニセ物の出口を作った。")
    return t.say(f"{mon} made a fake treasure.", f"{mon}がニセ物の財宝を作った。")


def _player_abandoning(e: Mapping[str, Any], t: _T) -> str:
    who = t.p(e.get("player"))
    give_up = word("give_up", t.lang, t.preset)
    if e.get("reason") == "timeout":
        return t.say(
            f"{who} did nothing for too long and is deemed to have abandoned the game.",
            f"{who}は行動しないまま時間切れになり、ゲーム放棄と見なされた。",
        )
    return t.say(f"{who} chose “{give_up}”.", f"{who}が「{give_up}」を選んだ。")


_STATS: dict[str, dict[str, str]] = {
    "max_hp": {"en": "max HP", "ja": "最大HP"},
    "max_cp": {"en": "max CP", "ja": "最大CP"},
    "max_cards": {"en": "max cards", "ja": "最大カード"},
}
_TERRAINS: dict[str, dict[str, str]] = {
    "floor": {"en": "floor", "ja": "普通の床"},
    "ice": {"en": "frozen floor", "ja": "凍結した床"},
    "door": {"en": "a door", "ja": "扉"},
    "wall": {"en": "a wall", "ja": "壁"},
}


def _stat_name(e: Mapping[str, Any], t: _T) -> str:
    stat = str(e.get("stat"))
    return (
        word(stat, t.lang, t.preset)
        if stat in {"attack", "defense", "magic", "evasion"}
        else pick(_STATS.get(stat, {"en": stat}), t.lang)
    )


def _stat_raised(e: Mapping[str, Any], t: _T) -> str:
    name = _stat_name(e, t)
    amount = e.get("amount", 0)
    return t.say(f"Your {name[:1].lower() + name[1:]} rose by {amount}.", f"{name}が{amount}上がった。")


def _terrain_changed(e: Mapping[str, Any], t: _T) -> str:
    count = int(e.get("count") or 0)
    terrain = pick(_TERRAINS.get(str(e.get("terrain")), {"en": str(e.get("terrain"))}), t.lang)
    who = t.p(e.get("player"))
    tiles = t.say(f"{count} tile{'s' if count != 1 else ''}", f"{count}マス")
    return t.say(
        f"{who} changed the terrain: {tiles} became {terrain}.", f"{who}が地形を変えた：{tiles}が{terrain}になった。"
    )


def _cp_siphoned(e: Mapping[str, Any], t: _T) -> str:
    amount = e.get("amount", 0)
    if "by" in e:
        return t.say(f"{t.p(e['by'])} siphoned {amount} CP from you.", f"{t.p(e['by'])}にCPを{amount}吸い取られた。")
    return t.say(
        f"You siphoned {amount} CP from {t.p(e.get('target'))}.", f"{t.p(e.get('target'))}からCPを{amount}吸い取った。"
    )


def _barter_done(e: Mapping[str, Any], t: _T) -> str:
    other = t.p(e.get("target"))
    gave, got = t.card(e.get("gave")), t.card(e.get("got"))
    return t.say(f"You traded your {gave} for {other}'s {got}.", f"{other}と取引し、{gave}を渡して{got}を得た。")


def _hand_seen(e: Mapping[str, Any], t: _T) -> str:
    kinds = [t.card(k) for k in e.get("kinds") or []]
    other = t.p(e.get("target"))
    if not kinds:
        return t.say(f"{other}'s hand is empty.", f"{other}の手札は空だった。")
    return t.say(f"{other}'s hand: {', '.join(kinds)}.", f"{other}の手札：{'、'.join(kinds)}。")


def _treasure_sensed(e: Mapping[str, Any], t: _T) -> str:
    if not e.get("found"):
        return t.say("You sense no treasure anywhere.", "財宝の気配はどこにもない。")
    x, y = int(e.get("x") or 0) + 1, int(e.get("y") or 0) + 1
    return t.say(
        f"You sense a treasure at {x},{y}: it is marked on your map.", f"{x},{y}に財宝の気配がする（マップに表示）。"
    )


def _monster_charmed(e: Mapping[str, Any], t: _T) -> str:
    mon = t.owned(e.get("owner"), e.get("monster"))
    by = e.get("by")
    return t.say(f"{t.p(by)} won {mon} over: it follows {t.them(by)} now.", f"{t.p(by)}が{mon}を味方にした。")


def _names(e: Mapping[str, Any], t: _T) -> str:
    return join([t.status(s) for s in e.get("statuses") or []], t.lang)


SENTENCES: dict[str, Callable[[Mapping[str, Any], _T], str]] = {
    # public events (FL-INFO-4)
    "game.started": _game_started,
    "game.ended": _game_ended,
    "game.escaped": _simple("{player} escaped through the exit!", "{player}が出口から脱出した！"),
    "card.used": _card_used,
    "card.used_on_own_tile": lambda e, t: t.say(
        f"{t.p(e.get('player'))} used a card on {t.their(e.get('player'))} own tile.",
        f"{t.p(e.get('player'))}が自分のいるマスにカードを使った。",
    ),
    "card.drawn": _simple("{player} drew a card.", "{player}がカードを1枚引いた。"),
    "attack.normal": _attack_normal,
    "defense.result": _defense_result,
    "turn.passed": _turn_passed,
    "pass_by.requested": _pass_by("{a} asked {b} to pass by.", "{a}が{b}にすれ違いを求めた。"),
    "pass_by.accepted": _pass_by("{b} let {a} pass by: they swapped places.", "{b}が{a}とすれ違った。"),
    "pass_by.declined": _pass_by("{b} refused to let {a} pass by.", "{b}は{a}とすれ違わなかった。"),
    "pass_by.cancelled": lambda e, t: t.say(
        f"{t.poss(e.get('requester'))} pass-by request to {t.p(e.get('target'))} was cancelled.",
        f"{t.p(e.get('requester'))}から{t.p(e.get('target'))}へのすれ違い要求は取り消された。",
    ),
    "steal.attempted": _simple("{thief} tried to steal from {target}.", "{thief}が{target}から盗もうとした。"),
    "jump": _simple("{player} jumped.", "{player}がジャンプした。"),
    "treasure.found": _simple("{player} found a treasure.", "{player}が財宝を見つけた。"),
    "treasure.tossed": lambda e, t: t.say(
        f"One of {t.poss(e.get('victim'))} treasures was sent flying.", f"{t.poss(e.get('victim'))}財宝が飛ばされた。"
    ),
    "fake.fell": _simple("{player} fell for a fake.", "{player}がフェイクに引っかかった。"),
    "exit.appeared": _simple("An exit has appeared somewhere.", "どこかに出口が出現した。"),
    "exit.disappeared": _simple("The exit has disappeared.", "出口が消えた。"),
    "death.survived": _death_survived,
    "player.died": _player_died,
    "player.abandoning": _player_abandoning,
    "monster.summoned": lambda e, t: t.say(
        f"{t.p(e.get('owner'))} summoned {article(monster_name(e.get('monster'), t.lang))}.",
        f"{t.p(e.get('owner'))}が{monster_name(e.get('monster'), t.lang)}を召喚した。",
    ),
    "monster.attack": _simple("{monster} attacked {target}.", "{monster}が{target}を攻撃した。"),
    "monster.magic": _simple("{monster} cast magic on {target}.", "{monster}が{target}に魔法を唱えた。"),
    "monster.breath": _monster_breath,
    "monster.attacked": _monster_attacked,
    "monster.vanished": _monster_vanished,
    "door.attacked": _simple(
        "{attacker} hit a door for {damage} damage.", "{attacker}が扉に{damage}ダメージを与えた。"
    ),
    "door.destroyed": _simple("{attacker} broke a door down.", "{attacker}が扉を破壊した。"),
    "deck.reshuffled": _simple("The discard pile was shuffled into a new draw pile.", "捨札を切り直して山札にした。"),
    "comment": lambda e, t: t.say(
        f"{t.p(e.get('player'))} updated {t.their(e.get('player'))} comment.",
        f"{t.p(e.get('player'))}がコメントを更新した。",
    ),
    # private messages (FL-INFO-5)
    "turn.ready": _simple("Your turn is ready.", "ターンが回ってきた。"),
    "turn.lost": _simple(
        "A turn was lost: you already held the most turns that can be stored.",
        "蓄積できるターンが上限に達していたため、ターンが1つ失われた。",
    ),
    "cards.drawn": _simple("You drew {cards}.", "カードを{cards}引いた。"),
    "cards.none_left": _simple("There was no card left to draw.", "引けるカードが残っていなかった。"),
    "cards.over_limit": _simple(
        "Too many cards: {cards} went to the discard pile.", "手札の上限を超えたので{cards}捨てられた。"
    ),
    "cards.lost": _simple("Loss: {cards} fell from your hand.", "紛失：手札から{cards}失った。"),
    "cp.drained": _simple("CP Drain: you lost {amount} CP.", "ＣＰ減少：CPが{amount}減った。"),
    "poison.hp": _simple("HP Poison: you lost {amount} HP.", "ＨＰ毒：HPが{amount}減った。"),
    "poison.cp": _simple("CP Poison: you lost {amount} CP.", "ＣＰ毒：CPが{amount}減った。"),
    "status.gained": _simple("You are now affected by {status}.", "{status}の状態になった。"),
    "status.expired": _simple("{status} wore off.", "{status}の効果が切れた。"),
    "status.lost": _status_lost,
    "move.slipped": _simple("You slipped on the ice.", "凍結した床で滑った。"),
    "trap.set": _simple("You set {card} as a {trap} on your tile.", "自分のいるマスに{card}の{trap}を仕掛けた。"),
    "trap.triggered": _simple("You stepped on a {trap}!", "{trap}を踏んでしまった！"),
    "trap.evaded": _simple(
        "You barely avoided a {trap} ({card}). It is still there.",
        "{trap}（{card}）をかろうじて避けた。{trap}はまだ残っている。",
    ),
    "trap.disarmed": _simple("You disarmed a {trap} ({card}).", "{trap}（{card}）を解除した。"),
    "trap.cancelled": _simple(
        "You were moved away: the {trap} you stepped on did not go off.",
        "強制的に移動したので、踏んだ{trap}は発動しなかった。",
    ),
    "checkpoint.visited": _checkpoint,
    "steal.card": _steal_card,
    "steal.failed": _steal_failed,
    "steal.empty": _steal_empty,
    "monster.poisoned": _simple("HP Poison: {monster} lost {amount} HP.", "ＨＰ毒：{monster}のHPが{amount}減った。"),
    "monster.made_fake": _monster_made_fake,
    "monster.set_trap": _simple("{monster} set a {trap} ({card}).", "{monster}が{trap}（{card}）を仕掛けた。"),
    # card effects (effects.py)
    "hp.recovered": _simple("You recovered {amount} HP.", "HPが{amount}回復した。"),
    "cp.recovered": _simple("You recovered {amount} CP.", "CPが{amount}回復した。"),
    "cp.siphoned": _cp_siphoned,
    "status.cured": lambda e, t: t.say(f"Cured: {_names(e, t)}.", f"{_names(e, t)}が治った。"),
    "stat.raised": _stat_raised,
    "monster.status": _simple("{monster} is now affected by {status}.", "{monster}が{status}の状態になった。"),
    "monster.status_removed": lambda e, t: t.say(
        f"{t.owned(e.get('owner'), e.get('monster'))} lost {_names(e, t) or 'its statuses'}.",
        f"{t.owned(e.get('owner'), e.get('monster'))}の{_names(e, t) or '状態変化'}が消えた。",
    ),
    "monster.healed": _simple("{monster} recovered {amount} HP.", "{monster}のHPが{amount}回復した。"),
    "monster.charmed": _monster_charmed,
    "monster.pushed": _simple("{monster} was pushed away.", "{monster}が押し出された。"),
    "moved.pushed": _simple("{by} pushed you away.", "{by}に押し出された。"),
    "moved.swapped": _simple("{by} swapped places with you.", "{by}と位置が入れ替わった。"),
    "moved.teleported": _simple("You were whisked away to another place.", "別の場所へ飛ばされた。"),
    "terrain.changed": _terrain_changed,
    "terrain.hit": lambda e, t: t.say(
        f"{t.p(e.get('target'))} {t.be(e.get('target'))} caught in {t.poss(e.get('player'))} {t.card(e.get('card'))}.",
        f"{t.p(e.get('target'))}が{t.poss(e.get('player'))}{t.card(e.get('card'))}に巻き込まれた。",
    ),
    "traps.cleared": lambda e, t: t.say(
        f"You cleared {int(e.get('count') or 0)} {t.trap().lower()}{'s' if int(e.get('count') or 0) != 1 else ''} around you.",
        f"周囲の{t.trap()}を{int(e.get('count') or 0)}個取り除いた。",
    ),
    "trap.sprung": _trap_sprung,
    "trap.seized": _simple(
        "You took over the {trap} ({card}): it is yours now.", "{trap}（{card}）を奪い、自分のものにした。"
    ),
    "fake.made": lambda e, t: t.say(
        f"You made a fake {'exit' if e.get('fake') == 'exit' else 'treasure'} on your tile.",
        f"自分のマスにニセ物の{'出口' if e.get('fake') == 'exit' else '財宝'}を作った。",
    ),
    "hand.peeked": _simple("{by} looked at your hand.", "{by}に手札を見られた。"),
    "hand.seen": _hand_seen,
    "barter.done": _barter_done,
    "barter.nothing": _simple(
        "The trade with {target} came to nothing: a hand was empty.", "{target}との取引は成立しなかった（手札が空）。"
    ),
    "map.revealed": _simple("The map around you is revealed.", "周囲のマップが明らかになった。"),
    "treasure.sensed": _treasure_sensed,
}


# ---------------------------------------------------------------- private messages seen by others

#: A private message as told about its seat, for a reader who is not that seat (a replay shows
#: every message): "Grimble drew 1 card." for the "You drew 1 card." written to Grimble. The
#: function gets the event, the helpers and the seats it was written for.
Observed = Callable[[Mapping[str, Any], _T, Sequence[int]], str]


def _about(en: str, ja: str) -> Observed:
    """A third-person sentence with the slots of :func:`_simple` and {who} (the seat the message
    was written for) and {whose} ("Grimble's")."""

    def sentence(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
        who = seats[0] if seats else None
        values = {**_values(e, t), "who": t.p(who), "whose": t.poss(who)}
        return t.say(en.format(**values), ja.format(**values))

    return sentence


def _thief(e: Mapping[str, Any], seats: Sequence[int]) -> int | None:
    """The thief of a steal message, written for the victim (``target``) and the thief."""
    return next((seat for seat in seats if seat != e.get("target")), None)


def _observed_checkpoint(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    en, ja = _CORNERS.get(int(e.get("corner") or 0), ("a", ""))
    who = t.p(seats[0] if seats else None)
    return t.say(f"{who} visited the {en} checkpoint.", f"{who}が{ja}のチェックポイントを踏破した。")


def _observed_trap_sprung(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    return _stepped_on(e, t, t.poss(seats[0] if seats else None), t.p(seats[0] if seats else None))


def _observed_cp_siphoned(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    amount, who = e.get("amount", 0), t.p(seats[0] if seats else None)
    if "by" in e:
        by = t.p(e["by"])
        return t.say(f"{by} siphoned {amount} CP from {who}.", f"{by}が{who}からCPを{amount}吸い取った。")
    other = t.p(e.get("target"))
    return t.say(f"{who} siphoned {amount} CP from {other}.", f"{who}が{other}からCPを{amount}吸い取った。")


def _observed_stat_raised(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    seat = seats[0] if seats else None
    name, amount = _stat_name(e, t), e.get("amount", 0)
    return t.say(
        f"{t.poss(seat)} {name[:1].lower() + name[1:]} rose by {amount}.", f"{t.p(seat)}の{name}が{amount}上がった。"
    )


def _observed_traps_cleared(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    count, who = int(e.get("count") or 0), t.p(seats[0] if seats else None)
    return t.say(
        f"{who} cleared {count} {t.trap().lower()}{'s' if count != 1 else ''} around them.",
        f"{who}が周囲の{t.trap()}を{count}個取り除いた。",
    )


def _observed_fake_made(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    who = t.p(seats[0] if seats else None)
    exit_ = e.get("fake") == "exit"
    return t.say(
        f"{who} made a fake {'exit' if exit_ else 'treasure'} on their tile.",
        f"{who}が自分のマスにニセ物の{'出口' if exit_ else '財宝'}を作った。",
    )


def _observed_hand_seen(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    who, other = t.p(seats[0] if seats else None), t.p(e.get("target"))
    kinds = [t.card(k) for k in e.get("kinds") or []]
    if not kinds:
        return t.say(f"{who} saw that {other}'s hand was empty.", f"{who}が{other}の手札を見た：空だった。")
    return t.say(f"{who} saw {other}'s hand: {', '.join(kinds)}.", f"{who}が{other}の手札を見た：{'、'.join(kinds)}。")


def _observed_treasure_sensed(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    who = t.p(seats[0] if seats else None)
    if not e.get("found"):
        return t.say(f"{who} sensed no treasure anywhere.", f"{who}は財宝の気配をどこにも感じなかった。")
    x, y = int(e.get("x") or 0) + 1, int(e.get("y") or 0) + 1
    return t.say(f"{who} sensed a treasure at {x},{y}.", f"{who}は{x},{y}に財宝の気配を感じた。")


def _observed_steal(e: Mapping[str, Any], t: _T, seats: Sequence[int]) -> str:
    thief, target = t.p(_thief(e, seats)), t.p(e.get("target"))
    kind = e.get("kind")
    if kind == "steal.card":
        card = t.card(e.get("card_kind") or e.get("card"))
        return t.say(f"{thief} stole {card} from {target}.", f"{thief}が{target}から{card}を盗んだ。")
    if kind == "steal.empty":
        return t.say(
            f"{target} had no card for {thief} to steal.",
            f"{thief}が盗もうとしたが、{target}は盗めるカードを持っていなかった。",
        )
    return t.say(f"{thief}'s attempt to steal from {target} failed.", f"{thief}は{target}から盗もうとして失敗した。")


OBSERVED: dict[str, Observed] = {
    "turn.ready": _about("{whose} turn was ready.", "{who}のターンが回ってきた。"),
    "turn.lost": _about(
        "{who} lost a turn: they already held the most turns that can be stored.",
        "蓄積できるターンが上限に達していたため、{who}のターンが1つ失われた。",
    ),
    "cards.drawn": _about("{who} drew {cards}.", "{who}がカードを{cards}引いた。"),
    "cards.none_left": _about("There was no card left for {who} to draw.", "{who}が引けるカードは残っていなかった。"),
    "cards.over_limit": _about(
        "{who} had too many cards: {cards} went to the discard pile.",
        "{who}の手札が上限を超えたので{cards}捨てられた。",
    ),
    "cards.lost": _about("Loss: {cards} fell from {whose} hand.", "紛失：{who}は手札から{cards}失った。"),
    "cp.drained": _about("CP Drain: {who} lost {amount} CP.", "ＣＰ減少：{who}のCPが{amount}減った。"),
    "poison.hp": _about("HP Poison: {who} lost {amount} HP.", "ＨＰ毒：{who}のHPが{amount}減った。"),
    "poison.cp": _about("CP Poison: {who} lost {amount} CP.", "ＣＰ毒：{who}のCPが{amount}減った。"),
    "status.gained": _about("{who} is now affected by {status}.", "{who}は{status}の状態になった。"),
    "status.expired": _about("{whose} {status} wore off.", "{who}の{status}の効果が切れた。"),
    "status.lost": lambda e, t, seats: t.say(
        f"Misfortune: {t.p(seats[0] if seats else None)} lost {_names(e, t)}.",
        f"不幸：{t.p(seats[0] if seats else None)}の{_names(e, t)}が消えた。",
    ),
    "status.cured": lambda e, t, seats: t.say(
        f"{t.p(seats[0] if seats else None)} was cured: {_names(e, t)}.",
        f"{t.p(seats[0] if seats else None)}の{_names(e, t)}が治った。",
    ),
    "move.slipped": _about("{who} slipped on the ice.", "{who}が凍結した床で滑った。"),
    "trap.set": _about(
        "{who} set {card} as a {trap} on their tile.", "{who}が自分のいるマスに{card}の{trap}を仕掛けた。"
    ),
    "trap.triggered": _about("{who} stepped on a {trap}!", "{who}が{trap}を踏んでしまった！"),
    "trap.evaded": _about(
        "{who} barely avoided a {trap} ({card}). It is still there.",
        "{who}は{trap}（{card}）をかろうじて避けた。{trap}はまだ残っている。",
    ),
    "trap.disarmed": _about("{who} disarmed a {trap} ({card}).", "{who}が{trap}（{card}）を解除した。"),
    "trap.cancelled": _about(
        "{who} was moved away: the {trap} they stepped on did not go off.",
        "{who}は強制的に移動したので、踏んだ{trap}は発動しなかった。",
    ),
    "trap.seized": _about(
        "{who} took over the {trap} ({card}): it is theirs now.", "{who}が{trap}（{card}）を奪い、自分のものにした。"
    ),
    "trap.sprung": _observed_trap_sprung,
    "traps.cleared": _observed_traps_cleared,
    "checkpoint.visited": _observed_checkpoint,
    "steal.card": _observed_steal,
    "steal.failed": _observed_steal,
    "steal.empty": _observed_steal,
    "hp.recovered": _about("{who} recovered {amount} HP.", "{who}のHPが{amount}回復した。"),
    "cp.recovered": _about("{who} recovered {amount} CP.", "{who}のCPが{amount}回復した。"),
    "cp.siphoned": _observed_cp_siphoned,
    "stat.raised": _observed_stat_raised,
    "moved.pushed": _about("{by} pushed {who} away.", "{who}は{by}に押し出された。"),
    "moved.swapped": _about("{by} swapped places with {who}.", "{who}は{by}と位置が入れ替わった。"),
    "moved.teleported": _about("{who} was whisked away to another place.", "{who}は別の場所へ飛ばされた。"),
    "fake.made": _observed_fake_made,
    "hand.peeked": _about("{by} looked at {whose} hand.", "{who}は{by}に手札を見られた。"),
    "hand.seen": _observed_hand_seen,
    "barter.done": lambda e, t, seats: t.say(
        f"{t.p(seats[0] if seats else None)} traded their {t.card(e.get('gave'))} for "
        f"{t.poss(e.get('target'))} {t.card(e.get('got'))}.",
        f"{t.p(seats[0] if seats else None)}が{t.p(e.get('target'))}と取引し、"
        f"{t.card(e.get('gave'))}を渡して{t.card(e.get('got'))}を得た。",
    ),
    "barter.nothing": _about(
        "{whose} trade with {target} came to nothing: a hand was empty.",
        "{who}と{target}の取引は成立しなかった（手札が空）。",
    ),
    "map.revealed": _about("The map around {who} was revealed to them.", "{who}の周囲のマップが明らかになった。"),
    "treasure.sensed": _observed_treasure_sensed,
}
"""Every private message written in the second person, told about its seat (the monsters'
messages already name the monster and need no other form)."""


def has_sentence(kind: str) -> bool:
    return kind in SENTENCES


def describe(
    entry: Mapping[str, Any],
    lang: str,
    preset: str,
    viewer: int | None = None,
    *,
    to: Sequence[int] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """One event or message of a view (``{"kind": ..., "time": ..., **data}``) as a sentence.

    ``to``: the seats a private message was written for; a reader who is not one of them (a
    replay's) reads it in the third person about them ("Grimble drew 1 card.", not "You drew 1
    card."). ``names``: the players' names, to name them by instead of their numbers.

    Unknown kinds give a generic sentence naming the kind and its players, cards and monsters,
    so the page keeps working when the engine learns a new kind before this module does."""
    t = _T(lang, preset, viewer, names)
    kind = str(entry.get("kind", ""))
    observed = OBSERVED.get(kind) if to and viewer not in to else None
    if observed is not None:
        try:
            return capital(observed(entry, t, tuple(to or ())))
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # unexpected data: fall back to the generic sentence rather than break the page
        return capital(_generic(entry, t))
    sentence = SENTENCES.get(kind)
    if sentence is not None:
        try:
            return capital(sentence(entry, t))
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # unexpected data: fall back to the generic sentence rather than break the page
    return capital(_generic(entry, t))


def _generic(entry: Mapping[str, Any], t: _T) -> str:
    parts = []
    for key, value in entry.items():
        if key in {"kind", "time"}:
            continue
        if key in {"player", "target", "source", "attacker", "defender", "owner", "victim", "thief", "requester"}:
            parts.append(f"{key} {t.p(value)}" if t.lang == "en" else t.p(value))
        elif key == "card" and isinstance(value, str):
            parts.append(t.card(value))
        elif key == "monster" and isinstance(value, str):
            parts.append(monster_name(value, t.lang))
        elif key == "status" and isinstance(value, str):
            parts.append(t.status(value))
        elif isinstance(value, (int, str)) and not isinstance(value, bool):
            parts.append(f"{key} {value}")
    kind = str(entry.get("kind", "?"))
    details = ", ".join(parts) if t.lang == "en" else "、".join(parts)
    if details:
        return t.say(f"Event “{kind}”: {details}.", f"出来事「{kind}」：{details}。")
    return t.say(f"Event “{kind}”.", f"出来事「{kind}」。")


def game_result(
    winner: str | None, kind: str | None, lang: str, *, prefix: bool = True, losers: Sequence[str] = ()
) -> str:
    """How the game ended, in the words of the game screen's end-of-game standings (FL-WIN-7):
    "The game has ended: Aldra escaped and won." / "...won as the last survivor." (without
    ``prefix``: the sentence after the colon); ``losers``: the others by name, told that they lost
    (the replay's last step). ``winner``: the winner's name, ``None`` for no winner. ``kind``
    ``closed``: an operator closed the game before its end (``losers``: those already out)."""
    if kind == "closed":
        en, ja = (
            "An operator closed the game before its end: nobody won.",
            "運営者がゲームを途中で終了しました。勝者はいません。",
        )
        if losers:
            en, ja = (
                f"{en} {join(losers, 'en')} had already lost.",
                f"{ja}{join(losers, 'ja')}はすでに敗退していました。",
            )
        return pick({"en": en, "ja": ja}, lang)
    if winner is None:
        en, ja = "The game has ended with no winner.", "勝者なしでゲームが終了しました。"
        if losers:
            en, ja = (
                f"The game has ended with no winner: {join(losers, 'en')} lost.",
                f"勝者なしでゲームが終了しました：{join(losers, 'ja')}は敗北しました。",
            )
        return pick({"en": en, "ja": ja}, lang)
    if kind == "escape":
        en, ja = f"{winner} escaped and won", f"{winner}が脱出して勝利しました"
    else:
        en, ja = f"{winner} won as the last survivor", f"{winner}が最後の生存者として勝利しました"
    if losers:
        en, ja = f"{en}; {join(losers, 'en')} lost", f"{ja}。{join(losers, 'ja')}は敗北しました"
    en, ja = f"{en}.", f"{ja}。"
    if prefix:
        en, ja = f"The game has ended: {en}", f"ゲーム終了：{ja}"
    return capital(pick({"en": en, "ja": ja}, lang))


def capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:] if sentence else sentence


def defending(item: Mapping[str, Any], lang: str, preset: str, viewer: int | None = None) -> str:
    """What a defense phase defends against (FL-DEF): the source, the card or kind, the power."""
    t = _T(lang, preset, viewer)
    what = t.attack(item)
    kind = item.get("kind")
    if kind == "pass_by":
        return capital(
            t.say(
                f"{t.p(item.get('source'))} asks to pass by you (swap places).",
                f"{t.p(item.get('source'))}があなたとのすれ違いを求めています。",
            )
        )
    text = t.say(f"Incoming: {what}", f"防御対象：{what}")
    if "power" in item:
        text += t.say(f", power {item['power']}", f"、威力{item['power']}")
    special = item.get("special")
    if special and t.status(special) not in t.card(item.get("card")):
        # a card or a necromancer's magic named after its effect (Fool, Attack 10 + HP Poison) is not
        # named twice (FL-ATK-3)
        text += t.say(f", with {t.status(special)}", f"、{t.status(special)}付き")
    return text + t.say(".", "。")


SPECIAL_EFFECT_TEXTS: dict[str, dict[str, str]] = {
    "cp_drain": {"en": "you lose CP", "ja": "ＣＰが減る"},
    "loss": {"en": "random cards fall from your hand to the discard pile", "ja": "手札が無作為に捨札になる"},
    "misfortune": {"en": "every plus status on you is removed", "ja": "プラスの状態変化がすべて消える"},
    "treasure_toss": {
        "en": "one of your treasures is flung to a random place",
        "ja": "財宝が一つ無作為な場所へ飛ばされる",
    },
    "steal_card": {"en": "the attacker takes a random card from your hand", "ja": "攻撃者が手札を1枚無作為に奪う"},
}


def defending_effect(item: Mapping[str, Any], lang: str, preset: str) -> str:
    """What the incoming item does if nothing stops it (FL-DEF, FL-ATK-3): the damage before your
    defense, and what its special effect means (a status: its explanation)."""
    t = _T(lang, preset, None)
    if item.get("kind") == "pass_by":
        return t.say(
            "Accept and you swap places; refuse and nothing happens.",
            "受け入れると位置が入れ替わり、断ると何も起きない。",
        )
    if item.get("kind") == "steal" or item.get("label") == "steal":
        return t.say(
            "If it is not stopped, a random card of your hand is stolen.", "防がないと手札を1枚無作為に盗まれる。"
        )
    parts = []
    if "power" in item:
        power = item["power"]
        parts.append(t.say(f"{power} damage minus your defense", f"{power}から自分の防御力を引いたダメージ"))
    special = item.get("special")
    if special:
        statuses = content.load().statuses
        if special in statuses:
            parts.append(
                t.say(
                    f"{t.status(special)}: {vocabulary(pick(statuses[special].text, lang), lang, preset)}",
                    f"{t.status(special)}：{vocabulary(pick(statuses[special].text, lang), lang, preset)}",
                )
            )
        elif special in SPECIAL_EFFECT_TEXTS:
            parts.append(
                f"{t.status(special)}: {pick(SPECIAL_EFFECT_TEXTS[special], lang)}"
                if t.lang == "en"
                else f"{t.status(special)}：{pick(SPECIAL_EFFECT_TEXTS[special], lang)}"
            )
    if not parts:
        return ""
    body = "; ".join(parts) if t.lang == "en" else "。".join(parts)
    return t.say(f"If nothing stops it: {body}", f"防がなければ：{body}").rstrip(".。") + t.say(".", "。")


_RANDOM_PARTS: dict[str, tuple[str, str]] = {
    "loss": ("the cards are picked at random", "どのカードかは無作為"),
    "treasure_toss": ("where it lands is random", "飛ぶ先は無作為"),
    "steal_card": ("the card is picked at random", "どのカードかは無作為"),
}


def _damage_terms(item: Mapping[str, Any], choice: Mapping[str, Any], t: _T) -> str:
    """How the damage of a choice is made (FL-ATK-11): "power 28 − your defense 12 − 10 (card)",
    "× ½ (Ironwall)"; the numbers are the view's (the engine's), this only names them."""
    power, reduction = item.get("power", 0), choice.get("reduction", 0)
    base = item.get("defense")
    card_part = reduction - base if isinstance(base, int) and reduction != base else 0
    if base is None:
        terms = t.say(f"power {power} − {reduction}", f"威力{power}−{reduction}")
    elif card_part:
        terms = t.say(
            f"power {power} − your defense {base} − the card's {card_part}",
            f"威力{power}−防御力{base}−カード{card_part}",
        )
    else:
        terms = t.say(f"power {power} − your defense {base}", f"威力{power}−防御力{base}")
    ratio = item.get("damage_ratio")
    if ratio and choice.get("damage", 0) > 0:
        numerator, denominator = ratio
        factor = "½" if (numerator, denominator) == (1, 2) else "1.5" if (numerator, denominator) == (3, 2) else None
        factor = factor or f"{numerator}/{denominator}"
        names = [
            t.status(s)
            for s, on in (("ironwall", denominator % 2 == 0 and numerator == 1), ("stripped", numerator == 3))
            if on
        ]
        terms = t.say(f"({terms}) × {factor}", f"（{terms}）×{factor}") + (
            t.say(f" by {names[0]}", f"：{names[0]}") if names else ""
        )
    return terms


def defense_result(
    choice: Mapping[str, Any], item: Mapping[str, Any], lang: str, preset: str, viewer: int | None = None
) -> str:
    """What one defense choice leads to (FL-DEF-1..5, §10.3), said from the view's ``choices``
    entry (``defense.choices``): "You take 16 damage (power 28 − your defense 12); 104 HP left.",
    "Nullified: nothing reaches you; the trap disappears."... Randomness not drawn yet is said."""
    t = _T(lang, preset, viewer)
    result = choice.get("result")
    source = item.get("source")
    if result == "swap":
        return t.say(
            f"You and {t.p(source)} swap places (cancelled if either of you has moved since the request).",
            f"{t.p(source)}と位置を入れ替える（要求の後にどちらかが動いていれば取り消し）。",
        )
    if result == "refuse":
        return t.say("You both stay where you are (blocking the way).", "どちらもその場に留まる（通せんぼ）。")
    if item.get("kind") == "steal":
        if result == "stolen":
            return t.say(
                f"A card picked at random from your hand goes to {t.p(source)}.",
                f"手札から無作為に選ばれた1枚が{t.p(source)}に渡る。",
            )
        if result == "nothing":
            return t.say("Your hand is empty: nothing is stolen.", "手札がないので何も盗まれない。")
        return t.say("The steal fails: no card of your hand is taken.", "盗みは失敗し、手札は奪われない。")
    parts: list[str] = []
    counter = choice.get("counter")
    if result == "reflected":
        parts.append(t.say("you take nothing", "自分は何も受けない"))
    elif result == "blocked" and not choice.get("damage"):
        special = item.get("special")
        if choice.get("method") == "special" and special:
            parts.append(
                t.say(
                    f"{t.status(special)} is blocked: nothing reaches you", f"{t.status(special)}を防ぎ、何も受けない"
                )
            )
        else:
            parts.append(t.say("nullified: nothing reaches you", "無効化：何も受けない"))
    else:
        parts.extend(_hit_parts(choice, item, t))
    if counter == "return":
        if item.get("monster_kind"):
            target = t.owned(source, item.get("monster_kind"))
            parts.append(
                t.say(
                    f"the attack goes back to {target} and hits it at once (it may evade)",
                    f"攻撃は{target}へ跳ね返り、すぐに当たる（回避されることもある）",
                )
            )
        else:
            parts.append(
                t.say(
                    f"the attack goes back to {t.p(choice.get('to'))}, who gets a defense phase against it",
                    f"攻撃は{t.p(choice.get('to'))}へ跳ね返る（相手は防御フェイズで防御できる）",
                )
            )
    elif counter == "redirect":
        parts.append(
            t.say(
                "the attack goes on to another living player picked at random",
                "攻撃は無作為に選ばれた他のプレイヤーへ向かう",
            )
        )
    elif counter == "both":
        who = t.owned(source, item.get("monster_kind")) if item.get("monster_kind") else t.p(choice.get("to"))
        parts.append(t.say(f"{who} receives the same attack", f"{who}も同じ攻撃を受ける"))
    trap = choice.get("trap")
    if (trap and result != "hit") or trap in {"stays", "seized"}:
        name = t.trap()
        parts.append(
            {
                "removed": t.say(f"the {name.lower()} disappears", f"{name}は消える"),
                "stays": t.say(
                    f"the {name.lower()} stays (you will know where it is)", f"{name}はその場に残る（位置が分かる）"
                ),
                "seized": t.say(
                    f"the {name.lower()} stays and becomes yours", f"{name}はその場に残り、自分の{name}になる"
                ),
            }[str(trap)]
        )
    if t.lang == "ja":
        return "。".join(parts) + "。"
    return capital("; ".join(parts)) + "."


def _hit_parts(choice: Mapping[str, Any], item: Mapping[str, Any], t: _T) -> list[str]:
    """The damage and special part a choice lets through (FL-DEF-2, FL-ATK-9, -11, -13)."""
    parts: list[str] = []
    damage = int(choice.get("damage", 0))
    special = item.get("special")
    if "power" in item:
        terms = _damage_terms(item, choice, t)
        if damage > 0:
            parts.append(t.say(f"you take {damage} damage ({terms})", f"{damage}ダメージを受ける（{terms}）"))
        else:
            parts.append(t.say(f"no damage ({terms} ≤ 0)", f"ダメージなし（{terms}≦0）"))
    if special:
        name = t.status(special)
        if choice.get("special"):
            if "power" in item and t.lang == "ja":
                parts.append(f"{name}も受ける")
            elif "power" in item:
                parts[-1] += f" and {name} lands"
            else:
                parts.append(t.say(f"special attack received as is: {name}", f"特殊攻撃「{name}」をそのまま受ける"))
            random = _RANDOM_PARTS.get(str(special))
            if random:
                parts[-1] += t.say(f" ({random[0]})", f"（{random[1]}）")
        elif choice.get("method") == "special":
            parts.append(t.say(f"{name} is blocked", f"{name}は防ぐ"))
        elif "power" in item and damage == 0:
            parts.append(
                t.say(
                    f"the damage is completely prevented, so {name} does not land",
                    f"ダメージを完全に防いだので{name}も受けない",
                )
            )
    if damage > 0:
        hp = int(choice.get("hp", 0))
        if choice.get("death_check"):
            chance = _death_check_chance()
            parts.append(
                t.say(
                    f"your HP drops to 0: a death check follows ({chance}% to survive with {REVIVED_HP} HP)",
                    f"HPが0になり死亡判定（成功率{chance}%、成功するとHP{REVIVED_HP}）",
                )
            )
        else:
            parts.append(t.say(f"{hp} HP left", f"残りHP{hp}"))
    return parts


# ---------------------------------------------------------------- commands (FL-UI-5, FL-UI-8)

_COMMAND_NAMES: dict[str, dict[str, str]] = {
    "start_turn": {"en": "Start your turn", "ja": "ターンを開始する"},
    "move": {"en": "Move", "ja": "移動する"},
    "stay": {"en": "Stay", "ja": "動かない"},
    "pass": {"en": "Pass the turn", "ja": "ターンをパス"},
    "swap": {"en": "Pass by your monster", "ja": "味方モンスターとすれ違う"},
    "attack": {"en": "Attack", "ja": "攻撃する"},
    "pass_by": {"en": "Ask to pass by", "ja": "すれ違う"},
    "pick_up": {"en": "Pick up the treasure", "ja": "財宝を拾う"},
    "escape": {"en": "Escape", "ja": "脱出する"},
    "nothing": {"en": "Do nothing", "ja": "何もしない"},
    "draw": {"en": "Draw a card", "ja": "カードを引く"},
    "jump": {"en": "Jump", "ja": "ジャンプ"},
    "steal": {"en": "Steal", "ja": "盗む"},
    "use_card": {"en": "Use a card", "ja": "カードを使う"},
    "defend": {"en": "Use a defense card", "ja": "防御カードを使う"},
    "no_defense": {"en": "Don't use a defense card", "ja": "防御カードを使わない"},
    "parry": {"en": "Parry", "ja": "打ち払う"},
    "accept_pass_by": {"en": "Pass by", "ja": "すれ違う"},
    "decline_pass_by": {"en": "Don't pass by", "ja": "すれ違わない"},
    "comment": {"en": "Comment", "ja": "コメント"},
    "refresh": {"en": "Refresh", "ja": "画面を更新"},
}

_COMMAND_HELP: dict[str, dict[str, str]] = {
    "start_turn": {
        "en": "Your wait is over and a turn is stored: start it. Defense {phase}s for anything aimed at you come first, then the move {phase}s.",
        "ja": "待機時間が終わり、ターンが蓄積されています。開始すると、まず攻撃などへの防御、次に移動を行います。",
    },
    "move": {
        "en": "Move one tile up, down, left or right. Walls, doors and occupied tiles block the way. On frozen floor you may slip one tile further; stepping on a hidden {trap} sets it off.",
        "ja": "上下左右に1マス移動します。壁・扉・他のキャラクターがいるマスには入れません。凍結した床では滑ることがあり、{trap}を踏むと発動します。",
    },
    "stay": {
        "en": "Don't move: skip the remaining move {phase}s and go straight to the core {phase}.",
        "ja": "移動しません。残りの移動を省略して中心{phase}に進みます。",
    },
    "pass": {
        "en": "Pass the whole turn (only before doing anything but “Stay”) and take a reward: cards ({noble}: 2) or CP.",
        "ja": "このターンの行動をすべてパスし、代わりにカード（{noble}は2枚）かCPの回復を得ます（「動かない」以外の行動をする前のみ）。",
    },
    "swap": {
        "en": "Swap places with your own monster next to you. Uses this move {phase}; never sets off a {trap}.",
        "ja": "隣にいる味方のモンスターと位置を入れ替えます。この移動を使います。{trap}は発動しません。",
    },
    "attack": {
        "en": "A normal attack without a card on the adjacent player, enemy monster or door, with your base attack. A player defends in their own defense {phase}; monsters and doors take it at once.",
        "ja": "隣接するプレイヤー・敵モンスター・扉をカードなしで攻撃します（基本攻撃力）。プレイヤーは自分の防御{phase}で防御し、モンスターと扉には即座に効きます。",
    },
    "pass_by": {
        "en": "Ask the adjacent player to swap places with you. They decide in their defense {phase}; it is cancelled if either of you moves first.",
        "ja": "隣接するプレイヤーに位置の入れ替えを求めます。相手が防御{phase}で決めます。どちらかが先に動くと取り消されます。",
    },
    "pick_up": {
        "en": "Pick up the treasure on your tile. It might be a fake: falling for one gives you a random minus status.",
        "ja": "自分のいるマスの財宝を拾います。ニセ物なら、ランダムなマイナス系状態変化を受けます。",
    },
    "escape": {
        "en": "Escape through the exit on your tile and win. Only while you meet victory condition A or B; a fake exit gives a minus status instead.",
        "ja": "出口から脱出して勝利します。勝利条件AかBを満たしているときのみ。ニセ物の出口ならマイナス系状態変化を受けます。",
    },
    "nothing": {
        "en": "End the turn without doing anything. Drawing a card or passing is usually better.",
        "ja": "何もせずにターンを終えます。カードを引くかパスする方が得なことが多いです。",
    },
    "draw": {
        "en": "Draw one card (only while you hold 3 cards or fewer).",
        "ja": "カードを1枚引きます（手札が3枚以下のときのみ）。",
    },
    "jump": {
        "en": "Pay 20 CP and jump two tiles, over a player or a monster (not over walls or doors). Never sets off a {trap}.",
        "ja": "CP20を払い、2マス先へ跳びます。プレイヤーやモンスターを跳び越えられます（壁・扉は不可）。{trap}は発動しません。",
    },
    "steal": {
        "en": "Pay 20 CP to steal a random card from the adjacent player, when their defense {phase} comes.",
        "ja": "CP20を払い、隣接するプレイヤーの手札からランダムに1枚盗みます（相手の防御{phase}で決まります）。",
    },
    "use_card": {
        "en": "Use a card from your hand. Attack cards: 《{Trap}》 sets a {trap} on your tile (cheapest), 《Adjacent》 hits a neighbour (adds your base attack), 《Remote》 hits any player (dearest). A new card is drawn afterwards.",
        "ja": "手札のカードを使います。攻撃カードは《{trap}》（自分のマスに{trap}を仕掛ける・最も安い）、《隣接》（隣の相手・基本攻撃力を加える）、《遠隔》（任意のプレイヤー・最も高い）。使った後にカードを1枚引きます。",
    },
    "defend": {
        "en": "Defend with a defense card that works against this attack. It costs its CP and no card is drawn to replace it.",
        "ja": "この攻撃に有効な防御カードで防御します。消費CPを払い、補充のカードは引けません。",
    },
    "no_defense": {
        "en": "Take it without a card: damage is reduced by your base defense; a special attack lands as it is.",
        "ja": "カードを使わずに受けます。ダメージは基本防御力で軽減され、特殊攻撃はそのまま受けます。",
    },
    "parry": {
        "en": "Warrior: pay 20 CP to nullify this 《Remote》 attack completely.",
        "ja": "戦士のみ：CP20を払い、この《遠隔》攻撃を完全に無効にします。",
    },
    "accept_pass_by": {
        "en": "Swap places with the player who asked. Your moves follow as usual, so it is like an extra step.",
        "ja": "要求したプレイヤーと位置を入れ替えます。その後の移動は通常どおりなので、1歩多く進めます。",
    },
    "decline_pass_by": {
        "en": "Refuse: both of you stay where you are.",
        "ja": "断ります。二人とも今の位置にとどまります。",
    },
    "give_up": {
        "en": "Leave the game for good: attacks still waiting for you hit you undefended, and you are out. Use it when you cannot go on.",
        "ja": "ゲームから退場します。まだ防御していない攻撃は防御なしで受けます。続けられないときに使ってください。",
    },
    "comment": {
        "en": "Replace your public comment (at most once a minute, up to 100 characters). Not a chat.",
        "ja": "自分のコメントを書き換えます（1分に1回、100文字まで）。チャット代わりには使わないでください。",
    },
    "refresh": {
        "en": "Update the remaining wait time and the map in sight.",
        "ja": "待機の残り時間と視界内のマップを更新します。",
    },
}


def command_name(kind: str, lang: str, preset: str) -> str:
    if kind == "give_up":
        return word("give_up", lang, preset)
    return pick(_COMMAND_NAMES.get(kind, {"en": kind}), lang)


_KEYS_HELP: dict[str, dict[str, str]] = {
    "move": {"en": "Arrow keys or WASD also move.", "ja": "矢印キーやWASDでも移動できます。"},
}


def command_keys(kind: str, lang: str) -> str:
    """A command's keyboard shortcut, said apart from its help (FL-UI-6): a touch screen, with no
    keyboard, leaves it out (site.css's .keys-hint)."""
    texts = _KEYS_HELP.get(kind)
    return pick(texts, lang) if texts else ""


def command_help(kind: str, lang: str, preset: str) -> str:
    """The description shown in the command-help panel (FL-UI-8), with the preset's words."""
    texts = _COMMAND_HELP.get(kind)
    if texts is None:
        return command_name(kind, lang, preset)
    trap = word("trap", lang, preset)
    return pick(texts, lang).format(
        Trap=trap,
        trap=trap if _lang(lang) == "ja" else trap.lower(),
        phase=word("phase", lang, preset),
        noble=class_name("noble", lang, preset),
    )


def command_label(command: Mapping[str, Any], lang: str, preset: str, viewer: int | None = None) -> str:
    """A button label for one legal command: "Move up", "Pass the turn: take cards"..."""
    kind = str(command.get("kind", ""))
    name = command_name(kind, lang, preset)
    t = _T(lang, preset, viewer)
    if kind == "pass":
        reward = command.get("reward")
        return t.say(
            f"{name}: take {'cards' if reward == 'cards' else 'CP'}",
            f"{name}（{'カードを得る' if reward == 'cards' else 'CPを回復'}）",
        )
    if "dir" in command and kind != "use_card":
        return t.say(
            f"{name} {direction_name(command['dir'], lang)}", f"{direction_name(command['dir'], lang)}へ{name}"
        )
    if kind == "defend":
        return t.say(f"Defend with {t.card(command.get('card_kind'))}", f"{t.card(command.get('card_kind'))}で防御")
    return name
