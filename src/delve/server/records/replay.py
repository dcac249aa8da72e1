"""Replays of finished games: the game rebuilt from its command log step by step, with every
event revealed (also the private ones, marked with who saw them), in the reader's language, and
the export (JSON) that ``delve verify`` checks."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from delve.kernel import DelveError, Event, state_hash
from delve.kernel.words import join
from delve.server import usertime
from delve.server.games import closing
from delve.server.games.bots import SEAT_SENTENCES, seat_sentence
from delve.server.games.engine import ruleset_of, seat_infos
from delve.server.games.models import CommandEntry, Game
from delve.server.games.present import preset_label
from delve.server.records.export import export_game
from delve.server.records.verify import CLOSE, LogEntry, Step, order_of, seed_hash, steps


class NotEnded(Exception):
    """A replay or an export of a game still open or running: it opens when the game ends."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.pk)
        self.game = game


def _ended(game_id: int) -> Game:
    game = get_object_or_404(Game, pk=game_id)
    if game.status != Game.Status.ENDED:
        raise NotEnded(game)
    return game


def _not_yet(request: HttpRequest, game: Game) -> HttpResponse:
    """The page a replay or an export of a running game answers (404: there is none yet), saying
    when there will be one and leading back to the game."""
    return render(request, "records/replay_pending.html", {"game": game}, status=404)


def describe(
    game: Game,
    kind: str,
    data: dict[str, Any],
    time: int,
    lang: str,
    names: Sequence[str],
    to: Sequence[int] | None = None,
) -> str:
    """An event as a sentence in ``lang`` with everything revealed (no viewer): the players named
    by their names, a private message (``to``: the seats it was written for) told about them in
    the third person, as the reader is not the one it was written for."""
    if kind == "game.started":
        return _("The game started: %(seats)s.") % {"seats": join(names, lang)}
    if kind == "game.ended" and isinstance(data.get("results"), dict):
        return _ended_sentence(game, data["results"], lang, names)
    if closing.is_closed_event(kind, data):
        return closing.sentence(data.get("reason"), lang)
    if kind in SEAT_SENTENCES and isinstance(data.get("seat"), int):
        seat = data["seat"]
        return seat_sentence(kind, names[seat] if 0 <= seat < len(names) else str(seat + 1), lang)
    if kind == "order.fired":
        return _("The standing order “%(rule)s” answered: %(command)s") % {
            "rule": order_label(game, str(data.get("rule", "")), lang),
            "command": command_text(game, data.get("command"), None, lang),
        }
    if game.ruleset == "fated":
        from delve.fated import text as fated_text

        return fated_text.describe({"kind": kind, "time": time, **data}, lang, game.preset, None, to=to, names=names)
    if game.ruleset == "maiden":
        from delve.maiden import text as maiden_text

        return maiden_text.sentence(kind, data, lang, names=list(names))
    return f"{kind} {json.dumps(data, ensure_ascii=False, sort_keys=True)}"


def order_label(game: Game, rule: str, lang: str) -> str:
    """A standing order's rule (an ``order.fired`` event's, a logged command's ``order``) as
    /me/orders/ names its option, in the preset's words (Level D's ワナ for 罠)."""
    from delve.server.orders.models import rule_label

    label = rule_label(rule)
    if game.ruleset == "fated":
        from delve.fated import text as fated_text

        label = fated_text.vocabulary(label, lang, game.preset)
    return label


def outcome_sentence(game: Game, results: Mapping[str, str], lang: str, names: Sequence[str]) -> str:
    """The end of a game as :func:`_ended_sentence` says it, without its "The game ended:" (the
    "has ended" mail says it in its own words first): "Aldra escaped and won; Bo lost." /
    "Ann, Bo won." In the active language for White Maiden (gettext), in ``lang`` for Fated."""
    return _end_sentence(game, results, lang, names, prefix=False)


def _ended_sentence(game: Game, results: Mapping[str, str], lang: str, names: Sequence[str]) -> str:
    """The server's end of a game (every seat's result) as one sentence in players' words: who won
    and how, the others lost; Fated Labyrinth's in the words of its end-of-game standings."""
    return _end_sentence(game, results, lang, names, prefix=True)


def _end_sentence(game: Game, results: Mapping[str, str], lang: str, names: Sequence[str], *, prefix: bool) -> str:
    """:func:`_ended_sentence` (``prefix``: opening with "The game ended:") or
    :func:`outcome_sentence`."""
    seats = sorted((int(k), v) for k, v in results.items() if str(k).isdigit() and int(k) < len(names))
    won = [(seat, v) for seat, v in seats if str(v).startswith("won")]
    lost = [names[seat] for seat, v in seats if not str(v).startswith("won") and v != "closed"]
    if any(v == "closed" for _seat, v in seats):  # an operator closed the game (games.engine.close)
        if game.ruleset == "fated":
            from delve.fated import text as fated_text

            return fated_text.game_result(None, "closed", lang, losers=lost)
        return _("An operator closed the game before its end: nobody won.")
    lost = [names[seat] for seat, v in seats if not str(v).startswith("won")]
    if game.ruleset == "fated":
        from delve.fated import text as fated_text

        winner, how = (names[won[0][0]], won[0][1]) if won else (None, "")
        kind = "escape" if how == "won_escape" else "survivor"
        if prefix:
            return fated_text.game_result(winner, kind, lang, losers=lost)
        if winner is None:  # its no-winner sentence has no form without "The game has ended"
            return fated_text.game_result(None, None, lang, losers=lost)
        return fated_text.game_result(winner, kind, lang, losers=lost, prefix=False)
    winners = join((names[seat] for seat, _v in won), lang)
    losers = join(lost, lang)
    if prefix:
        if won and lost:
            return _("The game ended: %(winners)s won; %(losers)s lost.") % {"winners": winners, "losers": losers}
        if won:
            return _("The game ended: %(winners)s won.") % {"winners": winners}
        return _("The game ended: %(losers)s lost.") % {"losers": losers}
    if won and lost:
        return _("%(winners)s won; %(losers)s lost.") % {"winners": winners, "losers": losers}
    if won:
        return _("%(winners)s won.") % {"winners": winners}
    return _("%(losers)s lost.") % {"losers": losers}


def command_text(
    game: Game, command: dict[str, Any] | None, seat: int | None, lang: str, source: str = "", *, label: str = ""
) -> str:
    """A logged command in words (``label``: a ruleset's words for it, made where its state was
    at hand)."""
    if command is None and source == "takeover":
        return _("A bot took the idle seat over.")
    if command is None and source == "reclaim":
        return _("The player took their seat back from the bot.")
    if command is None and source == "leave":
        return _("The player left the table: a bot plays the seat.")
    if command is None and source == "handover":
        return _("Another player handed the long-idle seat to a bot.")
    if source == CLOSE:
        return _("An operator closed the game.")
    if command is None:
        return _("The clock moved on.")
    if game.ruleset == "fated":
        from delve.fated import text as fated_text

        return fated_text.command_label(command, lang, game.preset, None)
    return label or json.dumps(command, ensure_ascii=False, sort_keys=True)


def fated_map(plain: dict[str, Any]) -> list[str]:
    """The whole Fated Labyrinth maze with everyone on it, one text row per maze row: terrain codes
    (``#`` wall, ``+`` door, ``~`` ice, ``C`` checkpoint, ``T``/``E`` treasure and exit, ``t``/``e``
    fakes), ``^`` traps, ``M`` monsters and players by number (1-9)."""
    size, grid = int(plain["size"]), list(str(plain["grid"]))
    for tile in plain.get("traps", {}):
        grid[int(tile)] = "^"
    for monster in plain.get("monsters", []):
        grid[int(monster["pos"])] = "M"
    for player in plain.get("players", []):
        if player.get("alive", True):
            grid[int(player["pos"])] = str((int(player["seat"]) + 1) % 10)
    return ["".join(grid[row * size : (row + 1) * size]) for row in range(size)]


def _log(game: Game) -> tuple[list[LogEntry], list[int]]:
    """The game's command log, and each entry's ``sequence`` (the export's number for it: the
    game's start is sequence 1, so the first command is usually 2)."""
    rows = list(CommandEntry.objects.filter(game=game).order_by("sequence"))
    entries = [
        LogEntry(time=c.time, seat=c.seat, command=c.command, source=c.source, order=order_of(c.idempotency_key))
        for c in rows
    ]
    return entries, [c.sequence for c in rows]


def _step_number(request: HttpRequest, last: int) -> int | None:
    raw = request.GET.get("step", "0")
    if not raw.isdigit() or int(raw) > last:
        return None
    return int(raw)


@require_safe
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/games/<id>/replay/?step=N``: the game after N log entries (0: as set up)."""
    try:
        game = _ended(game_id)
    except NotEnded as not_yet:
        return _not_yet(request, not_yet.game)
    log, sequences = _log(game)
    wanted = _step_number(request, len(log))
    if wanted is None:
        message = _("Choose a step from 0 to %(last)s.") % {"last": len(log)}
        return render(request, "error.html", {"status": 400, "message": message}, status=400)
    lang = (get_language() or "en")[:2]
    ruleset = ruleset_of(game)
    seats = list(game.seats.filter(index__isnull=False).order_by("index"))
    names = [seat.name for seat in seats]
    found: Step | None = None
    label = ""
    happened: list[Event] = []  # every event up to the step shown (White Maiden's board shows the recent ones)
    try:
        for step in steps(ruleset, game.settings, seat_infos(seats), game.seed, game.started_at or 0, log):
            happened += step.events
            before = log[step.index] if step.index < len(log) and step.index == wanted - 1 else None
            if game.ruleset == "maiden" and before is not None and before.seat is not None and before.command:
                # White Maiden names a command by the state it was chosen in (its dice, its options)
                from delve.server.play.maiden_screen import replay_label

                label = replay_label(game, ruleset, step.state, before.seat, dict(before.command))
            if step.index == wanted:
                found = step
                break
    except DelveError as exc:
        message = _("This game's log does not replay: %(reason)s") % {"reason": exc}
        return render(request, "error.html", {"status": 500, "message": message}, status=500)
    assert found is not None
    # shown as the state's fields, not its storage form (Fated's card piles are packed when stored)
    plain = (
        msgspec.to_builtins(found.state)
        if isinstance(found.state, msgspec.Struct)
        else json.loads(ruleset.encode(found.state))
    )
    state_json = json.dumps(plain, ensure_ascii=False, indent=1, sort_keys=True)
    board = fated_map(plain) if game.ruleset == "fated" else []
    entry = found.entry
    panels: dict[str, Any] = {}
    if game.ruleset == "maiden":
        # the board as the game screen showed it to a spectator at this step (its public view)
        from delve.server.play.maiden_screen import replay_panels

        panels = replay_panels(game, ruleset, found.state, entry.time if entry else game.started_at, happened)
    context = {
        "game": game,
        "label": preset_label(game),
        "seats": seats,
        "step": wanted,
        "last": len(log),
        "previous": max(0, wanted - 1),
        "next": min(len(log), wanted + 1),
        "entry": entry,
        "sequence": sequences[wanted - 1] if entry else None,
        "order": order_label(game, entry.order, lang) if entry and entry.order and entry.command else "",
        "when": usertime.say(entry.time, fmt="Y-m-d H:i:s") if entry else "",  # the reader's zone
        "actor": names[entry.seat] if entry and entry.seat is not None and entry.seat < len(names) else "",
        "command": command_text(game, entry.command, entry.seat, lang, entry.source, label=label) if entry else "",
        "events": [_event_line(game, event, lang, names) for event in _told(found.events)],
        "state_json": state_json,
        "board": "\n".join(board),
        "board_title": _board_title(game, lang),
        "board_legend": _board_legend(game, lang) if board else "",
        "panels": panels,
        "state_hash": state_hash(ruleset, found.state),
        "seed": game.seed,
        "seed_sha256": seed_hash(game.seed),
    }
    return render(request, "records/replay.html", context)


def _board_title(game: Game, lang: str) -> str:
    """The heading of the whole board, in the preset's maze word: "The whole dungeon" /
    「ダンジョンの全体」 in Level D (FL-CFG-5), "The whole labyrinth" / 「迷宮の全体」 in Fated Labyrinth."""
    from delve.fated import text as fated_text

    return _("The whole %(maze)s") % {"maze": fated_text.word("maze", lang, game.preset)}


def _board_legend(game: Game, lang: str) -> str:
    """The board's key in the preset's words (P-26: Level D's ワナ, Fated Labyrinth's 罠)."""
    from delve.fated import text as fated_text

    legend = _(
        "1–9 a player (the last digit of their number), M a monster, ^ a trap, . floor, # wall, + door, ~ ice, C "
        "checkpoint, T treasure, E exit, t a fake treasure, e a fake exit."
    )
    return fated_text.vocabulary(legend, lang, game.preset)


def _told(events: Sequence[Event]) -> list[Event]:
    """A step's events as the replay tells them: the end of the game once. A ruleset's own
    ``game.ended`` (Fated Labyrinth's: the winner and how) is followed by the server's (every
    seat's result), which says it all: the ruleset's one is left out."""
    server_end = any(e.kind == "game.ended" and "results" in e.data for e in events)
    return [e for e in events if not (server_end and e.kind == "game.ended" and "results" not in e.data)]


def _event_line(game: Game, event: Event, lang: str, names: Sequence[str]) -> dict[str, Any]:
    data = json.loads(json.dumps(dict(event.data)))
    seen_by = "" if event.to is None else join((names[s] for s in sorted(set(event.to)) if s < len(names)), lang)
    return {
        "time": event.time,
        "kind": event.kind,
        "text": describe(game, event.kind, data, event.time, lang, names, event.to),
        "seen_by": seen_by,
    }


@require_safe
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The finished game as JSON (``delve verify`` checks it)."""
    try:
        game = _ended(game_id)
    except NotEnded as not_yet:
        return _not_yet(request, not_yet.game)
    response = JsonResponse(export_game(game), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="delve-game-{game.pk}.json"'
    return response
