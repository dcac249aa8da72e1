"""Lasting parts of views: parts a ruleset builds once and hands out again, unchanged, in the
views of later states (White Maiden's areas, bosses and map change seldom during a game).

A :class:`Lasting` memo keeps the parts built for the most recent keys (a key names everything a
part is built from). While it holds a part, :func:`encoded` gives the part's canonical JSON (keys
sorted, compact), encoded once (the elements of a list, or values of a dict, that a memo holds
are put in as their own encodings), and :func:`digest` its SHA-256, computed once: the server's
view digests put those bytes into the encoding of each view (``msgspec.Raw``), or that digest in
place of the part (for the parts a ruleset names in ``digest_parts``), instead of encoding and
hashing the part again after every change of every game.

Parts are shared: whoever receives one reads it and never changes it (a ruleset hands them out
only from its ``views`` hook, whose views are read-only; see :mod:`delve.kernel.ruleset`).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

import msgspec

V = TypeVar("V")

_canonical = msgspec.json.Encoder(order="sorted")


class _Held(msgspec.Struct, eq=False, gc=False):
    """A part some memo holds (``count``: how many keys hold it), and its encoding once asked.
    A struct, made for less than a class whose ``__init__`` sets its fields (one is made for each
    new part held), compared by identity (an entry may be a memo's key), and not tracked by the
    collector: an entry is in no reference cycle (its part, encoding, digest and derived values
    never refer to it), so it is freed as soon as it is released."""

    part: Any
    count: int = 0
    raw: msgspec.Raw | None = None
    digest: str | None = None
    derived: dict[Hashable, Any] | None = None


# Parts held now, by id: an entry holds its part, so the id cannot be reused while it is here.
_held: dict[int, _Held] = {}
_lock = threading.Lock()


class Lasting(Generic[V]):
    """A memo of at most ``size`` parts by key, the least recently used forgotten first.

    ``get(key, build)`` returns the part held for ``key``, else ``build()`` (then held). The key
    must name everything ``build`` reads that may differ from one call to another: the same key
    must always build an equal part.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._parts: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        with _lock:
            part = self._parts.get(key)
            if part is not None:
                self._parts.move_to_end(key)
                return part
        part = build()
        with _lock:
            held = self._parts.get(key)
            if held is not None:  # another thread built it meanwhile: one part per key
                return held
            self._keep(key, part)
        return part

    def hold(self, part: V) -> V:
        """``part``, held by this memo as its newest (unless a memo holds it already): for parts a
        caller keeps itself and hands out again while equal, which have no key of their own."""
        if id(part) not in _held:
            _lock.acquire()  # not ``with``: this is the path of every new part, and costs less
            try:
                self._keep(None, part)
            finally:
                _lock.release()
        return part

    def hold_all(self, parts: Iterable[V]) -> bool:
        """:meth:`hold` each of ``parts`` (for a part built again from kept parts: those held
        already are only looked at); whether any was not held (then holding it may have made
        this memo forget one of the others, if it was the part held longest ago)."""
        return _hold_each(self, parts)

    def _keep(self, key: Hashable | None, part: V) -> None:
        """Hold ``part`` under ``key`` (a key not in the memo; ``None``: a part not held yet, under
        a key of its own, its entry in ``_held``; the lock taken), forgetting the least recently
        used parts over the size."""
        entry = _held.get(id(part))
        if entry is None:
            entry = _held[id(part)] = _Held(part)
            if key is None:
                key = entry
        elif key is None:  # held meanwhile (another thread)
            key = object()
        entry.count += 1
        self._parts[key] = part
        while len(self._parts) > self.size:
            _, old = self._parts.popitem(last=False)
            _release(old)

    def find(self, key: Hashable) -> V | None:
        """The part held for ``key``, if any (nothing is built)."""
        with _lock:
            part = self._parts.get(key)
            if part is not None:
                self._parts.move_to_end(key)
            return part

    def clear(self) -> None:
        with _lock:
            while self._parts:
                _, old = self._parts.popitem(last=False)
                _release(old)

    def __len__(self) -> int:
        return len(self._parts)


class Ring(Generic[V]):
    """A memo of at most ``size`` parts without keys, the part held longest ago forgotten first:
    :meth:`Lasting.hold` and :meth:`Lasting.hold_all` for a caller that only holds parts it keeps
    itself (parts are never looked up again here, so the least recently used is the one held
    longest ago). Its parts sit in a ring of slots, each new one in the slot of the part it
    forgets: holding a part costs a fraction of what an ordered dict of keys does, which
    counts for a caller that holds a few new parts after every command of every game."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots: list[Any] = [_EMPTY] * size
        self._next = 0
        self._count = 0

    def hold(self, part: V) -> V:
        """``part``, held by this memo as its newest (unless a memo holds it already)."""
        if id(part) not in _held:
            _lock.acquire()  # not ``with``: this is the path of every new part, and costs less
            try:
                entry = _held.get(id(part))
                if entry is None:
                    entry = _held[id(part)] = _Held(part)
                entry.count += 1
                index = self._next
                old = self._slots[index]
                self._slots[index] = part
                self._next = index + 1 if index + 1 < self.size else 0
                if old is _EMPTY:
                    self._count += 1
                else:
                    _release(old)
            finally:
                _lock.release()
        return part

    def hold_all(self, parts: Iterable[V]) -> bool:
        """:meth:`Lasting.hold_all`: :meth:`hold` each of ``parts``; whether any was not held."""
        return _hold_each(self, parts)

    def clear(self) -> None:
        with _lock:
            for index, old in enumerate(self._slots):
                if old is not _EMPTY:
                    _release(old)
                    self._slots[index] = _EMPTY
            self._next = 0
            self._count = 0

    def __len__(self) -> int:
        return self._count


def _hold_each(memo: Lasting[V] | Ring[V], parts: Iterable[V]) -> bool:
    """``memo.hold`` each of ``parts`` not held; whether any was not. Parts a caller hands out
    again are mostly held already: that is looked at for all of them at once first."""
    found = parts if type(parts) is list else list(parts)
    if all(map(_held.__contains__, map(id, found))):
        return False
    for part in found:
        if id(part) not in _held:
            memo.hold(part)
    return True


#: An empty slot of a :class:`Ring`.
_EMPTY = object()


def _release(part: Any) -> None:
    entry = _held.get(id(part))
    if entry is not None and entry.part is part:
        entry.count -= 1
        if entry.count <= 0:
            del _held[id(part)]


def held(key: int) -> bool:
    """Whether a part with the id ``key`` may be held now (a quick test before :func:`encoded`)."""
    return key in _held


def encoded(part: Any) -> msgspec.Raw | None:
    """The canonical JSON (keys sorted, compact) of a part a :class:`Lasting` memo holds now,
    encoded once while it is held; ``None`` for any other object."""
    entry = _held.get(id(part))
    if entry is None or entry.part is not part:
        return None
    raw = entry.raw
    if raw is None:
        raw = entry.raw = msgspec.Raw(_canonical.encode(_with_held(part)))
    return raw


def _with_held(part: Any) -> Any:
    """``part`` (a list or dict) with the elements or values that a memo holds put in as their
    encodings (the same bytes: each is its canonical JSON), so that a part built again from
    parts kept from before (a list of kept entries) encodes only what is new."""
    # loops, not any() over a generator: this looks at every part encoded
    if type(part) is list:
        for item in part:
            if id(item) in _held:
                return [_encoding_or(element, _held.get(id(element))) for element in part]
    elif type(part) is dict:
        for value in part.values():
            if id(value) in _held:
                return {key: _encoding_or(found, _held.get(id(found))) for key, found in part.items()}
    return part


def _encoding_or(value: Any, entry: _Held | None) -> Any:
    """``value``'s encoding if ``entry`` (its entry in ``_held``, if any) holds it, else ``value``."""
    if entry is None or entry.part is not value:
        return value
    return entry.raw or encoded(value)


def digest(part: Any) -> str:
    """The SHA-256 (hex) of the canonical JSON of ``part``: computed once while a
    :class:`Lasting` memo holds it, every time for any other object."""
    entry = _held.get(id(part))
    if entry is None or entry.part is not part:
        return hashlib.sha256(_canonical.encode(part)).hexdigest()
    found = entry.digest
    if found is None:
        raw = encoded(part)  # hashed as it is (a Raw is a buffer): no copy of its bytes
        found = entry.digest = hashlib.sha256(_canonical.encode(part) if raw is None else raw).hexdigest()
    return found


def derived_known(part: Any, key: Hashable) -> Any | None:
    """The value :func:`remember` keeps for ``part`` under ``key`` while a memo holds the part,
    ``None`` when there is none (yet, or any more)."""
    entry = _held.get(id(part))
    if entry is None or entry.part is not part or entry.derived is None:
        return None
    return entry.derived.get(key)


def remember(part: Any, key: Hashable, value: Any) -> None:
    """Keep ``value``, computed from ``part`` alone (``key`` names which), while a memo holds the
    part (for any other object nothing is kept), the first value kept for a key staying: for what
    a caller derives from a whole lasting part (the server's digest of a view a ruleset hands out
    again whole, in the form its ``digest_parts`` give), found again by :func:`derived_known`."""
    entry = _held.get(id(part))
    if entry is None or entry.part is not part:
        return
    if entry.derived is None:
        entry.derived = {}
    entry.derived.setdefault(key, value)
