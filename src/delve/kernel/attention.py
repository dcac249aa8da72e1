"""What a seat's player needs to know about a game without looking at it: whether something waits
for them, the deadline they must act by, and (for games that store turns) when turns will start
being lost. Notifications, the "waiting on me" dashboard and the calendar feed read only this.

A ruleset may implement ``attention(state, seat) -> Attention``; :func:`attention` falls back to
the legal commands for one that does not (something waits when a command other than a comment is
legal, with no deadline).
"""

from __future__ import annotations

from typing import Any

import msgspec

from delve.kernel.ruleset import Ruleset

#: The kinds of action a seat may owe: a turn (or decision) to play, a defense to answer.
TURN, DEFENSE = "turn", "defense"


class Attention(msgspec.Struct, frozen=True, omit_defaults=True):
    """How a seat stands, in engine time (integer seconds since the epoch).

    ``action`` is ``""`` (nothing waits), ``"turn"`` or ``"defense"``; ``waiting_key`` names the
    current wait (a new key is a new wait: one notification per key). ``deadline`` is when the
    seat is abandoned (or played by an autopilot) if it does not act, counted from
    ``deadline_from``. ``stored``/``cap`` are the stored turns and their cap, and ``loses_turns_at``
    the first turn accumulation that the cap will swallow if the player does not play.
    """

    action: str = ""
    waiting_key: str = ""
    deadline: int | None = None
    deadline_from: int | None = None
    deadline_kind: str = ""  # "abandon" | "autoplay"
    stored: int | None = None
    cap: int | None = None
    playing: bool = False
    """A turn is under way (begun, not ended): ``stored`` counts the turns stored after it, a
    turn ready to open is one of ``stored``."""
    loses_turns_at: int | None = None
    losing: bool = False
    """Turns are being lost now (the cap was reached and an accumulation already lost)."""
    defense_key: str = ""
    """Names the current pile of items waiting for a defense (a new key: a new "you were attacked")."""
    out: str = ""
    """The seat is out of a game still running, and nothing will wait for it again: how it left
    (Fated Labyrinth: ``"died"``, ``"abandoned"``, ``"gave_up"``); ``""`` while it plays."""


_NOT_ACTIONS = frozenset({"comment"})


def attention(ruleset: Ruleset[Any], state: Any, seat: int) -> Attention:
    """The ruleset's :class:`Attention` for ``seat``, or the fallback from its legal commands."""
    method = getattr(ruleset, "attention", None)
    if method is not None:
        result = method(state, seat)
        assert isinstance(result, Attention)
        return result
    legal = [command for command in ruleset.legal_commands(state, seat) if command.get("kind") not in _NOT_ACTIONS]
    return Attention(action=TURN if legal else "")
