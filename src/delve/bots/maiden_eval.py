"""Playing whole White Maiden games with bots, and measuring the heuristic bots' win rates.

    python -m delve.bots.maiden_eval --games 500            # 1-4 players, 500 games each
    delve maiden eval --games 500 --players 2 --strategy balanced --processes 2

shows a progress line with the ETA on stderr (``--quiet``: none) and prints, for each player
count, the games played, the games won, the win rate and its 95% Wilson interval, plus the mean
rounds, bosses defeated, areas freed and deaths. Games are seeded
1..N (``--first-seed``), so a run is reproducible; they are spread over ``--processes`` worker
processes (2 by default: the machine has two cores). The default run (500 games at each of 1-4
players, 2 processes) takes about 90 minutes (docs/maiden.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from delve.bots.maiden import STRATEGIES, MaidenBot, RandomMaidenBot
from delve.kernel import Event, Recorder, SeatInfo
from delve.maiden import journal
from delve.maiden.ruleset import MaidenRuleset
from delve.sim.report import wilson

T0 = 1_700_000_000
NAMES = ("Alba", "Bianca", "Candida", "Dalia")
#: A bound no real game reaches (a 4-player game takes about a thousand commands).
COMMAND_LIMIT = 20_000


class Stuck(RuntimeError):
    """A game did not end within :data:`COMMAND_LIMIT` commands, or a seat had nothing to play."""


@dataclass
class GameRecord:
    """The outcome of one bot game."""

    players: int
    seed: int
    won: bool
    rounds: int
    commands: int
    summary: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    game: Any = None
    """The final game state (for a measuring harness; bots never see it)."""


def waiting_seat(game: Any) -> int | None:
    """The seat the game waits for (the runner's business, not the bots'): the head decision's
    seat (seat 0 for a decision any seat may take), else the active seat."""
    if game.ended:
        return None
    if game.pending:
        seat = game.pending[0].seat
        return 0 if seat is None else int(seat)
    active = game.active_seat
    return None if active is None else int(active)


def make_bots(
    kind: str, players: int, seed: int, settings: Mapping[str, Any], strategy: str, content: Any = None
) -> list[Any]:
    """One bot per seat: ``random`` (seeded from the game's seed and the seat) or ``heuristic``."""
    if kind == "random":
        return [RandomMaidenBot(seed * 10 + seat) for seat in range(players)]
    if kind != "heuristic":
        raise ValueError(f"unknown bot {kind!r}: random or heuristic")
    return [MaidenBot(strategy, settings, content=content) for _ in range(players)]


def bots_named(names: Sequence[str], seed: int, settings: Mapping[str, Any]) -> list[Any]:
    """One bot per seat from its registry name (``heuristic:piety-first``, ``random``, ...; see
    :func:`delve.bots.named`): seats may follow different strategies. A random seat draws from
    the game's seed and its seat, as in :func:`make_bots`.

    :raises delve.bots.UnknownBot: naming an unknown bot or strategy.
    """
    from delve.bots import named

    return [named("maiden", name, seed=seed * 10 + seat, settings=settings) for seat, name in enumerate(names)]


def play_game(
    players: int,
    seed: int,
    *,
    bots: Sequence[Any] | None = None,
    bot: str = "heuristic",
    strategy: str = "will_first",
    settings: Mapping[str, Any] | None = None,
    ruleset: MaidenRuleset | None = None,
    keep_events: bool = False,
    on_command: Callable[[Any, int, dict[str, Any], list[Event]], None] | None = None,
    on_legal: Callable[[Any, int, list[dict[str, Any]]], None] | None = None,
    bot_names: Sequence[str] | None = None,
) -> GameRecord:
    """Play one game to its end with one bot per seat (seats take their turns in the game's
    order): ``bots``, else one bot per name of ``bot_names`` (:func:`bots_named`), else ``bot``
    with ``strategy`` at every seat. ``on_legal(game, seat, legal)`` sees every decision before it
    is taken and ``on_command(game, seat, command, events)`` every command applied (a measuring
    harness reads the game there; the bots never do).

    :raises Stuck: when the bots cannot finish the game.
    """
    ruleset = ruleset or MaidenRuleset()
    overrides = {"players": players, **dict(settings or {})}
    game = ruleset.setup(overrides, [SeatInfo(NAMES[i]) for i in range(players)], seed, T0)
    public = ruleset.validate_settings(overrides)
    if bots is not None:
        seats = list(bots)
    elif bot_names is not None:
        seats = bots_named(bot_names, seed, public)
    else:
        seats = make_bots(bot, players, seed, public, strategy, ruleset.content)
    # the events of the setup itself (the start player), which setup does not return
    events = journal.started(game) if keep_events else []
    recorder = Recorder(ruleset, game)  # the bots' views show the recent events, kept from the events
    count = 0
    for count in range(COMMAND_LIMIT):  # noqa: B007 (the count is reported)
        if game.ended:
            break
        seat = waiting_seat(game)
        if seat is None:
            raise Stuck(f"seed {seed}: nobody is to act at step {game.step!r}")
        legal = ruleset.legal_commands(game, seat)
        if on_legal is not None:
            on_legal(game, seat, legal)
        if len(legal) == 1:
            command = legal[0]  # no choice to make: the bot is not asked
        else:
            command = seats[seat].choose(recorder.view(game, seat), legal)
        if command is None:
            raise Stuck(f"seed {seed}: seat {seat} had nothing to play among {legal!r}")
        applied = recorder.record(ruleset.apply(game, seat, command, game.clock))
        if keep_events:
            events.extend(applied)
        if on_command is not None:
            on_command(game, seat, command, applied)
    else:
        raise Stuck(f"seed {seed}: the game did not end within {COMMAND_LIMIT} commands")
    outcome = ruleset.outcome(game)
    summary = dict(outcome.stats.get(0, {}))
    return GameRecord(players, seed, game.result == "won", game.round, count, summary, events, game)


# ---------------------------------------------------------------------------------------------
# Win rates
# ---------------------------------------------------------------------------------------------


@dataclass
class Row:
    """One player count's results over the games that finished (``errors``: the others)."""

    players: int
    games: int
    wins: int
    rounds: float
    bosses: float
    areas: float
    deaths: float
    errors: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def line(self) -> str:
        if not self.games:
            return f"{self.players:>7} {0:>6} {0:>5}  no game finished"
        low, high = wilson(self.wins, self.games)
        return (
            f"{self.players:>7} {self.games:>6} {self.wins:>5} {100 * self.rate:>6.1f}%"
            f"  [{100 * low:5.1f}%, {100 * high:5.1f}%]"
            f" {self.rounds:>7.1f} {self.bosses:>7.2f} {self.areas:>6.1f} {self.deaths:>6.1f}"
        )


HEADER = "players  games  wins   rate   95% Wilson interval  rounds  bosses  areas deaths"


Result = tuple[int, bool, int, int, int, int, str]
"""players, won, rounds, bosses defeated, areas freed, deaths, error ("" when the game finished)."""


def _one(job: tuple[int, int, str, str, tuple[tuple[str, Any], ...]]) -> Result:
    players, seed, bot, strategy, settings = job
    try:
        record = play_game(players, seed, bot=bot, strategy=strategy, settings=dict(settings), ruleset=MaidenRuleset())
    except Exception as exc:  # noqa: BLE001 (any failure is reported with its seed, not hidden)
        return (players, False, 0, 0, 0, 0, f"seed {seed}: {type(exc).__name__}: {exc}")
    s = record.summary
    return (
        players,
        record.won,
        record.rounds,
        int(s.get("bosses_defeated", 0)),
        int(s.get("areas_freed", 0)),
        int(s.get("deaths", 0)),
        "",
    )


def measure(
    player_counts: Sequence[int],
    games: int,
    *,
    first_seed: int = 1,
    processes: int = 2,
    bot: str = "heuristic",
    strategy: str = "will_first",
    settings: Mapping[str, Any] | None = None,
    on_result: Callable[[Result], None] | None = None,
) -> list[Row]:
    """Play ``games`` seeded games at each player count (over ``processes`` processes); games
    are dealt seed by seed across the player counts, and ``on_result`` sees each one as it ends."""
    frozen = tuple(sorted((settings or {}).items()))
    jobs = [(p, seed, bot, strategy, frozen) for seed in range(first_seed, first_seed + games) for p in player_counts]
    results: list[Result] = []
    if processes > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(processes) as pool:
            for result in pool.imap_unordered(_one, jobs, chunksize=2):
                results.append(result)
                if on_result is not None:
                    on_result(result)
    else:
        for job in jobs:
            results.append(_one(job))
            if on_result is not None:
                on_result(results[-1])
    return rows_of(player_counts, results)


def rows_of(player_counts: Sequence[int], results: Sequence[Result]) -> list[Row]:
    """One row per player count from the games' results."""
    rows = []
    for p in player_counts:
        mine = [r for r in results if r[0] == p and not r[6]]
        n = max(1, len(mine))
        rows.append(
            Row(
                players=p,
                games=len(mine),
                wins=sum(1 for r in mine if r[1]),
                rounds=sum(r[2] for r in mine) / n,
                bosses=sum(r[3] for r in mine) / n,
                areas=sum(r[4] for r in mine) / n,
                deaths=sum(r[5] for r in mine) / n,
                errors=[r[6] for r in results if r[0] == p and r[6]],
            )
        )
    return rows


def _parse_setting(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key.strip(), value.strip()


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1")
    return value


def _players(text: str) -> list[int]:
    try:
        counts = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of player counts like 1,2,3,4") from None
    if not counts or any(not 1 <= p <= 4 for p in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: player counts are 1 to 4")
    return counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games",
        type=_positive,
        default=500,
        help="games per player count (default 500: about 90 minutes for the four player counts on 2 processes)",
    )
    parser.add_argument("--players", type=_players, default=[1, 2, 3, 4], help="player counts, e.g. 2 or 1,3")
    parser.add_argument("--first-seed", type=_positive, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--processes", type=_positive, default=2, help="worker processes (default 2)")
    parser.add_argument("--bot", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--strategy", choices=STRATEGIES, default="will_first", help="growth strategy")
    parser.add_argument(
        "--set", type=_parse_setting, action="append", default=[], metavar="KEY=VALUE", help="a game setting"
    )
    parser.add_argument("--log", metavar="FILE", help="also write one JSON line per finished game to FILE")
    parser.add_argument("--quiet", action="store_true", help="no progress line (games done, games/s, ETA) on stderr")


def setup_error(player_counts: Sequence[int], settings: Mapping[str, Any]) -> tuple[str, str] | None:
    """Why games with these ``--set`` settings cannot be played at one of ``player_counts``, as
    ``(option, reason)`` for a one-line error, or None: ``players`` is the command's own option,
    and every other setting is checked by setting one game up at each player count, as every
    game will be (unknown or invalid values, combinations such as a start player beyond the
    seats or more familiars than the content has). Nothing is played."""
    from delve.kernel import SettingsError

    if "players" in settings:
        return "--set", f"players={settings['players']}: the player count is given by --players, not by --set"
    ruleset = MaidenRuleset()
    errors: dict[int, str] = {}
    for players in player_counts:
        try:
            ruleset.setup({**settings, "players": players}, [SeatInfo(NAMES[i]) for i in range(players)], 1, T0)
        except SettingsError as exc:
            errors[players] = str(exc)
    if not errors:
        return None
    reason = next(iter(errors.values()))
    if len(errors) < len(player_counts):  # wrong only at some player counts: say which
        reason += f" (with --players {','.join(map(str, errors))})"
    return "--set", reason


def run(args: argparse.Namespace) -> int:
    settings = dict(args.set)
    refused = setup_error(args.players, settings)
    if refused is not None:
        print(f"delve maiden eval: error: argument {refused[0]}: {refused[1]}", file=sys.stderr)
        return 2
    from delve.sim.runner import Progress

    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 (closed below)
    bar = Progress(len(args.players) * args.games, stream=sys.stderr, enabled=not getattr(args, "quiet", False))

    def record(result: Result) -> None:
        if log is not None:
            keys = ("players", "won", "rounds", "bosses", "areas", "deaths", "error")
            log.write(json.dumps(dict(zip(keys, result, strict=True))) + "\n")
            log.flush()
        bar.advance()

    try:
        rows = measure(
            args.players,
            args.games,
            first_seed=args.first_seed,
            processes=args.processes,
            bot=args.bot,
            strategy=args.strategy,
            settings=settings,
            on_result=record,
        )
        bar.close()
    finally:
        if log is not None:
            log.close()
    label = args.bot if args.bot == "random" else f"heuristic ({args.strategy})"
    extra = " ".join(f"{k}={v}" for k, v in settings.items())
    print(
        f"White Maiden win rates: {label} bots, seeds {args.first_seed}..{args.first_seed + args.games - 1}"
        + (f", {extra}" if extra else "")
    )
    print(HEADER)
    for row in rows:
        print(row.line())
    failed = [(row.players, error) for row in rows for error in row.errors]
    for players, error in failed[:10]:
        print(f"error: {players} players, {error}", file=sys.stderr)
    if failed:
        print(f"{len(failed)} game(s) could not be finished (not counted above)", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m delve.bots.maiden_eval", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
