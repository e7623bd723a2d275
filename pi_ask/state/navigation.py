"""Cursor movement: tabs, rows, review actions, and the advance after an answer."""

from __future__ import annotations

from pi_ask.state.model import REVIEW_ACTIONS, AskState, Navigate, Review
from pi_ask.state.selectors import current_question, is_review_tab, question_rows


def _go_to_tab(state: AskState, tab: int) -> AskState:
    view = Review() if tab >= len(state.questions) else Navigate()
    return state._replace(tab=tab, row=0, action=0, view=view)


def move_tab(state: AskState, delta: int) -> AskState:
    """Switch tab by ``delta``, wrapping over the questions and the review tab (§5.3)."""
    return _go_to_tab(state, (state.tab + delta) % (len(state.questions) + 1))


def advance(state: AskState) -> AskState:
    """Go to the next tab without wrapping: after the last question comes the review tab."""
    return _go_to_tab(state, min(state.tab + 1, len(state.questions)))


def move_option(state: AskState, delta: int) -> AskState:
    """Move the row cursor, or the review action, by ``delta``; clamped, never wraps."""
    if is_review_tab(state):
        action = _clamp(state.action + delta, len(REVIEW_ACTIONS) - 1)
        return state._replace(action=action)
    question = current_question(state)
    if question is None:
        return state
    return state._replace(row=_clamp(state.row + delta, len(question_rows(question)) - 1))


def _clamp(value: int, highest: int) -> int:
    return max(0, min(highest, value))
