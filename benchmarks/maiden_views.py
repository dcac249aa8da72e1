"""The cost of White Maiden's views as the server builds them after every change: the ruleset's
``views`` hook for every audience (a spectator and each seat) and the view digests made from
them (``engine.view_digests``), per state, over the states of random games.

    .venv/bin/python benchmarks/maiden_views.py [--players 1] [--games 6] [--commands 150] [--rounds 5]

Outside the timer: the games are played first (commands chosen at random among the legal ones,
the clock moving one second per command) and their states kept encoded; each round decodes
every state, then times the hook (or the digests) over each game's states in order, as the
server meets them, starting from a fresh ruleset and empty view memos for each game (the parts
one state keeps for the next count, those of an earlier round do not). The timer is the CPU time
of the benchmark's thread, with the garbage collector held off while it runs; printed: the
median over rounds of the microseconds per state of each (this machine is noisy: compare runs
made side by side, or count instructions with ``valgrind --tool=callgrind``).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Run as a script, this file's folder would come first on the path, and its http.py would shadow
# the standard library's ``http``: take the folder off.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

#: Commands a random player never picks (giving up ends the game).
AVOID = {"give_up", "comment"}


def play(players: int, commands: int, seed: int) -> list[bytes]:
    """The encoded states of a random game, the first after setup, then one per command."""
    from delve.kernel import SeatInfo
    from delve.maiden.ruleset import MaidenRuleset

    ruleset = MaidenRuleset()
    chooser = random.Random(seed)
    now = 1_700_000_000
    game = ruleset.setup(
        {"players": players, "start_player": 0}, [SeatInfo(f"P{i}") for i in range(players)], seed, now
    )
    states = [ruleset.encode(game)]
    for _ in range(commands):
        choices: list[tuple[int, dict[str, Any]]] = []
        for _ in range(600):  # the clock moves on until someone has something to play
            now += 1
            ruleset.advance(game, now)
            choices = [
                (s, c) for s in range(players) for c in ruleset.legal_commands(game, s) if c["kind"] not in AVOID
            ]
            if choices:
                break
        if not choices:
            break
        seat, command = chooser.choice(choices)
        ruleset.apply(game, seat, command, now)
        states.append(ruleset.encode(game))
        if game.ended:
            break
    return states


def timed(games: list[list[bytes]], players: int, work: Callable[[Any, Any, list[int | None]], object]) -> float:
    """CPU microseconds per state of ``work(ruleset, state, audiences)`` over every game's states."""
    from delve.maiden import view
    from delve.maiden.ruleset import MaidenRuleset

    audiences: list[int | None] = [None, *range(players)]
    spent = 0.0
    count = 0
    for encoded in games:
        ruleset = MaidenRuleset()
        view._PARTS.clear()
        view._best_plan.cache_clear()  # the suggestions' plans, kept by check situation
        states = [ruleset.decode(data) for data in encoded]
        gc.collect()
        gc.disable()
        try:
            started = time.thread_time()
            for state in states:
                work(ruleset, state, audiences)
            spent += time.thread_time() - started
        finally:
            gc.enable()
        count += len(states)
    return spent / count * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--commands", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "delve.server.settings")
    import django

    django.setup()
    from delve.kernel import views_of
    from delve.server.games.engine import view_digests

    games = [play(args.players, args.commands, seed) for seed in range(args.games)]
    hook, digests = [], []
    for _ in range(args.rounds):
        hook.append(timed(games, args.players, views_of))
        digests.append(timed(games, args.players, view_digests))
    states = sum(map(len, games))
    print(
        f"White Maiden {args.players}p, {states} states: views hook {statistics.median(hook):.0f} us/state, "
        f"view digests (the hook included) {statistics.median(digests):.0f} us/state"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
