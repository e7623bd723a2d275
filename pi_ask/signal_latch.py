"""Ending signals that arrive before a face can take them are held, not fatal.

From the start of ``pi-ask ask`` to the moment its face installs its own handlers, the
payload is read, the settings and the session log are opened and the face is imported: a
SIGTERM there (an agent giving up on the tool call) used to kill the process with the
default action, so no result line reached stdout. The latch records the first such signal
instead; the face takes it over as soon as it starts (it ends the ask as cancelled at once)
and the command exits with ``128 + signal`` after printing the result, as a signal during
the flow does (python-port.md §10).
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
    if not _pending:
        _pending.append(number)


def held_signal() -> int | None:
    """The first ending signal the latch caught, if any."""
    return _pending[0] if _pending else None
