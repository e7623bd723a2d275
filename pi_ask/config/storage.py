"""Writing the config file safely: one writer at a time, and never a half-written file.

Every write goes to a temporary file in the same folder, is flushed to disk, then renamed
over the file (python-port.md §3), so a reader — or a crash — sees the old version or the
new one. Writers hold a lock (``filelock``) while they read, change and write, so two
processes saving at once both keep their change.

The lock is keyed by the real path of the file written (a config reached through a symlink
and through its target is one file, one lock) and kept in a folder of the user's own under
``/tmp`` (``pi-ask-<uid>/locks``, 0700, checked like tmux checks its socket folder): not
beside the user's file, where a stray ``config.toml.lock`` would be noise in a dotfiles
repository, and not under ``PI_ASK_STATE_DIR``, which two writers may set differently. Only
when another user has taken that name in ``/tmp`` are the locks kept in the state folder
(``locks``), and the save says so: a planted folder must not block saves for good.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

LOCK_TIMEOUT_S = 10.0
_NEW_FILE_MODE = 0o644
_LOCKS_MODE = 0o700


def target_of(path: Path) -> Path:
    """The file a write really replaces: a symlinked config (dotfiles) is written through."""
    try:
        return path.resolve(strict=True) if path.is_symlink() else path
    except OSError:
        return path


def lock_path(path: Path) -> Path:
    """Where the lock of the file ``path`` really is (symlinks followed) lives.

    Raises:
        OSError: No locks folder can be made that is safely ours.
    """
    return locks_folder() / _lock_name(path)


def _lock_name(path: Path) -> str:
    import hashlib

    real = os.path.realpath(path)
    return hashlib.sha256(os.fsencode(real)).hexdigest()[:32] + ".lock"


def locks_folder() -> Path:
    """The user's own folder for config locks (see ``locks_place``)."""
    return locks_place()[0]


def locks_place() -> tuple[Path, str | None]:
    """The user's own folder for config locks, ``/tmp/pi-ask-<uid>/locks`` (made 0700), and
    a note for the user when it is not that one.

    Another user may have planted ``/tmp/pi-ask-<uid>`` (theirs, open to all, a symlink):
    it is then left alone and ``locks`` in the state folder is used instead; the note says
    which and why.

    Raises:
        PermissionError: Neither folder is private to this user.
    """
    if sys.platform == "win32":  # pragma: no cover - one user per profile's temp folder
        folder = Path(tempfile.gettempdir()) / "pi-ask-locks"
        folder.mkdir(parents=True, exist_ok=True)
        return folder, None
    from pi_ask.private_folders import make_private

    base = Path("/tmp") if os.path.isdir("/tmp") else Path(tempfile.gettempdir())
    own = base / f"pi-ask-{os.getuid()}"
    problem = make_private(own)
    if problem is None:
        problem = make_private(own / "locks")
        if problem is None:
            return own / "locks", None
        own = own / "locks"
    from pi_ask.config.paths import display_path, state_dir

    fallback = state_dir() / "locks"
    with contextlib.suppress(OSError):  # the check below says what is wrong
        fallback.parent.mkdir(parents=True, exist_ok=True, mode=_LOCKS_MODE)
    _check_private(fallback, also=f"nor is {own} ({problem})")
    return fallback, f"Config locks are kept in {display_path(fallback)}: {own} is {problem}."


def _check_private(folder: Path, *, also: str = "") -> None:
    """Make ``folder`` (0700) if missing; refuse it unless it is private to this user.

    Raises:
        PermissionError: A symlink, someone else's, or open to others.
    """
    from pi_ask.private_folders import make_private

    problem = make_private(folder)
    if problem is not None:
        why = f"the locks folder is not private to this user ({problem})"
        raise PermissionError(errno.EACCES, f"{why}; {also}" if also else why, str(folder))


@contextlib.contextmanager
def locked(path: Path) -> Iterator[str | None]:
    """Hold the lock of the file ``path`` really is, creating its folder if needed.

    Yields:
        ``locks_place``'s note: set when the locks are not where they usually are.

    Raises:
        OSError: The folder cannot be created or the lock not taken within 10 s.
    """
    # Imported here: only writes need it, and the first frame never writes.
    import filelock

    path.parent.mkdir(parents=True, exist_ok=True)
    folder, note = locks_place()
    where = folder / _lock_name(path)
    lock = filelock.FileLock(where, timeout=LOCK_TIMEOUT_S)
    try:
        lock.acquire()
    except filelock.Timeout as err:
        raise TimeoutError(
            errno.ETIMEDOUT, f"another process is saving {path.name} (lock {where})", str(where)
        ) from err
    try:
        _remove_stale_temporaries(target_of(path))
        yield note
    finally:
        lock.release()


def _temporary_prefix(path: Path) -> str:
    # The writer's pid is in the name, so a cleanup can tell a live writer's file.
    return f".{path.name}.{os.getpid()}."


def _remove_stale_temporaries(path: Path) -> None:
    """Remove temporary files of ``path`` whose writer is gone (kill -9, power cut).

    A writer outside our lock (an older pi-ask, another tool using the same naming) may be
    writing one right now: only a file whose pid names no live process goes.
    """
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        pid_text = leftover.name[len(path.name) + 2 :].split(".", 1)[0]
        if pid_text.isdigit() and not _is_running(int(pid_text)):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _is_running(pid: int) -> bool:
    if pid == os.getpid() or sys.platform == "win32":  # Windows' os.kill(pid, 0) is no probe
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, but someone else's (EPERM)
        return True
    return True


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
    handle, temp_name = tempfile.mkstemp(
        prefix=_temporary_prefix(path), suffix=".tmp", dir=path.parent
    )
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
