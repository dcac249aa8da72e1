"""A toy ruleset for kernel and server tests: a dice race on a clock.

Each seat gets one roll every ``interval`` seconds (stored, at most 3). ``roll`` spends a stored
roll and moves the seat forward by a d6; ``wait`` does nothing; ``comment`` sets the seat's public
comment (free text, at most 100 characters). The first seat to reach ``goal`` wins. Rolls are
visible only to the roller; arrivals are public. A seat picks a colour when it registers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from delve.kernel import (
    Choice,
    Event,
    EventFields,
    GameOutcome,
    IllegalCommand,
    Rng,
    SeatInfo,
    SeatOption,
    SettingLine,
    SettingsError,
)
from delve.kernel.events import private, public


class ToySeat(msgspec.Struct):
    name: str
    colour: str = "red"
    comment: str = ""
    position: int = 0
    stored: int = 0


class ToyState(msgspec.Struct):
    settings: dict[str, int]
    rng: Rng
    seats: list[ToySeat]
    clock: int
    next_grant: int
    winner: int | None = None


#: What the toy's events may tell. ``toy.won`` also carries ``margin``, a field nobody listed: it
#: must never leave the server.
EVENT_FIELDS = EventFields(
    {
        "toy.granted": (),
        "toy.comment": ("seat",),
        "toy.rolled": ("die",),
        "toy.won": ("seat",),
        "secret.grant": ("note",),
        "secret.note": ("note",),
    }
)


class ToyRuleset:
    name = "toy"
    defaults: ClassVar[dict[str, int]] = {"goal": 20, "interval": 60, "players": 2}

    def presets(self) -> list[Choice]:
        return [Choice("toy", {"en": "Toy race", "ja": "おもちゃレース"})]

    def seat_count(self, settings: Mapping[str, Any]) -> int:
        return int(self.validate_settings(settings)["players"])

    def seat_options(self, settings: Mapping[str, Any]) -> list[SeatOption]:
        colours = (Choice("red", {"en": "Red", "ja": "赤"}), Choice("blue", {"en": "Blue", "ja": "青"}))
        return [SeatOption(key="colour", label={"en": "Colour", "ja": "色"}, choices=colours, default="red")]

    def describe_settings(self, settings: Mapping[str, Any]) -> list[SettingLine]:
        resolved = self.validate_settings(settings)
        return [SettingLine(key, {"en": key, "ja": key}, str(value)) for key, value in resolved.items()]

    def command_on_open(self, state: ToyState, seat: int) -> dict[str, Any] | None:
        return None

    def event_data(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        return EVENT_FIELDS.data(kind, data)

    def validate_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        resolved = dict(self.defaults)
        for key, value in settings.items():
            if key == "preset":
                if value != "toy":
                    raise SettingsError("preset", f"unknown preset {value!r}; known: toy")
                continue
            if key not in resolved:
                raise SettingsError(key, "unknown setting")
            if not isinstance(value, int) or value < 1:
                raise SettingsError(key, f"must be a positive integer, got {value!r}")
            resolved[key] = value
        return resolved

    def setup(self, settings: Mapping[str, Any], seats: Sequence[SeatInfo], seed: int, now: int) -> ToyState:
        resolved = self.validate_settings(settings)
        return ToyState(
            settings=resolved,
            rng=Rng.seeded(seed),
            seats=[ToySeat(name=s.name, colour=str(s.options.get("colour", "red"))) for s in seats],
            clock=now,
            next_grant=now + resolved["interval"],
        )

    def advance(self, state: ToyState, now: int) -> list[Event]:
        events: list[Event] = []
        while state.winner is None and state.next_grant <= now:
            for seat in state.seats:
                seat.stored = min(3, seat.stored + 1)
            events.append(public("toy.granted", state.next_grant))
            state.next_grant += state.settings["interval"]
        state.clock = max(state.clock, now)
        return events

    def legal_commands(self, state: ToyState, seat: int) -> list[dict[str, Any]]:
        if state.winner is not None:
            return []
        commands: list[dict[str, Any]] = [{"kind": "wait"}]
        if state.seats[seat].stored > 0:
            commands.append({"kind": "roll"})
        return commands

    def apply(self, state: ToyState, seat: int, command: Mapping[str, Any], now: int) -> list[Event]:
        events = self.advance(state, now)
        if command.get("kind") == "comment":
            text = command.get("text")
            if not isinstance(text, str) or len(text) > 100:
                raise IllegalCommand("comment/invalid", "a comment is a text of at most 100 characters")
            state.seats[seat].comment = text
            return [*events, public("toy.comment", now, seat=seat)]
        if dict(command) not in self.legal_commands(state, seat):
            raise IllegalCommand("command/illegal", f"{dict(command)!r} is not legal now")
        if command["kind"] == "roll":
            me = state.seats[seat]
            me.stored -= 1
            die = state.rng.randint(1, 6)
            me.position += die
            events.append(private("toy.rolled", now, seat, die=die))
            if me.position >= state.settings["goal"]:
                state.winner = seat
                events.append(public("toy.won", now, seat=seat, margin=me.position - state.settings["goal"]))
        return events

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {
            "positions": [s.position for s in state.seats],
            "comments": [s.comment for s in state.seats],
            "stored": state.seats[seat].stored if seat is not None else None,
            "winner": state.winner,
        }

    def next_due(self, state: ToyState) -> int | None:
        return None if state.winner is not None else state.next_grant

    def outcome(self, state: ToyState) -> GameOutcome:
        if state.winner is None:
            return GameOutcome(ended=False)
        return GameOutcome(
            ended=True,
            winners=(state.winner,),
            results={i: ("won" if i == state.winner else "lost") for i in range(len(state.seats))},
        )

    def encode(self, state: ToyState) -> bytes:
        return msgspec.json.encode(state)

    def decode(self, data: bytes) -> ToyState:
        return msgspec.json.decode(data, type=ToyState)
