from __future__ import annotations

import logging
import shlex
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pi_ask.notifications.channel import Notification, SendContext
from pi_ask.notifications.channels.apprise_channels import AppriseChannel
from pi_ask.notifications.channels.bell import BellChannel
from pi_ask.notifications.channels.command import CommandChannel
from pi_ask.notifications.channels.osc9 import Osc9Channel
from pi_ask.notifications.channels.osc777 import Osc777Channel
from pi_ask.notifications.dispatcher import DEFAULT_TIMEOUT_S, Attempt, dispatch
from pi_ask.notifications.message import waiting_message

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal, HttpSink

MESSAGE = "Question waiting: Database"


def _hanging(pid_file: Path) -> CommandChannel:
    return CommandChannel(f"echo $$ > {shlex.quote(str(pid_file))}; exec sleep 30")


def _wait_for_pid(pid_file: Path) -> int:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        text = pid_file.read_text().strip() if pid_file.exists() else ""
        if text:
            return int(text)
        time.sleep(0.01)
    raise AssertionError("the command never started")


def _is_gone(pid: int) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.02)
    return False


def test_channels_run_in_configured_order(terminal: CapturedTerminal) -> None:
    running = dispatch(
        [Osc777Channel(), BellChannel(), Osc9Channel()],
        title="pi ask",
        message=MESSAGE,
        write_terminal=terminal.write,
    )
    assert running.wait(60)
    assert terminal.data == (
        b"\x1b]777;notify;pi ask;Question waiting: Database\x07"
        b"\x07"
        b"\x1b]9;Question waiting: Database\x07"
    )
    assert running.attempts == (
        Attempt("osc777", "attempted"),
        Attempt("bell", "attempted"),
        Attempt("osc9", "attempted"),
    )


def test_hanging_channel_delays_neither_the_caller_nor_the_next_channel(
    tmp_path: Path, http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    # Warm apprise up first (its import and plugin scan take seconds on a loaded machine),
    # so the timeout below bounds only a loopback post, not the import.
    warm = dispatch(
        [AppriseChannel(http_sink.url)],
        title="warm",
        message="up",
        write_terminal=terminal.write,
        timeout_s=120,
    )
    assert warm.wait(150) and warm.attempts == (Attempt("json://…", "attempted"),)
    http_sink.received.clear()
    http_sink.bodies.clear()
    pid_file = tmp_path / "pid"
    running = dispatch(
        [_hanging(pid_file), AppriseChannel(http_sink.url)],
        title="pi ask",
        message=MESSAGE,
        write_terminal=terminal.write,
        # Room for the apprise command to start and import apprise on a loaded machine.
        timeout_s=8.0,
    )
    # The first channel sleeps 30 s, so nothing can have finished when dispatch returns.
    early = (running.done, running.attempts)
    assert early == (False, ())
    assert http_sink.received.wait(30)
    assert running.wait(30)
    assert running.attempts == (
        Attempt("command", "failed", "timed out after 8 s; abandoned"),
        Attempt("json://…", "attempted"),
    )
    assert (http_sink.bodies[0]["title"], http_sink.bodies[0]["message"]) == ("pi ask", MESSAGE)
    assert _is_gone(_wait_for_pid(pid_file))


def test_hanging_apprise_service_is_abandoned_and_the_next_channel_runs(
    http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    http_sink.hang = True
    running = dispatch(
        [AppriseChannel(http_sink.url), BellChannel()],
        title="pi ask",
        message=MESSAGE,
        write_terminal=terminal.write,
        timeout_s=0.5,
    )
    assert running.wait(60)
    assert running.attempts == (
        Attempt("json://…", "failed", "timed out after 0.5 s; abandoned"),
        Attempt("bell", "attempted"),
    )
    assert terminal.data == b"\x07"


def test_failures_are_recorded_and_the_rest_still_run(terminal: CapturedTerminal) -> None:
    def broken_terminal(text: str) -> None:
        raise OSError(5, "Input/output error")

    running = dispatch(
        [BellChannel(), CommandChannel("exit 4"), CommandChannel("true")],
        title="pi ask",
        message=MESSAGE,
        write_terminal=broken_terminal,
    )
    assert running.wait(60)
    assert running.attempts == (
        Attempt("bell", "failed", "OSError: [Errno 5] Input/output error"),
        Attempt("command", "failed", "exit status 4"),
        Attempt("command", "attempted"),
    )


def test_failures_go_to_the_debug_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="pi_ask.notifications")
    running = dispatch(
        [CommandChannel("exit 4")], title="pi ask", message=MESSAGE, write_terminal=print
    )
    assert running.wait(60)
    assert any(
        record.name == "pi_ask.notifications"
        and record.levelno == logging.DEBUG
        and "exit status 4" in record.getMessage()
        for record in caplog.records
    )


def test_disabled_sends_nothing_and_records_one_skip(terminal: CapturedTerminal) -> None:
    # Another test's abandoned channel may still be winding down: count only new threads.
    before = set(threading.enumerate())
    running = dispatch(
        [BellChannel()],
        title="pi ask",
        message=MESSAGE,
        write_terminal=terminal.write,
        enabled=False,
    )
    assert running.done
    assert running.attempts == (Attempt("notifications", "skipped", "notifications are disabled"),)
    # A disabled dispatch starts no thread, so nothing can write later.
    new = set(threading.enumerate()) - before
    assert not [t for t in new if t.name.startswith("pi-ask-notify")]
    assert terminal.data == b""


def test_close_abandons_the_running_channel_and_skips_the_rest(
    tmp_path: Path, terminal: CapturedTerminal
) -> None:
    pid_file = tmp_path / "pid"
    running = dispatch(
        [_hanging(pid_file), BellChannel()],
        title="pi ask",
        message=MESSAGE,
        write_terminal=terminal.write,
        timeout_s=30,
    )
    pid = _wait_for_pid(pid_file)
    started = time.monotonic()
    running.close(grace=0.2)
    assert time.monotonic() - started < 15  # a cap: far below the 30 s the channel would take
    assert running.done
    assert running.attempts == (
        Attempt("command", "failed", "abandoned: the ask ended before it finished"),
        Attempt("bell", "skipped", "not started: the ask ended"),
    )
    assert _is_gone(pid)
    # The dispatcher thread, woken by close(), ends without starting the bell.
    for thread in threading.enumerate():
        if thread.name == "pi-ask-notify":
            thread.join(30)
            assert not thread.is_alive()
    assert terminal.data == b""


def test_close_lets_a_quick_channel_finish_within_the_grace(tmp_path: Path) -> None:
    out = tmp_path / "done"
    running = dispatch(
        [CommandChannel(f"sleep 0.2; touch {shlex.quote(str(out))}")],
        title="pi ask",
        message=MESSAGE,
        write_terminal=print,
    )
    running.close(grace=5)
    assert running.attempts == (Attempt("command", "attempted"),)
    assert out.exists()


def test_close_after_the_end_changes_nothing(terminal: CapturedTerminal) -> None:
    running = dispatch(
        [BellChannel()], title="pi ask", message=MESSAGE, write_terminal=terminal.write
    )
    assert running.wait(60)
    running.close()
    running.close()
    assert running.attempts == (Attempt("bell", "attempted"),)


def test_no_channels_is_done_at_once() -> None:
    running = dispatch([], title="pi ask", message=MESSAGE, write_terminal=print)
    assert running.done
    assert running.attempts == ()


@dataclass(frozen=True)
class _TimeoutProbe:
    """A channel that reports the time it was given."""

    label: str = "probe"

    def send(self, notification: Notification, context: SendContext) -> str:
        return f"{context.timeout_s!r}"

    def to_plain(self) -> str:
        return "probe"


@pytest.mark.parametrize("timeout_s", [0.0, -1.0, float("nan"), float("inf")])
def test_a_bad_timeout_means_the_default(timeout_s: float) -> None:
    running = dispatch(
        [_TimeoutProbe()],
        title="pi ask",
        message=MESSAGE,
        write_terminal=print,
        timeout_s=timeout_s,
    )
    assert running.wait(30)
    assert running.attempts == (Attempt("probe", "attempted", repr(DEFAULT_TIMEOUT_S)),)
    assert DEFAULT_TIMEOUT_S == 5.0


def test_hostile_text_is_cleaned_before_any_channel_sees_it(
    tmp_path: Path, terminal: CapturedTerminal
) -> None:
    out = tmp_path / "message"
    hostile = "\x1b]0;x\x07\n\x9b" + "C" * 10_000
    running = dispatch(
        [
            Osc9Channel(),
            CommandChannel(f'printf %s "$ASK_NOTIFY_MESSAGE" > {shlex.quote(str(out))}'),
        ],
        title="pi\x1b ask",
        message=waiting_message(hostile),
        write_terminal=terminal.write,
    )
    assert running.wait(60)
    expected = waiting_message(hostile)
    assert len(expected) == 120
    assert expected.startswith("Question waiting: ^[]0;x^G \\x9bCCC")
    assert out.read_text() == expected
    assert terminal.data == f"\x1b]9;{expected}\x07".encode()


def test_channels_without_a_terminal_are_unavailable_not_failed() -> None:
    running = dispatch(
        [BellChannel(), Osc9Channel()], title="pi ask", message=MESSAGE, write_terminal=None
    )
    assert running.wait(30)
    assert running.attempts == (
        Attempt("bell", "unavailable", "no terminal"),
        Attempt("osc9", "unavailable", "no terminal"),
    )
