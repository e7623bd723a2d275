from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pi_ask.session.file_lock import LockTimeout, exclusive_lock
from pi_ask.session.log import SessionLog, SessionWriteError

HOLD_WITH_OURS = """
from pathlib import Path
import sys
from pi_ask.session.file_lock import exclusive_lock
with exclusive_lock(Path(sys.argv[1]), 5.0):
    print("held", flush=True)
    sys.stdin.readline()
"""

HOLD_WITH_FILELOCK = """
import sys
import filelock
with filelock.FileLock(sys.argv[1], timeout=5.0):
    print("held", flush=True)
    sys.stdin.readline()
"""


@contextmanager
def _held_elsewhere(script: str, lock_path: Path) -> Iterator[None]:
    """Run ``script`` in another process until it holds the lock; release it on exit."""
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), str(lock_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.stdout.close()
        assert holder.wait(timeout=30) == 0


def test_the_lock_file_is_created_and_stays_after_release(tmp_path: Path) -> None:
    lock_path = tmp_path / "log.jsonl.lock"
    with exclusive_lock(lock_path, 1.0):
        assert lock_path.exists()
    assert lock_path.exists()
    assert lock_path.stat().st_mode & 0o777 == 0o600


def test_another_process_holding_it_makes_the_wait_time_out(tmp_path: Path) -> None:
    lock_path = tmp_path / "log.jsonl.lock"
    with _held_elsewhere(HOLD_WITH_OURS, lock_path):
        started = time.monotonic()
        with pytest.raises(LockTimeout), exclusive_lock(lock_path, 0.2):
            pass
        assert time.monotonic() - started >= 0.2
    with exclusive_lock(lock_path, 1.0):
        pass


def test_a_filelock_holder_excludes_us(tmp_path: Path) -> None:
    lock_path = tmp_path / "log.jsonl.lock"
    with (
        _held_elsewhere(HOLD_WITH_FILELOCK, lock_path),
        pytest.raises(LockTimeout),
        exclusive_lock(lock_path, 0.2),
    ):
        pass


def test_we_exclude_a_filelock_writer(tmp_path: Path) -> None:
    lock_path = tmp_path / "log.jsonl.lock"
    probe = textwrap.dedent(
        """
        import sys
        import filelock
        try:
            with filelock.FileLock(sys.argv[1], timeout=0.2):
                print("acquired")
        except filelock.Timeout:
            print("timed out")
        """
    )
    with exclusive_lock(lock_path, 1.0):
        run = subprocess.run(
            [sys.executable, "-c", probe, str(lock_path)],
            capture_output=True,
            text=True,
            check=True,
        )
    assert run.stdout == "timed out\n"


def test_two_threads_of_one_process_exclude_each_other(tmp_path: Path) -> None:
    lock_path = tmp_path / "log.jsonl.lock"
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with exclusive_lock(lock_path, 1.0):
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(60)
        with pytest.raises(LockTimeout), exclusive_lock(lock_path, 0.1):
            pass
    finally:
        release.set()
        holder.join()
    with exclusive_lock(lock_path, 1.0):
        pass


def test_an_error_in_the_body_propagates_and_releases_the_lock(tmp_path: Path) -> None:
    lock_path = tmp_path / "log.jsonl.lock"
    with pytest.raises(KeyError), exclusive_lock(lock_path, 1.0):
        raise KeyError("body")
    with exclusive_lock(lock_path, 0.1):
        pass


def test_a_held_log_lock_is_reported_as_a_session_write_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "log.jsonl"
    log = SessionLog(path)
    monkeypatch.setattr("pi_ask.session.log.LOCK_TIMEOUT_S", 0.2)
    with (
        _held_elsewhere(HOLD_WITH_OURS, Path(f"{path}.lock")),
        pytest.raises(SessionWriteError, match=r"could not lock the file within 0\.2 s"),
    ):
        log.append_custom("ask:draft", {})
    assert not path.exists()
