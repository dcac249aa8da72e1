"""tests.aio.run_alone: a coroutine runs to its end even where an event loop is already running in
the calling thread (as Playwright's synchronous API leaves one in a serial test run, which made
CI fail where the parallel local runs passed)."""

from __future__ import annotations

import asyncio

import pytest

from tests.aio import run_alone


async def answer() -> int:
    await asyncio.sleep(0)
    return 42


async def refuse() -> None:
    await asyncio.sleep(0)
    raise ValueError("refused")


def test_the_result_comes_back() -> None:
    assert run_alone(answer) == 42


def test_the_coroutines_exception_is_raised_in_the_caller() -> None:
    with pytest.raises(ValueError, match="refused"):
        run_alone(refuse)


def test_it_runs_where_a_loop_is_already_running_in_this_thread() -> None:
    async def inside_a_running_loop() -> int:
        waiting = answer()
        with pytest.raises(RuntimeError, match="running event loop"):
            asyncio.run(waiting)  # what the tests did before, and what failed in CI
        waiting.close()
        return run_alone(answer)

    assert run_alone(inside_a_running_loop) == 42
