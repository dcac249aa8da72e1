"""The card catalogue as text: rows for ``delve cards`` and for docs/cards.md.

Pure presentation of ``content.load()``: one row per card kind in a preset's 500-card set, with
the name in the chosen language (Level D says ワナ where Fated Labyrinth says 罠, P-26), the
category, the uses and their costs, the copies in the preset and the rules text.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from delve.fated import effect_rules, effects, text
from delve.fated.content import CATEGORIES, USES, CardDef, Content, load

CATEGORY_NAMES: dict[str, dict[str, str]] = {
    "damage": {"en": "Damage", "ja": "ダメージ"},
    "special_attack": {"en": "Special attack", "ja": "特殊攻撃"},
    "special_utility": {"en": "Special attack / utility", "ja": "特殊攻撃／便利"},
    "influence": {"en": "Influence", "ja": "影響"},
    "defense": {"en": "Defense", "ja": "防御"},
    "utility": {"en": "Utility", "ja": "便利"},
    "terrain": {"en": "Terrain change", "ja": "地形変化"},
    "recovery": {"en": "Recovery", "ja": "回復"},
    "summon": {"en": "Summon", "ja": "召喚"},
    "unclassifiable": {"en": "Unclassifiable", "ja": "分類不能"},
}
USE_NAMES = {
    "trap": {"en": "trap", "ja": "罠"},
    "adjacent": {"en": "adj", "ja": "隣接"},
    "remote": {"en": "remote", "ja": "遠隔"},
}
DEFENSE_NAMES = {
    "reduction": {"en": "reduction", "ja": "軽減系"},
    "trap": {"en": "trap countermeasure", "ja": "罠対策系"},
    "special": {"en": "special defense", "ja": "特殊防御"},
    "complete": {"en": "complete defense", "ja": "完全防御"},
    "counter": {"en": "counter", "ja": "反撃系"},
}
HEADERS = {
    "en": ("id", "name", "category", "costs", "copies", "text"),
    "ja": ("id", "名前", "系統", "コスト", "枚数", "効果"),
}


@dataclass(frozen=True)
class Row:
    id: str
    name: str
    category: str
    costs: str
    copies: int
    text: str
    purpose: str


def costs(card: CardDef, lang: str) -> str:
    """The cost of each use: ``trap 4 / adj 9 / remote 16``, ``cost 3``, or both."""
    parts = [f"{USE_NAMES[u][lang]} {card.uses[u]}" for u in USES if u in card.uses]
    if card.has_effects or not card.uses:
        parts.append(("cost " if lang == "en" else "コスト") + str(card.cost))
    return " / ".join(parts)


def rows(preset: str = "fated-labyrinth", lang: str = "en", content: Content | None = None) -> list[Row]:
    """One row per card kind in the preset's set, in category order then catalogue order."""
    data = content or load()
    copies = data.copies(preset)
    out = []
    for category in CATEGORIES:
        for card in data.cards.values():
            if card.category != category or card.id not in copies:
                continue
            label = CATEGORY_NAMES[category][lang]
            if card.defense is not None:
                label += f" ({DEFENSE_NAMES[card.defense][lang]})"
            out.append(
                Row(
                    id=card.id,
                    name=text.vocabulary(card.name[lang], lang, preset),
                    category=text.vocabulary(label, lang, preset),
                    costs=text.vocabulary(costs(card, lang), lang, preset),
                    copies=copies[card.id],
                    text=text.vocabulary(card.text[lang], lang, preset),
                    purpose=card.purpose,
                )
            )
    return out


def width(text: str) -> int:
    """Terminal columns of ``text``: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, columns: int) -> str:
    return text + " " * (columns - width(text))


def table(preset: str = "fated-labyrinth", lang: str = "en", content: Content | None = None) -> str:
    """The catalogue as an aligned plain-text table, with a total line."""
    found = rows(preset, lang, content)
    cells = [HEADERS[lang]] + [(r.id, r.name, r.category, r.costs, str(r.copies), r.text) for r in found]
    widths = [max(width(row[i]) for row in cells) for i in range(5)]
    lines = []
    for index, row in enumerate(cells):
        head = [_pad(cell, widths[i]) if i != 4 else cell.rjust(widths[i]) for i, cell in enumerate(row[:5])]
        lines.append("  ".join([*head, row[5]]).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 4)
    total = sum(r.copies for r in found)
    lines.append(f"{len(found)} kinds, {total} cards per set" if lang == "en" else f"{len(found)}種類、1組{total}枚")
    return "\n".join(lines)


def reference() -> str:
    """The effect vocabulary section of docs/cards.md: the target words and the ops, from the
    code (``effect_rules.TARGET_HELP``, ``effects.OPS`` docstrings and ``effect_rules.OP_RULES``)."""
    lines = ["| target | what the card is aimed at (command parameter) |", "|---|---|"]
    lines += [f"| `{word}` | {effect_rules.TARGET_HELP[word]} |" for word in effects.TARGETS]
    lines += ["", "| op | what it does | needs | works on targets |", "|---|---|---|---|"]
    for name, function in effects.OPS.items():
        rule = effect_rules.OP_RULES[name]
        doc = " ".join((function.__doc__ or "").split())
        needs = ", ".join(f"`{n}`" for n in rule.needs) or "—"
        lines.append(f"| `{name}` | {doc} | {needs} | {', '.join(rule.targets)} |")
    return "\n".join(lines) + "\n"


def markdown(content: Content | None = None) -> str:
    """The catalogue section of docs/cards.md: per category, every kind with its costs, copies
    in each preset, rules text and purpose (English)."""
    data = content or load()
    presets = list(data.presets)
    counts = {p: data.copies(p) for p in presets}
    lines: list[str] = ["## The catalogue", ""]
    for category in CATEGORIES:
        cards = [c for c in data.cards.values() if c.category == category]
        lines.append(f"### {CATEGORY_NAMES[category]['en']} ({CATEGORY_NAMES[category]['ja']}) — {len(cards)} kinds")
        lines.append("")
        header = "| id | name | costs | " + " | ".join(f"copies {p}" for p in presets) + " | effect | what it is for |"
        lines.append(header)
        lines.append("|" + "---|" * (5 + len(presets)))
        for card in cards:
            copies = " | ".join(str(counts[p].get(card.id, 0)) for p in presets)
            name = f"{card.name['en']} ({card.name['ja']})"
            lines.append(
                f"| `{card.id}` | {name} | {costs(card, 'en')} | {copies} | {card.text['en']} | {card.purpose} |"
            )
        lines.append("")
    totals = " / ".join(f"{p}: {len(counts[p])} kinds, {sum(counts[p].values())} cards" for p in presets)
    lines.append(f"{len(data.cards)} kinds in the catalogue; per set — {totals}.")
    return "\n".join(lines) + "\n"
