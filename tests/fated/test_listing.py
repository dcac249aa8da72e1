"""Listing a player's commands looks each shared question up once (``play.Listing``): the tiles
next to the player and who stands there, CP prices, and the targets of each kind of card use.
The listing must be exactly what asking afresh gives, card by card and command by command."""

from __future__ import annotations

from typing import Any

import pytest

from delve.fated import commands, effects, play
from delve.fated.ctx import Ctx
from delve.fated.grid import DIRECTIONS, adjacent
from delve.fated.state import CORE, GameState
from delve.kernel import Rng

from .playout import new_playout, step


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_a_shared_listing_gives_what_asking_each_card_alone_gives(preset):
    """FL-USE, FL-CORE: in random core phases, every card's uses from one shared listing equal
    its uses asked with a fresh listing, the targets of its effects are those ``effects.TARGETS``
    finds, the normal-attack and 《隣接》 targets agree, the tiles
    around the player have the occupants ``state.occupant`` names, every listed command is
    judged legal on its own, and a card command's near misses (another use, direction or
    target) are judged legal exactly when the full listing holds them."""
    seen = {"core": 0, "uses": 0, "occupied": 0, "variants": 0, "adjacent characters": 0, "free tiles and players": 0}

    def choose(state: GameState, seat: int, choices: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
        ctx = Ctx(state, state.clock)
        player = state.players[seat]
        around = [(d, tile, state.occupant(tile)) for d, tile in adjacent(player.pos, state.size)]
        assert play.Listing(ctx, player).around() == around
        seen["occupied"] += sum(occupant is not None for _, _, occupant in around)
        if player.phase == CORE:
            seen["core"] += 1
            shared = play.Listing(ctx, player)
            for card_id in player.hand:
                alone = play.legal_uses(ctx, player, card_id)
                assert play.legal_uses(ctx, player, card_id, shared) == alone
                seen["uses"] += len(alone)
                card = ctx.card(card_id)  # the targets of its effects, as effects.TARGETS finds them
                assert shared.card_targets(card) == effects.card_targets(ctx, player, card)
                if card.target == "adjacent_character" and shared.card_targets(card):
                    seen["adjacent characters"] += 1
                if card.target in ("adjacent_free", "player") and shared.card_targets(card):
                    seen["free tiles and players"] += 1
            assert shared.adjacent_targets(None) == play.adjacent_targets(ctx, player, None)
        legal = commands.legal_commands(ctx, seat)
        for command in legal:
            if command["kind"] != "comment":
                assert commands.is_legal(ctx, seat, command), command
            if command["kind"] == "use_card":  # near misses are judged as the full listing judges
                bare = {k: v for k, v in command.items() if k not in ("use", "dir", "target", "monster")}
                variants = [bare, *({**bare, "use": use} for use in ("trap", "adjacent", "remote"))]
                variants += [{**v, "dir": d} for v in variants for d in DIRECTIONS]
                variants += [{**v, "target": t} for v in variants[:4] for t in range(len(state.players))]
                for variant in variants:
                    assert commands.is_legal(ctx, seat, variant) == (variant in legal), variant
                    seen["variants"] += 1
        weighted = [c for c in choices if c["kind"] == "use_card"] * 3 + choices
        return rng.choice(weighted)

    for seed in range(4):
        playout = new_playout(preset, seed)
        rng = Rng.seeded(seed)
        while playout.commands < 250 and step(playout, rng, check=False, choose=choose):
            pass
    assert seen["core"] >= 50 and seen["uses"] >= 200 and seen["occupied"] >= 50, seen
    assert seen["free tiles and players"] >= 50, seen  # summon cards and designating cards
    if preset == "fated-labyrinth":  # Knockback's targets found next to characters (rarer in Level D's games)
        assert seen["adjacent characters"] >= 1, seen
