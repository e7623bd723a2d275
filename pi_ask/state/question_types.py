"""Changing a question's presented type with the type hotkey (behaviour.md §5.8)."""

from __future__ import annotations

from pi_ask.contract.payload import Question, QuestionType
from pi_ask.state.answers import committed_count, keep_custom_only, update_answer
from pi_ask.state.model import AskState
from pi_ask.state.selectors import answer_for, current_question
from pi_ask.words import TYPE_CHANGE_CONFIRM, TYPE_CHANGED

TYPE_CHANGE_CONFIRM_NOTICE = TYPE_CHANGE_CONFIRM


def next_question_type(question: Question) -> QuestionType:
    """Preview questions cycle preview <-> multi; the others single <-> multi."""
    if question.requested_type == "preview":
        return "multi" if question.type == "preview" else "preview"
    return "single" if question.type == "multi" else "multi"


def type_changed_notice(old: QuestionType, new: QuestionType) -> str:
    """The notice shown after any applied type change."""
    return TYPE_CHANGED.format(old=old, new=new)


def change_question_type(state: AskState) -> AskState:
    """Cycle the current question's type.

    Switching to a single-choice type (single, or preview) while more than one answer is
    committed needs a second press on the same question: the first only shows a notice.
    Confirmed, it clears the selected options and keeps custom text as the answer. Preview
    is included so a preview question can never hold two choices.
    """
    question = current_question(state)
    if question is None:
        return state
    new_type = next_question_type(question)
    destructive = new_type != "multi" and committed_count(answer_for(state, question.id)) > 1
    if destructive and state.pending_type_change != question.id:
        return state._replace(pending_type_change=question.id, notice=TYPE_CHANGE_CONFIRM_NOTICE)
    changed = question._replace(type=new_type)
    questions = tuple(changed if q.id == question.id else q for q in state.questions)
    state = state._replace(
        questions=questions,
        pending_type_change=None,
        notice=type_changed_notice(question.type, new_type),
    )
    if destructive:
        state = update_answer(state, question.id, keep_custom_only)
    return state
