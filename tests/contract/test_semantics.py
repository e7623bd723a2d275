"""Semantic rules: every check of behaviour.md §2.3 with its exact path, message and order."""

from __future__ import annotations

import pytest

from pi_ask.contract.kinds import Issue
from pi_ask.contract.semantics import check_semantics

PREVIEW_TEXT = (
    "preview questions require preview text for every option; "
    'add preview text or use type "single" instead'
)


def _option(value: object = "a", label: object = "A", **fields: object) -> dict[str, object]:
    option: dict[str, object] = {**fields}
    if value is not None:
        option["value"] = value
    if label is not None:
        option["label"] = label
    return option


def _question(qid: object = "q", prompt: object = "P?", **fields: object) -> dict[str, object]:
    question: dict[str, object] = {"options": [_option()], **fields}
    if qid is not None:
        question["id"] = qid
    if prompt is not None:
        question["prompt"] = prompt
    return question


def _check(*questions: object, allow_freeform: bool = False) -> tuple[Issue, ...]:
    return check_semantics({"questions": list(questions)}, allow_freeform=allow_freeform)


def test_valid_payload_has_no_issues() -> None:
    assert _check(_question("a"), _question("b", type="multi")) == ()


def test_empty_questions_is_one_issue() -> None:
    assert check_semantics({"questions": []}) == (
        Issue("questions", "At least one question is required"),
    )


def test_wrong_shapes_are_skipped() -> None:
    assert check_semantics("x") == ()
    assert check_semantics({}) == ()
    assert check_semantics({"questions": "x"}) == ()
    assert _check("x", None, 3) == ()


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("grid", '"grid"'),
        ("", '""'),
        ("Single", '"Single"'),
        (3, "3"),
        (None, "null"),
        (True, "true"),
        (["single"], '["single"]'),
        ({"a": 1}, '{"a":1}'),
        ('é"q', '"é\\"q"'),
    ],
)
def test_invalid_type_quotes_the_value_as_json(value: object, shown: str) -> None:
    assert _check(_question(type=value)) == (
        Issue(
            "questions[0].type",
            f'Question 1: invalid type {shown}; expected "single", "multi", or "preview"',
        ),
    )


@pytest.mark.parametrize("qid", [None, "", "   ", "\t\n"])
def test_blank_or_missing_id(qid: object) -> None:
    assert _check(_question(qid)) == (Issue("questions[0].id", "Question 1: id is required"),)


def test_duplicate_ids_compare_trimmed_and_quote_the_trimmed_id() -> None:
    assert _check(_question("scope"), _question(" scope "), _question("other")) == (
        Issue("questions[1].id", 'Question 2: duplicate question id "scope"'),
    )


def test_blank_ids_are_not_tracked_as_duplicates() -> None:
    assert _check(_question(""), _question(" ")) == (
        Issue("questions[0].id", "Question 1: id is required"),
        Issue("questions[1].id", "Question 2: id is required"),
    )


def test_non_string_id_is_skipped_and_not_tracked() -> None:
    assert _check(_question(5), _question("5")) == ()


@pytest.mark.parametrize("prompt", [None, "", "  "])
def test_blank_or_missing_prompt(prompt: object) -> None:
    assert _check(_question(prompt=prompt)) == (
        Issue("questions[0].prompt", "Question 1: prompt is required"),
    )


def test_empty_options() -> None:
    assert _check(_question(options=[])) == (
        Issue("questions[0].options", "Question 1: at least one option is required"),
    )


def test_non_array_options_are_skipped() -> None:
    assert _check(_question(options="x")) == ()
    assert _check({"id": "q", "prompt": "P"}) == ()


def test_freeform_is_refused_unless_allowed() -> None:
    question = _question(options=[_option(freeform=True)])
    assert _check(question) == (
        Issue(
            "questions[0].options",
            "Question 1: freeform options are only supported for pi-ask answer forms",
        ),
    )
    assert _check(question, allow_freeform=True) == ()


def test_only_literal_true_counts_as_freeform() -> None:
    assert _check(_question(options=[_option(freeform=1), _option("b", freeform="true")])) == ()


@pytest.mark.parametrize(
    "options",
    [
        [_option(freeform=True), _option("b")],
        [_option("b"), _option(freeform=True)],
        [_option(freeform=True), _option("b", freeform=True)],
    ],
)
def test_freeform_must_be_the_only_option(options: list[object]) -> None:
    assert _check(_question(options=options), allow_freeform=True) == (
        Issue("questions[0].options", "Question 1: freeform options must be the only option"),
    )


@pytest.mark.parametrize("value", [None, "", "  "])
def test_blank_or_missing_value(value: object) -> None:
    assert _check(_question(options=[_option(value)])) == (
        Issue("questions[0].options[0].value", "Question 1, option 1: value is required"),
    )


def test_duplicate_values_compare_trimmed_within_one_question_only() -> None:
    options = [_option("small"), _option(" small", "B"), _option("large", "C")]
    assert _check(_question("a", options=options), _question("b", options=[_option("small")])) == (
        Issue(
            "questions[0].options[1].value",
            'Question 1, option 2: duplicate option value "small"',
        ),
    )


def test_blank_values_are_not_tracked_as_duplicates() -> None:
    assert [i.message for i in _check(_question(options=[_option(""), _option(" ")]))] == [
        "Question 1, option 1: value is required",
        "Question 1, option 2: value is required",
    ]


@pytest.mark.parametrize("label", [None, "", "   "])
def test_blank_or_missing_label(label: object) -> None:
    assert _check(_question(options=[_option(label=label)])) == (
        Issue("questions[0].options[0].label", "Question 1, option 1: label is required"),
    )


@pytest.mark.parametrize("preview", [None, "", " \t "])
def test_preview_questions_need_preview_text(preview: object) -> None:
    option = _option() if preview is None else _option(preview=preview)
    assert _check(_question(type="preview", options=[option])) == (
        Issue("questions[0].options[0].preview", f"Question 1, option 1: {PREVIEW_TEXT}"),
    )


def test_descriptions_do_not_satisfy_the_preview_rule() -> None:
    option = _option(description="A long description")
    assert [i.path for i in _check(_question(type="preview", options=[option]))] == [
        "questions[0].options[0].preview"
    ]


def test_preview_text_on_other_types_is_allowed() -> None:
    for question_type in ("single", "multi"):
        assert _check(_question(type=question_type, options=[_option(preview="x")])) == ()


def test_invalid_type_counts_as_single_for_the_preview_rule() -> None:
    assert [i.path for i in _check(_question(type="previews"))] == ["questions[0].type"]


def test_every_issue_is_collected_in_the_contract_order() -> None:
    first = {
        "type": "grid",
        "id": " ",
        "prompt": "",
        "options": [_option(freeform=True)],
    }
    second = {
        "type": "preview",
        "id": "dup",
        "prompt": "P",
        "options": [
            {"value": "", "label": ""},
            {"value": "x", "label": "X", "preview": "ok"},
            {"value": " x ", "label": " "},
        ],
    }
    third = {"id": "dup", "options": []}
    assert check_semantics({"questions": [first, second, third]}) == (
        Issue(
            "questions[0].type",
            'Question 1: invalid type "grid"; expected "single", "multi", or "preview"',
        ),
        Issue("questions[0].id", "Question 1: id is required"),
        Issue("questions[0].prompt", "Question 1: prompt is required"),
        Issue(
            "questions[0].options",
            "Question 1: freeform options are only supported for pi-ask answer forms",
        ),
        Issue("questions[1].options[0].value", "Question 2, option 1: value is required"),
        Issue("questions[1].options[0].label", "Question 2, option 1: label is required"),
        Issue("questions[1].options[0].preview", f"Question 2, option 1: {PREVIEW_TEXT}"),
        Issue("questions[1].options[2].value", 'Question 2, option 3: duplicate option value "x"'),
        Issue("questions[1].options[2].label", "Question 2, option 3: label is required"),
        Issue("questions[1].options[2].preview", f"Question 2, option 3: {PREVIEW_TEXT}"),
        Issue("questions[2].id", 'Question 3: duplicate question id "dup"'),
        Issue("questions[2].prompt", "Question 3: prompt is required"),
        Issue("questions[2].options", "Question 3: at least one option is required"),
    )


def test_options_that_are_not_objects_are_skipped() -> None:
    assert _check(_question(options=["x", None, _option()])) == ()
