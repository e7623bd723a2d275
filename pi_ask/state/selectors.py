"""Read-only views of an ``AskState``: what faces draw, and what transitions consult."""

from typing import NamedTuple

from pi_ask.contract.payload import Option, Question
from pi_ask.state.model import (
    CUSTOM_LABEL,
    CUSTOM_VALUE,
    FREEFORM_LABEL,
    REVIEW_ACTIONS,
    Answer,
    AskState,
    Behaviour,
    EditAnswer,
    EditNote,
)
from pi_ask.words import REVIEW_IDLE_HINT, REVIEW_PENDING_HINT, REVIEW_TAB


class Row(NamedTuple):
    """One row of a question: a declared option or the synthetic custom row.

    ``number`` is the 1-based row number shown and typed as a digit; the custom row of a
    freeform-only question has none (it is drawn without number or pointer).
    """

    value: str
    label: str
    number: int | None
    option: Option | None = None

    @property
    def is_custom(self) -> bool:
        return self.option is None


class TabState(NamedTuple):
    """One tab of the tab row."""

    label: str
    answered: bool
    active: bool
    is_review: bool = False


def question_rows(question: Question) -> tuple[Row, ...]:
    """The rows of ``question``: its options then ``Type your own`` (behaviour.md §5.2).

    A freeform-only question (``pi-ask answer`` forms) has a single unnumbered custom row
    labelled ``Type your answer:``.
    """
    if question.is_freeform:
        return (Row(CUSTOM_VALUE, FREEFORM_LABEL, None),)
    rows = tuple(
        Row(option.value, option.label, number, option)
        for number, option in enumerate(question.options, start=1)
    )
    return (*rows, Row(CUSTOM_VALUE, CUSTOM_LABEL, len(rows) + 1))


def is_review_tab(state: AskState) -> bool:
    """True when the review tab is active."""
    return state.tab >= len(state.questions)


def current_question(state: AskState) -> Question | None:
    """The question of the active tab; ``None`` on the review tab."""
    return None if is_review_tab(state) else state.questions[state.tab]


def current_row(state: AskState) -> Row | None:
    """The row under the cursor; ``None`` on the review tab."""
    question = current_question(state)
    if question is None:
        return None
    rows = question_rows(question)
    return rows[min(state.row, len(rows) - 1)]


def question_by_id(state: AskState, question_id: str) -> Question | None:
    """The question with ``question_id``, if any."""
    return next((q for q in state.questions if q.id == question_id), None)


def answer_for(state: AskState, question_id: str) -> Answer | None:
    """The stored answer of ``question_id``; ``None`` when it has none."""
    return next((a for qid, a in state.answers if qid == question_id), None)


def is_answered(state: AskState, question_id: str) -> bool:
    """True when the question has a selected option or selected custom text."""
    answer = answer_for(state, question_id)
    return answer is not None and answer.is_answered


def has_any_notes(state: AskState) -> bool:
    """True when any question holds a question note or an option note."""
    return any(answer.has_notes for _, answer in state.answers)


def is_dirty(state: AskState, editor_text: str = "") -> bool:
    """True when dismissing would lose something (behaviour.md §6.4).

    Any answer entry counts (selections, custom text even deselected, any note), and so does
    the open editor's raw text, whitespace included.
    """
    return bool(state.answers) or editor_text != ""


def is_row_selected(state: AskState, question: Question, row: Row) -> bool:
    """True when ``row`` is chosen: a selected option, or selected non-blank custom text."""
    answer = answer_for(state, question.id)
    if answer is None:
        return False
    if row.is_custom:
        return answer.custom_selected and bool(answer.custom_text)
    return answer.is_selected(row.value)


def editor_draft(state: AskState) -> str:
    """The stored text an editor opens with: the custom text or the note being edited."""
    view = state.view
    if not isinstance(view, EditAnswer | EditNote):
        return ""
    answer = answer_for(state, view.question_id) or Answer()
    if isinstance(view, EditAnswer):
        return answer.custom_text or ""
    if view.option_value is None:
        return answer.note or ""
    return answer.option_note(view.option_value) or ""


def tab_states(state: AskState) -> tuple[TabState, ...]:
    """The tab row: one tab per question, then the review tab."""
    tabs = tuple(
        TabState(question.label, is_answered(state, question.id), index == state.tab)
        for index, question in enumerate(state.questions)
    )
    review = TabState(REVIEW_TAB, False, is_review_tab(state), is_review=True)
    return (*tabs, review)


def footer_notice(state: AskState) -> str | None:
    """The footer notice slot: the flow's own notice, else the config-load notice."""
    return state.notice or state.config_notice


def review_hint(state: AskState, behaviour: Behaviour) -> str | None:
    """The review double-press hint (behaviour.md §6.5), or ``None`` when not shown."""
    if not (is_review_tab(state) and behaviour.double_press_review_shortcuts):
        return None
    digit = state.pending_review_digit
    if digit is None:
        return REVIEW_IDLE_HINT
    return REVIEW_PENDING_HINT.format(digit=digit, action=REVIEW_ACTIONS[digit - 1])


def is_draft_change(before: AskState, after: AskState) -> bool:
    """A change worth a draft: answers or presented types changed, or the flow ended.

    Every face calls its ``on_commit`` hook on exactly these changes, never on a cursor move
    or a keystroke inside an editor.
    """
    return (
        before.answers != after.answers
        or before.questions != after.questions
        or before.completed != after.completed
    )
