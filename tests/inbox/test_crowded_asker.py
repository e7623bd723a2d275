"""An asker's socket crowded by idle peers, and askers stopped with SIGSTOP (31 #8).

Sixteen same-user connections that say nothing used to fill the asker's peer slots, so
``pi-ask attach`` and the inbox were hung up on while they stayed open: the ask was listed
but could not be opened. A stopped asker accepts nothing: every connection waits in its
backlog, which fills; a listing must still take no time over it, and a terminal opening its
ask must not take it for gone (the answer waits in its folder until the asker runs again).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_ask.relay.accepting import MAX_PEERS
from pi_ask.relay.client import list_pending
from tests.child_processes import wait_until
from tests.e2e.terminal import Terminal
from tests.inbox.conftest import PAYLOAD, Asker, attach_listing, pending, settled

# In-process, a listing of a few asks takes milliseconds; one that waited on each stopped
# asker (a connect timing out, a reply waited for) would take seconds.
LISTING_CAP_S = 1.5
STOPPED = 3


def _sockets(pid: int) -> int:
    """The sockets ``pid`` holds: the asker's listening one and its peers. (Counted, not its
    threads: the small waiting process holds its peers in one thread.)"""
    fds = Path(f"/proc/{pid}/fd")
    count = 0
    for name in os.listdir(fds):
        with contextlib.suppress(OSError):  # closed between the listing and the read
            count += os.readlink(fds / name).startswith("socket:")
    return count


def _idle_peers(path: Path, count: int) -> list[socket.socket]:
    peers = []
    for _ in range(count):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(os.fspath(path))
        peers.append(sock)
    return peers


@pytest.fixture
def crowded(ask: Callable[..., Asker], asks: Path) -> Iterator[Asker]:
    """A waiting asker holding ``MAX_PEERS`` idle same-user peers."""
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    assert info.socket is not None
    pid = asker.process.pid
    wait_until(lambda: settled(pid), "the asker to settle into its wait")
    peers = _idle_peers(info.socket, MAX_PEERS)
    try:
        wait_until(lambda: _sockets(pid) == 1 + MAX_PEERS, "the asker to hold the idle peers")
        yield asker
    finally:
        for sock in peers:
            sock.close()


def _answer_pg_sa(term: Terminal) -> None:
    term.wait_for("Which database?")
    term.press("1")  # PostgreSQL, then the next question
    term.wait_for("Which ORM?")
    term.press("1")
    term.wait_for("Submit")
    term.press("1", "1")


def _answered(asker: Asker) -> None:
    result, status = asker.result()
    assert status == 0, result
    answers = result["details"]["answers"]  # type: ignore[index]
    assert answers["db"]["values"] == ["pg"]
    assert answers["orm"]["values"] == ["sa"]


def test_attach_gets_the_ask_while_idle_peers_hold_the_askers_socket(
    crowded: Asker, terminal: Callable[..., Terminal]
) -> None:
    term = terminal("attach")
    _answer_pg_sa(term)
    assert term.exit_status() == 0
    _answered(crowded)


def test_the_inbox_gets_the_ask_while_idle_peers_hold_the_askers_socket(
    crowded: Asker, terminal: Callable[..., Terminal]
) -> None:
    inbox = terminal("inbox")
    _answer_pg_sa(inbox)  # one ask waiting: it opens at once
    _answered(crowded)
    inbox.wait_for("waiting for questions")
    inbox.press("q")
    assert inbox.exit_status() == 0


def _stop_with_full_backlog(asker: Asker, path: Path) -> list[socket.socket]:
    """SIGSTOP the asker and fill its socket's backlog (connections nobody accepts)."""
    asker.process.send_signal(signal.SIGSTOP)
    wait_until(lambda: _state(asker.process.pid) == "T", "the asker to stop")
    waiting = []
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(os.fspath(path))
        except BlockingIOError:  # the backlog is full
            sock.close()
            return waiting
        waiting.append(sock)


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_stopped_askers_with_full_backlogs_cost_a_listing_nothing(
    ask: Callable[..., Asker], asks: Path, env: dict[str, str]
) -> None:
    live = ask("--wait", name="live", payload={**PAYLOAD, "title": "Live"})
    pending(asks, 1)
    stopped = [
        ask("--wait", name=f"stopped{n}", payload={**PAYLOAD, "title": f"Stopped {n}"})
        for n in range(STOPPED)
    ]
    by_title = {info.title: info for info in pending(asks, 1 + STOPPED)}
    held = []
    try:
        for n, asker in enumerate(stopped):
            info = by_title[f"Stopped {n}"]
            assert info.socket is not None
            held += _stop_with_full_backlog(asker, info.socket)
        started = time.monotonic()
        listed = list_pending(asks)
        took = time.monotonic() - started
        assert sorted(i.title or "" for i in listed) == [
            "Live",
            *(f"Stopped {n}" for n in range(STOPPED)),
        ]
        assert took < LISTING_CAP_S, f"a listing took {took:.1f} s"
        assert len(attach_listing(env)) == 1 + STOPPED
    finally:
        for sock in held:
            sock.close()
        for asker in stopped:
            asker.process.send_signal(signal.SIGCONT)
    assert live.process.poll() is None


@pytest.mark.parametrize("full_backlog", [False, True], ids=["stopped", "stopped-full-backlog"])
def test_a_stopped_askers_ask_opens_and_its_answer_waits_for_it(
    ask: Callable[..., Asker], asks: Path, terminal: Callable[..., Terminal], full_backlog: bool
) -> None:
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    assert info.socket is not None
    wait_until(lambda: settled(asker.process.pid), "the asker to settle into its wait")
    held = _stop_with_full_backlog(asker, info.socket) if full_backlog else []
    if not full_backlog:
        asker.process.send_signal(signal.SIGSTOP)
        wait_until(lambda: _state(asker.process.pid) == "T", "the asker to stop")
    try:
        term = terminal("attach")
        _answer_pg_sa(term)
        assert term.exit_status() == 0  # taken: claimed in the ask's folder
    finally:
        for sock in held:
            sock.close()
        asker.process.send_signal(signal.SIGCONT)
    _answered(asker)
