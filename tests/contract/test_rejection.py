"""The invalid-payload tool result (behaviour.md §2.5, python-port.md §6.6)."""

from __future__ import annotations

import json

from pi_ask.contract.kinds import Issue
from pi_ask.contract.loading import InvalidPayload, load_payload, parse_payload
from pi_ask.contract.rejection import invalid_result


def _invalid(source: object) -> InvalidPayload:
    result = load_payload(source)
    assert isinstance(result, InvalidPayload)
    return result


def test_duplicate_id_result_matches_the_contract() -> None:
    invalid = _invalid(
        {
            "title": "Clarify",
            "questions": [
                {
                    "id": "scope",
                    "prompt": "Pick scope",
                    "options": [{"value": "small", "label": "Small"}],
                },
                {
                    "id": "scope",
                    "prompt": "Pick tone",
                    "options": [{"value": "direct", "label": "Direct"}],
                },
            ],
        }
    )
    assert invalid_result(invalid).to_json() == {
        "content": [
            {
                "type": "text",
                "text": "Invalid ask_user payload:\n"
                '- questions[1].id: Question 2: duplicate question id "scope"',
            }
        ],
        "details": {
            "title": "Clarify",
            "cancelled": True,
            "error": {
                "kind": "invalid_input",
                "issues": [
                    {
                        "path": "questions[1].id",
                        "message": 'Question 2: duplicate question id "scope"',
                    }
                ],
            },
            "mode": "submit",
            "questions": [],
            "answers": {},
        },
    }


def test_one_line_per_issue_without_trailing_newline() -> None:
    invalid = InvalidPayload(
        (
            Issue("questions[0].id", "Question 1: id is required"),
            Issue("questions[0].prompt", "Question 1: prompt is required"),
        )
    )
    assert invalid_result(invalid).text == (
        "Invalid ask_user payload:\n"
        "- questions[0].id: Question 1: id is required\n"
        "- questions[0].prompt: Question 1: prompt is required"
    )


def test_whole_payload_issue_line_has_no_empty_path() -> None:
    result = invalid_result(_invalid("[1, 2]"))
    assert result.text == "Invalid ask_user payload:\n- payload must be a JSON object"
    details = result.to_json()["details"]
    assert isinstance(details, dict)
    assert details["error"] == {
        "kind": "invalid_input",
        "issues": [{"path": "", "message": "payload must be a JSON object"}],
    }
    assert "title" not in details


def test_title_is_trimmed_and_blank_title_is_absent() -> None:
    base: dict[str, object] = {"questions": []}
    trimmed = invalid_result(_invalid({**base, "title": "  Clarify \n"}))
    assert trimmed.details.title == "Clarify"
    assert trimmed.to_json()["details"]["title"] == "Clarify"  # type: ignore[index]
    for title in ("", "   "):
        assert invalid_result(_invalid({**base, "title": title})).details.title is None
    assert invalid_result(_invalid({**base, "title": 7})).details.title is None


def test_details_are_cancelled_submit_with_nothing_asked() -> None:
    details = invalid_result(_invalid({"questions": []})).details
    assert details.cancelled is True
    assert details.mode == "submit"
    assert details.questions == ()
    assert details.answers == {}
    assert details.continuation is None
    assert details.elaboration is None
    assert details.error_issues == (Issue("questions", "At least one question is required"),)


def test_result_serializes_to_json() -> None:
    invalid = parse_payload(
        '{"title": "é", "questions": [{"id": "q", "type": "ü", "options": []}]}'
    )
    assert isinstance(invalid, InvalidPayload)
    document = json.loads(json.dumps(invalid_result(invalid).to_json(), ensure_ascii=False))
    assert document["content"][0]["text"].splitlines() == [
        "Invalid ask_user payload:",
        '- questions[0].type: Question 1: invalid type "ü"; '
        'expected "single", "multi", or "preview"',
        "- questions[0].prompt: Question 1: prompt is required",
        "- questions[0].options: Question 1: at least one option is required",
    ]
