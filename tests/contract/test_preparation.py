"""Label preparation (behaviour.md §2.1)."""

from __future__ import annotations

import copy

import pytest

from pi_ask.contract.preparation import derive_label, prepare_payload


@pytest.mark.parametrize(
    ("value", "label"),
    [
        ("region-local-kms-reencrypt-dek", "Region local kms reencrypt dek"),
        ("follow_up", "Follow up"),
        ("__snake__case--x", "Snake case x"),
        ("  spaced \t\n out  ", "Spaced out"),
        ("a-_-b", "A b"),
        ("already Capital", "Already Capital"),
        ("mIxed-CASE", "MIxed CASE"),
        ("ünïcode_value", "Ünïcode value"),
        ("x", "X"),
        ("42-answers", "42 answers"),
    ],
)
def test_derive_label_examples(value: str, label: str) -> None:
    assert derive_label(value) == label


@pytest.mark.parametrize("value", ["", "   ", "---", "_-_", " - _ \t"])
def test_derive_label_returns_none_for_separator_only_values(value: str) -> None:
    assert derive_label(value) is None


def _options(params: object) -> list[object]:
    assert isinstance(params, dict)
    return params["questions"][0]["options"]  # type: ignore[no-any-return]


def _payload(*options: object) -> dict[str, object]:
    return {"questions": [{"id": "q", "prompt": "P?", "options": list(options)}]}


def test_missing_and_blank_labels_are_derived_and_others_kept() -> None:
    raw = _payload(
        {"value": "region-local-kms-reencrypt-dek"},
        {"value": "follow_up", "label": "  "},
        {"value": "existing", "label": "Existing label"},
        {"value": "empty", "label": ""},
    )
    labels = [o["label"] for o in _options(prepare_payload(raw))]  # type: ignore[index]
    assert labels == ["Region local kms reencrypt dek", "Follow up", "Existing label", "Empty"]


def test_label_keeps_surrounding_whitespace_when_not_blank() -> None:
    # Preparation only fills in; trimming is normalization's job.
    prepared = prepare_payload(_payload({"value": "v", "label": "  Kept  "}))
    assert _options(prepared) == [{"value": "v", "label": "  Kept  "}]


def test_non_string_label_is_left_for_the_structural_check() -> None:
    labels: tuple[object, ...] = (5, None, False, [], {})
    for label in labels:
        prepared = prepare_payload(_payload({"value": "v", "label": label}))
        assert _options(prepared) == [{"value": "v", "label": label}]


def test_nothing_is_derived_without_a_usable_string_value() -> None:
    options = [{"value": "  "}, {"value": "--"}, {"value": 3}, {}, {"label": " ", "value": None}]
    prepared = prepare_payload(_payload(*options))
    assert _options(prepared) == options


def test_other_option_fields_are_preserved() -> None:
    option = {"value": "v", "description": "d", "recommended": False, "extra": [1]}
    prepared = prepare_payload(_payload(option))
    assert _options(prepared) == [{**option, "label": "V"}]


@pytest.mark.parametrize(
    "params",
    [
        None,
        "text",
        [{"questions": []}],
        {},
        {"questions": "nope"},
        {"questions": ["not an object", 3, None]},
        {"questions": [{"id": "q", "options": "nope"}]},
        {"questions": [{"id": "q"}]},
        {"questions": [{"options": ["str", 1, None, []]}]},
    ],
)
def test_shapes_that_do_not_allow_preparation_pass_through_unchanged(params: object) -> None:
    assert prepare_payload(params) == params


def test_input_is_never_mutated() -> None:
    raw = _payload({"value": "a-b"}, {"value": "c", "label": ""})
    before = copy.deepcopy(raw)
    prepared = prepare_payload(raw)
    assert raw == before
    assert prepared != raw


def test_extra_top_level_and_question_fields_are_kept() -> None:
    raw = {
        "title": " T ",
        "extra": 1,
        "questions": [{"id": "q", "prompt": "P", "note": "x", "options": [{"value": "a"}]}],
    }
    assert prepare_payload(raw) == {
        "title": " T ",
        "extra": 1,
        "questions": [
            {"id": "q", "prompt": "P", "note": "x", "options": [{"value": "a", "label": "A"}]}
        ],
    }
