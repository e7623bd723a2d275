"""Typos of payload field names are refused with "did you mean"; other unknown fields pass."""

from __future__ import annotations

import pytest

from pi_ask.contract.field_names import edit_distance, near_miss
from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload
from pi_ask.contract.schema import INPUT_SCHEMA


def payload(question: dict[str, object] | None = None, **top: object) -> dict[str, object]:
    base: dict[str, object] = {"id": "lang", "prompt": "Which?", "options": [{"value": "py"}]}
    return {"questions": [{**base, **(question or {})}], **top}


def issues_of(params: object) -> list[tuple[str, str]]:
    loaded = load_payload(params)
    assert isinstance(loaded, InvalidPayload)
    return [(issue.path, issue.message) for issue in loaded.issues]


def test_a_misspelt_prompt_says_did_you_mean_and_not_only_required() -> None:
    params = payload()
    question = params["questions"][0]  # type: ignore[index]
    question["promt"] = question.pop("prompt")
    assert issues_of(params) == [
        ("questions[0].promt", 'Question 1: unknown field "promt"; did you mean "prompt"?')
    ]


def test_type_and_label_typos_no_longer_change_the_question() -> None:
    params = payload({"tpye": "multi", "options": [{"value": "py", "lable": "Python 3"}]})
    assert issues_of(params) == [
        ("questions[0].tpye", 'Question 1: unknown field "tpye"; did you mean "type"?'),
        (
            "questions[0].options[0].lable",
            'Question 1, option 1: unknown field "lable"; did you mean "label"?',
        ),
    ]


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("Prompt", "prompt"),  # case is an edit
        ("prmt", "prompt"),  # two edits: prompt has six letters
        ("descrpition", "description"),  # a swap and a drop
        ("recomended", "recommended"),
        ("quesitons", "questions"),
        ("titel", "title"),
    ],
)
def test_near_misses(name: str, field: str) -> None:
    absent = ("title", "questions", "prompt", "description", "recommended")
    assert near_miss(name, absent) == field


def test_short_names_allow_one_edit_only() -> None:
    assert near_miss("tp", ("type",)) is None
    assert near_miss("id", ("id",)) == "id"
    assert edit_distance("ab", "ba") == 1


def test_a_near_miss_of_a_present_field_is_only_unknown() -> None:
    loaded = load_payload(payload({"label": "Lang", "lable": "x", "colour": "red"}, x_meta=1))
    assert isinstance(loaded, LoadedPayload)
    assert loaded.unknown_fields == ("x_meta", "questions[0].lable", "questions[0].colour")


def test_a_valid_payload_has_no_unknown_fields() -> None:
    loaded = load_payload(payload({"type": "multi", "required": True}))
    assert isinstance(loaded, LoadedPayload)
    assert loaded.unknown_fields == ()


def test_the_schema_stays_open_and_says_so() -> None:
    question = INPUT_SCHEMA["properties"]["questions"]["items"]  # type: ignore[index]
    for node in (INPUT_SCHEMA, question, question["properties"]["options"]["items"]):
        assert "additionalProperties" not in node
        assert "accepted and ignored" in node["description"]
        assert "typo" in node["description"]
