"""Pending asks: an ask with no terminal of its own, answered from another terminal.

The asker serves its ask on a private unix socket (``pending``); ``pi-ask attach`` and
``pi-ask inbox`` find and answer it (``client``, ``attach``, ``inbox_app``); ``routing``
decides where ``--ui auto`` goes; ``ask_elsewhere`` is the entry point for a face with no
terminal (the command line, the Python API, MCP). Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

if TYPE_CHECKING:
    from pi_ask.inbox.elsewhere import ElsewhereHooks, ask_elsewhere, ask_elsewhere_async
    from pi_ask.inbox.routing import in_foreground_terminal

__all__ = ["ElsewhereHooks", "ask_elsewhere", "ask_elsewhere_async", "in_foreground_terminal"]

_HOMES = {
    "ElsewhereHooks": "pi_ask.inbox.elsewhere",
    "ask_elsewhere": "pi_ask.inbox.elsewhere",
    "ask_elsewhere_async": "pi_ask.inbox.elsewhere",
    "in_foreground_terminal": "pi_ask.inbox.routing",
}

__getattr__ = lazy_names(__name__, _HOMES)
