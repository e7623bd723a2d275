"""The inbox's own socket, starved: out of descriptors, and crowded by idle peers (31 #7, #8).

One failed ``accept`` (EMFILE) used to end the inbox's accept thread for good: its socket
stayed where askers find it, and the backlog, once full, made every asker's poke wait and
fail. Here a real ``pi-ask inbox`` on a pty has its descriptor limit lowered to what it holds
(``prlimit`` on the running process) while askers knock, then raised again: it says so in
one line and reads pokes again. And idle connections of the same user are held at most
``MAX_PEERS`` at a time, the oldest let go first, so they cannot keep a poke out.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_ask.relay import accepting, inbox_socket
from pi_ask.relay.accepting import MAX_PEERS
from pi_ask.relay.inbox_socket import InboxListener
from pi_ask.relay.paths import INBOX_SUFFIX, runtime_dir
from tests.child_processes import wait_until
from tests.e2e.terminal import Terminal
from tests.inbox.conftest import out_of_descriptors

FAILED = "accepting an asker failed"
CAP_S = 20.0  # a generous cap on a wait for the inbox to act


def _open_inbox(terminal: Callable[..., Terminal], runtime: Path) -> tuple[Terminal, Path]:
    inbox = terminal("inbox")
    inbox.wait_for("waiting for questions")
    found: list[Path] = []

    def listening() -> bool:
        found[:] = [p for p in runtime.iterdir() if p.name.endswith(INBOX_SUFFIX)]
        return bool(found)

    wait_until(listening, "the inbox's socket")
    return inbox, found[0]


def _connect(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # Blocking: with a timeout, a unix connect finding the backlog full fails at once.
    sock.connect(os.fspath(path))
    sock.settimeout(CAP_S)
    return sock


def _poke_is_read(path: Path) -> bool:
    """True when the inbox accepts a poke, reads it and hangs up (an end of input)."""
    sock = _connect(path)
    try:
        sock.sendall(json.dumps({"v": 1, "type": "poke"}).encode() + b"\n")
        return sock.recv(1) == b""
    finally:
        sock.close()


def _closed_by_peer(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        sock.settimeout(CAP_S)


def test_an_inbox_out_of_descriptors_says_so_once_and_reads_pokes_again(
    terminal: Callable[..., Terminal], runtime: Path
) -> None:
    inbox, path = _open_inbox(terminal, runtime)
    pid = inbox.child.pid
    with out_of_descriptors(pid, path):
        inbox.wait(lambda: FAILED in "".join(inbox.output))
    assert _poke_is_read(path)
    inbox.pump()
    said = "".join(inbox.output)
    assert said.count(FAILED) == 1
    assert "Traceback" not in said
    inbox.press("q")
    assert inbox.exit_status() == 0
    assert not path.exists()


def test_idle_peers_are_held_at_most_max_peers_at_once_and_a_poke_gets_through(
    terminal: Callable[..., Terminal], runtime: Path
) -> None:
    inbox, path = _open_inbox(terminal, runtime)
    pid = inbox.child.pid
    before = len(os.listdir(f"/proc/{pid}/fd"))
    idle = [_connect(path) for _ in range(3 * MAX_PEERS)]
    try:
        # Accepted in order: once this poke is read, every idle peer before it was taken,
        # and each newcomer past the cap let the oldest go (not left to wait out its time).
        assert _poke_is_read(path)
        assert all(_closed_by_peer(sock) for sock in idle[: 2 * MAX_PEERS])
        wait_until(
            lambda: len(os.listdir(f"/proc/{pid}/fd")) - before <= MAX_PEERS,
            "the inbox to hold at most MAX_PEERS peers",
        )
    finally:
        for sock in idle:
            sock.close()
    inbox.press("q")
    assert inbox.exit_status() == 0


def test_the_inbox_holds_its_peers_by_the_rule_every_acceptor_keeps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One rule (``relay.accepting``) for the asker's socket and the inbox's: with its limit
    lowered, a newcomer past it replaces the peer held longest."""
    monkeypatch.setattr(accepting, "MAX_PEERS", 2)
    monkeypatch.setattr(inbox_socket, "HELLO_TIMEOUT_S", 600.0)  # only replacing lets one go
    listener = InboxListener(runtime_dir())  # made private, as `pi-ask inbox` makes it
    first, second = _connect(listener.path), _connect(listener.path)
    try:
        assert _poke_is_read(listener.path)  # accepted after both: it replaced the first
        assert listener.woken.is_set()
        assert _closed_by_peer(first)
        assert not _closed_by_peer(second)
    finally:
        first.close()
        second.close()
        listener.close()
