"""The MCP face's terminal route: pi-ask's full TUI somewhere other than the host's terminal.

An MCP server never draws on the ``/dev/tty`` it inherits: that terminal belongs to the
agent's own UI (python-port.md §11). The full flow (notes, review, elaborate, previews) can
only reach the user through a running ``pi-ask inbox`` or a tmux popup, which the pending-ask
issue provides.
"""

from __future__ import annotations

from pi_ask.contract.loading import LoadedPayload
from pi_ask.contract.results import ToolResult


async def ask_in_terminal(loaded: LoadedPayload, *, ask_id: str) -> ToolResult | None:
    """Ask ``loaded`` through a terminal other than the host's; ``None`` when none is there.

    Cancelling the calling task (a client's ``notifications/cancelled``) must close the flow
    and leave its drafts resumable.
    """
    del loaded, ask_id
    return None
