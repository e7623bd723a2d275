"""Every row of the activation table (behaviour.md §5.4): type x row x trigger."""

from __future__ import annotations

import pytest

from pi_ask.contract.payload import Question, QuestionType
from pi_ask.state.commands import (
    CloseEditor,
    Confirm,
    Digit,
    MoveOption,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import Answer, AskState, EditAnswer, Navigate, Selection
from pi_ask.state.selectors import answer_for, editor_draft, is_answered
from tests.state.builders import FEAT, LANG, question, run, start

SINGLE_CHOICE: tuple[QuestionType, ...] = ("single", "preview")


def choice_question(kind: QuestionType) -> Question:
    return question("q", "a", "b", "c", type=kind)


def with_noted_selection(kind: QuestionType) -> AskState:
    """Option a selected with a question note and a note on option b."""
    return run(
        start(choice_question(kind), question("next", "x")),
        OpenQuestionNote(),
        SubmitEditor("why?"),
        MoveOption(1),
        OpenOptionNote(),
        SubmitEditor("b note"),
        MoveOption(-1),
        Toggle(),
    )


# --- single / preview, option row -----------------------------------------------------


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_confirm_selects_and_advances(kind: QuestionType) -> None:
    state = run(start(choice_question(kind), LANG), MoveOption(1), Confirm())
    assert answer_for(state, "q") == Answer(selected=(Selection("b", "B", 2),))
    assert state.tab == 1


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_confirm_replaces_selection_and_keeps_notes(kind: QuestionType) -> None:
    state = with_noted_selection(kind)
    state = run(state, MoveOption(2), Confirm())
    answer = answer_for(state, "q")
    assert answer is not None
    assert answer.selected == (Selection("c", "C", 3),)
    assert answer.note == "why?"
    assert answer.option_notes == (("b", "b note"),)


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_confirm_discards_custom_text(kind: QuestionType) -> None:
    state = run(start(choice_question(kind), LANG), Digit(4), CloseEditor("mine"))
    assert answer_for(state, "q") == Answer(custom_text="mine", custom_selected=True)
    state = run(state, MoveOption(-3), Confirm())
    assert answer_for(state, "q") == Answer(selected=(Selection("a", "A", 1),))


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_toggle_selects_without_advancing(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), MoveOption(2), Toggle())
    assert answer_for(state, "q") == Answer(selected=(Selection("c", "C", 3),))
    assert (state.tab, state.row) == (0, 2)


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_toggle_replaces_other_selection(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), Toggle(), MoveOption(1), Toggle())
    assert answer_for(state, "q") == Answer(selected=(Selection("b", "B", 2),))


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_toggle_on_selected_clears_it_keeping_notes(kind: QuestionType) -> None:
    state = run(with_noted_selection(kind), Toggle())
    answer = answer_for(state, "q")
    assert answer is not None
    assert answer.selected == ()
    assert answer.note == "why?"
    assert not is_answered(state, "q")


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_toggle_off_without_notes_removes_entry(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), Toggle(), Toggle())
    assert state.answers == ()


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_digit_selects_and_advances(kind: QuestionType) -> None:
    state = run(start(choice_question(kind), LANG), Digit(3))
    assert answer_for(state, "q") == Answer(selected=(Selection("c", "C", 3),))
    assert state.tab == 1


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_option_digit_on_selected_option_just_advances(kind: QuestionType) -> None:
    state = run(start(choice_question(kind), LANG), MoveOption(1), Toggle())
    before = answer_for(state, "q")
    state = run(state, Digit(2))
    assert answer_for(state, "q") == before
    assert state.tab == 1


# --- multi, option row ------------------------------------------------------------------


def test_multi_option_confirm_advances_without_toggling() -> None:
    state = run(start(FEAT, LANG), Confirm())
    assert state.answers == ()
    assert state.tab == 1


def test_multi_option_toggle_adds_and_removes() -> None:
    state = run(start(FEAT), Toggle())
    assert answer_for(state, "feat") == Answer(selected=(Selection("login", "Login", 1),))
    state = run(state, Toggle())
    assert state.answers == ()
    assert state.tab == 0


def test_multi_option_toggle_appends_in_selection_order() -> None:
    state = run(start(FEAT), MoveOption(2), Toggle(), MoveOption(-2), Toggle())
    answer = answer_for(state, "feat")
    assert answer is not None
    assert [s.number for s in answer.selected] == [3, 1]


def test_multi_option_digit_toggles_and_stays() -> None:
    state = run(start(FEAT), Digit(2), Digit(1))
    answer = answer_for(state, "feat")
    assert answer is not None
    assert [(s.value, s.number) for s in answer.selected] == [("export", 2), ("login", 1)]
    assert (state.tab, state.row) == (0, 0)
    state = run(state, Digit(2))
    assert [s.value for s in answer_for(state, "feat").selected] == ["login"]  # type: ignore[union-attr]


def test_multi_option_toggles_never_touch_custom_text() -> None:
    state = run(start(FEAT), Digit(4), SubmitEditor("mine"), Digit(1), Digit(1))
    assert answer_for(state, "feat") == Answer(custom_text="mine", custom_selected=True)


# --- custom row, every type ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ("single", "preview", "multi"))
def test_custom_row_confirm_opens_editor_prefilled(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), Digit(4), CloseEditor("draft"))
    assert state.view == Navigate()
    state = run(state, Confirm())
    assert state.view == EditAnswer("q")
    assert editor_draft(state) == "draft"


@pytest.mark.parametrize("kind", ("single", "preview", "multi"))
def test_custom_row_toggle_without_text_opens_editor(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), MoveOption(3), CloseEditor(""), Toggle())
    assert state.view == EditAnswer("q")


@pytest.mark.parametrize("kind", ("single", "preview", "multi"))
def test_custom_row_digit_without_text_opens_editor(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), Digit(4))
    assert state.row == 3
    assert state.view == EditAnswer("q")


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_custom_row_toggle_with_text_opens_editor(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), Digit(4), CloseEditor("mine"), Toggle())
    assert state.view == EditAnswer("q")
    assert editor_draft(state) == "mine"


@pytest.mark.parametrize("kind", SINGLE_CHOICE)
def test_single_custom_row_digit_with_text_opens_editor(kind: QuestionType) -> None:
    state = run(start(choice_question(kind)), Digit(4), CloseEditor("mine"), Digit(4))
    assert state.view == EditAnswer("q")


def test_multi_custom_row_toggle_with_text_flips_selection_without_editor() -> None:
    state = run(start(FEAT), Digit(1), Digit(4), SubmitEditor("mine"))
    assert answer_for(state, "feat").custom_selected  # type: ignore[union-attr]
    state = run(state, Toggle())
    answer = answer_for(state, "feat")
    assert answer == Answer(
        selected=(Selection("login", "Login", 1),), custom_text="mine", custom_selected=False
    )
    assert state.view == Navigate()
    state = run(state, Toggle())
    assert answer_for(state, "feat").custom_selected  # type: ignore[union-attr]


def test_multi_custom_row_digit_with_text_flips_selection() -> None:
    state = run(start(FEAT), Digit(4), SubmitEditor("mine"), Digit(4))
    assert answer_for(state, "feat") == Answer(custom_text="mine", custom_selected=False)
    assert state.view == Navigate()


# --- digits in general ---------------------------------------------------------------


def test_digits_past_the_last_row_are_ignored() -> None:
    state = start(question("q", "a", "b"))
    assert run(state, Digit(4)) == state
    assert run(state, Digit(9)) == state


def test_digit_reaches_custom_row_at_options_plus_one() -> None:
    state = run(start(question("q", "a", "b")), Digit(3))
    assert (state.row, state.view) == (2, EditAnswer("q"))


def test_with_nine_options_digit_nine_is_the_ninth_option_not_the_custom_row() -> None:
    many = question("q", *(f"o{i}" for i in range(1, 10)))
    state = run(start(many), Digit(9))
    assert answer_for(state, "q") == Answer(selected=(Selection("o9", "O9", 9),))
    assert run(start(many), Digit(10)) == start(many)
