"""The context every rule function receives: the state, the content, the current time and the
events produced so far: public ones (the recent-events log, FL-INFO-4) and private ones (the
players' messages, FL-INFO-5). The state keeps no copy of them (``journal.py``)."""

from __future__ import annotations

from typing import Any

import msgspec

from delve.fated.content import CARDS_PER_SET, CardDef, Content, load
from delve.fated.state import GameState
from delve.kernel import Event, Rng


class Ctx(msgspec.Struct):
    """A struct rather than a class with slots: it is made three times per command (listing,
    applying, viewing), and a struct is made without a Python ``__init__`` call."""

    state: GameState
    now: int
    content: Content = msgspec.field(default_factory=load)
    events: list[Event] = msgspec.field(default_factory=list)

    @property
    def rng(self) -> Rng:
        return self.state.rng

    def card(self, card_id: int) -> CardDef:
        """The kind of a physical card in this game's preset (:meth:`Content.card` written out:
        this is asked for every card listed or shown)."""
        content = self.content
        return content.cards[content.card_sets[self.state.settings.preset][card_id % CARDS_PER_SET]]

    def public(self, kind: str, /, **data: Any) -> None:
        """An event for everyone: the recent-events log shows it (no coordinates, FL-INFO-4)."""
        self.events.append(Event(kind=kind, time=self.now, data=data))

    def private(self, seats: int | list[int] | tuple[int, ...], kind: str, /, **data: Any) -> None:
        """A message only ``seats`` may see (FL-INFO-5)."""
        targets = (seats,) if isinstance(seats, int) else tuple(sorted(set(seats)))
        if not targets:
            return
        self.events.append(Event(kind=kind, time=self.now, data=data, to=targets))
