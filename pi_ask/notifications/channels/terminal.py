"""The ``terminal`` channel: the alert the terminal itself speaks, chosen from the environment.

kitty gets OSC 99, iTerm2 OSC 9, WezTerm, Ghostty, foot and Windows Terminal OSC 777; any
other terminal the bell (``terminal_kind``). Inside tmux the sequence goes through tmux's
passthrough (tmux drops it unless ``allow-passthrough`` is on) and a bell follows it, so tmux
marks the window even when passthrough is off.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pi_ask.notifications.channel import Notification, SendContext
from pi_ask.notifications.channels.bell import BEL
from pi_ask.notifications.channels.osc9 import osc9_sequence
from pi_ask.notifications.channels.osc99 import osc99_sequence
from pi_ask.notifications.channels.osc777 import osc777_sequence
from pi_ask.notifications.channels.terminal_kind import (
    Alert,
    terminal_kind,
    tmux_passthrough,
)

_SEQUENCES: dict[Alert, Callable[[Notification], str]] = {
    "osc9": lambda note: osc9_sequence(note.message),
    "osc777": lambda note: osc777_sequence(note.title, note.message),
    "osc99": lambda note: osc99_sequence(note.title, note.message),
}


def terminal_alert(notification: Notification, environ: Mapping[str, str]) -> tuple[str, str]:
    """The text to write for ``notification`` in the terminal ``environ`` describes.

    Returns:
        The text, and a detail for reports (``osc99 for kitty``, ``bell``).

    Example:
        >>> terminal_alert(Notification(message="m"), {"WT_SESSION": "x"})
        ('\\x1b]777;notify;pi ask;m\\x07', 'osc777 for Windows Terminal')
    """
    kind = terminal_kind(environ)
    build = _SEQUENCES.get(kind.alert)
    if build is None:
        return BEL, "bell" if kind.name == "unknown" else f"bell for {kind.name}"
    sequence = build(notification)
    if kind.tmux:
        return tmux_passthrough(sequence) + BEL, f"{kind.alert} for {kind.name} through tmux"
    return sequence, f"{kind.alert} for {kind.name}"


@dataclass(frozen=True, slots=True)
class TerminalChannel:
    """The terminal's own alert: a desktop notification where it has one, else the bell."""

    @property
    def label(self) -> str:
        """``terminal``."""
        return "terminal"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Write the alert; returns which one (``osc99 for kitty``)."""
        text, detail = terminal_alert(notification, os.environ)
        if detail.startswith("bell"):
            context.terminal()(text)
            return detail
        return context.alert(text, detail.partition(" ")[0]) or detail

    def to_plain(self) -> str:
        """``"terminal"``."""
        return "terminal"
