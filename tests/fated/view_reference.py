"""The reference the views are checked against: the allow-list view as first written, one
plain function per part, built for one seat at a time from the state (no table, no sharing).
``delve.fated.view`` must build exactly this, key order included (test_view_build.py).

What a seat (or a spectator) may see (FL-VIS, FL-INFO, FL-UI): see ``delve.fated.view``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any

from delve.fated import cards, clock, combat, death, defense, statuses, visibility
from delve.fated.ctx import Ctx
from delve.fated.grid import xy
from delve.fated.state import CORE, DEFENSE, MOVE, WAIT, GameState, Monster, Pending, Player, Status


def build(state: GameState, seat: int | None) -> dict[str, Any]:
    ctx = Ctx(state, state.clock)
    viewer = state.players[seat] if seat is not None else None
    sight: AbstractSet[int] = visibility.sight(ctx, viewer) if viewer is not None and not state.ended else frozenset()
    view: dict[str, Any] = {
        "game": _game(ctx),
        "piles": {"deck": len(state.deck), "discard": len(state.discard)},
        "map": _map(ctx, viewer, sight),
        "characters": _characters(ctx, viewer, sight),
        "players": [_public_player(ctx, p, viewer) for p in state.players],
    }
    if viewer is not None:
        view["you"] = _you(ctx, viewer)
    return view


def _game(ctx: Ctx) -> dict[str, Any]:
    """The game's public settings and standing. Not the clock: a view depends only on what the
    viewer can know, so that it changes exactly when something the viewer can see changes (the
    server's per-viewer change counters rely on it)."""
    state = ctx.state
    s = state.settings
    return {
        "preset": s.preset,
        "size": state.size,
        "started_at": state.t0,
        "ended": state.ended,
        "ended_at": state.ended_at,
        "winner": state.winner,
        "win_kind": state.win_kind or None,
        "exit_open": state.exit is not None,
        "treasure_quota": s.treasure_quota,
        "kill_quota": s.kill_quota,
        "move_count": s.move_count,
        "wait_time": s.wait_time,
        "abandon_time": s.abandon_time,
        "max_stored_turns": s.max_stored_turns,
    }


def _map(ctx: Ctx, viewer: Player | None, sight: AbstractSet[int]) -> dict[str, Any]:
    """``tiles``: one character per tile as the viewer knows it (``?`` unexplored);
    ``lit``: ``1`` for tiles in sight now (bright), ``0`` otherwise (remembered or unexplored).
    After the game ends everyone sees the whole maze as it is."""
    state = ctx.state
    n = state.size
    if state.ended:
        tiles = "".join(_revealed(state, i) for i in range(n * n))
        traps = {_key(t, n): {"card": trap.card, "own": False} for t, trap in state.traps.items()}
        return {"size": n, "tiles": tiles, "lit": "1" * (n * n), "doors": _doors(ctx, range(n * n)), "traps": traps}
    if viewer is None:
        return {"size": n, "tiles": visibility.UNEXPLORED * (n * n), "lit": "0" * (n * n), "doors": {}, "traps": {}}
    tiles = visibility.perceived_in(state, viewer, sight)
    lit = _lit(frozenset(sight), n)
    out = {
        "size": n,
        "tiles": tiles,
        "lit": lit,
        "doors": _doors(ctx, sight),
        "traps": _known_traps(ctx, viewer, sight),
    }
    seen = viewer.seen_since_exit
    if state.exit is not None and len(seen) == n * n:
        # FL-EXIT-1/2: tiles not in sight since the exit appeared (remembered or never seen)
        out["stale"] = "".join("1" if seen[t] == "0" and lit[t] == "0" else "0" for t in range(n * n))
    return out


@functools.lru_cache(maxsize=4096)
def _lit(sight: frozenset[int], n: int) -> str:
    """``1`` for the tiles in sight, ``0`` elsewhere (a pure function of its arguments, cached)."""
    marks = bytearray(b"0" * (n * n))
    for tile in sight:
        marks[tile] = ord("1")
    return marks.decode("ascii")


def _known_traps(ctx: Ctx, viewer: Player, sight: AbstractSet[int]) -> dict[str, dict[str, Any]]:
    """FL-UI-2: for in-sight tiles holding a trap the viewer knows, which trap it is."""
    n = ctx.state.size
    out = {}
    for tile, trap in ctx.state.traps.items():
        if tile in sight and visibility.knows_trap(ctx.state, viewer.seat, tile):
            out[_key(tile, n)] = {"card": trap.card, "own": trap.setter == viewer.seat}
    return out


def _revealed(state: GameState, tile: int) -> str:
    trap = state.traps.get(tile)
    return visibility.KNOWN_TRAP if trap is not None else state.grid[tile]


def _doors(ctx: Ctx, tiles: Any) -> dict[str, int]:
    """Damaged doors' HP on visible tiles ("x,y" -> HP)."""
    n = ctx.state.size
    return {_key(t, n): hp for t, hp in ctx.state.door_hp.items() if t in tiles}


def _key(tile: int, n: int) -> str:
    x, y = xy(tile, n)
    return f"{x},{y}"


def _xy(tile: int, n: int) -> list[int]:
    x, y = xy(tile, n)
    return [x, y]


def _status_list(ctx: Ctx, items: list[Status], *, own: bool) -> list[dict[str, Any]]:
    out = []
    for status in items:
        entry: dict[str, Any] = {"id": status.id, "kind": ctx.content.statuses[status.id].kind}
        if status.strength > 1:
            entry["strength"] = status.strength
        if own and status.turns:
            entry["turns"] = status.turns
        if status.cancelled:
            entry["cancelled"] = True  # FL-STS-12, FL-STS-19: listed, no effect
        out.append(entry)
    return out


def _characters(ctx: Ctx, viewer: Player | None, sight: AbstractSet[int]) -> list[dict[str, Any]]:
    """Players in sight (and Exposed players anywhere, FL-VIS-6, AMB-38); monsters in sight,
    or all of them under Keen Ear, marked own or enemy (FL-VIS-7, FL-MON-22)."""
    state = ctx.state
    n = state.size
    everything = state.ended
    out: list[dict[str, Any]] = []
    for player in state.living():
        shown = everything or player.pos in sight or statuses.exposed(ctx, player)
        if viewer is not None and player.seat == viewer.seat:
            shown = True
        if shown:
            out.append(
                {
                    "type": "player",
                    "seat": player.seat,
                    "number": player.number,
                    "tile": _xy(player.pos, n),
                    "you": viewer is not None and player.seat == viewer.seat,
                    "in_sight": everything or player.pos in sight,
                }
            )
    keen = viewer is not None and viewer.alive and statuses.active(viewer, "keen_ear", ctx)
    for monster in state.monsters:
        in_sight = everything or monster.pos in sight
        if in_sight or keen:
            out.append(_monster(ctx, monster, viewer, in_sight=in_sight))
    return out


def _monster(ctx: Ctx, monster: Monster, viewer: Player | None, *, in_sight: bool) -> dict[str, Any]:
    definition = ctx.content.monsters[monster.kind]
    entry: dict[str, Any] = {
        "type": "monster",
        "id": monster.id,
        "monster": monster.kind,
        "glyph": definition.glyph,
        "own": viewer is not None and monster.owner == viewer.seat,
        "tile": _xy(monster.pos, ctx.state.size),
        "in_sight": in_sight,
    }
    if in_sight:  # details only for what the viewer can see (FL-UI-2); Keen Ear gives the place
        entry.update(
            owner=monster.owner,
            hp=monster.hp,
            attack=monster.attack,
            defense=monster.defense,
            evasion=monster.evasion,
            statuses=_status_list(ctx, monster.statuses, own=False),
        )
    return entry


def _public_player(ctx: Ctx, player: Player, viewer: Player | None) -> dict[str, Any]:
    """FL-INFO-1/2, FL-UI-9: always public fields; the status fields unless under Stealth."""
    entry: dict[str, Any] = {
        "seat": player.seat,
        "number": player.number,
        "name": player.name,
        "class": player.cls,
        "alive": player.alive,
        "fate": player.fate or None,
        "comment": player.comment,
        "practice": not player.keep_record,
        "hand_size": len(player.hand),
    }
    if player.image:
        entry["image"] = player.image
    own = viewer is not None and viewer.seat == player.seat
    if own or ctx.state.ended or not statuses.hidden_by_stealth(ctx, player):
        entry["hp"] = player.hp
        entry["max_hp"] = player.max_hp
        entry["cp"] = player.cp
        entry["max_cp"] = player.max_cp
        entry["attack"] = player.attack
        entry["defense"] = player.defense
        entry["magic"] = player.magic
        entry["evasion"] = player.evasion
        entry["statuses"] = _status_list(ctx, player.statuses, own=own) if player.statuses else []
        entry["treasures"] = player.treasures
        entry["kills"] = player.kills
        entry["visited"] = _visited(player.visited)
    else:
        entry["hidden"] = True
    return entry


def _visited(bits: int) -> list[list[bool]]:
    """The 2x2 checkpoint marks: [[top-left, top-right], [bottom-left, bottom-right]]."""
    return [[bool(bits & 1), bool(bits & 2)], [bool(bits & 4), bool(bits & 8)]]


def _pending(ctx: Ctx, item: Pending) -> dict[str, Any]:
    """What the defender is defending against; a trap's setter is not said (FL-INFO-3)."""
    data: dict[str, Any] = {"kind": item.kind, "label": item.label}
    source = combat.public_source(item)
    if source is not None:
        data["source"] = source
    for key in ("monster_kind", "card", "use"):
        value = getattr(item, key)
        if value is not None:
            data[key] = value
    if item.kind in {"attack", "trap"} and combat.has_damage(item.row) and item.row:
        data["power"] = item.power
    if item.special:
        data["special"] = item.special
        if item.amount:
            data["amount"] = item.amount
    return data


def _defending(ctx: Ctx, player: Player, item: Pending) -> dict[str, Any]:
    """The item of the defense phase (:func:`_pending`); for damage, the defender's base defense
    and the Ironwall/Stripped multiplier when it is not 1 (FL-ATK-11); and what each choice leads to
    (``choices``: :func:`defense.choices`, from the rules that resolve it)."""
    data = _pending(ctx, item)
    if "power" in data:
        data["defense"] = player.defense
        ratio = statuses.damage_ratio(ctx, player)
        if ratio != (1, 1):
            data["damage_ratio"] = list(ratio)
    data["choices"] = defense.choices(ctx, player, item)
    return data


def _hand_card(ctx: Ctx, card_id: int, price: Callable[[int], int]) -> dict[str, Any]:
    """A card in the viewer's hand with its CP cost per use (``use``: its effects)."""
    card = ctx.card(card_id)
    cp = {use: price(cost) for use, cost in card.uses.items()}
    if card.effects or not card.uses:
        cp["use"] = price(card.cost)
    return {"id": card_id, "kind": card.id, "category": card.category, "cp": cp}


def _you(ctx: Ctx, player: Player) -> dict[str, Any]:
    state = ctx.state
    price = cards.cp_prices(ctx, player)
    you: dict[str, Any] = {
        "seat": player.seat,
        "number": player.number,
        "phase": player.phase,
        "alive": player.alive,
        "tile": _xy(player.pos, state.size) if player.alive else None,
        "hand": [_hand_card(ctx, card_id, price) for card_id in player.hand],
        "max_cards": player.max_cards,
        "stored_turns": player.stored,
        "turns_played": player.turns_played,
        "qualifies": death.qualifies(ctx, player),
        "sight_radius": statuses.sight_radius(ctx, player) if player.alive else 0,
        "effective_evasion": statuses.evasion(ctx, player),
    }
    if player.phase == MOVE:
        you["move"] = {"number": player.move_no, "of": player.moves_total}
    if player.phase == DEFENSE and player.pending:
        you["defending"] = _defending(ctx, player, player.pending[0])
        you["waiting_items"] = len(player.pending) - 1
    if player.phase == CORE:
        you["can_pass"] = player.stayed
    if player.alive and not state.ended:
        deadline = clock.abandon_deadline(state, player)
        you["abandon_at"] = deadline
        if player.phase == WAIT:
            you["next_turn_at"] = clock.accumulation_at(state, player, player.acc_next)
    return you
