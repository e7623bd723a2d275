"""Agent-facing tool metadata (behaviour.md §16)."""

from __future__ import annotations

import json

from pi_ask.contract.schema import INPUT_SCHEMA
from pi_ask.contract.tool import (
    PROMPT_GUIDELINES,
    PROMPT_SNIPPET,
    TOOL_DESCRIPTION,
    TOOL_LABEL,
    TOOL_NAME,
    tool_metadata,
)


def test_names_and_snippet() -> None:
    assert TOOL_NAME == "ask_user"
    assert TOOL_LABEL == "Ask User"
    assert PROMPT_SNIPPET == (
        "Clarify ambiguous or preference-sensitive decisions with a short interactive "
        "interview before proceeding"
    )


def test_metadata_document() -> None:
    metadata = tool_metadata()
    assert list(metadata) == [
        "name",
        "label",
        "description",
        "promptSnippet",
        "promptGuidelines",
        "parameters",
    ]
    assert metadata["name"] == TOOL_NAME
    assert metadata["label"] == TOOL_LABEL
    assert metadata["description"] == TOOL_DESCRIPTION
    assert metadata["promptSnippet"] == PROMPT_SNIPPET
    assert metadata["promptGuidelines"] == list(PROMPT_GUIDELINES)
    assert metadata["parameters"] == INPUT_SCHEMA
    json.dumps(metadata)


def test_metadata_is_a_fresh_copy() -> None:
    metadata = tool_metadata()
    parameters = metadata["parameters"]
    assert isinstance(parameters, dict)
    parameters["required"] = []
    assert INPUT_SCHEMA["required"] == ["questions"]


def test_description_covers_the_payload_rules_and_modes() -> None:
    for phrase in (
        "preferences",
        "requirements",
        "single-select",
        "multi-select",
        "preview",
        "RPC",
        "typed-answer fallback",
        "flattened",
        "stable `id`",
        "non-empty `prompt`",
        "`value`",
        "`label`",
        "every option has non-empty `preview` text",
    ):
        assert phrase in TOOL_DESCRIPTION, phrase


def test_guidelines_cover_the_points_and_name_the_tool() -> None:
    assert len(PROMPT_GUIDELINES) == 12
    # Hosts list guidelines without a tool prefix, so each one names the tool.
    assert all("`ask_user`" in g for g in PROMPT_GUIDELINES)
    text = "\n".join(PROMPT_GUIDELINES)
    for phrase in (
        "context",
        "1-3 concise questions",
        "one decision per question",
        "no filler",
        "stable `id`",
        "`recommended: true`",
        "`description`",
        "`single`",
        "`multi`",
        "every option has non-empty `preview` text",
        "elaboration",
        "Bundle 2-3 related",
        "one at a time only when",
        "do not promise same-screen forms",
        "not approval",
    ):
        assert phrase in text, phrase
