"""Portable dialogs: the sequential flow over a host's select/input dialogs, and pi RPC.

``run_dialog_flow`` asks over any :class:`DialogPort`; ``run_rpc`` speaks pi's
``extension_ui_request``/``extension_ui_response`` JSON lines on two streams.
"""

from __future__ import annotations

from pi_ask.dialogs.flow import (
    PLACEHOLDER_MULTI,
    PLACEHOLDER_SINGLE,
    TYPE_SOMETHING,
    AbortSignal,
    DialogPort,
    InvalidResponse,
    card_options,
    compact,
    dialog_title,
    option_text,
    run_dialog_flow,
)
from pi_ask.dialogs.jsonl import encode_line, read_lines, write_line
from pi_ask.dialogs.rpc import RpcDialogs, run_rpc

__all__ = [
    "PLACEHOLDER_MULTI",
    "PLACEHOLDER_SINGLE",
    "TYPE_SOMETHING",
    "AbortSignal",
    "DialogPort",
    "InvalidResponse",
    "RpcDialogs",
    "card_options",
    "compact",
    "dialog_title",
    "encode_line",
    "option_text",
    "read_lines",
    "run_dialog_flow",
    "run_rpc",
    "write_line",
]
