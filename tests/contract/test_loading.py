"""Loading payloads: text limits, decoding, the validation pipeline and what it hands back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_ask.contract.loading import (
    MAX_PAYLOAD_BYTES,
    MAX_PAYLOAD_DEPTH,
    InvalidPayload,
    LoadedPayload,
    load_payload,
    parse_payload,
)
from pi_ask.contract.results import Issue

FIXTURES = Path(__file__).parent.parent / "fixtures" / "payloads"
TOO_DEEP = Issue("", "payload is nested too deeply; the limit is 32 levels")
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
    return {**MINIMAL, "extra": value} if depth >= 2 else {}


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


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("", "payload is not valid JSON: Expecting value (line 1, column 1)"),
        (
            "{",
            "payload is not valid JSON: Expecting property name enclosed in double quotes "
            "(line 1, column 2)",
        ),
        (
            '{"a": 1,\n "b" 2}',
            "payload is not valid JSON: Expecting ':' delimiter (line 2, column 6)",
        ),
        ("{} {}", "payload is not valid JSON: Extra data (line 1, column 4)"),
        ("NaN", "payload is not valid JSON: NaN is not a JSON value"),
        ('{"x": -Infinity}', "payload is not valid JSON: -Infinity is not a JSON value"),
        (b"\xff{}", "payload is not valid UTF-8: byte 0 cannot be decoded"),
        (b'{"t": "\xc3"}', "payload is not valid UTF-8: byte 7 cannot be decoded"),
    ],
)
def test_undecodable_text(source: str | bytes, message: str) -> None:
    invalid = _invalid(parse_payload(source))
    assert invalid.issues == (Issue("", message),)
    assert invalid.prepared is None
    assert invalid.raw_title is None


def test_utf8_bom_is_accepted_in_bytes() -> None:
    _loaded(parse_payload(b"\xef\xbb\xbf" + json.dumps(MINIMAL).encode()))


@pytest.mark.parametrize("source", ["[]", "null", "3", '"text"', "true", '[{"questions": []}]'])
def test_non_object_json(source: str) -> None:
    invalid = _invalid(parse_payload(source))
    assert invalid.issues == (Issue("", "payload must be a JSON object"),)
    assert invalid.prepared == json.loads(source)


def _padded(size: int) -> str:
    text = json.dumps({**MINIMAL, "pad": ""})
    return text.replace('"pad": ""', '"pad": "' + "x" * (size - len(text)) + '"')


def test_size_limit_is_one_mebibyte() -> None:
    at_limit = _padded(MAX_PAYLOAD_BYTES)
    assert len(at_limit.encode()) == MAX_PAYLOAD_BYTES == 1_048_576
    _loaded(parse_payload(at_limit))
    over = _padded(MAX_PAYLOAD_BYTES + 1)
    message = "payload is too large: 1048577 bytes; the limit is 1 MiB (1048576 bytes)"
    assert _invalid(parse_payload(over)).issues == (Issue("", message),)
    assert _invalid(parse_payload(over.encode())).issues == (Issue("", message),)


def test_size_counts_utf8_bytes_not_characters() -> None:
    text = _padded(MAX_PAYLOAD_BYTES - 1).replace("xx", "éé", 1)
    assert len(text) == MAX_PAYLOAD_BYTES - 1
    assert len(text.encode()) == MAX_PAYLOAD_BYTES + 1
    assert isinstance(parse_payload(text), InvalidPayload)


def test_depth_limit_is_32_levels() -> None:
    assert MAX_PAYLOAD_DEPTH == 32
    _loaded(load_payload(_nested(32)))
    _loaded(parse_payload(json.dumps(_nested(32))))
    deeper = _nested(33)
    assert _invalid(load_payload(deeper)).issues == (TOO_DEEP,)
    assert _invalid(parse_payload(json.dumps(deeper))).issues == (TOO_DEEP,)


def test_depth_counts_objects_and_arrays_alike() -> None:
    value: object = {}
    for level in range(32):
        value = {"k": value} if level % 2 else [value]
    assert _invalid(load_payload(value)).issues == (TOO_DEEP,)


def test_very_deep_text_does_not_crash() -> None:
    text = "[" * 200_000 + "]" * 200_000
    assert _invalid(parse_payload(text)).issues == (TOO_DEEP,)


def test_cyclic_and_shared_python_objects_are_handled() -> None:
    cycle: list[object] = []
    cycle.append(cycle)
    assert _invalid(load_payload({**MINIMAL, "extra": cycle})).issues == (TOO_DEEP,)
    shared: object = "leaf"
    for _ in range(25):
        shared = [shared, shared, shared]
    _loaded(load_payload({**MINIMAL, "extra": shared}))


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


def test_python_objects_that_json_cannot_hold_are_issues() -> None:
    params = {"questions": ({"id": "q"},)}
    assert _invalid(load_payload(params)).issues == (
        Issue("questions", "questions must be an array, got tuple"),
    )
    odd = {"questions": [{"id": "q", "prompt": "P", "type": {1, 2}, "options": [{"value": "a"}]}]}
    assert _invalid(load_payload(odd)).issues[0].path == "questions[0].type"
