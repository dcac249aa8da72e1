"""The full log of a Fated game (all the events the caller may see, newest first), with filters
(everyone / mine / attacks) and the routine lines (cards drawn, turns ready, comments...) folded
so they do not push out what matters. The recent-events panel folds the same noise."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from delve.fated import text
from delve.server.games import bots, closing, engine, present
from delve.server.games.models import PUBLIC, Game

FILTERS = ("all", "mine", "attacks")

#: Routine events: shown folded, a group of them as one line that opens on a click.
NOISE = frozenset({"card.drawn", "cards.drawn", "turn.ready", "comment", "deck.reshuffled", "status.expired"})

#: Events about fighting: attacks, defenses, deaths, traps going off, thefts.
ATTACKS = frozenset(
    {
        "attack.normal",
        "defense.result",
        "monster.attack",
        "monster.magic",
        "monster.breath",
        "monster.attacked",
        "door.attacked",
        "door.destroyed",
        "player.died",
        "terrain.hit",
        "trap.sprung",
        "trap.triggered",
        "steal.attempted",
        "steal.card",
        "steal.failed",
        "steal.empty",
    }
)

#: Event fields that name a seat taking part.
SEAT_FIELDS = (
    "seat",
    "player",
    "attacker",
    "target",
    "defender",
    "owner",
    "by",
    "requester",
    "thief",
    "victim",
    "source",
)
SEAT_LISTS = ("credited", "targets", "seats")


def is_attack(event: Mapping[str, Any]) -> bool:
    if event.get("kind") in ATTACKS:
        return True
    return event.get("kind") == "card.used" and (event.get("use") in {"adjacent", "remote"} or "target" in event)


def involves(event: Mapping[str, Any], seat: int | None, *, private: bool) -> bool:
    """Whether an event concerns ``seat``: a message only for it, or one naming it."""
    if seat is None:
        return False
    if private:
        return True
    if any(event.get(key) == seat for key in SEAT_FIELDS):
        return True
    return any(isinstance(event.get(key), list) and seat in event[key] for key in SEAT_LISTS)


def fold(lines: Iterable[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Consecutive routine lines become one group ``{"folded": [...], "summary": ...}``; a single
    routine line between two others stays as it is."""
    out: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []

    def flush() -> None:
        if len(run) >= 2:
            count = len(run)
            summary = f"{count}件の定型の記録" if lang == "ja" else f"{count} routine lines"
            out.append({"folded": list(run), "summary": summary, "time": run[0].get("time")})
        else:
            out.extend(run)
        run.clear()

    for line in lines:
        if line.get("noise"):
            run.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return out


def lines(game: Game, seat: int | None, lang: str, shown: str) -> list[dict[str, Any]]:
    """The caller's log, newest first, as display lines, filtered by ``shown``."""
    ruleset = engine.ruleset_of(game)
    out = []
    for entry in present.visible_events(game, seat).order_by("-sequence"):
        disclosed = engine.entry_body(ruleset, entry)
        body = {**disclosed["data"], "kind": entry.kind, "time": entry.time}
        if "kind" in disclosed["data"]:
            body["win_kind"] = disclosed["data"]["kind"]  # game.ended: escape / survivor
        private = entry.visibility != PUBLIC
        if shown == "mine" and not involves(body, seat, private=private):
            continue
        if shown == "attacks" and not is_attack(body):
            continue
        sentence = _sentence(body, lang, game.preset, seat)
        if out and out[-1]["text"] == sentence and out[-1]["private"] == private:
            continue  # the same news twice
        line = {
            "time": dt.datetime.fromtimestamp(entry.time, tz=dt.UTC),
            "text": sentence,
            "private": private,
            "noise": entry.kind in NOISE,
            "attack": is_attack(body),
            "kind": entry.kind,
        }
        if entry.kind == "game.ended" and out and out[-1]["kind"] == "game.ended":
            # the end told twice: the server's event (every game's outcome) and the engine's own,
            # which says how it was won ("as the last survivor"): the engine's one is kept
            if "win_kind" in body:
                out[-1] = line
            continue
        out.append(line)
    return out


def seat_change_sentence(body: Mapping[str, Any], lang: str, viewer: int | None) -> str:
    """The server's ``seat.taken_over`` / ``seat.reclaimed`` as a sentence, the player named as
    the screen names players ("Player 02"; "you" for the viewer's own seat)."""
    seat = body.get("seat")
    who = text.player_name(seat if isinstance(seat, int) else None, lang)
    return bots.seat_sentence(str(body.get("kind")), who, lang, you=isinstance(seat, int) and seat == viewer)


def _sentence(body: Mapping[str, Any], lang: str, preset: str, seat: int | None) -> str:
    """An event of the log as a sentence; the server's standing-order event says which command the
    order sent for the seat, its seat changes who plays a seat now."""
    if bots.is_seat_change(str(body.get("kind"))):
        return seat_change_sentence(body, lang, seat)
    if closing.is_closed_event(str(body.get("kind")), body):
        return closing.sentence(body.get("reason"), lang)
    if body.get("kind") == "order.fired" and isinstance(body.get("command"), Mapping):
        label = text.command_label(body["command"], lang, preset, seat)
        if lang == "ja":
            return f"あなたの常備命令が応答しました：{label}。"
        return f"Your standing order answered: {label}."
    return text.describe(body, lang, preset, seat)
