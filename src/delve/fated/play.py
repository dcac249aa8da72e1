"""Playing a card in the core phase (FL-CORE-1, FL-USE): pay CP, discard the card, create its
effect, draw a replacement (AMB-20: the used card is discarded before the draw).

Attack cards (damage, special attack) are used 《罠》 on the own tile, 《隣接》 on an adjacent
player, enemy monster or (damage cards) door, or 《遠隔》 on any other living player not under
Stealth. Other cards run their effect list (``effects.OPS``) on their target.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from delve.fated import cards, combat, effects
from delve.fated.content import CardDef
from delve.fated.ctx import Ctx
from delve.fated.grid import DOOR, FLOOR, PASSABLE, adjacent, step
from delve.fated.state import Monster, Player, Trap


def trap_allowed(ctx: Ctx, player: Player) -> bool:
    """FL-TRAP-10, AMB-71: only on normal floor (which may already hold a trap)."""
    return ctx.state.grid[player.pos] == FLOOR and player.pos not in ctx.state.fakes


Occupant = Player | Monster | None

#: ``legal_uses(..., use=EVERY_USE)``: every use of the card and its effects.
EVERY_USE = "*"


class Listing(msgspec.Struct):
    """One player at one moment, while its commands are listed: what several offers ask (the
    tiles next to the player and who stands there, the CP price of a cost, the targets of each
    kind of card use) is looked up once and shared. Listing changes nothing in the state, so
    every answer is the one asking afresh would give. A struct: one is made for every listing and
    every judged command, without a Python ``__init__`` call."""

    ctx: Ctx
    player: Player
    _around: list[tuple[str, int, Occupant]] | None = None
    _price: Callable[[int], int] | None = None
    _terms: tuple[int, int] | None = None
    _targets: dict[object, Any] = msgspec.field(default_factory=dict)
    _every: dict[str, list[dict[str, Any]]] = msgspec.field(default_factory=dict)
    """:meth:`uses` of every use, per card kind (asked for each card of the hand)."""

    def around(self) -> list[tuple[str, int, Occupant]]:
        """``(direction, tile, occupant)`` for each tile next to the player, up, down, left,
        right (tiles outside the grid left out). The offers tell a player from a monster by the
        occupant's exact type (``type(occupant) is Player``: the state's structs have no
        subclasses, and in Python 3.11 ``isinstance`` against a struct class it does not match
        costs several times as much)."""
        if self._around is None:
            state = self.ctx.state
            tiles = adjacent(self.player.pos, state.size)
            # ``state.occupant`` of each tile, in one pass: the first living player there, else
            # the first monster (loops, not comprehensions: each of those is a call in Python 3.11)
            occupants: dict[int, Occupant] = {}
            for _, tile in tiles:
                occupants[tile] = None
            for player in state.players:
                if player.alive and player.pos in occupants and occupants[player.pos] is None:
                    occupants[player.pos] = player
            for monster in state.monsters:
                if monster.pos in occupants and occupants[monster.pos] is None:
                    occupants[monster.pos] = monster
            around = []
            for d, tile in tiles:
                around.append((d, tile, occupants[tile]))
            self._around = around
        return self._around

    def price(self, cost: int) -> int:
        """:func:`cards.cp_cost` of ``cost`` for the player."""
        if self._price is None:
            self._price = cards.cp_prices(self.ctx, self.player)
        return self._price(cost)

    def terms(self) -> tuple[int, int]:
        """:func:`cards.cp_terms` for the player."""
        terms = self._terms
        if terms is None:
            terms = self._terms = cards.cp_terms(self.ctx, self.player)
        return terms

    def adjacent_targets(self, card: CardDef | None) -> list[str]:
        """:func:`adjacent_targets`."""
        doors = card is None or card.category == "damage"
        found: list[str] | None = self._targets.get(("adjacent", doors))
        if found is None:
            found = self._targets[("adjacent", doors)] = _adjacent_targets(self.ctx, self.player, self.around(), doors)
        return found

    def remote_targets(self) -> list[int]:
        """:func:`remote_targets`."""
        found: list[int] | None = self._targets.get("remote")
        if found is None:
            found = self._targets["remote"] = remote_targets(self.ctx, self.player)
        return found

    def trap_allowed(self) -> bool:
        """:func:`trap_allowed`."""
        found: bool | None = self._targets.get("trap")
        if found is None:
            found = self._targets["trap"] = trap_allowed(self.ctx, self.player)
        return found

    def uses(self, card: CardDef, use: str | None = EVERY_USE) -> list[dict[str, Any]]:
        """The parameters after kind and card of each legal way to play a card of this kind
        (the same for every card of a kind): see :func:`legal_uses`."""
        if use is EVERY_USE:  # a hand's cards, listed
            every = self._every.get(card.id)
            if every is None:
                every = self._every[card.id] = _uses(self, card, use)
            return every
        key = ("uses", card.id, use)
        found: list[dict[str, Any]] | None = self._targets.get(key)
        if found is None:
            found = self._targets[key] = _uses(self, card, use)
        return found

    def card_targets(self, card: CardDef) -> list[dict[str, Any]]:
        """``effects.card_targets``, which depends on the card only through its target word."""
        if not card.effects:
            return []
        key = ("effects", card.target)
        found: list[dict[str, Any]] | None = self._targets.get(key)
        if found is None:
            target = card.target
            if target == "adjacent_character":  # effects.TARGETS' test, on the tiles around
                seat = self.player.seat
                found = [
                    {"dir": direction}
                    for direction, _, occupant in self.around()
                    if type(occupant) is Player or (type(occupant) is Monster and occupant.owner != seat)
                ]
            elif target == "adjacent_free":  # monsters.summon_tiles' test (a valid move destination), around
                grid = self.ctx.state.grid
                found = [
                    {"dir": direction}
                    for direction, tile, occupant in self.around()
                    if occupant is None and grid[tile] in PASSABLE
                ]
            elif target == "player":  # effects.TARGETS' designatable players, as 《遠隔》 finds them
                found = [{"target": seat} for seat in self.remote_targets()]
            else:
                found = effects.card_targets(self.ctx, self.player, card)
            self._targets[key] = found
        return found


def adjacent_targets(ctx: Ctx, player: Player, card: CardDef | None) -> list[str]:
    """Directions with a valid 《隣接》 (or normal attack) target: another player, a monster not
    owned by the player, or a door (normal attacks and damage cards only) (AMB-13)."""
    return Listing(ctx, player).adjacent_targets(card)


def _adjacent_targets(ctx: Ctx, player: Player, around: list[tuple[str, int, Occupant]], doors: bool) -> list[str]:
    grid = ctx.state.grid
    out = []  # a loop, not a comprehension (a call of its own in Python 3.11)
    for direction, tile, occupant in around:
        if (
            type(occupant) is Player
            or (type(occupant) is Monster and occupant.owner != player.seat)
            or (occupant is None and doors and grid[tile] == DOOR)
        ):
            out.append(direction)
    return out


def remote_targets(ctx: Ctx, player: Player) -> list[int]:
    """FL-USE-4, FL-STS-18: every other living player not under Stealth."""
    return effects.designatable(ctx, player)


def legal_uses(
    ctx: Ctx, player: Player, card_id: int, listing: Listing | None = None, *, use: str | None = EVERY_USE
) -> list[dict[str, Any]]:
    """Every legal way to play this card now: one command per use and target of an attack
    card, and one per target of a card's effects (both for a special attack / utility card).
    ``listing`` shares what the uses of several cards ask (the player's, made at this moment);
    ``use`` narrows the list to one 《use》 of an attack card (``None``: the card's effects)."""
    card = ctx.card(card_id)
    if card.category == "defense":
        return []  # defense cards only in the defense phase (FL-CARD-2)
    if listing is None:
        listing = Listing(ctx, player)
    return [{"kind": "use_card", "card": card_id, **how} for how in listing.uses(card, use)]


def _uses(listing: Listing, card: CardDef, only: str | None) -> list[dict[str, Any]]:
    """The parameters (after kind and card) of each legal way to play a card of this kind
    (``only``: as in :func:`legal_uses`)."""
    cp = listing.player.cp
    found: list[dict[str, Any]] = []
    # the CP price of a cost, as :func:`cards.cp_cost` finds it, written out (asked per use)
    factor, denominator = listing.terms()
    for use, cost in card.uses.items():
        if only is not EVERY_USE and only != use:  # (a tuple made for "not in" costs more)
            continue
        if -(-(cost * factor) // denominator) > cp:
            continue  # FL-CP-4: more than the current CP cannot be paid; equal can
        if use == "trap":
            if listing.trap_allowed():
                found.append({"use": use})
        elif use == "adjacent":
            for d in listing.adjacent_targets(card):
                found.append({"use": use, "dir": d})
        else:
            for seat in listing.remote_targets():
                found.append({"use": use, "target": seat})
    if (only is EVERY_USE or only is None) and card.effects and -(-(card.cost * factor) // denominator) <= cp:
        found += listing.card_targets(card)
    return found


def use_card(ctx: Ctx, player: Player, command: dict[str, Any]) -> None:
    """FL-CORE-1: pay CP, discard the card (FL-CARD-6, also for traps), create its effect, then
    draw the replacement (FL-CARD-7; AMB-20: the used card is already on the discard pile)."""
    card_id: int = command["card"]
    card = ctx.card(card_id)
    use: str | None = command.get("use")
    player.cp -= cards.cp_cost(ctx, player, card.use_cost(use))
    cards.discard(ctx, player, card_id)
    if use is not None:
        _attack_card(ctx, player, card, use, command)
    else:
        effects.run_card(ctx, player, card, command)
    if player.alive:
        cards.draw(ctx, player, 1)  # the refill (FL-CARD-7)


def _attack_card(ctx: Ctx, player: Player, card: CardDef, use: str, command: dict[str, Any]) -> None:
    state = ctx.state
    row = combat.row_for(card, use)
    if use == "trap":
        # FL-TRAP-9: a new trap replaces the old one; logged without naming the card (FL-INFO-4)
        state.traps[player.pos] = Trap(card=card.id, setter=player.seat)
        ctx.public("card.used_on_own_tile", player=player.seat)
        ctx.private(player.seat, "trap.set", card=card.id)
        return
    if use == "remote":
        target = state.players[command["target"]]
        item = combat.attack_item(ctx, row=row, power=card.power, source=player.seat, label=use, card=card, use=use)
        combat.queue(ctx, target, item)
        ctx.public("card.used", player=player.seat, card=card.id, use=use, target=target.seat)
        return
    tile = step(player.pos, command["dir"], state.size)
    assert tile is not None
    power = card.power + player.attack if card.category == "damage" else 0  # FL-USE-3
    occupant = state.occupant(tile)
    if isinstance(occupant, Player):
        item = combat.attack_item(ctx, row=row, power=power, source=player.seat, label=use, card=card, use=use)
        combat.queue(ctx, occupant, item)
        ctx.public("card.used", player=player.seat, card=card.id, use=use, target=occupant.seat)
    elif isinstance(occupant, Monster):
        ctx.public("card.used", player=player.seat, card=card.id, use=use, monster=occupant.kind, owner=occupant.owner)
        combat.hit_monster(ctx, player.seat, occupant, power, card.special, label=use, amount=card.amount)
    else:
        ctx.public("card.used", player=player.seat, card=card.id, use=use, door=True)
        combat.hit_door(ctx, player.seat, tile, power)
