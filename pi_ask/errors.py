"""Exceptions raised by pi-ask.

    PiAskError
     ├── UsageError              bad command-line use: an unreadable payload file, a bad option
     ├── NoAssistantMessage      pi-ask answer found no finished assistant message (answer/)
     └── ExtractionError         pi-ask answer could not turn the message into a form (answer/)
          └── ExtractorUnavailable   the model extractor cannot run (no openai, no model)

A signal that ends an open flow is ``pi_ask.ask.face.FlowInterrupted``, not a ``PiAskError``.
Cancelling an ask is a result, never an exception. The CLI turns a ``PiAskError`` into one
line on stderr and exit status 2; anything else keeps its traceback because it is a bug.
"""

from __future__ import annotations


class PiAskError(Exception):
    """Base class of every error pi-ask raises on purpose."""


class UsageError(PiAskError):
    """The command was used wrongly: the message says what to change."""
