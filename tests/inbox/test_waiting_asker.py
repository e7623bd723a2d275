"""A waiting asker, settled into its wait: out of descriptors, and signalled (28, 31 #7).

One failed ``accept`` (EMFILE) used to end the asker's accept thread for good: the ask
stayed listed but could never be answered. Here a real asker, settled in its wait, has its
descriptor limit lowered to what it holds (``prlimit`` on the running process), a terminal
connects, and the limit is raised again: the asker says so once and the answer is taken.
And with nothing polling, a signal still ends it at once, its ask withdrawn, even one that
a helper thread takes (the kernel hands a process's signal to any thread that does not block
it; Python runs the handler on the main thread, blocked in ``select``).
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_ask.relay.client import Session
from pi_ask.state.commands import Digit
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from tests.child_processes import wait_until
from tests.inbox.conftest import Asker, out_of_descriptors, pending, settled

FAILED = "accepting a terminal failed"


def test_an_accept_out_of_descriptors_is_retried_and_said_once(
    ask: Callable[..., Asker], asks: Path
) -> None:
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    assert info.socket is not None
    pid = asker.process.pid
    wait_until(lambda: settled(pid), "the asker to settle into its wait")
    with out_of_descriptors(pid, info.socket):
        wait_until(lambda: FAILED in asker.stderr.read_text(encoding="utf-8"), "the EMFILE line")
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


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_settled_waiting_asker_answers_a_signal(
    ask: Callable[..., Asker], asks: Path, number: int
) -> None:
    # Blocked on its socket and folder, with nothing polling, it still ends on a signal.
    asker = ask("--wait")
    pending(asks, 1)
    wait_until(lambda: settled(asker.process.pid), "the asker to settle into its wait")
    asker.process.send_signal(number)
    result, status = asker.result()
    assert status == 128 + number
    details = result["details"]
    assert isinstance(details, dict) and details["reason"] == "aborted"
    assert not any(asks.iterdir())  # the ask is no longer pending anywhere


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_taken_by_a_helper_thread_still_ends_the_wait(
    ask: Callable[..., Asker], asks: Path, number: int
) -> None:
    # What a loaded machine did now and then (the accept thread happened to run when the
    # signal came): sent to that thread itself (tgkill), the wait must still wake.
    asker = ask("--wait")
    pending(asks, 1)
    pid = asker.process.pid
    wait_until(lambda: settled(pid), "the asker to settle into its wait")
    (helper,) = (int(tid) for tid in os.listdir(f"/proc/{pid}/task") if int(tid) != pid)
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.tgkill(pid, helper, number) == 0, os.strerror(ctypes.get_errno())
    result, status = asker.result()
    assert status == 128 + number
    details = result["details"]
    assert isinstance(details, dict) and details["reason"] == "aborted"
    assert not any(asks.iterdir())
