"""Helpers for the White Maiden screen tests: games at the table with personas, and a driver
that plays a seeded game through the engine to a wanted phase."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from delve.server import clock as server_clock
from delve.server.games import engine
from delve.server.games.models import Game

#: A deterministic seed for the screen tests (the engine's RNG lives in the state).
SEED = 20261201


def maiden_game(users: list[Any], *, seed: int = SEED, **overrides: Any) -> Game:
    """A running White Maiden game with ``users`` in seat order and a fixed seed."""
    game = engine.create_game("maiden", "white-maiden", {"players": len(users), "start_player": 0, **overrides})
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users:
        engine.register(game.pk, user, user.get_username().capitalize())
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def legal(game: Game, seat: int) -> list[dict[str, Any]]:
    game.refresh_from_db()
    rules = engine.ruleset_of(game)
    state = engine.load_state(game, rules)
    return rules.legal_commands(state, seat)


def view(game: Game, seat: int | None) -> dict[str, Any]:
    game.refresh_from_db()
    rules = engine.ruleset_of(game)
    return rules.view(engine.load_state(game, rules), seat)


def state(game: Game) -> Any:
    game.refresh_from_db()
    return engine.load_state(game)


def first_choice(commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A simple, deterministic policy: prefer the kinds that move the game on."""
    order = ("choose_familiar", "keep_card", "place_card", "agi_option", "choose", "move", "stay", "roll", "resolve")
    for kind in order:
        for command in commands:
            if command["kind"] == kind:
                return command
    return commands[0]


def play_until(
    game: Game,
    users: list[Any],
    done: Callable[[dict[str, Any]], bool],
    *,
    policy: Callable[[list[dict[str, Any]]], dict[str, Any]] = first_choice,
    limit: int = 400,
) -> dict[str, Any]:
    """Submit commands (through ``engine.submit``) until ``done(public view)``; the public view."""
    for _ in range(limit):
        public = view(game, None)
        if done(public) or public["ended"]:
            return public
        for seat, user in enumerate(users):
            commands = legal(game, seat)
            if commands:
                engine.submit(game.pk, user, policy(commands))
                break
        else:
            raise AssertionError(f"nobody can act: {public['phase']} {public['pending']}")
    raise AssertionError("the game did not reach the wanted phase")


def now() -> int:
    return server_clock.now()


def into_boss_check(game: Game, users: list[Any], boss: str, action: int, **stats: int) -> None:
    """Put the first seat's maiden into a check against ``boss``'s action ``action`` (its room
    entered and the fight engaged, the pointer on that action), with ``stats`` levels if given:
    the state edited through the engine's own functions and saved as a command would save it."""
    from delve.maiden import bosses, checks
    from delve.maiden.ctx import Ctx
    from tests.maiden.helpers import set_stats

    play_until(game, users, lambda v: v["phase"] == "move" and v["active_seat"] == 0)
    game.refresh_from_db()
    rules: Any = engine.ruleset_of(game)
    state = engine.load_state(game, rules)
    if stats:
        set_stats(state, 0, **{"pie": 0, "wil": 0, "agi": 0, "ins": 0, **stats})
    ctx = Ctx(state, state.clock, rules.content)
    maiden = state.maidens[0]
    maiden.room = boss
    if boss not in state.explored:
        state.explored.append(boss)
    bosses.engage(ctx, maiden, boss)
    state.bosses[boss].pointer = action
    checks.start_boss_check(ctx, maiden, boss)
    game.state = rules.encode(state).decode()
    game.version += 1
    game.save()
