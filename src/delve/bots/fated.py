"""A Fated Labyrinth / Level D bot: explores, grabs treasure, visits corners, escapes, fights
what is next to it and defends sensibly. It plays from its seat's view and legal commands only.

Choices that need chance use an ``Rng`` seeded from what the bot sees (its seat, its turns,
the log length and its hand), so a bot's play is reproducible and no module-level randomness exists.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Set as AbstractSet
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
        playable = playable_commands(view, legal)
        if not playable:
            return None
        return dict(self.rng.choice(playable))


class FatedBot:
    def choose(self, view: dict[str, Any], legal: list[Command]) -> Command | None:
        playable = playable_commands(view, legal)
        if not playable:
            return None
        you = view["you"]
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


def playable_commands(view: dict[str, Any], legal: list[Command]) -> list[Command]:
    """What a bot may play now: nothing once its player is dead or the game has ended; never giving
    up or commenting."""
    you = view.get("you")
    if not you or not you.get("alive") or view["game"]["ended"]:
        return []
    return [c for c in legal if c["kind"] not in ("give_up", "comment")]


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


def first_step(view: dict[str, Any], targets: list[int], avoid: AbstractSet[int] = frozenset()) -> str | None:
    """The first direction of a shortest walk over known (and unknown) tiles to any target,
    not through the ``avoid`` tiles."""
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
            if nxt is None or nxt in seen or tiles[nxt] not in WALKABLE or nxt in blocked or nxt in avoid:
                continue
            if tiles[nxt] in AVOID and nxt not in wanted:
                continue
            seen[nxt] = seen[tile] or direction
            if tiles[nxt] == "?" and nxt not in wanted:
                continue  # plan into the unknown but not through it
            queue.append(nxt)
    return None


# ====================================================================== the heuristic bot

#: What one minus status (or special effect) received costs, in HP-equivalent points.
SPECIAL_LOSS = {
    "hp_poison": 40,
    "cp_poison": 14,
    "stripped": 12,
    "sluggish": 10,
    "fool": 8,
    "blind": 5,
    "exposed": 5,
    "loss": 10,
    "misfortune": 10,
    "treasure_toss": 6,
    "cp_drain": 10,
    "steal_card": 6,
    "paralysis": 10,
}
#: What a defense card is worth keeping for later (HP-equivalent), by defense class.
KEEP_DEFENSE = {"complete": 14, "counter": 9, "special": 5, "trap": 3, "reduction": 2}
#: The value of a plus status not yet active (HP-equivalent).
BUFF_VALUE = {
    "ironwall": 30,
    "stealth": 40,
    "nimble": 16,
    "haste": 12,
    "sage": 8,
    "float": 5,
    "insight": 3,
    "light": 2,
    "keen_ear": 1,
}
RAISE_VALUE = {"max_hp": 14, "defense": 16, "attack": 10, "evasion": 10, "magic": 6, "max_cp": 6, "max_cards": 2}
CP_WORTH = 0.45  # HP-equivalent of one CP spent
CP_RESERVE = 14  # CP kept for defense cards unless an action is worth it
REFILL = 5  # the worth of the card drawn after a core-phase card use


class HeuristicFatedBot:
    """The stronger Fated Labyrinth / Level D bot. It plays for a victory on purpose:

    - **goals**: a treasure first, then the corners (all four for condition B; a diagonal pair is
      enough once it has a kill, condition A), then the exit - walked to when known, hunted in
      the tiles out of sight (and with map cards) when not;
    - **fights** when the odds favour it: every legal attack (normal, card 《隣接》 or 《遠隔》) is
      valued by its expected damage after the target's public defense, evasion and statuses,
      with a bonus for a likely kill and for a target close to winning, against its CP price;
      it walks up to weak players in reach and hits for free;
    - **defends** with the option of least expected loss (damage, a lethal hit, the special
      part, the CP and the card spent);
    - **keeps going**: heals when hurt, buffs itself, summons, passes for CP when it runs dry.

    It decides from its seat's view and legal commands only (and the public card, class and
    monster tables); it keeps no memory between decisions, so one instance may play many seats.
    """

    def choose(self, view: dict[str, Any], legal: list[Command]) -> Command | None:
        playable = playable_commands(view, legal)
        if not playable:
            return None
        you = view["you"]
        phase = you["phase"]
        if phase == "ready":
            return {"kind": "start_turn"}
        if phase == "defense":
            return self.defend(view, playable)
        if phase == "move":
            return self.move(view, playable)
        if phase == "core":
            return self.core(view, playable)
        return None

    # ------------------------------------------------------------------ defense

    def defend(self, view: dict[str, Any], legal: list[Command]) -> Command:
        kinds = {c["kind"] for c in legal}
        if "decline_pass_by" in kinds:
            return {"kind": "decline_pass_by"}
        return min(legal, key=lambda c: defense_loss(view, c))

    # ------------------------------------------------------------------ move phase

    def move(self, view: dict[str, Any], legal: list[Command]) -> Command:
        you = view["you"]
        n = view["map"]["size"]
        tiles: str = view["map"]["tiles"]
        at = here(view)
        moves = {c["dir"]: c for c in legal if c["kind"] == "move"}
        if tiles[at] == "E" and you["qualifies"]:
            return {"kind": "stay"}
        if tiles[at] == "T":
            return {"kind": "stay"}
        if adjacent_prey(view):
            return {"kind": "stay"}
        danger = danger_tiles(view)
        goal, direction = "", None
        for label, targets in plan(view):
            found = safe_step(view, targets, danger)
            if found is not None and found in moves:
                goal, direction = label, found
                break
        if you["move"]["number"] == 1 and {"kind": "pass", "reward": "cp"} in legal:
            reward, worth = pass_reward(view)
            if worth > GOAL_WORTH.get(goal, 0) and best_core_now(view) < 8:
                return {"kind": "pass", "reward": reward}
        if at in danger and not can_beat_adjacent_monsters(view):
            exits = [d for d, c in moves.items() if step(at, d, n) not in danger]
            if exits:
                return moves[direction if direction in exits else exits[0]]
        if direction is not None:
            return moves[direction]
        if moves:
            rng = Rng.seeded(hash_of(you["seat"], you["turns_played"], at, n))
            return moves[rng.choice(sorted(moves))]
        return {"kind": "stay"}

    # ------------------------------------------------------------------ core phase

    def core(self, view: dict[str, Any], legal: list[Command]) -> Command:
        scored = [(core_value(view, c), i, c) for i, c in enumerate(legal)]
        best = max(scored, key=lambda s: (s[0], -s[1]))
        return best[2]


# ---------------------------------------------------------------------- heuristic helpers


def players_by_seat(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(p["seat"]): p for p in view["players"]}


def status_ids(player: dict[str, Any]) -> set[str]:
    return {str(s["id"]) for s in player.get("statuses") or ()}


def multiplier(player: dict[str, Any]) -> float:
    ids = status_ids(player)
    return (0.5 if "ironwall" in ids else 1.0) * (1.5 if "stripped" in ids else 1.0)


def evasion_of(player: dict[str, Any]) -> int:
    ids = status_ids(player)
    if "sluggish" in ids:
        return 0
    return min(100, int(player.get("evasion", 10)) + (20 if "nimble" in ids else 0))


def corners_done(player: dict[str, Any]) -> list[bool]:
    visited = player.get("visited") or [[False, False], [False, False]]
    return [bool(visited[r][k]) for r, k in CORNER_BITS]


def threat(player: dict[str, Any]) -> float:
    """How close a player looks to escaping (public facts only)."""
    done = corners_done(player)
    treasures = int(player.get("treasures", 0))
    kills = int(player.get("kills", 0))
    diagonal = (done[0] and done[3]) or (done[1] and done[2])
    if treasures and (all(done) or (kills and diagonal)):
        return 3.0
    return 0.7 * min(treasures, 1) + 0.2 * sum(done) + 0.3 * min(kills, 1)


def expected_damage(base: int, target: dict[str, Any]) -> float:
    """Damage of an evadable hit of ``base`` on a player (their base defense, statuses, evasion)."""
    raw = max(0, base - int(target.get("defense", 0))) * multiplier(target)
    return raw * (1 - evasion_of(target) / 100)


def kill_chance(base: int, target: dict[str, Any]) -> float:
    """The chance a hit of ``base`` kills: it must get through (evasion) and bring HP to 0; a death
    check saves a quarter of the time. Defense cards the target may hold make it a guess."""
    hp = int(target.get("hp", 999))
    raw = int(max(0, base - int(target.get("defense", 0))) * multiplier(target))
    if raw < hp:
        return 0.0
    margin = 1.0 if raw >= hp + 15 else 0.75
    return 0.75 * (1 - evasion_of(target) / 100) * margin


def monster_at(view: dict[str, Any], tile: int) -> dict[str, Any] | None:
    n = view["map"]["size"]
    for c in view["characters"]:
        if c["type"] == "monster" and tile_of(c, n) == tile:
            return dict(c)
    return None


def player_at(view: dict[str, Any], tile: int) -> dict[str, Any] | None:
    n = view["map"]["size"]
    seats = players_by_seat(view)
    for c in view["characters"]:
        if c["type"] == "player" and not c["you"] and tile_of(c, n) == tile:
            return seats.get(int(c["seat"]))
    return None


def adjacent_enemies(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Other players and enemy monsters next to the bot."""
    n = view["map"]["size"]
    out = []
    for direction in DIRECTIONS:
        tile = step(here(view), direction, n)
        if tile is None:
            continue
        who = player_at(view, tile)
        monster = monster_at(view, tile)
        if who is not None:
            out.append(who)
        elif monster is not None and not monster.get("own"):
            out.append(monster)
    return out


def prey_worth(view: dict[str, Any], target: dict[str, Any]) -> bool:
    """Worth closing in on with free normal attacks: the bot hits harder than it is hit, or the
    target is weak or close to winning, and the bot is not weak itself."""
    me = own_status(view)
    if int(me["hp"]) < 50 or "hp" not in target:
        return False
    mine = expected_damage(int(me["attack"]), target)
    theirs = expected_damage(int(target.get("attack", 10)), me)
    return mine >= 6 and (mine >= theirs or int(target["hp"]) <= 45 or threat(target) >= 1.5)


def adjacent_prey(view: dict[str, Any]) -> bool:
    n = view["map"]["size"]
    for direction in DIRECTIONS:
        tile = step(here(view), direction, n)
        who = player_at(view, tile) if tile is not None else None
        if who is not None and prey_worth(view, who):
            return True
    return False


def plan(view: dict[str, Any]) -> list[tuple[str, list[int]]]:
    """Goal tiles, best first: the known exit when qualified; a known treasure; prey in reach;
    the corners still needed; then (qualified) the tiles out of sight where an exit may have
    appeared, or the unknown."""
    n = view["map"]["size"]
    tiles: str = view["map"]["tiles"]
    you = view["you"]
    me = own_status(view)
    out: list[tuple[str, list[int]]] = []
    if you["qualifies"]:
        exits = [i for i, t in enumerate(tiles) if t == "E"]
        if exits:
            out.append(("exit", exits))
    treasures = [i for i, t in enumerate(tiles) if t == "T"]
    if treasures and (not me["treasures"] or nearest(view, treasures) <= 4):
        out.append(("treasure", treasures))
    prey = [tile_of(c, n) for c in view["characters"] if c["type"] == "player" and not c["you"] and c["in_sight"]]
    seats = players_by_seat(view)
    near_prey = [
        t
        for c, t in zip(
            [c for c in view["characters"] if c["type"] == "player" and not c["you"] and c["in_sight"]],
            prey,
            strict=True,
        )
        if prey_worth(view, seats[int(c["seat"])])
    ]
    around = [a for t in near_prey for d in DIRECTIONS if (a := step(t, d, n)) is not None]
    if around and nearest(view, around) <= 4:
        out.append(("prey", around))
    done = corners_done(me)
    all_corners = corners(n)
    if not you["qualifies"]:
        needed = [c for c, ok in zip(all_corners, done, strict=True) if not ok]
        if me["kills"]:
            # condition A: a diagonal pair is enough; finish the pair that is closest to done
            pairs = ((0, 3), (1, 2))
            best = min(pairs, key=lambda p: sum(not done[i] for i in p))
            needed = [all_corners[i] for i in best if not done[i]] or needed
        if needed:
            out.append(("corners", needed))
    if you["qualifies"] or not treasures:
        dark = dark_targets(view)
        if dark:
            out.append(("dark", dark))
    unknown = [i for i, t in enumerate(tiles) if t == "?"]
    if unknown:
        out.append(("unknown", unknown))
    return out


#: What walking towards a goal this turn is worth against passing it (HP-equivalent points).
GOAL_WORTH = {"exit": 500, "treasure": 60, "prey": 16, "corners": 14, "dark": 8, "unknown": 3}


def pass_reward(view: dict[str, Any]) -> tuple[str, float]:
    """The better reward of passing the turn now, and its worth."""
    me = own_status(view)
    cp, max_cp = int(me["cp"]), int(me["max_cp"])
    cp_worth = min(25, max_cp - cp) * (1.0 if cp < 40 else 0.6 if cp < 80 else 0.2)
    return ("cp", cp_worth) if cp_worth >= cards_worth(view) else ("cards", cards_worth(view))


def cards_worth(view: dict[str, Any]) -> float:
    """The worth of drawing a card (two for a Noble): more when the hand lacks attacks or cures."""
    me = own_status(view)
    hand = [content.load().cards[c["kind"]] for c in view["you"]["hand"]]
    room = int(view["you"]["max_cards"]) - len(hand)
    if room <= 0:
        return 1.0
    attacks = sum(1 for c in hand if c.category == "damage")
    cures = sum(1 for c in hand if c.category == "recovery")
    worth = 6.0 + 5 * max(0, 2 - attacks) + 4 * max(0, 1 - cures) + (6 if "hp_poison" in status_ids(me) else 0)
    return worth * (1.6 if me.get("class") == "noble" else 1.0)


def best_core_now(view: dict[str, Any]) -> float:
    """The best card use or attack the bot could make from where it stands (an estimate of the
    core phase ahead: remote attacks and self cards do not depend on the walk)."""
    n = view["map"]["size"]
    me = own_status(view)
    you = view["you"]
    best = 0.0
    hp, max_hp, cp, max_cp = int(me["hp"]), int(me["max_hp"]), int(me["cp"]), int(me["max_cp"])
    for card in you["hand"]:
        definition = content.load().cards[card["kind"]]
        if definition.category == "defense":
            continue
        for use, price in card["cp"].items():
            if int(price) > cp:
                continue
            if use == "remote":
                commands = [
                    {"kind": "use_card", "card": card["id"], "use": "remote", "target": int(p["seat"])}
                    for p in view["players"]
                    if p["alive"] and int(p["seat"]) != int(you["seat"]) and "hp" in p
                ]
            elif use == "use" and definition.target == "self":
                commands = [{"kind": "use_card", "card": card["id"]}]
            else:
                continue
            for command in commands:
                best = max(best, card_value(view, command, hp, max_hp, cp, max_cp, you))
    for direction in DIRECTIONS:
        tile = step(here(view), direction, n)
        if tile is not None and (player_at(view, tile) or monster_at(view, tile)):
            best = max(best, core_value(view, {"kind": "attack", "dir": direction}))
    return best


def can_beat_adjacent_monsters(view: dict[str, Any]) -> bool:
    """Every enemy monster next to the bot falls to two of its normal attacks, and the bot is
    not weak: then it stands and fights (for free) instead of walking away."""
    me = own_status(view)
    if int(me["hp"]) < 50:
        return False
    for enemy in adjacent_enemies(view):
        if "monster" not in enemy:
            continue
        raw = max(0, int(me["attack"]) - int(enemy.get("defense", 0)))
        if 2 * raw < int(enemy.get("hp", 100)):
            return False
    return True


def danger_tiles(view: dict[str, Any]) -> set[int]:
    """Tiles next to an enemy monster in sight (it attacks whoever stands there at its turn)."""
    n = view["map"]["size"]
    out: set[int] = set()
    for c in view["characters"]:
        if c["type"] == "monster" and not c.get("own"):
            tile = tile_of(c, n)
            out.update(a for d in DIRECTIONS if (a := step(tile, d, n)) is not None)
    return out


def safe_step(view: dict[str, Any], targets: list[int], danger: set[int]) -> str | None:
    """The first step of a shortest walk to a target that keeps off tiles next to enemy
    monsters; when there is none, the first step of any shortest walk."""
    if danger:
        safe = first_step(view, targets, avoid=danger - set(targets))
        if safe is not None:
            return safe
    return first_step(view, targets)


def nearest(view: dict[str, Any], targets: list[int]) -> int:
    n = int(view["map"]["size"])
    x, y = (int(v) for v in view["you"]["tile"])
    return min(abs(t % n - x) + abs(t // n - y) for t in targets)


def dark_targets(view: dict[str, Any]) -> list[int]:
    """Walkable tiles out of sight with the most tiles out of sight around them (where an exit
    that appeared, or a treasure flung there, would not be seen yet)."""
    n = view["map"]["size"]
    tiles: str = view["map"]["tiles"]
    lit: str = view["map"].get("lit") or ""
    if len(lit) != n * n:
        return []
    scores: dict[int, int] = {}
    for i, t in enumerate(tiles):
        if lit[i] == "1" or t not in ".~CTE":
            continue
        y, x = divmod(i, n)
        scores[i] = sum(
            1
            for yy in range(max(0, y - 2), min(n, y + 3))
            for xx in range(max(0, x - 2), min(n, x + 3))
            if lit[yy * n + xx] == "0"
        )
    if not scores:
        return []
    top = max(scores.values())
    return [i for i, s in scores.items() if s >= top - 2]


def card_def(view: dict[str, Any], card_id: int) -> content.CardDef:
    return card_of(view, card_id)


def cp_price(view: dict[str, Any], command: Command) -> int:
    """The CP a card command costs this seat (from the hand's shown costs)."""
    for card in view["you"]["hand"]:
        if card["id"] == command.get("card"):
            return int(card["cp"].get(command.get("use") or "use", 0))
    return 0


def attack_value(view: dict[str, Any], base: int, target: dict[str, Any], special: str | None, cp: int) -> float:
    me = own_status(view)
    hp = int(target.get("hp", 60))
    damage = min(float(hp), expected_damage(base, target)) if base else 0.0
    kill = kill_chance(base, target) if base else 0.0
    focus = 0.15 * (120 - hp) if damage > 0 else 0.0  # finish the weakest: kills end games
    value = damage + 70 * kill + focus + 12 * threat(target) * (damage > 0 or special is not None)
    if special:
        through = 1 - evasion_of(target) / 100
        value += 0.7 * SPECIAL_LOSS.get(special, 5) * through
        if special == "treasure_toss" and target.get("treasures"):
            value += 30 * through
    if int(me["cp"]) - cp < CP_RESERVE and kill < 0.3:
        value -= 15
    return value - CP_WORTH * cp


def core_value(view: dict[str, Any], command: Command) -> float:
    """How good a core-phase command looks now (HP-equivalent points)."""
    kind = command["kind"]
    me = own_status(view)
    you = view["you"]
    n = view["map"]["size"]
    hp, max_hp, cp, max_cp = int(me["hp"]), int(me["max_hp"]), int(me["cp"]), int(me["max_cp"])
    if kind == "escape":
        return 10_000
    if kind == "pick_up":
        return 5_000
    if kind == "nothing":
        return 0
    if kind == "draw":
        return 6
    if kind == "pass":
        if command["reward"] == "cp":
            return min(25, max_cp - cp) * (1.2 if cp < 40 else 0.5)
        return cards_worth(view)
    if kind in ("jump", "pass_by"):
        return -1
    if kind == "steal":
        return 8 - CP_WORTH * 20
    if kind == "attack":
        tile = step(here(view), command["dir"], n)
        assert tile is not None
        target = player_at(view, tile)
        if target is not None:
            return attack_value(view, int(me["attack"]), target, None, 0)
        monster = monster_at(view, tile)
        if monster is not None:
            return monster_value(monster, int(me["attack"]))
        return -2  # a door: not in the way of the plan
    if kind != "use_card":
        return -5
    return REFILL + card_value(view, command, hp, max_hp, cp, max_cp, you)


def card_value(
    view: dict[str, Any], command: Command, hp: int, max_hp: int, cp: int, max_cp: int, you: dict[str, Any]
) -> float:
    me = own_status(view)
    n = view["map"]["size"]
    card = card_def(view, command["card"])
    price = cp_price(view, command)
    use = command.get("use")
    if use is not None:
        if use == "trap":
            value = (card.power * 0.35 + SPECIAL_LOSS.get(card.special or "", 0) * 0.3) - CP_WORTH * price
            return value - (15 if cp - price < CP_RESERVE + 10 else 0)
        base = card.power + (int(me["attack"]) if use == "adjacent" and card.category == "damage" else 0)
        if use == "adjacent":
            tile = step(here(view), command["dir"], n)
            assert tile is not None
            target = player_at(view, tile)
            if target is None:
                monster = monster_at(view, tile)
                if monster is None:
                    return -5  # a door
                return monster_value(monster, base) - CP_WORTH * price
        else:
            target = players_by_seat(view).get(int(command["target"]))
            if target is None:
                return -5
        return attack_value(view, base, target, card.special, price)
    return (
        effect_value(view, card, command, hp, max_hp, cp, max_cp, you)
        - CP_WORTH * price
        - (10 if cp - price < CP_RESERVE else 0)
    )


def monster_value(monster: dict[str, Any], base: int) -> float:
    hp = int(monster.get("hp", 40))
    raw = max(0, base - int(monster.get("defense", 0))) * (1 - int(monster.get("evasion", 0)) / 100)
    return 0.5 * min(raw, hp) + (15 if raw >= hp else 0) + 0.3 * int(monster.get("attack", 8))


def effect_value(
    view: dict[str, Any],
    card: content.CardDef,
    command: Command,
    hp: int,
    max_hp: int,
    cp: int,
    max_cp: int,
    you: dict[str, Any],
) -> float:
    me = own_status(view)
    mine = status_ids(me)
    value = 0.0
    for effect in card.effects:
        op = effect.op
        if op == "heal":
            if card.target == "monster":
                return -5
            if "hp_poison" in mine:
                hp -= 25  # the poison keeps biting until cured
            missing = max_hp - max(0, hp)
            amount = min(effect.amount, missing)
            value += amount * (1.8 if hp < 60 else 1.0 if hp < 90 else 0.2)
        elif op == "restore_cp":
            value += min(effect.amount, max_cp - cp) * (0.9 if cp < 40 else 0.4)
        elif op == "cure":
            minus = {s["id"] for s in me.get("statuses") or () if s.get("kind") == "minus"}
            wanted = {effect.status} if effect.status else minus
            value += sum(SPECIAL_LOSS.get(s, 5) for s in minus & wanted)
        elif op == "gain" and card.target == "self" and effect.status:
            if effect.status not in mine:
                value += BUFF_VALUE.get(effect.status, 2)
        elif op == "raise":
            value += RAISE_VALUE.get(effect.stat or "", 3)
        elif op == "summon" and card.monster:
            monster = content.load().monsters[card.monster]
            value += 2.0 * monster.attack + monster.hp / 3
        elif op == "map":
            value += 25 if you["qualifies"] and not view["map"]["tiles"].count("E") else 3
        elif op == "dowse":
            value += 20 if not me["treasures"] and "T" not in view["map"]["tiles"] else 1
        elif op == "draw":
            value += 4
        elif op == "siphon":
            value += 8
        elif op == "gain" and card.target == "enemy_monster":
            value += 6
        else:
            return -3  # terrain, switching places, teleports, fakes...: not part of the plan
    return value


def defense_loss(view: dict[str, Any], command: Command) -> float:
    """The expected loss (HP-equivalent) of answering the pending item with ``command``."""
    me = own_status(view)
    item = view["you"].get("defending") or {}
    hp = int(me["hp"])
    power = int(item.get("power", 0))
    special = item.get("special")
    kind = command["kind"]
    mult = multiplier(me)

    def hurt(reduce: int, *, blocks_special: bool = False) -> float:
        damage = int(max(0, power - int(me["defense"]) - reduce) * mult)
        loss = float(damage)
        if damage >= hp:
            loss += 120  # a death check lost three times in four
        elif hp - damage < 30:
            loss += 15
        if special and not blocks_special and (damage >= 1 or not power):
            loss += SPECIAL_LOSS.get(str(special), 6)
        if item.get("kind") == "steal":
            loss += SPECIAL_LOSS["steal_card"]
        return loss

    if kind == "no_defense":
        return hurt(0)
    if kind == "parry":
        return CP_WORTH * 20
    if kind != "defend":
        return 50.0
    card = card_of(view, command["card"])
    price = cp_price(view, command)
    spend = CP_WORTH * price + KEEP_DEFENSE.get(str(card.defense), 2)
    if card.defense == "reduction":
        return hurt(card.reduce) + spend
    if card.defense == "special":
        return hurt(0, blocks_special=True) + spend
    if card.defense == "counter":
        return spend - 6  # nothing taken, and the hit goes back to its source
    return spend  # complete defense, trap countermeasure: nothing taken
