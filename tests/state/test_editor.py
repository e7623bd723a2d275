"""The answer editor: save semantics (§5.5), auto-open (§6.2), lifecycle (§6.3).

Includes python-port.md §6 decisions 3 (an unchanged empty draft never clears a selection)
and 5 (every save path trims).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pi_ask.state.commands import (
    ChangeQuestionType,
    CloseEditor,
    Command,
    Confirm,
    Digit,
    EditorNavigate,
    MoveOption,
    MoveTab,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import Answer, EditAnswer, Navigate, Selection
from pi_ask.state.selectors import answer_for, editor_draft
from tests.state.builders import FEAT, LANG, freeform, question, run, start

PY = Selection("py", "Py", 1)


# --- save semantics -------------------------------------------------------------------


def test_single_submit_saves_selected_custom_text_and_advances() -> None:
    state = run(start(LANG, FEAT), Toggle(), Digit(4), SubmitEditor("Zig"))
    assert answer_for(state, "lang") == Answer(custom_text="Zig", custom_selected=True)
    assert state.tab == 1


def test_multi_submit_keeps_options_and_stays_on_the_custom_row() -> None:
    state = run(start(FEAT, LANG), Digit(1), Digit(4), SubmitEditor("SSO"))
    assert answer_for(state, "feat") == Answer(
        selected=(Selection("login", "Login", 1),), custom_text="SSO", custom_selected=True
    )
    assert (state.tab, state.row, state.view) == (0, 3, Navigate())


def test_single_submit_of_cleared_text_clears_and_stays() -> None:
    state = run(start(LANG, FEAT), Digit(4), CloseEditor("Zig"), Confirm(), SubmitEditor(""))
    assert state.answers == ()
    assert state.tab == 0
    assert state.view == EditAnswer("lang")  # reopened at once: no custom text left


def test_multi_clearing_text_keeps_selected_options() -> None:
    state = run(start(FEAT), Digit(2), Digit(4), SubmitEditor("x"), Confirm(), SubmitEditor(" "))
    assert answer_for(state, "feat") == Answer(selected=(Selection("export", "Export", 2),))


def test_single_close_selects_custom_answer_without_advancing() -> None:
    state = run(start(LANG, FEAT), Toggle(), Digit(4), CloseEditor("Zig"))
    assert answer_for(state, "lang") == Answer(custom_text="Zig", custom_selected=True)
    assert (state.tab, state.view) == (0, Navigate())


def test_single_close_with_text_removed_clears_option_selection() -> None:
    # A stale custom text next to a selected option arises from a multi -> single change.
    state = run(start(FEAT), Digit(4), SubmitEditor("x"), Toggle(), Digit(1), ChangeQuestionType())
    assert answer_for(state, "feat") == Answer(
        selected=(Selection("login", "Login", 1),), custom_text="x"
    )
    state = run(state, MoveOption(3), Confirm(), CloseEditor(""))
    assert state.answers == ()


@pytest.mark.parametrize(
    "save",
    [
        SubmitEditor,
        CloseEditor,
        lambda text: EditorNavigate(text, MoveOption(-1)),
    ],
)
def test_every_save_path_trims_custom_text(save: Callable[[str], Command]) -> None:
    state = run(start(FEAT), Digit(4), save("  Rust \t"))
    assert answer_for(state, "feat") == Answer(custom_text="Rust", custom_selected=True)


def test_whitespace_only_text_counts_as_blank() -> None:
    state = run(start(FEAT), Digit(4), SubmitEditor("   "))
    assert state.answers == ()


# --- decision 3: passing over "Type your own" ---------------------------------------------


def test_passing_over_custom_row_keeps_the_selection() -> None:
    state = run(start(LANG, FEAT), Toggle(), MoveOption(3))
    assert state.view == EditAnswer("lang")
    state = run(state, EditorNavigate("", MoveOption(-1)))
    assert answer_for(state, "lang") == Answer(selected=(PY,))
    assert (state.row, state.view) == (2, Navigate())


def test_tabbing_away_from_empty_editor_keeps_the_selection() -> None:
    state = run(start(LANG, FEAT), Toggle(), MoveOption(3), EditorNavigate("", MoveTab(1)))
    assert answer_for(state, "lang") == Answer(selected=(PY,))
    assert state.tab == 1


def test_esc_on_auto_opened_empty_editor_keeps_the_selection() -> None:
    state = run(start(LANG, FEAT), Toggle(), MoveOption(3), CloseEditor(""))
    assert answer_for(state, "lang") == Answer(selected=(PY,))
    assert state.view == Navigate()


def test_enter_on_empty_editor_changes_nothing_and_reopens() -> None:
    before = run(start(LANG, FEAT), Toggle(), MoveOption(3))
    after = run(before, SubmitEditor(""))
    assert after.answers == before.answers
    assert (after.tab, after.row, after.view) == (0, 3, EditAnswer("lang"))


def test_moving_down_on_last_row_with_empty_editor_stays_in_editor() -> None:
    state = run(start(LANG), MoveOption(3), EditorNavigate("", MoveOption(1)))
    assert (state.row, state.view) == (3, EditAnswer("lang"))


# --- auto-open and its suppression ----------------------------------------------------------


def test_landing_on_custom_row_opens_the_editor() -> None:
    state = run(start(LANG), MoveOption(1), MoveOption(1))
    assert state.view == Navigate()
    assert run(state, MoveOption(1)).view == EditAnswer("lang")


def test_esc_suppresses_auto_open_until_next_commit() -> None:
    state = run(start(LANG), MoveOption(3), CloseEditor(""))
    assert (state.view, state.suppress_auto_open) == (Navigate(), True)
    # A no-op (clamped) move is not a commit: still closed.
    assert run(state, MoveOption(1)).view == Navigate()
    state = run(state, MoveOption(-1), MoveOption(1))
    assert state.view == EditAnswer("lang")


def test_custom_row_with_saved_text_does_not_auto_open() -> None:
    state = run(start(LANG), MoveOption(3), CloseEditor("Zig"), MoveOption(-1), MoveOption(1))
    assert state.view == Navigate()


def test_question_note_saved_on_custom_row_lets_editor_reopen() -> None:
    state = run(start(LANG), MoveOption(3), CloseEditor(""), OpenQuestionNote(), SubmitEditor("n"))
    assert state.view == EditAnswer("lang")


def test_esc_on_a_note_editor_does_not_open_the_answer_editor() -> None:
    state = run(start(LANG), MoveOption(3), CloseEditor(""), OpenQuestionNote(), CloseEditor("n"))
    assert state.view == Navigate()


def test_editor_draft_is_the_stored_custom_text() -> None:
    state = run(start(LANG), MoveOption(3))
    assert editor_draft(state) == ""
    state = run(state, CloseEditor("Zig"), Confirm())
    assert editor_draft(state) == "Zig"
    assert editor_draft(run(state, CloseEditor("Zig"))) == ""  # no editor open


def test_freeform_submit_answers_and_advances() -> None:
    state = run(start(freeform("details"), LANG), SubmitEditor("  all of it "))
    assert answer_for(state, "details") == Answer(custom_text="all of it", custom_selected=True)
    assert state.tab == 1
    assert state.view == Navigate()


def test_freeform_editor_can_tab_away_when_empty() -> None:
    state = run(start(freeform("details"), LANG), EditorNavigate("", MoveTab(1)))
    assert (state.tab, state.view, state.answers) == (1, Navigate(), ())


def test_editor_commands_without_an_open_editor_do_nothing() -> None:
    state = start(question("q", "a"))
    for command in (SubmitEditor("x"), CloseEditor("x"), EditorNavigate("x", MoveTab(1))):
        assert run(state, command) == state
