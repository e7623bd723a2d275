"""The prompt_toolkit face: the ask flow and the settings overlay, drawn on the terminal.

Public names load on first use, so ``pi_ask.tui.commands`` (imported to build the command
line) does not pull in prompt_toolkit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

__all__ = ["AskFlow", "FlowInterrupted", "run_ask_flow", "run_settings"]

if TYPE_CHECKING:
    from pi_ask.errors import FlowInterrupted
    from pi_ask.tui.flow import AskFlow, run_ask_flow
    from pi_ask.tui.settings_app import run_settings

_HOMES = {
    "AskFlow": "pi_ask.tui.flow",
    "FlowInterrupted": "pi_ask.errors",
    "run_ask_flow": "pi_ask.tui.flow",
    "run_settings": "pi_ask.tui.settings_app",
}


__getattr__ = lazy_names(__name__, _HOMES)
