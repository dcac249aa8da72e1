"""The vocabulary of card effects as data: the target words, what each effect op needs and works
on, and ``validate_card``, which checks the catalogue against it when the content is loaded
(``content.load``). The ops themselves, the target functions and running a card are in
``effects.py``, whose ``TARGETS`` and ``OPS`` have exactly these words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from delve.fated.grid import DOOR, FLOOR, ICE, WALL

if TYPE_CHECKING:  # annotations only: the content module imports this one
    from delve.fated.content import CardDef, Effect, StatusDef

TARGET_HELP: dict[str, str] = {
    "self": "the user (no parameter)",
    "area": "the tiles around the user within the effect's radius (no parameter)",
    "own_tile": "the user's own tile, which must be normal floor (no parameter)",
    "player": "a designated other living player (`target`); Stealth protects",
    "monster": "a monster the user sees, own or enemy (`monster`)",
    "enemy_monster": "a monster of another player that the user sees (`monster`)",
    "own_monster": "one of the user's own monsters that the user sees (`monster`)",
    "adjacent_wall": "an adjacent wall (`dir`)",
    "adjacent_door": "an adjacent door (`dir`)",
    "adjacent_barrier": "an adjacent wall or door (`dir`)",
    "adjacent_floor": "an adjacent empty normal floor (`dir`)",
    "adjacent_free": "an adjacent tile a character could move onto (`dir`)",
    "adjacent_character": "an adjacent other player or enemy monster (`dir`)",
    "line": "a direction: the tiles straight that way, within the effect's length (`dir`)",
}


STATS = ("attack", "defense", "magic", "evasion", "max_hp", "max_cp", "max_cards")

TERRAINS = {"floor": FLOOR, "ice": ICE, "door": DOOR, "wall": WALL}
"""The terrain words of effects (``terraform``) and the tiles they mean."""


def statuses_of(effect: Effect) -> tuple[str, ...]:
    return ((effect.status,) if effect.status else ()) + effect.statuses


_SELF_OR_CHARACTER = ("self", "player", "monster", "enemy_monster", "own_monster")
_MONSTERS = ("monster", "enemy_monster", "own_monster")
_AREA = ("area", "line", "adjacent_wall", "adjacent_door", "adjacent_barrier", "adjacent_floor")


@dataclass(frozen=True, slots=True)
class OpRule:
    """What an op needs: fields that must be set and the targets it can work on."""

    needs: tuple[str, ...]
    targets: tuple[str, ...]


OP_RULES: dict[str, OpRule] = {
    "heal": OpRule(("amount",), _SELF_OR_CHARACTER),
    "restore_cp": OpRule(("amount",), ("self", "player")),
    "gain": OpRule(("status",), _SELF_OR_CHARACTER),
    "cure": OpRule(("status",), _SELF_OR_CHARACTER),
    "dispel": OpRule((), _SELF_OR_CHARACTER),
    "raise": OpRule(("stat", "amount"), ("self",)),
    "draw": OpRule(("count",), ("self",)),
    "charm": OpRule((), _MONSTERS),
    "summon": OpRule((), ("adjacent_free",)),
    "terraform": OpRule(("terrain", "only"), _AREA),
    "blast": OpRule(("amount",), ("area", "line")),
    "clear_traps": OpRule((), ("area", "line")),
    "teleport": OpRule((), ("self", "player")),
    "dash": OpRule(("length",), ("adjacent_free",)),
    "push": OpRule(("length",), ("adjacent_character",)),
    "swap": OpRule((), ("player",)),
    "siphon": OpRule(("amount",), ("player",)),
    "peek": OpRule((), ("player",)),
    "barter": OpRule((), ("player",)),
    "map": OpRule(("radius",), ("self",)),
    "dowse": OpRule((), ("self",)),
    "fake": OpRule((), ("own_tile",)),
}


def validate_card(card: CardDef, statuses_by_id: dict[str, StatusDef]) -> str | None:
    """A problem with a card's target and effect list, or None."""
    if card.category == "defense":
        if card.effects or card.target != "none":
            return "a defense card has no target or effects (it is used in the defense phase)"
        if (card.keeps_trap or card.seize) and card.defense != "trap":
            return "only trap countermeasures can leave (keeps_trap) or seize a trap"
        return None
    if card.category in {"damage", "special_attack"}:
        return None if card.target == "none" else "an attack card is aimed by its uses, not by a target"
    if not card.effects:
        return f"a {card.category} card needs an effects list"
    if card.target not in TARGET_HELP:
        return f"unknown target {card.target!r}; known: {', '.join(TARGET_HELP)}"
    if card.category == "special_utility" and card.target != "self":
        return "the utility use of a special attack / utility card is on the user (target = self)"
    if card.category == "summon" and not any(e.op == "summon" for e in card.effects):
        return "a summon card needs a summon effect"
    for effect in card.effects:
        rule = OP_RULES.get(effect.op)
        if rule is None:
            return f"unknown effect op {effect.op!r}; known: {', '.join(sorted(OP_RULES))}"
        if card.target not in rule.targets:
            return f"effect {effect.op!r} cannot work on target {card.target!r} (it works on {', '.join(rule.targets)})"
        for need in rule.needs:
            missing = not statuses_of(effect) if need == "status" else not getattr(effect, need)
            if missing:
                return f"effect {effect.op!r} needs {need!r}"
        if effect.op in {"blast", "terraform", "clear_traps"}:
            if card.target == "area" and not effect.radius:
                return f"effect {effect.op!r} on an area needs a radius"
            if card.target == "line" and not effect.length:
                return f"effect {effect.op!r} on a line needs a length"
        for status in statuses_of(effect):
            if status not in statuses_by_id:
                return f"effect {effect.op!r} names unknown status {status!r}"
        if effect.stat is not None and effect.stat not in STATS:
            return f"effect {effect.op!r}: unknown stat {effect.stat!r}; known: {', '.join(STATS)}"
        for terrain in (effect.terrain, *effect.only):
            if terrain is not None and terrain not in TERRAINS:
                return f"effect {effect.op!r}: unknown terrain {terrain!r}; known: {', '.join(TERRAINS)}"
    return None
