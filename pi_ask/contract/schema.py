"""The ``ask_user`` tool's input JSON Schema, as data (draft 2020-12).

This is what ``pi-ask schema`` prints and what agents see as the tool's parameters. It matches
the structural check in ``structure.py`` (a test keeps the two in agreement): objects are open
(unknown properties are allowed and ignored, near misses of a field name excepted, as the
descriptions say: ``field_names.py``), option ``label`` is optional because a missing one
is derived from ``value`` (python-port.md §10), and the rules a schema cannot express well —
trimmed text, uniqueness, at least one question/option, preview text — are the semantic rules.
"""

from __future__ import annotations

from typing import Final

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.payload import QUESTION_TYPES

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _string(description: str) -> JsonObject:
    return {"type": "string", "description": description}


def _boolean(description: str) -> JsonObject:
    return {"type": "boolean", "description": description}


OPEN_OBJECT = (
    "Other fields are accepted and ignored, but a name one letter away from a field this object "
    "lacks (two letters for names of six or more: promt, tpye, lable) is refused as a typo."
)

_OPTION_SCHEMA: Final[JsonObject] = {
    "type": "object",
    "description": f"One choice. {OPEN_OBJECT}",
    "properties": {
        "value": _string(
            "Machine-readable value of this option; returned in the answer's values. "
            "Must be non-empty and unique within the question."
        ),
        "label": _string(
            "Short text shown for the option. When missing or blank it is derived from value "
            "(separators become spaces, first letter upper-cased)."
        ),
        "description": _string("Optional one-line explanation that helps the user decide."),
        "preview": _string(
            "Optional longer content for the preview pane; every option of a preview question "
            "needs it."
        ),
        "recommended": _boolean(
            "Optional marker for an option you have grounds to prefer; say why in description. "
            "It is shown, never preselected."
        ),
    },
    "required": ["value"],
}

_QUESTION_SCHEMA: Final[JsonObject] = {
    "type": "object",
    "description": f"One question. {OPEN_OBJECT}",
    "properties": {
        "id": _string("Stable identifier; the key of this question's answer in the result."),
        "label": _string("Optional short tab label such as Scope or Tone; defaults to Q1, Q2, ..."),
        "prompt": _string("The question the user sees; one decision per question."),
        "type": {
            "type": "string",
            "enum": list(QUESTION_TYPES),
            "description": (
                "single: one answer expected (default). multi: several answers may apply. "
                "preview: options need a preview pane; only when every option has preview text "
                "(descriptions do not count)."
            ),
        },
        "required": _boolean("Advisory importance marker; never blocks submission."),
        "options": {
            "type": "array",
            "items": _OPTION_SCHEMA,
            "description": "The choices: clear, distinct, no filler. Free text is always offered.",
        },
    },
    "required": ["id", "prompt", "options"],
}

INPUT_SCHEMA: Final[JsonObject] = {
    "$schema": SCHEMA_DIALECT,
    "title": "ask_user input",
    "description": f"The questions to ask the user. {OPEN_OBJECT}",
    "type": "object",
    "properties": {
        "title": _string("Optional short heading shown above the questions."),
        "questions": {
            "type": "array",
            "items": _QUESTION_SCHEMA,
            "description": "The questions of one interactive clarification flow.",
        },
    },
    "required": ["questions"],
}
