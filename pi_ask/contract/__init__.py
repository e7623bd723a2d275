"""The ``ask_user`` contract: payload loading, validation, normalization, results, metadata.

Pure and stdlib-only: no I/O, no prompt_toolkit, no pydantic, no config reads. The public
names load on first use, so a caller that needs the payload types does not pay for the
schema and the tool metadata.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

if TYPE_CHECKING:
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
        CANCEL_REASONS,
        ELABORATION_INSTRUCTION,
        AnswerRecord,
        CancelReason,
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
    "CANCEL_REASONS",
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
    "CancelReason",
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

_HOMES = {
    "MAX_PAYLOAD_BYTES": "pi_ask.contract.document",
    "MAX_PAYLOAD_DEPTH": "pi_ask.contract.document",
    "check_document": "pi_ask.contract.document",
    "decode_document": "pi_ask.contract.document",
    "InvalidPayload": "pi_ask.contract.loading",
    "LoadedPayload": "pi_ask.contract.loading",
    "load_payload": "pi_ask.contract.loading",
    "parse_payload": "pi_ask.contract.loading",
    "normalize": "pi_ask.contract.normalization",
    "QUESTION_TYPES": "pi_ask.contract.payload",
    "AskPayload": "pi_ask.contract.payload",
    "Option": "pi_ask.contract.payload",
    "Question": "pi_ask.contract.payload",
    "QuestionType": "pi_ask.contract.payload",
    "derive_label": "pi_ask.contract.preparation",
    "prepare_payload": "pi_ask.contract.preparation",
    "INVALID_PAYLOAD_HEADING": "pi_ask.contract.rejection",
    "invalid_result": "pi_ask.contract.rejection",
    "CANCEL_REASONS": "pi_ask.contract.kinds",
    "CancelReason": "pi_ask.contract.kinds",
    "ELABORATION_INSTRUCTION": "pi_ask.contract.results",
    "AnswerRecord": "pi_ask.contract.results",
    "Continuation": "pi_ask.contract.results",
    "Elaboration": "pi_ask.contract.results",
    "ElaborationItem": "pi_ask.contract.results",
    "Issue": "pi_ask.contract.kinds",
    "JsonObject": "pi_ask.contract.kinds",
    "Mode": "pi_ask.contract.kinds",
    "QuestionStatus": "pi_ask.contract.kinds",
    "ResultDetails": "pi_ask.contract.results",
    "ToolResult": "pi_ask.contract.results",
    "option_to_json": "pi_ask.contract.results",
    "question_context_to_json": "pi_ask.contract.results",
    "question_meta_to_json": "pi_ask.contract.results",
    "INPUT_SCHEMA": "pi_ask.contract.schema",
    "check_semantics": "pi_ask.contract.semantics",
    "check_structure": "pi_ask.contract.structure",
    "json_type_name": "pi_ask.contract.structure",
    "PROMPT_GUIDELINES": "pi_ask.contract.tool",
    "PROMPT_SNIPPET": "pi_ask.contract.tool",
    "TOOL_DESCRIPTION": "pi_ask.contract.tool",
    "TOOL_LABEL": "pi_ask.contract.tool",
    "TOOL_NAME": "pi_ask.contract.tool",
    "tool_metadata": "pi_ask.contract.tool",
}


__getattr__ = lazy_names(__name__, _HOMES)
