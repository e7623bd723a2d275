"""The JSON Schema of the ``ask_user`` result, as data (draft 2020-12).

Two views of one schema: ``details_schema()`` is the ``details`` object alone — what the MCP
face returns as ``structuredContent`` and advertises as the tool's ``outputSchema`` — and
``result_schema()`` the whole result ``{"content": [...], "details": {...}}`` that
``pi-ask ask`` prints, with ``details`` as a reference to the very same definition.

The schema says exactly what ``results.py`` writes: objects are closed, so a field added to
the wire form without a word here fails the face tests that validate every result against it.
"""

from __future__ import annotations

import copy
from typing import Final

from pi_ask.contract.payload import QUESTION_TYPES
from pi_ask.contract.results import JsonObject
from pi_ask.contract.schema import SCHEMA_DIALECT


def _closed(properties: JsonObject, required: list[str], description: str) -> JsonObject:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _strings(description: str) -> JsonObject:
    return {"type": "array", "items": {"type": "string"}, "description": description}


_STRING: Final[JsonObject] = {"type": "string"}
_REF = "#/$defs/"

_QUESTION_PROPERTIES: Final[JsonObject] = {
    "id": _STRING,
    "label": _STRING,
    "prompt": _STRING,
    "type": {"$ref": _REF + "questionType"},
    "presentedType": {"$ref": _REF + "questionType"},
}
_QUESTION_REQUIRED: Final = ["id", "label", "prompt", "type"]

_DEFS: Final[JsonObject] = {
    "answer": _closed(
        {
            "values": _strings("Values of the chosen options, custom text last."),
            "labels": _strings("Labels of the chosen options, custom text last."),
            "indices": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "description": "1-based positions of the chosen options.",
            },
            "customText": {"type": "string", "description": "The typed answer, when there is one."},
            "note": {"type": "string", "description": "The user's note on the whole question."},
            "optionNotes": {
                "type": "object",
                "additionalProperties": _STRING,
                "description": "Notes on selected options, by option value.",
            },
        },
        ["values", "labels", "indices"],
        "One question's answer.",
    ),
    "answers": {
        "type": "object",
        "additionalProperties": {"$ref": _REF + "answer"},
        "description": "Answers by question id; unanswered questions are absent.",
    },
    "questionType": {"type": "string", "enum": list(QUESTION_TYPES)},
    "question": _closed(
        _QUESTION_PROPERTIES,
        _QUESTION_REQUIRED,
        "A question as asked; presentedType is there when it was shown as another type.",
    ),
    "option": _closed(
        {
            "value": _STRING,
            "label": _STRING,
            "description": _STRING,
            "preview": _STRING,
            "recommended": {"type": "boolean"},
        },
        ["value", "label"],
        "An option as the payload declared it (normalized).",
    ),
    "questionContext": _closed(
        {
            **_QUESTION_PROPERTIES,
            "options": {"type": "array", "items": {"$ref": _REF + "option"}},
        },
        [*_QUESTION_REQUIRED, "options"],
        "A question with its options, as an elaboration item carries it.",
    ),
    "elaborationItem": {
        "type": "object",
        "properties": {
            "target": {
                "oneOf": [
                    _closed({"kind": {"const": "question"}}, ["kind"], "A note on the question."),
                    _closed(
                        {"kind": {"const": "option"}, "optionValue": _STRING},
                        ["kind", "optionValue"],
                        "A note on one option.",
                    ),
                ]
            },
            "question": {"$ref": _REF + "questionContext"},
            "option": {"$ref": _REF + "option"},
            "selected": {"type": "boolean"},
            "answered": {"type": "boolean"},
            "answer": {"$ref": _REF + "answer"},
            "note": _STRING,
        },
        "required": ["target", "question", "answered", "note"],
        "additionalProperties": False,
        "description": "One note the user wants the agent to answer before re-asking.",
    },
}

_DETAILS: Final[JsonObject] = _closed(
    {
        "title": {"type": "string", "description": "The payload's title, when it had one."},
        "cancelled": {
            "type": "boolean",
            "description": "True when there is no answer to act on: see reason (or error).",
        },
        "reason": {
            "type": "string",
            "enum": ["cancelled", "no_terminal", "timeout", "aborted"],
            "description": (
                "Why a cancelled result has no answer: cancelled (the user cancelled), "
                "no_terminal (nobody could be asked), timeout (the deadline passed), aborted "
                "(the host, a signal or a hang-up ended it). Absent when there is an answer "
                "or an error."
            ),
        },
        "error": _closed(
            {
                "kind": {"const": "invalid_input"},
                "issues": {
                    "type": "array",
                    "items": _closed(
                        {"path": _STRING, "message": _STRING},
                        ["path", "message"],
                        "One problem: a 0-based JSON path into the payload and a message.",
                    ),
                },
            },
            ["kind", "issues"],
            "Present when the payload was invalid; nothing was asked.",
        ),
        "mode": {
            "type": "string",
            "enum": ["submit", "elaborate"],
            "description": "submit: act on the answers. elaborate: answer the notes first.",
        },
        "questions": {"type": "array", "items": {"$ref": _REF + "question"}},
        "answers": {"$ref": _REF + "answers"},
        "continuation": _closed(
            {
                "strategy": {"type": "string", "enum": ["refine_only", "resume"]},
                "affectedQuestionIds": _strings("Questions the notes are about."),
                "preservedAnswers": {"$ref": _REF + "answers"},
                "questionStates": {
                    "type": "object",
                    "additionalProperties": _closed(
                        {
                            "status": {
                                "type": "string",
                                "enum": ["answered", "needs_clarification", "unanswered"],
                            }
                        },
                        ["status"],
                        "Where one question stands.",
                    ),
                },
            },
            ["strategy", "affectedQuestionIds", "preservedAnswers", "questionStates"],
            "How to continue after an elaboration.",
        ),
        "elaboration": _closed(
            {
                "instruction": _STRING,
                "nextAction": {"type": "string", "enum": ["clarify", "clarify_then_reask"]},
                "items": {"type": "array", "items": {"$ref": _REF + "elaborationItem"}},
            },
            ["instruction", "nextAction", "items"],
            "The notes to answer, with their question and option context.",
        ),
    },
    ["cancelled", "mode", "questions", "answers"],
    "The structured part of an ask_user result.",
)


def details_schema() -> JsonObject:
    """The schema of ``details`` alone: the MCP tool's ``outputSchema`` (a fresh copy).

    Example:
        >>> details_schema()["required"]
        ['cancelled', 'mode', 'questions', 'answers']
    """
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "ask_user result details",
        **copy.deepcopy(_DETAILS),
        "$defs": copy.deepcopy(_DEFS),
    }


def result_schema() -> JsonObject:
    """The schema of a whole result, as ``pi-ask schema --result`` prints it (a fresh copy).

    ``details`` refers to the same definition ``details_schema()`` returns, so the two can
    never disagree.
    """
    content = _closed(
        {"type": {"const": "text"}, "text": _STRING},
        ["type", "text"],
        "The message to hand back to the agent.",
    )
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "ask_user result",
        **_closed(
            {
                "content": {"type": "array", "items": content, "minItems": 1, "maxItems": 1},
                "details": {"$ref": _REF + "details"},
            },
            ["content", "details"],
            "What ask_user returns: text for the agent, and the structured details.",
        ),
        "$defs": {**copy.deepcopy(_DEFS), "details": copy.deepcopy(_DETAILS)},
    }
