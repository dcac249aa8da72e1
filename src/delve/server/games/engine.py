"""Every change of a game, one transaction each.

Each function here locks the game row (``select_for_update``; on SQLite the IMMEDIATE transaction
takes the write lock), reads the clock once, drives the ruleset, saves the state with
``version + 1`` and appends the command and its events to the logs. A ruleset's exception
(:class:`~delve.kernel.IllegalCommand`) or a :class:`Rejected` rolls the whole transaction back,
so the state is never half-changed.

Only the kernel's ``Ruleset`` protocol is used; this module knows no game.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
from django.db import DEFAULT_DB_ALIAS, IntegrityError, transaction
from django.utils.translation import gettext

from delve.kernel import (
    DelveError,
    Event,
    IllegalCommand,
    Ruleset,
    SeatInfo,
    SeatOption,
    SettingsError,
    get_ruleset,
    has_journal,
    takes_comments,
    views_of,
)
from delve.kernel.lasting import derived_known as lasting_known
from delve.kernel.lasting import digest as lasting_digest
from delve.kernel.lasting import encoded as lasting_encoding
from delve.kernel.lasting import held as lasting_held
from delve.kernel.lasting import remember as lasting_remember
from delve.server import clock
from delve.server.games import kept
from delve.server.games.errors import Rejected, game_not_found, not_seated
from delve.server.games.models import PUBLIC, CommandEntry, EventEntry, Game, Seat, event_body
from delve.server.games.sql import Statements, snapshot, statements
from delve.server.inputs import NAME_MAX, comment_text, has_control, name_fault
from delve.server.live.hub import publish_on_commit
from delve.server.records.services import write_records
from delve.server.records.verify import (
    CLOSE,
    SERVER_EVENTS,
    closed_event,
    closer,
    order_event,
    order_of,
    own_event,
    public_outcome,
    seat_event,
    started_event,
)

KEY_MAX = 100
COMMENT = "comment"
KEEP_RECORD = "keep_record"
"""The keep-record flag belongs to the server (it writes the records, FL-REC-1). Rulesets receive
it in ``SeatInfo.options["keep_record"]`` (a bool) at setup; a seat option a ruleset declares
under this key is not asked separately: the registration form's record box stands for it."""


@dataclass
class Answer:
    """What a caller is told after a change: the position of the change in the game's command log
    (``sequence``), the caller's version after it (:func:`seen_version`) and the events that caller
    may see. ``replayed`` is true when a repeated idempotency key returned it."""

    sequence: int
    version: int
    events: list[dict[str, Any]] = field(default_factory=list)
    replayed: bool = False
    commands: list[dict[str, Any]] | None = None
    """With ``submit(listing=True)``: the caller's legal commands right after the change (what
    ``legal_commands`` lists for its seat then), so that a client decides its next command without
    asking again; ``None`` otherwise, and in a replayed answer (the first answer's list may be
    stale: ask again)."""

    def as_dict(self) -> dict[str, Any]:
        """The answer as sent, and as stored with its command (before any listing: a stored
        answer holds no legal commands); with the legal commands and their ``choices`` digest
        when they are listed."""
        body: dict[str, Any] = {"sequence": self.sequence, "version": self.version, "events": self.events}
        if self.commands is not None:
            body["commands"] = self.commands
            body["choices"] = choices_digest(self.commands)
        return body


# --- what events may tell --------------------------------------------------------------------


def disclosed(ruleset: Ruleset[Any], kind: str, time: int, data: Mapping[str, Any], *, private: bool) -> dict[str, Any]:
    """An event body as it leaves the server: only the fields the ruleset's allow-list (or the
    server's, for its own events) lets out. Every event that leaves goes through here: the events
    API, command answers (also replayed ones) and the pages."""
    allowed = {**ruleset.event_data(kind, data), **SERVER_EVENTS.data(kind, data)}
    return event_body(kind, time, allowed, private=private)


def entry_body(ruleset: Ruleset[Any], entry: EventEntry) -> dict[str, Any]:
    """A stored event as it leaves the server (see :func:`disclosed`)."""
    return disclosed(ruleset, entry.kind, entry.time, entry.data, private=entry.visibility != PUBLIC)


# --- what each audience has seen ---------------------------------------------------------------

SPECTATORS = "*"
_canonical = msgspec.json.Encoder(order="sorted")


def audience(seat: int | None) -> str:
    """The key of an audience in ``Game.observed``: ``"*"`` for spectators and visitors, else the seat."""
    return SPECTATORS if seat is None else str(seat)


def seen_version(game: Game, seat: int | None) -> int:
    """The change counter of what ``seat`` (``None``: spectators and visitors) can see: it moves
    only when that audience's view changes, never at another player's hidden moment (a turn
    stored, a move out of sight). This is the ``version`` every answer, page and guard uses; the
    game's own ``version`` (every change) stays inside the server."""
    entry = (game.observed or {}).get(audience(seat))
    return int(entry[0]) if entry else game.version


PARTS_MARK = "~"
"""The first character of the digests of a ruleset that names ``digest_parts`` (see
:func:`view_digests`); the digests stored before it named them are 16 hex digits."""


def view_digests(ruleset: Ruleset[Any], state: Any, seats: Sequence[int | None]) -> list[str]:
    """A short digest of the ruleset's view for each of ``seats`` (views carry no clock): the first
    16 hex digits of the SHA-256 of the view's canonical JSON (keys sorted, compact).

    A ruleset may name parts of its views in ``digest_parts`` (``"areas"``: the value of a
    top-level key; ``"map.rooms"``: a key of the dict under ``map``): each such value is then
    identified by its own SHA-256 (the JSON string ``"#<64 hex digits>"`` in its place), and the
    digest is :data:`PARTS_MARK` followed by the first 15 hex digits of the SHA-256 of that
    form. Equal views still give equal digests and different views different ones, but a part
    kept from earlier views (:mod:`delve.kernel.lasting`) is hashed once, not once per
    audience after every change.

    The views come from :func:`~delve.kernel.views_of`. A ruleset that builds them at once may
    share parts between them (the same dict or list under a key of several views) or hand out
    lasting parts (at the top level of a view or in a dict there): a lasting part's encoding is
    made once per process, a shared part's once here, and either is put into every view's
    encoding as those bytes (``msgspec.Raw``), so the digest is the same as encoding each view
    (or its form) whole."""
    views = views_of(ruleset, state, seats)
    parts: Sequence[str] = getattr(ruleset, "digest_parts", ())
    # a view the ruleset hands out again whole (a lasting part) has its digest computed once; the
    # others, and the held views not digested yet, are digested together (their shared parts once)
    key = ("digest", tuple(parts))
    digests: list[str | None] = [lasting_known(view, key) for view in views]
    rest = [index for index, found in enumerate(digests) if found is None]
    if rest:
        for index, made in zip(rest, _digests(ruleset, [views[index] for index in rest], parts), strict=True):
            digests[index] = made
            lasting_remember(views[index], key, made)
    return [found for found in digests if found is not None]


def _digests(ruleset: Ruleset[Any], views: list[dict[str, Any]], parts: Sequence[str]) -> list[str]:
    """The digests of ``views`` (see :func:`view_digests`)."""
    if parts:
        # The named parts are the lasting ones, each in the form as its digest: what is left is
        # small, and encoding it whole for each view costs less than finding the parts the views
        # share to encode them once (about 17 against 38 us for a White Maiden table of two
        # views, 59 against 79 for five). The bytes are the same either way.
        forms = _part_forms(views, parts)
        return [PARTS_MARK + hashlib.sha256(_canonical.encode(form)).hexdigest()[:15] for form in forms]
    return _whole_digests(ruleset, views)


def _whole_digests(ruleset: Ruleset[Any], views: list[dict[str, Any]]) -> list[str]:
    """The digests of the whole views (without ``digest_parts``)."""
    if getattr(ruleset, "views", None) is not None:
        views = _with_raw_parts(views)
    return [hashlib.sha256(_canonical.encode(view)).hexdigest()[:16] for view in views]


def _part_forms(views: list[dict[str, Any]], parts: Sequence[str]) -> list[dict[str, Any]]:
    """The views with each of ``parts`` replaced by the JSON string of its SHA-256, ``"#..."``
    (each part hashed once here, a lasting part once while it is kept)."""
    whole, inner = _part_paths(tuple(parts))
    tokens: dict[int, msgspec.Raw] = {}
    forms = []
    for view in views:
        form = view.copy()
        for top in whole:
            value = form.get(top, _ABSENT)
            if value is _ABSENT:
                continue
            key = id(value)
            found = tokens.get(key)
            if found is None:
                found = tokens[key] = msgspec.Raw(b'"#' + lasting_digest(value).encode() + b'"')
            form[top] = found
        for top, subs in inner:
            value = form.get(top)
            if type(value) is dict:
                value = value.copy()
                for sub in subs:
                    if sub in value:
                        part = value[sub]
                        key = id(part)
                        found = tokens.get(key)
                        if found is None:
                            found = tokens[key] = msgspec.Raw(b'"#' + lasting_digest(part).encode() + b'"')
                        value[sub] = found
                form[top] = value
        forms.append(form)
    return forms


_ABSENT = object()

#: ``digest_parts`` -> the top-level keys named whole, and the others with their named keys
#: (a key named whole has no named keys of its own: the whole value is replaced).
_PATHS: dict[tuple[str, ...], tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]] = {}


def _part_paths(parts: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """The paths of ``parts`` (see :func:`view_digests`), found once per tuple of parts."""
    found = _PATHS.get(parts)
    if found is None:
        subs: dict[str, list[str]] = {}
        for part in parts:
            top, _, sub = part.partition(".")
            subs.setdefault(top, []).append(sub)
        whole = tuple(top for top, names in subs.items() if "" in names)
        inner = tuple((top, tuple(names)) for top, names in subs.items() if "" not in names)
        found = _PATHS[parts] = (whole, inner)
    return found


def _with_raw_parts(views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The views with their lasting parts, and the top-level parts several of them share, as the
    bytes of their canonical encoding. Lasting parts are looked for at the top level of a view
    and, in views that have some there, one level below (a map's rooms and edges)."""
    seen: set[int] = set()
    found: dict[int, Any] = {}  # lasting or shared: the value by its id
    dicts: list[dict[str, Any]] = []  # the other top-level dicts
    lasting = False
    for view in views:
        for value in view.values():
            key = id(value)
            if key in seen:
                found[key] = value
                continue
            seen.add(key)
            if lasting_held(key):
                found[key] = value
                lasting = True
            elif type(value) is dict:
                dicts.append(value)
    raw: dict[int, Any] = {}
    for key, value in found.items():
        if isinstance(value, dict | list):
            raw[key] = lasting_encoding(value) or msgspec.Raw(_canonical.encode(value))
    if lasting:
        for value in dicts:
            if id(value) not in raw and any(lasting_held(id(part)) for part in value.values()):
                raw[id(value)] = {name: lasting_encoding(part) or part for name, part in value.items()}
    if not raw:
        return views
    return [{key: raw.get(id(value), value) for key, value in view.items()} for view in views]


def _observe(game: Game, ruleset: Ruleset[Any], state: Any, events: Sequence[Event], actor: int | None = None) -> None:
    """Move each audience's counter when, and only when, what it can see changed: its view of the
    saved state or, for a ruleset whose views show recent events from the event table (a
    journal, :mod:`delve.kernel.journal`), one of the ruleset's events saved now that it may see;
    the ``actor``'s also for its own accepted command (it knows it acted, so a second decision
    made on the same version is stale even when the first changed nothing it can see).

    A digest stored before the ruleset named its ``digest_parts`` (no :data:`PARTS_MARK`) is
    compared with the digest of the whole view, so that change moves no counter by itself."""
    observed = dict(game.observed or {})
    shown = [e for e in events if not own_event(e.kind, e.data)] if has_journal(ruleset) else []
    seats: list[int | None] = [None, *range(game.seat_count)]
    whole: list[str] | None = None
    for index, (seat, digest) in enumerate(zip(seats, view_digests(ruleset, state, seats), strict=True)):
        key = audience(seat)
        version, before = observed.get(key) or [game.version - 1, ""]
        if before and digest.startswith(PARTS_MARK) and not before.startswith(PARTS_MARK):
            if whole is None:
                whole = _whole_digests(ruleset, views_of(ruleset, state, seats))
            changed = whole[index] != before
        else:
            changed = digest != before
        moved = changed or (actor is not None and seat == actor) or any(e.visible_to(seat) for e in shown)
        observed[key] = [int(version) + moved, digest]
    game.observed = observed


# --- lookups ---------------------------------------------------------------------------------


def ruleset_of(game: Game) -> Ruleset[Any]:
    try:
        return get_ruleset(game.ruleset)
    except KeyError as exc:
        raise Rejected(
            "server/ruleset_unavailable", f"game {game.pk} uses ruleset {game.ruleset!r}: {exc.args[0]}", status=503
        ) from None


@dataclass
class Decoded:
    """A game's state decoded at its ``version`` and advanced in memory (advancing is idempotent
    and may be split), with the events that advance produced (not stored yet)."""

    version: int
    state: Any
    pending: list[Event] = field(default_factory=list)


def load_state(game: Game, ruleset: Ruleset[Any] | None = None) -> Any:
    return (ruleset or ruleset_of(game)).decode(game.state.encode())


def _alias(game: Game) -> str:
    return game._state.db or DEFAULT_DB_ALIAS


def _locked_state(game: Game, ruleset: Ruleset[Any], decoded: Decoded | None = None) -> tuple[Any, list[Event]]:
    """The state of a game locked in the current transaction, with the events of an advance made
    on it before (not stored yet): the caller's ``decoded`` when the game is still at its version,
    else the state this process saved the game with when the row is still the one it saved
    (:mod:`delve.server.games.kept`), else the row decoded. The caller owns it and may change it."""
    if decoded is not None and decoded.version == game.version:
        return decoded.state, list(decoded.pending)  # advancing again continues it
    state = kept.take(_alias(game), game.pk, game.ruleset, game.version, game.state)
    return (load_state(game, ruleset) if state is None else state), []


def seat_of(game: Game, user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise game_not_found(game_id) from None


def _acting_seat(game: Game, user: Any) -> Seat:
    if user is None or not user.is_authenticated:
        raise Rejected("auth/required", "log in to act in a game", status=401)
    seat = seat_of(game, user)
    if seat is None:
        raise not_seated()
    return seat


# --- creating games --------------------------------------------------------------------------


def resolve_settings(
    ruleset_name: str, preset: str, overrides: Mapping[str, Any]
) -> tuple[Ruleset[Any], dict[str, Any]]:
    """The settings a new game would store: the preset plus the overrides, validated.

    :raises SettingsError: naming the ruleset, the preset or the first invalid setting.
    """
    try:
        ruleset = get_ruleset(ruleset_name)
    except KeyError as exc:
        raise SettingsError("ruleset", exc.args[0]) from None
    known = [choice.value for choice in ruleset.presets()]
    if preset not in known:
        raise SettingsError("preset", f"unknown preset {preset!r}; known: {', '.join(known)}")
    if "preset" in overrides and overrides["preset"] != preset:
        raise SettingsError("preset", "choose the preset in the preset field, not among the overrides")
    settings = {**overrides, "preset": preset}
    ruleset.validate_settings(settings)
    return ruleset, settings


def create_game(
    ruleset_name: str,
    preset: str,
    overrides: Mapping[str, Any],
    *,
    created_by: Any = None,
    bot_takeover_after: int | None = None,
) -> Game:
    """A new game open for registration, with a fresh seed kept for replay. ``bot_takeover_after``:
    the host's time (seconds) after which a bot plays a seat that keeps the game waiting.

    :raises SettingsError: when the settings are invalid (the message names the setting).
    :raises Rejected: when the takeover time is not shorter than the game's abandonment time.
    """
    ruleset, settings = resolve_settings(ruleset_name, preset, overrides)
    from delve.server.games.bots import check_takeover

    check_takeover(ruleset, settings, bot_takeover_after)
    user = created_by if created_by is not None and created_by.is_authenticated else None
    return Game.objects.create(
        ruleset=ruleset_name,
        preset=preset,
        settings=settings,
        seat_count=ruleset.seat_count(settings),
        seed=secrets.randbits(63),
        created_by=user,
        bot_takeover_after=bot_takeover_after,
    )


# --- registration (FL-REG) -------------------------------------------------------------------


def player_options(seat_options: Sequence[SeatOption]) -> list[SeatOption]:
    """The seat options a player chooses at registration (all but the server-owned record flag)."""
    return [option for option in seat_options if option.key != KEEP_RECORD]


def seat_infos(seats: Sequence[Seat]) -> list[SeatInfo]:
    """What ``setup`` (and a replay) receives about the seats, in seat order."""
    return [SeatInfo(name=seat.name, options={**seat.options, KEEP_RECORD: seat.keep_record}) for seat in seats]


def clean_options(seat_options: Sequence[SeatOption], given: Mapping[str, Any]) -> dict[str, str]:
    """The registration choices with defaults filled in; unknown keys and values are refused."""
    seat_options = player_options(seat_options)
    known = {option.key: option for option in seat_options}
    for key in given:
        if key not in known:
            raise Rejected("registration/invalid_option", f"unknown registration choice {key!r}", status=400)
    options = {}
    for option in seat_options:
        value = given.get(option.key, option.default)
        allowed = [choice.value for choice in option.choices]
        if value not in allowed:
            raise Rejected(
                "registration/invalid_option",
                f"{option.key} {value!r} is not one of {', '.join(allowed)}",
                status=400,
            )
        options[option.key] = value
    return options


#: Why a character name is refused, by :func:`delve.server.inputs.name_fault`.
NAME_FAULTS = {
    "blank": "the character needs a name: one with something visible, not only spaces or invisible characters",
    "control": "a character name cannot contain control characters",
    "format": (
        "a character name cannot contain invisible format characters (zero-width spaces or joiners, "
        "text direction controls such as U+202E)"
    ),
    "long": f"a character name has at most {NAME_MAX} characters",
}


def shown_name_fault(message: str) -> str:
    """A refusal of a character's name (:data:`NAME_FAULTS`, the API's English) in the page's
    language, for the registration forms; any other message unchanged."""
    shown = {
        "blank": gettext("A character name needs something visible."),
        "control": gettext("A character name cannot contain control characters (tabs, line breaks...)."),
        "format": gettext(
            "A character name cannot contain invisible characters (zero-width spaces, text direction controls)."
        ),
        "long": gettext("A character name has at most %(limit)s characters.") % {"limit": NAME_MAX},
    }
    for kind, english in NAME_FAULTS.items():
        if message == english:
            return shown[kind]
    return message


def check_name(name: str | None) -> str:
    """``name`` without its outer spaces, if a character may bear it (:func:`~delve.server.inputs.name_fault`).

    :raises Rejected: 400 ``registration/invalid_name`` saying why.
    """
    name = (name or "").strip()
    fault = name_fault(name)
    if fault is not None:
        raise Rejected("registration/invalid_name", NAME_FAULTS[fault], status=400)
    return name


def register(
    game_id: int,
    user: Any,
    name: str,
    options: Mapping[str, Any] | None = None,
    *,
    keep_record: bool = True,
    is_bot: bool = False,
) -> Seat:
    """Register ``user``'s character into an open game; the last seat starts the game in the same
    transaction (FL-REG-5, FL-REG-7, AMB-60).

    :raises Rejected: with a code under ``registration/`` saying why.
    """
    if user is None or not user.is_authenticated:
        raise Rejected("auth/required", "log in to register a character", status=401)
    name = check_name(name)
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise Rejected(
                "registration/closed",
                "this game has already started; wait for it to end or join another game",
                status=409,
            )
        ruleset = ruleset_of(game)
        seats = list(game.seats.order_by("id"))
        if any(seat.user_id == user.pk for seat in seats):
            raise Rejected("registration/already_registered", "you already have a character in this game", status=409)
        if any(seat.name == name for seat in seats):  # AMB-60: case-sensitive
            raise Rejected("registration/name_taken", f"the name {name!r} is already taken in this game", status=409)
        if len(seats) >= game.seat_count:
            raise Rejected("registration/full", "every seat of this game is taken", status=409)
        seat = Seat.objects.create(
            game=game,
            user=user,
            name=name,
            options=clean_options(ruleset.seat_options(game.settings), options or {}),
            keep_record=keep_record,
            is_bot=is_bot,
        )
        seats.append(seat)
        if len(seats) == game.seat_count:
            _start(game, ruleset, seats, clock.now())
        return seat


def withdraw(game_id: int, user: Any) -> None:
    """Delete ``user``'s registration; only before the start (FL-REG-8).

    :raises Rejected: when there is nothing to withdraw or the game has started.
    """
    with transaction.atomic():
        game = _locked(game_id)
        seat = _acting_seat(game, user)
        if game.status != Game.Status.OPEN:
            raise Rejected(
                "registration/started", "the game has started: withdrawing is no longer possible", status=409
            )
        seat.delete()


def _start(game: Game, ruleset: Ruleset[Any], seats: list[Seat], now: int) -> None:
    """Number the seats in registration order (AMB-59) and set the game up."""
    for index, seat in enumerate(seats):
        seat.index = index
    Seat.objects.bulk_update(seats, ["index"])
    state = ruleset.setup(game.settings, seat_infos(seats), game.seed, now)
    game.status = Game.Status.RUNNING
    game.started_at = now
    game.version += 1
    game.state = ruleset.encode(state).decode()
    game.next_due_at = ruleset.next_due(state)
    started = [started_event([seat.name for seat in seats], now)]
    _observe(game, ruleset, state, started)
    _append_events(game, started)
    game.save()
    publish_on_commit(game.pk, game.observed, game.version)


# --- commands --------------------------------------------------------------------------------


def offered(legal: list[dict[str, Any]], *, taken_over: bool) -> list[dict[str, Any]]:
    """What a seat's player may send of its ``legal`` commands: all of them, or only the comment
    while a bot plays the seat for them (``taken_over``: :func:`submit` refuses the others)."""
    return [entry for entry in legal if entry["kind"] == COMMENT] if taken_over else legal


def check_command(command: Any) -> dict[str, Any]:
    """``command`` if it is a JSON object with a ``kind``, and if a comment, one without control
    characters (:func:`delve.server.inputs.comment_text`: the API and every screen alike).

    :raises Rejected: 400 ``request/malformed``.
    """
    if not isinstance(command, dict) or not isinstance(command.get("kind"), str) or not command["kind"]:
        raise Rejected(
            "request/malformed",
            'a command is a JSON object with a "kind", e.g. {"kind": "stay"} (a kind of White Maiden and of '
            "Fated Labyrinth); GET .../commands lists the commands possible now",
        )
    if command["kind"] == COMMENT:
        comment_text(command.get("text"))
    return command


def check_key(key: Any) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= KEY_MAX or has_control(key):
        raise Rejected("request/malformed", f"an idempotency key is a text of 1 to {KEY_MAX} printable characters")
    return key


def choices_digest(commands: Sequence[Mapping[str, Any]]) -> str:
    """A short digest of a seat's legal commands: what a player saw when deciding."""
    canonical = json.dumps(sorted(json.dumps(c, sort_keys=True) for c in commands))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def submit(
    game_id: int,
    user: Any,
    command: Any,
    *,
    version: int | None = None,
    choices: str | None = None,
    idempotency_key: str | None = None,
    order: str | None = None,
    decoded: Decoded | None = None,
    bot: bool = False,
    listing: bool = False,
) -> Answer:
    """Apply ``user``'s command to their own seat in one transaction.

    ``order`` names the player's standing order when it (and not the player) sent the command:
    an ``order.fired`` event, seen by that seat only, then says so (``delve.server.orders``).

    A repeated ``idempotency_key`` returns the first answer and applies nothing (a key is spent
    only by an accepted command). ``version``, when given, must be the game's current version.
    ``choices``, when given, must be the digest (``choices_digest``) of the seat's legal commands
    now: a guard against deciding on stale options that, unlike ``version``, is not tripped by
    other players acting elsewhere in the game.

    The transaction is one ``SELECT`` (the game row locked, with the caller's seat), the inserts
    of the command entry and its events, and one ``UPDATE`` of the game's changed fields. A key is
    not looked up first: the command log's unique constraint refuses a reused one, and only then
    (or when the command fails, since a repeated command is often no longer legal) is the first
    answer read, after the transaction has rolled back.

    ``decoded``: the state as the caller already decoded it (the bot worker, which decided on it),
    used instead of decoding it again when the locked game is still at that version.

    ``bot``: the bot worker plays the seat. While a bot plays a seat its player left idle
    (``Seat.bot_since``), only the bot acts for it: the player's own commands (comments aside)
    are refused until they take the seat back (``bots.reclaim``), so that the two never play the
    same turn.

    ``listing``: the answer carries the seat's legal commands right after the change
    (:attr:`Answer.commands`; none once the game ended, only the comment while a bot plays the
    seat), listed from the state in hand: no statement more, and the caller needs no second
    request to decide its next command. A replayed answer carries none.

    :raises Rejected: not seated (403), not running (422), stale version (409), key reused (422),
        a bot plays the seat (409, ``seat/taken_over``).
    :raises IllegalCommand: from the ruleset (422); nothing is saved.
    """
    command = check_command(command)
    idempotency_key = check_key(idempotency_key)
    seated: list[int] = []  # the caller's seat index, once known
    try:
        with transaction.atomic():
            return _submit(
                game_id, user, command, version, choices, idempotency_key, order, seated, decoded, bot, listing
            )
    except (DelveError, IntegrityError):
        if idempotency_key is None or not seated:
            raise
        first = (
            CommandEntry.objects.filter(game_id=game_id, seat=seated[0], idempotency_key=idempotency_key)
            .values_list("command", "answer", "game__ruleset")
            .first()
        )
        if first is None:
            raise
        if first[0] != command:
            raise Rejected(
                "command/idempotency_key_reused",
                "this idempotency key was already used for a different command",
                status=422,
            ) from None
        return _replayed(ruleset_of(Game(pk=game_id, ruleset=first[2])), first[1] or {})


def _submit(
    game_id: int,
    user: Any,
    command: dict[str, Any],
    version: int | None,
    choices: str | None,
    idempotency_key: str | None,
    order: str | None,
    seated: list[int],
    decoded: Decoded | None = None,
    bot: bool = False,
    listing: bool = False,
) -> Answer:
    """The transaction of :func:`submit` (see there)."""
    sql = statements()
    authenticated = user is not None and user.is_authenticated
    found = sql.lock(game_id, user.pk if authenticated else None)
    if found is None:
        raise game_not_found(game_id)
    if not authenticated:
        raise Rejected("auth/required", "log in to act in a game", status=401)
    game, seat = found
    if seat is None:
        raise not_seated()
    seat_id, index, comment, bot_since = seat
    if index is not None:
        seated.append(index)
    if game.status == Game.Status.OPEN:
        raise Rejected("game/not_started", "the game has not started yet: wait for every seat to fill", status=422)
    if game.status == Game.Status.ENDED and command["kind"] != COMMENT:
        still = ": only your comment can still change" if takes_comments(ruleset_of(game)) else ""
        raise Rejected("game/ended", f"the game has ended{still}", status=422)
    if bot_since is not None and not bot and command["kind"] != COMMENT:
        raise Rejected(
            "seat/taken_over",
            "a bot plays this seat (you left it, or kept the game waiting): take it back first (the button at the "
            f"top of the game screen, or POST /api/v1/games/{game_id}/reclaim), then play",
            status=409,
        )
    current = seen_version(game, index)
    if version is not None and version != current:
        raise Rejected(
            "command/stale_version",
            f"the game is at version {current}, not {version}: reload it and decide again",
            status=409,
            current_version=current,
        )
    assert index is not None
    now = clock.now()
    ruleset = ruleset_of(game)
    if command["kind"] == COMMENT and not takes_comments(ruleset):
        raise IllegalCommand(
            "command/illegal",
            f"this game's rules ({ruleset.name}) have no player comments: the table talks in the game's "
            f"chat, /games/{game_id}/chat/",
        )
    state, events = _locked_state(game, ruleset, decoded)
    if game.status == Game.Status.RUNNING:
        events += ruleset.advance(state, now)
    if choices is not None and command["kind"] != COMMENT:
        digest = choices_digest(ruleset.legal_commands(state, index))
        if digest != choices:
            raise Rejected(
                "command/choices_changed",
                "your choices changed since you looked (something happened): look again and decide",
                status=409,
                current_version=seen_version(game, index),
                current_choices=digest,
            )
    if order is not None:
        if order_of(idempotency_key) != order:
            raise Rejected("request/malformed", "a standing order's command needs its order key", status=400)
        events.append(order_event(order, command, index, now))
    events += ruleset.apply(state, index, command, now)
    text = command.get("text")
    changed = command["kind"] == COMMENT and isinstance(text, str) and text != comment
    answer = _commit(
        game,
        ruleset,
        state,
        events,
        now,
        seat=index,
        command=command,
        key=idempotency_key,
        seat_comment=(seat_id, text) if changed else None,
        sql=sql,
    )
    if listing:
        # as GET .../commands would list them now: none once the game ended, the comment only
        # while a bot plays the seat for its idle player. Listed inside the transaction: once it
        # commits, the state is kept for the game's next command (kept.keep_on_commit), which
        # another thread may then take and change
        legal = ruleset.legal_commands(state, index) if game.status == Game.Status.RUNNING else []
        answer.commands = offered(legal, taken_over=bot_since is not None and not bot)
    return answer


def open_game(game_id: int, user: Any) -> Answer | None:
    """Apply the ruleset's ``command_on_open`` for ``user``'s seat, if it has one now (Fated
    Labyrinth: loading the screen starts a stored turn, FL-LOGIN-3). Its own transaction, like
    any command, and never counted against the user's idempotency keys. Nothing is applied while
    a bot plays the seat for its idle player (``Seat.bot_since``): looking is not playing, the bot
    starts its turns itself."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return None
    seat = seat_of(game, user)
    if seat is None or seat.index is None or seat.bot_since is not None:
        return None
    ruleset = ruleset_of(game)
    peek = Decoded(game.version, load_state(game, ruleset))
    peek.pending = ruleset.advance(peek.state, clock.now())
    if ruleset.command_on_open(peek.state, seat.index) is None:
        return None  # the usual case: no write transaction at all
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.RUNNING or Seat.objects.filter(pk=seat.pk, bot_since__isnull=False).exists():
            return None  # ended, or a bot took the seat over meanwhile
        now = clock.now()
        # the state looked at, unless the game moved meanwhile: decoded once
        state, events = _locked_state(game, ruleset, peek)
        events += ruleset.advance(state, now)
        command = ruleset.command_on_open(state, seat.index)
        if command is None:
            return None
        events += ruleset.apply(state, seat.index, command, now)
        return _commit(game, ruleset, state, events, now, seat=seat.index, command=command, source="open")


def advance(game: Game, now: int) -> Answer:
    """Bring a locked, running game's clock up to ``now`` (the worker's step)."""
    ruleset = ruleset_of(game)
    state, events = _locked_state(game, ruleset)
    events += ruleset.advance(state, now)
    return _commit(game, ruleset, state, events, now, seat=None, command=None, source="clock")


def seat_changed(game: Game, seat: int, source: str, now: int, decoded: Decoded | None = None) -> Answer:
    """Save a change of who plays ``seat`` of a locked, running game, made to its seat row in the
    same transaction (``source``: ``"takeover"``, a bot took the idle seat over; ``"reclaim"``,
    its player took it back): the clock brought up to ``now``, the server's public event
    (:func:`~delve.server.records.verify.seat_event`), a command-log entry of that source for the
    seat (no command, so a replay makes the event again), ``version + 1``, and every audience's
    counter moved, since every screen's seat list shows who plays a seat (no view does)."""
    ruleset = ruleset_of(game)
    state, events = _locked_state(game, ruleset, decoded)
    events += ruleset.advance(state, now)
    events.append(seat_event(source, seat, now))
    key = audience(seat)  # the seat's own counter moves as the actor's in _commit
    game.observed = {name: [int(entry[0]) + (name != key), entry[1]] for name, entry in (game.observed or {}).items()}
    return _commit(game, ruleset, state, events, now, seat=seat, command=None, source=source)


REASON_MAX = 300
"""The longest reason an operator may give for closing a game (it is shown to the players)."""


def close_reason_text(reason: Any) -> str:
    """The reason for closing a game as the players will read it: one line of printable text,
    1 to :data:`REASON_MAX` characters after trimming.

    :raises Rejected: 400 ``request/malformed`` otherwise, saying why."""
    if not isinstance(reason, str) or not reason.strip():
        raise Rejected("request/malformed", "give the reason the players will read for closing the game")
    reason = reason.strip()
    if has_control(reason):
        raise Rejected(
            "request/malformed", "the reason is one line of printable text: no line breaks or control characters"
        )
    if len(reason) > REASON_MAX:
        raise Rejected("request/malformed", f"the reason has {len(reason)} characters; at most {REASON_MAX}")
    return reason


def close(game_id: int, reason: str) -> Answer:
    """An operator ends a running game, outside its rules, in one transaction like a command: the
    clock brought up to now, the server's public ``game.closed`` event with ``reason`` (what the
    players read in the game's log and the "has ended" notice), then the ruleset's ``close``
    (nobody wins; :func:`delve.kernel.can_close`), and the game ends as every game ends
    (:func:`_commit`: ``game.ended``, its records written once, the clock stopped, live clients
    told). A command-log entry of source ``close`` (no seat; ``{"kind": "close", "reason": ...}``)
    makes the same events again on replay, so the game's export verifies.

    :raises Rejected: the game is not running (409 ``game/not_running``: one still open has no
        history to keep, delete it instead; one that ended stays as it ended), its rules have no
        way to close it (409 ``game/cannot_close``), or the reason is missing or malformed (400).
    """
    reason = close_reason_text(reason)
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.RUNNING:
            if game.status == Game.Status.OPEN:
                raise Rejected(
                    "game/not_running",
                    f"game {game_id} has not started: nobody has played it, so there is nothing to keep; delete it "
                    "instead (its registrations go with it)",
                    status=409,
                )
            raise Rejected("game/not_running", f"game {game_id} has already ended", status=409)
        ruleset = ruleset_of(game)
        try:
            close_ruleset = closer(ruleset)
        except DelveError as exc:
            raise Rejected("game/cannot_close", exc.message, status=409) from None
        now = clock.now()
        state, events = _locked_state(game, ruleset)
        events += ruleset.advance(state, now)
        events.append(closed_event(reason, now))
        events += close_ruleset(state, now)
        if not ruleset.outcome(state).ended:  # a ruleset's close must end the game
            raise Rejected("game/cannot_close", f"the rules of {ruleset.name} did not end the game", status=500)
        command = {"kind": CLOSE, "reason": reason}
        return _commit(game, ruleset, state, events, now, seat=None, command=command, source=CLOSE)


# --- saving ----------------------------------------------------------------------------------


def _append_events(game: Game, events: Sequence[Event], sql: Statements | None = None) -> None:
    rows = []
    for event in events:
        game.event_count += 1
        rows.append(
            (game.pk, game.event_count, event.time, event.kind, dict(event.data), EventEntry.visibility_for(event.to))
        )
    if rows:
        (sql or statements()).insert_events(rows)


def _commit(
    game: Game,
    ruleset: Ruleset[Any],
    state: Any,
    events: list[Event],
    now: int,
    *,
    seat: int | None,
    command: dict[str, Any] | None,
    source: str = CommandEntry.Source.PLAYER,
    key: str | None = None,
    seat_comment: tuple[int, str] | None = None,
    sql: Statements | None = None,
) -> Answer:
    """Save the state with ``version + 1``, append the command and its events, end the game (and
    write the records, exactly once) when the outcome says so. The command entry goes first, so
    that a reused idempotency key fails before anything else is written; the game row is updated
    in its changed fields only when it was loaded by :meth:`Statements.lock` (which remembers
    them), in full otherwise; ``seat_comment`` (a seat's id and its new comment) is saved with
    them. These writes go out as one batch (:meth:`Statements.batch`). ``sql``: the statements
    of the transaction's connection, when the caller has them at hand (looking a connection up
    goes through Django's per-context connection handler, a few microseconds each time)."""
    sql = sql or statements()
    loaded: dict[str, Any] | None = getattr(game, "_loaded", None)
    game.version += 1
    outcome = ruleset.outcome(state)
    if outcome.ended and game.status == Game.Status.RUNNING:
        game.status = Game.Status.ENDED
        game.ended_at = now
        events = [*events, Event(kind="game.ended", time=now, data=public_outcome(outcome))]
        write_records(game, game.seats.all(), outcome, now)
    game.state = ruleset.encode(state).decode()
    game.next_due_at = None if game.status == Game.Status.ENDED else ruleset.next_due(state)
    _observe(game, ruleset, state, events, actor=seat)
    kept.keep_on_commit(_alias(game), game.pk, game.ruleset, game.version, game.state, state, sql.connection)
    answer = Answer(
        sequence=game.version,
        version=seen_version(game, seat),
        events=[
            disclosed(ruleset, event.kind, event.time, event.data, private=not event.public)
            for event in events
            if event.visible_to(seat)
        ],
    )
    with sql.batch() if loaded is not None else contextlib.nullcontext():  # the ORM's save reads a row count
        sql.insert_command((game.pk, game.version, now, seat, source, command, key, answer.as_dict()))
        _append_events(game, events, sql)
        if loaded is None:
            game.save()
        else:
            sql.update_game(game, loaded)
        if seat_comment is not None:
            sql.update_comment(*seat_comment)
    if loaded is not None:
        game._loaded = snapshot(game)  # type: ignore[attr-defined]
    publish_on_commit(game.pk, game.observed, game.version, sql.connection)
    return answer


def _replayed(ruleset: Ruleset[Any], stored: Mapping[str, Any]) -> Answer:
    """The first answer to a repeated idempotency key, its events through today's allow-list (an
    answer stored before a field was withdrawn does not keep showing it)."""
    events = []
    for body in stored.get("events", []):
        events.append(
            disclosed(ruleset, body["kind"], body["time"], body.get("data", {}), private=bool(body.get("private")))
        )
    return Answer(sequence=stored["sequence"], version=stored["version"], events=events, replayed=True)
