"""Opening, saving and closing the answer editor and the note editors (§5.5, §5.6, §6.3).

Every save path trims the text (python-port.md §6 decision 5), and saving an unchanged
empty answer draft changes nothing (decision 3): passing over ``Type your own`` never
clears a selection.
"""

from __future__ import annotations

from pi_ask.state.answers import (
    save_custom_text,
    save_note,
    save_option_note,
    update_answer,
)
from pi_ask.state.commands import MoveOption, MoveTab
from pi_ask.state.model import Answer, AskState, EditAnswer, EditNote, Navigate, Review
from pi_ask.state.navigation import advance, move_option, move_tab
from pi_ask.state.selectors import (
    answer_for,
    current_question,
    current_row,
    is_review_tab,
    question_by_id,
)


def open_question_note(state: AskState) -> AskState:
    """Open the current question's note editor (not on the review tab)."""
    question = current_question(state)
    if question is None:
        return state
    return state._replace(view=EditNote(question.id))


def open_option_note(state: AskState) -> AskState:
    """Open the note editor of the option under the cursor (not on the custom row)."""
    question = current_question(state)
    row = current_row(state)
    if question is None or row is None or row.is_custom:
        return state
    return state._replace(view=EditNote(question.id, row.value))


def submit_editor(state: AskState, text: str) -> AskState:
    """Enter: save and close; a single-choice custom answer then advances (multi stays)."""
    view = state.view
    saved = _save_and_close(state, text)
    if isinstance(view, EditAnswer) and text.strip():
        question = question_by_id(state, view.question_id)
        if question is not None and question.type != "multi":
            return advance(saved)
    return saved


def close_editor(state: AskState, text: str) -> AskState:
    """Esc: save and close, never advancing."""
    return _save_and_close(state, text)


def editor_navigate(state: AskState, text: str, move: MoveTab | MoveOption) -> AskState:
    """An empty-editor navigation key: save the draft, close, then move."""
    if not isinstance(state.view, EditAnswer | EditNote):
        return state
    saved = _save_and_close(state, text)
    if isinstance(move, MoveTab):
        return move_tab(saved, move.delta)
    return move_option(saved, move.delta)


def _save_and_close(state: AskState, text: str) -> AskState:
    view = state.view
    text = text.strip()
    if isinstance(view, EditAnswer):
        state = _save_answer_text(state, view.question_id, text)
    elif isinstance(view, EditNote):
        state = _save_note_text(state, view, text)
    else:
        return state
    return state._replace(view=Review() if is_review_tab(state) else Navigate())


def _save_answer_text(state: AskState, question_id: str, text: str) -> AskState:
    question = question_by_id(state, question_id)
    stored = answer_for(state, question_id) or Answer()
    if question is None or (not text and not stored.custom_text):
        return state
    single_choice = question.type != "multi"
    return update_answer(state, question_id, lambda a: save_custom_text(a, text, single_choice))


def _save_note_text(state: AskState, view: EditNote, text: str) -> AskState:
    value = view.option_value
    if value is None:
        return update_answer(state, view.question_id, lambda a: save_note(a, text))
    return update_answer(state, view.question_id, lambda a: save_option_note(a, value, text))
