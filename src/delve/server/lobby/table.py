"""The seats a person plays in one game, and what waits for them there: the one answer the lobby's
"your decision is waiting", the "waiting on me" dashboard, the API's ``must_act``, the
notifications and the game screen share.

A person plays their own seat (unless a bot plays it for them now) and, at a hot-seat table, the
seats of their table (``TableSeat``): a decision that waits for any of them is theirs.
"""

from __future__ import annotations

from typing import Any

from delve.kernel import Attention, attention
from delve.server.games.models import Game, Seat
from delve.server.lobby.models import TableSeat


def controlled_seats(game: Game, user: Any, seats: list[Seat]) -> list[Seat]:
    """Of ``seats`` (``game``'s), those ``user`` may act for: their own and those of their table
    (hot-seat)."""
    if user is None or not user.is_authenticated:
        return []
    table = set(TableSeat.objects.filter(host=user, seat__game=game).values_list("seat_id", flat=True))
    return [s for s in seats if s.user_id == user.pk or s.pk in table]


def table_seats(game: Game, user: Any) -> list[Seat]:
    """The started seats of ``game`` that ``user`` plays at their table (hot-seat), by index."""
    return list(Seat.objects.filter(game=game, table__host=user, index__isnull=False).order_by("index"))


def waiting_for(ruleset: Any, state: Any, own: Seat, table: list[Seat]) -> tuple[Seat, Attention]:
    """What waits for the player of ``own`` (their seat in the game) who also plays ``table``: the
    first of their seats with something to do (their own first) and its attention; nothing
    waiting: ``own`` and its attention. A seat a bot plays now is not theirs to play, unless it is
    the only one they have (the dashboard still shows how it stands)."""
    mine = [seat for seat in [own, *table] if not seat.is_bot and seat.index is not None]
    first: tuple[Seat, Attention] | None = None
    for seat in mine or [own]:
        assert seat.index is not None
        seen = attention(ruleset, state, seat.index)
        if first is None:
            first = (seat, seen)
        if seen.action:
            return seat, seen
    if mine and mine[0] is not own:
        return own, Attention()  # the player's seat is a bot's now and nothing waits at the table
    assert first is not None
    return first
