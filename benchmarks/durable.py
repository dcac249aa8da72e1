"""The cost of a durable command: ``engine.submit`` on the project's SQLite backend against the raw
ruleset (``advance`` + ``apply``) of the same commands, and durable commands per second against a
raw SQLite commit loop writing the same rows with the same durability settings, measured in one
run (this machine is noisy: compare the ratios, not the seconds).

    .venv/bin/python benchmarks/durable.py [--rounds 7] [--commands 150]

Each round plays fresh games through ``engine.submit`` (a 4-player Fated Labyrinth game on a
13x13 maze and a solo White Maiden game, commands chosen at random among the legal ones outside
the timer, each with an idempotency key, on a clock that moves one second per command), then
replays the same commands at the same times on the bare ruleset, then commits the rows that round
wrote (the state, the command entry with its answer, the events) again with plain ``sqlite3`` in
a database opened with the backend's pragmas (WAL journal, ``synchronous=FULL`` unless
``DELVE_SQLITE_SYNC=normal``: each commit synced to the disk; the log checkpointed by a commit
only past the backstop). The server's log is checkpointed in a
background thread, as ``delve serve`` does (``delve.server.sqlite_backend.checkpoint``); the raw
loop's, a fresh copy each round, never grows to a checkpoint. Printed per
game: the median over rounds of the submit / raw-apply ratio (target <= 8) and of durable
commands/s / raw commits/s (target >= 0.25), and the SQL statements per durable command (BEGIN
included, as Django sends them). The statements are counted in one more round, untimed, that
plays the commands of the first round again: counting inside the timed rounds would run every
statement through Django's debug cursor (its SQL formatting and logging), which no server does.

``--parts`` then plays as many rounds again with a timer around each part of a command and prints
where a command's time goes (microseconds a command, the median over those rounds): the views of
every audience and their digests, the lock, the inserts, the game's update, the transaction
around the command (Django's ``atomic``, ``BEGIN IMMEDIATE``, the commit and its hooks) and the
rest (the clock, the apply, the state's encoding, the answer). The timers add a little to each
part: read these rounds for the shares, the rounds above for the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run as a script, this file's folder would come first on the path, and its http.py would shadow
# the standard library's ``http``: take the folder off.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

#: Commands a random player never picks: giving up ends the seat, comments are rate-limited.
AVOID = {"give_up", "comment"}

GAMES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "Fated Labyrinth 4p 13x13": ("fated", "fated-labyrinth", {"players": 4, "maze_size": 13, "wait_time": 10}),
    "White Maiden solo": ("maiden", "white-maiden", {"players": 1, "start_player": 0}),
}


def setup_django(data_dir: Path) -> None:
    os.environ.pop("DATABASE_URL", None)
    os.environ["DELVE_DATA_DIR"] = str(data_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
    os.environ.setdefault("DELVE_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core import management

    management.call_command("migrate", interactive=False, verbosity=0)


class Clock:
    """The server clock of the benchmark: one second per command."""

    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t


@dataclass
class Round:
    submit_seconds: float = 0.0
    raw_seconds: float = 0.0
    commit_seconds: float = 0.0
    bare_seconds: float = 0.0
    commands: int = 0
    statements: int = 0
    log: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    #: the game row's columns a command changed, as each command left them (by version)
    rows: dict[int, tuple[Any, ...]] = field(default_factory=dict)


def play_round(name: str, commands: int, rng: random.Random, clock: Clock, tag: str, *, count: bool = False) -> Round:
    """Play one game through engine.submit (timed), then the same commands on the bare ruleset
    (timed), then the written rows through a raw sqlite3 commit loop (timed). ``count``: count
    the statements of each submit instead (Django's query capture; the timings are then not
    comparable and are not used)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from delve.server.games import engine
    from delve.server.games.models import Game

    ruleset_name, preset, settings = GAMES[name]
    game = engine.create_game(ruleset_name, preset, settings)
    users = []
    for seat in range(game.seat_count):
        user = get_user_model().objects.create_user(f"{tag}-{seat}", password=None)
        engine.register(game.pk, user, f"P{seat}", {})
        users.append(user)
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    start_state = engine.load_state(game, ruleset)
    started_at = game.started_at
    assert started_at is not None
    out = Round()
    first_version = game.version
    copy = copy_database("raw.sqlite3")
    state = engine.load_state(game, ruleset)
    saved = Game.objects.filter(pk=game.pk).values_list("version", "event_count", "state", "observed", "next_due_at")
    for step in range(commands):
        choices: list[tuple[int, dict[str, Any]]] = []
        for _ in range(600):  # the clock moves on until someone has something to play
            clock.t += 1
            ruleset.advance(state, clock.t)
            choices = [
                (s, c)
                for s in range(game.seat_count)
                for c in ruleset.legal_commands(state, s)
                if c["kind"] not in AVOID
            ]
            if choices:
                break
        if not choices:
            break
        seat, command = rng.choice(choices)
        if count:
            with CaptureQueriesContext(connection) as queries:
                engine.submit(game.pk, users[seat], command, idempotency_key=f"{tag}-{step}")
            out.statements += len(queries.captured_queries)
        else:
            started = time.perf_counter()
            engine.submit(game.pk, users[seat], command, idempotency_key=f"{tag}-{step}")
            out.submit_seconds += time.perf_counter() - started
        row = saved.get()  # untimed: what the raw loop writes for this command
        out.rows[row[0]] = (row[1], row[2], json.dumps(row[3]), row[4])
        ruleset.apply(state, seat, command, clock.t)
        out.log.append((clock.t, seat, command))
        out.commands += 1
        if ruleset.outcome(state).ended:
            break
    # the bare ruleset, the same commands at the same times: a fresh instance, so that nothing the
    # server's calls left in the registered one (White Maiden's legal commands listed by its views
    # hook) helps the raw apply
    bare = type(ruleset)()
    raw = start_state
    started = time.perf_counter()
    for t, seat, command in out.log:
        bare.advance(raw, t)
        bare.apply(raw, seat, command, t)
    out.raw_seconds = time.perf_counter() - started
    out.commit_seconds = raw_commits(game.pk, first_version, copy, out.rows)
    out.bare_seconds = bare_commits(game.pk, first_version, out.rows)
    Game.objects.filter(pk=game.pk).delete()
    return out


def copy_database(name: str) -> Path:
    """A copy of the project's SQLite database as it is now (SQLite's backup API), named ``name``
    beside it: the tables, indexes and rows the raw loop writes into."""
    from django.conf import settings as django_settings

    source = Path(django_settings.DATABASES["default"]["NAME"])
    target = source.with_name(name)
    for leftover in (target, target.with_name(name + "-wal"), target.with_name(name + "-shm")):
        leftover.unlink(missing_ok=True)
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()
    return target


def open_raw(path: Path) -> sqlite3.Connection:
    """``path`` opened with plain sqlite3 and the backend's settings: its pragmas (WAL journal,
    its ``synchronous``) and, as Django's SQLite backend does, foreign keys enforced."""
    from django.conf import settings as django_settings

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    for pragma in django_settings.DATABASES["default"]["OPTIONS"]["init_command"].split(";"):
        db.execute(pragma)
    return db


def written(game_id: int, after_version: int) -> list[tuple[Any, list[Any]]]:
    """What each command of the game wrote, read back: its command entry and its events (as the
    rows' values), in order."""
    from delve.server.games.models import CommandEntry, EventEntry

    entries = list(CommandEntry.objects.filter(game_id=game_id, sequence__gt=after_version).order_by("sequence"))
    by_time: dict[int, list[EventEntry]] = {}
    for event in EventEntry.objects.filter(game_id=game_id).order_by("sequence"):
        by_time.setdefault(event.time, []).append(event)
    return [(entry, by_time.pop(entry.time, [])) for entry in entries]


def event_rows(game_id: int, after: int, events: list[Any]) -> list[tuple[Any, ...]]:
    """The rows of ``events`` (game id, sequence, time, kind, data as JSON text, visibility), their
    sequences following ``after``: what either raw loop inserts."""
    return [
        (game_id, after + number, event.time, event.kind, json.dumps(event.data), event.visibility)
        for number, event in enumerate(events, start=1)
    ]


def command_row(game_id: int, entry: Any) -> tuple[Any, ...]:
    """A command entry's row (game id, sequence, time, seat, source, command and answer as JSON
    text, idempotency key in between): what either raw loop inserts."""
    return (
        game_id,
        entry.sequence,
        entry.time,
        entry.seat,
        entry.source,
        json.dumps(entry.command),
        entry.idempotency_key,
        json.dumps(entry.answer),
    )


def raw_commits(game_id: int, after_version: int, copy: Path, saved: dict[int, tuple[Any, ...]]) -> float:
    """Commit the rows of each command of the game again with plain sqlite3, one transaction per
    command, into ``copy`` (the project's database as it was before the first command, so the
    same tables, indexes and foreign keys): the game row's changed columns, the command entry
    with its answer, its events (``saved``: the game row's changed columns, event count, state,
    observed and next due time, as each command left them, by version). The seconds it took."""
    commands = written(game_id, after_version)
    db = open_raw(copy)
    try:
        sequence = db.execute("SELECT event_count FROM games_game WHERE id = ?", (game_id,)).fetchone()[0]
        started = time.perf_counter()
        for entry, events in commands:
            db.execute("BEGIN IMMEDIATE")
            rows = event_rows(game_id, sequence, events)
            sequence += len(rows)
            if rows:
                db.execute(
                    "INSERT INTO games_evententry (game_id, sequence, time, kind, data, visibility) VALUES "
                    + ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(rows)),
                    [value for row in rows for value in row],
                )
            db.execute(
                "INSERT INTO games_commandentry (game_id, sequence, time, seat, source, command, idempotency_key,"
                " answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                command_row(game_id, entry),
            )
            db.execute(
                "UPDATE games_game SET version = ?, event_count = ?, state = ?, observed = ?, next_due_at = ?"
                " WHERE id = ?",
                (entry.sequence, *saved[entry.sequence], game_id),
            )
            db.execute("COMMIT")
        return time.perf_counter() - started
    finally:
        db.close()


def bare_commits(game_id: int, after_version: int, saved: dict[int, tuple[Any, ...]]) -> float:
    """The same commits into tables of the same columns without the project's indexes and foreign
    keys (one unique sequence per game): what the rows alone cost, printed for reference."""
    from django.conf import settings as django_settings

    commands = written(game_id, after_version)
    path = Path(django_settings.DATABASES["default"]["NAME"]).with_name("bare.sqlite3")
    db = open_raw(path)
    try:
        db.execute("CREATE TABLE IF NOT EXISTS game (id INTEGER PRIMARY KEY, version INTEGER, state TEXT)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS command (id INTEGER PRIMARY KEY, game INTEGER, sequence INTEGER, "
            "time INTEGER, seat INTEGER, source TEXT, command TEXT, key TEXT, answer TEXT, UNIQUE (game, sequence))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS event (id INTEGER PRIMARY KEY, game INTEGER, sequence INTEGER, "
            "time INTEGER, kind TEXT, data TEXT, visibility TEXT, UNIQUE (game, sequence))"
        )
        db.execute("INSERT OR REPLACE INTO game VALUES (?, 0, '')", (game_id,))
        sequence = 0
        started = time.perf_counter()
        for entry, events in commands:
            db.execute("BEGIN IMMEDIATE")
            state = saved[entry.sequence][1]
            db.execute("UPDATE game SET version = ?, state = ? WHERE id = ?", (entry.sequence, state, game_id))
            rows = event_rows(game_id, sequence, events)
            sequence += len(rows)
            if rows:
                db.executemany(
                    "INSERT INTO event (game, sequence, time, kind, data, visibility) VALUES (?, ?, ?, ?, ?, ?)", rows
                )
            db.execute(
                "INSERT INTO command (game, sequence, time, seat, source, command, key, answer)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                command_row(game_id, entry),
            )
            db.execute("COMMIT")
        return time.perf_counter() - started
    finally:
        db.close()


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


#: The parts ``--parts`` times: (label, module, attribute, class or None). Nested ones are
#: subtracted from those around them when printed.
PARTS = (
    ("submit", "delve.server.games.engine", "submit", None),
    ("in the transaction", "delve.server.games.engine", "_submit", None),
    ("digests", "delve.server.games.engine", "view_digests", None),
    ("views", "delve.server.games.engine", "views_of", None),
    ("lock", "delve.server.games.sql", "lock", "Statements"),
    ("command entry", "delve.server.games.sql", "insert_command", "Statements"),
    ("events", "delve.server.games.sql", "insert_events", "Statements"),
    ("game's update", "delve.server.games.sql", "update_game", "Statements"),
)


@contextmanager
def timed_parts() -> Iterator[dict[str, float]]:
    """A timer around each of :data:`PARTS` while inside: the seconds each took in all."""
    import importlib

    totals: dict[str, float] = defaultdict(float)
    undo: list[tuple[Any, str, Any]] = []

    def timer(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        clock = time.perf_counter

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return function(*args, **kwargs)
            finally:
                totals[label] += clock() - started

        return timed

    try:
        for label, module_name, attribute, owner_name in PARTS:
            owner = importlib.import_module(module_name)
            if owner_name is not None:
                owner = getattr(owner, owner_name)
            original = vars(owner)[attribute]  # a class's own function, not a bound method
            undo.append((owner, attribute, original))
            setattr(owner, attribute, timer(label, original))
        yield totals
    finally:
        for owner, attribute, original in reversed(undo):
            setattr(owner, attribute, original)


def parts_line(per_command: dict[str, float]) -> str:
    """Where a command's time goes, in microseconds a command (``per_command``: each part's
    seconds a command, nested parts included in those around them)."""
    us = {label: seconds * 1e6 for label, seconds in per_command.items()}
    inserts = us["command entry"] + us["events"] + us["game's update"]
    own = {
        "views": us["views"],
        "digests": us["digests"] - us["views"],
        "lock": us["lock"],
        "inserts and update": inserts,
        "transaction around it": us["submit"] - us["in the transaction"],
        # the clock, the apply, the state's encoding, the answer, the counters
        "the rest": us["in the transaction"] - us["lock"] - us["digests"] - inserts,
    }
    shown = ", ".join(f"{label} {value:.0f}" for label, value in own.items())
    return f"{us['submit']:.0f} us a command: {shown}"


def run(
    rounds: int, commands: int, report: Callable[[str], None] = print, *, parts: bool = False
) -> dict[str, dict[str, float]]:
    from delve.server import clock as server_clock

    clock = Clock(1_700_000_000)
    server_clock.now = clock  # type: ignore[assignment]
    results: dict[str, dict[str, float]] = {}
    for name in GAMES:
        ratios, shares, bare_shares, per_command, commit_us = [], [], [], [], []
        counted = play_round(name, commands, random.Random(0), clock, f"{name[:2]}c", count=True)
        statements = counted.statements / max(1, counted.commands)
        for r in range(rounds):
            played = play_round(name, commands, random.Random(r), clock, f"{name[:2]}{r}")
            if not played.commands:
                continue
            submit = played.submit_seconds / played.commands
            ratios.append(played.submit_seconds / played.raw_seconds)
            shares.append(played.commit_seconds / played.submit_seconds)
            bare_shares.append(played.bare_seconds / played.submit_seconds)
            per_command.append(submit)
            commit_us.append(played.commit_seconds / played.commands * 1e6)
        results[name] = {
            "submit_ms": median(per_command) * 1000,
            "ratio": median(ratios),
            "share": median(shares),
            "bare_share": median(bare_shares),
            "statements": statements,
        }
        report(
            f"{name}: engine.submit {median(per_command) * 1000:.2f} ms/command, "
            f"{statements:.1f} SQL statements/command; "
            f"submit / raw apply x{median(ratios):.1f} (target <= 8); "
            f"durable commands/s / raw SQLite commits/s {median(shares):.2f} (target >= 0.25; "
            f"a raw commit {median(commit_us):.0f} us; into bare tables without the indexes {median(bare_shares):.2f})"
        )
        if parts:
            rounds_parts: list[dict[str, float]] = []
            for r in range(rounds):
                with timed_parts() as totals:
                    played = play_round(name, commands, random.Random(r), clock, f"{name[:2]}p{r}")
                if played.commands:
                    rounds_parts.append({label: value / played.commands for label, value in totals.items()})
            if rounds_parts:
                middle = {label: median([p.get(label, 0.0) for p in rounds_parts]) for label, *_ in PARTS}
                report(f"{name}, parts (timed apart, median of {len(rounds_parts)} rounds): {parts_line(middle)}")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="games per ruleset (the median is printed)")
    parser.add_argument("--commands", type=int, default=150, help="commands per game at most")
    parser.add_argument(
        "--parts", action="store_true", help="then time each part of a command apart (as many rounds again)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="delve-durable-") as data_dir:
        setup_django(Path(data_dir))
        from delve.server.sqlite_backend.checkpoint import start_for_default_database

        stop = start_for_default_database()  # the log's checkpoints, as ``delve serve`` runs them
        try:
            run(args.rounds, args.commands, parts=args.parts)
        finally:
            if stop is not None:
                stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
