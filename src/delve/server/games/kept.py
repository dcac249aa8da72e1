"""The state a game was saved with, kept decoded in this process for its next change.

Decoding a game's state is a good part of a durable command. After a change commits, the state
object it was encoded from is exactly the saved state, so the next change of the same game in
this process can go on with it instead of decoding the row again. Whether it may is decided
against the locked row: the kept state is used only when the row's version *and* state text are
those it was saved with, so a change made by another process, a restored backup or an edit of
the row is never hidden by it (the text comparison is a memory comparison, far cheaper than a
decode).

The state is handed over, never shared: :func:`take` removes it, and :func:`keep` puts a state
back only when its transaction has committed (``transaction.on_commit``); a change that rolls
back keeps nothing, so a state advanced or changed in memory by a failed command is never
reused. This relies on the ruleset contract that ``decode(encode(state))`` behaves exactly as
``state`` (see :mod:`delve.kernel.ruleset`).
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

#: Games kept per process at most; the least recently kept go first. A kept state with its caches
#: measured about 26 KiB for a 4-player 13x13 Fated game and 320 KiB for 32 players on 45x45.
LIMIT = 128

_kept: dict[tuple[str, int], tuple[str, int, str, Any]] = {}
_lock = threading.Lock()


def take(alias: str, game_id: int, ruleset: str, version: int, text: str) -> Any | None:
    """The state kept for this game if ``ruleset`` saved it at ``version`` as ``text``, removed
    from the keep (the caller now owns it and may change it); ``None`` otherwise."""
    with _lock:
        found = _kept.pop((alias, game_id), None)
    if found is None or found[:3] != (ruleset, version, text):
        return None
    return found[3]


def keep_on_commit(
    alias: str,
    game_id: int,
    ruleset: str,
    version: int,
    text: str,
    state: Any,
    connection: BaseDatabaseWrapper | None = None,
) -> None:
    """Keep ``state`` (saved by ``ruleset`` at ``version`` as ``text``) once the current
    transaction commits; the caller must not change it afterwards. ``connection``: the
    transaction's connection (that of ``alias``) when the caller has it at hand."""
    (connection or transaction.get_connection(alias)).on_commit(
        partial(keep, alias, game_id, ruleset, version, text, state)
    )


def keep(alias: str, game_id: int, ruleset: str, version: int, text: str, state: Any) -> None:
    with _lock:
        _kept.pop((alias, game_id), None)
        _kept[(alias, game_id)] = (ruleset, version, text, state)
        while len(_kept) > LIMIT:
            del _kept[next(iter(_kept))]


def forget_all() -> None:
    """Drop every kept state (tests; a process that changes rows behind the engine's back)."""
    with _lock:
        _kept.clear()
