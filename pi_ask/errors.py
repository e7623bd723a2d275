"""Exceptions raised by pi-ask.

    PiAskError
     ├── UsageError              bad command-line use: an unreadable payload file, a bad option
     ├── NoAssistantMessage      pi-ask answer found no finished assistant message (session/)
     └── ExtractionError         pi-ask answer could not turn the message into a form (session/)
          └── ExtractorUnavailable   the model extractor cannot run (no openai, no model)

    FlowInterrupted             a signal ended an open flow (any terminal face); not a PiAskError

Cancelling an ask is a result, never an exception. The CLI turns a ``PiAskError`` into one
line on stderr and exit status 2; anything else keeps its traceback because it is a bug.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_ask.contract.results import ToolResult


class PiAskError(Exception):
    """Base class of every error pi-ask raises on purpose."""


class UsageError(PiAskError):
    """The command was used wrongly: the message says what to change."""


class FlowInterrupted(Exception):
    """The flow was ended by a signal (SIGTERM, SIGHUP, or a SIGINT from outside).

    The terminal has been restored when this is raised. The caller prints ``result`` (a
    cancelled result) if it can and exits with ``128 + signal_number``.
    """

    def __init__(self, result: ToolResult, signal_number: int) -> None:
        super().__init__(f"ask flow ended by signal {signal_number}")
        self.result = result
        self.signal_number = signal_number
