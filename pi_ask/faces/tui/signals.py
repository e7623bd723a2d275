"""Signals that end a flow: SIGTERM, SIGHUP and a SIGINT sent from outside.

Ctrl+C typed in the flow is a key (the terminal is in raw mode); these are the signals a
process manager, a closed terminal or ``kill`` send. They are caught on the event loop for
the length of the flow, and the handlers that were there before are put back after.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable
from types import FrameType

from pi_ask.signal_latch import held_signal

ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

_Handler = Callable[[int, FrameType | None], object] | int | None


def catch_signals(
    loop: asyncio.AbstractEventLoop, on_signal: Callable[[int], None]
) -> Callable[[], None]:
    """Call ``on_signal(number)`` on ``loop`` for each of ``ENDING_SIGNALS``.

    Only the main thread may install handlers; elsewhere nothing is caught.

    Returns:
        A function that puts the previous handlers back.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous: dict[int, _Handler] = {}
    for number in ENDING_SIGNALS:
        try:
            handler = signal.getsignal(number)
            loop.add_signal_handler(number, on_signal, number)
        except (NotImplementedError, RuntimeError, ValueError, OSError):
            continue
        previous[number] = handler

    held = held_signal()
    if held is not None:  # it came during start-up: the flow ends as soon as it runs
        loop.call_soon(on_signal, held)

    def restore() -> None:
        for number, handler in previous.items():
            with contextlib.suppress(Exception):
                loop.remove_signal_handler(number)
                signal.signal(number, handler)

    return restore
