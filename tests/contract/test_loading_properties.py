"""Properties of loading: nothing raises, and every outcome has the documented shape."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload, parse_payload
from pi_ask.contract.payload import AskPayload
from pi_ask.contract.rejection import invalid_result
from tests.contract.strategies import json_values, mutated_payloads

_DETAILS_KEYS = {"cancelled", "error", "mode", "questions", "answers"}


def _assert_documented_shape(result: LoadedPayload | InvalidPayload) -> None:
    if isinstance(result, LoadedPayload):
        assert isinstance(result.payload, AskPayload)
        assert result.payload.questions
        assert all(q.options for q in result.payload.questions)
        json.dumps(result.params, ensure_ascii=False).encode("utf-8")
        return
    assert result.issues
    document = invalid_result(result).to_json()
    # The result must be printable as UTF-8 JSON on stdout.
    json.dumps(document, ensure_ascii=False).encode("utf-8")
    assert set(document) == {"content", "details"}
    content = document["content"]
    assert isinstance(content, list)
    assert len(content) == 1
    text = content[0]["text"]
    assert content[0] == {"type": "text", "text": text}
    lines = text.split("\n")
    assert lines[0] == "Invalid ask_user payload:"
    assert len(lines) == 1 + len(result.issues)
    assert all(line.startswith("- ") for line in lines[1:])
    details = document["details"]
    assert isinstance(details, dict)
    assert set(details) - {"title"} == _DETAILS_KEYS
    assert "title" not in details or details["title"] == details["title"].strip() != ""
    assert details["cancelled"] is True
    assert details["mode"] == "submit"
    assert details["questions"] == []
    assert details["answers"] == {}
    assert details["error"] == {
        "kind": "invalid_input",
        "issues": [{"path": i.path, "message": i.message} for i in result.issues],
    }
    assert all(isinstance(i.path, str) and i.message for i in result.issues)


@settings(max_examples=200)
@given(json_values)
def test_any_json_value_loads_or_reports_issues(value: object) -> None:
    result = load_payload(value)
    _assert_documented_shape(result)
    # A str is taken as JSON text by load_payload, so only other values compare with their text.
    if not isinstance(value, str):
        assert parse_payload(json.dumps(value)) == result


@settings(max_examples=200)
@given(mutated_payloads(), st.booleans(), st.booleans())
def test_mutated_payloads_load_or_report_issues(
    payload: object, single_as_multi: bool, freeform: bool
) -> None:
    result = load_payload(payload, present_single_as_multi=single_as_multi, allow_freeform=freeform)
    _assert_documented_shape(result)
    if not isinstance(payload, str):
        text_result = load_payload(
            json.dumps(payload), present_single_as_multi=single_as_multi, allow_freeform=freeform
        )
        assert text_result == result


# Fragments that make JSON text almost right, so the decoder's edge cases get hit.
_TOKEN_SOUP = st.lists(
    st.sampled_from(
        [
            "{",
            "}",
            "[",
            "]",
            '"',
            ":",
            ",",
            " ",
            "\\u",
            "d800",
            '"\\udfff"',
            "1e999",
            "-0",
            "NaN",
            "1",
            '"questions"',
            '"id"',
            '"a"',
            "\\",
            "true",
            "null",
            "\ufeff",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=200)
@given(st.text(max_size=200) | st.binary(max_size=200) | _TOKEN_SOUP)
def test_any_text_parses_or_reports_issues(source: str | bytes) -> None:
    _assert_documented_shape(parse_payload(source))
