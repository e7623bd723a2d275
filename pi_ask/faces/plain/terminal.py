"""The plain face's terminal: whole lines in, plain text out, on ``/dev/tty``.

The terminal stays in its normal line mode: the kernel echoes what is typed and handles
Backspace, so the face reads finished lines and writes plain text — no cursor movement,
no colour, no escape sequence of its own. That is what a screen reader, Emacs'
``M-x shell``, a serial console or a log can follow.

Signals are not raised into the face: a handler writes the signal's number into a pipe and
the line reader reports it, so a draft being written is never cut off halfway. Ctrl+C in
line mode is SIGINT; the face treats it as dismiss (through the dirty-dismiss guard).
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, TextIO

from pi_ask.signal_latch import held_signal

TTY_PATH = "/dev/tty"
HANDLED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# How often a read looks at the abort event (only when one is given).
ABORT_POLL_S = 0.2


class AbortSignal(Protocol):
    """Anything with ``is_set()``, such as :class:`threading.Event`."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Signalled:
    """A signal arrived while waiting for a line."""

    number: int


@dataclass(frozen=True, slots=True)
class Aborted:
    """The abort event was set while waiting for a line."""


@dataclass(frozen=True, slots=True)
class Woken:
    """``wake()`` was called: something for the flow arrived from another thread."""


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The read's ``until`` time came before a line."""


@dataclass(frozen=True, slots=True)
class Told:
    """One of the host's ``wakeups`` became readable: its stop or live notice changed."""


@dataclass(frozen=True, slots=True)
class EndOfInput:
    """The input ended (Ctrl+D on an empty line, a closed pipe, a hung-up terminal)."""


Event = str | Signalled | Aborted | Woken | TimedOut | Told | EndOfInput
_WAKE = 0  # the pipe byte of ``wake()``; signal numbers are never 0


class LineReader:
    """Reads whole lines from a file descriptor, waking for signals and the abort event."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = b""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._ended = False
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)

    def close(self) -> None:
        """Close the wake pipe (the input descriptor belongs to the caller)."""
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def signalled(self, number: int) -> None:
        """Report signal ``number`` to the waiting read (safe inside a signal handler)."""
        with contextlib.suppress(OSError):
            os.write(self._wake_w, bytes([number & 0xFF]))

    def wake(self) -> None:
        """Wake the waiting read (from any thread): it returns ``Woken``."""
        self.signalled(_WAKE)

    def read(
        self,
        abort: AbortSignal | None = None,
        until: float | None = None,
        wakeups: tuple[int, ...] = (),
    ) -> Event:
        """The next line (without its line ending), or what interrupted the wait.

        Args:
            abort: Checked while waiting; once set, the read returns ``Aborted``.
            until: A ``time.time()`` at which the read gives up with ``TimedOut``.
            wakeups: The host's descriptors (``FaceRequest.wakeups``): one readable is
                ``Told``, and ``abort`` is then looked at only when told, not every
                ``ABORT_POLL_S``.
        """
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._ended:
                return EndOfInput()
            if abort is not None and abort.is_set():
                return Aborted()
            timeout = ABORT_POLL_S if abort is not None and not wakeups else None
            if until is not None:
                left = until - time.time()
                if left <= 0:
                    return TimedOut()
                timeout = left if timeout is None else min(timeout, left)
            try:
                ready, _, _ = select.select([self._fd, self._wake_r, *wakeups], [], [], timeout)
            except OSError:
                self._ended = True
                continue
            if self._wake_r in ready:
                number = os.read(self._wake_r, 1)[0]
                return Woken() if number == _WAKE else Signalled(number)
            if any(fd in ready for fd in wakeups) and not (abort is not None and abort.is_set()):
                return Told()
            if self._fd in ready:
                self._fill()

    def _fill(self) -> None:
        try:
            data = os.read(self._fd, 65536)
        except OSError:
            data = b""
        if not data:
            self._ended = True
        self._buffer += data

    def _take_line(self) -> str | None:
        head, newline, rest = self._buffer.partition(b"\n")
        if not newline and not (self._ended and head):
            return None
        self._buffer = rest
        return self._decoder.decode(head, final=True).removesuffix("\r")


@contextlib.contextmanager
def signals_to(reader: LineReader) -> Iterator[None]:
    """Route SIGINT, SIGTERM and SIGHUP to ``reader`` for the length of a ``with``.

    Only the main thread may install handlers; elsewhere nothing is caught.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for number in HANDLED_SIGNALS:
        previous[number] = signal.signal(number, lambda n, _f: reader.signalled(n))
    held = held_signal()
    if held is not None:  # it came during start-up (pi_ask.signal_latch)
        reader.signalled(held)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


class LineTerminal:
    """Where the plain face reads lines and writes text; a terminal or any pair of files.

    Args:
        input_fd: Where lines come from.
        output: Where text goes (flushed after every write).
        on_close: Called once by ``close`` (closing what was opened for this terminal).
    """

    def __init__(
        self, input_fd: int, output: TextIO, on_close: Callable[[], None] | None = None
    ) -> None:
        self.reader = LineReader(input_fd)
        self._output = output
        self._on_close = on_close
        # Notifications ring from their own thread.
        self._lock = threading.Lock()

    def write(self, text: str) -> None:
        """Write ``text`` (from any thread); a terminal that went away is not an error."""
        with self._lock, contextlib.suppress(OSError, ValueError):
            self._output.write(text)
            self._output.flush()

    def close(self) -> None:
        self.reader.close()
        if self._on_close is not None:
            self._on_close()
            self._on_close = None


def open_line_terminal(path: str = TTY_PATH) -> LineTerminal:
    """Open the controlling terminal for the plain face.

    Raises:
        OSError: There is no controlling terminal.
    """
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    try:
        output = open(os.dup(fd), "w", encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError:
        os.close(fd)
        raise

    def close() -> None:
        with contextlib.suppress(OSError):
            output.close()
        with contextlib.suppress(OSError):
            os.close(fd)

    return LineTerminal(fd, output, close)
