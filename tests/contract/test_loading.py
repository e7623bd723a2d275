"""Loading payloads: the validation pipeline, its order, and what it hands back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_ask.contract.kinds import Issue
from pi_ask.contract.loading import (
    InvalidPayload,
    LoadedPayload,
    load_payload,
    parse_payload,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "payloads"
MINIMAL: dict[str, object] = {
    "questions": [{"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}]}]
}


def _invalid(result: LoadedPayload | InvalidPayload) -> InvalidPayload:
    assert isinstance(result, InvalidPayload), result
    return result


def _loaded(result: LoadedPayload | InvalidPayload) -> LoadedPayload:
    assert isinstance(result, LoadedPayload), result
    return result


def _nested(depth: int) -> dict[str, object]:
    """A payload object whose arrays/objects nest exactly ``depth`` levels."""
    value: object = "leaf"
    for _ in range(depth - 1):
        value = [value]
    return {**MINIMAL, "extra": value}


@pytest.mark.parametrize("name", ["basic.json", "preview.json"])
def test_sample_payloads_are_valid_and_need_no_preparation(name: str) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    assert _loaded(parse_payload(text)).params == json.loads(text)


def test_basic_sample_normalizes() -> None:
    loaded = _loaded(parse_payload((FIXTURES / "basic.json").read_bytes()))
    assert loaded.payload.title == "Implementation preferences"
    assert [(q.id, q.label, q.type) for q in loaded.payload.questions] == [
        ("style", "Style", "single"),
        ("frameworks", "Frontend", "multi"),
    ]


def test_params_are_the_prepared_unnormalized_arguments() -> None:
    text = (FIXTURES / "recommended.json").read_text(encoding="utf-8")
    loaded = _loaded(parse_payload(text))
    derived = loaded.params["questions"][1]["options"][2]  # type: ignore[index]
    assert derived == {"value": "windows-wsl", "label": "Windows wsl"}
    raw = {**MINIMAL, "title": "  spaced  "}
    assert _loaded(load_payload(raw)).params["title"] == "  spaced  "


def test_text_and_object_sources_agree() -> None:
    text = json.dumps(MINIMAL)
    assert load_payload(text) == load_payload(text.encode()) == load_payload(MINIMAL)
    assert load_payload(text) == parse_payload(text)


def test_options_are_passed_through() -> None:
    loaded = _loaded(load_payload(MINIMAL, present_single_as_multi=True))
    assert loaded.payload.questions[0].type == "multi"
    freeform = {
        "questions": [{"id": "q", "prompt": "P", "options": [{"value": "a", "freeform": True}]}]
    }
    assert isinstance(load_payload(freeform), InvalidPayload)
    assert _loaded(load_payload(freeform, allow_freeform=True)).payload.questions[0].is_freeform


def test_object_input_is_not_mutated() -> None:
    raw = {"questions": [{"id": "q", "prompt": "P", "options": [{"value": "a-b"}]}]}
    loaded = _loaded(load_payload(raw))
    assert raw == {"questions": [{"id": "q", "prompt": "P", "options": [{"value": "a-b"}]}]}
    assert loaded.params != raw


@pytest.mark.parametrize("source", ["[]", "null", "3", '"text"', "true", '[{"questions": []}]'])
def test_non_object_json(source: str) -> None:
    invalid = _invalid(parse_payload(source))
    assert invalid.issues == (Issue("", "payload must be a JSON object"),)
    assert invalid.prepared == json.loads(source)


def test_structural_issues_come_before_semantic_ones() -> None:
    params = {
        "questions": [
            {"id": "", "prompt": "P", "options": [{"value": "a", "label": "A"}]},
            {"id": "b", "prompt": 5, "options": [{"value": "a", "recommended": "yes"}]},
        ],
        "title": 1,
    }
    assert _invalid(load_payload(params)).issues == (
        Issue("title", "title must be a string, got number"),
        Issue("questions[1].prompt", "Question 2: prompt must be a string, got number"),
        Issue(
            "questions[1].options[0].recommended",
            "Question 2, option 1: recommended must be a boolean, got string",
        ),
        Issue("questions[0].id", "Question 1: id is required"),
    )


def test_label_derivation_runs_before_validation() -> None:
    raw = {
        "questions": [{"id": "q", "prompt": "P", "options": [{"value": "follow_up", "label": " "}]}]
    }
    assert _loaded(load_payload(raw)).payload.questions[0].options[0].label == "Follow up"
    unusable = {"questions": [{"id": "q", "prompt": "P", "options": [{"value": "--"}]}]}
    assert _invalid(load_payload(unusable)).issues == (
        Issue("questions[0].options[0].label", "Question 1, option 1: label is required"),
    )


def test_invalid_keeps_raw_title_and_prepared_params() -> None:
    raw = {
        "title": "  Raw  ",
        "questions": [{"id": "q", "prompt": "", "options": [{"value": "a"}]}],
    }
    invalid = _invalid(load_payload(raw))
    assert invalid.raw_title == "  Raw  "
    assert invalid.prepared == {
        "title": "  Raw  ",
        "questions": [{"id": "q", "prompt": "", "options": [{"value": "a", "label": "A"}]}],
    }
    assert _invalid(load_payload({"title": 3, "questions": []})).raw_title is None
    assert _invalid(load_payload({**_nested(33), "title": "T"})).raw_title == "T"
