"""The plain face: the ask flow as plain lines on the terminal, for everyone.

No cursor movement, no redraws, no colour: a screen reader, Emacs ``M-x shell``, a serial
console or a log can follow it. The same engine as the TUI, so the same result, drafts and
resume. ``pi-ask ask --ui plain`` opens it; ``--ui auto`` picks it when ``TERM=dumb`` or
``[ui] face = "plain"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

__all__ = ["LineTerminal", "PlainFlow", "open_line_terminal", "run_plain_flow"]

if TYPE_CHECKING:
    from pi_ask.plain.flow import PlainFlow, run_plain_flow
    from pi_ask.plain.terminal import LineTerminal, open_line_terminal

_HOMES = {
    "PlainFlow": "pi_ask.plain.flow",
    "run_plain_flow": "pi_ask.plain.flow",
    "LineTerminal": "pi_ask.plain.terminal",
    "open_line_terminal": "pi_ask.plain.terminal",
}

__getattr__ = lazy_names(__name__, _HOMES)
