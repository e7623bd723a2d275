"""Question and option notes (behaviour.md §5.6)."""

from __future__ import annotations

from pi_ask.state.commands import (
    ChangeQuestionType,
    CloseEditor,
    Digit,
    EditorNavigate,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import Answer, EditNote, Navigate, Selection
from pi_ask.state.selectors import answer_for, editor_draft
from tests.state.builders import FEAT, LANG, run, start


def test_question_note_is_saved_trimmed_without_selecting_or_advancing() -> None:
    state = run(start(LANG, FEAT), OpenQuestionNote())
    assert state.view == EditNote("lang")
    state = run(state, SubmitEditor("  SSR matters  "))
    assert answer_for(state, "lang") == Answer(note="SSR matters")
    assert (state.tab, state.row, state.view) == (0, 0, Navigate())


def test_option_note_targets_the_option_under_the_cursor() -> None:
    state = run(start(LANG), MoveOption(1), OpenOptionNote())
    assert state.view == EditNote("lang", "go")
    state = run(state, CloseEditor(" one binary "))
    assert answer_for(state, "lang") == Answer(option_notes=(("go", "one binary"),))


def test_option_note_is_ignored_on_the_custom_row_and_review() -> None:
    on_custom = run(start(LANG), MoveOption(3), CloseEditor(""))
    assert run(on_custom, OpenOptionNote()) == on_custom
    review = run(start(LANG), MoveTab(-1))
    assert run(review, OpenOptionNote()) == review
    assert run(review, OpenQuestionNote()) == review


def test_question_note_can_be_opened_on_the_custom_row() -> None:
    state = run(start(LANG), MoveOption(3), CloseEditor(""), OpenQuestionNote())
    assert state.view == EditNote("lang")


def test_blank_note_removes_it_and_the_empty_entry() -> None:
    state = run(start(LANG), OpenQuestionNote(), SubmitEditor("n"))
    state = run(state, OpenQuestionNote(), SubmitEditor("   "))
    assert state.answers == ()


def test_note_editor_opens_with_the_stored_note() -> None:
    state = run(start(LANG), OpenOptionNote(), SubmitEditor("first"), OpenOptionNote())
    assert editor_draft(state) == "first"
    state = run(state, CloseEditor("first"), OpenQuestionNote())
    assert editor_draft(state) == ""


def test_option_notes_keep_first_written_order() -> None:
    state = run(
        start(LANG),
        MoveOption(2),
        OpenOptionNote(),
        SubmitEditor("rs"),
        MoveOption(-2),
        OpenOptionNote(),
        SubmitEditor("py"),
        MoveOption(2),
        OpenOptionNote(),
        SubmitEditor("rs again"),
    )
    assert answer_for(state, "lang").option_notes == (("rs", "rs again"), ("py", "py"))  # type: ignore[union-attr]
    state = run(state, OpenOptionNote(), SubmitEditor(""), OpenOptionNote(), SubmitEditor("new"))
    assert answer_for(state, "lang").option_notes == (("py", "py"), ("rs", "new"))  # type: ignore[union-attr]


def test_notes_survive_selection_changes_deselection_and_type_changes() -> None:
    state = run(
        start(LANG, FEAT),
        OpenQuestionNote(),
        SubmitEditor("q"),
        MoveOption(1),
        OpenOptionNote(),
        SubmitEditor("go"),
        Toggle(),
        MoveOption(-1),
        Toggle(),
        Toggle(),
        ChangeQuestionType(),
        Digit(4),
        CloseEditor("mine"),
    )
    assert answer_for(state, "lang") == Answer(
        custom_text="mine", custom_selected=True, note="q", option_notes=(("go", "go"),)
    )


def test_saving_a_note_never_selects() -> None:
    state = run(start(FEAT), OpenOptionNote(), SubmitEditor("why"))
    answer = answer_for(state, "feat")
    assert answer is not None
    assert answer.selected == ()
    assert not answer.is_answered


def test_empty_note_editor_navigation_saves_and_moves() -> None:
    state = run(
        start(LANG, FEAT),
        OpenQuestionNote(),
        SubmitEditor("n"),
        OpenQuestionNote(),
        EditorNavigate("", MoveTab(1)),
    )
    assert state.answers == ()
    assert state.tab == 1


def test_note_on_selected_option_stays_with_reselection() -> None:
    state = run(start(FEAT), OpenOptionNote(), SubmitEditor("n"), Toggle(), Toggle(), Toggle())
    assert answer_for(state, "feat") == Answer(
        selected=(Selection("login", "Login", 1),), option_notes=(("login", "n"),)
    )
