"""Reading an ``ask_user`` result back from its JSON: ``ToolResult.from_json``.

The inverse of the ``to_json`` methods in ``results.py``, checked field by field: a document
that is not a result raises ``ValueError`` naming the first wrong field (``details.mode: expected
one of submit, elaborate``), never a ``KeyError`` from deep inside.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.kinds import CANCEL_REASONS, Issue, QuestionStatus
from pi_ask.contract.payload import QUESTION_TYPES, Option, Question, QuestionType
from pi_ask.contract.results import (
    AnswerRecord,
    Continuation,
    Elaboration,
    ElaborationItem,
    ResultDetails,
    ToolResult,
)

_T = TypeVar("_T")
_STATUSES: tuple[QuestionStatus, ...] = ("answered", "needs_clarification", "unanswered")


def read_result(document: str | bytes | Mapping[str, Any]) -> ToolResult:
    """A ``ToolResult`` from JSON text or a decoded object; see ``ToolResult.from_json``."""
    if isinstance(document, str | bytes):
        try:
            document = json.loads(document)
        except ValueError as err:
            raise ValueError(f"result: not JSON: {err}") from None
    top = _object(document, "result")
    content = _list(top.get("content"), "content")
    if len(content) != 1:
        raise ValueError("content: expected exactly one text block")
    block = _object(content[0], "content[0]")
    if block.get("type") != "text":
        raise ValueError("content[0].type: expected 'text'")
    return ToolResult(_str(block.get("text"), "content[0].text"), _details(top.get("details")))


def _details(value: object) -> ResultDetails:
    where = "details"
    details = _object(value, where)
    questions = _list(details.get("questions"), f"{where}.questions")
    error = details.get("error")
    return ResultDetails(
        cancelled=_bool(details.get("cancelled"), f"{where}.cancelled"),
        mode=_choice(details.get("mode"), ("submit", "elaborate"), f"{where}.mode"),
        title=_optional(details, "title", where, _str),
        questions=tuple(_question(q, f"{where}.questions[{n}]") for n, q in enumerate(questions)),
        answers=_answers(details.get("answers"), f"{where}.answers"),
        continuation=_optional(details, "continuation", where, _continuation),
        elaboration=_optional(details, "elaboration", where, _elaboration),
        error_issues=None if error is None else _issues(error, f"{where}.error"),
        reason=_optional(details, "reason", where, lambda v, w: _choice(v, CANCEL_REASONS, w)),
    )


def _question(value: object, where: str, *, with_options: bool = False) -> Question:
    question = _object(value, where)
    requested = _question_type(question.get("type"), f"{where}.type")
    presented = _optional(question, "presentedType", where, _question_type)
    options: tuple[Option, ...] = ()
    if with_options:
        listed = _list(question.get("options"), f"{where}.options")
        options = tuple(_option(o, f"{where}.options[{n}]") for n, o in enumerate(listed))
    return Question(
        id=_str(question.get("id"), f"{where}.id"),
        label=_str(question.get("label"), f"{where}.label"),
        prompt=_str(question.get("prompt"), f"{where}.prompt"),
        type=presented or requested,
        requested_type=requested,
        options=options,
    )


def _question_type(value: object, where: str) -> QuestionType:
    return _choice(value, QUESTION_TYPES, where)


def _option(value: object, where: str) -> Option:
    option = _object(value, where)
    return Option(
        value=_str(option.get("value"), f"{where}.value"),
        label=_str(option.get("label"), f"{where}.label"),
        description=_optional(option, "description", where, _str),
        preview=_optional(option, "preview", where, _str),
        recommended=_optional(option, "recommended", where, _bool),
    )


def _answers(value: object, where: str) -> dict[str, AnswerRecord]:
    answers = _object(value, where)
    return {qid: _answer(record, f"{where}.{qid}") for qid, record in answers.items()}


def _answer(value: object, where: str) -> AnswerRecord:
    record = _object(value, where)
    indices = _list(record.get("indices"), f"{where}.indices")
    for n, index in enumerate(indices):
        if not isinstance(index, int) or isinstance(index, bool):
            raise ValueError(f"{where}.indices[{n}]: expected an integer")
    notes = _object(record.get("optionNotes", {}), f"{where}.optionNotes")
    return AnswerRecord(
        values=_strings(record.get("values"), f"{where}.values"),
        labels=_strings(record.get("labels"), f"{where}.labels"),
        indices=tuple(cast("list[int]", indices)),
        custom_text=_optional(record, "customText", where, _str),
        note=_optional(record, "note", where, _str),
        option_notes=tuple((k, _str(v, f"{where}.optionNotes.{k}")) for k, v in notes.items()),
        attachments=tuple(
            _attachment(item, f"{where}.attachments[{n}]")
            for n, item in enumerate(_list(record.get("attachments", []), f"{where}.attachments"))
        ),
    )


def _attachment(value: object, where: str) -> Attachment:
    item = _object(value, where)
    size = item.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ValueError(f"{where}.size: expected a whole number of bytes")
    return Attachment(
        path=_str(item.get("path"), f"{where}.path"),
        name=_str(item.get("name"), f"{where}.name"),
        size=size,
        media_type=_str(item.get("media_type"), f"{where}.media_type"),
    )


def _continuation(value: object, where: str) -> Continuation:
    continuation = _object(value, where)
    states = _object(continuation.get("questionStates"), f"{where}.questionStates")
    preserved = _answers(continuation.get("preservedAnswers"), f"{where}.preservedAnswers")
    return Continuation(
        affected_question_ids=_strings(
            continuation.get("affectedQuestionIds"), f"{where}.affectedQuestionIds"
        ),
        preserved_answers=tuple(preserved.items()),
        question_states=tuple(
            (qid, _status(state, f"{where}.questionStates.{qid}")) for qid, state in states.items()
        ),
        strategy=_choice(
            continuation.get("strategy"), ("refine_only", "resume"), f"{where}.strategy"
        ),
    )


def _status(value: object, where: str) -> QuestionStatus:
    return _choice(_object(value, where).get("status"), _STATUSES, f"{where}.status")


def _elaboration(value: object, where: str) -> Elaboration:
    elaboration = _object(value, where)
    items = _list(elaboration.get("items"), f"{where}.items")
    return Elaboration(
        items=tuple(_item(item, f"{where}.items[{n}]") for n, item in enumerate(items)),
        instruction=_str(elaboration.get("instruction"), f"{where}.instruction"),
        next_action=_choice(
            elaboration.get("nextAction"), ("clarify", "clarify_then_reask"), f"{where}.nextAction"
        ),
    )


def _item(value: object, where: str) -> ElaborationItem:
    item = _object(value, where)
    target = _object(item.get("target"), f"{where}.target")
    kind = _choice(target.get("kind"), ("question", "option"), f"{where}.target.kind")
    return ElaborationItem(
        question=_question(item.get("question"), f"{where}.question", with_options=True),
        note=_str(item.get("note"), f"{where}.note"),
        answered=_bool(item.get("answered"), f"{where}.answered"),
        answer=_optional(item, "answer", where, _answer),
        option=_option(item.get("option"), f"{where}.option") if kind == "option" else None,
        selected=_bool(item.get("selected"), f"{where}.selected") if kind == "option" else False,
    )


def _issues(value: object, where: str) -> tuple[Issue, ...]:
    error = _object(value, where)
    if error.get("kind") != "invalid_input":
        raise ValueError(f"{where}.kind: expected 'invalid_input'")
    issues = _list(error.get("issues"), f"{where}.issues")
    found = []
    for n, issue in enumerate(issues):
        at = f"{where}.issues[{n}]"
        fields = _object(issue, at)
        found.append(
            Issue(
                _str(fields.get("path"), f"{at}.path"), _str(fields.get("message"), f"{at}.message")
            )
        )
    return tuple(found)


# Typed field readers: each names the field it was given when the value is wrong.


def _object(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected an object")
    return cast("Mapping[str, object]", value)


def _list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected an array")
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: expected a string")
    return value


def _strings(value: object, where: str) -> tuple[str, ...]:
    return tuple(_str(item, f"{where}[{n}]") for n, item in enumerate(_list(value, where)))


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{where}: expected true or false")
    return value


def _choice(value: object, allowed: tuple[_T, ...], where: str) -> _T:
    for choice in allowed:
        if value == choice:
            return choice
    raise ValueError(f"{where}: expected one of {', '.join(map(str, allowed))}")


def _optional(
    fields: Mapping[str, object], key: str, where: str, read: Callable[[object, str], _T]
) -> _T | None:
    """``read(value)`` when ``key`` is present, else ``None`` (absent fields are omitted)."""
    return None if key not in fields else read(fields[key], f"{where}.{key}")
