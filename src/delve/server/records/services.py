"""Writing personal records when a game ends (FL-REC-1, FL-WIN-7)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from delve.kernel import GameOutcome
from delve.server.records.models import Record


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def write_records(game: Any, seats: Iterable[Any], outcome: GameOutcome, now: int) -> list[Record]:
    """One record per seat whose keep-record flag is set; practice seats and bot seats (also a
    seat a bot took over from an idle player) get none.

    Called once, in the transaction that ends the game.
    """
    ended_at = dt.datetime.fromtimestamp(now, tz=dt.UTC)
    records = []
    for seat in seats:
        if not seat.keep_record or seat.index is None or getattr(seat, "is_bot", False):
            continue
        stats = dict(outcome.stats.get(seat.index, {}))
        result = outcome.results.get(seat.index) or ("won" if seat.index in outcome.winners else "lost")
        records.append(
            Record(
                user_id=seat.user_id,
                game=game,
                ruleset=game.ruleset,
                preset=game.preset,
                character_name=seat.name,
                character_class=str(stats.get("class") or seat.options.get("class") or ""),
                options=seat.options,
                result=result,
                won=seat.index in outcome.winners,
                kills=_int_or_none(stats.get("kills")),
                treasures=_int_or_none(stats.get("treasures")),
                turns=_int_or_none(stats.get("turns")),
                stats=stats,
                ended_at=ended_at,
            )
        )
    return Record.objects.bulk_create(records)
