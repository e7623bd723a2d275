"""Cancel, dismiss and the dirty-dismiss guard (behaviour.md §5.9, §6.4, §6.6).

Includes python-port.md §6 decision 4: the guard has its own pending flag.
"""

from __future__ import annotations

import pytest

from pi_ask.contract.payload import AskPayload
from pi_ask.state.commands import (
    Abort,
    BehaviourChanged,
    Cancel,
    ChangeQuestionType,
    CloseEditor,
    Command,
    Digit,
    Dismiss,
    MoveOption,
    MoveTab,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from pi_ask.state.selectors import footer_notice, is_dirty
from tests.state.builders import FEAT, LANG, NO_GUARD, run, start

WARNING = "Unsaved ask answers or drafts. Press Esc or Ctrl+C again to discard."


@pytest.mark.parametrize("command", [Cancel(), Dismiss()])
def test_clean_flow_cancels_at_once(command: Command) -> None:
    state = run(start(LANG), command)
    assert (state.completed, state.cancelled, state.mode) == (True, True, "submit")


@pytest.mark.parametrize("first", [Cancel(), Dismiss()])
@pytest.mark.parametrize("second", [Cancel(), Dismiss()])
def test_dirty_flow_warns_then_either_key_discards(first: Command, second: Command) -> None:
    state = run(start(LANG, FEAT), Toggle(), first)
    assert not state.completed
    assert state.notice == WARNING
    assert footer_notice(state) == WARNING
    assert state.pending_dismiss
    state = run(state, second)
    assert state.completed and state.cancelled


def test_guard_off_cancels_dirty_flow_at_once() -> None:
    state = run(start(LANG), Toggle(), Cancel(), behaviour=NO_GUARD)
    assert state.cancelled


def test_every_answer_entry_makes_the_flow_dirty() -> None:
    assert not is_dirty(start(LANG))
    assert is_dirty(run(start(LANG), OpenQuestionNote(), SubmitEditor("n")))
    deselected_custom = run(start(FEAT), Digit(4), SubmitEditor("x"), Toggle())
    assert is_dirty(deselected_custom)


def test_open_editor_raw_text_makes_the_flow_dirty_whitespace_included() -> None:
    state = run(start(LANG), MoveOption(3))
    assert not is_dirty(state, "")
    assert is_dirty(state, " ")
    assert run(state, Dismiss(" ")).notice == WARNING
    assert run(state, Dismiss("")).cancelled


def test_dismiss_from_an_editor_discards_the_draft() -> None:
    state = run(start(LANG), MoveOption(3), Dismiss("Zig"), Dismiss("Zig"))
    assert state.cancelled
    assert state.answers == ()
    assert build_result(state).details.answers == {}


def test_cancelled_result_keeps_answers_present_at_cancel_time() -> None:
    state = run(start(LANG, FEAT), Toggle(), Cancel(), Cancel())
    result = build_result(state)
    assert result.text == "User cancelled the ask flow"
    assert result.details.cancelled
    assert list(result.details.answers) == ["lang"]


def test_warning_survives_moves_and_toggles_but_not_a_tab_change() -> None:
    state = run(start(LANG, FEAT), Toggle(), Cancel(), MoveOption(1), Toggle())
    assert state.notice == WARNING
    assert state.pending_dismiss
    state = run(state, MoveTab(1))
    assert state.notice is None
    assert not state.pending_dismiss
    assert not run(state, Cancel()).completed  # re-armed: warns again


def test_advance_counts_as_a_tab_change() -> None:
    state = run(start(LANG, FEAT), Toggle(), Cancel(), Digit(2))
    assert state.tab == 1
    assert (state.notice, state.pending_dismiss) == (None, False)


def test_type_change_notice_does_not_bypass_the_guard() -> None:
    state = run(start(LANG, FEAT), Toggle(), ChangeQuestionType())
    assert state.notice == "Question type changed from single to multi."
    state = run(state, Cancel())
    assert not state.completed
    assert state.notice == WARNING


def test_type_change_notice_does_not_disarm_a_pending_dismiss() -> None:
    state = run(start(LANG, FEAT), Toggle(), Cancel(), ChangeQuestionType())
    assert state.notice == "Question type changed from single to multi."
    assert state.pending_dismiss
    assert run(state, Dismiss()).cancelled


def test_abort_cancels_without_the_guard() -> None:
    state = run(start(LANG), Toggle(), Abort())
    assert (state.completed, state.cancelled) == (True, True)


def test_config_notice_shows_when_no_flow_notice_and_clears_on_tab_change() -> None:
    state = new_state(AskPayload((LANG, FEAT)), config_notice="bad config")
    assert footer_notice(state) == "bad config"
    assert footer_notice(run(state, Toggle(), Cancel())) == WARNING
    assert footer_notice(run(state, MoveTab(1))) is None


def test_behaviour_change_replaces_the_config_notice() -> None:
    state = new_state(AskPayload((LANG,)), config_notice="bad config")
    assert run(state, BehaviourChanged()).config_notice is None
    assert run(state, BehaviourChanged("other")).config_notice == "other"


def test_esc_in_editor_is_close_not_cancel() -> None:
    state = run(start(LANG), MoveOption(3), CloseEditor("x"))
    assert not state.completed


def test_cancel_with_an_editor_open_uses_the_guard_and_discards_the_draft() -> None:
    state = run(start(LANG), MoveOption(3), Cancel("Zig"))
    assert state.notice == WARNING
    state = run(state, Cancel("Zig"))
    assert state.cancelled and state.answers == ()


def test_editor_submit_advance_clears_the_notice() -> None:
    state = run(start(LANG, FEAT), Toggle(), Cancel(), MoveOption(3), SubmitEditor("Zig"))
    assert state.tab == 1
    assert (state.notice, state.pending_dismiss) == (None, False)
