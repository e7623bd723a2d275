"""The published input schema: key facts, and agreement with the hand-written checks."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings

from pi_ask.contract.loading import InvalidPayload, load_payload
from pi_ask.contract.payload import QUESTION_TYPES
from pi_ask.contract.preparation import prepare_payload
from pi_ask.contract.schema import INPUT_SCHEMA
from pi_ask.contract.structure import check_structure
from tests.contract.strategies import SAMPLES, mutated_payloads

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
}


def _conforms(value: object, schema: dict[str, object]) -> bool:
    """A tiny JSON Schema walker: just the keywords INPUT_SCHEMA uses."""
    used = set(schema) - {"$schema", "title", "description"}
    assert used <= {"type", "properties", "required", "items", "enum"}, used
    kind = schema.get("type")
    if isinstance(kind, str) and not isinstance(value, _TYPES[kind]):
        return False
    if "enum" in schema and value not in schema["enum"]:  # type: ignore[operator]
        return False
    if isinstance(value, dict):
        required = schema.get("required", [])
        assert isinstance(required, list)
        if any(key not in value for key in required):
            return False
        properties = schema.get("properties", {})
        assert isinstance(properties, dict)
        if any(key in value and not _conforms(value[key], sub) for key, sub in properties.items()):
            return False
    if isinstance(value, list) and "items" in schema:
        items = schema["items"]
        assert isinstance(items, dict)
        return all(_conforms(item, items) for item in value)
    return True


_OPTION_PATH = ("properties", "questions", "items", "properties", "options", "items")


def _sub(*keys: str) -> dict[str, object]:
    node: object = INPUT_SCHEMA
    for key in keys:
        assert isinstance(node, dict)
        node = node[key]
    assert isinstance(node, dict)
    return node


def test_key_facts() -> None:
    assert INPUT_SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert INPUT_SCHEMA["type"] == "object"
    assert INPUT_SCHEMA["required"] == ["questions"]
    question = _sub("properties", "questions", "items")
    assert question["required"] == ["id", "prompt", "options"]
    assert _sub("properties", "questions", "items", "properties", "type")["enum"] == list(
        QUESTION_TYPES
    )
    option = _sub(*_OPTION_PATH)
    assert option["required"] == ["value"]  # label is derived when missing
    assert set(_sub(*_OPTION_PATH, "properties")) == {
        "value",
        "label",
        "description",
        "preview",
        "recommended",
    }
    assert "freeform" not in json.dumps(INPUT_SCHEMA)  # internal marker, never public
    assert "additionalProperties" not in json.dumps(INPUT_SCHEMA)  # objects stay open


def test_every_property_has_a_description() -> None:
    def walk(node: object) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                assert isinstance(sub.get("description"), str) and sub["description"], name
            for sub in node.values():
                walk(sub)

    walk(INPUT_SCHEMA)


@pytest.mark.parametrize("sample", SAMPLES)
def test_samples_conform_and_load(sample: object) -> None:
    assert _conforms(prepare_payload(sample), INPUT_SCHEMA)
    assert not isinstance(load_payload(sample), InvalidPayload)


def test_a_label_only_conforms_after_preparation() -> None:
    raw = {"questions": [{"id": "q", "prompt": "P", "options": [{"value": "a", "label": " "}]}]}
    assert _conforms(raw, INPUT_SCHEMA)
    unlabeled = {"questions": [{"id": "q", "prompt": "P", "options": [{"value": "a"}]}]}
    assert _conforms(unlabeled, INPUT_SCHEMA)


@pytest.mark.parametrize(
    "edit",
    [
        lambda p: p.pop("questions"),
        lambda p: p.update(title=1),
        lambda p: p["questions"][0].pop("id"),
        lambda p: p["questions"][0].pop("prompt"),
        lambda p: p["questions"][0].pop("options"),
        lambda p: p["questions"][0].update(type="grid"),
        lambda p: p["questions"][0].update(required="no"),
        lambda p: p["questions"][0]["options"][0].pop("value"),
        lambda p: p["questions"][0]["options"][0].update(recommended="yes"),
        lambda p: p["questions"][0]["options"][0].update(label=3),
        lambda p: p["questions"].append("x"),
    ],
)
def test_schema_violations_are_invalid_payloads(edit: object) -> None:
    payload = copy.deepcopy(SAMPLES[0])
    edit(payload)  # type: ignore[operator]
    assert not _conforms(prepare_payload(payload), INPUT_SCHEMA)
    assert isinstance(load_payload(payload), InvalidPayload)


@settings(max_examples=200)
@given(mutated_payloads())
def test_schema_and_checks_agree(payload: object) -> None:
    prepared = prepare_payload(payload)
    conforms = _conforms(prepared, INPUT_SCHEMA)
    if not conforms:
        # Whatever the schema refuses, the loader refuses too.
        assert isinstance(load_payload(prepared), InvalidPayload)
    # A structural issue is exactly a schema violation the semantic rules do not name.
    assert (check_structure(prepared) == ()) or not conforms
