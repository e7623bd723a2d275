"""The ``osc99`` channel: kitty's desktop-notification protocol, title and body.

``ESC ] 99 ; i=<id>:d=0 ; <title> ESC \\`` then ``ESC ] 99 ; i=<id>:p=body ; <body> ESC \\``:
the first part opens the notification and holds the title, ``d=0`` says more follows, the
second adds the body and shows it. The text is cleaned first, so it holds no ESC or BEL.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pi_ask.notifications.channel import Notification, SendContext
from pi_ask.notifications.channels.terminal_kind import for_terminal
from pi_ask.terminal_text import clean_line

_ST = "\x1b\\"
IDENTIFIER = "pi-ask"


def osc99_sequence(title: str, message: str) -> str:
    """Build the two OSC 99 parts (title, then body); fields are cleaned.

    Example:
        >>> osc99_sequence("pi ask", "DB").split("\\x1b\\\\")
        ['\\x1b]99;i=pi-ask:d=0;pi ask', '\\x1b]99;i=pi-ask:p=body;DB', '']
    """
    head = f"\x1b]99;i={IDENTIFIER}:d=0;{clean_line(title)}{_ST}"
    return head + f"\x1b]99;i={IDENTIFIER}:p=body;{clean_line(message)}{_ST}"


@dataclass(frozen=True, slots=True)
class Osc99Channel:
    """Asks kitty (and terminals speaking its protocol) for a desktop notification."""

    @property
    def label(self) -> str:
        """``osc99``."""
        return "osc99"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Write the OSC 99 sequence to the terminal (wrapped for tmux inside tmux)."""
        sequence = osc99_sequence(notification.title, notification.message)
        return context.alert(for_terminal(sequence, os.environ), "osc99")

    def to_plain(self) -> str:
        """``"osc99"``."""
        return "osc99"
