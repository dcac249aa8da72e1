"""The help page, generated from the content data in the active language: the classes with the
preset's names, every card of the preset's card set (category, uses and costs, text), the
monsters of its roster, the statuses, the active settings of the game (or the preset's basic
rules), the map legend and the commands of each phase (FL-UI-8, FL-CFG-1)."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from delve.fated import content, text
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
                {"name": text.command_name(kind, lang_, preset), "help": text.command_help(kind, lang_, preset)}
                for kind in kinds
            ],
        }
        for phase, kinds in PHASE_COMMANDS
    ]
    always = [
        {"name": text.command_name(kind, lang_, preset), "help": text.command_help(kind, lang_, preset)}
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
    }


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
