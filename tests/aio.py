"""Running a coroutine to its end from a test, whatever else the test process has running.

Playwright's synchronous API (the browser tests) keeps an event loop running in the main thread
of the process that ran it, and ``asyncio.run`` refuses to start in a thread with a running loop.
Under xdist a browser test and an asyncio test rarely share a process; run serially (as CI does)
they always do. ``run_alone`` runs the coroutine in a thread of its own and hands back its result
or its exception.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_alone(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(main())`` in a new thread; its result, or its exception raised here."""
    results: list[T] = []
    failed: list[BaseException] = []

    def target() -> None:
        try:
            results.append(asyncio.run(main()))
        except BaseException as exc:  # noqa: BLE001 (handed back to the caller below)
            failed.append(exc)

    thread = threading.Thread(target=target, name="run-alone")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return results[0]
