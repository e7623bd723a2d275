"""The ``osc777`` channel: ``ESC ] 777 ; notify ; <title> ; <message> BEL`` (foot, kitty...)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from pi_ask.notifications.channel import Notification, SendContext
from pi_ask.notifications.channels.terminal_kind import for_terminal
from pi_ask.terminal_text import clean_line


def _field(text: str) -> str:
    # ";" separates the fields of this sequence, so it may not appear inside one.
    return clean_line(text).replace(";", ":")


def osc777_sequence(title: str, message: str) -> str:
    """Build the OSC 777 notify sequence; fields are cleaned and ``;`` becomes ``:``.

    Example:
        >>> osc777_sequence("pi ask", "Question waiting: a;b")
        '\\x1b]777;notify;pi ask;Question waiting: a:b\\x07'
    """
    return f"\x1b]777;notify;{_field(title)};{_field(message)}\x07"


@dataclass(frozen=True, slots=True)
class Osc777Channel:
    """Asks the terminal to show a desktop notification with a title and the message."""

    @property
    def label(self) -> str:
        """``osc777``."""
        return "osc777"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Write the OSC 777 sequence to the terminal (wrapped for tmux inside tmux)."""
        sequence = osc777_sequence(notification.title, notification.message)
        return context.alert(for_terminal(sequence, os.environ), "osc777")

    def to_plain(self) -> str:
        """``"osc777"``."""
        return "osc777"
