"""The help page, generated from the content data in the active language: the classes with the
preset's names, every card of the preset's card set (category, uses and costs, text), the
monsters of its roster, the statuses, the active settings of the game (or the preset's basic
rules), the map legend and the commands of each phase (FL-UI-8, FL-CFG-1)."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from delve.fated import content, text
from delve.fated.death import DEATH_CHECK_SUCCESS, REVIVED_HP
from delve.server.games.engine import ruleset_of
from delve.server.games.models import Game
from delve.server.games.present import setting_line, settings_lines
from delve.server.play.fated_screen import LEGEND, TERRAIN, lang

PHASE_COMMANDS = (
    ("move", ("move", "stay", "pass", "swap")),
    ("core", ("attack", "use_card", "pass_by", "pick_up", "escape", "draw", "pass", "nothing", "jump", "steal")),
    ("defense", ("defend", "no_defense", "parry", "accept_pass_by", "decline_pass_by")),
    ("wait", ("refresh", "comment")),
)
ALWAYS = ("give_up", "comment")


def context(preset: str, *, game: Game | None = None) -> dict[str, Any]:
    data = content.load()
    if preset not in data.presets:
        raise Http404("no such preset")
    lang_ = lang()
    definition = data.presets[preset]
    labels = {key: text.word(key, lang_, preset) for key in ("attack", "defense", "magic", "evasion")}
    classes = [
        {
            "name": text.class_name(c.id, lang_, preset),
            "attack": c.attack,
            "defense": c.defense,
            "magic": c.magic,
            "evasion": c.evasion,
            "max_cards": c.max_cards,
            "description": text.vocabulary(text.pick(c.description, lang_), lang_, preset),
        }
        for c in data.classes.values()
    ]
    copies = data.copies(preset)
    cards = []
    for kind in sorted(copies, key=lambda k: (content.CATEGORIES.index(data.cards[k].category), k)):
        card = data.cards[kind]
        uses = (
            [{"use": text.use_name(use, lang_, preset), "cost": cost} for use, cost in card.uses.items()]
            if card.uses
            else [{"use": "", "cost": card.cost}]
        )
        cards.append(
            {
                "name": text.card_name(kind, lang_, preset),
                "category": text.category_name(card.category, lang_),
                "uses": uses,
                "text": text.vocabulary(text.pick(card.text, lang_), lang_, preset),
                "copies": copies[kind],
            }
        )
    roster = definition.settings.get("monster_roster", [])
    monsters = [
        {
            "glyph": text.monster_glyph(key, lang_),
            "name": text.pick(m.name, lang_),
            "hp": m.hp,
            "attack": m.attack,
            "defense": m.defense,
            "evasion": m.evasion,
            "actions": f"{m.actions[0]}" if m.actions[0] == m.actions[1] else f"{m.actions[0]}–{m.actions[1]}",
            "description": text.vocabulary(text.pick(m.description, lang_), lang_, preset),
        }
        for key in roster
        if (m := data.monsters.get(key)) is not None
    ]
    statuses = [
        {
            "name": text.vocabulary(text.pick(s.name, lang_), lang_, preset),
            "kind": s.kind,
            "text": text.vocabulary(text.pick(s.text, lang_), lang_, preset),
        }
        for s in data.statuses.values()
    ]
    if game is not None:
        rules = settings_lines(game)
    else:
        ruleset = ruleset_of(Game(ruleset="fated", preset=preset))
        rules = [setting_line(line, lang_) for line in ruleset.describe_settings({"preset": preset})]
    phases = [
        {
            "name": text.phase_name(phase, lang_, preset),
            "commands": [
                {
                    "name": text.command_name(kind, lang_, preset),
                    "help": text.command_help(kind, lang_, preset),
                    "keys": text.command_keys(kind, lang_),
                }
                for kind in kinds
            ],
        }
        for phase, kinds in PHASE_COMMANDS
    ]
    always = [
        {
            "name": text.command_name(kind, lang_, preset),
            "help": text.command_help(kind, lang_, preset),
            "keys": text.command_keys(kind, lang_),
        }
        for kind in ALWAYS
    ]
    legend = [
        {"css": f"t-{TERRAIN[c][0]}", "icon": TERRAIN[c][1], "label": text.terrain_name(c, lang_, preset)}
        for c in LEGEND
    ]
    return {
        "preset": preset,
        "preset_title": text.pick(definition.title, lang_),
        "story": text.pick(definition.story, lang_),
        "presets": [(key, text.pick(p.title, lang_)) for key, p in data.presets.items()],
        "game": game,
        "labels": labels,
        "classes": classes,
        "cards": cards,
        "monsters": monsters,
        "statuses": statuses,
        "rules": rules,
        "phases": phases,
        "always": always,
        "legend": legend,
        "trap_word": text.word("trap", lang_, preset),
        **_phase_texts(lang_, preset),
        "death_texts": _death_texts(lang_, preset),
    }


def _death_texts(lang: str, preset: str) -> list[str]:
    """The help's paragraphs on death (FL-DEATH-1..5), kill credit (FL-KILL-1..7) and giving up
    (FL-ABN-5), in the preset's words (Level D: 投了 / "resign", ワナ, ダンジョン)."""
    wins, out_of = DEATH_CHECK_SUCCESS
    chance = round(100 * wins / out_of)
    maze, trap = text.word("maze", lang, preset), text.word("trap", lang, preset)
    if lang == "ja":
        give_up = text.word("fate_gave_up", lang, preset)  # 放棄 / 投了 (P-33)
        return [
            f"HPが0になると死亡判定が行われます。成功率は{chance}%で、成功すると死の淵から蘇り、HP {REVIVED_HP}で"
            "ゲームを続けます。失敗すると死亡し、ゲームから退場します。ログには判定の結果が表示されます。",
            "死亡すると、持っていたカードはゲームから除外されます（捨て札にもなりません）。持っていた財宝はその場に"
            f"落ちます。そのマスにすでに財宝・出口・チェックポイントがあれば、{maze}のランダムな場所へ飛ばされます。"
            f"財宝が落ちたマスの{trap}や氷は消えます。自分のモンスターも消えます。",
            "とどめを刺したプレイヤーの撃破数が1増えます。モンスターのとどめはその持ち主、"
            f"{trap}のとどめは仕掛けた人の撃破数になります。その人がすでに死亡していた場合、HP毒による死亡、"
            "自分自身が原因の死亡では、生き残っている全員の撃破数が1増えます。跳ね返された攻撃は、跳ね返した"
            "プレイヤーの撃破数になります。",
            f"{give_up}（ボタンまたは期限切れ）では、防御していない攻撃をすべて防御なしで受けます。そこでHPが0に"
            "なっても死亡判定はなく、そのまま死亡します（撃破数はとどめの相手に）。HPが残れば探索を断念して退場し、"
            "誰の撃破数も増えません。",
            "死亡した後も、ゲームを見ることとコメントはできます。",
        ]
    give_up = text.word("give_up", lang, preset).lower()  # give up / resign (P-33)
    return [
        f"When your HP drops to 0, a death check is rolled: with a {chance}% chance you rise from the brink of "
        f"death with {REVIVED_HP} HP and play on; otherwise you die and leave the game. The log says how the "
        "check went.",
        "On death, the cards you held are removed from the game (not discarded). Your treasures drop on your "
        "tile; if it already holds a treasure, an exit or a checkpoint, they are flung to a random place in the "
        f"{maze}. A {trap.lower()} or ice where a treasure lands disappears. Your monsters vanish.",
        "The player who dealt the finishing blow gets one kill; a monster's blow counts for its owner, a "
        f"{trap.lower()}'s for the player who set it. If that player is already dead, or the death came from HP "
        "Poison or was your own doing, every surviving player gets one kill. A reflected attack counts for the "
        "player who reflected it.",
        f"If you {give_up} (the button or the deadline), every attack still waiting for your defense is taken "
        "without defense. Reaching 0 HP then means death with no death check (the kill goes to that attacker); "
        "if you still have HP, you leave the game and nobody gets a kill.",
        "After death you can still watch the game and comment.",
    ]


def _phase_texts(lang: str, preset: str) -> dict[str, str]:
    """The help's sentences that name phases, in the preset's word (Level D: "move turn",
    移動ターン; AMB-66, P-25)."""
    word = text.word("phase", lang, preset)
    move, core, defense = (text.phase_name(p, lang, preset) for p in ("move", "core", "defense"))
    trap = text.word("trap", lang, preset)
    if lang == "ja":
        return {
            "turn_text": "プレイヤーごとに時計があり、待機時間ごとにターンが回ってきます。使わなかったターンは上限まで"
            f"蓄積されます。1ターンは、自分への攻撃などに対する{defense}、最大3回の{move}、そして{core}の行動1回です。",
            "keyboard_text": f"キーボード：{move}では矢印キーとW A S Dで移動できます。Tabキーで操作部品の間を移動でき、"
            "フォーカスのある部品の説明が表示されます。",
            "cards_text": f"攻撃カードには3つの用途があります。《{trap}》は自分のいるマスに仕掛けます（最も安い）。"
            "《隣接》は隣の相手を攻撃し、基本攻撃力が加わります。《遠隔》は任意の他プレイヤーを攻撃します（最も高い）。"
            f"防御カードは{defense}でのみ、その他のカードは{core}でのみ使えます。",
        }
    low = word.lower()
    return {
        "turn_text": "Every player has their own clock: a turn comes every wait time, and unused turns are stored up "
        f"to a limit. A turn is: defense {low}s for anything aimed at you, up to three move {low}s, and one core "
        "action.",
        "keyboard_text": f"Keyboard: in a move {low} the arrow keys and W A S D move you; Tab moves between the "
        "controls, and every control shows its help when it has the focus.",
        "cards_text": f"Attack cards have three uses: 《{trap}》 sets a {trap.lower()} on your own tile (cheapest), "
        "《Adjacent》 hits a neighbour and adds your base attack, 《Remote》 hits any other player (dearest). "
        f"Defense cards work only in a defense {low}; every other card only in the core {low}.",
    }
