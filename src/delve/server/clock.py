"""The server's clock: integer seconds since the epoch.

Every transaction reads it once (``clock.now()``) and hands that number to the engine, which never
reads a clock itself. Tests replace :func:`now` (``monkeypatch.setattr(clock, "now", ...)``) to run
games on a fast, deterministic clock; callers must therefore look it up as ``clock.now()``.
"""

from __future__ import annotations

import time


def now() -> int:
    """The current time in whole seconds since the epoch."""
    return int(time.time())
