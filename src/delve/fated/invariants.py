"""What must hold of a Fated Labyrinth state after every command and every clock advance: used by
the random playout tests and by the fuzzer (``delve fuzz``).

Each check returns the violations it finds as sentences (empty: all well), so a caller can count
them or fail on the first.
"""

from __future__ import annotations

from delve.fated import death, visibility
from delve.fated.ctx import Ctx
from delve.fated.grid import DOOR, WALL
from delve.fated.state import GameState

CARDS_PER_DECK = 500


def violations(state: GameState, previous_clock: int) -> list[str]:
    """Valid positions, one occupant per tile, HP/CP within bounds, the stored-turn cap, a
    monotonic clock, the exit exactly when someone qualifies (FL-WIN), every card accounted for
    (FL-CARD), and every living player's memory of the tiles in sight as it sees them (FL-VIS-3)."""
    found: list[str] = []
    n = state.size
    occupied: dict[int, str] = {}
    for p in state.players:
        if not p.alive:
            if p.hand or p.pending:
                found.append(f"dead player {p.seat} keeps cards or items")
            continue
        if not (0 <= p.pos < n * n) or state.grid[p.pos] in (WALL, DOOR):
            found.append(f"player {p.seat} on tile {p.pos}")
        elif p.pos in occupied:
            found.append(f"two characters on tile {p.pos}")
        occupied[p.pos] = f"player {p.seat}"
        if not (0 <= p.hp <= p.max_hp and 0 <= p.cp <= p.max_cp):
            found.append(f"player {p.seat}: HP {p.hp}/{p.max_hp} CP {p.cp}/{p.max_cp}")
        if p.stored > state.settings.max_stored_turns:
            found.append(f"player {p.seat} stores {p.stored} turns")
        stale = visibility.stale(state, p)
        if stale:
            found.append(f"player {p.seat} remembers tiles {stale[:5]} in sight otherwise than it sees them (FL-VIS-3)")
    for m in state.monsters:
        if not (0 <= m.pos < n * n) or state.grid[m.pos] in (WALL, DOOR):
            found.append(f"monster {m.id} on a wall or door")
        elif m.pos in occupied:
            found.append(f"monster {m.id} shares tile {m.pos} with {occupied[m.pos]}")
        occupied[m.pos] = f"monster {m.id}"
        if m.hp <= 0 or not state.players[m.owner].alive:
            found.append(f"monster {m.id} with HP {m.hp} or a dead owner")
    if state.clock < previous_clock:
        found.append(f"the clock went backwards: {previous_clock} -> {state.clock}")
    total = len(state.deck) + len(state.discard) + len(state.removed) + sum(len(p.hand) for p in state.players)
    if total != CARDS_PER_DECK * state.settings.decks:
        found.append(f"{total} cards instead of {CARDS_PER_DECK * state.settings.decks}")
    if not state.ended:
        ctx = Ctx(state, state.clock)
        qualifies = any(death.qualifies(ctx, p) for p in state.living())
        if (state.exit is not None) != qualifies:
            found.append(f"exit {state.exit} but qualifies={qualifies}")
        if state.grid.count("E") != (1 if state.exit is not None else 0):
            found.append(f"{state.grid.count('E')} exits on the grid, exit={state.exit}")
    return found
