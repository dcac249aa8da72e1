"""Bots at the table: the worker's loop lets every bot seat of a running game play.

A bot decides from its seat's view and legal commands (``delve.bots``), then submits through
the same transaction as any player (``engine.submit``) with the version it saw and an
idempotency key derived from it, so two workers acting at once apply a bot's move once and a
decision made on a stale state is refused (409) and simply taken again on the next pass.

Bots come to a table in two ways, both the host's choice: :func:`seat_bots` fills empty seats
when the game is opened, and a game with a takeover time (``Game.bot_takeover_after``, shorter
than the abandonment time: :func:`check_takeover`) hands a seat that kept everyone waiting that
long to a bot (:func:`take_over_idle`, run by the worker). Bot seats say so everywhere seats are
shown, and never enter personal records.

A takeover is a change of the game like any other (``engine.seat_changed``): a public
``seat.taken_over`` event in the game's log, the game's version and every audience's counter
moved, live clients told on commit; the notification worker then tells the player
(``notify.triggers``, kind ``takeover``). The player takes the seat back with :func:`reclaim`
(the game screens' "Take my seat back", ``POST /api/v1/games/{id}/reclaim``): a public
``seat.reclaimed`` event, and the seat's idle time starts again then (:func:`idle_since`). The
seat keeps no record: a game partly played by a bot never enters personal records.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from delve.bots import bot_for
from delve.kernel import DelveError, Ruleset, attention
from delve.server import clock
from delve.server.games import closing, engine, present
from delve.server.games.errors import Rejected, game_not_found, not_seated
from delve.server.games.models import PUBLIC, CommandEntry, Game, Seat

log = logging.getLogger("delve.bots")


def bot_games() -> list[int]:
    return list(
        Game.objects.filter(status=Game.Status.RUNNING, seats__is_bot=True).distinct().values_list("pk", flat=True)
    )


def play_once(game_id: int) -> int:
    """Let each bot seat of one game play at most one command; the number played."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
    if game is None:
        return 0
    bot = bot_for(game.ruleset, game.settings)
    if bot is None:
        return 0
    played = 0
    for seat in game.seats.filter(is_bot=True).exclude(index=None).select_related("user").order_by("index"):
        game.refresh_from_db(fields=["version", "observed", "state", "status"])
        if game.status != Game.Status.RUNNING:
            break
        now = present.current(game)
        assert now is not None and seat.index is not None
        legal = now.ruleset.legal_commands(now.state, seat.index)
        command = bot.choose(present.seat_view(game, now, seat.index), legal)
        if command is None:
            continue
        try:
            # the guard: what this seat saw; the key: the game's own version (server-side only);
            # the state the bot decided on is not decoded again
            seen = engine.seen_version(game, seat.index)
            key = f"bot-{seat.index}-{game.version}"
            decoded = engine.Decoded(game.version, now.state, now.pending)
            engine.submit(game.pk, seat.user, command, version=seen, idempotency_key=key, decoded=decoded, bot=True)
            played += 1
        except DelveError as exc:  # a stale view (409) or a race: decide again next pass
            log.debug("bot %s in game %s: %s", seat.name, game.pk, exc)
        present.forget(game)  # the submit went on with that state: decode afresh next time
    return played


def play_all() -> int:
    """One pass over every game with bots (after handing idle seats over to bots)."""
    take_over_idle()
    return sum(play_once(game_id) for game_id in bot_games())


# --- seating bots --------------------------------------------------------------------------------


def bot_options(ruleset: Ruleset[Any], settings: dict[str, Any], number: int) -> dict[str, str]:
    """A bot's registration choices: each option's choices in turn (bot 1 the first class, bot 2
    the second...), so a table of bots is a varied one."""
    out = {}
    for option in engine.player_options(ruleset.seat_options(settings)):
        values = [choice.value for choice in option.choices]
        out[option.key] = values[(number - 1) % len(values)] if values else option.default
    return out


def seat_bots(game_id: int, host: Any, count: int | None = None) -> int:
    """Seat bots in ``count`` (default: every) empty seats of an open game; only its host (or
    staff) may. The last seat filled starts the game. Bots keep no record. The number seated.

    :raises Rejected: not the host, not open, no bot for this game, or more bots than empty seats.
    """
    from delve.server.games.demo import BOT_NAMES, bot_user

    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Rejected("game/not_found", f"there is no game {game_id}", status=404)
    if game.created_by_id != getattr(host, "pk", None) and not getattr(host, "is_staff", False):
        raise Rejected("lobby/not_host", "only the player who opened this game may seat bots", status=403)
    if game.status != Game.Status.OPEN:
        raise Rejected("registration/closed", "this game has already started", status=409)
    if bot_for(game.ruleset) is None:
        raise Rejected("lobby/no_bot", f"no computer player for {game.ruleset} is installed on this server", status=409)
    empty = game.seat_count - game.seats.count()
    count = empty if count is None else count
    if not 0 <= count <= empty:
        raise Rejected("lobby/too_many_bots", f"{count} bots asked for, but {empty} seats are empty", status=400)
    ruleset = engine.ruleset_of(game)
    taken = set(game.seats.values_list("user_id", flat=True))
    names = set(game.seats.values_list("name", flat=True))
    seated, number = 0, 0
    while seated < count:
        number += 1
        user = bot_user((number - 1) % len(BOT_NAMES) + 1) if number <= len(BOT_NAMES) else _extra_bot(number)
        if user.pk in taken:
            continue
        name = BOT_NAMES[(number - 1) % len(BOT_NAMES)]
        while name in names:
            name += "′"
        engine.register(
            game.pk, user, name, bot_options(ruleset, game.settings, number), keep_record=False, is_bot=True
        )
        names.add(name)
        taken.add(user.pk)
        seated += 1
    return seated


def _extra_bot(number: int) -> Any:
    from delve.server.accounts.reserved import machine_account

    return machine_account(f"bot-{number}")


# --- bots taking over idle seats -----------------------------------------------------------------


def abandonment_seconds(ruleset: Ruleset[Any], settings: dict[str, Any]) -> int | None:
    """How long a seat may stay idle before the game itself gives up on it (Fated's abandonment,
    White Maiden's turn deadline), or None when nothing does."""
    resolved = ruleset.validate_settings(settings)
    if isinstance(resolved.get("abandon_time"), int):
        return int(resolved["abandon_time"])
    hours = resolved.get("turn_deadline_hours")
    if isinstance(hours, int) and hours > 0:
        return hours * 3600
    return None


def check_takeover(ruleset: Ruleset[Any], settings: dict[str, Any], seconds: int | None) -> None:
    """A takeover time must be positive and shorter than the game's own abandonment time.

    :raises Rejected: naming both times.
    """
    if seconds is None:
        return
    if seconds <= 0:
        raise Rejected("lobby/bad_takeover", "a bot takeover time must be longer than zero", status=400)
    limit = abandonment_seconds(ruleset, settings)
    if limit is not None and seconds >= limit:
        raise Rejected(
            "lobby/bad_takeover",
            f"a bot takeover after {seconds // 3600} h {seconds % 3600 // 60} min is not shorter than this game's "
            f"abandonment time ({limit // 3600} h {limit % 3600 // 60} min)",
            status=400,
        )


def idle_since(game: Game, ruleset: Ruleset[Any], state: Any, seat: Seat) -> int | None:
    """Since when ``seat`` has kept the game waiting, or None when nothing waits for it: the
    ruleset's deadline origin when it has one (Fated: the later of the last action and the end of
    the wait phase), else the game's last change by a player (the seat has waited since then);
    never before the player last took the seat back from a bot (:func:`reclaim`), so a seat
    taken back is not taken over again before a whole takeover time has passed."""
    assert seat.index is not None
    owed = attention(ruleset, state, seat.index)
    if not owed.action:
        return None
    if owed.deadline_from is not None:
        since = int(owed.deadline_from)
    else:
        last = (
            CommandEntry.objects.filter(game=game, source=CommandEntry.Source.PLAYER)
            .order_by("-sequence")
            .values_list("time", flat=True)
            .first()
        )
        since = max(int(last or 0), int(game.started_at or 0))
    reclaimed = (
        CommandEntry.objects.filter(game=game, seat=seat.index, source=CommandEntry.Source.RECLAIM)
        .order_by("-sequence")
        .values_list("time", flat=True)
        .first()
    )
    return since if reclaimed is None else max(since, int(reclaimed))


def take_over_idle(now: int | None = None) -> int:
    """Hand every human seat that has kept its game waiting past the host's takeover time to a
    bot (the seat becomes a bot seat, ``bot_since`` = now), each saved as a change of the game
    with its public ``seat.taken_over`` event (``engine.seat_changed``). The number of seats
    taken over."""
    now = clock.now() if now is None else now
    taken = 0
    for game_id in Game.objects.filter(status=Game.Status.RUNNING, bot_takeover_after__isnull=False).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.status != Game.Status.RUNNING or game.bot_takeover_after is None:
                continue
            ruleset = engine.ruleset_of(game)
            if bot_for(game.ruleset) is None:
                continue
            state = engine.load_state(game, ruleset)
            pending = ruleset.advance(state, max(now, getattr(state, "clock", 0)))
            decoded = engine.Decoded(game.version, state, pending)  # saved with the first takeover
            # hot-seat seats are played by their host at the table: never taken over
            humans = game.seats.filter(is_bot=False, index__isnull=False, table__isnull=True)
            for seat in humans:
                assert seat.index is not None
                since = idle_since(game, ruleset, state, seat)
                if since is None or now - since < game.bot_takeover_after:
                    continue
                seat.is_bot, seat.bot_since, seat.keep_record = True, now, False
                seat.save(update_fields=["is_bot", "bot_since", "keep_record"])
                engine.seat_changed(game, seat.index, CommandEntry.Source.TAKEOVER, now, decoded)
                log.info("a bot took over seat %s (%s) of game %s", seat.index, seat.name, game.pk)
                taken += 1
                if game.status != Game.Status.RUNNING:
                    break  # the clock brought up to now ended the game
    return taken


IDLE_HANDOVER = 48 * 3600
"""How long a seat must have kept its game waiting before another player at the table may hand
it to a bot (:func:`hand_over`): without a takeover time or a turn deadline, a player who stops
coming would otherwise hold a cooperative game still for good."""


def _seat_for_change(game_id: int, user: Any, verb: str, *, bot_needed: bool = True) -> tuple[Game, Seat]:
    """The locked running game and the caller's own seat, for a change of who plays a seat (in
    the caller's transaction).

    :raises Rejected: not logged in (401), no such game (404), no seat in it (403), the game has
        not started or has ended (422), no bot can play this game (422, when ``bot_needed``).
    """
    if user is None or not user.is_authenticated:
        raise Rejected("auth/required", f"log in to {verb}", status=401)
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise game_not_found(game_id)
    seat = engine.seat_of(game, user)
    if seat is None:
        raise not_seated()
    if game.status == Game.Status.OPEN:
        raise Rejected("game/not_started", "the game has not started yet: nobody plays a seat yet", status=422)
    if game.status == Game.Status.ENDED:
        raise Rejected("game/ended", "the game has ended: no seat changes hands any more", status=422)
    if bot_needed and bot_for(game.ruleset) is None:
        raise Rejected("seat/no_bot", "no bot can play this game", status=422)
    return game, seat


def _at_table(seat: Seat) -> bool:
    """Whether ``seat`` is a hot-seat seat, played by its host at the table (``lobby.TableSeat``)."""
    return Seat.objects.filter(pk=seat.pk, table__isnull=False).exists()


def _to_bot(game: Game, seat: Seat, source: str, now: int) -> engine.Answer:
    """Hand ``seat`` of the locked ``game`` to a bot now, saved as a change of the game."""
    assert seat.index is not None
    seat.is_bot, seat.bot_since, seat.keep_record = True, now, False
    seat.save(update_fields=["is_bot", "bot_since", "keep_record"])
    return engine.seat_changed(game, seat.index, source, now)


def leave(game_id: int, user: Any, seats: Sequence[Any] | None = None) -> engine.Answer:
    """``user`` leaves the table: from now a bot plays their seat (the game goes on for the
    others: in a cooperative game the team keeps its maiden), saved as a change of the game with
    its public ``seat.left`` event. The player may take the seat back later (:func:`reclaim`); the
    seat keeps no personal record from now on.

    ``seats``: the seat indices to hand to a bot, among those the caller plays themselves
    (:func:`played_seats`: their own and, at a hot-seat table, their table's); absent: their own
    seat. Each is one change of the game (one ``seat.left`` event); the answer is the last one's.

    :raises Rejected: see :func:`_seat_for_change`; a seat a bot already plays (409), a hot-seat
        seat as the caller's own (played at its host's table: 409), no seat or a malformed one
        named (400), a seat the caller does not play (403); nothing changes.
    """
    with transaction.atomic():
        game, own = _seat_for_change(game_id, user, "leave a game")
        if seats is None:
            if own.is_bot:
                raise Rejected("seat/bot", "a bot plays your seat already", status=409)
            if _at_table(own):
                raise Rejected(
                    "seat/table", "a hot-seat seat is played at its host's table: it cannot leave", status=409
                )
            chosen = [own]
        else:
            chosen = _chosen(game, user, seats)
            for seat in chosen:
                if seat.is_bot:
                    raise Rejected("seat/bot", f"a bot plays the seat of {seat.name} already", status=409)
        now = clock.now()
        answer: engine.Answer | None = None
        for seat in chosen:
            if game.status != Game.Status.RUNNING:
                break  # the clock brought up to now ended the game
            answer = _to_bot(game, seat, CommandEntry.Source.LEAVE, now)
        assert answer is not None
    for seat in chosen:
        log.info("the player of seat %s (%s) of game %s left it to a bot", seat.index, seat.name, game.pk)
    return answer


def played_seats(game: Game, user: Any) -> list[Seat]:
    """The started seats of ``game`` that ``user`` plays themselves now, by index: their own and,
    at a hot-seat table, their table's (``lobby.TableSeat``), those no bot plays."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        game.seats.filter(Q(user=user) | Q(table__host=user), index__isnull=False, is_bot=False).order_by("index")
    )


def _chosen(game: Game, user: Any, seats: Sequence[Any]) -> list[Seat]:
    """The seats of the locked ``game`` named by ``seats`` (indices, each once, in seat order)
    that ``user`` controls (their own, their table's), whoever plays them now.

    :raises Rejected: none named or one not a seat index (400), a seat they do not control (403).
    """
    if not seats:
        raise Rejected("request/malformed", "seats: name at least one seat to hand to a bot")
    wanted = set()
    for index in seats:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < game.seat_count:
            raise Rejected(
                "request/malformed",
                f"seats: seat indices from 0 to {game.seat_count - 1} (the seat numbered 01 is index 0)",
            )
        wanted.add(index)
    mine = {
        seat.index: seat for seat in game.seats.filter(Q(user=user) | Q(table__host=user), index__in=sorted(wanted))
    }
    for index in sorted(wanted):
        if index not in mine:
            raise Rejected("seat/not_yours", f"you do not play seat {index + 1:02d} in this game", status=403)
    return [mine[index] for index in sorted(wanted)]


def hand_over(game_id: int, user: Any, seat_index: Any) -> engine.Answer:
    """A player at the table hands another player's seat to a bot because it has kept the game
    waiting at least :data:`IDLE_HANDOVER` seconds (:func:`idle_since`), saved as a change of the
    game with its public ``seat.handed_over`` event; that player is told (the ``takeover``
    notification) and may take the seat back (:func:`reclaim`).

    :raises Rejected: see :func:`_seat_for_change`; the caller's seat is played by a bot (409: take
        it back first), ``seat_index`` not a seat number of the game (400), the caller's own seat
        (400: leave instead), a bot's or a hot-seat seat (409), a seat that has not kept the game
        waiting that long (409, saying for how long it has); nothing changes.
    """
    with transaction.atomic():
        game, mine = _seat_for_change(game_id, user, "hand a seat to a bot")
        if mine.is_bot:
            raise Rejected("seat/bot", "a bot plays your seat: take it back before handing another", status=409)
        if isinstance(seat_index, bool) or not isinstance(seat_index, int) or not 0 <= seat_index < game.seat_count:
            raise Rejected(
                "request/malformed",
                f"seat: a seat index from 0 to {game.seat_count - 1} (the seat numbered 01 is index 0)",
                status=400,
            )
        if seat_index == mine.index:
            raise Rejected("request/malformed", "that is your own seat: leave the game to hand it to a bot")
        seat = game.seats.filter(index=seat_index).first()
        if seat is None or seat.is_bot or _at_table(seat):
            raise Rejected("seat/not_idle", "only a seat a person plays can be handed to a bot", status=409)
        now = clock.now()
        ruleset = engine.ruleset_of(game)
        state = engine.load_state(game, ruleset)
        since = idle_since(game, ruleset, state, seat)
        if since is None or now - since < IDLE_HANDOVER:
            waited = "is not keeping the game waiting" if since is None else f"has kept it waiting {_span(now - since)}"
            raise Rejected(
                "seat/not_idle",
                f"that seat {waited}: a seat can be handed to a bot once it has kept the game waiting "
                f"{_span(IDLE_HANDOVER)}",
                status=409,
            )
        answer = _to_bot(game, seat, CommandEntry.Source.HANDOVER, now)
    log.info("seat %s (%s) of game %s was handed to a bot by seat %s", seat.index, seat.name, game.pk, mine.index)
    return answer


def _span(seconds: int) -> str:
    hours, minutes = divmod(max(0, int(seconds)) // 60, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def handover_offers(game: Game, mine: Seat | None) -> list[dict[str, Any]]:
    """The seats the player of ``mine`` may hand to a bot now (:func:`hand_over`), for the game
    screens: each with its index, name and since when it has kept the game waiting. Empty for a
    spectator, a bot's seat, a game not running or without a bot."""
    if (
        mine is None
        or mine.is_bot
        or game.status != Game.Status.RUNNING
        or bot_for(game.ruleset) is None
        or game.started_at is None
    ):
        return []
    now = clock.now()
    if now - int(game.started_at) < IDLE_HANDOVER or _at_table(mine):
        return []  # nobody can have waited that long yet (no state is read), or a hot-seat table
    ruleset = engine.ruleset_of(game)
    state = engine.load_state(game, ruleset)
    offers = []
    for seat in game.seats.filter(is_bot=False, index__isnull=False, table__isnull=True).exclude(pk=mine.pk):
        since = idle_since(game, ruleset, state, seat)
        if since is not None and now - since >= IDLE_HANDOVER:
            offers.append(
                {
                    "game": game.pk,
                    "seat": seat.index,
                    "name": seat.name,
                    "since": dt.datetime.fromtimestamp(since, tz=dt.UTC),
                }
            )
    return offers


def reclaim(game_id: int, user: Any, seat_index: Any = None) -> engine.Answer:
    """``user`` takes their seat back from the bot that took it over (:func:`take_over_idle`):
    the seat is theirs to play again (``is_bot`` false, ``bot_since`` cleared) and still keeps no
    record (a game partly played by a bot never enters personal records), saved as a change of
    the game with its public ``seat.reclaimed`` event (``engine.seat_changed``). The seat's idle
    time starts again now (:func:`idle_since`). ``seat_index``: a seat of the caller's hot-seat
    table they handed to a bot (:func:`leave`), or their own; absent: their own.

    :raises Rejected: not logged in (401), no such game (404), no seat in it (403), the game has
        not started or has ended (422), a seat the caller does not control (403), the seat is not
        one a bot took over (409); nothing changes.
    """
    with transaction.atomic():
        game, seat = _seat_for_change(game_id, user, "take your seat back", bot_needed=False)
        if seat_index is not None and seat_index != seat.index:
            seat = _chosen(game, user, [seat_index])[0]
        if not seat.is_bot or seat.bot_since is None:
            raise Rejected(
                "seat/not_taken_over", "no bot has taken your seat over: it is yours to play already", status=409
            )
        assert seat.index is not None
        seat.is_bot, seat.bot_since, seat.keep_record = False, None, False
        seat.save(update_fields=["is_bot", "bot_since", "keep_record"])
        answer = engine.seat_changed(game, seat.index, CommandEntry.Source.RECLAIM, clock.now())
    log.info("the player of seat %s (%s) of game %s took it back from the bot", seat.index, seat.name, game.pk)
    return answer


# --- the words of seat changes (both game screens, the log and the replay) ----------------------

SEAT_SENTENCES: dict[str, dict[str, tuple[str, str]]] = {
    # kind -> language -> (about another player, about the reader)
    "seat.taken_over": {
        "en": (
            "{who} kept the game waiting too long: a bot plays that seat now.",
            "You kept the game waiting too long: a bot plays your seat now.",
        ),
        "ja": (
            "{who}が長くゲームを待たせたため、ボットがその席をプレイしています。",
            "あなたが長くゲームを待たせたため、ボットがあなたの席をプレイしています。",
        ),
    },
    "seat.reclaimed": {
        "en": ("{who} took their seat back from the bot.", "You took your seat back from the bot."),
        "ja": ("{who}がボットから席を取り戻した。", "あなたがボットから席を取り戻した。"),
    },
    "seat.left": {
        "en": ("{who} left the table: a bot plays that seat now.", "You left the table: a bot plays your seat now."),
        "ja": (
            "{who}が席を離れたため、ボットがその席をプレイしています。",
            "あなたが席を離れ、ボットがあなたの席をプレイしています。",
        ),
    },
    "seat.handed_over": {
        "en": (
            "{who} kept the game waiting for days: another player handed that seat to a bot.",
            "You kept the game waiting for days: another player handed your seat to a bot.",
        ),
        "ja": (
            "{who}が何日もゲームを待たせたため、他のプレイヤーがその席をボットに任せた。",
            "あなたが何日もゲームを待たせたため、他のプレイヤーがあなたの席をボットに任せた。",
        ),
    },
}


def is_seat_change(kind: str) -> bool:
    return kind in SEAT_SENTENCES


def reclaim_offer(game: Game, seat: Seat | None) -> dict[str, Any] | None:
    """What the game screens show the player of ``seat`` while a bot plays it because they kept
    the game waiting or left it (the "Take my seat back" control): the game and since when, or
    ``None`` when there is nothing to take back."""
    if seat is None or game.status != Game.Status.RUNNING or not seat.is_bot or seat.bot_since is None:
        return None
    why = last_handed_to_bot(game, seat) or "takeover"
    return {"game": game.pk, "since": dt.datetime.fromtimestamp(seat.bot_since, tz=dt.UTC), "why": why}


def reclaim_offers(game: Game, seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """:func:`reclaim_offer` for each of ``seats`` (a hot-seat host's: their own and their
    table's) a bot plays now, each with the seat's index and name."""
    offers = []
    for seat in seats:
        offer = reclaim_offer(game, seat)
        if offer is not None:
            offers.append({**offer, "seat": seat.index, "name": seat.name})
    return offers


def last_handed_to_bot(game: Game, seat: Seat) -> str | None:
    """How ``seat`` was last handed to a bot: the source of its latest such log entry (one of
    :data:`TO_BOT`), or None when it never was."""
    return (
        game.commands.filter(seat=seat.index, command__isnull=True, source__in=list(TO_BOT))
        .order_by("-sequence")
        .values_list("source", flat=True)
        .first()
    )


TO_BOT = ("takeover", "leave", "handover")
"""The command-log sources that hand a seat to a bot: the host's takeover time, the player
leaving, another player handing a long-idle seat over."""


def can_leave(game: Game, seat: Seat | None) -> bool:
    """Whether the player of ``seat`` may leave the table to a bot now (:func:`leave`): the game
    runs, a bot can play it, the seat is theirs to play (not a bot's, not a hot-seat seat)."""
    return (
        seat is not None
        and not seat.is_bot
        and game.status == Game.Status.RUNNING
        and bot_for(game.ruleset) is not None
        and not _at_table(seat)
    )


def leave_seats(game: Game, user: Any) -> list[Seat]:
    """The seats ``user`` may hand to a bot now (:func:`leave` with ``seats``): those they play
    themselves (:func:`played_seats`), while the game runs and a bot can play it."""
    if game.status != Game.Status.RUNNING or bot_for(game.ruleset) is None:
        return []
    return played_seats(game, user)


RECENT = 300
"""How far back (in the game's events) the recent-events panels look for seat changes: further
than either panel shows, so the lookup reads a bounded slice of the log however long the game."""


def seat_events(game: Game, count: int = 5) -> list[dict[str, Any]]:
    """The newest ``count`` public seat changes (taken over, taken back) and an operator's closing
    of the game among the game's last :data:`RECENT` events, newest first, as flat entries
    (``kind``, ``time``, ``seat``; ``reason`` for the closing), for the screens' recent-events
    panels (a ruleset's views show only its own events)."""
    entries = (
        game.events.filter(
            kind__in=[*SEAT_SENTENCES, closing.CLOSED],
            visibility=PUBLIC,
            sequence__gt=max(0, game.event_count - RECENT),
        )
        .order_by("-sequence")
        .values_list("kind", "time", "data")[:count]
    )
    found = []
    for kind, time, data in entries:
        if not isinstance(data, dict):
            continue
        entry = {"kind": kind, "time": time, "seat": data.get("seat")}
        if kind == closing.CLOSED:
            entry["reason"] = data.get("reason")
        found.append(entry)
    return found


def seat_sentence(kind: str, who: str, lang: str, *, you: bool = False) -> str:
    """A ``seat.taken_over`` or ``seat.reclaimed`` event as a sentence in ``lang`` (``en`` or
    ``ja``; others get English): ``who`` names the seat's player as the screen does, ``you``
    when the reader plays that seat."""
    words = SEAT_SENTENCES[kind]["ja" if lang[:2] == "ja" else "en"]
    return words[1] if you else words[0].format(who=who)


def describe(game: Game) -> dict[str, Any]:
    return {"game": game.pk, "bots": list(game.seats.filter(is_bot=True).values_list("name", flat=True))}
