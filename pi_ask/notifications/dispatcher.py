"""Send one notification through the channels, off the caller's thread, never failing it.

``dispatch`` returns at once. A daemon thread runs the channels one after another in the
configured order; each runs on its own worker thread and is abandoned after ``timeout_s``
(its cancel scope kills a command's process group), so a hanging channel delays only the
channels after it, by at most its timeout, and never the caller. Every outcome is recorded
on the returned ``Dispatch`` and logged at DEBUG level to the ``pi_ask.notifications``
logger; nothing is raised or printed (stdout may carry the result JSON, the terminal
carries the UI).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from pi_ask.notifications.channel import (
    CancelScope,
    Channel,
    ChannelError,
    ChannelSkipped,
    ChannelUnavailable,
    Notification,
    SendContext,
)
from pi_ask.notifications.message import EVENT
from pi_ask.terminal_text import clean_line, truncate

logger = logging.getLogger("pi_ask.notifications")
logger.addHandler(logging.NullHandler())

AttemptStatus = Literal["attempted", "failed", "skipped", "unavailable"]
DEFAULT_TIMEOUT_S = 5.0


@dataclass(frozen=True, slots=True)
class Attempt:
    """The outcome of one channel (behaviour.md §11).

    Attributes:
        channel: The channel's label (``bell``, ``command``, ``ntfys://…``).
        status: ``attempted`` (sent without error), ``failed``, ``skipped`` (not started,
            or nothing to add), or ``unavailable`` (cannot work on this machine: no
            terminal, no session bus; not a failure).
        detail: What was sent, or why it failed, was skipped or is unavailable; may be empty.
    """

    channel: str
    status: AttemptStatus
    detail: str = ""


class Dispatch:
    """A running (or finished) dispatch: the outcomes so far, and a way to wait or stop.

    Thread-safe. Outcomes arrive in channel order; a channel that is still running has none.
    """

    def __init__(self, channels: Sequence[Channel], *, settled: Attempt | None = None) -> None:
        self._channels = tuple(channels)
        self._lock = threading.Lock()
        self._attempts: list[Attempt] = [settled] if settled else []
        self._finished = threading.Event()
        self._closing = threading.Event()
        # The running channel's cancel scope, and the event that wakes the dispatcher
        # thread when the channel ends (or is abandoned).
        self._running: tuple[CancelScope, threading.Event] | None = None
        if settled or not self._channels:
            self._finished.set()

    @property
    def attempts(self) -> tuple[Attempt, ...]:
        """The outcomes recorded so far, in channel order."""
        with self._lock:
            return tuple(self._attempts)

    @property
    def done(self) -> bool:
        """True once every channel has an outcome."""
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every channel has an outcome.

        Args:
            timeout: Seconds to wait at most; ``None`` waits for the end, which every
                channel's own timeout bounds.

        Returns:
            True when the dispatch is done.
        """
        return self._finished.wait(timeout)

    def close(self, grace: float = 1.0) -> None:
        """Stop the dispatch because the ask ended; returns within about ``grace`` seconds.

        No further channel starts. The running one gets at most ``grace`` seconds more, then
        is abandoned (a command's process group is killed) and recorded as failed; channels
        that never started are recorded as skipped. Safe to call more than once.
        """
        self._closing.set()
        if self._finished.wait(max(0.0, grace)):
            return
        with self._lock:
            if self._finished.is_set():
                return
            running, self._running = self._running, None
            if running is not None:
                self._record_locked("failed", "abandoned: the ask ended before it finished")
            self._skip_rest_locked()
        if running is not None:
            scope, wake = running
            scope.cancel()
            wake.set()

    # -- the dispatcher thread ---------------------------------------------------------

    def _record_locked(self, status: AttemptStatus, detail: str) -> None:
        attempt = Attempt(self._channels[len(self._attempts)].label, status, detail)
        self._attempts.append(attempt)
        logger.debug("notification channel %s: %s %s", attempt.channel, status, detail)
        if len(self._attempts) == len(self._channels):
            self._finished.set()

    def _skip_rest_locked(self) -> None:
        while len(self._attempts) < len(self._channels):
            self._record_locked("skipped", "not started: the ask ended")

    def _begin(self, scope: CancelScope, wake: threading.Event) -> bool:
        """Mark the next channel as running; False when the dispatch is ending instead."""
        with self._lock:
            if self._finished.is_set():
                return False
            if self._closing.is_set():
                self._skip_rest_locked()
                return False
            self._running = (scope, wake)
            return True

    def _end(self, index: int, status: AttemptStatus, detail: str) -> None:
        with self._lock:
            if self._finished.is_set() or len(self._attempts) != index:
                return  # close() already recorded this channel
            self._running = None
            self._record_locked(status, detail)

    def _run_channel(self, index: int, notification: Notification, context: SendContext) -> None:
        channel = self._channels[index]
        wake = threading.Event()
        outcome: list[tuple[AttemptStatus, str]] = []

        def work() -> None:
            try:
                if context.cancel_scope.is_cancelled:  # the ask ended before we got here
                    return
                outcome.append(("attempted", channel.send(notification, context)))
            except ChannelUnavailable as err:
                outcome.append(("unavailable", str(err)))
            except ChannelSkipped as err:
                outcome.append(("skipped", str(err)))
            except BaseException as err:  # a channel must never take the dispatcher down
                logger.debug("notification channel %s raised", channel.label, exc_info=True)
                outcome.append(("failed", _describe(err)))
            finally:
                wake.set()

        if not self._begin(context.cancel_scope, wake):
            return
        worker = threading.Thread(target=work, name=f"pi-ask-notify-{index}", daemon=True)
        worker.start()
        if not wake.wait(context.timeout_s):
            context.cancel_scope.cancel()
            self._end(index, "failed", f"timed out after {context.timeout_s:g} s; abandoned")
            return
        status, detail = outcome[0] if outcome else ("failed", "stopped")
        self._end(index, status, detail)

    def _run(
        self,
        notification: Notification,
        write_terminal: Callable[[str], None] | None,
        timeout_s: float,
        focused: Callable[[], bool | None],
        bell_only: bool,
    ) -> None:
        reached_desktop = threading.Event()  # shared by this dispatch's channels
        for index in range(len(self._channels)):
            context = SendContext(
                write_terminal, timeout_s, CancelScope(), reached_desktop, focused, bell_only
            )
            try:
                self._run_channel(index, notification, context)
            except Exception as err:  # e.g. no worker thread could be started
                self._end(index, "failed", _describe(err))
            if self._finished.is_set():
                return


def _describe(error: BaseException) -> str:
    if isinstance(error, ChannelError):
        return str(error)
    name = type(error).__name__
    text = str(error)
    return truncate(clean_line(f"{name}: {text}" if text else name), 200)


def dispatch(
    channels: Sequence[Channel],
    *,
    title: str,
    message: str,
    event: str = EVENT,
    write_terminal: Callable[[str], None] | None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    enabled: bool = True,
    focused: Callable[[], bool | None] = lambda: None,
    bell_only: bool = False,
    link: str = "",
) -> Dispatch:
    """Start sending one notification through ``channels``; returns at once.

    Args:
        channels: The channels, in the order to run them (see ``parse_channels``).
        title: The notification title (``pi ask``); cleaned to one inert line.
        message: The message (``waiting_message(...)``); cleaned to one inert line.
        event: The event name given to command channels.
        write_terminal: Writes text to the UI's terminal; must be thread-safe. ``None``
            when there is no terminal: the terminal channels are then unavailable.
        timeout_s: How long each channel may take before it is abandoned; a value that is
            not a positive number means the default, 5 s.
        enabled: False sends nothing and records one skipped attempt.
        focused: Whether the terminal has focus now (None: unknown), for channels that
            send only while it has not (``when = "unfocused"``).
        bell_only: The terminal takes no escape sequences (the plain face): terminal
            channels ring the bell instead.
        link: The ask's page, for the channels that can open a link ("" for none).

    Returns:
        The running dispatch. Call ``close()`` when the ask ends.

    Example:
        >>> d = dispatch([], title="pi ask", message="m", write_terminal=print, enabled=False)
        >>> d.attempts
        (Attempt(channel='notifications', status='skipped', detail='notifications are disabled'),)
    """
    if not enabled:
        disabled = Attempt("notifications", "skipped", "notifications are disabled")
        return Dispatch((), settled=disabled)
    if not (isinstance(timeout_s, (int, float)) and math.isfinite(timeout_s) and timeout_s > 0):
        logger.debug("notification timeout %r is not a positive number; using 5 s", timeout_s)
        timeout_s = DEFAULT_TIMEOUT_S
    notification = Notification(title=title, message=message, event=event, link=link)
    running = Dispatch(channels)
    if running.done:
        return running
    thread = threading.Thread(
        target=running._run,
        args=(notification, write_terminal, float(timeout_s), focused, bell_only),
        name="pi-ask-notify",
        daemon=True,
    )
    try:
        thread.start()
    except RuntimeError as err:  # the interpreter is shutting down or out of threads
        logger.debug("notifications not sent: %s", err)
        return Dispatch((), settled=Attempt("notifications", "failed", _describe(err)))
    return running
