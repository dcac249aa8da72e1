"""Password hashers: Argon2id first, and no more hashes at once than the server can afford.

Hashing a password is deliberately expensive (about 0.1 s of one core with these parameters), so
a handful of people guessing passwords could otherwise take every core and slow every request.
Each hasher below takes one of ``DELVE_PASSWORD_HASH_CONCURRENCY`` process-wide slots while it
works; other logins wait for a slot in their own request thread (never on the event loop).

Existing PBKDF2 hashes still verify, and are rehashed with Argon2 at the next successful login
(Django does that whenever the first hasher in ``PASSWORD_HASHERS`` differs).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.auth import hashers


@functools.cache
def _slots(size: int) -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(size)


_held = threading.local()


@contextmanager
def hashing_slot() -> Iterator[None]:
    """Hold one of the process's password-hashing slots while the block runs (re-entrant: a
    hasher whose ``verify`` calls its own ``encode`` keeps the slot it has)."""
    if getattr(_held, "depth", 0):
        _held.depth += 1
        try:
            yield
        finally:
            _held.depth -= 1
        return
    with _slots(settings.PASSWORD_HASH_CONCURRENCY):
        _held.depth = 1
        try:
            yield
        finally:
            _held.depth = 0


class _Bounded:
    """Runs a hasher's expensive steps inside :func:`hashing_slot`."""

    def encode(self, *args: Any, **kwargs: Any) -> Any:
        with hashing_slot():
            return super().encode(*args, **kwargs)  # type: ignore[misc]

    def verify(self, *args: Any, **kwargs: Any) -> Any:
        with hashing_slot():
            return super().verify(*args, **kwargs)  # type: ignore[misc]

    def harden_runtime(self, *args: Any, **kwargs: Any) -> Any:
        with hashing_slot():
            return super().harden_runtime(*args, **kwargs)  # type: ignore[misc]


class Argon2PasswordHasher(_Bounded, hashers.Argon2PasswordHasher):
    """Argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane): one core for about
    0.1 s instead of Django's default 100 MiB on 8 lanes, which takes every core of a small
    server for most of a second. Hashes stay in the standard ``argon2$argon2id$...`` format."""

    time_cost = 2
    memory_cost = 19456
    parallelism = 1


class PBKDF2PasswordHasher(_Bounded, hashers.PBKDF2PasswordHasher):
    """Verifies the PBKDF2 hashes stored before Argon2 (upgraded at the next login)."""
