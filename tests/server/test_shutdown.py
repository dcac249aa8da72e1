"""Stopping the real server (``delve serve``, SIGTERM) while a game page holds its event stream:
the stream says goodbye (``event: bye``) and the server stops without waiting out its grace
period and without cutting the stream with an error in its log (it did both before: uvicorn
waits for every open response, and an event stream lasts minutes). Runs on the database of the
pass, like the other live-server tests."""

from __future__ import annotations

import contextlib
import socket
from typing import Any

import pytest

from tests.server.live import LiveServer, live_database, seed_games
from tests.server.scale import redis_absent, with_redis


def open_stream(server: LiveServer, game: int, token: str) -> socket.socket:
    stream = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    stream.sendall(
        f"GET /games/{game}/live/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    return stream


def read_until(stream: socket.socket, marker: bytes) -> bytes:
    got = b""
    while marker not in got:
        chunk = stream.recv(4096)
        if not chunk:
            break
        got += chunk
    return got


WORKERS = [
    pytest.param((), id="one-process"),
    pytest.param(
        ("--workers", "2"),
        id="two-processes-on-redis",
        marks=[
            pytest.mark.postgres,  # several processes need PostgreSQL: the PostgreSQL pass runs it
            pytest.mark.skipif(redis_absent() is not None, reason=f"needs Redis: {redis_absent()}"),
        ],
    ),
]


@pytest.mark.parametrize("args", WORKERS)
def test_a_stop_with_an_open_stream_says_bye_and_does_not_wait_out_the_grace(
    tmp_path: Any, args: tuple[str, ...]
) -> None:
    """With two processes uvicorn's supervisor passes the stop on to each process, where the
    stream's own process ends it."""
    with live_database(tmp_path) as database, contextlib.ExitStack() as stack:
        player = seed_games(database, games=1)[0]
        env = stack.enter_context(with_redis(database)) if args else database
        server = LiveServer(env, tmp_path, *args)
        server.start()
        stream = open_stream(server, player.game, player.token)
        try:
            opening = read_until(stream, b"event: ready")
            assert b" 200 " in opening.split(b"\r\n", 1)[0] and b"event: ready" in opening, opening
            assert server.process is not None
            process = server.process
            process.terminate()  # SIGTERM to `delve serve`, as a service manager stops it
            ending = read_until(stream, b"event: bye")
            assert b"event: bye" in ending, ending
            process.wait(timeout=30)
        finally:
            stream.close()
            server.stop()
        log = server.log_path.read_text(errors="replace")
        assert "timeout graceful shutdown exceeded" not in log, server.log_tail()
        assert "Traceback" not in log, server.log_tail()
