"""The shape of an ``ask_user`` result document, checked in full (docs/contract.md "Output").

``check_result`` is the one schema check every hardening test runs on every result it sees,
whichever face made it: keys, types, camelCase, no ``null``, and, given the payload the
result answers, answers that agree with its options (indices match values and labels).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

import jsonschema

from pi_ask.contract.payload import AskPayload, Question
from pi_ask.contract.result_schema import result_schema
from pi_ask.contract.results import ToolResult

CANCELLED_TEXT = "User cancelled the ask flow"
REASONS = ("cancelled", "no_terminal", "timeout", "aborted")
INVALID_HEADING = "Invalid ask_user payload:"
QUESTION_TYPES = ("single", "multi", "preview")
STATUSES = ("answered", "needs_clarification", "unanswered")
_RESULT_VALIDATOR = jsonschema.Draft202012Validator(result_schema())
_CAMEL = re.compile(r"[a-z][A-Za-z0-9]*\Z")
# Objects keyed by payload data (question ids, option values), not by schema names.
_DATA_KEYED = frozenset({"answers", "optionNotes", "preservedAnswers", "questionStates"})


@dataclass(frozen=True, slots=True)
class _Asked:
    """A question of the result: the payload's question (when known), its presented type."""

    question: Question | None
    presented: str


class ShapeError(AssertionError):
    """The document does not have the result's shape; the message says where."""


def _fail(where: str, message: str) -> ShapeError:
    return ShapeError(f"{where}: {message}")


def _object(value: object, where: str, required: set[str], optional: set[str]) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _fail(where, f"expected an object, got {type(value).__name__}")
    keys = set(value)
    if missing := required - keys:
        raise _fail(where, f"missing keys {sorted(missing)}")
    if extra := keys - required - optional:
        raise _fail(where, f"unexpected keys {sorted(extra)}")
    return value


def _str(value: object, where: str, *, non_blank: bool = False) -> str:
    if not isinstance(value, str):
        raise _fail(where, f"expected a string, got {type(value).__name__}")
    if non_blank and (not value or value != value.strip()):
        raise _fail(where, f"expected non-blank trimmed text, got {value!r}")
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"expected true/false, got {value!r}")
    return value


def _strings(value: object, where: str) -> list[str]:
    if not isinstance(value, list):
        raise _fail(where, f"expected an array, got {type(value).__name__}")
    return [_str(item, f"{where}[{n}]") for n, item in enumerate(value)]


def _walk(value: object, where: str, *, data_keyed: bool = False) -> None:
    """No ``null`` anywhere; schema keys are camelCase; every value is plain JSON."""
    if value is None:
        raise _fail(where, "null is never written (absent fields are omitted)")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise _fail(where, f"non-string key {key!r}")
            if not data_keyed and not _CAMEL.match(key):
                raise _fail(where, f"key {key!r} is not camelCase")
            _walk(item, f"{where}.{key}", data_keyed=not data_keyed and key in _DATA_KEYED)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            _walk(item, f"{where}[{n}]")
    elif isinstance(value, float):
        raise _fail(where, f"no field of a result is a float, got {value!r}")
    elif not isinstance(value, str | bool | int):
        raise _fail(where, f"{type(value).__name__} is not a JSON value")


def check_result(document: object, payload: AskPayload | None = None) -> dict[str, object]:
    """Check a result document (``ToolResult.to_json()`` or parsed stdout) completely.

    Args:
        document: The result document.
        payload: The normalized payload the result answers, when known: then questions,
            labels, values and indices are checked against its options too.

    Returns:
        ``details``, for further checks by the caller.

    Raises:
        ShapeError: The first thing wrong, with its place in the document.
    """
    _walk(document, "result")
    # The published schema (pi-ask schema --result) must hold for whatever a face produced.
    _RESULT_VALIDATOR.validate(document)
    # ... and ToolResult.from_json reads it back to the same document.
    if ToolResult.from_json(json.dumps(document)).to_json() != document:
        raise _fail("result", "ToolResult.from_json does not read it back unchanged")
    # Through JSON and back unchanged: what a caller of the Python API holds is what stdout
    # would carry (no tuples, no lone surrogates, no NaN).
    text = json.dumps(document, ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")
    if json.loads(text) != document:
        raise _fail("result", "does not survive a JSON round trip unchanged")
    top = _object(document, "result", {"content", "details"}, set())
    content = top["content"]
    if not isinstance(content, list) or len(content) != 1:
        raise _fail("result.content", "expected exactly one text block")
    block = _object(content[0], "result.content[0]", {"type", "text"}, set())
    if block["type"] != "text":
        raise _fail("result.content[0].type", f"expected 'text', got {block['type']!r}")
    message = _str(block["text"], "result.content[0].text")
    details = _object(
        top["details"],
        "details",
        {"cancelled", "mode", "questions", "answers"},
        {"title", "reason", "error", "continuation", "elaboration"},
    )
    _check_details(details, message, payload)
    return details


def _check_details(details: dict[str, object], text: str, payload: AskPayload | None) -> None:
    cancelled = _bool(details["cancelled"], "details.cancelled")
    mode = details["mode"]
    if mode not in ("submit", "elaborate"):
        raise _fail("details.mode", f"unknown mode {mode!r}")
    if "title" in details:
        _str(details["title"], "details.title", non_blank=True)
    if "error" in details:
        _check_error(details, text)
        return
    if text.startswith(INVALID_HEADING):
        raise _fail("result.content[0].text", "invalid-payload text without details.error")
    questions = _check_questions(details["questions"], payload)
    answers = details["answers"]
    if not isinstance(answers, dict):
        raise _fail("details.answers", "expected an object")
    for qid, answer in answers.items():
        if qid not in questions:
            raise _fail(f"details.answers.{qid}", "answers a question that was not asked")
        record = _check_answer(answer, f"details.answers.{qid}", questions[qid])
        if mode == "elaborate" and not record["values"]:
            raise _fail(f"details.answers.{qid}", "elaborate mode keeps committed answers only")
    elaborated = "continuation" in details or "elaboration" in details
    if mode == "elaborate":
        if cancelled or not ("continuation" in details and "elaboration" in details):
            raise _fail("details", "elaborate mode: not cancelled, continuation + elaboration")
        _check_continuation(details["continuation"], questions)
        _check_elaboration(details["elaboration"], questions)
    elif elaborated:
        raise _fail("details", "continuation/elaboration belong to elaborate mode only")
    if cancelled != ("reason" in details):
        raise _fail("details.reason", "present exactly on cancelled results without an error")
    reason = details.get("reason")
    if reason is not None and reason not in REASONS:
        raise _fail("details.reason", f"unknown reason {reason!r}")
    if reason == "cancelled" and text != CANCELLED_TEXT:
        raise _fail("result.content[0].text", "a user's cancel says so")
    if reason in ("no_terminal", "timeout") and answers:
        raise _fail("details.answers", f"a {reason} result holds no answers")
    if not cancelled and not text:
        raise _fail("result.content[0].text", "a finished flow has a summary")


def _check_error(details: dict[str, object], text: str) -> None:
    error = _object(details["error"], "details.error", {"kind", "issues"}, set())
    if error["kind"] != "invalid_input" or details["cancelled"] is not True:
        raise _fail("details.error", "kind invalid_input on a cancelled result")
    if "reason" in details:
        raise _fail("details.reason", "an invalid payload has an error, not a reason")
    issues = error["issues"]
    if not isinstance(issues, list) or not issues:
        raise _fail("details.error.issues", "expected at least one issue")
    for n, issue in enumerate(issues):
        where = f"details.error.issues[{n}]"
        fields = _object(issue, where, {"path", "message"}, set())
        _str(fields["path"], f"{where}.path")
        _str(fields["message"], f"{where}.message", non_blank=True)
    if details["questions"] != [] or details["answers"] != {} or details["mode"] != "submit":
        raise _fail("details", "an invalid payload has no questions and no answers")
    if text.split("\n", maxsplit=1)[0] != INVALID_HEADING or text.count("\n") != len(issues):
        raise _fail("result.content[0].text", "heading plus one line per issue")


def _check_questions(value: object, payload: AskPayload | None) -> dict[str, _Asked]:
    if not isinstance(value, list):
        raise _fail("details.questions", "expected an array")
    if payload is not None and len(value) != len(payload.questions):
        raise _fail("details.questions", "one entry per payload question")
    found: dict[str, _Asked] = {}
    for n, entry in enumerate(value):
        where = f"details.questions[{n}]"
        meta = _object(entry, where, {"id", "label", "prompt", "type"}, {"presentedType"})
        qid = _str(meta["id"], f"{where}.id", non_blank=True)
        _str(meta["label"], f"{where}.label", non_blank=True)
        _str(meta["prompt"], f"{where}.prompt", non_blank=True)
        if meta["type"] not in QUESTION_TYPES:
            raise _fail(f"{where}.type", f"unknown type {meta['type']!r}")
        presented = meta.get("presentedType", meta["type"])
        redundant = "presentedType" in meta and presented == meta["type"]
        if presented not in QUESTION_TYPES or redundant:
            raise _fail(f"{where}.presentedType", "only a type other than the requested one")
        if qid in found:
            raise _fail(f"{where}.id", f"duplicate question id {qid!r}")
        question = payload.questions[n] if payload is not None else None
        if question is not None and (
            (qid, meta["label"], meta["prompt"], meta["type"])
            != (question.id, question.label, question.prompt, question.requested_type)
        ):
            raise _fail(where, "differs from the payload's question")
        found[qid] = _Asked(question, presented)
    return found


def _check_answer(value: object, where: str, asked: _Asked) -> dict[str, object]:
    record = _object(
        value, where, {"values", "labels", "indices"}, {"customText", "note", "optionNotes"}
    )
    values = _strings(record["values"], f"{where}.values")
    labels = _strings(record["labels"], f"{where}.labels")
    indices = record["indices"]
    if not isinstance(indices, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and i >= 1 for i in indices
    ):
        raise _fail(f"{where}.indices", f"expected 1-based positions, got {indices!r}")
    if len(set(indices)) != len(indices):
        raise _fail(f"{where}.indices", "an option is selected at most once")
    custom = record.get("customText")
    extra = 0 if custom is None else 1
    if custom is not None and (
        _str(custom, f"{where}.customText", non_blank=True) != values[-1] or custom != labels[-1]
    ):
        raise _fail(f"{where}.customText", "custom text comes last in values and labels")
    if not len(values) == len(labels) == len(indices) + extra:
        raise _fail(where, "values, labels and indices (+ custom text) do not line up")
    if "note" in record:
        _str(record["note"], f"{where}.note", non_blank=True)
    notes = record.get("optionNotes", {})
    if not isinstance(notes, dict) or (not notes and "optionNotes" in record):
        raise _fail(f"{where}.optionNotes", "a non-empty object when present")
    for key, note in notes.items():
        _str(note, f"{where}.optionNotes.{key}", non_blank=True)
        if key not in values[: len(indices)]:
            raise _fail(f"{where}.optionNotes.{key}", "option notes of selected options only")
    if not (values or "note" in record or notes):
        raise _fail(where, "an empty answer is left out")
    if len(values) > 1 and asked.presented != "multi":
        raise _fail(where, f"a {asked.presented} question with {len(values)} choices")
    if asked.question is not None:
        _check_against_options(where, asked.question, values, labels, indices)
    return record


def _check_against_options(
    where: str, question: Question, values: list[str], labels: list[str], indices: list[int]
) -> None:
    options = question.options
    for k, index in enumerate(indices):
        if index > len(options):
            raise _fail(f"{where}.indices[{k}]", f"{index} is past the {len(options)} options")
        option = options[index - 1]
        if (values[k], labels[k]) != (option.value, option.label):
            raise _fail(f"{where}.indices[{k}]", "value/label are not those of the option")


def _check_continuation(value: object, questions: Mapping[str, _Asked]) -> None:
    where = "details.continuation"
    body = _object(
        value,
        where,
        {"strategy", "affectedQuestionIds", "preservedAnswers", "questionStates"},
        set(),
    )
    if body["strategy"] != "refine_only":
        raise _fail(f"{where}.strategy", f"got {body['strategy']!r}")
    affected = _strings(body["affectedQuestionIds"], f"{where}.affectedQuestionIds")
    preserved = body["preservedAnswers"]
    states = body["questionStates"]
    if not isinstance(preserved, dict) or not isinstance(states, dict):
        raise _fail(where, "preservedAnswers and questionStates are objects")
    if list(states) != list(questions):
        raise _fail(f"{where}.questionStates", "one state per question, in order")
    for qid, state in states.items():
        status = _object(state, f"{where}.questionStates.{qid}", {"status"}, set())["status"]
        if status not in STATUSES:
            raise _fail(f"{where}.questionStates.{qid}", f"unknown status {status!r}")
        if (status == "needs_clarification") != (qid in affected):
            raise _fail(where, f"{qid}: affected exactly when it needs clarification")
        if (status == "answered") != (qid in preserved):
            raise _fail(where, f"{qid}: preserved exactly when answered")
    for qid, record in preserved.items():
        if qid not in questions:
            raise _fail(f"{where}.preservedAnswers.{qid}", "not a question of the result")
        _check_answer(record, f"{where}.preservedAnswers.{qid}", questions[qid])


def _check_elaboration(value: object, questions: Mapping[str, _Asked]) -> None:
    where = "details.elaboration"
    body = _object(value, where, {"instruction", "nextAction", "items"}, set())
    _str(body["instruction"], f"{where}.instruction", non_blank=True)
    if body["nextAction"] not in ("clarify", "clarify_then_reask"):
        raise _fail(f"{where}.nextAction", f"got {body['nextAction']!r}")
    items = body["items"]
    if not isinstance(items, list):
        raise _fail(f"{where}.items", "expected an array")
    for n, item in enumerate(items):
        _check_item(item, f"{where}.items[{n}]", questions)


def _check_item(value: object, where: str, questions: Mapping[str, _Asked]) -> None:
    item = _object(
        value,
        where,
        {"target", "question", "answered", "note"},
        {"answer", "option", "selected"},
    )
    _str(item["note"], f"{where}.note", non_blank=True)
    answered = _bool(item["answered"], f"{where}.answered")
    if answered != ("answer" in item):
        raise _fail(where, "an answered item carries its answer, and only then")
    context = _object(
        item["question"],
        f"{where}.question",
        {"id", "label", "prompt", "type", "options"},
        {"presentedType"},
    )
    qid = context["id"]
    if not isinstance(qid, str) or qid not in questions:
        raise _fail(f"{where}.question.id", f"{qid!r} is not a question of the result")
    options = context["options"]
    if not isinstance(options, list) or not options:
        raise _fail(f"{where}.question.options", "the full option list")
    values = []
    for k, option in enumerate(options):
        fields = _object(
            option,
            f"{where}.question.options[{k}]",
            {"value", "label"},
            {"description", "preview", "recommended"},
        )
        values.append(fields["value"])
    target = item["target"]
    if target == {"kind": "question"}:
        if {"option", "selected"} & set(item):
            raise _fail(where, "a question item has no option")
    else:
        body = _object(target, f"{where}.target", {"kind", "optionValue"}, set())
        if body["kind"] != "option" or body["optionValue"] not in values:
            raise _fail(f"{where}.target", "an option target names one of the options")
        if not ({"option", "selected"} <= set(item)):
            raise _fail(where, "an option item carries its option and whether it is selected")
        _bool(item["selected"], f"{where}.selected")
    if "answer" in item:
        _check_answer(item["answer"], f"{where}.answer", questions[qid])
