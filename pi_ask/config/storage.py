"""Writing the config file safely: one writer at a time, and never a half-written file.

Every write goes to a temporary file in the same folder, is flushed to disk, then renamed
over the file (python-port.md §3), so a reader — or a crash — sees the old version or the
new one. Writers hold ``config.toml.lock`` (``filelock``) while they read, change and write,
so two processes saving at once both keep their change.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

LOCK_TIMEOUT_S = 10.0
_NEW_FILE_MODE = 0o644


def target_of(path: Path) -> Path:
    """The file a write really replaces: a symlinked config (dotfiles) is written through."""
    try:
        return path.resolve(strict=True) if path.is_symlink() else path
    except OSError:
        return path


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the config's lock (``<file>.lock`` beside it), creating its folder if needed.

    Raises:
        OSError: The folder cannot be created or the lock not taken within 10 s.
    """
    # Imported here: only writes need it, and the first frame never writes.
    import filelock

    path.parent.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(f"{path}.lock", timeout=LOCK_TIMEOUT_S)
    try:
        lock.acquire()
    except filelock.Timeout as err:
        raise TimeoutError(
            errno.ETIMEDOUT, f"another process holds {path.name}.lock", f"{path}.lock"
        ) from err
    try:
        _remove_stale_temporaries(path)
        yield
    finally:
        lock.release()


def _remove_stale_temporaries(path: Path) -> None:
    # Writers hold the lock while their temporary file exists, so any found now was left by
    # a writer that died (kill -9, power cut) and can go.
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def check_writable(path: Path) -> None:
    """Refuse to replace a file its owner marked read-only (a rename would not notice).

    Raises:
        PermissionError: The file exists and is read-only for us.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, "Permission denied (the file is read-only)", str(path))


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` all at once, keeping the old file's permissions.

    Raises:
        OSError: The file or its folder cannot be written; the old file is then unchanged.
    """
    check_writable(path)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = _NEW_FILE_MODE
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    # The rename is durable only once the folder's entry is on disk too.
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
