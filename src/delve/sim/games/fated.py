"""Fated Labyrinth and Level D played to the end by bots, for the simulation runner.

A game is set up with the preset's own settings (its real turn time, so that the length of a
game reads in real days) plus the spec's overrides; every seat's class is drawn from the seed
(or given by the ``classes`` setting, one per seat or one for all). The players act as soon as
they can: each round every seat that has something to play is asked once (seat order, or with
the ``ask_order=rotating`` setting starting one seat later each round), the clock moving on a few
seconds per round; when nobody has anything to play the clock jumps to the
game's next due instant (``Ruleset.next_due``), where turns accumulate.

The bots see only their seat's view and legal commands. The runner reads the engine's events
(all of them: it is the referee, not a player) and the final state to fill the row.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from delve.bots import Bot, named
from delve.fated import content
from delve.fated.ruleset import FatedRuleset
from delve.fated.state import BOTTOM_LEFT, BOTTOM_RIGHT, TOP_LEFT, TOP_RIGHT, GameState
from delve.kernel import Event, Recorder, Rng, SeatInfo, SettingsError
from delve.sim.spec import GameSpec, SpecError

PRESETS = ("fated-labyrinth", "level-d")
#: The preset of a spec that names none.
DEFAULT_PRESET = PRESETS[0]
T0 = 1_800_000_000
#: Seconds the clock moves on per round in which someone played.
ROUND_SECONDS = 5
#: A game still running after this many commands is reported as "unfinished".
COMMAND_LIMIT = 60_000
#: Commands that mean "do nothing" to the runner: a seat with only these has nothing to play.
IDLE = frozenset({"give_up", "comment"})
ALL_CORNERS = TOP_LEFT | TOP_RIGHT | BOTTOM_LEFT | BOTTOM_RIGHT
#: Settings of the runner, not of the game: the seats' classes and the order in which the seats
#: are asked each round ("seat": seat 1 first every round; "rotating": round r starts at seat r).
RUNNER_SETTINGS = frozenset({"classes", "ask_order"})
ASK_ORDERS = ("seat", "rotating")
_RULESET = FatedRuleset()


def classes_for(spec: GameSpec, seats: int) -> list[str]:
    """The class of each seat: the ``classes`` setting (a list or a comma-separated text, one
    for every seat or a single one for all), else drawn uniformly from the seed."""
    known = list(content.load().classes)
    given = dict(spec.settings).get("classes")
    if given is None:
        rng = Rng.seeded(spec.seed * 7919 + 104_729)
        return [rng.choice(known) for _ in range(seats)]
    names = [c.strip() for c in given.split(",")] if isinstance(given, str) else [str(c) for c in given]
    unknown = [c for c in names if c not in known]
    if unknown:
        raise SpecError("settings", f"classes: unknown class {unknown[0]!r}; known: {', '.join(known)}")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise SpecError("settings", f"classes: {len(names)} classes for {seats} seats")
    return names


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` (bots with an RNG of their own)."""
    return seed * 1_000_003 + seat * 7_919 + 1


def death_cause(cause: str, hit: dict[str, Any] | None) -> str:
    """A death's cause, as precise as the events say: ``trap:<card>``, ``card:<card>``,
    ``monster:<kind>``, ``attack`` (a player's normal attack), ``poison``, ``abandoned``..."""
    if cause in ("poison", "abandoned") or hit is None:
        return cause
    if hit.get("label") == "trap" or hit.get("use") == "trap":
        return f"trap:{hit.get('card', '?')}"
    if hit.get("card"):
        return f"card:{hit['card']}"
    if hit.get("monster"):
        return f"monster:{hit['monster']}"
    if hit.get("label") == "normal":
        return "attack"
    return str(hit.get("label") or cause)


def victory(game: GameState) -> str:
    """escape-A, escape-B (FL-WIN-1/2), survivor (FL-WIN-6), none, or unfinished."""
    if not game.ended:
        return "unfinished"
    if game.win_kind == "escape" and game.winner is not None:
        return "escape-B" if game.players[game.winner].visited == ALL_CORNERS else "escape-A"
    return game.win_kind or "none"


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class _Tally:
    """What the runner records from the engine's events and the commands played."""

    def __init__(self, seats: int, preset: str) -> None:
        self.preset = preset
        self.last_hit: dict[int, dict[str, Any]] = {}
        self.causes: dict[int, str] = {}
        self.cards: list[Counter[str]] = [Counter() for _ in range(seats)]
        self.kinds: Counter[str] = Counter()
        self.commands = [0] * seats
        self.brink = 0
        self.treasures = 0

    def events(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "defense.result":
                self.last_hit[int(event.data["defender"])] = dict(event.data)
            elif event.kind == "player.died":
                seat = int(event.data["player"])
                self.causes[seat] = death_cause(str(event.data.get("cause", "")), self.last_hit.get(seat))
            elif event.kind == "death.survived":
                self.brink += 1
            elif event.kind == "treasure.found":
                self.treasures += 1

    def command(self, seat: int, command: dict[str, Any]) -> None:
        kind = str(command["kind"])
        self.kinds[kind] += 1
        self.commands[seat] += 1
        if kind in ("use_card", "defend"):
            self.cards[seat][content.load().card(int(command["card"]), self.preset).id] += 1


def seat_count(preset: str | None, settings: dict[str, Any]) -> int:
    """How many seats a game of ``preset`` with these overrides has (``classes`` is ours, not
    the ruleset's).

    :raises SpecError: for an unknown preset or an invalid setting.
    """
    return _settings(preset, settings)[2]


def _settings(preset: str | None, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], int]:
    preset = preset or DEFAULT_PRESET
    if preset not in PRESETS:
        raise SpecError("preset", f"unknown preset {preset!r} of fated; known: {', '.join(PRESETS)}")
    overrides = {k: v for k, v in settings.items() if k not in RUNNER_SETTINGS}
    overrides["preset"] = preset
    try:
        public = _RULESET.validate_settings(overrides)
    except SettingsError as exc:
        raise SpecError("settings", str(exc)) from None
    return overrides, public, _RULESET.seat_count(overrides)


def ask_order(spec: GameSpec) -> str:
    """The ``ask_order`` setting: "seat" (the default) or "rotating".

    :raises SpecError: for any other value.
    """
    order = str(dict(spec.settings).get("ask_order", ASK_ORDERS[0]))
    if order not in ASK_ORDERS:
        raise SpecError("settings", f"ask_order: {order!r} is not one of {', '.join(ASK_ORDERS)}")
    return order


def _prepare(spec: GameSpec) -> tuple[dict[str, Any], list[str], list[Bot]]:
    ask_order(spec)
    overrides, public, seats = _settings(spec.preset, spec.settings_dict())
    if len(spec.bots) != seats:
        raise SpecError("bots", f"{len(spec.bots)} bots for the {seats} seats of a {overrides['preset']} game")
    classes = classes_for(spec, seats)
    try:
        bots = [
            named("fated", name, seed=bot_seed(spec.seed, seat), settings=public) for seat, name in enumerate(spec.bots)
        ]
    except ValueError as exc:
        raise SpecError("bots", str(exc)) from None
    return overrides, classes, bots


def check(spec: GameSpec) -> None:
    """Refuse a spec this game cannot play, before any game is played.

    :raises SpecError: naming the preset, the settings or the bots.
    """
    _prepare(spec)


def play(spec: GameSpec) -> dict[str, Any]:
    """Play the game of ``spec`` to its end (or :data:`COMMAND_LIMIT`) and return its row.

    :raises SpecError: for a preset, a setting, a seat count or a bot the game does not have.
    """
    started = time.perf_counter()
    overrides, classes, bots = _prepare(spec)
    seats = len(bots)
    preset = str(overrides["preset"])
    infos = [SeatInfo(f"p{s + 1}", {"class": cls, "image": cls}) for s, cls in enumerate(classes)]
    game = _RULESET.setup(overrides, infos, spec.seed, T0)
    recorder = Recorder(_RULESET, game)
    tally = _Tally(seats, preset)
    now = T0
    played = 0
    rotating = ask_order(spec) == "rotating"
    rounds = 0
    while played < COMMAND_LIMIT and not _over(game):
        count = _round(game, bots, tally, recorder, now, first=rounds % seats if rotating else 0)
        rounds += 1
        played += count
        if _over(game):
            break
        if count:
            now += ROUND_SECONDS
        else:
            due = _RULESET.next_due(game)
            if due is None:
                break
            now = max(now + 1, due)
        tally.events(recorder.record(_RULESET.advance(game, now)))
    return _row(spec, game, tally, classes, played, now, time.perf_counter() - started)


def _over(game: GameState) -> bool:
    return game.ended


def _round(game: GameState, bots: list[Bot], tally: _Tally, recorder: Recorder, now: int, first: int = 0) -> int:
    """Every seat with something to play is asked once, in seat order from seat ``first`` on
    (wrapping round); the commands played. The bots' views show the recent events the recorder
    kept from the engine's events."""
    played = 0
    for k in range(len(bots)):
        seat = (first + k) % len(bots)
        bot = bots[seat]
        legal = _RULESET.legal_commands(game, seat)
        if all(c["kind"] in IDLE for c in legal):
            continue
        command = bot.choose(recorder.view(game, seat), legal)
        if command is None:
            continue
        tally.events(recorder.record(_RULESET.apply(game, seat, command, now)))
        tally.command(seat, command)
        played += 1
        if _over(game):
            break
    return played


def _row(
    spec: GameSpec, game: GameState, tally: _Tally, classes: list[str], played: int, now: int, seconds: float
) -> dict[str, Any]:
    winner = game.winner
    ended_at = game.ended_at if game.ended_at is not None else now
    players = []
    for p in game.players:
        players.append(
            {
                "seat": p.seat,
                "class": p.cls,
                "bot": spec.bots[p.seat],
                "won": p.seat == winner,
                "fate": p.fate or ("alive" if p.alive else "died"),
                "cause": tally.causes.get(p.seat, ""),
                "turns": p.turns_played,
                "commands": tally.commands[p.seat],
                "kills": p.kills,
                "treasures": p.treasures,
                "corners": bin(p.visited).count("1"),
                "cards": dict(sorted(tally.cards[p.seat].items())),
            }
        )
    cards: Counter[str] = Counter()
    for counter in tally.cards:
        cards.update(counter)
    return {
        **spec.common(),
        "preset": game.settings.preset,
        "winner": "" if winner is None else str(winner),
        "outcome": victory(game),
        "turns": max((p.turns_played for p in game.players), default=0),
        "commands": played,
        "seconds": round(seconds, 4),
        "classes": ",".join(classes),
        "winner_class": "" if winner is None else classes[winner],
        "winner_bot": "" if winner is None else spec.bots[winner],
        "wait_time": game.settings.wait_time,
        "days": round((ended_at - T0) / 86_400, 4),
        "deaths": sum(1 for p in game.players if p.fate in ("died", "abandoned")),
        "death_causes": _json(dict(Counter(tally.causes.values()))),
        "kills": sum(p.kills for p in game.players),
        "treasures_found": tally.treasures,
        "brink_survivals": tally.brink,
        "cards_used": _json(dict(cards)),
        "command_kinds": _json(dict(tally.kinds)),
        "players": _json(players),
    }


def report(rows: list[dict[str, Any]], directory: Path) -> Path:
    """``directory/report.html`` (and its charts) for these rows."""
    from delve.sim import fated_report

    return fated_report.write(rows, directory)


def summary_lines(rows: list[dict[str, Any]]) -> list[str]:
    """A few lines for the terminal."""
    from delve.sim import fated_report

    return fated_report.lines(rows)
