"""The review tab: actions (§5.7), double-press shortcuts (§6.5) and what it shows (§7.7)."""

from __future__ import annotations

import pytest

from pi_ask.state.commands import (
    BehaviourChanged,
    Cancel,
    ChangeQuestionType,
    Command,
    Confirm,
    Digit,
    Dismiss,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import AskState
from pi_ask.state.review_tab import ReviewChoice, ReviewEntry, review_entries
from pi_ask.state.selectors import REVIEW_IDLE_HINT, review_hint
from tests.state.builders import DEFAULT, FEAT, LANG, SINGLE_PRESS, question, run, start


def at_review(*commands: Command) -> AskState:
    """One answered question, then the review tab."""
    return run(start(LANG), Digit(1), *commands)


def test_confirm_runs_each_highlighted_action() -> None:
    submit = at_review(Confirm())
    assert (submit.completed, submit.cancelled, submit.mode) == (True, False, "submit")
    elaborate = at_review(MoveOption(1), Confirm())
    assert (elaborate.completed, elaborate.cancelled, elaborate.mode) == (True, False, "elaborate")
    cancel = at_review(MoveOption(2), Confirm())
    assert (cancel.completed, cancel.cancelled, cancel.mode) == (True, True, "submit")


def test_review_cancel_bypasses_the_dirty_guard() -> None:
    state = at_review(MoveOption(2), Confirm())
    assert state.cancelled
    assert state.notice is None


def test_submission_is_never_blocked_by_unanswered_questions() -> None:
    state = run(start(LANG, FEAT), MoveTab(-1), Confirm())
    assert state.completed and not state.cancelled


def test_toggle_on_review_does_nothing() -> None:
    state = at_review()
    assert run(state, Toggle()) == state


def test_first_digit_arms_and_moves_highlight_second_runs() -> None:
    state = at_review(Digit(2))
    assert (state.completed, state.action, state.pending_review_digit) == (False, 1, 2)
    assert review_hint(state, DEFAULT) == "Press 2 again to Elaborate."
    done = run(state, Digit(2))
    assert (done.completed, done.mode) == (True, "elaborate")


@pytest.mark.parametrize(
    ("digit", "hint"),
    [
        (1, "Press 1 again to Submit."),
        (2, "Press 2 again to Elaborate."),
        (3, "Press 3 again to Cancel."),
    ],
)
def test_armed_hint_text(digit: int, hint: str) -> None:
    assert review_hint(at_review(Digit(digit)), DEFAULT) == hint


def test_idle_hint_text() -> None:
    assert review_hint(at_review(), DEFAULT) == "Press 1, 2, or 3 twice to confirm a review action."
    assert REVIEW_IDLE_HINT == "Press 1, 2, or 3 twice to confirm a review action."


def test_no_hint_off_review_or_with_double_press_off() -> None:
    assert review_hint(start(LANG), DEFAULT) is None
    assert review_hint(at_review(), SINGLE_PRESS) is None


def test_a_different_digit_rearms() -> None:
    state = at_review(Digit(1), Digit(3))
    assert (state.pending_review_digit, state.action, state.completed) == (3, 2, False)
    done = run(state, Digit(3))
    assert done.cancelled


def test_digits_four_to_nine_disarm() -> None:
    state = at_review(Digit(1), Digit(5))
    assert state.pending_review_digit is None
    assert not state.completed
    assert run(state, Digit(1)).completed is False


@pytest.mark.parametrize(
    "command",
    [MoveOption(1), MoveOption(-1), Toggle(), ChangeQuestionType(), Cancel(), Dismiss()],
)
def test_other_actions_disarm(command: Command) -> None:
    state = run(at_review(Digit(1)), command)
    assert state.pending_review_digit is None


def test_leaving_the_tab_disarms() -> None:
    state = at_review(Digit(1), MoveTab(1), MoveTab(-1))
    assert state.pending_review_digit is None
    assert not run(state, Digit(1)).completed


def test_enter_runs_the_highlighted_action_at_once() -> None:
    state = at_review(Digit(2), MoveOption(0), Confirm())
    assert state.completed


@pytest.mark.parametrize(
    ("digit", "mode", "cancelled"),
    [(1, "submit", False), (2, "elaborate", False), (3, "submit", True)],
)
def test_with_double_press_off_digits_complete_at_once(
    digit: int, mode: str, cancelled: bool
) -> None:
    state = run(start(LANG), Digit(1), Digit(digit), behaviour=SINGLE_PRESS)
    assert (state.completed, state.mode, state.cancelled) == (True, mode, cancelled)
    assert state.action == digit - 1


def test_with_double_press_off_digits_above_three_do_nothing() -> None:
    state = run(start(LANG), Digit(1), behaviour=SINGLE_PRESS)
    assert run(state, Digit(4), behaviour=SINGLE_PRESS) == state


# --- review entries ---------------------------------------------------------------------


def noted_flow() -> AskState:
    """Py chosen with notes on Py and on the unselected Go; two features; Q3 note-only."""
    return run(
        start(LANG, FEAT, question("extra", "a")),
        OpenOptionNote(),
        SubmitEditor("known"),
        MoveOption(1),
        OpenOptionNote(),
        SubmitEditor("one binary"),
        MoveOption(-1),
        Confirm(),
        Toggle(),
        MoveOption(2),
        Toggle(),
        Confirm(),
        OpenQuestionNote(),
        SubmitEditor("see both"),
        MoveTab(1),
    )


def test_review_entries_with_submit_highlighted_mark_notes_on_options_not_chosen() -> None:
    """Submit drops the note on Go; the review shows it as unsent instead of hiding it."""
    assert review_entries(noted_flow()) == (
        ReviewEntry(
            "Language", (ReviewChoice("Py", "known"),), unsent_notes=(("Go", "one binary"),)
        ),
        ReviewEntry("Features", (ReviewChoice("Login"), ReviewChoice("Sync"))),
        ReviewEntry("Extra"),
    )
    entries = review_entries(noted_flow())
    assert [e.is_unanswered for e in entries] == [False, False, True]
    assert [e.one_per_line for e in entries] == [True, True, False]


def test_review_entries_with_elaborate_highlighted_show_every_note() -> None:
    entries = review_entries(run(noted_flow(), MoveOption(1)))
    assert entries == (
        ReviewEntry(
            "Language", (ReviewChoice("Py", "known"),), other_notes=(("Go", "one binary"),)
        ),
        ReviewEntry("Features", (ReviewChoice("Login"), ReviewChoice("Sync"))),
        ReviewEntry("Extra", note="see both"),
    )
    assert not entries[2].is_unanswered


def test_review_entry_for_custom_only_answer() -> None:
    state = run(start(LANG), Digit(4), SubmitEditor("Zig"))
    (entry,) = review_entries(state)
    assert entry == ReviewEntry("Language", (ReviewChoice("Zig"),), custom_only=True)
    assert not entry.one_per_line


def test_a_behaviour_change_keeps_the_armed_digit() -> None:
    state = at_review(Digit(1), BehaviourChanged())
    assert state.pending_review_digit == 1
    assert run(state, Digit(1)).completed


def test_a_note_on_an_option_of_an_unanswered_question_shows_as_unsent() -> None:
    state = run(start(LANG, FEAT), MoveOption(1), OpenOptionNote(), SubmitEditor("maybe"))
    state = run(state, MoveTab(2))
    language, _ = review_entries(state)
    assert language == ReviewEntry("Language", unsent_notes=(("Go", "maybe"),))
    assert language.is_unanswered
