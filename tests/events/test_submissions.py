"""Submission checks: the request envelope and the answers, with the exact messages of §13."""

from __future__ import annotations

import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.events.bus import COMPLETED, SUBMIT_RESULT
from pi_ask.events.submissions import SubmitFailure, parse_remote_response, parse_submit_request
from pi_ask.state.commands import ReplaceAnswers, SubmittedAnswer
from tests.events.flows import open_flow, questions, submit

# --- request envelope ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "ids", "message"),
    [
        (None, ("", ""), "Submit event must be an object."),
        ([1], ("", ""), "Submit event must be an object."),
        ({"requestId": "r", "flowId": "f"}, ("r", "f"), "Submit event version must be 1."),
        ({"version": "1", "requestId": "r"}, ("r", ""), "Submit event version must be 1."),
        ({"version": True, "flowId": "f"}, ("", "f"), "Submit event version must be 1."),
        ({"version": 1, "flowId": "f"}, ("", "f"), "Submit event requestId is required."),
        (
            {"version": 1, "requestId": 7, "flowId": "f"},
            ("", "f"),
            "Submit event requestId is required.",
        ),
        (
            {"version": 1, "requestId": "r", "flowId": ""},
            ("r", ""),
            "Submit event flowId is required.",
        ),
        (submit("f", None), ("r1", "f"), "Submit response must be an object."),
        (submit("f", "cancel"), ("r1", "f"), "Submit response must be an object."),
        (submit("f", {}), ("r1", "f"), 'Submit response kind must be "answer" or "cancel".'),
        (
            submit("f", {"kind": "ok"}),
            ("r1", "f"),
            'Submit response kind must be "answer" or "cancel".',
        ),
    ],
)
def test_invalid_requests_are_refused_in_order(
    data: object, ids: tuple[str, str], message: str
) -> None:
    parsed = parse_submit_request(data)
    assert parsed == (*ids, SubmitFailure("invalid_request", message))
    registry, _, recorder = open_flow()
    reply = registry.submit(data)
    assert reply == {
        "version": 1,
        "requestId": ids[0],
        "flowId": ids[1],
        "ok": False,
        "error": "invalid_request",
        "message": message,
    }
    assert recorder.events[-1] == (SUBMIT_RESULT, reply)


# --- answer validation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "message"),
    [
        ({"kind": "answer"}, "Answer response must include an answers object."),
        ({"kind": "answer", "answers": []}, "Answer response must include an answers object."),
        (
            {"kind": "answer", "answers": {}, "mode": "review"},
            'Answer mode must be "submit" or "elaborate".',
        ),
        ({"kind": "answer", "answers": {"nope": {}}}, 'Unknown question id "nope".'),
        (
            {"kind": "answer", "answers": {"db": "pg"}},
            'Answer for question "db" must be an object.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": "pg"}}},
            'Answer values for question "db" must be strings.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": None}}},
            'Answer values for question "db" must be strings.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": [1]}}},
            'Answer values for question "db" must be strings.',
        ),
        (
            {"kind": "answer", "answers": {"fw": {"values": ["vue", "vue"]}}},
            'Answer values for question "fw" must be unique.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": ["pg", "sqlite"]}}},
            'Question "db" accepts only one selected value.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"customText": 3}}},
            'Custom text for question "db" must be a string.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": ["pg"], "customText": "x"}}},
            'Question "db" cannot combine a selected value and custom text.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"note": ["x"]}}},
            'Note for question "db" must be a string.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"optionNotes": {"pg": 1}}}},
            'Option notes for question "db" must be string values.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"optionNotes": ["pg"]}}},
            'Option notes for question "db" must be string values.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": ["PostgreSQL"]}}},
            'Unknown option value "PostgreSQL" for question "db".',
        ),
        (
            {"kind": "answer", "answers": {"db": {"optionNotes": {"mysql": "why"}}}},
            'Unknown option note value "mysql" for question "db".',
        ),
        # The first failing question wins, in the order the submission lists them.
        (
            {"kind": "answer", "answers": {"fw": {"values": ["x"]}, "db": 1}},
            'Unknown option value "x" for question "fw".',
        ),
    ],
)
def test_invalid_answers_leave_the_flow_open(response: dict[str, object], message: str) -> None:
    registry, flow, recorder = open_flow()
    reply = registry.submit(submit(flow.flow_id, response))
    assert reply == {
        "version": 1,
        "requestId": "r1",
        "flowId": flow.flow_id,
        "ok": False,
        "error": "invalid_answer",
        "message": message,
    }
    assert flow.received == []
    assert registry.active_flow_ids() == (flow.flow_id,)
    assert COMPLETED not in recorder.channels()


def test_blank_text_passes_the_checks_that_only_concern_real_text() -> None:
    parsed = parse_remote_response(
        questions(),
        {
            "kind": "answer",
            "answers": {
                "db": {"values": ["pg"], "customText": "  ", "optionNotes": {"ghost": " "}},
            },
        },
    )
    assert parsed == ReplaceAnswers(
        (("db", SubmittedAnswer(values=("pg",), custom_text="  ", note="")),), "submit"
    )


def test_single_presented_as_multi_accepts_several_values_and_text() -> None:
    answers = {"db": {"values": ["sqlite", "pg"], "customText": "duckdb"}}
    parsed = parse_remote_response(
        questions(as_multi=True), {"kind": "answer", "answers": answers, "mode": "elaborate"}
    )
    assert parsed == ReplaceAnswers(
        (("db", SubmittedAnswer(values=("sqlite", "pg"), custom_text="duckdb", note="")),),
        "elaborate",
    )


def test_freeform_rows_are_not_choices() -> None:
    form = {
        "questions": [
            {"id": "a", "prompt": "Name?", "options": [{"value": "free", "freeform": True}]}
        ]
    }
    loaded = load_payload(form, allow_freeform=True)
    assert isinstance(loaded, LoadedPayload)
    parsed = parse_remote_response(
        loaded.payload.questions, {"kind": "answer", "answers": {"a": {"values": ["free"]}}}
    )
    assert parsed == SubmitFailure(
        "invalid_answer", 'Unknown option value "free" for question "a".'
    )
