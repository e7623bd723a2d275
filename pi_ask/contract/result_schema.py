"""The JSON Schema of the result's ``details`` object (draft 2020-12), as data.

It describes what ``ResultDetails.to_json`` writes: the MCP face advertises it as the
``ask_user`` output schema (``structuredContent`` is ``details``), and a test validates the
details of every kind of result against it. Objects stay open (``additionalProperties`` is not
restricted), so a later field does not break a client that checked an older schema.
"""

from __future__ import annotations

import copy
from typing import Final

from pi_ask.contract.kinds import CANCEL_REASONS, JsonObject
from pi_ask.contract.payload import QUESTION_TYPES
from pi_ask.contract.schema import SCHEMA_DIALECT

_STRINGS: Final[JsonObject] = {"type": "array", "items": {"type": "string"}}

_ANSWER: Final[JsonObject] = {
    "type": "object",
    "description": "One question's answer: the chosen options, then any typed answer.",
    "properties": {
        "values": {**_STRINGS, "description": "Option values, then the typed answer if any."},
        "labels": {**_STRINGS, "description": "Option labels, then the typed answer if any."},
        "indices": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1},
            "description": "1-based positions of the chosen options (typed answers have none).",
        },
        "customText": {"type": "string", "description": "The typed answer, when one was given."},
        "note": {"type": "string", "description": "The user's note on the question."},
        "optionNotes": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Notes on chosen options, by option value.",
        },
        "attachments": {
            "type": "array",
            "description": (
                "Files the user attached (a pi-ask extension): copies in the ask's private "
                "folder, in the order attached."
            ),
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "The copy's absolute path."},
                    "name": {"type": "string", "description": "The file's own name."},
                    "size": {"type": "integer", "minimum": 0, "description": "In bytes."},
                    "media_type": {"type": "string", "description": "e.g. image/png."},
                },
                "required": ["path", "name", "size", "media_type"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["values", "labels", "indices"],
}

_QUESTION: Final[JsonObject] = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "label": {"type": "string"},
        "prompt": {"type": "string"},
        "type": {"type": "string", "enum": list(QUESTION_TYPES)},
        "presentedType": {
            "type": "string",
            "enum": list(QUESTION_TYPES),
            "description": "The type the user saw, when it differs from the requested one.",
        },
    },
    "required": ["id", "label", "prompt", "type"],
}

_OPTION: Final[JsonObject] = {
    "type": "object",
    "properties": {
        "value": {"type": "string"},
        "label": {"type": "string"},
        "description": {"type": "string"},
        "preview": {"type": "string"},
        "recommended": {"type": "boolean"},
    },
    "required": ["value", "label"],
}

_ELABORATION_ITEM: Final[JsonObject] = {
    "type": "object",
    "properties": {
        "target": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["question", "option"]},
                "optionValue": {"type": "string"},
            },
            "required": ["kind"],
        },
        "question": {
            **_QUESTION,
            "properties": {
                **_QUESTION["properties"],  # type: ignore[dict-item]
                "options": {"type": "array", "items": _OPTION},
            },
        },
        "option": _OPTION,
        "selected": {"type": "boolean"},
        "answered": {"type": "boolean"},
        "answer": _ANSWER,
        "note": {"type": "string"},
    },
    "required": ["target", "question", "answered", "note"],
}

RESULT_DETAILS_SCHEMA: Final[JsonObject] = {
    "$schema": SCHEMA_DIALECT,
    "title": "ask_user result details",
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "cancelled": {
            "type": "boolean",
            "description": "True when there is no usable answer: see reason, or error.",
        },
        "reason": {
            "type": "string",
            "enum": list(CANCEL_REASONS),
            "description": (
                "Why a cancelled result has no answer: cancelled (the user cancelled), "
                "no_terminal (nobody could be asked), timeout (the deadline passed), aborted "
                "(the host or a signal ended the ask)."
            ),
        },
        "error": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "const": "invalid_input"},
                "issues": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}, "message": {"type": "string"}},
                        "required": ["path", "message"],
                    },
                },
            },
            "required": ["kind", "issues"],
        },
        "mode": {"type": "string", "enum": ["submit", "elaborate"]},
        "questions": {
            "type": "array",
            "items": {
                **_QUESTION,
                "properties": {
                    **_QUESTION["properties"],  # type: ignore[dict-item]
                    "options": {
                        "type": "array",
                        "items": _OPTION,
                        "description": "Over MCP, a no_terminal result's questions carry them.",
                    },
                },
            },
        },
        "text": {
            "type": "string",
            "description": (
                "Over MCP: the result's text (content[0].text) again, for hosts that hand the "
                "model only the structured content."
            ),
        },
        "answers": {
            "type": "object",
            "additionalProperties": _ANSWER,
            "description": "Answers by question id; unanswered questions are left out.",
        },
        "continuation": {
            "type": "object",
            "properties": {
                "strategy": {"type": "string", "enum": ["refine_only", "resume"]},
                "affectedQuestionIds": _STRINGS,
                "preservedAnswers": {"type": "object", "additionalProperties": _ANSWER},
                "questionStates": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {
                            "status": {
                                "type": "string",
                                "enum": ["answered", "needs_clarification", "unanswered"],
                            }
                        },
                        "required": ["status"],
                    },
                },
            },
            "required": [
                "strategy",
                "affectedQuestionIds",
                "preservedAnswers",
                "questionStates",
            ],
        },
        "elaboration": {
            "type": "object",
            "properties": {
                "instruction": {"type": "string"},
                "nextAction": {"type": "string", "enum": ["clarify", "clarify_then_reask"]},
                "items": {"type": "array", "items": _ELABORATION_ITEM},
            },
            "required": ["instruction", "nextAction", "items"],
        },
    },
    "required": ["cancelled", "mode", "questions", "answers"],
}


def result_schema() -> JsonObject:
    """The schema of a whole result, as ``pi-ask schema --result`` prints it (a fresh copy).

    ``details`` is ``RESULT_DETAILS_SCHEMA`` itself (under ``$defs``), so the command line's
    schema and the MCP output schema cannot disagree.

    Example:
        >>> result_schema()["properties"]["details"]
        {'$ref': '#/$defs/details'}
    """
    details = {k: v for k, v in RESULT_DETAILS_SCHEMA.items() if k not in ("$schema", "title")}
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "ask_user result",
        "type": "object",
        "description": "What ask_user returns: text for the agent, and the structured details.",
        "properties": {
            "content": {
                "type": "array",
                "minItems": 1,
                "maxItems": 1,
                "items": {
                    "type": "object",
                    "properties": {"type": {"const": "text"}, "text": {"type": "string"}},
                    "required": ["type", "text"],
                },
                "description": "One text block: the message to hand back to the agent.",
            },
            "details": {"$ref": "#/$defs/details"},
        },
        "required": ["content", "details"],
        "$defs": {"details": copy.deepcopy(details)},
    }
