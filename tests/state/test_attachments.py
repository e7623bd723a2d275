"""Attachments in the state and the result: records in, the wire form and the summary out."""

from __future__ import annotations

import jsonschema

from pi_ask.contract.attachments import Attachment, LimitProblem, attachment_problem
from pi_ask.contract.result_reading import read_result
from pi_ask.contract.result_schema import result_schema
from pi_ask.state.commands import AttachFile, Confirm, DetachFile, MoveTab
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from pi_ask.state.results import build_result
from tests.faces.tui.driver import state_for

SHOT = Attachment("/state/attachments/a/shot.png", "shot.png", 48_213, "image/png")
LOG = Attachment("/state/attachments/a/log.txt", "log.txt", 900, "text/plain")


def payload() -> dict[str, object]:
    return {
        "questions": [
            {"id": "bug", "prompt": "Where?", "options": [{"value": "ui"}, {"value": "api"}]},
        ]
    }


def test_an_attachment_rides_with_the_answer_into_the_result() -> None:
    state = state_for(payload())
    state = apply(state, AttachFile("bug", SHOT), Behaviour())
    state = apply(state, AttachFile("bug", SHOT), Behaviour())  # the same copy once
    state = apply(state, AttachFile("bug", LOG), Behaviour())
    state = apply(state, DetachFile("bug", LOG.path), Behaviour())
    state = apply(state, Confirm(), Behaviour())  # chooses ui, goes to the review
    state = apply(state, Confirm(), Behaviour())  # Submit
    result = build_result(state)
    wire = result.to_json()
    jsonschema.validate(wire, result_schema())
    assert wire["details"]["answers"]["bug"]["attachments"] == [
        {"path": SHOT.path, "name": "shot.png", "size": 48_213, "media_type": "image/png"}
    ]
    assert wire["content"][0]["text"].endswith(": Ui\n  attached: shot.png (48.2 KB)")
    assert read_result(wire).details.answers["bug"].attachments == (SHOT,)


def test_an_answer_holding_only_a_file_is_kept_and_named() -> None:
    state = apply(state_for(payload()), AttachFile("bug", SHOT), Behaviour())
    state = apply(state, MoveTab(1), Behaviour())
    state = apply(state, Confirm(), Behaviour())
    text = build_result(state).text
    assert "(no answer)" in text and "  attached: shot.png (48.2 KB)" in text


def test_the_limits_say_what_is_wrong() -> None:
    assert attachment_problem((SHOT,), 10, 1, 10**9) == LimitProblem("files", 1)
    assert attachment_problem((), 2_000_000, 10, 1_000_000) == LimitProblem(
        "bytes", 1_000_000, 2_000_000
    )
    assert attachment_problem((SHOT,), 10, 10, 10**9) is None
