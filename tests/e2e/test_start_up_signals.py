"""A signal during start-up, before any face has its handlers: still one result line.

pi-ask is held at a real point of its start-up: the session log is locked by another
process, so recording the ask waits for the lock. The signal is sent once pi-ask has the
lock file open (seen in ``/proc``), then the lock is released.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pi_ask.session.locations import encode_cwd
from tests.child_processes import wait_until
from tests.e2e.conftest import PAYLOAD_A
from tests.e2e.terminal import Terminal, child_env, pi_ask_command

pytestmark = pytest.mark.pty
WAIT_S = 60.0


@contextmanager
def _locked_log(tmp_path: Path) -> Iterator[Path]:
    """Hold the lock of the session log ``pi-ask ask`` in ``tmp_path`` writes to."""
    log = tmp_path / "state" / "sessions" / f"{encode_cwd(tmp_path.resolve())}.jsonl"
    log.parent.mkdir(parents=True)
    lock = Path(f"{log}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield lock
    finally:
        os.close(fd)


def _has_open(pid: int, path: Path) -> bool:
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                return True
        except OSError:
            continue
    return False


@pytest.mark.parametrize("ui", ["rpc", "none"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_during_start_up_still_gives_a_result_line(
    tmp_path: Path, ui: str, signum: int
) -> None:
    env = child_env(tmp_path / "config.toml", tmp_path / "state")
    with _locked_log(tmp_path) as lock:
        process = subprocess.Popen(
            [*pi_ask_command(), "ask", "--ui", ui, str(PAYLOAD_A)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=tmp_path,
            start_new_session=True,
        )
        try:
            wait_until(lambda: _has_open(process.pid, lock), "pi-ask to wait for the lock", WAIT_S)
            process.send_signal(signum)
        except BaseException:
            process.kill()
            raise
    # The lock is released: the start-up goes on from where it was.
    with process:
        out, err = process.communicate(timeout=WAIT_S)
    assert process.returncode == 128 + signum, (process.returncode, err)
    assert out.count(b"\n") == 1, out
    details = json.loads(out)["details"]
    assert details["cancelled"] is True
    assert b"Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_start_up_of_the_tui_cancels_at_once(tmp_path: Path, signum: int) -> None:
    env = child_env(tmp_path / "config.toml", tmp_path / "state")
    with _locked_log(tmp_path) as lock:
        term = Terminal(
            [*pi_ask_command(), "ask", str(PAYLOAD_A)],
            stdout=tmp_path / "stdout.json",
            env=env,
            cwd=tmp_path,
        )
        try:
            wait_until(
                lambda: _has_open(term.child.pid, lock), "pi-ask to wait for the lock", WAIT_S
            )
            term.child.kill(signum)
        except BaseException:
            term.kill()
            raise
    try:
        status = term.exit_status(WAIT_S)
    finally:
        term.kill()
    assert status == 128 + signum
    text = (tmp_path / "stdout.json").read_text(encoding="utf-8")
    assert text.count("\n") == 1
    assert json.loads(text)["details"]["cancelled"] is True
    assert "Traceback" not in term.text()
