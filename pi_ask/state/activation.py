"""Activating the row under the cursor: confirm, toggle and digits (behaviour.md §5.4)."""

from __future__ import annotations

from pi_ask.contract.payload import Question
from pi_ask.state.answers import (
    clear_selection,
    flip_custom,
    select_only,
    toggle_option,
    update_answer,
)
from pi_ask.state.model import AskState, Behaviour, EditAnswer, Selection
from pi_ask.state.navigation import advance
from pi_ask.state.review import press_review_digit, run_review_action
from pi_ask.state.selectors import (
    Row,
    answer_for,
    current_question,
    current_row,
    question_rows,
)


def confirm(state: AskState) -> AskState:
    """Enter: run the review action, open the answer editor, or choose and move on.

    Multi questions never toggle on confirm: it moves to the next tab.
    """
    question = current_question(state)
    row = current_row(state)
    if question is None or row is None:
        return run_review_action(state, state.action)
    if row.is_custom:
        return _open_answer_editor(state, question)
    if question.type == "multi":
        return advance(state)
    selection = _selection(state, row)
    return advance(update_answer(state, question.id, lambda a: select_only(a, selection)))


def toggle(state: AskState) -> AskState:
    """Space: toggle the row; single choice deselects or selects, but never advances."""
    question = current_question(state)
    row = current_row(state)
    if question is None or row is None:
        return state
    if row.is_custom:
        return _toggle_custom(state, question)
    selection = _selection(state, row)
    if question.type == "multi":
        return update_answer(state, question.id, lambda a: toggle_option(a, selection))
    answer = answer_for(state, question.id)
    if answer is not None and answer.is_selected(selection.value):
        return update_answer(state, question.id, clear_selection)
    return update_answer(state, question.id, lambda a: select_only(a, selection))


def press_digit(state: AskState, digit: int, behaviour: Behaviour) -> AskState:
    """A digit 1-9: a review shortcut, or jump to that row and activate it.

    Digits past the last row are ignored. Single choice selects and advances; multi toggles
    and stays; the custom row acts as a toggle.
    """
    question = current_question(state)
    if question is None:
        return press_review_digit(state, digit, behaviour)
    if not 1 <= digit <= min(9, len(question_rows(question))):
        return state
    state = state._replace(row=digit - 1)
    row = current_row(state)
    if row is None or row.is_custom:
        return _toggle_custom(state, question)
    selection = _selection(state, row)
    if question.type == "multi":
        return update_answer(state, question.id, lambda a: toggle_option(a, selection))
    answer = answer_for(state, question.id)
    if answer is None or not answer.is_selected(selection.value):
        state = update_answer(state, question.id, lambda a: select_only(a, selection))
    return advance(state)


def _toggle_custom(state: AskState, question: Question) -> AskState:
    """Multi with saved text flips its selection; otherwise the editor opens."""
    answer = answer_for(state, question.id)
    if question.type == "multi" and answer is not None and answer.custom_text:
        return update_answer(state, question.id, flip_custom)
    return _open_answer_editor(state, question)


def _open_answer_editor(state: AskState, question: Question) -> AskState:
    return state._replace(view=EditAnswer(question.id))


def _selection(state: AskState, row: Row) -> Selection:
    """The option row under the cursor as a selection; its index is the cursor row + 1."""
    return Selection(row.value, row.label, state.row + 1)
