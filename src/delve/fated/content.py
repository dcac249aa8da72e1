"""Fated Labyrinth content: classes, statuses, monsters, presets and the card catalogue.

Content is data (``content/*.toml``), validated at load into frozen typed objects. A broken file
fails fast with :class:`~delve.kernel.ContentError` naming the file, the entry and the reason.
Loading is cached: content is immutable once loaded.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Literal, get_args

import msgspec

from delve.fated.effect_rules import validate_card
from delve.kernel import ContentError

Text = dict[str, str]
LANGS = ("en", "ja")

ABILITIES = frozenset({"wide_sight", "jump", "parry", "steal", "disarm", "priest", "summoner", "double_pass"})

CardCategory = Literal[
    "damage",
    "special_attack",
    "special_utility",
    "influence",
    "defense",
    "utility",
    "terrain",
    "recovery",
    "summon",
    "unclassifiable",
]
CATEGORIES: tuple[str, ...] = get_args(CardCategory)
USES = ("trap", "adjacent", "remote")
DefenseClass = Literal["reduction", "trap", "special", "complete", "counter"]
SPECIAL_EFFECTS = frozenset({"cp_drain", "loss", "misfortune", "treasure_toss", "steal_card"})
ATTACK_CATEGORIES = frozenset({"damage", "special_attack", "special_utility"})
CARDS_PER_SET = 500


class ClassDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: Text
    attack: int
    defense: int
    magic: int
    evasion: int
    max_cards: int
    abilities: frozenset[str]
    description: Text

    def has(self, ability: str) -> bool:
        return ability in self.abilities


class StatusDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: Text
    kind: Literal["plus", "minus"]
    text: Text
    monsters: bool = False
    players: bool = True
    opposite: str | None = None
    permanent: bool = False


class MonsterDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: Text
    glyph: str
    """The map glyph (FL-VIS-7), a kanji: the Japanese screen's and the views'."""
    glyph_en: str
    """The English screen's map glyph: one or two Latin letters, the first letter(s) of the name."""
    hp: int
    attack: int
    defense: int
    evasion: int
    actions: tuple[int, int]
    description: Text
    special: Literal["imp", "necromancer", "breath"] | None = None
    sets: tuple[str, ...] = ()
    """Imp: what it may set, uniformly (FL-MON-24): card ids used as 《罠》, and ``fake``."""
    magic: tuple[str, ...] = ()
    """Necromancer: the special attack cards its magic may copy, uniformly (FL-MON-28)."""


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One effect primitive of a card (see ``effects.py`` for the vocabulary: ``effects.OPS``
    names the ops and ``effect_rules.OP_RULES`` the fields and targets each op needs)."""

    op: str
    amount: int = 0
    priest: int = 0
    """Added to ``amount`` when the card's user is a Priest (FL-CLS-3)."""
    status: str | None = None
    statuses: tuple[str, ...] = ()
    radius: int = 0
    length: int = 0
    count: int = 0
    stat: str | None = None
    """For ``raise``: attack, defense, magic, evasion, max_hp, max_cp or max_cards."""
    cap: int = 0
    """For ``raise``: the stat never goes above this."""
    terrain: str | None = None
    """For ``terraform``: the new terrain (floor, ice, door)."""
    only: tuple[str, ...] = ()
    """For ``terraform``: the terrains it changes (floor, ice, wall, door)."""


class CardDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A card kind (MC-18). Attack cards (damage, special attack) have ``uses`` with a cost per
    use, a ``power`` and/or a ``special``; defense cards have a ``defense`` class and a ``cost``;
    other cards have one ``cost``, a ``target`` (``effects.TARGETS``) and ``effects`` (a list
    of primitives from ``effects.OPS``). Special attack / utility cards have both: ``uses`` for
    the special attack and ``cost``/``target``/``effects`` for the utility use.
    ``copies`` is the number of this kind in one 500-card set (0: only in presets whose
    ``[deck]`` gives it copies); ``purpose`` says what the card is for (docs/cards.md)."""

    id: str
    name: Text
    category: CardCategory
    copies: int
    text: Text
    purpose: str = ""
    power: int = 0
    special: str | None = None
    amount: int = 0
    uses: dict[str, int] = {}
    defense: DefenseClass | None = None
    reduce: int = 0
    keeps_trap: bool = False
    seize: bool = False
    """Trap countermeasure: the trap stays and now belongs to the defender."""
    counter: Literal["return", "redirect", "both"] | None = None
    cost: int = 0
    target: str = "none"
    effects: tuple[Effect, ...] = ()
    monster: str | None = None

    @property
    def is_attack(self) -> bool:
        """Usable 《罠》/《隣接》/《遠隔》 against a player (damage and special attack cards)."""
        return bool(self.uses)

    @property
    def has_effects(self) -> bool:
        """Usable through its ``effects`` list on its ``target`` (every non-attack core card,
        and the utility use of a special attack / utility card)."""
        return bool(self.effects)

    def use_cost(self, use: str | None) -> int:
        if use is None:
            return self.cost
        return self.uses[use]


class PresetDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    title: Text
    story: Text
    settings: dict[str, Any]
    classes: dict[str, Text]
    words: dict[str, Text]
    deck: dict[str, int] = {}
    """Copies per card kind that differ from cards.toml in this preset's set (0 leaves a kind out)."""


class Content(msgspec.Struct, frozen=True):
    classes: dict[str, ClassDef]
    statuses: dict[str, StatusDef]
    monsters: dict[str, MonsterDef]
    presets: dict[str, PresetDef]
    cards: dict[str, CardDef]
    card_sets: dict[str, tuple[str, ...]]
    """Per preset, the kind of each card of its 500-card set by position: card id ``c`` is of
    kind ``card_sets[preset][c % 500]``."""

    def card(self, card_id: int, preset: str) -> CardDef:
        return self.cards[self.card_sets[preset][card_id % CARDS_PER_SET]]

    def copies(self, preset: str) -> dict[str, int]:
        """Copies of each kind in one set of ``preset``."""
        counts: dict[str, int] = {}
        for kind in self.card_sets[preset]:
            counts[kind] = counts.get(kind, 0) + 1
        return counts

    def class_name(self, class_id: str, preset: str, lang: str) -> str:
        override = self.presets[preset].classes.get(class_id)
        return (override or self.classes[class_id].name)[lang]


def _label(root: Traversable, name: str) -> str:
    """How error messages name a content file: its package path, or its path under ``root``."""
    return f"{root}/{name}" if root != _DEFAULT_ROOT else f"delve/fated/content/{name}"


def _read(root: Traversable, name: str) -> tuple[str, dict[str, Any]]:
    ref = root.joinpath(*name.split("/"))
    label = _label(root, name)
    try:
        return label, tomllib.loads(ref.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(label, "(file)", "missing") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(label, "(file)", f"not valid TOML: {exc}") from None


def _entries(label: str, data: dict[str, Any], table: str, cls: type[Any]) -> dict[str, Any]:
    items = data.get(table)
    if not isinstance(items, list) or not items:
        raise ContentError(label, table, f"expected a non-empty array of [[{table}]] tables")
    out: dict[str, Any] = {}
    for position, raw in enumerate(items):
        key = str(raw.get("id", f"{table}[{position}]")) if isinstance(raw, dict) else f"{table}[{position}]"
        try:
            entry = msgspec.convert(raw, type=cls)
        except msgspec.ValidationError as exc:
            raise ContentError(label, key, str(exc)) from None
        if entry.id in out:
            raise ContentError(label, key, "duplicate id")
        _check_texts(label, key, entry)
        out[entry.id] = entry
    return out


def _check_texts(label: str, key: str, entry: Any) -> None:
    for field in entry.__struct_fields__:
        value = getattr(entry, field)
        if field in {"name", "text", "description", "title", "story"} and isinstance(value, dict):
            missing = [lang for lang in LANGS if not value.get(lang)]
            if missing:
                raise ContentError(label, key, f"{field} lacks the {'/'.join(missing)} text")


def _validate_classes(label: str, classes: dict[str, ClassDef]) -> None:
    for key, c in classes.items():
        unknown = c.abilities - ABILITIES
        if unknown:
            raise ContentError(label, key, f"unknown abilities {sorted(unknown)}; known: {sorted(ABILITIES)}")
        if not 0 <= c.magic <= 100 or not 0 <= c.evasion <= 100:
            raise ContentError(label, key, "magic and evasion must be within 0..100")
        if c.max_cards < 3:
            raise ContentError(label, key, "max_cards must be at least 3 (the start hand is max_cards - 3)")


def _validate_statuses(label: str, statuses: dict[str, StatusDef]) -> None:
    for key, s in statuses.items():
        if s.opposite is not None:
            other = statuses.get(s.opposite)
            if other is None or other.opposite != key:
                raise ContentError(label, key, f"opposite {s.opposite!r} must name a status whose opposite is {key!r}")


def _validate_monsters(label: str, monsters: dict[str, MonsterDef]) -> None:
    for key, m in monsters.items():
        low, high = m.actions
        if not 1 <= low <= high:
            raise ContentError(label, key, f"actions must be [min, max] with 1 <= min <= max, got {list(m.actions)}")
        if len(m.glyph) != 1:
            raise ContentError(label, key, f"glyph must be one character, got {m.glyph!r}")
        if not (
            1 <= len(m.glyph_en) <= 2 and m.glyph_en.isascii() and m.glyph_en.isalpha() and m.glyph_en[0].isupper()
        ):
            raise ContentError(
                label, key, f"glyph_en must be one or two Latin letters, a capital first, got {m.glyph_en!r}"
            )


def _validate_cards(
    label: str, cards: dict[str, CardDef], statuses: dict[str, StatusDef], monsters: dict[str, MonsterDef]
) -> None:
    for key, card in cards.items():
        if card.copies < 0:
            raise ContentError(label, key, "copies cannot be negative")
        if not card.purpose.strip():
            raise ContentError(label, key, "purpose is missing: say what the card is for")
        if card.special is not None and card.special not in statuses and card.special not in SPECIAL_EFFECTS:
            raise ContentError(label, key, f"special {card.special!r} is neither a status nor a special effect")
        if card.uses:
            bad = set(card.uses) - set(USES)
            if bad:
                raise ContentError(label, key, f"unknown uses {sorted(bad)}; uses are {', '.join(USES)}")
            if card.category not in ATTACK_CATEGORIES:
                raise ContentError(label, key, f"a {card.category} card cannot have trap/adjacent/remote uses")
            costs = [card.uses[u] for u in USES if u in card.uses]
            if costs != sorted(costs) or len(set(costs)) != len(costs):
                raise ContentError(label, key, "use costs must rise strictly: trap < adjacent < remote (FL-USE-5)")
            if any(c < 0 for c in costs):
                raise ContentError(label, key, "costs cannot be negative")
        if card.category == "damage" and (card.power <= 0 or set(card.uses) != set(USES)):
            raise ContentError(label, key, "a damage card needs a power and all three uses (FL-USE-1)")
        if card.category in {"special_attack", "special_utility"} and (card.special is None or not card.uses):
            raise ContentError(label, key, f"a {card.category} card needs a special and at least one use")
        if card.category in {"damage", "special_attack"} and (card.effects or card.cost):
            raise ContentError(label, key, "an attack card has costs per use and no effects list")
        if card.category == "defense":
            if card.defense is None:
                raise ContentError(label, key, "a defense card needs a defense class")
            if card.defense == "counter" and card.counter is None:
                raise ContentError(label, key, "a counter card needs counter = return | redirect | both")
        elif card.defense is not None:
            raise ContentError(label, key, "only defense cards have a defense class")
        if card.category == "summon" and card.monster not in monsters:
            raise ContentError(label, key, f"summon card names unknown monster {card.monster!r}")
        if card.category != "summon" and card.monster is not None:
            raise ContentError(label, key, "only summon cards name a monster")
        if card.cost < 0:
            raise ContentError(label, key, "cost cannot be negative")
        problem = validate_card(card, statuses)
        if problem:
            raise ContentError(label, key, problem)


IMP_FAKE = "fake"


def _validate_monster_cards(label: str, monsters: dict[str, MonsterDef], cards: dict[str, CardDef]) -> None:
    """The imp's traps and the necromancer's magic name cards of the catalogue (FL-MON-24/28)."""
    for key, m in monsters.items():
        if m.special == "imp" and not m.sets:
            raise ContentError(label, key, "an imp needs a non-empty sets list (FL-MON-24)")
        if m.special == "necromancer" and not m.magic:
            raise ContentError(label, key, "a necromancer needs a non-empty magic list (FL-MON-28)")
        for option in m.sets:
            card = cards.get(option)
            if option != IMP_FAKE and (card is None or "trap" not in card.uses):
                raise ContentError(label, key, f"sets: {option!r} is neither {IMP_FAKE!r} nor a card with a trap use")
        for option in m.magic:
            card = cards.get(option)
            if card is None or card.special is None or card.category == "damage":
                raise ContentError(label, key, f"magic: {option!r} is not a special attack card")


def _card_set(
    label: str, preset: PresetDef, cards: dict[str, CardDef], monsters: dict[str, MonsterDef]
) -> tuple[str, ...]:
    """The preset's 500-card set: cards.toml copies with the preset's ``deck`` overrides. Every
    monster of the preset's roster has a summon card in it and no other monster has one (MC-14)."""
    unknown = sorted(set(preset.deck) - set(cards))
    if unknown:
        raise ContentError(label, preset.id, f"deck names unknown cards {unknown}")
    roster = set(preset.settings.get("monster_roster", []))
    kinds: list[str] = []
    summonable: set[str] = set()
    for card in cards.values():
        copies = preset.deck.get(card.id, card.copies)
        if copies < 0:
            raise ContentError(label, preset.id, f"deck: copies of {card.id!r} cannot be negative")
        if copies and card.category == "summon":
            if card.monster not in roster:
                raise ContentError(
                    label, preset.id, f"deck holds {card.id!r} but {card.monster!r} is not in its roster"
                )
            summonable.add(str(card.monster))
        kinds.extend([card.id] * copies)
    if len(kinds) != CARDS_PER_SET:
        raise ContentError(label, preset.id, f"one card set must hold exactly {CARDS_PER_SET} cards, got {len(kinds)}")
    if any(c.category == "summon" for c in cards.values()) and summonable != roster:
        missing = sorted(roster - summonable)
        raise ContentError(label, preset.id, f"no summon card in the set for {missing}")
    return tuple(kinds)


def _validate_presets(label: str, presets: dict[str, PresetDef], classes: dict[str, ClassDef], monsters: Any) -> None:
    for key, preset in presets.items():
        for class_id, name in preset.classes.items():
            if class_id not in classes:
                raise ContentError(label, key, f"renames unknown class {class_id!r}")
            if any(not name.get(lang) for lang in LANGS):
                raise ContentError(label, key, f"class name for {class_id!r} lacks en/ja")
        roster = preset.settings.get("monster_roster", [])
        unknown = [m for m in roster if m not in monsters]
        if unknown:
            raise ContentError(label, key, f"monster_roster names unknown monsters {unknown}")
        for field in ("glyph", "glyph_en"):  # FL-VIS-7: a glyph tells one kind of the roster
            glyphs = [getattr(monsters[m], field) for m in roster]
            shared = sorted({g for g in glyphs if glyphs.count(g) > 1})
            if shared:
                raise ContentError(label, key, f"monster_roster: two kinds share the {field} {shared}")


_DEFAULT_ROOT: Traversable = resources.files("delve.fated") / "content"


@functools.cache
def load() -> Content:
    """Load and validate the packaged content (cached).

    :raises ContentError: naming the file, the entry and the reason when anything is broken.
    """
    return load_from(_DEFAULT_ROOT)


def load_from(root: Traversable) -> Content:
    """Load and validate the content files under ``root`` (a folder laid out like ``content/``).

    :raises ContentError: naming the file, the entry and the reason when anything is broken.
    """
    label, data = _read(root, "classes.toml")
    classes: dict[str, ClassDef] = _entries(label, data, "class", ClassDef)
    _validate_classes(label, classes)
    label, data = _read(root, "statuses.toml")
    statuses: dict[str, StatusDef] = _entries(label, data, "status", StatusDef)
    _validate_statuses(label, statuses)
    monsters_label, data = _read(root, "monsters.toml")
    monsters: dict[str, MonsterDef] = _entries(monsters_label, data, "monster", MonsterDef)
    _validate_monsters(monsters_label, monsters)
    label, data = _read(root, "cards.toml")
    cards: dict[str, CardDef] = _entries(label, data, "card", CardDef)
    _validate_cards(label, cards, statuses, monsters)
    _validate_monster_cards(monsters_label, monsters, cards)
    presets: dict[str, PresetDef] = {}
    for name in ("fated-labyrinth.toml", "level-d.toml"):
        label, data = _read(root, f"presets/{name}")
        try:
            preset = msgspec.convert(data, type=PresetDef)
        except msgspec.ValidationError as exc:
            raise ContentError(label, str(data.get("id", name)), str(exc)) from None
        _check_texts(label, preset.id, preset)
        presets[preset.id] = preset
    _validate_presets(_label(root, "presets"), presets, classes, monsters)
    card_sets = {
        key: _card_set(_label(root, f"presets/{key}.toml"), preset, cards, monsters) for key, preset in presets.items()
    }
    return Content(
        classes=classes, statuses=statuses, monsters=monsters, presets=presets, cards=cards, card_sets=card_sets
    )
