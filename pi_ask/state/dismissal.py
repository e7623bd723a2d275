"""Cancelling the flow, and the dirty-dismiss guard in front of it (behaviour.md §5.9, §6.4)."""

from __future__ import annotations

from pi_ask.contract.kinds import CancelReason
from pi_ask.state.model import AskState, Behaviour
from pi_ask.state.selectors import is_dirty
from pi_ask.words import english_dirty_guard

# Named with the default keys; a face that knows the live keymaps names those instead.
DISMISS_NOTICE = english_dirty_guard("Esc", "Ctrl+C")


def request_cancel(state: AskState, editor_text: str, behaviour: Behaviour) -> AskState:
    """Cancel or dismiss: a dirty flow first only warns, the next cancel or dismiss discards.

    The guard has its own pending flag (python-port.md §6 decision 4): another notice in the
    footer slot never arms or disarms it. An open editor's draft is never saved.
    """
    guarded = behaviour.confirm_dismiss_when_dirty and is_dirty(state, editor_text)
    if guarded and not state.pending_dismiss:
        return state._replace(pending_dismiss=True, notice=DISMISS_NOTICE)
    return abort(state, "cancelled")


def abort(state: AskState, reason: CancelReason) -> AskState:
    """End the flow as cancelled for ``reason``; the answers present now stay in the state."""
    return state._replace(completed=True, cancelled=True, cancel_reason=reason, mode="submit")
