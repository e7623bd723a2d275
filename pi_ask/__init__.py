"""pi-ask: let a coding agent pause and ask the user structured questions.

The public names load on first use (PEP 562), so ``import pi_ask`` stays cheap for the
command line, which imports the package before it knows which face it opens. This is the
only package that re-exports: everything else is imported from the module that defines it.
"""

from __future__ import annotations

import importlib

from pi_ask.version import __version__ as __version__

# Not ``typing.TYPE_CHECKING``: loading typing here would cost every process that imports
# a pi_ask module 1 MiB, the small waiting asker included (``cli/waiting.py``). Type
# checkers read any ``TYPE_CHECKING`` name as true.
TYPE_CHECKING = False

__all__ = [
    "AnswerRecord",
    "AskPayload",
    "AskUserInput",
    "PiAskError",
    "ToolResult",
    "ask_result",
    "ask_user",
    "ask_user_async",
    "run_flow",
]

if TYPE_CHECKING:
    from pi_ask.api import ask_result, ask_user, ask_user_async, run_flow
    from pi_ask.contract.payload import AskPayload
    from pi_ask.contract.payload_types import AskUserInput
    from pi_ask.contract.results import AnswerRecord, ToolResult
    from pi_ask.errors import PiAskError

_HOMES = {
    "ask_user": "pi_ask.api",
    "ask_result": "pi_ask.api",
    "ask_user_async": "pi_ask.api",
    "run_flow": "pi_ask.api",
    "AskPayload": "pi_ask.contract.payload",
    "AskUserInput": "pi_ask.contract.payload_types",
    "AnswerRecord": "pi_ask.contract.results",
    "ToolResult": "pi_ask.contract.results",
    "PiAskError": "pi_ask.errors",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
