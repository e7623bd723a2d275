"""The review tab: Submit / Elaborate / Cancel, by Enter or by digit (§5.7, §6.5)."""

from __future__ import annotations

from pi_ask.state.dismissal import abort
from pi_ask.state.model import REVIEW_ACTIONS, AskState, Behaviour


def run_review_action(state: AskState, action: int) -> AskState:
    """Complete the flow with review action ``action`` (0 Submit, 1 Elaborate, 2 Cancel).

    Review Cancel is deliberate, so it bypasses the dirty-dismiss guard; submission is never
    blocked by unanswered or required questions.
    """
    if action == 1:
        return state._replace(completed=True, mode="elaborate")
    if action == 2:
        return abort(state, "cancelled")
    return state._replace(completed=True, mode="submit")


def press_review_digit(state: AskState, digit: int, behaviour: Behaviour) -> AskState:
    """A digit on the review tab.

    1-3 run their action at once, or with double-press on, the first press arms it (moving
    the highlight) and the same digit again runs it. 4-9 only disarm.
    """
    if not 1 <= digit <= len(REVIEW_ACTIONS):
        return state._replace(pending_review_digit=None)
    state = state._replace(action=digit - 1)
    if behaviour.double_press_review_shortcuts and state.pending_review_digit != digit:
        return state._replace(pending_review_digit=digit)
    return run_review_action(state._replace(pending_review_digit=None), digit - 1)
