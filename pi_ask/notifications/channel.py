"""What every notification channel shares: the notification, the send context, the protocol.

A channel is a frozen value parsed from the config (``channel_list.parse_channels``). The
dispatcher calls its ``send`` on a worker thread; ``send`` returns a short detail on success
and raises ``ChannelError`` (or anything else) on failure, ``ChannelUnavailable`` when it
cannot work on this machine at all (no terminal, no session bus: not a failure,
python-port.md §11) and ``ChannelSkipped`` when it has nothing to add. A channel never waits
past its context's timeout on purpose, and registers how to stop itself with the cancel scope.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pi_ask.notifications.message import EVENT, TITLE
from pi_ask.terminal_text import clean_line


class ChannelError(Exception):
    """A channel could not deliver; the message says why, in words for the user."""


class ChannelUnavailable(ChannelError):
    """The channel cannot work here (no terminal, no session bus); not a failure."""


class ChannelSkipped(ChannelError):
    """The channel chose not to send (an earlier channel already reached the desktop)."""


@dataclass(frozen=True, slots=True)
class Notification:
    """One notification. Every field holds one clean line (``clean_line``), whatever it got."""

    title: str = TITLE
    message: str = ""
    event: str = EVENT
    link: str = ""
    """The ask's page (``relay.web_link``), for channels that can open a link; never a
    secret. Anything but one http(s) URL is dropped."""

    def __post_init__(self) -> None:
        # Cleaning here means no channel can receive raw payload text, however it is built.
        for name in ("title", "message", "event"):
            object.__setattr__(self, name, clean_line(getattr(self, name)))
        if self.link and not is_link(self.link):
            object.__setattr__(self, "link", "")


def is_link(text: str) -> bool:
    """One http(s) URL with a host, nothing a line or a shell could break on, of sane size."""
    from urllib.parse import urlsplit

    if len(text) > 2048 or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text):
        return False
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


class CancelScope:
    """A one-shot, thread-safe stop signal: callbacks run once, when it is cancelled.

    The dispatcher cancels a channel's scope when the channel times out or the ask ends; a
    command channel registers "kill my process group" with it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._cancelled = False

    @property
    def is_cancelled(self) -> bool:
        """True once ``cancel`` has been called."""
        return self._cancelled

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` when the scope is cancelled (at once if it already is)."""
        with self._lock:
            if not self._cancelled:
                self._callbacks.append(callback)
                return
        callback()

    def cancel(self) -> None:
        """Cancel the scope and run every registered callback once, ignoring their errors."""
        with self._lock:
            if self._cancelled:
                return
            self._cancelled = True
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            # Stopping is best effort; the channel's outcome is recorded either way.
            with contextlib.suppress(Exception):
                callback()


@dataclass(frozen=True, slots=True)
class SendContext:
    """What a channel may use while sending.

    Attributes:
        write_terminal: Writes text to the terminal the UI is on (thread-safe, non-blocking),
            or ``None`` when there is no terminal.
        timeout_s: How long the channel may take before it is abandoned.
        cancel_scope: Cancelled when the channel is abandoned; register clean-up with it.
        reached_desktop: Shared by the channels of one dispatch: set by a terminal channel
            whose sequence asks the terminal for a desktop notification, so ``desktop``
            does not show a second one.
        focused: Whether the terminal has focus now: True, False, or None when it never
            said (no focus reports).
        bell_only: The terminal takes no escape sequences (the plain face): the terminal
            channels ring the bell instead of writing OSC alerts.
    """

    write_terminal: Callable[[str], None] | None
    timeout_s: float
    cancel_scope: CancelScope
    reached_desktop: threading.Event = field(default_factory=threading.Event)
    focused: Callable[[], bool | None] = lambda: None
    bell_only: bool = False

    def alert(self, sequence: str, what: str) -> str:
        """Write an OSC alert (``what``: ``osc9``...), or the bell where only a bell goes.

        Returns:
            The detail for the report: empty, or that a bell was rung instead.
        """
        write = self.terminal()
        if self.bell_only:
            write("\x07")
            return f"bell instead of {what} (a plain terminal)"
        write(sequence)
        self.reached_desktop.set()
        return ""

    def terminal(self) -> Callable[[str], None]:
        """The terminal writer.

        Raises:
            ChannelUnavailable: There is no terminal to write to.
        """
        if self.write_terminal is None:
            raise ChannelUnavailable("no terminal")
        return self.write_terminal


class Channel(Protocol):
    """A notification channel: a frozen value that knows how to send one notification."""

    @property
    def label(self) -> str:
        """A short name for reports, free of secrets (``bell``, ``command``, ``ntfys://…``)."""
        ...

    def send(self, notification: Notification, context: SendContext) -> str:
        """Deliver ``notification``; return a short detail (may be empty) or raise."""
        ...

    def to_plain(self) -> str | dict[str, str] | dict[str, object]:
        """The config value this channel was parsed from (``"bell"``, ``{type=...}``)."""
        ...
