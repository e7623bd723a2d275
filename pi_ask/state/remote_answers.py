"""A validated remote submission replacing every answer (behaviour.md §13, "On success")."""

from __future__ import annotations

from pi_ask.contract.kinds import Mode
from pi_ask.contract.payload import Question
from pi_ask.state.answers import put_answer, save_option_note
from pi_ask.state.commands import SubmittedAnswer
from pi_ask.state.model import Answer, AskState, Review, Selection


def replace_answers(
    state: AskState, answers: tuple[tuple[str, SubmittedAnswer], ...], mode: Mode
) -> AskState:
    """Replace all answers and complete the flow on the review tab with ``mode``.

    Questions not mentioned become unanswered; labels and indices are recomputed from the
    option list; text is trimmed like every other save, and blank text is dropped. The
    submission was validated by the bridge; unknown ids and values are skipped here, and a
    single-choice question keeps at most one choice, so the state stays consistent anyway.
    """
    given = dict(answers)
    state = state._replace(answers=())
    for question in state.questions:
        submitted = given.get(question.id)
        if submitted is not None:
            state = put_answer(state, question.id, _answer(question, submitted))
    return state._replace(
        tab=len(state.questions),
        row=0,
        action=0,
        view=Review(),
        completed=True,
        cancelled=False,
        mode=mode,
    )


def _answer(question: Question, submitted: SubmittedAnswer) -> Answer:
    rows = {o.value: (index, o.label) for index, o in enumerate(question.options, start=1)}
    selected = tuple(
        Selection(value, rows[value][1], rows[value][0])
        for value in dict.fromkeys(submitted.values)
        if value in rows and not question.options[rows[value][0] - 1].freeform
    )
    custom = (submitted.custom_text or "").strip() or None
    if question.type != "multi" and selected:
        selected, custom = selected[:1], None
    answer = Answer(
        selected=selected,
        custom_text=custom,
        custom_selected=custom is not None,
        note=(submitted.note or "").strip() or None,
    )
    for value, note in submitted.option_notes:
        if value in rows:
            answer = save_option_note(answer, value, note.strip())
    return answer
