"""Notice when the config file changes: a stat poll of the one file on the event loop.

Comparing inode, size and change times every ``interval`` seconds catches an editor's save
in place and its save-by-rename alike, costs one ``stat`` per tick and needs no library
(python-port.md §10).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

Signature = tuple[int, int, int, int] | str
"""What a file looks like from outside: inode, size, mtime and ctime in ns, or why not."""


def signature(path: Path) -> Signature:
    """The file's current signature; ``"absent"`` or the error name when it cannot be stat'ed."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "absent"
    except OSError as err:
        return type(err).__name__
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def poll_file(
    path: Path,
    loop: asyncio.AbstractEventLoop,
    on_change: Callable[[], None],
    *,
    interval: float = 0.1,
    since: Signature | None = None,
) -> Callable[[], None]:
    """Call ``on_change`` on ``loop`` whenever the file's signature changes.

    Args:
        path: The file to watch (it may be absent, or come and go).
        loop: The event loop that runs the poll and the callback.
        on_change: Called with no arguments after each change; its errors are the loop's,
            and the poll goes on after them.
        interval: Seconds between two looks.
        since: The signature the caller last read the file at; a change made before the
            poll starts is then seen at its first look (by default it starts from now).

    Returns:
        A function that stops the polling; calling it again does nothing. It must be called
        on the loop's thread (or through ``loop.call_soon_threadsafe``).
    """
    last = signature(path) if since is None else since
    handle: asyncio.TimerHandle | None = None
    stopped = False

    def tick() -> None:
        nonlocal last, handle
        if stopped:
            return
        try:
            current = signature(path)
            if current != last:
                last = current
                on_change()
        finally:
            # Re-armed whatever happened: one bad save must not stop the watching for good.
            if not stopped:
                handle = loop.call_later(interval, tick)

    def stop() -> None:
        nonlocal stopped
        stopped = True
        if handle is not None:
            handle.cancel()

    handle = loop.call_later(interval, tick)
    return stop
