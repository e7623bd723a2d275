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
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_ask.relay.asks import AskSummary
from pi_ask.relay.client import Session
from pi_ask.state.commands import Digit
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from tests.child_processes import wait_until
from tests.inbox.conftest import Asker, out_of_descriptors, pending, settled

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
    with out_of_descriptors(pid, info.socket):
        wait_until(lambda: FAILED in asker.stderr.read_text(encoding="utf-8"), "the EMFILE line")
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
    # under, a draft recorded in its session log (with the file a terminal attached while it
    # rested), then the answer settled there.
    from pi_ask.ask.attachments import attach_command
    from pi_ask.config.settings import AttachmentSettings
    from pi_ask.session.log import read_session

    asker = ask("--wait", "--title", "Renamed here")
    (info,) = pending(asks, 1)
    wait_until(lambda: settled(asker.process.pid), "the asker to settle into its wait")
    (tmp_path / "trace.log").write_text("boom\n", encoding="utf-8")
    session = Session(info)
    session.open()
    try:
        assert session.state is not None
        attach = attach_command(
            "trace.log",
            session.state,
            "db",
            folder=session.folder.attachments,
            limits=AttachmentSettings(),
            cwd=tmp_path,
        )
        chosen = apply(apply(session.state, attach, Behaviour()), Digit(2), Behaviour())
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
    entries = read_session(log).entries
    kinds = [entry.custom_type for entry in entries]
    assert kinds[0] == "ask:payload" and "ask:draft" in kinds
    assert kinds[-1] == "ask:pending-dismissed"
    draft = next(entry.raw for entry in entries if entry.custom_type == "ask:draft")
    assert "trace.log" in json.dumps(draft), draft


def _waiting_with_helpers(pid: int) -> list[int]:
    """The helper threads of an asker waiting with a terminal attached (its accept thread,
    one per terminal), once its main thread is blocked in ``select``; else none."""
    tasks = Path(f"/proc/{pid}/task")
    try:
        helpers = sorted(int(tid) for tid in os.listdir(tasks) if int(tid) != pid)
        main = (tasks / str(pid) / "wchan").read_text()
    except OSError:
        return []
    blocked = "poll" in main or "select" in main
    return helpers if blocked and len(helpers) >= 2 else []


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_taken_by_a_helper_thread_still_ends_the_wait(
    ask: Callable[..., Asker], asks: Path, number: int
) -> None:
    # What a loaded machine did now and then (the accept thread happened to run when the
    # signal came): sent to that thread itself (tgkill), the wait must still wake. The small
    # waiting process has one thread; the asker it turns back into once a terminal holds
    # the ask has helpers (its accept thread, one per terminal).
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    pid = asker.process.pid
    wait_until(lambda: settled(pid), "the asker to settle into its wait")
    session = Session(info)
    session.open()
    try:
        wait_until(lambda: _waiting_with_helpers(pid), "the asker to serve the terminal")
        helper = _waiting_with_helpers(pid)[0]
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.tgkill(pid, helper, number) == 0, os.strerror(ctypes.get_errno())
        result, status = asker.result()
        wait_until(session.ended.is_set, "the terminal to be told the ask ended")
    finally:
        session.close()
    assert status == 128 + number
    details = result["details"]
    assert isinstance(details, dict) and details["reason"] == "aborted"
    assert not any(asks.iterdir())
