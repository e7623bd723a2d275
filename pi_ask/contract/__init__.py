"""The ``ask_user`` contract: payload loading, validation, normalization, results, metadata.

Pure and stdlib-only: no I/O, no prompt_toolkit, no pydantic, no config reads.
"""

from __future__ import annotations

from pi_ask.contract.document import (
    MAX_PAYLOAD_BYTES,
    MAX_PAYLOAD_DEPTH,
    check_document,
    decode_document,
)
from pi_ask.contract.loading import (
    InvalidPayload,
    LoadedPayload,
    load_payload,
    parse_payload,
)
from pi_ask.contract.normalization import normalize
from pi_ask.contract.payload import QUESTION_TYPES, AskPayload, Option, Question, QuestionType
from pi_ask.contract.preparation import derive_label, prepare_payload
from pi_ask.contract.rejection import INVALID_PAYLOAD_HEADING, invalid_result
from pi_ask.contract.results import (
    ELABORATION_INSTRUCTION,
    AnswerRecord,
    Continuation,
    Elaboration,
    ElaborationItem,
    Issue,
    JsonObject,
    Mode,
    QuestionStatus,
    ResultDetails,
    ToolResult,
    option_to_json,
    question_context_to_json,
    question_meta_to_json,
)
from pi_ask.contract.schema import INPUT_SCHEMA
from pi_ask.contract.semantics import check_semantics
from pi_ask.contract.structure import check_structure, json_type_name
from pi_ask.contract.tool import (
    PROMPT_GUIDELINES,
    PROMPT_SNIPPET,
    TOOL_DESCRIPTION,
    TOOL_LABEL,
    TOOL_NAME,
    tool_metadata,
)

__all__ = [
    "ELABORATION_INSTRUCTION",
    "INPUT_SCHEMA",
    "INVALID_PAYLOAD_HEADING",
    "MAX_PAYLOAD_BYTES",
    "MAX_PAYLOAD_DEPTH",
    "PROMPT_GUIDELINES",
    "PROMPT_SNIPPET",
    "QUESTION_TYPES",
    "TOOL_DESCRIPTION",
    "TOOL_LABEL",
    "TOOL_NAME",
    "AnswerRecord",
    "AskPayload",
    "Continuation",
    "Elaboration",
    "ElaborationItem",
    "InvalidPayload",
    "Issue",
    "JsonObject",
    "LoadedPayload",
    "Mode",
    "Option",
    "Question",
    "QuestionStatus",
    "QuestionType",
    "ResultDetails",
    "ToolResult",
    "check_document",
    "check_semantics",
    "check_structure",
    "decode_document",
    "derive_label",
    "invalid_result",
    "json_type_name",
    "load_payload",
    "normalize",
    "option_to_json",
    "parse_payload",
    "prepare_payload",
    "question_context_to_json",
    "question_meta_to_json",
    "tool_metadata",
]
