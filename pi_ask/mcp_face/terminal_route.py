"""The MCP face's terminal route: pi-ask's full TUI somewhere other than the host's terminal.

An MCP server never draws on the ``/dev/tty`` it inherits: that terminal belongs to the
agent's own UI (python-port.md §11). The full flow (notes, review, elaborate, previews) can
only reach the user through a running ``pi-ask inbox`` or a tmux popup, which the pending-ask
issue provides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pi_ask.config import SettingsStore
from pi_ask.contract.loading import LoadedPayload
from pi_ask.contract.results import ToolResult
from pi_ask.state.model import AskState


class TerminalRoute(Protocol):
    """How the server reaches a terminal elsewhere (tests stand their own in)."""

    async def __call__(
        self,
        loaded: LoadedPayload,
        *,
        ask_id: str,
        store: SettingsStore,
        on_draft: Callable[[AskState], None],
    ) -> ToolResult | None: ...


async def ask_in_terminal(
    loaded: LoadedPayload,
    *,
    ask_id: str,
    store: SettingsStore,
    on_draft: Callable[[AskState], None],
) -> ToolResult | None:
    """Ask ``loaded`` through a terminal other than the host's; ``None`` when none is there.

    Cancelling the calling task (a client's ``notifications/cancelled``) must close the flow
    and leave its drafts resumable.
    """
    del loaded, ask_id, store, on_draft
    return None
