"""The ``bell`` channel: a BEL on the terminal the UI is on."""

from __future__ import annotations

from dataclasses import dataclass

from pi_ask.notifications.channel import Notification, SendContext

BEL = "\x07"


@dataclass(frozen=True, slots=True)
class BellChannel:
    """Rings the terminal bell; terminals turn it into a sound, a flash or an urgency hint."""

    @property
    def label(self) -> str:
        """``bell``."""
        return "bell"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Write BEL to the terminal (tmux handles a bell itself: no passthrough)."""
        del notification  # a bell carries no text
        context.terminal()(BEL)
        return ""

    def to_plain(self) -> str:
        """``"bell"``."""
        return "bell"
