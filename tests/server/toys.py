"""Test rulesets built on the kernel's toy dice race (tests/kernel/toy.py).

- ``toy``: the toy itself.
- ``secret-toy``: every seat also has secrets: its view shows ``hand-of-<name>`` to that seat
  only, each clock grant sends each seat a private ``grant-of-<name>`` event, and each command
  sends its seat a private ``note-of-<name>`` event. A leak of another seat's hidden information
  shows up as one of these strings in an answer or a page.
- ``opening-toy``: opening the game screen with a stored roll rolls it (``command_on_open``), like
  Fated Labyrinth's "loading the screen starts a stored turn".
- ``practice-toy``: declares ``keep_record`` as a seat option and shows what setup received.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from delve.kernel import Choice, Event, SeatInfo, SeatOption, register
from delve.kernel.events import private
from tests.kernel.toy import ToyRuleset, ToyState


class SecretToy(ToyRuleset):
    name = "secret-toy"

    def presets(self) -> list[Choice]:
        return [Choice("toy", {"en": "Secret toy race", "ja": "秘密のレース"})]

    def advance(self, state: ToyState, now: int) -> list[Event]:
        events = super().advance(state, now)
        secrets = []
        for event in events:
            if event.kind == "toy.granted":
                for index, seat in enumerate(state.seats):
                    secrets.append(private("secret.grant", event.time, index, note=f"grant-of-{seat.name}"))
        return events + secrets

    def apply(self, state: ToyState, seat: int, command: Mapping[str, Any], now: int) -> list[Event]:
        events = super().apply(state, seat, command, now)
        return [*events, private("secret.note", now, seat, note=f"note-of-{state.seats[seat].name}")]

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        if seat is not None:
            view["hand"] = f"hand-of-{state.seats[seat].name}"
        return view


class OpeningToy(ToyRuleset):
    name = "opening-toy"

    def presets(self) -> list[Choice]:
        return [Choice("toy", {"en": "Toy race that rolls on opening", "ja": "開くと振るレース"})]

    def command_on_open(self, state: ToyState, seat: int) -> dict[str, Any] | None:
        if state.winner is None and state.seats[seat].stored > 0:
            return {"kind": "roll"}
        return None


class PracticeToy(ToyRuleset):
    """Declares the record flag as a seat option (as Fated Labyrinth does, to mark practice seats)
    and writes "practice" into the comment of each seat set up without it."""

    name = "practice-toy"

    def presets(self) -> list[Choice]:
        return [Choice("toy", {"en": "Practice toy race", "ja": "練習レース"})]

    def seat_options(self, settings: Mapping[str, Any]) -> list[SeatOption]:
        flag = SeatOption(
            key="keep_record",
            label={"en": "Keep a record", "ja": "記録"},
            choices=(Choice("true", {"en": "Yes", "ja": "はい"}), Choice("false", {"en": "No", "ja": "いいえ"})),
            default="true",
        )
        return [*super().seat_options(settings), flag]

    def setup(self, settings: Mapping[str, Any], seats: Sequence[SeatInfo], seed: int, now: int) -> ToyState:
        state = super().setup(settings, seats, seed, now)
        for seat, info in zip(state.seats, seats, strict=True):
            seat.comment = "" if info.options["keep_record"] is True else "practice"
        return state


def register_all() -> None:
    register(ToyRuleset())
    register(SecretToy())
    register(OpeningToy())
    register(PracticeToy())
