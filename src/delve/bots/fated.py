"""A Fated Labyrinth / Level D bot: explores, grabs treasure, visits corners, escapes, fights
what is next to it and defends sensibly. It plays from its seat's view and legal commands only.

Choices that need chance use an ``Rng`` seeded from what the bot sees (its seat, its turns,
the log length and its hand), so a bot's play is reproducible and no module-level randomness exists.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from delve.fated import content
from delve.fated.grid import DIRECTIONS, corners, index, step
from delve.kernel import Rng

Command = dict[str, Any]

WALKABLE = frozenset(".~CTEteo?x")
AVOID = frozenset("xte")  # known enemy traps, known fakes: never a goal, avoided on the way
CORNER_BITS = ((0, 0), (0, 1), (1, 0), (1, 1))  # rows of the 2x2 "visited" marks


class RandomFatedBot:
    """Plays a uniformly random legal command other than giving up or commenting (from its own
    seeded RNG: reproducible); waits when nothing else is legal."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng.seeded(seed)

    def choose(self, view: dict[str, Any], legal: list[Command]) -> Command | None:
        you = view.get("you")
        if not you or not you.get("alive") or view["game"]["ended"]:
            return None
        playable = [c for c in legal if c["kind"] not in ("give_up", "comment")]
        if not playable:
            return None
        return dict(self.rng.choice(playable))


class FatedBot:
    def choose(self, view: dict[str, Any], legal: list[Command]) -> Command | None:
        you = view.get("you")
        if not you or not you.get("alive") or view["game"]["ended"]:
            return None
        playable = [c for c in legal if c["kind"] not in ("give_up", "comment")]
        if not playable:
            return None
        rng = Rng.seeded(
            hash_of(you["seat"], you["turns_played"], len(view["events"]), len(you["messages"]), len(you["hand"]))
        )
        phase = you["phase"]
        if phase == "ready":
            return {"kind": "start_turn"}
        if phase == "defense":
            return self.defend(view, playable, rng)
        if phase == "move":
            return self.move(view, playable, rng)
        if phase == "core":
            return self.core(view, playable, rng)
        return None

    # ------------------------------------------------------------------ defense

    def defend(self, view: dict[str, Any], legal: list[Command], rng: Rng) -> Command:
        kinds = {c["kind"] for c in legal}
        if "accept_pass_by" in kinds:
            return {"kind": "accept_pass_by"} if rng.chance(1, 2) else {"kind": "decline_pass_by"}
        item = view["you"].get("defending", {})
        me = own_status(view)
        power = int(item.get("power", 0))
        special = item.get("special")
        cards = {c["card"]: card_of(view, c["card"]) for c in legal if c["kind"] == "defend"}
        by_class: dict[str, list[int]] = {}
        for card_id, card in cards.items():
            by_class.setdefault(str(card.defense), []).append(card_id)
        if "parry" in kinds and power >= 15:
            return {"kind": "parry"}
        dangerous = power - me["defense"] >= me["hp"] or power >= 35
        if dangerous and "complete" in by_class:
            return {"kind": "defend", "card": by_class["complete"][0]}
        if item.get("kind") == "trap" and "trap" in by_class:
            return {"kind": "defend", "card": by_class["trap"][0]}
        if special and power <= 15 and "special" in by_class:
            return {"kind": "defend", "card": by_class["special"][0]}
        if "counter" in by_class and power >= 15 and rng.chance(2, 3):
            return {"kind": "defend", "card": by_class["counter"][0]}
        if power > me["defense"] + 5 and "reduction" in by_class:
            best = max(by_class["reduction"], key=lambda c: cards[c].reduce)
            return {"kind": "defend", "card": best}
        return {"kind": "no_defense"}

    # ------------------------------------------------------------------ move phase

    def move(self, view: dict[str, Any], legal: list[Command], rng: Rng) -> Command:
        you = view["you"]
        moves = {c["dir"]: c for c in legal if c["kind"] == "move"}
        tile = here(view)
        tiles = view["map"]["tiles"]
        if tiles[tile] in "TE" and ({"kind": "stay"} in legal) and worth_standing(view, tiles[tile]):
            return {"kind": "stay"}
        me = own_status(view)
        if you["move"]["number"] == 1 and me["cp"] < 30 and {"kind": "pass", "reward": "cp"} in legal:
            return {"kind": "pass", "reward": "cp"}
        direction = first_step(view, goals(view))
        if direction is not None and direction in moves:
            return moves[direction]
        if moves and rng.chance(3, 4):
            return moves[rng.choice(sorted(moves))]
        return {"kind": "stay"}

    # ------------------------------------------------------------------ core phase

    def core(self, view: dict[str, Any], legal: list[Command], rng: Rng) -> Command:
        kinds = {c["kind"] for c in legal}
        for wanted in ("escape", "pick_up"):
            if wanted in kinds:
                return {"kind": wanted}
        me = own_status(view)
        uses = [c for c in legal if c["kind"] == "use_card"]
        adjacent = [c for c in uses if c.get("use") == "adjacent" and targets_player(view, c)]
        if adjacent and me["hp"] > 30:
            return max(adjacent, key=lambda c: card_of(view, c["card"]).power)
        attacks = [c for c in legal if c["kind"] == "attack" and targets_player(view, c)]
        if attacks and me["hp"] > 30:
            return attacks[0]
        if me["hp"] < 60:
            healing = [c for c in uses if c.get("use") is None and heals(view, c)]
            if healing:
                return healing[0]
        remote = [c for c in uses if c.get("use") == "remote"]
        if remote and me["cp"] > 50 and rng.chance(1, 3):
            return rng.choice(remote)
        traps = [c for c in uses if c.get("use") == "trap"]
        if traps and rng.chance(1, 5):
            return rng.choice(traps)
        others = [c for c in uses if c.get("use") is None]
        if others and me["cp"] > 40 and rng.chance(1, 3):
            return rng.choice(others)
        if "pass" in kinds and me["cp"] < me["max_cp"] - 20:
            return {"kind": "pass", "reward": "cp"}
        if "draw" in kinds:
            return {"kind": "draw"}
        if "pass" in kinds:
            return {"kind": "pass", "reward": "cards"}
        return {"kind": "nothing"}


# ---------------------------------------------------------------------- helpers


def hash_of(*parts: int) -> int:
    value = 1469598103934665603
    for part in parts:
        value = ((value ^ (part & 0xFFFFFFFFFFFF)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return value


def card_of(view: dict[str, Any], card_id: int) -> content.CardDef:
    kind = next(c["kind"] for c in view["you"]["hand"] if c["id"] == card_id)
    return content.load().cards[kind]


def heals(view: dict[str, Any], command: Command) -> bool:
    card = card_of(view, command["card"])
    return card.category == "recovery" or any(e.op.startswith("heal") for e in card.effects)


def own_status(view: dict[str, Any]) -> dict[str, Any]:
    seat = view["you"]["seat"]
    status: dict[str, Any] = next(p for p in view["players"] if p["seat"] == seat)
    return status


def tile_of(character: dict[str, Any], n: int) -> int:
    x, y = character["tile"]
    return index(int(x), int(y), n)


def here(view: dict[str, Any]) -> int:
    x, y = view["you"]["tile"]
    return index(x, y, view["map"]["size"])


def targets_player(view: dict[str, Any], command: Command) -> bool:
    n = view["map"]["size"]
    target = step(here(view), command["dir"], n)
    return any(c["type"] == "player" and not c["you"] and tile_of(c, n) == target for c in view["characters"])


def worth_standing(view: dict[str, Any], terrain: str) -> bool:
    return terrain == "T" or (terrain == "E" and bool(view["you"]["qualifies"]))


def goals(view: dict[str, Any]) -> list[int]:
    """Where to go, best first: the exit when qualified, treasures, unvisited corners, the unknown."""
    n = view["map"]["size"]
    tiles: str = view["map"]["tiles"]
    you = view["you"]
    if you["qualifies"]:
        exits = [i for i, t in enumerate(tiles) if t == "E"]
        if exits:
            return exits
    treasures = [i for i, t in enumerate(tiles) if t == "T"]
    if treasures:
        return treasures
    visited = own_status(view)["visited"]
    unvisited = [c for c, (r, k) in zip(corners(n), CORNER_BITS, strict=True) if not visited[r][k]]
    if own_status(view)["treasures"] and unvisited:
        return unvisited
    unknown = [i for i, t in enumerate(tiles) if t == "?"]
    return unknown or unvisited


def first_step(view: dict[str, Any], targets: list[int]) -> str | None:
    """The first direction of a shortest walk over known (and unknown) tiles to any target."""
    if not targets:
        return None
    n = view["map"]["size"]
    tiles: str = view["map"]["tiles"]
    blocked = {tile_of(c, n) for c in view["characters"] if not (c["type"] == "player" and c["you"])}
    start = here(view)
    wanted = set(targets)
    seen = {start: ""}
    queue = deque([start])
    while queue:
        tile = queue.popleft()
        if tile in wanted and tile != start:
            return seen[tile]
        for direction in DIRECTIONS:
            nxt = step(tile, direction, n)
            if nxt is None or nxt in seen or tiles[nxt] not in WALKABLE or nxt in blocked:
                continue
            if tiles[nxt] in AVOID and nxt not in wanted:
                continue
            seen[nxt] = seen[tile] or direction
            if tiles[nxt] == "?" and nxt not in wanted:
                continue  # plan into the unknown but not through it
            queue.append(nxt)
    return None
