"""How a flow opens: ``new_state``, and the rule that opens the answer editor by itself.

Apart from ``dispatcher`` so a face can draw its first frame before the commands and the
transitions are loaded (python-port.md §8); ``dispatcher.apply`` runs ``auto_open`` after
every command too.
"""

from __future__ import annotations

from pi_ask.contract.payload import AskPayload
from pi_ask.state.model import Answer, AskState, EditAnswer, Navigate, Review
from pi_ask.state.selectors import (
    answer_for,
    current_question,
    current_row,
    is_row_selected,
    question_rows,
)


def new_state(
    payload: AskPayload,
    *,
    answers: tuple[tuple[str, Answer], ...] = (),
    config_notice: str | None = None,
) -> AskState:
    """The initial state of a flow over a normalized payload.

    Args:
        payload: The normalized payload (``presented`` types already applied).
        answers: The answers to start from (a resumed draft), in question order.
        config_notice: The config-load notice to show in the footer, if any.

    Returns:
        The state on the first tab, the cursor on its first chosen row when a resumed answer
        chose one (else on the first option), with the answer editor already open when the
        cursor rests on an empty custom row (a freeform-only first question, whether or not a
        resumed answer has text there).
    """
    view = Navigate() if payload.questions else Review()
    state = AskState(
        questions=payload.questions, title=payload.title, view=view, config_notice=config_notice
    )
    if not answers:
        return auto_open(state)
    opened = auto_open(state)  # a freeform-only question opens its editor, answered or not
    state = opened._replace(answers=answers)
    question = current_question(state)
    if question is None or isinstance(opened.view, EditAnswer):
        return state
    rows = question_rows(question)
    chosen = next((i for i, row in enumerate(rows) if is_row_selected(state, question, row)), 0)
    return state._replace(row=chosen)


def auto_open(state: AskState) -> AskState:
    """Open the answer editor when the cursor rests on an empty custom row (§6.2)."""
    if state.completed or state.suppress_auto_open or not isinstance(state.view, Navigate):
        return state
    question = current_question(state)
    row = current_row(state)
    if question is None or row is None or not row.is_custom:
        return state
    answer = answer_for(state, question.id)
    if answer is not None and answer.custom_text:
        return state
    return state._replace(view=EditAnswer(question.id))
