"""Exports of finished games and their verification: pure Python (no Django), so that
``delve verify EXPORT.json`` runs anywhere the rulesets are installed.

Verifiable dice: a game's seed is drawn when it is created and its SHA-256 (:func:`seed_hash`, of
the seed's decimal text: ``printf %s SEED | sha256sum``) is public from the start; the seed itself
is revealed when the game ends. Because the engines take time and chance only as inputs, the
settings, seats, seed and command log (with times) determine every event: :func:`verify` replays
an export exactly as the server applied it (:func:`steps`) and confirms the hash of the seed, every
event and the final state, or says what differs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from delve.kernel import (
    DelveError,
    Event,
    EventFields,
    GameOutcome,
    Ruleset,
    SeatInfo,
    can_close,
    get_ruleset,
    state_hash,
)

FORMAT = "delve-export/1"


def seed_hash(seed: int) -> str:
    """The public commitment to a seed: SHA-256 of its decimal text."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def public_outcome(outcome: GameOutcome) -> dict[str, Any]:
    """The winners and each seat's result word: public once the game has ended."""
    return {
        "winners": list(outcome.winners),
        "results": {str(index): word for index, word in sorted(outcome.results.items())},
    }


#: The events the server writes itself (not a ruleset's), and what they may tell.
SERVER_EVENTS = EventFields(
    {
        "game.started": ("seats",),
        "game.ended": ("winners", "results"),
        "game.closed": ("reason",),
        "order.fired": ("rule", "command"),
        "seat.taken_over": ("seat",),
        "seat.reclaimed": ("seat",),
        "seat.left": ("seat",),
        "seat.handed_over": ("seat",),
    }
)


def own_event(kind: str, data: Mapping[str, Any]) -> bool:
    """Whether the server wrote this event itself (not the ruleset): a kind of
    :data:`SERVER_EVENTS` with exactly the server's fields (a ruleset may have its own
    ``game.started`` or ``game.ended``, with other fields)."""
    return kind in SERVER_EVENTS.kinds() and data.keys() == SERVER_EVENTS.allowed(kind)


def started_event(names: Sequence[str], now: int) -> Event:
    """The server's own first event of a game."""
    return Event(kind="game.started", time=now, data={"seats": list(names)})


#: Command-log sources of a change of who plays a seat (no command: the seat's row changed) and
#: the public event each writes: a bot taking an idle seat over (the host's takeover time,
#: ``games.bots.take_over_idle``), the seat's player taking it back (``games.bots.reclaim``), a
#: player leaving the table to a bot (``games.bots.leave``), or another player handing a seat
#: that kept the game waiting long to a bot (``games.bots.hand_over``).
SEAT_CHANGES = {
    "takeover": "seat.taken_over",
    "reclaim": "seat.reclaimed",
    "leave": "seat.left",
    "handover": "seat.handed_over",
}


def seat_event(source: str, seat: int, now: int) -> Event:
    """The server's public event for a change of who plays ``seat`` (``source`` one of
    :data:`SEAT_CHANGES`): its log entry alone makes it again on replay."""
    return Event(kind=SEAT_CHANGES[source], time=now, data={"seat": seat})


CLOSE = "close"
"""The command-log source of an operator closing a running game (``games.engine.close``): no
seat; its command is ``{"kind": "close", "reason": ...}``, the reason the players are told."""


def closed_event(reason: str, now: int) -> Event:
    """The server's public event of an operator closing the game, with the reason the players
    are told; the ruleset's ``close`` then ends the game (its log entry makes both again on
    replay)."""
    return Event(kind="game.closed", time=now, data={"reason": reason})


def close_reason(command: Mapping[str, Any] | None) -> str:
    """The reason in a closing entry's command (empty if it has none)."""
    reason = (command or {}).get("reason")
    return reason if isinstance(reason, str) else ""


ORDER_KEY = "order:"
"""Idempotency keys of commands sent by a standing order start so: ``order:<rule>:<version>``."""


def order_of(key: str | None) -> str | None:
    """The standing order's rule named in an idempotency key, if the key is an order's."""
    if key is None or not key.startswith(ORDER_KEY):
        return None
    return key[len(ORDER_KEY) :].split(":", 1)[0] or None


def order_event(rule: str, command: Mapping[str, Any], seat: int, now: int) -> Event:
    """The server's note that a standing order (not the player) answered: only that seat sees it."""
    return Event(kind="order.fired", time=now, data={"rule": rule, "command": dict(command)}, to=(seat,))


@dataclass
class LogEntry:
    """One entry of a game's command log: a player's command (``seat`` and ``command``), the
    screen-opening command (``source`` ``"open"``), a clock advance (neither), or a change of who
    plays a seat (``source`` one of :data:`SEAT_CHANGES`, with its ``seat``, no command)."""

    time: int
    seat: int | None = None
    command: dict[str, Any] | None = None
    source: str = "player"
    order: str | None = None
    """The standing order that sent the command, if one did (``order.fired`` precedes it)."""


@dataclass
class Step:
    """The game after ``index`` log entries (0: as set up) and the events that entry produced."""

    index: int
    entry: LogEntry | None
    events: list[Event]
    state: Any
    ended: bool = False


def steps(
    ruleset: Ruleset[Any],
    settings: Mapping[str, Any],
    seats: Sequence[SeatInfo],
    seed: int,
    start: int,
    log: Sequence[LogEntry],
) -> Iterator[Step]:
    """Replay a game entry by entry, exactly as the server applied it (``games.engine``): a
    running game's clock is advanced to each entry's time, then its command applied (or, for a
    change of who plays a seat, its event added; for an operator closing the game, the server's
    ``game.closed`` and the ruleset's ``close``); a game that has ended takes only comments; the
    end adds the server's ``game.ended`` event. The state is one object, changed in place from
    step to step.

    :raises IllegalCommand: when a logged command is not legal on replay.
    :raises DelveError: when the log closes a game of a ruleset that cannot be closed.
    """
    state = ruleset.setup(settings, seats, seed, start)
    yield Step(0, None, [started_event([seat.name for seat in seats], start)], state)
    ended = False
    for index, entry in enumerate(log, 1):
        events: list[Event] = [] if ended else ruleset.advance(state, entry.time)
        if entry.seat is not None and entry.command is not None:
            if entry.order is not None:
                events.append(order_event(entry.order, entry.command, entry.seat, entry.time))
            events += ruleset.apply(state, entry.seat, entry.command, entry.time)
        elif entry.seat is not None and entry.source in SEAT_CHANGES and not ended:
            events.append(seat_event(entry.source, entry.seat, entry.time))
        elif entry.source == CLOSE and not ended:
            events.append(closed_event(close_reason(entry.command), entry.time))
            events += closer(ruleset)(state, entry.time)
        if not ended:
            outcome = ruleset.outcome(state)
            if outcome.ended:
                ended = True
                events.append(Event(kind="game.ended", time=entry.time, data=public_outcome(outcome)))
        yield Step(index, entry, events, state, ended)


def closer(ruleset: Ruleset[Any]) -> Callable[[Any, int], list[Event]]:
    """The ruleset's ``close`` (see :func:`delve.kernel.can_close`).

    :raises DelveError: ``game/cannot_close`` when it has none."""
    if not can_close(ruleset):
        raise DelveError(f"the rules of {ruleset.name} have no way to close a game", code="game/cannot_close")
    found: Callable[[Any, int], list[Event]] = ruleset.close  # type: ignore[attr-defined]
    return found


def event_record(event: Event) -> dict[str, Any]:
    """An event as an export holds it (data through JSON, so tuples and lists compare equal)."""
    return {
        "time": event.time,
        "kind": event.kind,
        "data": json.loads(json.dumps(dict(event.data))),
        "to": None if event.to is None else sorted(set(event.to)),
    }


@dataclass
class Verdict:
    ok: bool
    problems: list[str] = field(default_factory=list)
    commands: int = 0
    events: int = 0
    summary: str = ""


def _refuse(problem: str) -> Verdict:
    return Verdict(ok=False, problems=[problem])


def _earlier_format(ruleset: Ruleset[Any], state: Any, events: list[Event], export: Mapping[str, Any]) -> bool:
    """Whether the export's final-state hash is that of the replayed state in a format the ruleset
    stored earlier (``earlier_state_hashes(state, events)``, from the ruleset's own events): an
    export made before a change of the stored format still verifies."""
    earlier = getattr(ruleset, "earlier_state_hashes", None)
    return earlier is not None and export.get("final_state_sha256") in earlier(state, events)


def verify(export: Mapping[str, Any]) -> Verdict:
    """Replay an export and compare: the seed against its published hash, each event against the
    replay's, the final state's hash. The first difference refuses the export."""
    try:
        if export.get("format") != FORMAT:
            return _refuse(f"not a {FORMAT} export (format {export.get('format')!r})")
        game, seed = export["game"], export["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            return _refuse(f"the seed must be an integer, not {seed!r}")
        if seed_hash(seed) != export["seed_sha256"]:
            return _refuse(
                f"the seed {seed} does not match the SHA-256 published from the start ({export['seed_sha256']})"
            )
        ruleset = get_ruleset(game["ruleset"])
        seats = [SeatInfo(name=seat["name"], options=dict(seat["options"])) for seat in export["seats"]]
        log = [
            LogEntry(
                time=int(c["time"]),
                seat=c.get("seat"),
                command=c.get("command"),
                source=c.get("source", ""),
                order=c.get("order"),
            )
            for c in export["commands"]
        ]
        expected = list(export["events"])
    except (KeyError, TypeError, ValueError) as exc:
        return _refuse(f"the export is incomplete or malformed: {type(exc).__name__} {exc}")
    except DelveError as exc:
        return _refuse(str(exc))
    produced: list[dict[str, Any]] = []
    own: list[Event] = []  # the ruleset's events (for a state hash of an earlier format)
    final = None
    try:
        for step in steps(ruleset, game["settings"], seats, seed, int(game["started_at"]), log):
            produced.extend(event_record(event) for event in step.events)
            own.extend(event for event in step.events if not own_event(event.kind, event.data))
            final = step
    except DelveError as exc:
        return _refuse(f"the command log does not replay: {exc}")
    except (KeyError, TypeError, ValueError) as exc:
        return _refuse(f"the export is malformed: {type(exc).__name__} {exc}")
    for index, (want, got) in enumerate(zip(expected, produced, strict=False), 1):
        mine = {key: want.get(key) for key in ("time", "kind", "data", "to")}
        if mine != got:
            return _refuse(
                f"event {index} differs: the export says {json.dumps(mine)}, the replay gives {json.dumps(got)}"
            )
    if len(expected) != len(produced):
        return _refuse(f"the export has {len(expected)} events, the replay gives {len(produced)}")
    assert final is not None
    if not final.ended:
        return _refuse("the replayed game has not ended: only finished games are exported")
    digest = state_hash(ruleset, final.state)
    if digest != export.get("final_state_sha256") and _earlier_format(ruleset, final.state, own, export):
        digest = str(export["final_state_sha256"])  # the same state, stored in an earlier format
    if digest != export.get("final_state_sha256"):
        return _refuse(f"the final state's SHA-256 is {digest}, the export says {export.get('final_state_sha256')}")
    return Verdict(
        ok=True,
        commands=len(log),
        events=len(produced),
        summary=(
            f"game {game.get('id')} ({game['ruleset']}/{game.get('preset')}): the seed {seed} matches its published "
            f"SHA-256 {export['seed_sha256']}; {len(log)} log entries replay to the same {len(produced)} events "
            f"and the same final state ({digest[:16]}…)"
        ),
    )
