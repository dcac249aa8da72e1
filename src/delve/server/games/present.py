"""What a caller may see of a game, shared by the JSON API and the pages.

Everything that leaves the server goes through here: the ruleset's ``view`` for the caller's
seat (``None`` for spectators and visitors), events filtered by their visibility, and an
allow-list of public seat fields. Nothing renders a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import get_language, gettext, ngettext

from delve.kernel import DelveError, Event, Ruleset, SettingLine, Text, journal
from delve.server import clock
from delve.server.games.engine import entry_body, load_state, own_event, public_outcome, ruleset_of, seen_version
from delve.server.games.models import PUBLIC, EventEntry, Game, Seat
from delve.server.records.verify import seed_hash

EVENTS_LIMIT = 100


def stored_turns(stored: int, cap: int | None, *, playing: bool, labelled: bool = True) -> str:
    """Fated Labyrinth's stored turns, said alike on the "waiting on me" page and the game screen:
    the turns stored and not yet begun, out of the cap (FL-TURN-6); a turn ready to open is one of
    them (AMB-4), a turn under way is not (it was consumed as it began, FL-TURN-8/9).

    ``labelled=False``: without the words "stored turns", for a cell whose column (or, on a phone,
    its data-label) already says them."""
    count = f"{stored} / {cap}" if cap else str(stored)
    if not labelled:
        if playing:
            return gettext("%(count)s, not counting the one you are playing") % {"count": count}
        if stored:
            return gettext("%(count)s, the one ready to play included") % {"count": count}
        return count
    if playing:
        return ngettext(
            "%(count)s stored turn, not counting the one you are playing",
            "%(count)s stored turns, not counting the one you are playing",
            stored,
        ) % {"count": count}
    if stored:
        return ngettext(
            "%(count)s stored turn, the one ready to play included",
            "%(count)s stored turns, the one ready to play included",
            stored,
        ) % {"count": count}
    return gettext("%(count)s stored turns") % {"count": count}


def text(value: Text | Mapping[str, str], language: str | None = None) -> str:
    """A display text in the active language, falling back to English, then to any."""
    language = (language or get_language() or "en")[:2]
    return value.get(language) or value.get("en") or next(iter(value.values()), "")


def setting_line(line: SettingLine, language: str | None = None) -> dict[str, str]:
    """One setting as pages and the API show it: its label and its value for people (``shown``)
    in the active language, and ``value`` as the settings write it (``"30m"``, ``"ceil_third"``)."""
    return {
        "key": line.key,
        "label": text(line.label, language),
        "value": line.value,
        "shown": text(line.shown, language) if line.shown else line.value,
    }


def settings_lines(game: Game) -> list[dict[str, str]]:
    """The active settings as shown before joining (FL-CFG-1), for people: labels and values in
    the active language (every page that lists settings uses this)."""
    return [setting_line(line) for line in ruleset_of(game).describe_settings(game.settings)]


def preset_label(game: Game) -> str:
    """The game's name in titles and the lobby: a ruleset that names a game from its settings
    (White Maiden: its preset's name only when it plays that preset's rules) is asked; else the
    preset's label."""
    try:
        ruleset = ruleset_of(game)
        presets = ruleset.presets()
    except DelveError:  # a ruleset this process does not know: show the raw preset name
        return game.preset
    titled = getattr(ruleset, "title", None)
    if callable(titled):
        return text(titled({"preset": game.preset, **dict(game.settings or {})}))
    return next((text(choice.label) for choice in presets if choice.value == game.preset), game.preset)


def seat_dict(seat: Seat) -> dict[str, Any]:
    """The public fields of a seat (FL-INFO-1): number, name, registration choices, comment, the
    practice marker (``keep_record`` false, FL-REC-3), whether a bot plays it and, for a seat a bot
    took over from its idle player, since when (``bot_since``, epoch seconds; ``None`` otherwise)."""
    return {
        "index": seat.index,
        "number": seat.number,
        "name": seat.name,
        "options": dict(seat.options),
        "comment": seat.comment,
        "keep_record": seat.keep_record,
        "bot": seat.is_bot,
        "bot_since": seat.bot_since,
    }


def label_choices(game: Game, seats: list[Seat]) -> None:
    """Give each seat ``choice_labels``: its registration choices by their labels in the active
    language (a Level D Ninja, not ``cat``)."""
    try:
        options = ruleset_of(game).seat_options(game.settings)
    except DelveError:
        return
    for seat in seats:
        seat.choice_labels = [  # type: ignore[attr-defined]
            f"{text(option.label)}: {text(choice.label)}" if len(options) > 1 else text(choice.label)
            for option in options
            for choice in option.choices
            if seat.options.get(option.key) == choice.value
        ]


def public_seats(game: Game) -> list[Seat]:
    return list(game.seats.order_by("index", "id"))


def own_seat(seats: list[Seat], user: Any) -> Seat | None:
    """The seat among ``seats`` that ``user`` holds, if any."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def game_summary(game: Game, *, seats: list[Seat] | None = None, seat: int | None = None) -> dict[str, Any]:
    """A game's public facts; ``version`` is the change counter of what ``seat`` (``None``: anyone
    without a seat) can see, which moves only when that view changes (``engine.seen_version``)."""
    seats = public_seats(game) if seats is None else seats
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "preset": game.preset,
        "preset_label": preset_label(game),
        "status": game.status,
        "version": seen_version(game, seat),
        "seat_count": game.seat_count,
        "seats_taken": len(seats),
        "started_at": game.started_at,
        "ended_at": game.ended_at,
        "settings": settings_lines(game),
        "seats": [seat_dict(seat) for seat in seats],
        "seed_sha256": seed_hash(game.seed),
        "seed": game.seed if game.status == Game.Status.ENDED else None,
        "seat_options": seat_options(game) if game.status == Game.Status.OPEN else [],
    }


def seat_options(game: Game) -> list[dict[str, Any]]:
    """What a player chooses when taking a seat of this open game (Fated Labyrinth: the class and
    the image), each with its choices and the default a registration without it gets, labels in
    the active language: a client learns them here, not from a refusal."""
    try:
        options = ruleset_of(game).seat_options(game.settings)
    except DelveError:
        return []
    return [
        {
            "key": option.key,
            "label": text(option.label),
            "default": option.default,
            "choices": [{"value": choice.value, "label": text(choice.label)} for choice in option.choices],
        }
        for option in options
    ]


@dataclass
class Current:
    """A started game as one request sees it: the state decoded once and, while the game runs,
    its clock brought up to now in memory (the worker saves the same advance later; advancing is
    deterministic), with the events that advance produced (not stored yet)."""

    ruleset: Ruleset[Any]
    state: Any
    pending: list[Event] = field(default_factory=list)


def current(game: Game) -> Current | None:
    """The game's :class:`Current` (``None`` while it is open), decoded once per request: kept on
    the ``game`` object until its version or state changes (a new command, ``refresh_from_db``)."""
    if game.status == Game.Status.OPEN or not game.state:
        return None
    cached = game.__dict__.get("_current")
    if cached is not None and cached[0] == game.version and cached[1] == game.state:
        return cached[2]  # type: ignore[no-any-return]
    ruleset = ruleset_of(game)
    state = load_state(game, ruleset)
    pending = ruleset.advance(state, clock.now()) if game.status == Game.Status.RUNNING else []
    found = Current(ruleset, state, pending)
    game.__dict__["_current"] = (game.version, game.state, found)
    return found


def forget(game: Game) -> None:
    """Drop the :class:`Current` kept on ``game`` (its state was handed on and changed)."""
    game.__dict__.pop("_current", None)


def seat_view(game: Game, now: Current, seat: int | None) -> dict[str, Any]:
    """The ruleset's view for ``seat`` (``None``: a spectator) of ``now``, with the recent events
    it shows taken from the event table when the ruleset keeps them there (a journal,
    :mod:`delve.kernel.journal`): the newest of the ruleset's events this seat may see, then the
    events of the advance made for this request."""
    view = now.ruleset.view(now.state, seat)
    recent = journal(now.ruleset, now.state)
    if recent is None:
        return view
    recent.add(_ruleset_events(game.events.filter(visibility=PUBLIC), recent.public_kept))
    if seat is not None:
        mine = game.events.filter(visibility__contains=f",{seat},")
        recent.add(_ruleset_events(mine, recent.private_kept))
    recent.add(event for event in now.pending if event.visible_to(seat))
    return recent.show(view, seat)


def _ruleset_events(query: QuerySet[EventEntry], count: int) -> list[Event]:
    """The newest ``count`` events of ``query`` that the ruleset wrote (the server's own left
    out), oldest first."""
    found: list[EventEntry] = []
    page, offset = count + 2, 0
    while len(found) < count:
        chunk = list(query.order_by("-sequence")[offset : offset + page])
        found += [entry for entry in chunk if not own_event(entry.kind, entry.data)]
        if len(chunk) < page:
            break
        offset += page
    return [Event(kind=e.kind, time=e.time, data=e.data, to=e.to) for e in reversed(found[:count])]


def caller_view(game: Game, seat: int | None) -> dict[str, Any] | None:
    """The caller's view (:func:`seat_view`) as of now; ``None`` before the start."""
    now = current(game)
    return None if now is None else seat_view(game, now, seat)


def legal_commands(game: Game, seat: int) -> list[dict[str, Any]]:
    if game.status != Game.Status.RUNNING:
        return []
    now = current(game)
    return [] if now is None else now.ruleset.legal_commands(now.state, seat)


def view_and_commands(game: Game, seat: int | None) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The caller's view and legal commands (the game screen needs both on every refresh)."""
    now = current(game)
    if now is None:
        return None, []
    view = seat_view(game, now, seat)
    legal = now.ruleset.legal_commands(now.state, seat) if seat is not None else []  # after the end: comments only
    return view, legal


def opening(game: Game, seat: int | None) -> bool:
    """Whether opening the game page would apply the ruleset's command on open for ``seat`` now
    (FL-TURN-8: a stored turn starts): the page then posts its opening itself, once."""
    if seat is None or game.status != Game.Status.RUNNING:
        return False
    now = current(game)
    return now is not None and now.ruleset.command_on_open(now.state, seat) is not None


def outcome_dict(game: Game) -> dict[str, Any] | None:
    """Winners and result words, public once the game has ended."""
    if game.status != Game.Status.ENDED:
        return None
    now = current(game)
    assert now is not None
    return public_outcome(now.ruleset.outcome(now.state))


def visible_events(game: Game, seat: int | None) -> QuerySet[EventEntry]:
    """The events ``seat`` may see (public only for ``None``), oldest first."""
    audience = Q(visibility=PUBLIC)
    if seat is not None:
        audience |= Q(visibility__contains=f",{seat},")
    return game.events.filter(audience).order_by("sequence")


def events_after(
    game: Game, seat: int | None, cursor: int, limit: int = EVENTS_LIMIT
) -> tuple[list[dict[str, Any]], int]:
    """Events after ``cursor``, which counts the events this caller has already seen (so the
    numbers of events hidden from the caller never show); the events and the next cursor."""
    visible = visible_events(game, seat)
    page = list(visible[cursor : cursor + limit])
    ruleset = ruleset_of(game)
    if not page and cursor:
        # a cursor past the end (a client's mistake) answers the real end, not itself: a client
        # that kept a too-large cursor would otherwise skip every event to come
        return [], min(cursor, visible.count())
    return [entry_body(ruleset, entry) for entry in page], cursor + len(page)


def recent_events(game: Game, seat: int | None, count: int = 50) -> list[dict[str, Any]]:
    """The newest ``count`` visible events as they may be shown, newest first (the generic page's
    recent-events list)."""
    ruleset = ruleset_of(game)
    return [entry_body(ruleset, entry) for entry in visible_events(game, seat).order_by("-sequence")[:count]]
