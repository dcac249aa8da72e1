"""Finding what to tell players: the worker's scan of a game.

:func:`scan` looks at one game as it stands (its seats' :class:`~delve.kernel.Attention`, its
start and end) and records a :class:`Notice` for each event a human seat may be told about. The
``(user, game, kind, key)`` constraint records an event once however many passes or workers see
it; messages are queued in the same transaction as their notice. :func:`due_games` picks the
games worth scanning: changed since the last scan, or with a warning time come.

Triggers (the ``kind`` of a notice and its key):

- ``turn``: a stored turn waits unopened (key: the ruleset's ``waiting_key``);
- ``defense``: an attack (or trap, steal, pass-by) waits for a defense (key: ``defense_key``);
- ``cap``: the stored turns reach the cap within the player's ``cap_hours`` (key: the time of the
  first lost turn), only while at least half the cap is stored and none is being lost yet, and
  once per approach (:func:`cap_warning`);
- ``deadline_24h`` / ``deadline_1h``: the abandonment (or autopilot) deadline is that close, and
  was further away when the countdown began (a one-day deadline gets no "24 hours left" after
  each move); only the nearest one due is told (key: the deadline: once per deadline);
- ``takeover``: a bot took the player's seat over (the host's takeover time, or another player
  handed the long-idle seat to a bot: ``games.bots``) less than :data:`FRESH` seconds ago and
  still plays it (key: the takeover's time, so a second takeover after the player took the seat
  back is told again); the message links to the game, where the player takes the seat back. A
  player who left the table to a bot themselves is not told;
- ``started`` / ``ended``: the game started or ended less than :data:`FRESH` seconds ago.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.urls import reverse

from delve.kernel import DelveError
from delve.server import usertime
from delve.server.games import bots, closing
from delve.server.games.engine import load_state, public_outcome, ruleset_of
from delve.server.games.models import Game, Seat
from delve.server.lobby.table import table_seats, waiting_for
from delve.server.notify import channels, text
from delve.server.notify.models import Notice, OutboxMessage, Preference, Watch

log = logging.getLogger("delve.notify")

HOUR = 3600
WINDOWS = {"deadline_24h": 24 * HOUR, "deadline_1h": HOUR}
FRESH = 48 * HOUR
"""Starts and ends older than this are not announced (a server that starts notifying does not
tell everyone about old games)."""


def preference(user: Any) -> Preference:
    """The user's preferences, or the defaults (unsaved) when they never chose."""
    found = Preference.objects.filter(user=user).first()
    return found if found is not None else Preference(user=user)


def preferences(users: list[Any]) -> dict[int, Preference]:
    """:func:`preference` of each of ``users`` by user id, in one query."""
    saved = {pref.user_id: pref for pref in Preference.objects.filter(user__in=users)}
    return {user.pk: saved.get(user.pk) or Preference(user=user) for user in users}


def site_url(path: str) -> str:
    return settings.DELVE_SITE_URL.rstrip("/") + path


def game_label(game: Game) -> dict[str, str]:
    """``"#12 Fated Labyrinth"`` in each language."""
    try:
        presets = {choice.value: choice.label for choice in ruleset_of(game).presets()}
    except DelveError:
        presets = {}
    label = presets.get(game.preset, {})
    return {lang: f"#{game.pk} {label.get(lang) or label.get('en') or game.preset}" for lang in text.LANGUAGES}


def ended_words(game: Game, results: dict[str, str]) -> dict[str, Any]:
    """What the "has ended" notice tells beyond a seat's own result: the outcome of the game in
    each language (the winners and how, as the replay's last step says it) and the replay's link."""
    from django.utils import translation

    from delve.server.records.replay import outcome_sentence

    names = [seat.name for seat in game.seats.filter(index__isnull=False).order_by("index")]
    why = closing.reason(game)  # an operator closed it: the players read the reason given
    words = {}
    for lang in text.LANGUAGES:
        with translation.override(lang):
            words[lang] = outcome_sentence(game, results, lang, names)
        if why is not None:
            words[lang] += closing.told(why, lang)
    return {"outcome": words, "replay": site_url(reverse("replays:replay", args=[game.pk]))}


@dataclass
class Found:
    """What a scan found: the events and the next time a warning becomes due without a change."""

    events: list[tuple[Seat, str, str, int, dict[str, Any]]] = field(default_factory=list)
    next_check_at: int | None = None

    def later(self, at: int) -> None:
        if self.next_check_at is None or at < self.next_check_at:
            self.next_check_at = at


def player_seats(game: Game) -> tuple[list[Seat], list[Seat]]:
    """In one query, with their users: the seats a person plays (not bots, not hot-seat table
    seats), and the seats a bot took over from their player (``bot_since``: the player may take
    them back)."""
    humans, taken_over, _tables = _seats(game)
    return humans, taken_over


def _seats(game: Game) -> tuple[list[Seat], list[Seat], dict[int, list[Seat]]]:
    """:func:`player_seats`, and the hot-seat table seats by their host's user id (one query)."""
    every = list(game.seats.filter(index__isnull=False).select_related("user", "table"))
    tables: dict[int, list[Seat]] = {}
    for seat in every:
        if hasattr(seat, "table"):
            tables.setdefault(seat.table.host_id, []).append(seat)
    seats = [seat for seat in every if not hasattr(seat, "table")]
    active = [seat for seat in seats if seat.user.is_active]
    return (
        [seat for seat in active if not seat.is_bot],
        [seat for seat in active if seat.is_bot and seat.bot_since is not None],
        tables,
    )


def _left_by_choice(game: Game, seat: Seat) -> bool:
    """Whether the player handed the seat to a bot themselves (``games.bots.leave``): they are not
    told what they just did."""
    return bots.last_handed_to_bot(game, seat) == "leave"


def human_seats(game: Game) -> list[Seat]:
    """The seats a person plays (not bots, not hot-seat table seats), with their users."""
    return player_seats(game)[0]


def find(game: Game, now: int) -> Found:
    """The events of ``game`` a player may be told about at ``now`` (nothing is written)."""
    found = Found()
    if game.status == Game.Status.OPEN:
        return found
    seats, taken_over, tables = _seats(game)
    prefs = preferences([seat.user for seat in seats])
    base = {"game": game_label(game)}
    if game.started_at is not None and now - game.started_at < FRESH:
        for seat in seats:
            found.events.append((seat, "started", "started", game.started_at, {**base, "number": seat.number}))
    if game.status == Game.Status.ENDED:
        if game.ended_at is not None and now - game.ended_at < FRESH:
            outcome = public_outcome(ruleset_of(game).outcome(load_state(game)))
            told = {**base, **ended_words(game, outcome["results"])}
            # a player whose seat a bot was playing at the end is told too: it is their game
            for seat in [*seats, *taken_over]:
                result = outcome["results"].get(str(seat.index), "")
                data = {**told, "result": result}
                if game.ruleset == "fated":  # a give-up in the preset's words (P-33: Level D says 投了)
                    data["preset"] = game.preset
                found.events.append((seat, "ended", "ended", game.ended_at, data))
        return found
    for seat in taken_over:
        assert seat.bot_since is not None
        if now - seat.bot_since < FRESH and not _left_by_choice(game, seat):
            data = {**base, "at": seat.bot_since, "number": seat.number}
            found.events.append((seat, "takeover", str(seat.bot_since), seat.bot_since, data))
    ruleset = ruleset_of(game)
    state = load_state(game, ruleset)
    # a host whose own seat a bot plays still plays the seats of their table (hot-seat): told too
    hosts = [s for s in taken_over if any(not t.is_bot for t in tables.get(s.user_id, []))]
    for seat in [*seats, *hosts]:
        assert seat.index is not None
        # a decision waiting for a seat of the player's table (hot-seat) waits for them
        acting, seen = waiting_for(ruleset, state, seat, tables.get(seat.user_id, []))
        named = {**base, "name": acting.name}  # the seat that waits: a table seat by its own name
        if seen.deadline is not None:  # how long a push service keeps the message (channels.push_ttl)
            named["deadline"] = seen.deadline
        if seen.waiting_key:
            found.events.append((seat, "turn", seen.waiting_key, now, dict(named)))
        if seen.defense_key:
            found.events.append((seat, "defense", seen.defense_key, now, dict(named)))
        if seen.deadline is not None and seen.deadline_from is not None and now < seen.deadline:
            kind = deadline_warning(seen.deadline, seen.deadline_from, now, found)
            if kind is not None:
                data = {**base, "at": seen.deadline, "deadline": seen.deadline, "deadline_kind": seen.deadline_kind}
                if game.ruleset == "fated":  # the consequence in the preset's words (P-33)
                    data["preset"] = game.preset
                found.events.append((seat, kind, str(seen.deadline), now, data))
        if seen.loses_turns_at is not None and seen.action and not seen.losing:
            cap_warning(game, seat, seen, prefs[seat.user_id].cap_hours, now, found, base)
    return found


def cap_warning(
    game: Game, seat: Seat, seen: Any, cap_hours: int, now: int, found: Found, base: dict[str, Any]
) -> None:
    """The "turns will be lost" warning (FL-TURN-6), once per approach to the cap, into ``found``.

    Due when the first lost turn is ``cap_hours`` away or nearer and at least half the cap is
    stored: in a game of 30-second turns and a cap of 24 the cap is always less than six hours
    away, and "turns will be lost" at 0 of 24 stored, sent again every turn, told nothing. The
    key is the time of the first lost turn, which moves on each turn the player plays; so after
    a warning none is sent until the time it warned of has come: a player who keeps playing
    while near the cap is told once, and told again only on a new approach after that time."""
    assert seen.loses_turns_at is not None
    warn_at = seen.loses_turns_at - cap_hours * HOUR
    if now < warn_at:
        found.later(warn_at)
        return
    if not seen.cap or (seen.stored or 0) * 2 < seen.cap:
        return  # fewer than half the cap stored: the scan after the next change looks again
    last = (
        Notice.objects.filter(user_id=seat.user_id, game=game, kind="cap")
        .order_by("-time", "-id")
        .values_list("data", flat=True)
        .first()
    )
    warned_of = int(last.get("at", 0)) if isinstance(last, dict) else 0
    if warned_of > now:
        found.later(warned_of)  # this approach was warned of
        return
    data = {**base, "at": seen.loses_turns_at, "stored": seen.stored, "cap": seen.cap}
    found.events.append((seat, "cap", str(seen.loses_turns_at), now, data))


def deadline_warning(deadline: int, deadline_from: int, now: int, found: Found) -> str | None:
    """The deadline warning due at ``now`` for a countdown from ``deadline_from`` to ``deadline``
    (a kind of :data:`WINDOWS`), or None; ``found`` learns when the next one comes due.

    A window is warned of only when the countdown began before the window opened: a countdown
    exactly as long as the window (a one-day deadline, and every action starts a new one) has
    nothing to warn ahead of: "24 hours left" right after each move told nothing. When several
    windows are due at once (the worker was away), only the nearest is told: "24 hours left"
    is wrong with 30 minutes to go. A warning is recorded once per deadline (its key)."""
    due = None
    for kind, window in sorted(WINDOWS.items(), key=lambda item: item[1]):
        warn_at = deadline - window
        if deadline_from >= warn_at:
            continue  # the whole countdown is no longer than the window: nothing to warn ahead of
        if now >= warn_at:
            due = due or kind  # the nearest window due; the wider ones are past
        else:
            found.later(warn_at)
    return due


GRACED = frozenset({"turn", "defense"})
"""Kinds of notice about a decision waiting now: their messages wait ``settings.NOTIFY_GRACE``
seconds and are dropped if the decision was taken meanwhile (:func:`still_waiting`)."""

CHECKED = GRACED | frozenset(WINDOWS)
"""Kinds whose messages are checked again when they are sent (:func:`still_waiting`): a waiting
decision, and a deadline warning (sent at once, but a message that waits for a mail server or a
push service that failed is dropped once the player has acted and the deadline moved)."""


def still_waiting(notice: Notice) -> bool:
    """Whether what ``notice`` tells of still holds for its player: the game runs, the player
    still plays the seat, and the seat's attention still shows the notice's key (for a deadline
    warning, the deadline)."""
    game = notice.game
    if game.status != Game.Status.RUNNING:
        return False
    seat = game.seats.filter(user_id=notice.user_id, index__isnull=False, is_bot=False).first()
    if seat is None:
        return False
    assert seat.index is not None
    ruleset = ruleset_of(game)
    seen = waiting_for(ruleset, load_state(game, ruleset), seat, table_seats(game, seat.user))[1]
    if notice.kind in WINDOWS:
        return seen.deadline is not None and str(seen.deadline) == notice.key
    return (seen.waiting_key if notice.kind == "turn" else seen.defense_key) == notice.key


def record(game: Game, found: Found, now: int) -> list[Notice]:
    """Record each found event once and queue its messages; the notices created now. Most of a
    game's events were recorded by an earlier pass (a start stays found for two days, a waiting
    turn until it is opened): they are read in one query and skipped, and only the others are
    tried, each in its own transaction that the unique constraint guards."""
    if not found.events:
        return []
    recorded = set(
        Notice.objects.filter(
            game=game,
            user__in={seat.user_id for seat, *_ in found.events},
            kind__in={kind for _, kind, *_ in found.events},
            key__in={key for _, _, key, *_ in found.events},
        ).values_list("user_id", "kind", "key")
    )
    created = []
    for seat, kind, key, time, fields in found.events:
        if (seat.user_id, kind, key) in recorded:
            continue
        data = {"name": seat.name, **fields}  # an event may name the table seat that waits
        try:
            with transaction.atomic():
                if Notice.objects.filter(user=seat.user, game=game, kind=kind, key=key).exists():
                    continue
                notice = Notice.objects.create(user=seat.user, game=game, kind=kind, key=key, time=time, data=data)
                queue(notice, preference(seat.user), now)
        except IntegrityError:  # another worker recorded it first
            continue
        created.append(notice)
    return created


def queue(notice: Notice, pref: Preference, now: int) -> None:
    """Queue a new notice's messages as the user's preferences say (inside its transaction)."""
    if not pref.wants(notice.kind):
        notice.skipped = True
        notice.save(update_fields=["skipped"])
        return
    url = site_url(reverse("play:game", args=[notice.game_id]))
    subject, body = text.render(notice.kind, notice.data, pref.language, usertime.zone(pref.time_zone))
    email = pref.email and bool(notice.user.email)
    push = pref.push and channels.push_enabled() and notice.user.push_subscriptions.exists()
    if email and pref.mode == Preference.Mode.DIGEST:
        notice.digest = True
        notice.save(update_fields=["digest"])
        email = False
    graced = notice.kind in GRACED
    for channel, wanted in ((OutboxMessage.Channel.EMAIL, email), (OutboxMessage.Channel.PUSH, push)):
        if wanted:
            message = OutboxMessage.objects.create(
                user=notice.user,
                channel=channel,
                subject=subject,
                body=body,
                url=url,
                created_at=now,
                next_attempt_at=now + (settings.NOTIFY_GRACE if graced else 0),
                notice=notice if notice.kind in CHECKED else None,
            )
            if notice.message_id is None:
                notice.message = message
                notice.save(update_fields=["message"])
    if not email and not push and not notice.digest:
        notice.skipped = True
        notice.save(update_fields=["skipped"])


def due_games(now: int) -> QuerySet[Game]:
    """Games to scan: started ones changed since their last scan, or whose next check has come."""
    return (
        Game.objects.exclude(status=Game.Status.OPEN)
        .filter(
            Q(notify_watch__isnull=True)
            | ~Q(notify_watch__scanned_version=F("version"))
            | Q(notify_watch__next_check_at__lte=now)
        )
        .order_by("pk")
    )


def scan(game: Game, now: int) -> list[Notice]:
    """Scan one game and move its watch; the notices created."""
    found = find(game, now)
    created = record(game, found, now)
    bookmark = {"scanned_version": game.version, "next_check_at": found.next_check_at}
    if not Watch.objects.filter(game=game).update(**bookmark):  # one UPDATE, but for a game's first scan
        Watch.objects.update_or_create(game=game, defaults=bookmark)
    return created


def scan_due(now: int, limit: int = 200) -> int:
    """Scan up to ``limit`` due games; the number of notices created."""
    count = 0
    for game in due_games(now)[:limit]:
        try:
            count += len(scan(game, now))
        except DelveError as exc:  # a ruleset this process does not know: try again later
            log.error("game %s not scanned for notifications: %s", game.pk, exc)
    return count
