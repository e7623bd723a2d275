from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pi_ask.notifications.channel import (
    CancelScope,
    ChannelError,
    Notification,
    SendContext,
)
from pi_ask.notifications.channels.command import CommandChannel


def _context(timeout_s: float = 5.0, scope: CancelScope | None = None) -> SendContext:
    return SendContext(lambda text: None, timeout_s, scope or CancelScope())


def _read_env(path: Path) -> dict[str, str]:
    # "env -0" separates variables by NUL, so values may hold anything.
    entries = path.read_bytes().decode().split("\0")
    return dict(entry.split("=", 1) for entry in entries if "=" in entry)


def _is_gone(pid: int, within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A killed child of an exited shell waits for init to reap it; check its state.
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.02)
    return False


def test_command_gets_the_notification_in_its_environment(tmp_path: Path) -> None:
    out = tmp_path / "env.txt"
    channel = CommandChannel(f"env -0 > {shlex.quote(str(out))}")
    detail = channel.send(Notification(message="Question waiting: Database"), _context())
    env = _read_env(out)
    assert detail == ""
    assert env["ASK_NOTIFY_EVENT"] == "question.waiting"
    assert env["ASK_NOTIFY_TITLE"] == "pi ask"
    assert env["ASK_NOTIFY_MESSAGE"] == "Question waiting: Database"
    assert env["PATH"] == os.environ["PATH"]


def test_message_text_is_never_run_by_the_shell(tmp_path: Path) -> None:
    out = tmp_path / "env.txt"
    marker = tmp_path / "pwned"
    hostile = f"$(touch {marker}) `touch {marker}`; touch {marker} \x1b]0;x\x07"
    channel = CommandChannel(f'printf %s "$ASK_NOTIFY_MESSAGE" > {shlex.quote(str(out))}')
    channel.send(Notification(message=hostile), _context())
    assert not marker.exists()
    assert out.read_text() == f"$(touch {marker}) `touch {marker}`; touch {marker} ^[]0;x^G"


def test_non_zero_exit_fails_with_the_last_stderr_line() -> None:
    channel = CommandChannel("echo first >&2; echo 'no \x1b[31mdisplay' >&2; exit 3")
    with pytest.raises(ChannelError) as failure:
        channel.send(Notification(message="m"), _context())
    assert str(failure.value) == "exit status 3: no ^[[31mdisplay"


def test_unknown_command_fails_with_the_shell_status() -> None:
    with pytest.raises(ChannelError, match=r"^exit status 127"):
        CommandChannel("no-such-command-pi-ask-test").send(Notification(message="m"), _context())


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    channel = CommandChannel(f"sleep 30 & echo $! > {shlex.quote(str(pid_file))}; wait")
    started = time.monotonic()
    # Alone (no dispatcher to abandon it first) it stops a second after its timeout.
    with pytest.raises(ChannelError, match=r"^timed out after 1\.3 s$"):
        channel.send(Notification(message="m"), _context(timeout_s=0.3))
    assert time.monotonic() - started < 5
    assert _is_gone(int(pid_file.read_text()))


def test_cancel_scope_stops_a_running_command(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    scope = CancelScope()
    channel = CommandChannel(f"echo $$ > {shlex.quote(str(pid_file))}; exec sleep 30")
    errors: list[BaseException] = []

    def run() -> None:
        try:
            channel.send(Notification(message="m"), _context(timeout_s=30, scope=scope))
        except ChannelError as err:
            errors.append(err)

    worker = threading.Thread(target=run)
    worker.start()
    deadline = time.monotonic() + 5
    while not (pid_file.exists() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.01)
    scope.cancel()
    worker.join(60)
    assert not worker.is_alive()
    assert [str(err) for err in errors] == ["killed by signal 9"]
    assert _is_gone(int(pid_file.read_text()))


def test_background_child_holding_stderr_does_not_delay_success() -> None:
    # The daemon keeps the inherited stderr open; a pipe would make us wait for it.
    channel = CommandChannel("sleep 3 & exit 0")
    started = time.monotonic()
    assert channel.send(Notification(message="m"), _context(timeout_s=2)) == ""
    assert time.monotonic() - started < 2


def test_command_output_never_reaches_our_stdout(tmp_path: Path) -> None:
    script = (
        "from pi_ask.notifications.channel import CancelScope, Notification, SendContext\n"
        "from pi_ask.notifications.channels.command import CommandChannel\n"
        "CommandChannel('echo to-stdout; echo to-stderr >&2').send(\n"
        "    Notification(message='m'), SendContext(print, 5.0, CancelScope()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True
    )
    assert (result.stdout, result.stderr) == ("", "")


def test_command_label_and_config_value() -> None:
    channel = CommandChannel("notify-send hi")
    assert channel.label == "command"
    assert channel.to_plain() == {"type": "command", "command": "notify-send hi"}
