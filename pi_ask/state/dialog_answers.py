"""What the dialog face's commands do (behaviour.md §12): one card, one answer.

A card records exactly the option chosen, even on a multi question, or the text typed as a
single custom answer; after the last card the flow completes as a submit on the review tab.
"""

from __future__ import annotations

from pi_ask.state.answers import put_answer, save_custom_text, select_only
from pi_ask.state.model import Answer, AskState, Review, Selection


def choose_only(state: AskState, question_id: str, value: str) -> AskState:
    """``value`` alone becomes the answer; an unknown question or value changes nothing."""
    for question in state.questions:
        if question.id != question_id:
            continue
        for position, option in enumerate(question.options, start=1):
            if option.value == value and not option.freeform:
                selection = Selection(option.value, option.label, position)
                return put_answer(state, question_id, select_only(Answer(), selection))
    return state


def type_answer(state: AskState, question_id: str, text: str) -> AskState:
    """The trimmed ``text`` as the single custom answer (python-port.md §6 decision 5)."""
    if all(question.id != question_id for question in state.questions):
        return state
    return put_answer(state, question_id, save_custom_text(Answer(), text.strip(), True))


def submit_answers(state: AskState) -> AskState:
    """Complete on the review tab as a submit, keeping every answer as it is."""
    return state._replace(tab=len(state.questions), row=0, view=Review(), completed=True)
