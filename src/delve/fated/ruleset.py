"""Fated Labyrinth and Level D as a kernel ``Ruleset`` (registered as ``fated``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from delve.fated import clock, commands, content, death, disclosure, journal, settings, setup, state, view
from delve.fated.ctx import Ctx
from delve.fated.journal import Journal
from delve.fated.state import DEFENSE, READY, WAIT, GameState
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
    plain_hash,
    quote_json,
)


class FatedRuleset:
    """The engine contract for Fated Labyrinth (preset ``fated-labyrinth``) and Level D
    (preset ``level-d``): one engine, two presets of content and settings."""

    name = "fated"
    #: The parts of its views that the server's view digests identify by their own digest: every
    #: part the views hook hands out as a lasting part but the small piles (each hashed once while
    #: kept, and the players list, which changes with every player's entry, once for all the
    #: audiences that share it instead of once in each of their views). Once named, a part stays
    #: named (see :mod:`delve.kernel.ruleset`).
    digest_parts = ("game", "map", "characters", "players", "you")

    # -- settings and seats ---------------------------------------------------------------

    def presets(self) -> list[Choice]:
        return [Choice(p.id, p.title) for p in content.load().presets.values()]

    def validate_settings(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        return settings.as_dict(settings.resolve(overrides))

    def seat_count(self, overrides: Mapping[str, Any]) -> int:
        return settings.resolve(overrides).players

    def seat_options(self, overrides: Mapping[str, Any]) -> list[SeatOption]:
        """The class (and, in Level D, the image). The keep-record flag (FL-REG-2) is asked by the
        server for every game and arrives as ``SeatInfo.options["keep_record"]``."""
        resolved = settings.resolve(overrides)
        data = content.load()
        classes = tuple(
            Choice(c.id, {lang: data.class_name(c.id, resolved.preset, lang) for lang in content.LANGS})
            for c in data.classes.values()
        )
        options = [
            SeatOption(
                key="class",
                label={"en": "Class", "ja": "職業"},
                choices=classes,
                default="explorer",
                help={
                    "en": "Cannot be changed until the game ends.",
                    "ja": "ゲーム終了まで変更できません。",
                },
            ),
        ]
        if resolved.registration_image:
            images = tuple(
                Choice(c.id, {lang: data.class_name(c.id, resolved.preset, lang) for lang in content.LANGS})
                for c in data.classes.values()
            )
            options.append(
                SeatOption(key="image", label={"en": "Image", "ja": "イメージ"}, choices=images, default="explorer")
            )
        return options

    def setting_help(self) -> list[SettingHelp]:
        """Every setting key a game may be given, with its label and a short help."""
        return [SettingHelp(key, label, settings.HELP[key]) for key, label in settings.LABELS.items()]

    def describe_settings(self, overrides: Mapping[str, Any]) -> list[SettingLine]:
        return [
            SettingLine(key, label, value, shown)
            for key, label, value, shown in settings.describe(settings.resolve(overrides))
        ]

    # -- the game -------------------------------------------------------------------------

    def setup(self, overrides: Mapping[str, Any], seats: Sequence[SeatInfo], seed: int, now: int) -> GameState:
        normalised = [
            SeatInfo(s.name, {**s.options, "keep_record": _truthy(s.options.get("keep_record", True))}) for s in seats
        ]
        return setup.create(overrides, normalised, seed, now)

    def advance(self, game: GameState, now: int) -> list[Event]:
        ctx = Ctx(game, max(now, game.clock))
        clock.advance(ctx, max(now, game.clock))
        return ctx.events

    def legal_commands(self, game: GameState, seat: int) -> list[dict[str, Any]]:
        _check_seat(game, seat)
        return commands.legal_commands(Ctx(game, game.clock), seat)

    def close(self, game: GameState, now: int) -> list[Event]:
        """An operator closed the game: it ends now as a game with no winner ends (FL-WIN-7's
        end, AMB-51's "no winner", with the kind ``closed``): every clock stops, nobody wins,
        nothing else happens (no death, no kill, no card). The seats still inside have the
        result ``closed``; the dead and those who gave up keep theirs (:meth:`outcome`)."""
        if game.ended:
            return []
        ctx = Ctx(game, max(now, game.clock))
        clock.advance(ctx, ctx.now)  # idempotent: the server has usually advanced it already
        if not game.ended:
            death.end_game(ctx, winner=None, kind="closed")
        return ctx.events

    def apply(self, game: GameState, seat: int, command: Mapping[str, Any], now: int) -> list[Event]:
        """Advance the clock to ``now``, then apply the command.

        :raises IllegalCommand: with a stable code; the state is left as advanced.
        """
        _check_seat(game, seat)
        if now < game.clock:
            raise IllegalCommand("clock/backwards", f"time {now} is before the game clock {game.clock}")
        ctx = Ctx(game, now)
        clock.advance(ctx, now)
        commands.apply(ctx, seat, command)
        return ctx.events

    def view(self, game: GameState, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            _check_seat(game, seat)
        return view.build(game, seat)

    def views(self, game: GameState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """``[self.view(game, seat) for seat in seats]``, the parts every audience sees alike
        built once. The views are read-only, as the kernel's hook promises: their parts are
        shared between them and, as lasting parts, with the views of earlier calls while equal
        (see :func:`delve.fated.view.build_many`)."""
        for seat in seats:
            if seat is not None:
                _check_seat(game, seat)
        return view.build_many(game, seats, lasting=True)

    def journal(self, game: GameState) -> Journal:
        """The recent events (FL-INFO-4) and messages (FL-INFO-5) that views show, kept from the
        events: the state holds no copy (:mod:`delve.kernel.journal`)."""
        return Journal(game)

    def earlier_state_hashes(self, game: GameState, events: Sequence[Event]) -> list[str]:
        """The hash ``game`` had in the format stored before the state stopped keeping copies of
        the events (``journal.earlier_form``; ``events``: every event of the ruleset so far), so
        that an export made then still verifies."""
        return [plain_hash(journal.earlier_form(game, events))]

    def event_data(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of an event that may leave the server (:mod:`delve.fated.disclosure`)."""
        return disclosure.data(kind, data)

    def command_on_open(self, game: GameState, seat: int) -> dict[str, Any] | None:
        """FL-TURN-8, AMB-4: opening the game screen while a turn is stored starts it."""
        player = game.players[seat]
        if player.alive and not game.ended and player.phase == READY:
            return {"kind": "start_turn"}
        return None

    def next_due(self, game: GameState) -> int | None:
        return clock.next_due(game)

    def attention(self, game: GameState, seat: int) -> Attention:
        """For notifications and the dashboard: a stored turn not yet opened (FL-TURN-7), a
        defense phase (FL-DEF), the abandonment deadline (AMB-50) and the first accumulation the
        stored-turn cap will swallow (FL-TURN-6)."""
        _check_seat(game, seat)
        player = game.players[seat]
        if game.ended:
            return Attention()
        if not player.alive:  # FL-DEATH: out of the game for good, while the others play on
            return Attention(out=player.fate or "died")
        cap = game.settings.max_stored_turns
        stored = 0 if player.phase == WAIT else player.stored
        deadline = clock.abandon_deadline(game, player)
        return Attention(
            action="" if player.phase == WAIT else "defense" if player.phase == DEFENSE else "turn",
            waiting_key=f"ready:{player.wait_ended_at}" if player.phase == READY else "",
            deadline=deadline,
            deadline_from=None if deadline is None else max(player.last_action_at, player.wait_ended_at),
            deadline_kind="abandon" if deadline is not None else "",
            stored=player.stored,
            cap=cap,
            playing=player.phase not in (WAIT, READY),
            loses_turns_at=clock.accumulation_at(game, player, player.acc_next + max(0, cap - stored)),
            losing=player.capped,
            defense_key=f"pending:{player.pending[0].id}" if player.pending else "",
        )

    def outcome(self, game: GameState) -> GameOutcome:
        """Results for personal records (FL-REC, AMB-61)."""
        if not game.ended:
            return GameOutcome(ended=False)
        results: dict[int, str] = {}
        stats: dict[int, dict[str, Any]] = {}
        for p in game.players:
            if p.seat == game.winner:
                results[p.seat] = "won_escape" if game.win_kind == "escape" else "won_survivor"
            elif p.fate == "abandoned":
                results[p.seat] = "abandoned"
            elif game.win_kind == "closed" and p.alive:
                results[p.seat] = "closed"
            else:
                results[p.seat] = "lost"
            stats[p.seat] = {
                "class": p.cls,
                "preset": game.settings.preset,
                "kills": p.kills,
                "treasures": p.treasures,
                "turns": p.turns_played,
                "keep_record": p.keep_record,
            }
        winners = (game.winner,) if game.winner is not None else ()
        return GameOutcome(ended=True, winners=winners, results=results, stats=stats)

    def encode(self, game: GameState) -> bytes:
        return state.encode(game)

    def decode(self, data: bytes) -> GameState:
        return state.decode(data)

    def check_content(self) -> list[str]:
        data = content.load()
        lines = [
            f"fated: {len(data.classes)} classes, {len(data.statuses)} statuses, {len(data.monsters)} monsters, "
            f"{len(data.cards)} card kinds"
        ]
        for preset in data.presets:
            resolved = settings.resolve({"preset": preset})
            kinds = len(set(data.card_sets[preset]))
            lines.append(
                f"fated/{preset}: {resolved.players} players, {resolved.maze_size}x{resolved.maze_size}, "
                f"{kinds} card kinds in its {len(data.card_sets[preset])}-card set"
            )
        return lines


def _check_seat(game: GameState, seat: int) -> None:
    """A module function, not a static method: asked by every call of the ruleset, and a static
    method is looked up through a slower path in Python 3.11."""
    if type(seat) is int and 0 <= seat < len(game.players):  # the usual case, asked first
        return
    if not isinstance(seat, int) or not 0 <= seat < len(game.players):
        raise IllegalCommand(
            "command/no_such_seat",
            f"there is no seat index {quote_json(seat)} in this game (seats are numbered from 0)",
        )


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return bool(value)
