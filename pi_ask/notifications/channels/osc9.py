"""The ``osc9`` channel: ``ESC ] 9 ; <message> BEL`` (iTerm2, WezTerm, Windows Terminal...)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from pi_ask.notifications.channel import Notification, SendContext
from pi_ask.notifications.channels.terminal_kind import for_terminal
from pi_ask.terminal_text import clean_line


def osc9_sequence(message: str) -> str:
    """Build the OSC 9 desktop-notification sequence for ``message``, cleaned first.

    Example:
        >>> osc9_sequence("Question waiting: DB\\x07")
        '\\x1b]9;Question waiting: DB^G\\x07'
    """
    return f"\x1b]9;{clean_line(message)}\x07"


@dataclass(frozen=True, slots=True)
class Osc9Channel:
    """Asks the terminal to show a desktop notification holding the message."""

    @property
    def label(self) -> str:
        """``osc9``."""
        return "osc9"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Write the OSC 9 sequence to the terminal (wrapped for tmux inside tmux)."""
        sequence = for_terminal(osc9_sequence(notification.message), os.environ)
        return context.alert(sequence, "osc9")

    def to_plain(self) -> str:
        """``"osc9"``."""
        return "osc9"
