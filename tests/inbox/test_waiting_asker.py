"""A waiting asker, settled into its wait: out of descriptors, and signalled (28, 31 #7).

One failed ``accept`` (EMFILE) used to end the asker's accept thread for good: the ask
stayed listed but could never be answered. Here a real asker, settled in its wait, has its
descriptor limit lowered to what it holds (``prlimit`` on the running process), a terminal
connects, and the limit is raised again: the asker says so once and the answer is taken.
And with nothing polling, a signal still ends it at once, its ask withdrawn.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_ask.relay.asks import AskSummary
from pi_ask.relay.client import Session
from pi_ask.state.commands import Digit
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from tests.child_processes import wait_until
from tests.inbox.conftest import Asker, pending, settled

FAILED = "accepting a terminal failed"


def _answer_with_the_first_option(info: AskSummary) -> None:
    """A terminal holds the ask, picks its first option (a double 1) and submits."""
    session = Session(info)
    session.open()
    try:
        assert session.state is not None
        chosen = apply(session.state, Digit(1), Behaviour())
        chosen = apply(chosen, Digit(1), Behaviour())
        assert session.send_answer(chosen, "submit") is True
    finally:
        session.close()


def test_an_accept_out_of_descriptors_is_retried_and_said_once(
    ask: Callable[..., Asker], asks: Path
) -> None:
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    assert info.socket is not None
    pid = asker.process.pid
    wait_until(lambda: settled(pid), "the asker to settle into its wait")
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
    _answer_with_the_first_option(info)
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


def test_a_waiting_asker_notifies_from_a_process_of_its_own_and_rests_small(
    ask: Callable[..., Asker], asks: Path, tmp_path: Path
) -> None:
    # The notification's channels run in a notifier process, so the asker at rest is the
    # small waiting process: one thread, none of the notification code, no zombie left.
    heard = tmp_path / "heard"
    (tmp_path / "config.toml").write_text(
        '[notifications]\nchannels = [{ type = "command", command = '
        f'\'printf "%s\\\\n%s\\\\n" "$ASK_NOTIFY_MESSAGE" $PPID > {heard}.new && '
        f"mv {heard}.new {heard}' }}]\n",
        encoding="utf-8",
    )
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    wait_until(heard.exists, "the question-waiting notification")
    wait_until(lambda: settled(asker.process.pid), "the asker to settle into its wait")
    message, parent = heard.read_text(encoding="utf-8").splitlines()
    assert message.startswith("Question waiting")
    assert int(parent) != asker.process.pid  # the notifier's shell, not the asker's
    maps = Path(f"/proc/{asker.process.pid}/maps").read_text(encoding="utf-8")
    # Nothing but what waits is loaded: no JSON, no session log, no inotify through ctypes.
    mapped = {line.rpartition("/")[2].split(".")[0] for line in maps.splitlines()}
    assert not {"_json", "_datetime", "_ctypes"} & mapped
    children = Path(f"/proc/{asker.process.pid}/task/{asker.process.pid}/children")
    wait_until(lambda: not children.read_text().split(), "the notifier to be reaped")
    _answer_with_the_first_option(info)
    result, status = asker.result()
    assert status == 0, result


def test_the_small_waiting_process_answers_as_the_asker_would(
    ask: Callable[..., Asker], asks: Path, tmp_path: Path
) -> None:
    # Taken over from its folder after the image was replaced: the title it was asked
    # under, a draft recorded in its session log, then the answer settled there.
    from pi_ask.session.log import read_session

    asker = ask("--wait", "--title", "Renamed here")
    (info,) = pending(asks, 1)
    wait_until(lambda: settled(asker.process.pid), "the asker to settle into its wait")
    session = Session(info)
    session.open()
    try:
        assert session.state is not None
        chosen = apply(session.state, Digit(2), Behaviour())
        session.send_draft(chosen)
        chosen = apply(chosen, Digit(1), Behaviour())
        chosen = apply(chosen, Digit(1), Behaviour())
        assert session.send_answer(chosen, "submit") is True
    finally:
        session.close()
    result, status = asker.result()
    assert status == 0, result
    details = result["details"]
    assert isinstance(details, dict)
    assert details["title"] == "Renamed here"
    assert details["answers"]["db"]["values"] == ["sqlite"]
    (log,) = (tmp_path / "state" / "sessions").glob("*.jsonl")  # the asker's own state folder
    kinds = [entry.custom_type for entry in read_session(log).entries]
    assert kinds[0] == "ask:payload" and "ask:draft" in kinds
    assert kinds[-1] == "ask:pending-dismissed"
