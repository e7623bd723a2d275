"""Read-only selectors the faces draw from."""

from __future__ import annotations

from pi_ask.state.commands import CloseEditor, Digit, MoveOption, MoveTab, SubmitEditor, Toggle
from pi_ask.state.selectors import (
    current_question,
    current_row,
    is_answered,
    is_review_tab,
    is_row_selected,
    question_by_id,
    question_rows,
)
from tests.state.builders import FEAT, LANG, run, start


def test_current_question_and_row_follow_the_cursor() -> None:
    state = run(start(LANG, FEAT), MoveOption(2))
    assert current_question(state) == LANG
    row = current_row(state)
    assert row is not None and (row.value, row.number) == ("rs", 3)
    review = run(state, MoveTab(-1))
    assert is_review_tab(review)
    assert current_question(review) is None


def test_question_by_id() -> None:
    state = start(LANG, FEAT)
    assert question_by_id(state, "feat") == FEAT
    assert question_by_id(state, "nope") is None


def test_row_selection_marks_options_and_selected_custom_text() -> None:
    state = run(start(FEAT), Digit(2), Digit(4), SubmitEditor("mine"))
    rows = question_rows(FEAT)
    assert [is_row_selected(state, FEAT, r) for r in rows] == [False, True, False, True]
    state = run(state, Toggle())  # deselect the custom text, which stays saved
    assert [is_row_selected(state, FEAT, r) for r in rows] == [False, True, False, False]


def test_answered_means_an_option_or_selected_custom_text() -> None:
    state = run(start(FEAT), Digit(4), SubmitEditor("x"))
    assert is_answered(state, "feat")
    assert not is_answered(run(state, Toggle()), "feat")
    single = run(start(LANG), Digit(4), CloseEditor("x"))
    assert is_answered(single, "lang")
