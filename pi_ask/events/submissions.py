"""Remote submissions: the ``submit`` envelope and the answers it carries, checked (pure).

Both checks follow behaviour.md §13 and stop at the first failure; their messages are
contract. A valid answer becomes the engine command it applies (``ReplaceAnswers`` or
``Abort``), so labels and indices are recomputed by the same engine code the TUI uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from pi_ask.contract.payload import Question
from pi_ask.state.commands import Abort, ReplaceAnswers, SubmittedAnswer

SubmitErrorCode = Literal["invalid_request", "flow_not_found", "invalid_answer"]

# A validated submission is handed to the face as the engine command it applies.
RemoteResponse = ReplaceAnswers | Abort


@dataclass(frozen=True, slots=True)
class SubmitFailure:
    """Why a submission was refused: the ``error`` code and exact ``message`` of §13."""

    error: SubmitErrorCode
    message: str


def _invalid(message: str) -> SubmitFailure:
    return SubmitFailure("invalid_answer", message)


def _submitted(question: Question, raw: Mapping[str, object]) -> SubmittedAnswer | SubmitFailure:
    """One question's answer, checked in the fixed order of behaviour.md §13."""
    qid = question.id
    values = raw.get("values", [])
    if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
        return _invalid(f'Answer values for question "{qid}" must be strings.')
    if len(set(values)) != len(values):
        return _invalid(f'Answer values for question "{qid}" must be unique.')
    if question.type != "multi" and len(values) > 1:
        return _invalid(f'Question "{qid}" accepts only one selected value.')
    custom = raw.get("customText", "")
    if not isinstance(custom, str):
        return _invalid(f'Custom text for question "{qid}" must be a string.')
    if custom.strip() and question.type != "multi" and values:
        return _invalid(f'Question "{qid}" cannot combine a selected value and custom text.')
    note = raw.get("note", "")
    if not isinstance(note, str):
        return _invalid(f'Note for question "{qid}" must be a string.')
    notes = raw.get("optionNotes", {})
    if not (isinstance(notes, dict) and all(isinstance(n, str) for n in notes.values())):
        return _invalid(f'Option notes for question "{qid}" must be string values.')
    # Freeform rows of `pi-ask answer` forms stand for the editor, not for a choice.
    known = {o.value for o in question.options if not o.freeform}
    for value in values:
        if value not in known:
            return _invalid(f'Unknown option value "{value}" for question "{qid}".')
    for value, text in notes.items():
        if text.strip() and value not in known:
            return _invalid(f'Unknown option note value "{value}" for question "{qid}".')
    return SubmittedAnswer(
        values=tuple(values),
        custom_text=custom,
        note=note,
        option_notes=tuple((v, t) for v, t in notes.items() if t.strip()),
    )


def parse_remote_response(
    questions: Iterable[Question], response: Mapping[str, object]
) -> RemoteResponse | SubmitFailure:
    """Validate a submission's ``response`` against the flow's questions (pure).

    Values must equal the questions' normalized option values (never guessed from labels);
    the engine recomputes labels and indices when it applies the command. The first failure
    wins, questions checked in the order the submission lists them.

    Args:
        questions: the flow's questions, with their currently presented types.
        response: ``{kind: "cancel"}`` or ``{kind: "answer", answers, mode?}``.

    Returns:
        ``Abort()`` for a cancel, ``ReplaceAnswers`` for an answer, or the failure.

    Example:
        >>> parse_remote_response((), {"kind": "answer", "answers": {"q9": {}}}).message
        'Unknown question id "q9".'
    """
    if response.get("kind") == "cancel":
        # The user cancelled in another face: a cancel, not an abort (python-port.md §11).
        return Abort(reason="cancelled")
    answers = response.get("answers")
    if not isinstance(answers, dict):
        return _invalid("Answer response must include an answers object.")
    mode = response.get("mode")
    if mode is not None and mode not in ("submit", "elaborate"):
        return _invalid('Answer mode must be "submit" or "elaborate".')
    by_id = {q.id: q for q in questions}
    submitted: list[tuple[str, SubmittedAnswer]] = []
    for qid, raw in answers.items():
        question = by_id.get(qid)
        if question is None:
            return _invalid(f'Unknown question id "{qid}".')
        if not isinstance(raw, dict):
            return _invalid(f'Answer for question "{qid}" must be an object.')
        answer = _submitted(question, raw)
        if isinstance(answer, SubmitFailure):
            return answer
        submitted.append((qid, answer))
    return ReplaceAnswers(tuple(submitted), "elaborate" if mode == "elaborate" else "submit")


@dataclass(frozen=True, slots=True)
class SubmitRequest:
    """A request that passed the ``invalid_request`` checks."""

    request_id: str
    flow_id: str
    response: Mapping[str, object]


def parse_submit_request(data: object) -> SubmitRequest | tuple[str, str, SubmitFailure]:
    """Check a ``submit`` event's envelope (behaviour.md §13, first failure wins).

    Returns:
        The request, or ``(requestId, flowId, failure)`` with the ids echoed as given or ``""``.
    """

    def refuse(
        message: str, request_id: str = "", flow_id: str = ""
    ) -> tuple[str, str, SubmitFailure]:
        return request_id, flow_id, SubmitFailure("invalid_request", message)

    if not isinstance(data, dict):
        return refuse("Submit event must be an object.")
    request_id = data.get("requestId")
    flow_id = data.get("flowId")
    rid = request_id if isinstance(request_id, str) else ""
    fid = flow_id if isinstance(flow_id, str) else ""
    if data.get("version") != 1 or isinstance(data.get("version"), bool):
        return refuse("Submit event version must be 1.", rid, fid)
    if not rid:
        return refuse("Submit event requestId is required.", rid, fid)
    if not fid:
        return refuse("Submit event flowId is required.", rid, fid)
    response = data.get("response")
    if not isinstance(response, dict):
        return refuse("Submit response must be an object.", rid, fid)
    if response.get("kind") not in ("answer", "cancel"):
        return refuse('Submit response kind must be "answer" or "cancel".', rid, fid)
    return SubmitRequest(rid, fid, response)
