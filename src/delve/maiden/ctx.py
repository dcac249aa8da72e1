"""The context every rule function receives: the state, the content, the current time and the
events produced so far. The state keeps no copy of the events (``journal.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from delve.kernel import Event, Rng
from delve.maiden.state import Game


def load_content() -> Any:
    """The shipped content (``delve.maiden.content.load()``, cached by its module)."""
    import importlib

    # The content module is owned by the content engineer; imported by name so the engine
    # type-checks on its own.
    return importlib.import_module("delve.maiden.content").load()


class Ctx:
    __slots__ = ("_edges", "content", "events", "now", "state")

    def __init__(self, state: Game, now: int, content: Any = None) -> None:
        self.state = state
        self.now = now
        self.content: Any = content if content is not None else load_content()
        self.events: list[Event] = []
        self._edges: dict[str, list[str]] | None = None

    def edges(self) -> Mapping[str, Sequence[str]]:
        """room -> neighbours by the content's edges (static): the content's own ``adjacency``
        when it has one, else built once per context."""
        shipped = getattr(self.content, "adjacency", None)
        if shipped is not None:
            return shipped  # type: ignore[no-any-return]
        if self._edges is None:
            adj: dict[str, list[str]] = {room_id: [] for room_id in self.content.rooms}
            for edge in self.content.edges:
                adj[edge.a].append(edge.b)
                adj[edge.b].append(edge.a)
            self._edges = adj
        return self._edges

    @property
    def rng(self) -> Rng:
        return self.state.rng

    def emit(self, kind: str, /, **data: Any) -> None:
        """A public event (the game is cooperative: everything but deck order is public)."""
        self.events.append(Event(kind=kind, time=self.now, data=data))
