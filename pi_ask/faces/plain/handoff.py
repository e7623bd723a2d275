"""The plain face on the event bus: a trusted bridge may answer a plain flow, as a TUI one.

The flow's thread sits in ``select`` waiting for a line; a bridge submits from its own
thread. The submission is handed over through a queue, the line reader is woken, and the
flow's thread applies it (``state.apply``) and hands the result back — so the engine is only
ever driven from one thread, exactly as the TUI drives it from its event loop.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_ask.contract.results import ToolResult
    from pi_ask.events.submissions import RemoteResponse

REPLY_TIMEOUT_S = 10.0

Complete = Callable[["RemoteResponse"], "ToolResult | None"]


class Handoff:
    """Remote submissions passed from any thread to the flow's own thread."""

    def __init__(self, wake: Callable[[], None]) -> None:
        self._wake = wake
        self._owner = threading.get_ident()
        self._waiting: queue.SimpleQueue[tuple[RemoteResponse, Future[ToolResult | None]]]
        self._waiting = queue.SimpleQueue()

    def submit(self, response: RemoteResponse, complete: Complete) -> ToolResult | None:
        """Apply ``response`` on the flow's thread; the result, or ``None`` (flow over)."""
        if threading.get_ident() == self._owner:
            return complete(response)
        reply: Future[ToolResult | None] = Future()
        self._waiting.put((response, reply))
        self._wake()
        try:
            return reply.result(timeout=REPLY_TIMEOUT_S)
        except FutureTimeout:
            return None

    def drain(self, complete: Complete) -> None:
        """On the flow's thread: apply every waiting submission and answer its sender."""
        while True:
            try:
                response, reply = self._waiting.get_nowait()
            except queue.Empty:
                return
            try:
                reply.set_result(complete(response))
            except Exception as error:  # the sender gets it; the flow goes on
                reply.set_exception(error)
