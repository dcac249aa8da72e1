"""What a view shows of past events when a ruleset keeps them outside its state.

A ruleset may offer ``journal(state) -> Journal``: its views then show recent events (Fated
Labyrinth: the recent-events panel and each seat's private messages; White Maiden: the ``log``)
that its state does not hold, because the events that ``advance`` and ``apply`` return are already
the record (the server keeps them in its event table, with their audience). ``Ruleset.view`` then
leaves those lists out, and whoever shows a view fills them in through the journal:

- the server feeds it, oldest first, the newest :attr:`Journal.public_kept` public events and the
  newest :attr:`Journal.private_kept` events private to the viewer from its event table (the
  ruleset's events only, never the server's own notes), then calls :meth:`Journal.show`;
- an in-process driver (the simulation runner, the fuzzer, tests) keeps one journal per game and
  feeds it every event the game returns (:class:`Recorder`).

A journal builds each event's body once, when the event arrives, so a view only lists them. A
ruleset without ``journal`` keeps whatever its views show in its state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from delve.kernel.events import Event


class Journal(Protocol):
    """Recent events as one game's views show them (see the module docstring)."""

    @property
    def public_kept(self) -> int:
        """How many of the newest public events a view shows."""
        ...

    @property
    def private_kept(self) -> int:
        """How many of the newest events private to a seat that seat's view shows."""
        ...

    def add(self, events: Iterable[Event]) -> None:
        """Take events in the order they happened (the ruleset's own events only)."""
        ...

    def show(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """``view`` (built by ``Ruleset.view`` for ``seat``) with the recent events filled in."""
        ...


def has_journal(ruleset: Any) -> bool:
    """Whether the ruleset's views need a journal."""
    return getattr(ruleset, "journal", None) is not None


def journal(ruleset: Any, state: Any) -> Journal | None:
    """The ruleset's journal for ``state``, or ``None`` when its views need none."""
    make = getattr(ruleset, "journal", None)
    return None if make is None else make(state)


class Recorder:
    """One game driven in-process: its journal (when the ruleset has one) kept from every event the
    game returns, and views with it. Pass every ``advance`` and ``apply`` result through
    :meth:`record`, from the setup on."""

    __slots__ = ("journal", "ruleset")

    def __init__(self, ruleset: Any, state: Any) -> None:
        self.ruleset = ruleset
        self.journal = journal(ruleset, state)

    def record(self, events: list[Event]) -> list[Event]:
        """Keep ``events`` (as the game returned them); returns them unchanged."""
        if self.journal is not None:
            self.journal.add(events)
        return events

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The ruleset's view for ``seat`` with the recent events the journal keeps."""
        view: dict[str, Any] = self.ruleset.view(state, seat)
        return view if self.journal is None else self.journal.show(view, seat)
