"""White Maiden sentences in English and Japanese: every event kind the engine emits, the names
of rooms, bosses, skills, quests and Arcana from the content, and readable labels of commands.

Pure functions of event data, view data and the content: no state. Players are named by the
names the view gives (``names``), else "Player 1" / "プレイヤー1". Every kind the engine emits has
a sentence here (a test plays games and lists any kind without one); an unknown kind still gets
a readable generic sentence, so a new kind never breaks a screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from delve.kernel.words import join, listing

LANGS = ("en", "ja")

#: Around a player's name inside a sentence being written (private-use characters): the name is
#: the player's own spelling, never capitalised; capital() removes the marks.
NAME_OPEN, NAME_CLOSE = "\ue000", "\ue001"

STAT_NAMES: dict[str, dict[str, str]] = {
    "pie": {"en": "Piety", "ja": "信仰"},
    "wil": {"en": "Will", "ja": "意思"},
    "agi": {"en": "Agility", "ja": "敏捷"},
    "ins": {"en": "Inspiration", "ja": "霊感"},
}
COLOUR_NAMES: dict[str, dict[str, str]] = {
    "red": {"en": "red", "ja": "赤"},
    "blue": {"en": "blue", "ja": "青"},
    "black": {"en": "black", "ja": "黒"},
    "white": {"en": "white", "ja": "白"},
}
ROOM_TYPES: dict[str, dict[str, str]] = {
    "normal": {"en": "room", "ja": "ルーム"},
    "rest": {"en": "rest room", "ja": "レストルーム"},
    "quest": {"en": "quest room", "ja": "クエストルーム"},
    "danger": {"en": "danger room", "ja": "デンジャールーム"},
    "boss": {"en": "boss room", "ja": "ボスルーム"},
    "start": {"en": "start", "ja": "スタート"},
}
DECK_NAMES: dict[str, dict[str, str]] = {
    "action": {"en": "action", "ja": "アクション"},
    "skill": {"en": "skill", "ja": "スキル"},
    "room": {"en": "room", "ja": "ルーム"},
    "quest": {"en": "quest", "ja": "クエスト"},
}
_LEVEL_UP_WHY: dict[str, dict[str, str]] = {
    "first": {"en": "the first level-up", "ja": "最初のレベルアップ"},
    "boss": {"en": "a boss was defeated", "ja": "ボス撃破"},
}


def _lang(lang: str) -> str:
    lang = (lang or "en")[:2]
    return lang if lang in LANGS else "en"


def _content() -> Any:
    from delve.maiden import content

    return content.load()


def pick(texts: Any, lang: str) -> str:
    """A text of the content (``{en, ja}``: a mapping or a Text struct) in ``lang``."""
    lang = _lang(lang)
    if texts is None:
        return ""
    if isinstance(texts, Mapping):
        return str(texts.get(lang) or texts.get("en") or "")
    return str(getattr(texts, lang, None) or getattr(texts, "en", ""))


# ---------------------------------------------------------------------------------------------
# Names from the content
# ---------------------------------------------------------------------------------------------


class Names:
    """Content names in one language (``content`` defaults to the shipped content)."""

    def __init__(
        self, lang: str, content: Any = None, players: Sequence[str] | None = None, *, mark: bool = False
    ) -> None:
        self.lang = _lang(lang)
        self.content = content if content is not None else _content()
        self.players = list(players or [])
        # sentence() marks the players' names so that capital() leaves them as their players
        # wrote them ("alma used ..." stays "alma"); the marks never leave sentence()
        self.mark = mark

    def say(self, en: str, ja: str) -> str:
        return ja if self.lang == "ja" else en

    def player(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool):
            if 0 <= seat < len(self.players) and self.players[seat]:
                name = self.players[seat]
                return f"{NAME_OPEN}{name}{NAME_CLOSE}" if self.mark else name
            return self.say(f"Player {seat + 1}", f"プレイヤー{seat + 1}")
        return self.say("someone", "誰か")

    def players_list(self, seats: Any) -> str:
        return join([self.player(s) for s in seats or []], self.lang)

    def area(self, area_id: Any) -> str:
        area = self.content.areas.get(area_id)
        return pick(area.name, self.lang) if area is not None else str(area_id)

    def boss(self, boss_id: Any) -> str:
        boss = self.content.bosses.get(boss_id)
        return pick(boss.name, self.lang) if boss is not None else str(boss_id)

    def sephirah(self, boss_id: Any) -> str:
        boss = self.content.bosses.get(boss_id)
        return pick(boss.sephirah, self.lang) if boss is not None else str(boss_id)

    def boss_action(self, boss_id: Any, index: Any) -> str:
        boss = self.content.bosses.get(boss_id)
        if boss is None or not isinstance(index, int) or not 0 <= index < len(boss.actions):
            return self.say("an action", "ボスアクション")
        return pick(boss.actions[index].name, self.lang)

    def room(self, room_id: Any) -> str:
        """A map square: "The World, room 1" / "世界・ルーム1"; a boss room by its sephirah;
        the start square S."""
        rooms = self.content.rooms
        room = rooms.get(room_id)
        if room is None:
            return str(room_id)
        if room.type == "start":
            return self.say("the start (S)", "スタート（S）")
        if room.boss is not None and room.area is None:
            return self.say(f"the hall of {self.sephirah(room.boss)}", f"{self.sephirah(room.boss)}の間")
        chains = getattr(self.content, "area_rooms", None)
        if chains is not None:
            chain = list(chains.get(room.area, ()))
        else:
            chain = [r.id for r in rooms.values() if r.area == room.area and r.type != "boss"]
        number = chain.index(room_id) + 1 if room_id in chain else None
        area = self.area(room.area)
        if number is None:
            return f"{area} ({room_id})"
        return self.say(f"{area}, room {number}", f"{area}・ルーム{number}")

    def room_card(self, card_id: Any) -> str:
        card = self.content.room_cards.get(card_id)
        return pick(card.name, self.lang) if card is not None else str(card_id)

    def skill(self, skill_id: Any) -> str:
        skill = self.content.skills.get(skill_id)
        return pick(skill.name, self.lang) if skill is not None else str(skill_id)

    def quest(self, quest_id: Any) -> str:
        quest = self.content.quests.get(quest_id)
        return pick(quest.name, self.lang) if quest is not None else str(quest_id)

    def familiar(self, familiar_id: Any) -> str:
        familiar = self.content.familiars.get(familiar_id)
        return pick(familiar.name, self.lang) if familiar is not None else str(familiar_id)

    def passage(self, passage_id: Any) -> str:
        passage = self.content.passages.get(passage_id)
        name = getattr(passage, "name", None) if passage is not None else None
        return pick(name, self.lang) if name is not None else str(passage_id)

    def symbol(self, symbol: Any) -> str:
        symbols = self.content.symbols
        return pick(symbols[symbol], self.lang) if symbol in symbols else str(symbol)

    def stat(self, stat: Any) -> str:
        return pick(STAT_NAMES.get(str(stat), {"en": str(stat)}), self.lang)

    def colour(self, colour: Any) -> str:
        return pick(COLOUR_NAMES.get(str(colour), {"en": str(colour)}), self.lang)

    def room_type(self, kind: Any) -> str:
        return pick(ROOM_TYPES.get(str(kind), {"en": str(kind)}), self.lang)

    def deck(self, deck: Any) -> str:
        return pick(DECK_NAMES.get(str(deck), {"en": str(deck)}), self.lang)

    def card(self, deck: Any, card: Any) -> str:
        """A card of a deck by its name (action cards by their symbol's name)."""
        if deck == "action":
            return self.symbol(card)
        if deck == "skill":
            return self.skill(card)
        if deck == "room":
            return self.room_card(card)
        if deck == "quest":
            return self.quest(card)
        return str(card)

    def cause(self, cause: Any) -> str:
        """Where an effect came from: "a failed check", "the slate", "Sprint", "The Fool's Arcana"..."""
        text = str(cause or "")
        head, _, rest = text.partition(":")
        fixed = {
            "failure": ("a failed check", "判定の失敗"),
            "slate": ("the slate", "スレート"),
            "rest": ("a rest room", "レストルーム"),
            "danger_room": ("a danger room", "デンジャールーム"),
            "check": ("a successful check", "判定の成功"),
            "agi": ("a card on Agility", "敏捷へのカード"),
            "familiar": ("the familiar", "従者"),
            "evolution": ("the familiar's evolution", "従者の進化"),
            "learn": ("learning", "習得"),
            "death": ("revival", "復活"),
        }
        if text in fixed:
            return self.say(*fixed[text])
        if head == "skill":
            return self.skill(rest)
        if head == "arcana":
            return self.say(f"the Arcana of {self.area(rest)}", f"{self.area(rest)}のアルカナ")
        if head == "quest":
            return self.quest(rest)
        if head == "room":
            if rest in self.content.room_cards:
                return self.room_card(rest)
            return self.room(rest)
        if head == "boss":
            return self.boss(rest)
        return text or self.say("an effect", "効果")


def die_name(size: Any, lang: str) -> str:
    """A die by its size as the reader's language names it: "d8" in English, 「8面体」 in Japanese
    (the designer's draft names dice so: ４面体、６面体、８面体…). Every die size a player reads,
    on the screen, in the log or on the help page, is written by this function."""
    return f"{size}面体" if _lang(lang) == "ja" else f"d{size}"


def dice_pool(count: Any, size: Any, lang: str) -> str:
    """A pool of ``count`` dice of one size: "3 × d8" in English, 「8面体×3」 in Japanese."""
    if _lang(lang) == "ja":
        return f"{die_name(size, lang)}×{count}"
    return f"{count} × {die_name(size, lang)}"


def _dice(n: Names, dice: Any) -> str:
    """[[colour, size, face], ...] -> "red 3, blue 5, black 1 (d6)" / 「赤3・青5・黒1（6面体）」."""
    parts = []
    size = None
    for die in dice or []:
        if isinstance(die, (list, tuple)) and len(die) >= 3:
            colour, size, face = die[0], die[1], die[2]
            parts.append(f"{n.colour(colour)} {face}" if n.lang == "en" else f"{n.colour(colour)}{face}")
    text = ", ".join(parts) if n.lang == "en" else "・".join(parts)
    if size is None:
        return text
    return n.say(f"{text} ({die_name(size, 'en')})", f"{text}（{die_name(size, 'ja')}）")


def counted(number: Any, one: str, many: str | None = None) -> str:
    """An English count with its noun in agreement: "1 death", "2 deaths", "1 boss defeated",
    "7 bosses defeated" (``many`` when the plural is not ``one`` + "s")."""
    return f"{number} {one if str(number) == '1' else (many if many is not None else one + 's')}"


def _summary(e: Mapping[str, Any], n: Names) -> str:
    return n.say(
        f"{counted(e.get('rounds', e.get('round')), 'round')}, "
        f"{counted(e.get('bosses_defeated', 0), 'boss defeated', 'bosses defeated')}, "
        f"{counted(e.get('areas_freed', 0), 'area freed', 'areas freed')}, {counted(e.get('deaths', 0), 'death')}, "
        f"danger level {e.get('danger_level')}",
        f"{e.get('rounds', e.get('round'))}ラウンド、ボス撃破{e.get('bosses_defeated', 0)}、"
        f"エリア解放{e.get('areas_freed', 0)}、死亡{e.get('deaths', 0)}回、デンジャーレベル{e.get('danger_level')}",
    )


# ---------------------------------------------------------------------------------------------
# Event sentences
# ---------------------------------------------------------------------------------------------

Sentence = Callable[[Mapping[str, Any], Names], str]


def _start_player(e: Mapping[str, Any], n: Names) -> str:
    who = n.player(e.get("seat"))
    if e.get("chosen"):
        return n.say(f"{who} was chosen as the start player.", f"スタートプレイヤーは{who}に決まった。")
    return n.say(f"{who} was drawn as the start player.", f"抽選でスタートプレイヤーは{who}になった。")


def _round_started(e: Mapping[str, Any], n: Names) -> str:
    markers = counted(e.get("action_markers"), "action marker")
    return n.say(
        f"Round {e.get('round')} begins: {markers}, base target {e.get('base_target')}.",
        f"第{e.get('round')}ラウンド開始。アクションマーカー{e.get('action_markers')}個、基本目標値{e.get('base_target')}。",
    )


def _turn_started(e: Mapping[str, Any], n: Names) -> str:
    who = n.player(e.get("seat"))
    if e.get("round") is None:
        return n.say(f"{who}'s turn.", f"{who}の手番。")
    where = n.say(f" in {n.room(e['room'])}", f"、現在地は{n.room(e['room'])}") if e.get("room") else ""
    return n.say(
        f"{who}'s turn (round {e.get('round')}, turn {e.get('turn')}){where}.",
        f"{who}の手番（第{e.get('round')}ラウンド・{e.get('turn')}手番目）{where}。",
    )


def _moved(e: Mapping[str, Any], n: Names) -> str:
    cost = int(e.get("cost") or 0)
    return n.say(
        f"{n.player(e.get('seat'))} moved from {n.room(e.get('frm'))} to {n.room(e.get('to'))} ({cost} MP).",
        f"{n.player(e.get('seat'))}は{n.room(e.get('frm'))}から{n.room(e.get('to'))}へ移動した（移動力{cost}）。",
    )


def _entered(e: Mapping[str, Any], n: Names) -> str:
    who, room, kind = n.player(e.get("seat")), n.room(e.get("room")), e.get("type")
    if e.get("explored"):
        what = n.say(f" and explored it ({n.room_type(kind)})", f"を探索した（{n.room_type(kind)}）")
        return n.say(f"{who} entered {room}{what}.", f"{who}は{room}に入室し、そこ{what}。")
    return n.say(f"{who} entered {room} ({n.room_type(kind)}).", f"{who}は{room}に入室した（{n.room_type(kind)}）。")


def _check_started(e: Mapping[str, Any], n: Names) -> str:
    who = n.player(e.get("seat"))
    if e.get("kind") == "boss":
        what = n.say(
            f"{n.boss(e.get('source'))} ({n.boss_action(e.get('source'), e.get('action'))})",
            f"{n.boss(e.get('source'))}の「{n.boss_action(e.get('source'), e.get('action'))}」",
        )
    else:
        what = n.say(f"the room card {n.room_card(e.get('source'))}", f"ルームカード「{n.room_card(e.get('source'))}」")
    slate = e.get("slate")
    extra = n.say(f", {n.colour(slate)} slate", f"、{n.colour(slate)}のスレート") if slate else ""
    required = int(e.get("required") or 1)
    if required > 1:
        extra += n.say(f", {required} dice needed", f"、{required}個のサイコロが必要")
    return n.say(
        f"{who} faces {what}: target {e.get('target')}{extra}.",
        f"{who}が{what}に挑む：目標値{e.get('target')}{extra}。",
    )


def _resolved(e: Mapping[str, Any], n: Names) -> str:
    """A check's result. A success with AP under the target (MV-CHECK-9) is one an Arcana or a
    skill made (``auto_success``: Judgement's Arcana, Descent of the Spirit): the sentence says
    so, never "succeeded with 1 AP against target 5" alone. The event names no source (it is
    recorded as games have always recorded it, so that their exports still verify); the line of
    the effect itself (check.modified) names it."""
    who, ap, target = n.player(e.get("seat")), e.get("ap"), e.get("target")
    if e.get("result") == "success":
        if isinstance(ap, int) and isinstance(target, int) and ap < target:
            return n.say(
                f"{who} succeeded through an Arcana or a skill that makes the check succeed "
                f"(the dice gave {ap} AP against target {target}).",
                f"{who}はアルカナかスキルの効果で成功した（出目はAP{ap}で目標値{target}に届かなかった）。",
            )
        return n.say(
            f"{who} succeeded with {ap} AP against target {target}.",
            f"{who}はAP{ap}で成功した（目標値{target}）。",
        )
    return n.say(
        f"{who} failed with {ap} AP against target {target}.",
        f"{who}はAP{ap}で失敗した（目標値{target}）。",
    )


def _ascended(e: Mapping[str, Any], n: Names) -> str:
    return n.say(
        f"{n.player(e.get('seat'))} ascended a pair of {e.get('face')}s: +{e.get('bonus')} AP.",
        f"{n.player(e.get('seat'))}は{e.get('face')}のゾロ目でアセンションした：AP+{e.get('bonus')}。",
    )


def _damaged(e: Mapping[str, Any], n: Names) -> str:
    who, cause, amount, life = n.player(e.get("seat")), n.cause(e.get("cause")), e.get("amount"), e.get("life")
    return n.say(
        f"{who} took {amount} damage from {cause} (life {life}).",
        f"{who}は{cause}で{amount}ダメージを受けた（ライフ{life}）。",
    )


def _healed(e: Mapping[str, Any], n: Names) -> str:
    who, cause, amount, life = n.player(e.get("seat")), n.cause(e.get("cause")), e.get("amount"), e.get("life")
    return n.say(
        f"{who} recovered {amount} life thanks to {cause} (life {life}).",
        f"{who}は{cause}でライフが{amount}回復した（ライフ{life}）。",
    )


def _died(e: Mapping[str, Any], n: Names) -> str:
    who = n.player(e.get("seat"))
    where = n.room(e.get("room"))
    if n.content.rooms.get(e.get("room")) is not None and n.content.rooms[e.get("room")].type == "start":
        return n.say(
            f"{who} fell at the start (S) and rose again there with 1 life.",
            f"{who}はスタート（S）で倒れ、その場でライフ1で復活した。",
        )
    return n.say(
        f"{who} fell in {where} and was revived at the start (S) with 1 life.",
        f"{who}は{where}で倒れ、スタート（S）でライフ1で復活した。",
    )


def _danger(e: Mapping[str, Any], n: Names) -> str:
    delta = int(e.get("delta") or 0)
    verb = n.say("rose", "上がった") if delta > 0 else n.say("fell", "下がった")
    return n.say(
        f"The danger level {verb} to {e.get('danger_level')} ({n.cause(e.get('cause'))}).",
        f"デンジャーレベルが{e.get('danger_level')}に{verb}（{n.cause(e.get('cause'))}）。",
    )


def _card_kept(e: Mapping[str, Any], n: Names) -> str:
    """A kept card and the discarded ones, every name quoted alike (「」 in Japanese); a discarded
    copy of the kept card is "the other copy of ..." (two copies of a room card read as the same
    name kept and thrown away)."""
    deck = e.get("deck")
    who = n.player(e.get("seat"))
    kept_id = e.get("card")
    kept = n.card(deck, kept_id)
    rest_en, rest_ja = [], []
    for card in e.get("discarded") or []:
        name = n.card(deck, card)
        if card == kept_id:
            rest_en.append(f"the other copy of {name}")
            rest_ja.append(f"もう1枚の「{name}」")
        else:
            rest_en.append(name)
            rest_ja.append(f"「{name}」")
    if rest_en:
        return n.say(
            f"{who} kept {kept} and discarded {join(rest_en, 'en')}.",
            f"{who}は「{kept}」を残し、{join(rest_ja, 'ja')}を捨てた。",
        )
    return n.say(f"{who} kept {kept}.", f"{who}は「{kept}」を残した。")


def _card_placed(e: Mapping[str, Any], n: Names) -> str:
    who, card, stat, level = n.player(e.get("seat")), n.symbol(e.get("card")), n.stat(e.get("stat")), e.get("level")
    return n.say(
        f"{who} placed {card} on {stat} (now {level}).",
        f"{who}は{card}を{stat}に置いた（{level}になった）。",
    )


def _skill_used(e: Mapping[str, Any], n: Names) -> str:
    who, skill = n.player(e.get("seat")), n.skill(e.get("skill"))
    if e.get("exhausted"):
        return n.say(f"{who} used {skill}; it is exhausted.", f"{who}は「{skill}」を使い、スキルは消耗した。")
    return n.say(f"{who} used {skill}.", f"{who}は「{skill}」を使った。")


def _check_modified(e: Mapping[str, Any], n: Names) -> str:
    field, value, who = e.get("field"), e.get("value"), n.player(e.get("seat"))
    texts = {
        "size_bonus": (f"the die grows {value} size(s) larger", f"サイコロが{value}段階大きくなる"),
        "extra_white": (f"{value} extra white dice", f"白いサイコロが{value}個増える"),
        "ap_bonus": (f"+{value} AP", f"AP+{value}"),
        "auto_success": ("the check succeeds automatically", "判定は自動的に成功する"),
        "ignore_slate": ("the slate is ignored", "スレートを無視する"),
        "ignore_slate_dice": (f"{value} fewer slate damage dice", f"スレートダメージのサイコロが{value}個減る"),
        "reduce_damage": (f"{value} less damage from each source", f"各ダメージが{value}減る"),
    }
    en, ja = texts.get(str(field), (f"{field} = {value}", f"{field} = {value}"))
    return n.say(f"{n.cause(e.get('source'))} for {who}: {en}.", f"{who}に{n.cause(e.get('source'))}：{ja}。")


def _quest_added(e: Mapping[str, Any], n: Names) -> str:
    """A follow-up quest joins the quest deck: named by its card, found by its number (the event
    keeps the number only, as games recorded earlier do; a number is printed nowhere a player sees)."""
    number = e.get("number")
    quest_id = next((q.id for q in n.content.quests.values() if number and q.number == number), None)
    if quest_id is None:
        return n.say("A quest was shuffled into the quest deck.", "クエストが1枚、クエストの山札に加えられた。")
    name = n.quest(quest_id)
    return n.say(
        f"The quest “{name}” was shuffled into the quest deck.", f"クエスト「{name}」がクエストの山札に加えられた。"
    )


def _game_end(won: bool) -> Sentence:
    def sentence(e: Mapping[str, Any], n: Names) -> str:
        if won:
            return n.say(
                f"The Mad King has fallen: the maidens won! ({_summary(e, n)})",
                f"狂王は倒れた。乙女たちの勝利！（{_summary(e, n)}）",
            )
        return n.say(
            f"Round 24 is over and the Mad King still reigns: the maidens lost. ({_summary(e, n)})",
            f"第24ラウンドが終わり、狂王はなお君臨している。乙女たちの敗北。（{_summary(e, n)}）",
        )

    return sentence


def _simple(en: str, ja: str) -> Sentence:
    """A sentence from a template; ``{seat}`` etc. are formatted by kind of field."""

    def sentence(e: Mapping[str, Any], n: Names) -> str:
        return n.say(en, ja).format(**_fields(e, n))

    return sentence


def _check_event(e: Mapping[str, Any], n: Names) -> str:
    """A room card's event or a boss action's effect: named by the card or the boss (the event
    carries the bare id beside the check's kind; the id alone read "The event of r01")."""
    kind, source = e.get("kind"), e.get("source")
    named = n.cause(f"{kind}:{source}") if kind in ("room", "boss") else n.cause(source)
    fields = {**_fields(e, n), "source": named}
    if kind == "boss":
        return n.say("{source}'s action has its effect ({on}).", "{source}の行動の効果が発生した（{on}）。").format(
            **fields
        )
    return n.say("The event of {source} takes effect ({on}).", "{source}のイベントが発生した（{on}）。").format(
        **fields
    )


def _fields(e: Mapping[str, Any], n: Names) -> dict[str, str]:
    out: dict[str, str] = {k: str(v) for k, v in e.items()}
    for key in ("seat", "for_seat"):
        if key in e:
            out[key] = n.player(e.get(key))
    if "seats" in e:
        out["seats"] = n.players_list(e.get("seats"))
    if "area" in e:
        out["area"] = n.area(e.get("area"))
    if "boss" in e:
        out["boss"] = n.boss(e.get("boss"))
    if "skill" in e:
        out["skill"] = n.skill(e.get("skill"))
    if "quest" in e:
        out["quest"] = n.quest(e.get("quest"))
    if "familiar" in e:
        out["familiar"] = n.familiar(e.get("familiar"))
    if "passage" in e:
        out["passage"] = n.passage(e.get("passage"))
    for key in ("room", "a", "b"):
        if key in e:
            out[key] = n.room(e.get(key))
    if "deck" in e:
        out["deck"] = n.deck(e.get("deck"))
    if "card" in e:
        out["card"] = n.card(e.get("deck"), e.get("card"))
    if "cause" in e:
        out["cause"] = n.cause(e.get("cause"))
    if "source" in e:
        out["source"] = n.cause(e.get("source"))
    if "to" in e and "room" in e:
        out["to"] = n.room_type(e.get("to"))
    if "why" in e:
        out["why"] = pick(_LEVEL_UP_WHY.get(str(e.get("why")), {"en": str(e.get("why"))}), n.lang)
    if "dice" in e and isinstance(e.get("dice"), list) and e["dice"] and isinstance(e["dice"][0], list):
        out["dice"] = _dice(n, e.get("dice"))
    if "on" in e:
        on = {"success": ("on success", "成功時"), "failure": ("on failure", "失敗時"), "always": ("always", "常時")}
        out["on"] = n.say(*on.get(str(e.get("on")), (str(e.get("on")), str(e.get("on")))))
    return out


#: What an effect that found nothing to act on would have done, and why it did nothing, in the
#: players' words (``effect.no_target``; its ``op`` is an internal name, never shown).
_DICE: tuple[dict[str, str], dict[str, str]] = (
    {"en": "change the dice of a check", "ja": "判定のサイコロを変える"},
    {"en": "no rolled die can be changed that way", "ja": "そう変えられる振ったサイコロがない"},
)
NO_TARGET: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "boss_damage": (
        {"en": "damage a boss in a fight", "ja": "戦闘中のボスにダメージを与える"},
        {"en": "no boss fight is under way", "ja": "戦闘中のボスがいない"},
    ),
    "boss_disable_action": (
        {"en": "disable one of a boss's actions", "ja": "ボスの行動を一つ封じる"},
        {"en": "no boss has an action left to disable", "ja": "封じられる行動を持つボスがいない"},
    ),
    "room_type": (
        {"en": "change an unexplored room", "ja": "未探索のルームを変える"},
        {"en": "no unexplored room can be changed so", "ja": "そう変えられる未探索のルームがない"},
    ),
    "skill_level": (
        {"en": "raise a skill's level", "ja": "スキルのレベルを上げる"},
        {"en": "{seat} has no skill", "ja": "{seat}はスキルを持っていない"},
    ),
    "exhaust_skill": (
        {"en": "exhaust a skill", "ja": "スキルを消耗させる"},
        {"en": "no skill is ready to exhaust", "ja": "消耗させられるスキルがない"},
    ),
    "warp": (
        {"en": "move {seat} to another room", "ja": "{seat}を別のルームへ移動させる"},
        {"en": "there is no room she can go to now", "ja": "今行けるルームがない"},
    ),
    "cancel_death": (
        {"en": "cancel a death", "ja": "死亡を取り消す"},
        {"en": "nobody is about to die", "ja": "倒れようとしている者がいない"},
    ),
    **{op: _DICE for op in ("die_adjust", "set_die", "reroll", "swap_colours", "near_pair")},
}


def _no_target(e: Mapping[str, Any], n: Names) -> str:
    source = n.cause(e.get("source"))
    known = NO_TARGET.get(str(e.get("op")))
    if known is None:
        return n.say(
            f"An effect of {source} had nothing to act on and did nothing.",
            f"{source}の効果は対象がなく、何も起きなかった。",
        )
    seat = n.player(e.get("seat"))
    what, why = (pick(t, n.lang).format(seat=seat) for t in known)
    return n.say(
        f"{source} would {what}, but {why}: nothing happened.",
        f"{source}の効果は{what}ものだが、{why}ため何も起きなかった。",
    )


SENTENCES: dict[str, Sentence] = {
    # setup
    "setup.start_player": _start_player,
    "setup.familiar": _simple("{seat} chose the familiar {familiar}.", "{seat}は従者「{familiar}」を選んだ。"),
    "setup.done": _simple("Setup is complete. The climb up the Tree of Life begins!", "準備完了。探索が始まる！"),
    # rounds and turns
    "round.started": _round_started,
    "turn.started": _turn_started,
    "turn.ended": _simple("{seat}'s turn ended.", "{seat}の手番が終わった。"),
    "turn.autoplayed": _simple(
        "The turn deadline passed: the autopilot played for {seats}.",
        "手番の期限が過ぎたため、{seats}の手番を自動で進めた。",
    ),
    "game.won": _game_end(True),
    "game.lost": _game_end(False),
    # movement and exploration
    "maiden.moved": _moved,
    "maiden.stayed": _simple(
        "{seat} had nowhere to go and stayed in {room}.", "{seat}は行ける場所がなく、{room}にとどまった。"
    ),
    "maiden.entered": _entered,
    "maiden.mp": _simple("{seat} gains movement: +{bonus} MP this turn.", "{seat}の移動力がこの手番+{bonus}。"),
    "maiden.free_pass": _simple(
        "{seat} may pass unexplored rooms for free this move.", "{seat}はこの移動で未探索ルームを無償で通過できる。"
    ),
    "area.freed": _simple(
        "{seat} freed {area}: its area effect is gone.", "{seat}が{area}を解放した。エリア効果は消えた。"
    ),
    "arcana.gained": _simple(
        "The Arcana of {area} joins the quest area.", "{area}のアルカナがクエスト置き場に加わった。"
    ),
    "arcana.used": _simple(
        "{seat} used the Arcana of {area} for {for_seat}.", "{seat}が{for_seat}のために{area}のアルカナを使った。"
    ),
    "familiar.evolved": _simple(
        "{seat} spent the Arcana of {area}: the familiar evolved and taught {skill}.",
        "{seat}は{area}のアルカナを使い、従者が進化して「{skill}」を授けた。",
    ),
    "passage.revealed": _simple(
        "{seat} discovered a hidden passage: {passage}.", "{seat}が隠し通路を発見した：{passage}。"
    ),
    "room.changed": _simple("{room} became a {to}.", "{room}が{to}になった。"),
    "map.edge_added": _simple("A new way opened between {a} and {b}.", "{a}と{b}の間に新たな道が開いた。"),
    "danger.changed": _danger,
    # checks
    "check.started": _check_started,
    "check.die_size": lambda e, n: n.say(
        f"{n.player(e.get('seat'))} chose to roll {die_name(e.get('size'), 'en')}.",
        f"{n.player(e.get('seat'))}は{die_name(e.get('size'), 'ja')}で振ることにした。",
    ),
    "check.rolled": _simple("{seat} rolled {dice}.", "{seat}の出目：{dice}。"),
    "check.rerolled": lambda e, n: n.say(
        f"A die was rerolled: now {join([str(f) for f in e.get('faces') or []], 'en')}.",
        f"サイコロが振り直された：{join([str(f) for f in e.get('faces') or []], 'ja')}。",
    ),
    "check.ascended": _ascended,
    "maiden.warped": lambda e, n: n.say(
        f"{n.player(e.get('seat'))} warped from {n.room(e.get('frm'))} to {n.room(e.get('to'))}.",
        f"{n.player(e.get('seat'))}は{n.room(e.get('frm'))}から{n.room(e.get('to'))}へワープした。",
    ),
    "check.die_changed": _simple(
        "{seat} turned a die from {before} to {face}.", "{seat}はサイコロの目を{before}から{face}に変えた。"
    ),
    "check.colours_swapped": _simple(
        "{seat} swapped the colours of two dice.", "{seat}は2個のサイコロの色を入れ替えた。"
    ),
    "check.near_pair": lambda e, n: n.say(
        f"{n.player(e.get('seat'))} ascended {join([str(f) for f in e.get('faces') or []], 'en')} as a pair: "
        f"+{e.get('bonus')} AP.",
        f"{n.player(e.get('seat'))}は{join([str(f) for f in e.get('faces') or []], 'ja')}を組にしてアセンションした："
        f"AP+{e.get('bonus')}。",
    ),
    "check.boosted": _simple("{seat} raised a die to {value}.", "{seat}がサイコロを{value}に上げた。"),
    "check.modified": _check_modified,
    "check.resolved": _resolved,
    "check.event": _check_event,
    # cards and decks
    "card.drawn": lambda e, n: n.say(
        f"{n.player(e.get('seat'))} drew {e.get('count')} {n.deck(e.get('deck'))} "
        f"card{'s' if e.get('count') != 1 else ''}.",
        f"{n.player(e.get('seat'))}は{n.deck(e.get('deck'))}カードを{e.get('count')}枚引いた。",
    ),
    "card.kept": _card_kept,
    "card.placed": _card_placed,
    "card.discarded": _simple("{card} went to the {deck} discard pile.", "「{card}」は{deck}の捨て札になった。"),
    "deck.empty": _simple(
        "The {deck} deck is empty: nothing was drawn.", "{deck}の山札が尽きていて、何も引けなかった。"
    ),
    "deck.reshuffled": _simple(
        "The {deck} discard pile was shuffled into a new deck of {count}.",
        "{deck}の捨て札を切り直し、{count}枚の山札にした。",
    ),
    # bosses
    "boss.engaged": _simple(
        "{seat} challenged {boss}! The boss awakens with {life} life.",
        "{seat}が{boss}に挑んだ！ボスはライフ{life}で目覚めた。",
    ),
    "boss.joined": _simple("{seat} joined the fight against {boss}.", "{seat}が{boss}との戦いに加わった。"),
    "boss.pointer": lambda e, n: n.say(
        f"{n.boss(e.get('boss'))} readies {n.boss_action(e.get('boss'), e.get('pointer'))}.",
        f"{n.boss(e.get('boss'))}は次に「{n.boss_action(e.get('boss'), e.get('pointer'))}」を構えた。",
    ),
    "boss.action_disabled": lambda e, n: n.say(
        f"Action {int(e.get('action') or 0) + 1} of {n.boss(e.get('boss'))} is disabled: the pointer skips it.",
        f"{n.boss(e.get('boss'))}の行動{int(e.get('action') or 0) + 1}が封じられた：ポインターはそれを飛ばす。",
    ),
    "boss.hit": _simple(
        "{boss} lost {amount} life ({cause}); {life} left.", "{boss}のライフが{amount}減った（{cause}）。残り{life}。"
    ),
    "boss.weakened": _simple(
        "{boss} is weakened: {amount} less life when first challenged.",
        "{boss}は弱体化した：目覚めた時のライフが{amount}少ない。",
    ),
    "boss.defeated": _simple(
        "{boss} is defeated! A Sephirah is recovered ({sephirot} in all).",
        "{boss}を倒した！セフィラを取り戻した（計{sephirot}個）。",
    ),
    # maidens
    "maiden.damaged": _damaged,
    "maiden.healed": _healed,
    "maiden.died": _died,
    "maiden.dying": _simple(
        "{seat} would die ({cause}) unless a skill or an Arcana cancels it.",
        "{seat}は倒れようとしている（{cause}）。スキルかアルカナで取り消せる。",
    ),
    "maiden.death_cancelled": _simple(
        "{seat}'s death was cancelled ({cause}): she lives on with 1 life where she is.",
        "{seat}の死亡は取り消された（{cause}）。ライフ1でその場に留まる。",
    ),
    "maiden.level_up": _simple("{seat} levels up ({why}).", "{seat}がレベルアップする（{why}）。"),
    "maiden.extra_draw": _simple(
        "{seat}'s next draw gets {extra} extra card(s).", "{seat}の次のドローは{extra}枚多くなる。"
    ),
    # skills and quests
    "skill.used": _skill_used,
    "skill.exhausted": _simple(
        "{seat}'s {skill} is exhausted ({cause}).", "{seat}の「{skill}」が消耗した（{cause}）。"
    ),
    "skill.learned": _simple("{seat} learned {skill} ({cause}).", "{seat}は「{skill}」を習得した（{cause}）。"),
    "skill.levelled": _simple(
        "{seat}'s {skill} rose to level {level}.", "{seat}の「{skill}」がレベル{level}になった。"
    ),
    "skill.refreshed": _simple(
        "{seat} readied {count} exhausted skill(s) ({cause}).", "{seat}の消耗したスキル{count}枚が回復した（{cause}）。"
    ),
    "quest.drawn": _simple("{seat} took up the quest {quest}.", "{seat}はクエスト「{quest}」を受けた。"),
    "quest.added": _quest_added,
    "rooms.looked": _simple(
        "{seat} looks at the top {count} room card(s).", "{seat}はルーム山の上から{count}枚を見る。"
    ),
    "rooms.reordered": _simple(
        "{seat} put the top {count} room cards back in a chosen order.",
        "{seat}はルーム山の上{count}枚を選んだ順番で戻した。",
    ),
    "effect.no_target": _no_target,
    "effect.unsupported": _simple(
        "An effect of {source} is not available yet and was skipped.",
        "{source}の効果の一つはまだ使えないため、飛ばされた。",
    ),
}


def has_sentence(kind: str) -> bool:
    return kind in SENTENCES


def describe(
    entry: Mapping[str, Any], lang: str = "en", content: Any = None, names: Sequence[str] | None = None
) -> str:
    """One entry of a view's log (``{"time", "kind", "data"}``) as a sentence in ``lang``."""
    data = entry.get("data")
    return sentence(str(entry.get("kind", "")), data if isinstance(data, Mapping) else {}, lang, content, names)


def event_sentence(event: Any, lang: str = "en", content: Any = None, names: Sequence[str] | None = None) -> str:
    """A kernel ``Event`` as a sentence in ``lang``."""
    return sentence(str(event.kind), dict(event.data), lang, content, names)


def sentence(
    kind: str, data: Mapping[str, Any], lang: str = "en", content: Any = None, names: Sequence[str] | None = None
) -> str:
    """The sentence of an event ``kind`` with its ``data`` (event data may hold a ``kind`` of
    its own, e.g. a check's kind: it never replaces the event's). ``names``: the players' names
    by seat. An unknown kind, or data a sentence does not expect, gives a generic sentence.

    :raises ValueError: for a language other than en or ja.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    named = Names(lang, content, names, mark=True)
    writer = SENTENCES.get(kind)
    if writer is not None:
        try:
            return capital(writer(data, named), lang)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass  # unexpected data: the generic sentence rather than a broken screen
    return capital(_generic(kind, data, named), lang)


def _generic(kind: str, data: Mapping[str, Any], n: Names) -> str:
    fields = _fields(data, n)
    parts = [f"{k} {v}" if n.lang == "en" else f"{k}:{v}" for k, v in fields.items() if k not in ("kind", "time")]
    details = listing(parts, n.lang)
    if details:
        return n.say(f"Event “{kind}”: {details}.", f"出来事「{kind}」：{details}。")
    return n.say(f"Event “{kind}”.", f"出来事「{kind}」。")


def capital(sentence: str, lang: str = "en") -> str:
    """The sentence with its first letter capitalised when that letter is the template's own
    (English only): a player's name (between NAME_OPEN and NAME_CLOSE) stays as its player wrote
    it, and Japanese is never changed. The name marks are removed."""
    if sentence and _lang(lang) == "en" and not sentence.startswith(NAME_OPEN):
        sentence = sentence[:1].upper() + sentence[1:]
    return sentence.replace(NAME_OPEN, "").replace(NAME_CLOSE, "")
