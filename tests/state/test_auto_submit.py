"""Auto-submit (behaviour.md §5.10, §6.8), evaluated after every action (python-port.md §6
decision 2) and on behaviour changes (§6.9)."""

from __future__ import annotations

from pi_ask.state.commands import (
    BehaviourChanged,
    Confirm,
    Digit,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from tests.state.builders import AUTO_SUBMIT, DEFAULT, FEAT, LANG, run, start


def test_digit_reaching_review_completes_when_all_answered() -> None:
    state = run(start(LANG), Digit(2), behaviour=AUTO_SUBMIT)
    assert (state.completed, state.cancelled, state.mode) == (True, False, "submit")


def test_tab_key_reaching_review_completes() -> None:
    state = run(start(LANG), Toggle(), behaviour=AUTO_SUBMIT)
    assert not state.completed
    assert run(state, MoveTab(1), behaviour=AUTO_SUBMIT).completed
    assert run(state, MoveTab(-1), behaviour=AUTO_SUBMIT).completed


def test_confirm_advance_and_custom_submit_reach_review_and_complete() -> None:
    assert run(start(LANG), Confirm(), behaviour=AUTO_SUBMIT).completed
    state = run(start(LANG), Digit(4), SubmitEditor("Zig"), behaviour=AUTO_SUBMIT)
    assert state.completed


def test_not_while_a_question_is_unanswered() -> None:
    state = run(start(LANG, FEAT), Digit(1), MoveTab(1), behaviour=AUTO_SUBMIT)
    assert state.tab == 2
    assert not state.completed


def test_not_on_a_question_tab() -> None:
    state = run(start(FEAT), Digit(1), behaviour=AUTO_SUBMIT)
    assert not state.completed


def test_not_with_a_question_note() -> None:
    state = run(start(LANG), OpenQuestionNote(), SubmitEditor("n"), Digit(1), behaviour=AUTO_SUBMIT)
    assert state.tab == 1
    assert not state.completed


def test_not_with_a_note_on_an_unselected_option() -> None:
    state = run(
        start(LANG),
        MoveOption(1),
        OpenOptionNote(),
        SubmitEditor("n"),
        Digit(1),
        behaviour=AUTO_SUBMIT,
    )
    assert not state.completed


def test_off_by_default() -> None:
    assert not run(start(LANG), Digit(1), behaviour=DEFAULT).completed


def test_enabling_it_on_a_ready_review_tab_completes() -> None:
    state = run(start(LANG), Digit(1))
    assert not state.completed
    state = run(state, BehaviourChanged(), behaviour=AUTO_SUBMIT)
    assert (state.completed, state.mode) == (True, "submit")


def test_enabling_it_elsewhere_does_nothing() -> None:
    state = run(start(LANG), Toggle())
    assert not run(state, BehaviourChanged(), behaviour=AUTO_SUBMIT).completed
