"""Opening a file that a user or another program named: regular files of bounded size only.

A path can name a FIFO (``open`` then blocks until a writer comes, in C, deaf to the signals
pi-ask holds while it starts), a device (``/dev/zero`` reads forever, then ``MemoryError``;
only ``/dev/null`` is let through)
or a file of gigabytes. So every file pi-ask opens by such a path (the config, a payload
file, ``--session``, ``answer --text``, transcripts, the state folder's own files) is
checked with ``stat`` before it is opened, opened with ``O_NONBLOCK`` (a FIFO swapped in
between cannot block), checked again with ``fstat``, and read up to a limit. What is refused
is an ``OSError`` whose ``strerror`` words why, so every caller's existing "cannot be read"
message names the problem.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MIB = 1024 * 1024
_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularFile(OSError):
    """The path names a FIFO, a device or a socket: nothing pi-ask reads as a file."""


class FileTooLarge(OSError):
    """The file is larger than the reader's limit."""


def size_text(limit: int) -> str:
    """``1 MiB``, ``512 MiB``, ``64 KiB``."""
    return f"{limit // MIB} MiB" if limit >= MIB else f"{limit // 1024} KiB"


def check_regular(path: Path | str, info: os.stat_result) -> None:
    """Raise unless ``info`` is a regular file's, or ``/dev/null``'s (the empty file by
    convention: ``--config /dev/null``, which reads nothing and never blocks).

    Raises:
        IsADirectoryError: A folder.
        NotRegularFile: A FIFO, another device or a socket.
    """
    mode = info.st_mode
    if stat.S_ISREG(mode) or (stat.S_ISCHR(mode) and _is_devnull(info)):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder, not a file", str(path))
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise NotRegularFile(errno.EINVAL, f"{kind}, not a regular file", str(path))


def _is_devnull(info: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return info.st_rdev == null.st_rdev and stat.S_ISCHR(null.st_mode)


def open_regular(path: Path | str, flags: int = os.O_RDONLY, mode: int = 0o600) -> int:
    """``os.open`` for a regular file (or a new one, with ``O_CREAT``), never blocking.

    Returns:
        The descriptor, with ``O_NONBLOCK`` cleared again (it changes nothing for a regular
        file; it is there so a FIFO put in place after the check cannot block the open).

    Raises:
        NotRegularFile, IsADirectoryError: The path names something else.
        OSError: It cannot be opened (missing, permissions...).
    """
    try:
        check_regular(path, os.stat(path))
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
    try:
        fd = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, mode)
    except OSError as err:
        if err.errno == errno.ENXIO:  # a FIFO without a reader, opened for writing
            raise NotRegularFile(
                errno.EINVAL, "a named pipe (FIFO), not a regular file", str(path)
            ) from None
        raise
    try:
        check_regular(path, os.fstat(fd))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file ``path``, which must hold at most ``limit`` of them.

    Raises:
        NotRegularFile, IsADirectoryError: The path names something else.
        FileTooLarge: The file is larger than ``limit`` (also one that grows past it while
            it is read).
        OSError: It cannot be opened or read.
    """
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size <= limit:
            with os.fdopen(fd, "rb", closefd=False) as handle:
                data = handle.read(size + 1)
                while len(data) <= limit:  # it may have grown since fstat
                    more = handle.read(min(MIB, limit + 1 - len(data)))
                    if not more:
                        return data
                    data += more
            size = len(data)
    finally:
        os.close(fd)
    raise FileTooLarge(errno.EFBIG, f"larger than {size_text(limit)} ({size} bytes)", str(path))
