"""The payload as a JSON document: text limits, decoding, and what JSON data may hold."""

from __future__ import annotations

import json
import math

import pytest

from pi_ask.contract.document import (
    MAX_PAYLOAD_BYTES,
    MAX_PAYLOAD_DEPTH,
    check_document,
    decode_document,
)
from pi_ask.contract.kinds import Issue
from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload, parse_payload
from pi_ask.contract.rejection import invalid_result

TOO_DEEP = Issue("", "payload is nested too deeply; the limit is 32 levels")
MINIMAL: dict[str, object] = {
    "questions": [{"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}]}]
}


def _nested(depth: int) -> dict[str, object]:
    """A valid payload whose arrays/objects nest exactly ``depth`` levels (root = 1)."""
    value: object = "leaf"
    for _ in range(depth - 1):
        value = [value]
    return {**MINIMAL, "extra": value}


def _padded(size: int) -> str:
    """Valid payload text of exactly ``size`` UTF-8 bytes."""
    text = json.dumps({**MINIMAL, "pad": ""})
    return text.replace('"pad": ""', '"pad": "' + "x" * (size - len(text)) + '"')


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
        ('{"x": 1e999}', "payload is not valid JSON: the number 1e999 is out of range"),
        ('{"x": -1E400}', "payload is not valid JSON: the number -1E400 is out of range"),
        ("1" * 5000, "payload is not valid JSON: a number with 5000 digits is too long"),
        (b"\xff{}", "payload is not valid UTF-8: byte 0 cannot be decoded"),
        (b'{"t": "\xc3"}', "payload is not valid UTF-8: byte 7 cannot be decoded"),
    ],
)
def test_undecodable_text(source: str | bytes, message: str) -> None:
    assert decode_document(source) == Issue("", message)
    invalid = parse_payload(source)
    assert invalid == InvalidPayload((Issue("", message),))


def test_numbers_within_range_decode() -> None:
    assert decode_document("[1e308, -0.5, 12, 1E2, 0]") == [1e308, -0.5, 12, 100.0, 0]
    assert decode_document("9" * 4000) == int("9" * 4000)


def test_utf8_bom_is_accepted_in_bytes() -> None:
    assert decode_document(b"\xef\xbb\xbf{}") == {}
    assert isinstance(parse_payload(b"\xef\xbb\xbf" + json.dumps(MINIMAL).encode()), LoadedPayload)


def test_size_limit_is_one_mebibyte() -> None:
    at_limit = _padded(MAX_PAYLOAD_BYTES)
    assert len(at_limit.encode()) == MAX_PAYLOAD_BYTES == 1_048_576
    assert isinstance(parse_payload(at_limit), LoadedPayload)
    over = _padded(MAX_PAYLOAD_BYTES + 1)
    issue = Issue("", "payload is too large: 1048577 bytes; the limit is 1 MiB (1048576 bytes)")
    assert decode_document(over) == issue
    assert decode_document(over.encode()) == issue


def test_size_counts_utf8_bytes_not_characters() -> None:
    text = _padded(MAX_PAYLOAD_BYTES - 1).replace("xx", "éé", 1)
    assert len(text) == MAX_PAYLOAD_BYTES - 1
    assert len(text.encode()) == MAX_PAYLOAD_BYTES + 1
    assert isinstance(decode_document(text), Issue)


def test_depth_limit_is_32_levels() -> None:
    assert MAX_PAYLOAD_DEPTH == 32
    assert check_document(_nested(32)) is None
    assert check_document(_nested(33)) == TOO_DEEP
    assert isinstance(parse_payload(json.dumps(_nested(32))), LoadedPayload)
    assert parse_payload(json.dumps(_nested(33))) == InvalidPayload((TOO_DEEP,), None, _nested(33))


def test_depth_counts_objects_and_arrays_alike() -> None:
    value: object = {}
    for level in range(31):
        value = {"k": value} if level % 2 else [value]
    assert check_document(value) is None
    assert check_document([value]) == TOO_DEEP
    assert check_document({"k": value}) == TOO_DEEP


def test_very_deep_text_does_not_crash() -> None:
    text = "[" * 200_000 + "]" * 200_000
    assert parse_payload(text) == InvalidPayload((TOO_DEEP,))


def test_cyclic_and_shared_python_objects_are_handled() -> None:
    cycle: list[object] = []
    cycle.append(cycle)
    assert check_document({**MINIMAL, "extra": cycle}) == TOO_DEEP
    shared: object = "leaf"
    for _ in range(25):
        shared = [shared, shared, shared]
    assert check_document({**MINIMAL, "extra": shared}) is None


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"questions": ({"id": "q"},)}, "questions is a Python tuple, which JSON cannot hold"),
        ({"a": [1, {2}]}, "a[1] is a Python set, which JSON cannot hold"),
        ({"a": {"b": math.nan}}, "a.b is nan, not a JSON number"),
        ([math.inf], "[0] is inf, not a JSON number"),
        ({"a": {1: "x"}}, "a has a key 1 that is not a string"),
        ({"t": "ok \ud800"}, "t holds a lone surrogate, which is not valid Unicode"),
        (
            {"a": [{"\udfff": 1}]},
            "a[0] has a key with a lone surrogate, which is not valid Unicode",
        ),
        (b"bytes", "the payload is a Python bytes, which JSON cannot hold"),
    ],
)
def test_data_json_cannot_carry(data: object, problem: str) -> None:
    assert check_document(data) == Issue("", f"payload must be JSON data: {problem}")


def test_first_problem_in_document_order_wins() -> None:
    data = {"a": [1, math.nan], "b": {3}}
    assert check_document(data) == Issue(
        "", "payload must be JSON data: a[1] is nan, not a JSON number"
    )


def test_lone_surrogates_from_text_are_refused_and_never_printed() -> None:
    invalid = parse_payload('{"title": "\\ud83d", "questions": []}')
    assert isinstance(invalid, InvalidPayload)
    assert invalid.issues == (
        Issue(
            "",
            "payload must be JSON data: title holds a lone surrogate, which is not valid Unicode",
        ),
    )
    assert invalid.raw_title is None
    json.dumps(invalid_result(invalid).to_json(), ensure_ascii=False).encode("utf-8")


def test_python_data_goes_through_the_same_checks() -> None:
    invalid = load_payload({**MINIMAL, "title": "T", "when": object()})
    assert isinstance(invalid, InvalidPayload)
    assert invalid.raw_title == "T"
    assert invalid.issues[0].message.startswith(
        "payload must be JSON data: when is a Python object"
    )
