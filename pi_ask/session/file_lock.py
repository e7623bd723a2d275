"""``exclusive_lock``: one writer at a time on a session log, across processes and threads.

The lock is ``fcntl.flock`` on a ``<log>.lock`` file beside the log: the lock
``filelock.FileLock`` takes there on POSIX, so pi-ask processes of either kind exclude each
other. ``fcntl`` is already loaded by the terminal layer, while importing ``filelock`` costs
about 15 ms, and the ``ask:payload`` append happens before the first frame (python-port.md
§8). ``filelock`` still serves where ``flock`` is missing: Windows, and file systems that
answer ``ENOSYS``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

if sys.platform != "win32":
    import fcntl

# The same pause between tries as filelock's default.
POLL_INTERVAL_S = 0.05
_BUSY = frozenset({errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES})


class LockTimeout(TimeoutError):
    """Another holder kept the lock for the whole timeout."""


@contextlib.contextmanager
def exclusive_lock(lock_path: Path, timeout_s: float) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` (created if missing) for the ``with`` body.

    Each call opens its own descriptor, so two threads of one process exclude each other as
    two processes do. The lock file stays in place on release, as filelock leaves it.

    Args:
        lock_path: The lock file, beside the file it guards.
        timeout_s: How long to wait for another holder before giving up.

    Raises:
        LockTimeout: Another holder kept the lock for ``timeout_s`` seconds.
        OSError: The lock file cannot be opened or locked.

    Example:
        >>> with exclusive_lock(Path("log.jsonl.lock"), timeout_s=5.0):
        ...     append_lines()
    """
    fd = None if sys.platform == "win32" else _flock(lock_path, timeout_s)
    if fd is None:
        with _filelock(lock_path, timeout_s):
            yield
        return
    try:
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _flock(lock_path: Path, timeout_s: float) -> int | None:
    """A descriptor of ``lock_path`` holding ``LOCK_EX``; ``None`` where flock is missing."""
    if sys.platform == "win32":  # pragma: no cover - never called there
        return None
    # Private like the log it guards (0600): nothing but its owner needs to open it.
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except OSError as err:
                if err.errno == errno.ENOSYS:
                    os.close(fd)
                    return None
                if err.errno not in _BUSY:
                    raise
            if time.monotonic() >= deadline:
                raise LockTimeout(errno.ETIMEDOUT, "held by another writer", str(lock_path))
            time.sleep(POLL_INTERVAL_S)
    except BaseException:
        os.close(fd)
        raise


@contextlib.contextmanager
def _filelock(lock_path: Path, timeout_s: float) -> Iterator[None]:
    import filelock  # only where flock is missing

    lock = filelock.FileLock(str(lock_path), timeout=timeout_s)
    try:
        lock.acquire()
    except filelock.Timeout as err:
        raise LockTimeout(errno.ETIMEDOUT, "held by another writer", str(lock_path)) from err
    try:
        yield
    finally:
        lock.release()
