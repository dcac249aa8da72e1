"""White Maiden as a kernel ``Ruleset`` (registered as ``maiden``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from delve.kernel import (
    Attention,
    Choice,
    Event,
    GameOutcome,
    IllegalCommand,
    SeatInfo,
    SeatOption,
    SettingHelp,
    SettingLine,
    Text,
    plain_hash,
    quote_json,
)
from delve.kernel.lasting import Lasting
from delve.maiden import autopilot, commands, flow, journal, movement, rounds, settings, setup, state, view
from delve.maiden.ctx import Ctx, load_content
from delve.maiden.journal import Journal
from delve.maiden.state import Game

#: At most this many autopilot commands per expired deadline (a safety bound; a seat's turn
#: needs far fewer).
AUTOPLAY_LIMIT = 500


class MaidenRuleset:
    """The engine contract for White Maiden. ``content`` replaces the shipped content (tests)."""

    name = "maiden"
    #: No seat comments in White Maiden: the table talks in the game's chat.
    comments = False
    #: The parts of its views that the server's view digests identify by their own digest (the
    #: views hook hands them out as lasting parts, hashed once while kept).
    digest_parts = ("areas", "arcana", "bosses", "map.rooms", "map.edges", "map.passages")

    def __init__(self, content: Any = None) -> None:
        self._content = content
        # The legal commands the views hook listed, by the state without its clock (legality does
        # not depend on it) and the seat: the next command's apply, usually made on that state
        # with only the clock moved on, finds them there instead of listing them again.
        self._legal: Lasting[list[dict[str, Any]]] = Lasting(32)
        # The movement routes that listing computed (by the same state, then by seat): a move
        # made from that state takes its route from there instead of searching the map again.
        self._routes: Lasting[dict[int, movement.Routes]] = Lasting(32)

    @property
    def content(self) -> Any:
        if self._content is None:
            self._content = load_content()
        return self._content

    def _ctx(self, game: Game, now: int) -> Ctx:
        return Ctx(game, now, self.content)

    # -- settings and seats ---------------------------------------------------------------

    def presets(self) -> list[Choice]:
        return settings.presets()

    def title(self, values: Mapping[str, Any]) -> Text:
        """The game's name from its settings (``settings.title``): the preset's only when the game
        plays that preset's rules."""
        return settings.title(values)

    def validate_settings(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        return settings.as_dict(settings.resolve(overrides))

    def seat_count(self, overrides: Mapping[str, Any]) -> int:
        return settings.resolve(overrides).players

    def seat_options(self, overrides: Mapping[str, Any]) -> list[SeatOption]:
        """None: the familiar is chosen in the game, in seat order (MV-SETUP-9/16)."""
        settings.resolve(overrides)
        return []

    def setting_help(self) -> list[SettingHelp]:
        """Every setting key a game may be given, with its label and a short help."""
        return [
            SettingHelp(key, label, settings.HELP[key], settings.VALUES.get(key))
            for key, label in settings.LABELS.items()
        ]

    def describe_settings(self, overrides: Mapping[str, Any]) -> list[SettingLine]:
        return [
            SettingLine(
                key,
                label,
                value,
                shown,
                choices=settings.choices(key),
                low=settings.RANGES.get(key, (None, None))[0],
                high=settings.RANGES.get(key, (None, None))[1],
            )
            for key, label, value, shown in settings.describe(settings.resolve(overrides))
        ]

    # -- the game -------------------------------------------------------------------------

    def setup(self, overrides: Mapping[str, Any], seats: Sequence[SeatInfo], seed: int, now: int) -> Game:
        game = setup.create(overrides, seats, seed, now, self.content)
        ctx = self._ctx(game, now)
        flow.proceed(ctx)
        flow.update_clock(ctx)
        return game

    def advance(self, game: Game, now: int) -> list[Event]:
        """The turn clock: every deadline passed by ``now`` has the waiting seat's decisions
        played by the autopilot (``turn.autoplayed``), at the deadline's time. Idempotent."""
        ctx = self._ctx(game, max(now, game.clock))
        while not game.ended and game.deadline is not None and game.deadline <= now:
            ctx.now = game.deadline
            self._autoplay(ctx)
        ctx.now = max(now, game.clock)
        game.clock = ctx.now
        return ctx.events

    def _autoplay(self, ctx: Ctx) -> None:
        game = ctx.state
        waiting = list(game.waiting)
        turn = game.waiting_turn
        ctx.emit("turn.autoplayed", seats=waiting, deadline=game.deadline)
        for _ in range(AUTOPLAY_LIMIT):
            if game.ended or game.waiting != waiting or game.waiting_turn != turn:
                break
            seat = waiting[0]
            command = autopilot.choose(ctx, seat)
            if command is None:
                break
            commands.apply(ctx, seat, command)
            flow.update_clock(ctx)
        if not game.ended and game.waiting == waiting and game.waiting_turn == turn:
            # Still the same seats: start a fresh deadline so the clock keeps moving.
            game.waiting = []
            flow.update_clock(ctx)

    def close(self, game: Game, now: int) -> list[Event]:
        """An operator closed the game: after the clock (idempotent), it ends now with the result
        ``closed``, neither the shared win nor the shared loss of MV-OVER-5 (:meth:`outcome`)."""
        events = self.advance(game, now)
        if not game.ended:
            ctx = self._ctx(game, game.clock)
            rounds.close_game(ctx)
            events += ctx.events
        return events

    def legal_commands(self, game: Game, seat: int) -> list[dict[str, Any]]:
        """The seat's legal commands; when a window is open, the listing the views of this state
        made (``views``: the server's digests, just before it answers a command with the seat's
        commands) is found there instead of being made again. A copy: the caller may change it."""
        self._check_seat(game, seat)
        found = None if commands.listed_quickly(game) else self._legal.find((_timeless(game), seat))
        if found is None:
            return commands.legal_commands(self._ctx(game, game.clock), seat)
        return [
            {key: value.copy() if isinstance(value, list) else value for key, value in command.items()}
            for command in found
        ]

    def apply(self, game: Game, seat: int, command: Mapping[str, Any], now: int) -> list[Event]:
        """Advance the clock to ``now``, then apply the command.

        :raises IllegalCommand: with a stable code; the state is left as it was after advancing.
        """
        self._check_seat(game, seat)
        if now < game.clock:
            raise IllegalCommand("clock/backwards", f"time {now} is before the game clock {game.clock}")
        events = self.advance(game, now)
        clock = game.clock
        snapshot = _timeless(game)
        ctx = self._ctx(game, now)
        try:
            commands.apply(ctx, seat, command, self._legal.find((snapshot, seat)), self._routes.find(snapshot))
        except IllegalCommand:
            _restore(game, _from_snapshot(snapshot))
            game.clock = clock
            raise
        flow.update_clock(ctx)
        return events + ctx.events

    def view(self, game: Game, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(game, seat)
        return view.build(self._ctx(game, game.clock), seat)

    def views(self, game: Game, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The views of ``seats`` at once (the kernel's optional hook): the table is public, so
        it is built once and shared, and its seldom changing parts (areas, Arcana, bosses, each
        seat's map) are lasting parts, shared with earlier views too; see
        :func:`delve.maiden.view.build_many`. The views are read-only, as the hook promises."""
        for seat in seats:
            if seat is not None:
                self._check_seat(game, seat)
        ctx = self._ctx(game, game.clock)
        if all(seat is None for seat in seats) or commands.listed_quickly(game):
            # nothing worth keeping for the next command: no snapshot of the state as the key
            return view.build_many(ctx, seats, lasting=True)
        timeless = _timeless(game)
        routes: dict[int, movement.Routes] = {}

        def legal(seat: int) -> list[dict[str, Any]]:
            return self._legal.get((timeless, seat), lambda: commands.legal_commands(ctx, seat, routes))

        built = view.build_many(ctx, seats, lasting=True, legal=legal, routes=routes)
        if routes:
            self._routes.get(timeless, lambda: routes)
        return built

    def journal(self, game: Game) -> Journal:
        """The recent-events log a view shows (its ``log``), kept from the events: the state holds
        no copy (:mod:`delve.kernel.journal`, :mod:`delve.maiden.journal`)."""
        return Journal(game)

    def earlier_state_hashes(self, game: Game, events: Sequence[Event]) -> list[str]:
        """The hashes ``game`` may have had in a format stored earlier, so that an export made
        then still verifies: before the state stopped keeping a copy of the events
        (``journal.earlier_form``; ``events``: every event of the ruleset so far), and stored
        since from such a state that no longer knew when the game was set up
        (``journal.unknown_start``)."""
        return [plain_hash(journal.earlier_form(game, events)), plain_hash(journal.unknown_start(game))]

    def event_data(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """White Maiden is cooperative: every event it emits is public with all its fields (only the
        deck order is hidden, and no event carries it). A per-kind allow-list like Fated's
        (``delve.fated.disclosure``) is the place to narrow this when an event gains a secret."""
        return dict(data)

    def command_on_open(self, game: Game, seat: int) -> dict[str, Any] | None:
        return None

    def next_due(self, game: Game) -> int | None:
        return None if game.ended else game.deadline

    def attention(self, game: Game, seat: int) -> Attention:
        """For notifications and the dashboard: whether the seat must act now and the turn
        deadline after which the autopilot plays for it."""
        self._check_seat(game, seat)
        if game.ended or seat not in game.waiting:
            return Attention()
        deadline = game.deadline
        return Attention(
            action="turn",
            waiting_key=f"turn:{game.round}.{game.waiting_turn}",
            deadline=deadline,
            deadline_from=None if deadline is None else deadline - game.settings.turn_deadline_hours * 3600,
            deadline_kind="autoplay" if deadline is not None else "",
        )

    def outcome(self, game: Game) -> GameOutcome:
        """A shared result (MV-OVER-5): everyone won or everyone lost; or, when an operator closed
        the game (:meth:`close`), everyone's result is ``closed``."""
        if not game.ended:
            return GameOutcome(ended=False)
        won = game.result == "won"
        seats = range(len(game.maidens))
        summary = rounds.summary(self._ctx(game, game.clock))
        word = "closed" if game.result == "closed" else "won" if won else "lost"
        return GameOutcome(
            ended=True,
            winners=tuple(seats) if won else (),
            results=dict.fromkeys(seats, word),
            stats={s: {**summary, "deaths_own": game.maidens[s].deaths} for s in seats},
        )

    def check_content(self) -> list[str]:
        """For ``delve check``: load (and so validate) the content and play a setup."""
        data = self.content
        game = self.setup({"players": 4}, [SeatInfo(f"Maiden {i + 1}") for i in range(4)], 0, 0)
        return [
            f"maiden: {len(data.rooms)} squares, {len(data.areas)} areas, {len(data.bosses)} bosses, "
            f"{len(data.room_cards)} room cards, {len(data.quests)} quests, {len(data.familiars)} familiars, "
            f"{len(data.skills)} skills; a 4-player setup waits for {game.pending[0].kind}"
        ]

    def encode(self, game: Game) -> bytes:
        return state.encode(game)

    def decode(self, data: bytes) -> Game:
        return state.decode(data)

    @staticmethod
    def _check_seat(game: Game, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(game.maidens):
            raise IllegalCommand(
                "command/no_such_seat",
                f"there is no seat index {quote_json(seat)} in this game (seats are numbered from 0)",
            )


# The state as the memos' key and the snapshot an illegal command is undone from: MessagePack,
# made in about two thirds of the time of the JSON of ``encode`` (never stored, never shown).
_snapshot = msgspec.msgpack.Encoder().encode
_from_snapshot = msgspec.msgpack.Decoder(Game).decode


def _timeless(game: Game) -> bytes:
    """The state's encoding with its clock left out (as 0): what legality depends on."""
    return _snapshot(msgspec.structs.replace(game, clock=0))


def _restore(game: Game, saved: Game) -> None:
    for field in game.__struct_fields__:
        setattr(game, field, getattr(saved, field))
