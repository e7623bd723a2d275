"""The MCP face's terminal route: pi-ask's full TUI somewhere other than the host's terminal.

An MCP server never draws on the ``/dev/tty`` it inherits: that terminal belongs to the
agent's own UI (python-port.md §11). The full flow (notes, review, elaborate, previews) can
only reach the user through a running ``pi-ask inbox`` or a tmux popup (``pi_ask.relay``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pi_ask.config.store import SettingsStore
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
        on_waiting: Callable[[], None] | None = None,
    ) -> ToolResult | None: ...


async def ask_in_terminal(
    loaded: LoadedPayload,
    *,
    ask_id: str,
    store: SettingsStore,
    on_draft: Callable[[AskState], None],
    on_waiting: Callable[[], None] | None = None,
) -> ToolResult | None:
    """Ask ``loaded`` through a running inbox or a tmux popup; ``None`` when neither is there.

    ``on_waiting`` is called (on a worker thread) once the ask is published for a terminal,
    never when nobody can take it.

    The routing settings apply as on the command line: ``[inbox] tmux``, the deadline
    ``[behaviour] answer_timeout_s``, and ``[behaviour] no_terminal = "wait"``, without which
    it never waits for an attach when nothing can take the ask at once. Cancelling the calling
    task (a client's ``notifications/cancelled``) closes the flow wherever it is open and
    leaves its drafts resumable.
    """
    from pi_ask.config.paths import kept_attachments_dir
    from pi_ask.relay.elsewhere import ElsewhereHooks, ask_elsewhere_async

    settings = store.snapshot()
    routing = settings.routing
    return await ask_elsewhere_async(
        loaded,
        ask_id,
        hooks=ElsewhereHooks(on_draft=on_draft, on_published=on_waiting),
        store=store,
        tmux=routing.tmux,
        timeout_s=routing.answer_timeout_s,
        wait=routing.no_terminal == "wait",
        limits=settings.attachments,
        keep_files_in=kept_attachments_dir(ask_id),
    )


def why_unreached(store: SettingsStore) -> str:
    """Why the terminal route just reached nobody, in a few words (for the model and stderr)."""
    from pi_ask.relay.elsewhere import why_unreached as relay_why

    return relay_why(store.snapshot().routing.tmux)
