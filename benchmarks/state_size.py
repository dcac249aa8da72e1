"""The size of a game's stored state (the JSON the server saves at every command) in the middle of
Fated Labyrinth and Level D games played by the heuristic bots, as the simulation runner plays them,
and of White Maiden games (2 and 4 players) played by its heuristic bots (``delve maiden eval``'s
driver).

    .venv/bin/python benchmarks/state_size.py [--games 5]

For each preset: the state's size at the middle command of each game (its median over the games
and the largest), and the largest size any game reached. Sizes are bytes of ``Ruleset.encode``.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from delve.bots import named
from delve.bots.maiden_eval import play_game
from delve.fated import content
from delve.fated.ruleset import FatedRuleset
from delve.kernel import Event, Recorder, Rng, SeatInfo
from delve.maiden.ruleset import MaidenRuleset
from delve.sim.games.fated import IDLE, ROUND_SECONDS, T0

RULESET = FatedRuleset()
MAIDEN = MaidenRuleset()


def sizes(preset: str, seed: int) -> list[int]:
    """The state's size after every command of one bot game (the runner's rounds and clock)."""
    overrides = {"preset": preset}
    seats = RULESET.seat_count(overrides)
    rng = Rng.seeded(seed)
    classes = [rng.choice(list(content.load().classes)) for _ in range(seats)]
    infos = [SeatInfo(f"p{s + 1}", {"class": c, "image": c}) for s, c in enumerate(classes)]
    game = RULESET.setup(overrides, infos, seed, T0)
    recorder = Recorder(RULESET, game)
    bots = [named("fated", "heuristic", seed=seed * 10 + s) for s in range(seats)]
    now, out = T0, []
    while not game.ended and len(out) < 20_000:
        played = 0
        for seat, bot in enumerate(bots):
            legal = RULESET.legal_commands(game, seat)
            if all(c["kind"] in IDLE for c in legal):
                continue
            command = bot.choose(recorder.view(game, seat), legal)
            if command is None:
                continue
            recorder.record(RULESET.apply(game, seat, command, now))
            out.append(len(RULESET.encode(game)))
            played += 1
            if game.ended:
                break
        if game.ended:
            break
        due = RULESET.next_due(game)
        if played:
            now += ROUND_SECONDS
        elif due is None:
            break
        else:
            now = max(now + 1, due)
        recorder.record(RULESET.advance(game, now))
    return out


def maiden_sizes(players: int, seed: int) -> list[int]:
    """The state's size after every command of one White Maiden game of heuristic bots."""
    out: list[int] = []

    def measure(game: Any, seat: int, command: dict[str, Any], events: list[Event]) -> None:
        out.append(len(MAIDEN.encode(game)))

    play_game(players, seed, ruleset=MAIDEN, on_command=measure)
    return out


def report(name: str, games: int, each: Any) -> None:
    middles, largest = [], 0
    for seed in range(1, games + 1):
        found = each(seed)
        middles.append(found[len(found) // 2])
        largest = max(largest, *found)
    print(
        f"{name}: state JSON at mid-game {statistics.median(middles):,.0f} bytes "
        f"(median of {games} games; largest mid-game {max(middles):,} bytes), "
        f"largest at any point {largest:,} bytes"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per preset (seeds 1..N)")
    args = parser.parse_args()
    for preset in ("fated-labyrinth", "level-d"):
        players = RULESET.seat_count({"preset": preset})
        report(f"{preset} ({players} players)", args.games, lambda seed, preset=preset: sizes(preset, seed))
    for players in (2, 4):
        report(f"white-maiden ({players} players)", args.games, lambda seed, n=players: maiden_sizes(n, seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
