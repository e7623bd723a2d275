"""pi-ask: let a coding agent pause and ask the user structured questions.

The public names are loaded on first use, so ``import pi_ask`` stays cheap for the CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

__version__ = "0.1.0"
__all__ = [
    "AnswerRecord",
    "AskPayload",
    "AskUserInput",
    "PiAskError",
    "ToolResult",
    "ask_user",
    "ask_user_async",
    "run_flow",
]

if TYPE_CHECKING:
    from pi_ask.api import ask_user, ask_user_async, run_flow
    from pi_ask.contract.payload import AskPayload
    from pi_ask.contract.payload_types import AskUserInput
    from pi_ask.contract.results import AnswerRecord, ToolResult
    from pi_ask.errors import PiAskError

_HOMES = {
    "ask_user": "pi_ask.api",
    "ask_user_async": "pi_ask.api",
    "AskUserInput": "pi_ask.contract.payload_types",
    "AnswerRecord": "pi_ask.contract.results",
    "run_flow": "pi_ask.api",
    "AskPayload": "pi_ask.contract.payload",
    "ToolResult": "pi_ask.contract.results",
    "PiAskError": "pi_ask.errors",
}


__getattr__ = lazy_names(__name__, _HOMES)
