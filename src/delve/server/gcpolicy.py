"""The cyclic garbage collector's settings in a server process.

Nearly everything a request allocates is freed by reference counting as soon as the request is
done; the cyclic collector only has to look at what survives. CPython starts a collection of its
youngest generation every 700 net allocations of container objects (every tenth also walks the
middle generation), which on the command path came to one collection every fifteen durable
commands or so, about 3% of a durable command's time (collections timed through
``gc.callbacks`` over six rounds of ``benchmarks/durable.py``'s games: 24 us a command of about
800 for Fated Labyrinth, 59 collections; 22 us of about 900 for White Maiden, 101). What survives
a command is mostly kept on purpose (decoded states, lasting view parts, statements per
connection), in memos of a bounded size, so a larger threshold spaces the collections out: at
20,000 the same rounds saw one collection (13 us a command) and none.

What exists once a process has started (Django, the apps, the games' content) stays until the
process ends: :func:`freeze_startup` moves it out of the collector's sight (``gc.freeze``), so the
collections that do run no longer walk it.
"""

from __future__ import annotations

import gc

#: Net container allocations between two collections of the youngest generation (CPython: 700).
YOUNG_THRESHOLD = 20_000


def configure() -> None:
    """Space the youngest generation's collections out, unless the collector is off (a threshold
    of 0, set by whoever runs the process) or already set further apart."""
    young, middle, old = gc.get_threshold()
    if 0 < young < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, middle, old)


def freeze_startup() -> None:
    """Once a process has set itself up: collect what set-up left over, then keep every object
    that remains out of later collections."""
    gc.collect()
    gc.freeze()
