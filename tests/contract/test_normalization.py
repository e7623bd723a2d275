"""Normalization of valid payloads (behaviour.md §2.4)."""

from __future__ import annotations

import pytest

from pi_ask.contract.normalization import normalize
from pi_ask.contract.payload import AskPayload, Option, Question


def _params(*questions: dict[str, object], **top: object) -> dict[str, object]:
    return {**top, "questions": list(questions)}


def _question(**fields: object) -> dict[str, object]:
    return {"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}], **fields}


def test_full_normalization() -> None:
    params = _params(
        {
            "id": "  lang ",
            "label": " Language\t",
            "prompt": "\nWhich language?  ",
            "type": "multi",
            "required": True,
            "options": [
                {
                    "value": " py ",
                    "label": " Py\tthon ",
                    "description": "  fast  enough ",
                    "preview": "\n  code\n",
                    "recommended": True,
                    "extra": 1,
                },
                {"value": "rs", "label": "Rust", "description": "  ", "preview": ""},
            ],
        },
        title="  My  title ",
    )
    assert normalize(params) == AskPayload(
        title="My  title",
        questions=(
            Question(
                id="lang",
                label="Language",
                prompt="Which language?",
                type="multi",
                requested_type="multi",
                required=True,
                options=(
                    Option(
                        value="py",
                        label="Py\tthon",
                        description="fast  enough",
                        preview="code",
                        recommended=True,
                    ),
                    Option(value="rs", label="Rust"),
                ),
            ),
        ),
    )


@pytest.mark.parametrize("title", [None, "", "   ", "\t\n"])
def test_blank_or_missing_title_is_absent(title: str | None) -> None:
    params = _params(_question()) if title is None else _params(_question(), title=title)
    assert normalize(params).title is None


def test_labels_default_to_position() -> None:
    payload = normalize(
        _params(_question(id="a"), _question(id="b", label="  "), _question(id="c", label="C"))
    )
    assert [q.label for q in payload.questions] == ["Q1", "Q2", "C"]


def test_defaults() -> None:
    question = normalize(_params(_question())).questions[0]
    assert question.type == "single"
    assert question.requested_type == "single"
    assert question.presented_type is None
    assert question.required is False
    assert question.options == (Option(value="a", label="A"),)


def test_recommended_is_kept_when_present_including_false() -> None:
    options = [
        {"value": "a", "label": "A", "recommended": True},
        {"value": "b", "label": "B", "recommended": False},
        {"value": "c", "label": "C"},
    ]
    payload = normalize(_params(_question(options=options)))
    assert [o.recommended for o in payload.questions[0].options] == [True, False, None]


def test_freeform_is_kept_only_when_true() -> None:
    options = [
        {"value": "a", "label": "A", "freeform": True},
        {"value": "b", "label": "B", "freeform": False},
        {"value": "c", "label": "C", "freeform": "true"},
    ]
    payload = normalize(_params(_question(options=options)))
    assert [o.freeform for o in payload.questions[0].options] == [True, False, False]


def test_freeform_only_question() -> None:
    options = [{"value": "answer", "label": "Answer", "freeform": True}]
    assert normalize(_params(_question(options=options))).questions[0].is_freeform


@pytest.mark.parametrize(
    ("requested", "flag", "presented"),
    [
        ("single", False, "single"),
        ("single", True, "multi"),
        (None, True, "multi"),
        ("multi", True, "multi"),
        ("preview", True, "preview"),
        ("preview", False, "preview"),
    ],
)
def test_present_single_as_multi(requested: str | None, flag: bool, presented: str) -> None:
    fields: dict[str, object] = {"options": [{"value": "a", "label": "A", "preview": "p"}]}
    if requested is not None:
        fields["type"] = requested
    question = normalize(_params(_question(**fields)), present_single_as_multi=flag).questions[0]
    assert question.type == presented
    assert question.requested_type == (requested or "single")
    expected_presented = presented if presented != question.requested_type else None
    assert question.presented_type == expected_presented


def test_question_order_and_option_order_are_kept() -> None:
    payload = normalize(
        _params(
            _question(id="z", options=[{"value": "2", "label": "2"}, {"value": "1", "label": "1"}]),
            _question(id="a"),
        )
    )
    assert [q.id for q in payload.questions] == ["z", "a"]
    assert [o.value for o in payload.questions[0].options] == ["2", "1"]


@pytest.mark.parametrize(
    "params",
    [
        None,
        [],
        {},
        {"questions": "x"},
        {"questions": ["x"]},
        {"questions": [{"prompt": "P", "options": []}]},
        {"questions": [{"id": "q", "prompt": "P", "type": "grid", "options": []}]},
        {"questions": [{"id": "q", "prompt": "P", "options": [{"label": "A"}]}]},
        {"title": 3, "questions": []},
    ],
)
def test_unvalidated_input_is_a_caller_bug(params: object) -> None:
    with pytest.raises(ValueError, match="passed validation"):
        normalize(params)
