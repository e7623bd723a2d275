"""``details.reason``: why a cancelled result has no answer (python-port.md §11)."""

from __future__ import annotations

import pytest

from pi_ask.contract.kinds import CANCEL_REASONS, CancelReason
from pi_ask.contract.payload import AskPayload
from pi_ask.state.commands import (
    Abort,
    Cancel,
    Confirm,
    Digit,
    Dismiss,
    MoveOption,
    MoveTab,
    Toggle,
)
from pi_ask.state.results import build_result, non_interactive_result
from pi_ask.state.summary import (
    CANCELLED_TEXT,
    PENDING_FOOTER,
    PENDING_HEADING,
    REASON_LINES,
    summary_text,
    transcript_lines,
)
from tests.state.builders import FEAT, LANG, run, start


def test_a_users_cancel_and_dismiss_and_review_cancel_say_cancelled() -> None:
    by_esc = run(start(LANG), Cancel())
    by_ctrl_c = run(start(LANG), Toggle(), Dismiss(), Dismiss())
    by_review = run(start(LANG), MoveTab(1), MoveOption(2), Confirm())
    for state in (by_esc, by_ctrl_c, by_review):
        result = build_result(state)
        assert result.details.reason == "cancelled"
        assert result.to_json()["details"]["reason"] == "cancelled"  # type: ignore[index]
        assert result.text == CANCELLED_TEXT
        assert result.details.ends_ask


def test_an_abort_says_aborted_keeps_the_answers_and_tells_the_model_not_to_assume() -> None:
    result = build_result(run(start(LANG, FEAT), Toggle(), Abort()))
    assert result.details.reason == "aborted"
    assert list(result.details.answers) == ["lang"]
    assert "Do not assume any answer" in result.text
    assert not result.details.ends_ask
    assert transcript_lines(result) == (("warning", "Aborted"),)


def test_a_timeout_lists_the_questions_keeps_no_answers_and_ends_with_its_line() -> None:
    state = run(start(LANG, FEAT), Toggle(), Abort(reason="timeout"))
    result = build_result(state)
    assert result.details.reason == "timeout"
    assert result.details.answers == {}
    lines = result.text.split("\n")
    assert tuple(lines[:2]) == PENDING_HEADING
    assert lines[-2:] == [PENDING_FOOTER, REASON_LINES["timeout"]]
    assert "1. Language: Pick lang?" in lines
    assert not result.details.ends_ask
    # The same text whether the flow ran or never opened.
    assert non_interactive_result(AskPayload((LANG, FEAT)), "timeout").text == result.text


def test_no_terminal_is_the_reference_text_plus_one_line() -> None:
    result = non_interactive_result(AskPayload((LANG,)))
    assert result.details.reason == "no_terminal"
    lines = result.text.split("\n")
    assert lines[-1] == REASON_LINES["no_terminal"]
    assert lines[-2] == PENDING_FOOTER
    assert "plain text" in lines[-1]


@pytest.mark.parametrize("reason", CANCEL_REASONS)
def test_every_reason_reaches_the_json_and_only_cancelled_ends_the_ask(
    reason: CancelReason,
) -> None:
    result = non_interactive_result(AskPayload((LANG,)), reason)
    details = result.to_json()["details"]
    assert isinstance(details, dict)
    assert details["reason"] == reason
    assert list(details)[:3] == ["cancelled", "reason", "mode"]
    assert result.details.ends_ask == (reason == "cancelled")
    assert summary_text(result.details) == result.text


def test_results_that_are_not_cancelled_have_no_reason() -> None:
    submitted = build_result(run(start(LANG), Digit(1), Confirm()))
    assert not submitted.details.cancelled
    assert submitted.details.reason is None
    assert "reason" not in submitted.to_json()["details"]  # type: ignore[operator]
    assert submitted.details.ends_ask
