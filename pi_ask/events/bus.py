"""The ask event bus: process-local pub/sub with pi's ``pi.events`` semantics.

``on`` returns an unsubscribe function, ``emit`` calls handlers synchronously in registration
order; a failing handler is reported on stderr and never reaches the emitter.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

STARTED = "@geoqiao/pi-ask:started"
COMPLETED = "@geoqiao/pi-ask:completed"
SUBMIT = "@geoqiao/pi-ask:submit"
SUBMIT_RESULT = "@geoqiao/pi-ask:submit-result"

Handler = Callable[[object], object]
Unsubscribe = Callable[[], None]


class EventBus:
    """Process-local pub/sub with pi's ``pi.events`` semantics; safe to use from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handlers: list[tuple[str, Handler]] = []
        self._bridges_loaded = False

    def on(self, channel: str, handler: Handler) -> Unsubscribe:
        """Subscribe ``handler`` to ``channel``.

        Returns:
            A function that removes this subscription (calling it twice is harmless).

        Example:
            >>> bus = EventBus()
            >>> off = bus.on(STARTED, print)
            >>> off()
        """
        entry = (channel, handler)
        with self._lock:
            self._handlers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._handlers:
                    self._handlers.remove(entry)

        return unsubscribe

    def emit(self, channel: str, data: object) -> None:
        """Call every handler of ``channel`` with ``data``, in the emitting thread.

        A handler that raises is reported on stderr; the other handlers still run.
        """
        with self._lock:
            handlers = [h for c, h in self._handlers if c == channel]
        for handler in handlers:
            try:
                handler(data)
            except Exception as err:  # a bridge's bug must never reach the flow
                print(
                    f"pi-ask events: a handler of {channel!r} raised "
                    f"{type(err).__name__}: {err}; the other handlers still ran",
                    file=sys.stderr,
                )

    def clear(self) -> None:
        """Drop every subscription (for embedders tearing a runtime down)."""
        with self._lock:
            self._handlers.clear()

    def _claim_bridge_loading(self) -> bool:
        with self._lock:
            first = not self._bridges_loaded
            self._bridges_loaded = True
            return first
