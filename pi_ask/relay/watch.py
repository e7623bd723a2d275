"""Changes in a folder, as a file descriptor to wait on: the one way pending asks are seen.

An entry made, removed or renamed in or out of the folder, and a change of the folder's own
attributes (``nudge`` touches it), wake a waiter. On Linux this is inotify (through ctypes:
the standard library has no binding), on macOS and the BSDs kqueue; anywhere else the folder
is looked at once a second (its ``mtime``), which is the only polling left. Every writer of
pending asks renames files into place, so entry events are all there is to see.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import sys
import threading
from pathlib import Path
from typing import Any

# inotify(7) flags: entries made, removed, renamed; the folder's attributes, the folder gone.
_IN_ATTRIB = 0x004
_IN_MOVED_FROM = 0x040
_IN_MOVED_TO = 0x080
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_DELETE_SELF = 0x400
_IN_MOVE_SELF = 0x800
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = 0o2000000
_MASK = (
    _IN_ATTRIB
    | _IN_MOVED_FROM
    | _IN_MOVED_TO
    | _IN_CREATE
    | _IN_DELETE
    | _IN_DELETE_SELF
    | _IN_MOVE_SELF
)
POLL_S = 1.0
"""How often a platform without inotify or kqueue looks at the folder."""


class _Libc:
    """inotify from the C library, loaded once (``None`` where there is none).

    ctypes loads on the first watch: an asker that reaches nobody never needs it. The
    process's own symbols hold libc's (``CDLL(None)``), so no library is searched for.
    """

    _loaded: Any = None
    _tried = False
    _lock = threading.Lock()

    @classmethod
    def get(cls) -> Any:
        with cls._lock:
            if not cls._tried:
                cls._tried = True
                if sys.platform.startswith("linux"):
                    import ctypes

                    with contextlib.suppress(OSError, AttributeError):
                        libc = ctypes.CDLL(None, use_errno=True)
                        libc.inotify_init1.argtypes = [ctypes.c_int]
                        libc.inotify_add_watch.argtypes = [
                            ctypes.c_int,
                            ctypes.c_char_p,
                            ctypes.c_uint32,
                        ]
                        cls._loaded = libc
            return cls._loaded


class FolderWatch:
    """Wait for the next change in ``folder`` (which must exist).

    ``wait(timeout_s)`` returns ``True`` when something changed since the last call (or the
    folder went away), ``False`` when the time ran out. ``fileno()`` can be given to
    ``select`` beside other descriptors; call ``drain()`` when it is readable.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._fd = -1
        self._kqueue: Any = None  # select.kqueue where the platform has one
        self._dir_fd = -1
        self._seen = self._signature()
        libc = _Libc.get()
        if libc is not None:
            fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
            if fd >= 0:
                if libc.inotify_add_watch(fd, os.fsencode(folder), _MASK) >= 0:
                    self._fd = fd
                    return
                os.close(fd)
        kqueue = getattr(select, "kqueue", None)
        if kqueue is not None:
            flags = ("KQ_NOTE_WRITE", "KQ_NOTE_DELETE", "KQ_NOTE_RENAME", "KQ_NOTE_ATTRIB")
            self._dir_fd = os.open(folder, os.O_RDONLY)
            self._kqueue = kqueue()
            event = select.kevent(  # type: ignore[attr-defined,unused-ignore]
                self._dir_fd,
                filter=getattr(select, "KQ_FILTER_VNODE"),  # noqa: B009 - not on Linux
                flags=getattr(select, "KQ_EV_ADD") | getattr(select, "KQ_EV_CLEAR"),  # noqa: B009
                fflags=sum(getattr(select, name) for name in flags),
            )
            self._kqueue.control([event], 0, 0)

    @classmethod
    def adopt(cls, folder: Path, fd: int) -> FolderWatch:
        """The watch of ``folder`` whose inotify descriptor ``fd`` this process kept across
        ``os.execv`` (``-1``: a watch of its own)."""
        if fd < 0:
            return cls(folder)
        watch = cls.__new__(cls)
        watch.folder, watch._fd, watch._kqueue, watch._dir_fd = folder, fd, None, -1
        watch._seen = watch._signature()
        os.set_inheritable(fd, False)
        return watch

    @property
    def polls(self) -> bool:
        """True where the folder is looked at once a second instead of being told."""
        return self._fd < 0 and self._kqueue is None

    def fileno(self) -> int:
        """A descriptor that becomes readable on a change (-1 when this watch polls)."""
        if self._fd >= 0:
            return self._fd
        if self._kqueue is not None:
            return int(self._kqueue.fileno())
        return -1

    def drain(self) -> bool:
        """Take the pending events; ``True`` when there were any (or the folder changed)."""
        if self._fd >= 0:
            changed = False
            while True:
                try:
                    chunk = os.read(self._fd, 65536)
                except BlockingIOError:
                    return changed
                except OSError as err:
                    if err.errno == errno.EINTR:
                        continue
                    return True
                if not chunk:
                    return changed
                changed = True
        if self._kqueue is not None:
            return bool(self._kqueue.control(None, 16, 0))
        now = self._signature()
        changed, self._seen = now != self._seen, now
        return changed

    def wait(self, timeout_s: float | None) -> bool:
        """Block until a change or ``timeout_s`` (``None``: no limit); ``True`` on a change."""
        fd = self.fileno()
        if fd < 0:
            return self._poll(timeout_s)
        try:
            readable, _, _ = select.select([fd], [], [], timeout_s)
        except OSError:
            return True
        return bool(readable) and self.drain()

    def _poll(self, timeout_s: float | None) -> bool:
        import time

        end = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            if self.drain():
                return True
            left = POLL_S if end is None else min(POLL_S, end - time.monotonic())
            if left <= 0:
                return False
            time.sleep(left)

    def _signature(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.folder)
        except OSError:
            return None
        return info.st_mtime_ns, info.st_ino

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._kqueue is not None:
            self._kqueue.close()
            self._kqueue = None
        if self._dir_fd >= 0:
            os.close(self._dir_fd)
            self._dir_fd = -1


def nudge(folder: Path) -> None:
    """Tell the watchers of ``folder`` that something inside one of its entries changed."""
    with contextlib.suppress(OSError):
        os.utime(folder)


class Waker:
    """A self-pipe: ``wake()`` from any thread (or a signal handler) makes ``fileno`` readable."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        # Reentrant: a signal handler may wake while this thread is draining.
        self._lock = threading.RLock()

    def fileno(self) -> int:
        return self._read

    def write_fileno(self) -> int:
        """The pipe's non-blocking write end (for ``signal.set_wakeup_fd``)."""
        return self._write

    def wake(self) -> None:
        # Never after close: the descriptor's number may belong to another file by then.
        with self._lock, contextlib.suppress(OSError):
            if self._write >= 0:
                os.write(self._write, b"\0")

    def drain(self) -> None:
        with self._lock, contextlib.suppress(OSError):
            while self._read >= 0 and os.read(self._read, 4096):
                pass

    def close(self) -> None:
        with self._lock:
            for fd in (self._read, self._write):
                with contextlib.suppress(OSError):
                    if fd >= 0:
                        os.close(fd)
            self._read = self._write = -1


class WakeEvent(threading.Event):
    """A ``threading.Event`` whose ``set`` also wakes a ``Waker`` (a waiting ``select``)."""

    def __init__(self) -> None:
        super().__init__()
        self.waker = Waker()

    def set(self) -> None:
        super().set()
        self.waker.wake()
