"""Ending signals: held while ``pi-ask ask`` starts, then an abort event for the faces.

From the start of ``pi-ask ask`` to the moment its face installs its own handlers, the
payload is read, the settings and the session log are opened and the face is imported: a
SIGTERM there (an agent giving up on the tool call) used to kill the process with the
default action, so no result line reached stdout. The latch records the first such signal
instead; the face takes it over as soon as it starts (it ends the ask as cancelled at once)
and the command exits with ``128 + signal`` after printing the result, as a signal during
the flow does (python-port.md §10). ``SignalAbort`` is how a face without handlers of
its own (the RPC dialogs, an asker waiting for a terminal elsewhere) takes them.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

LATCHED_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
_pending: list[int] = []


def hold_ending_signals() -> None:
    """Latch SIGTERM, SIGHUP and SIGINT from now on (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in LATCHED_SIGNALS:
        signal.signal(number, _latch)


def _latch(number: int, _frame: FrameType | None) -> None:
    latch(number)


def latch(number: int) -> None:
    """Hold ``number`` as if the latch had caught it: a signal the waiting process
    (``cli/waiting.py``) caught before it loaded this module."""
    if not _pending:
        _pending.append(number)


def held_signal() -> int | None:
    """The first ending signal the latch caught, if any."""
    return _pending[0] if _pending else None


class SignalAbort:
    """Turns SIGTERM, SIGHUP and SIGINT into an abort event for the length of a ``with``.

    The face sees the event, ends its flow as cancelled and returns normally, so the caller can
    still print the result and exit with 128 + the signal (python-port.md §10). A signal the
    latch held during start-up counts as one that came at once.

    Python runs a handler on the main thread only, and only once that thread runs again;
    the kernel may hand a process's signal to any thread that does not block it (one that
    happens to be running, say). A main thread blocked in ``select`` with no timeout then
    never wakes, unless the signal is also written to a descriptor it waits on: ``wake_fd``
    (``signal.set_wakeup_fd``), given by a waiter that blocks.

    Args:
        event: The event to set (a host's stop event); a new one when ``None``.
        wake_fd: A non-blocking descriptor that a blocked main thread selects on (the write
            end of a self-pipe); every signal writes a byte to it.
    """

    SIGNALS = LATCHED_SIGNALS

    def __init__(self, event: threading.Event | None = None, *, wake_fd: int | None = None) -> None:
        self.event = event if event is not None else threading.Event()
        self.signum: int | None = None
        self._previous: dict[int, object] = {}
        self._wake_fd = wake_fd
        self._previous_wake_fd: int | None = None

    def __enter__(self) -> SignalAbort:
        if threading.current_thread() is threading.main_thread():
            if self._wake_fd is not None:
                # Before the handlers: a signal that comes in between still wakes the wait.
                self._previous_wake_fd = signal.set_wakeup_fd(
                    self._wake_fd, warn_on_full_buffer=False
                )
            for signum in self.SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        held = held_signal()
        if held is not None:  # it came during start-up: the ask ends as it begins
            self._handle(held, None)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        if self._previous_wake_fd is not None:
            signal.set_wakeup_fd(self._previous_wake_fd)
            self._previous_wake_fd = None

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = signum
        self.event.set()
