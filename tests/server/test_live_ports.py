"""The live-server harness (``tests/server/live.py``): a port chosen for a server stays claimed
until that server stops, so parallel test workers never start two servers on one port."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap

from tests.server import live


def test_a_claimed_port_is_not_handed_out_again_until_released() -> None:
    port, claim = live.claim_port()
    try:
        assert live._claim(port) is None  # claimed, though nothing listens there yet
        others = {live.claim_port() for _ in range(3)}
        try:
            assert port not in {p for p, _ in others}
        finally:
            for _, handle in others:
                live._release(handle)
    finally:
        live._release(claim)
    again = live._claim(port)
    assert again is not None
    live._release(again)


def test_another_process_cannot_claim_it_either() -> None:
    port, claim = live.claim_port()
    try:
        script = textwrap.dedent(
            f"""
            from tests.server import live
            print(live._claim({port}) is None)
            """
        )
        result = subprocess.run(
            [sys.executable, "-c", script], cwd=live.ROOT, capture_output=True, text=True, timeout=60
        )
        assert result.stdout.strip() == "True", result.stderr
    finally:
        live._release(claim)


def test_a_port_something_else_listens_on_is_not_claimed() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # as the servers the harness starts: a port an earlier test's server left in TIME_WAIT
        # (free to claim) still binds
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        port, claim = live.claim_port()
        try:  # bound while claimed, so that no other test process takes the port meanwhile
            sock.bind(("127.0.0.1", port))
            sock.listen()
        finally:
            live._release(claim)
        assert live._claim(port) is None  # unclaimed now, but something listens there
