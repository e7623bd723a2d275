"""Building the tool result from a finished flow (behaviour.md §1.4, §3.1, §4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.contract.kinds import CancelReason, QuestionStatus
from pi_ask.contract.payload import AskPayload, Question
from pi_ask.contract.results import (
    AnswerRecord,
    Continuation,
    Elaboration,
    ElaborationItem,
    ResultDetails,
    ToolResult,
)
from pi_ask.state.summary import summary_text

if TYPE_CHECKING:
    from pi_ask.state.model import Answer, AskState


def serialize_answer(answer: Answer) -> AnswerRecord:
    """The wire form of an answer (§1.4).

    Custom text counts only while selected and comes after the options; indices cover the
    options only; option notes only for selected options, in selection order.
    """
    custom = answer.custom_text if answer.custom_selected and answer.custom_text else None
    extra = (custom,) if custom is not None else ()
    return AnswerRecord(
        values=(*(s.value for s in answer.selected), *extra),
        labels=(*(s.label for s in answer.selected), *extra),
        indices=tuple(s.number for s in answer.selected),
        custom_text=custom,
        note=answer.note,
        option_notes=tuple(
            (s.value, note) for s in answer.selected if (note := answer.option_note(s.value))
        ),
        attachments=answer.attachments,
    )


def build_result(state: AskState) -> ToolResult:
    """The tool result of a finished flow: cancelled, submitted or elaborated.

    Cancelled results keep the answers present at cancel time (python-port.md §6
    decision 8); only their text hides them. A ``timeout`` result keeps none: its text says
    the answers are empty, and the drafts stay in the session log for resume.

    Args:
        state: The flow state, normally ``completed``.

    Returns:
        The summary text (§4.6) and the structured details.
    """
    records = tuple((qid, serialize_answer(a)) for qid, a in state.answers)
    if state.cancelled:
        reason = state.cancel_reason or "cancelled"
        kept = () if reason == "timeout" else records
        return _cancelled(state.title, state.questions, reason, kept)
    if state.mode == "submit":
        details = ResultDetails(
            cancelled=False,
            mode="submit",
            title=state.title,
            questions=state.questions,
            answers={qid: r for qid, r in records if not r.is_empty},
        )
        return ToolResult(summary_text(details), details)
    details = ResultDetails(
        cancelled=False,
        mode="elaborate",
        title=state.title,
        questions=state.questions,
        answers={qid: r for qid, r in records if r.is_committed},
        continuation=_continuation(state),
        elaboration=Elaboration(items=_elaboration_items(state)),
    )
    return ToolResult(summary_text(details), details)


def _continuation(state: AskState) -> Continuation:
    """Which questions to revisit (any note) and which answers to keep (§4.3)."""
    from pi_ask.state.selectors import answer_for

    affected: list[str] = []
    preserved: list[tuple[str, AnswerRecord]] = []
    statuses: list[tuple[str, QuestionStatus]] = []
    for question in state.questions:
        answer = answer_for(state, question.id)
        record = serialize_answer(answer) if answer is not None else AnswerRecord()
        if answer is not None and answer.has_notes:
            affected.append(question.id)
            statuses.append((question.id, "needs_clarification"))
        elif record.is_committed:
            preserved.append((question.id, record))
            statuses.append((question.id, "answered"))
        else:
            statuses.append((question.id, "unanswered"))
    return Continuation(tuple(affected), tuple(preserved), tuple(statuses))


def _elaboration_items(state: AskState) -> tuple[ElaborationItem, ...]:
    """Every question note, then every option note (first-written order), per question."""
    from pi_ask.state.selectors import answer_for

    items: list[ElaborationItem] = []
    for question in state.questions:
        answer = answer_for(state, question.id)
        if answer is not None:
            items.extend(_items_for(question, answer))
    return tuple(items)


def _items_for(question: Question, answer: Answer) -> list[ElaborationItem]:
    answered = answer.is_answered
    record = serialize_answer(answer) if answered else None
    items: list[ElaborationItem] = []
    if answer.note is not None:
        items.append(ElaborationItem(question, answer.note, answered, record))
    options = {o.value: o for o in question.options}
    for value, note in answer.option_notes:
        option = options.get(value)
        if option is not None:
            selected = answer.is_selected(value)
            items.append(ElaborationItem(question, note, answered, record, option, selected))
    return items


def non_interactive_result(payload: AskPayload, reason: CancelReason = "no_terminal") -> ToolResult:
    """The result when nobody answered: the questions listed for the agent (§3.1, §11).

    Args:
        payload: The normalized payload.
        reason: Why: ``no_terminal`` (nobody could be asked) or ``timeout`` (nobody answered
            in time); any reason is accepted, so a face that never opened a flow can say
            ``aborted`` too.

    Returns:
        A cancelled result with empty answers; for ``no_terminal`` and ``timeout`` the
        "Needs user input" text and the reason's line.
    """
    return _cancelled(payload.title, payload.questions, reason, ())


def _cancelled(
    title: str | None,
    questions: tuple[Question, ...],
    reason: CancelReason,
    records: tuple[tuple[str, AnswerRecord], ...],
) -> ToolResult:
    details = ResultDetails(
        cancelled=True,
        mode="submit",
        title=title,
        questions=questions,
        answers={qid: r for qid, r in records if not r.is_empty},
        reason=reason,
    )
    return ToolResult(summary_text(details), details)
