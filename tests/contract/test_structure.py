"""The structural check: the published schema applied by hand, with exact paths."""

from __future__ import annotations

import pytest

from pi_ask.contract.kinds import Issue
from pi_ask.contract.structure import check_structure, json_type_name


def _question(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}]}
    return {**base, **fields}


def _option(**fields: object) -> dict[str, object]:
    return {"value": "a", "label": "A", **fields}


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("s", "string"),
        (1, "number"),
        (1.5, "number"),
        (True, "boolean"),
        (False, "boolean"),
        (None, "null"),
        ([], "array"),
        ({}, "object"),
        ((1,), "tuple"),
        ({1}, "set"),
    ],
)
def test_json_type_name(value: object, name: str) -> None:
    assert json_type_name(value) == name


@pytest.mark.parametrize("params", [None, "x", 3, True, [], [{"questions": []}], 2.5])
def test_non_object_payload_is_one_whole_payload_issue(params: object) -> None:
    assert check_structure(params) == (Issue("", "payload must be a JSON object"),)


def test_valid_shapes_have_no_issues() -> None:
    params = {
        "title": "T",
        "extra": {"anything": [1, 2]},
        "questions": [
            _question(label="L", type="multi", required=False, unknown=1),
            _question(
                options=[
                    _option(description="d", preview="p", recommended=True, freeform="whatever")
                ]
            ),
        ],
    }
    assert check_structure(params) == ()


def test_missing_required_strings_and_bad_type_are_left_to_the_semantic_rules() -> None:
    params = {"questions": [{"type": "grid", "options": [{}]}]}
    assert check_structure(params) == ()


def test_empty_arrays_are_structurally_fine() -> None:
    assert check_structure({"questions": []}) == ()
    assert check_structure({"questions": [_question(options=[])]}) == ()


def test_top_level_problems() -> None:
    assert check_structure({}) == (Issue("questions", "questions is required"),)
    assert check_structure({"title": 3, "questions": {}}) == (
        Issue("title", "title must be a string, got number"),
        Issue("questions", "questions must be an array, got object"),
    )
    assert check_structure({"title": None, "questions": "q"}) == (
        Issue("title", "title must be a string, got null"),
        Issue("questions", "questions must be an array, got string"),
    )


def test_question_that_is_not_an_object() -> None:
    assert check_structure({"questions": [_question(), "q2", None]}) == (
        Issue("questions[1]", "Question 2: expected an object, got string"),
        Issue("questions[2]", "Question 3: expected an object, got null"),
    )


def test_question_field_types_in_schema_order() -> None:
    question = {"options": 7, "required": "yes", "prompt": [], "label": 1, "id": False}
    assert check_structure({"questions": [question]}) == (
        Issue("questions[0].id", "Question 1: id must be a string, got boolean"),
        Issue("questions[0].label", "Question 1: label must be a string, got number"),
        Issue("questions[0].prompt", "Question 1: prompt must be a string, got array"),
        Issue("questions[0].required", "Question 1: required must be a boolean, got string"),
        Issue("questions[0].options", "Question 1: options must be an array, got number"),
    )


def test_missing_options() -> None:
    question = {"id": "q", "prompt": "P"}
    assert check_structure({"questions": [_question(), question]}) == (
        Issue("questions[1].options", "Question 2: options is required"),
    )


def test_option_problems_in_schema_order() -> None:
    options = [
        _option(),
        "a string",
        {"recommended": "yes", "preview": 1, "description": None, "label": 2, "value": {}},
    ]
    assert check_structure({"questions": [_question(), _question(options=options)]}) == (
        Issue("questions[1].options[1]", "Question 2, option 2: expected an object, got string"),
        Issue(
            "questions[1].options[2].value",
            "Question 2, option 3: value must be a string, got object",
        ),
        Issue(
            "questions[1].options[2].label",
            "Question 2, option 3: label must be a string, got number",
        ),
        Issue(
            "questions[1].options[2].description",
            "Question 2, option 3: description must be a string, got null",
        ),
        Issue(
            "questions[1].options[2].preview",
            "Question 2, option 3: preview must be a string, got number",
        ),
        Issue(
            "questions[1].options[2].recommended",
            "Question 2, option 3: recommended must be a boolean, got string",
        ),
    )


def test_issues_follow_document_order_across_questions() -> None:
    params = {
        "title": 1,
        "questions": [
            _question(options=[_option(recommended=1)]),
            _question(id=2),
        ],
    }
    assert [i.path for i in check_structure(params)] == [
        "title",
        "questions[0].options[0].recommended",
        "questions[1].id",
    ]


def test_numbers_are_not_booleans() -> None:
    params = {"questions": [_question(required=0, options=[_option(recommended=1)])]}
    assert [i.path for i in check_structure(params)] == [
        "questions[0].required",
        "questions[0].options[0].recommended",
    ]
