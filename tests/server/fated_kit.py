"""Fated Labyrinth games for the screen tests: a real game registered through the engine, then
laid out from an ASCII map (like ``tests/fated/scenario.py``) so a test knows where everyone
stands, what they hold and whose turn it is.

    game = fated_game([ann, bob, cid, dan], classes=["warrior", "thief", "cat", "priest"])
    arrange(game, MAP, hands={0: ["attack-10"]}, ready=[0])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from delve.fated.grid import FLOOR, index
from delve.fated.state import Monster, Status, Trap
from delve.server import clock
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.games.worker import Worker
from tests.fated.scenario import Scenario

#: A 9x9 maze. Digits are players (seat = digit - 1) on floor; S and I mark where the arrange()
#: helper puts monsters: S = the Slime of seat 2 (an enemy to seat 0), I = the Imp of seat 0.
MAP = (
    "C...#...C",
    ".#.#.#.#.",
    "..1.2.~..",
    ".#.#.#.#.",
    "...IS....",
    ".#+#.#.#.",
    "..T......",
    ".#.#.#.#.",
    "C.3...4.C",
)
NAMES = ("Aki", "Ben", "Chie", "Dan")


def bot_table(users: Sequence[Any], preset: str = "fated-labyrinth", **settings: Any) -> Game:
    """A running game of warrior bots on a 9x9 maze (one seat per user, 10-minute turns)."""
    overrides = {"players": len(users), "maze_size": 9, "wait_time": 600, **settings}
    game = engine.create_game("fated", preset, overrides)
    for number, user in enumerate(users, start=1):
        engine.register(game.pk, user, f"Bot{number}", {"class": "warrior"}, is_bot=True)
    return game


def run_worker(
    game: Game,
    fake_clock: Any,
    worker: Worker,
    passes: int,
    tick: int = 5 * 60,
    until: Callable[[Game], bool] = lambda game: False,
) -> Game:
    """Up to ``passes`` worker passes (the clock moved on by ``tick`` before each, bots played),
    stopping early when the game ends or ``until(game)`` holds before a pass."""
    for _ in range(passes):
        if game.status == Game.Status.ENDED or until(game):
            break
        fake_clock.tick(tick)
        worker.run_once()
        worker.run_bots()
        game.refresh_from_db()
    return game


def fated_game(
    users: Sequence[Any],
    *,
    classes: Sequence[str] = ("warrior", "thief", "cat", "priest"),
    practice: Sequence[int] = (),
    preset: str = "fated-labyrinth",
    **overrides: Any,
) -> Game:
    """A started 4-player game on a 9x9 maze (registration order = seat order)."""
    settings: dict[str, Any] = {"players": 4, "maze_size": 9, "wait_time": 3600, **overrides}
    game = engine.create_game("fated", preset, settings)
    for seat, user in enumerate(users):
        engine.register(game.pk, user, NAMES[seat], {"class": classes[seat]}, keep_record=seat not in practice)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def rewrite(game: Game, change: Callable[[Scenario], None], *, seen: bool = False) -> Game:
    """Change the stored state with the scenario helpers and save it as a new version; with
    ``seen`` the audiences whose view changed see their counters move too, as after a command, so
    an open screen's poll picks the change up."""
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    state = engine.load_state(game, ruleset)
    scenario = Scenario(state)
    scenario.now = max(state.clock, clock.now())
    change(scenario)
    scenario.refresh()
    game.state = ruleset.encode(state).decode()
    game.version += 1
    game.next_due_at = ruleset.next_due(state)
    if seen:
        engine._observe(game, ruleset, state, [])
    game.save()
    return game


def lay_map(scenario: Scenario, rows: Sequence[str]) -> None:
    state = scenario.state
    n = state.size
    assert len(rows) == n and all(len(r) == n for r in rows), "the map must match maze_size"
    grid: list[str] = []
    placed: dict[int, int] = {}
    monsters: list[tuple[str, int, int]] = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch.isdigit():
                placed[int(ch) - 1] = index(x, y, n)
                grid.append(FLOOR)
            elif ch == "S":
                monsters.append(("slime", 2, index(x, y, n)))
                grid.append(FLOOR)
            elif ch == "I":
                monsters.append(("imp", 0, index(x, y, n)))
                grid.append(FLOOR)
            else:
                grid.append(ch)
    state.grid = "".join(grid)
    state.traps.clear()
    state.fakes.clear()
    state.exit = None
    state.monsters = []
    for player in state.players:
        player.pos = placed[player.seat]
        player.memory = "?" * (n * n)
    for kind, owner, tile in monsters:
        definition = scenario.ctx.content.monsters[kind]
        state.monsters.append(
            Monster(
                id=state.new_id(),
                kind=kind,
                owner=owner,
                pos=tile,
                hp=definition.hp,
                attack=definition.attack,
                defense=definition.defense,
                evasion=definition.evasion,
                heading="up",
            )
        )


def arrange(
    game: Game,
    rows: Sequence[str] = MAP,
    *,
    hands: dict[int, Sequence[str]] | None = None,
    ready: Sequence[int] = (),
    statuses: dict[int, Sequence[str]] | None = None,
    traps: Sequence[tuple[int, int, str, int, Sequence[int]]] = (),
) -> Game:
    """Lay the map, set hands (card kinds), give statuses (7 turns), put traps (x, y, card,
    setter, seats that know it) and make seats READY with a stored turn."""

    def change(scenario: Scenario) -> None:
        lay_map(scenario, rows)
        for seat, kinds in (hands or {}).items():
            scenario.set_hand(seat, *kinds)
        for seat, ids in (statuses or {}).items():
            scenario.p(seat).statuses = [Status(id=s, turns=7) for s in ids]
        for x, y, card, setter, known in traps:
            scenario.state.traps[scenario.at(x, y)] = Trap(card=card, setter=setter, known=list(known))
        for seat in ready:
            scenario.make_ready(seat)

    return rewrite(game, change)
