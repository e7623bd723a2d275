"""An asker out of file descriptors keeps its ask answerable (issue 31, finding 7).

One failed ``accept`` (EMFILE) used to end the asker's accept thread for good: the ask
stayed listed but could never be answered. Here a real asker, settled in its wait, has its
descriptor limit lowered to what it holds (``prlimit`` on the running process), a terminal
connects, and the limit is raised again: the asker says so once and the answer is taken.
"""

from __future__ import annotations

import os
import resource
import socket
from collections.abc import Callable
from pathlib import Path

from pi_ask.relay.client import Session
from pi_ask.state.commands import Digit
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from tests.child_processes import wait_until
from tests.inbox.conftest import Asker, pending

FAILED = "accepting a terminal failed"


def _settled(pid: int) -> bool:
    """Its two threads blocked: the main one in select, the other in accept."""
    tasks = Path(f"/proc/{pid}/task")
    waits = sorted((tasks / tid / "wchan").read_text() for tid in os.listdir(tasks))
    return len(waits) == 2 and any("poll" in wait or "select" in wait for wait in waits)


def test_an_accept_out_of_descriptors_is_retried_and_said_once(
    ask: Callable[..., Asker], asks: Path
) -> None:
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    assert info.socket is not None
    pid = asker.process.pid
    wait_until(lambda: _settled(pid), "the asker to settle into its wait")
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    held = len(os.listdir(f"/proc/{pid}/fd"))
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (held, hard))
    knocking = []
    try:
        for _ in range(3):  # each waits in the backlog: no descriptor to accept it with
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(os.fspath(info.socket))
            knocking.append(sock)
        wait_until(lambda: FAILED in asker.stderr.read_text(encoding="utf-8"), "the EMFILE line")
    finally:
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
        for sock in knocking:
            sock.close()
    session = Session(info)
    session.open()
    try:
        assert session.state is not None
        chosen = apply(session.state, Digit(1), Behaviour())
        chosen = apply(chosen, Digit(1), Behaviour())
        assert session.send_answer(chosen, "submit") is True
    finally:
        session.close()
    result, status = asker.result()
    assert status == 0, result
    details = result["details"]
    assert isinstance(details, dict) and details["answers"]["db"]["values"] == ["pg"]
    assert asker.stderr.read_text(encoding="utf-8").count(FAILED) == 1
