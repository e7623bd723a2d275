"""Which terminal the ask runs in, which alert it speaks, and tmux's passthrough wrapper.

Only the environment is read: a query to the terminal would need an answer read back from
the input while the ask is drawn, and a notification must never touch the input. The
variables are the ones each terminal sets for its children (and that tmux and ssh pass on:
``KITTY_WINDOW_ID``, ``LC_TERMINAL``, ``WT_SESSION``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Alert = Literal["osc9", "osc777", "osc99", "bell"]


@dataclass(frozen=True, slots=True)
class TerminalKind:
    """A terminal, as told by the environment.

    Attributes:
        name: The terminal's name for reports (``kitty``, ``iTerm2``, ``unknown``).
        alert: The sequence it turns into a desktop notification, or ``bell``.
        tmux: True when the ask runs inside tmux (the sequence needs tmux's passthrough).
    """

    name: str
    alert: Alert
    tmux: bool


# First match wins; a terminal's own variable comes before TERM_PROGRAM, which tmux
# overwrites with "tmux".
_KINDS: tuple[tuple[str, Alert, str, str], ...] = (
    # (name, alert, variable, value it must start with; "" = any non-empty value)
    ("kitty", "osc99", "KITTY_WINDOW_ID", ""),
    ("kitty", "osc99", "TERM", "xterm-kitty"),
    ("iTerm2", "osc9", "ITERM_SESSION_ID", ""),
    ("iTerm2", "osc9", "LC_TERMINAL", "iTerm2"),
    ("iTerm2", "osc9", "TERM_PROGRAM", "iTerm.app"),
    ("WezTerm", "osc777", "WEZTERM_PANE", ""),
    ("WezTerm", "osc777", "TERM_PROGRAM", "WezTerm"),
    ("Ghostty", "osc777", "GHOSTTY_RESOURCES_DIR", ""),
    ("Ghostty", "osc777", "TERM_PROGRAM", "ghostty"),
    ("foot", "osc777", "TERM", "foot"),
    ("Windows Terminal", "osc777", "WT_SESSION", ""),
)


def terminal_kind(environ: Mapping[str, str]) -> TerminalKind:
    """Tell the terminal from ``environ``; an unknown one gets the bell.

    Example:
        >>> terminal_kind({"KITTY_WINDOW_ID": "1", "TMUX": "/tmp/tmux-0/default,1,0"})
        TerminalKind(name='kitty', alert='osc99', tmux=True)
    """
    tmux = bool(environ.get("TMUX"))
    for name, alert, variable, prefix in _KINDS:
        value = environ.get(variable, "")
        if value and value.startswith(prefix):
            return TerminalKind(name, alert, tmux)
    return TerminalKind("tmux" if tmux else "unknown", "bell", tmux)


def tmux_passthrough(sequence: str) -> str:
    """Wrap ``sequence`` so tmux hands it to the outer terminal (needs ``allow-passthrough``).

    Example:
        >>> tmux_passthrough("\\x1b]9;hi\\x07")
        '\\x1bPtmux;\\x1b\\x1b]9;hi\\x07\\x1b\\\\'
    """
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def for_terminal(sequence: str, environ: Mapping[str, str]) -> str:
    """``sequence`` as it must be written here: wrapped for tmux when inside tmux."""
    return tmux_passthrough(sequence) if environ.get("TMUX") else sequence
