"""Tabs, rows and the advance rule (behaviour.md §5.1-5.3)."""

from __future__ import annotations

from pi_ask.state.commands import (
    BehaviourChanged,
    Cancel,
    Confirm,
    Digit,
    MoveOption,
    MoveTab,
    Toggle,
)
from pi_ask.state.model import AskState, EditAnswer, Navigate, Review
from pi_ask.state.selectors import current_row, question_rows, tab_states
from tests.state.builders import FEAT, LANG, LAYOUT, freeform, question, run, start


def test_initial_state_is_first_tab_first_row_nothing_answered() -> None:
    state = start(title="Setup")
    assert (state.tab, state.row, state.action) == (0, 0, 0)
    assert state.view == Navigate()
    assert state.answers == ()
    assert state.title == "Setup"
    assert not (state.completed or state.cancelled)
    assert state.mode == "submit"


def test_rows_are_options_then_numbered_custom_row() -> None:
    rows = question_rows(LANG)
    assert [(r.value, r.label, r.number, r.is_custom) for r in rows] == [
        ("py", "Py", 1, False),
        ("go", "Go", 2, False),
        ("rs", "Rs", 3, False),
        ("__other__", "Type your own", 4, True),
    ]


def test_freeform_question_has_one_unnumbered_custom_row() -> None:
    rows = question_rows(freeform("details"))
    assert [(r.value, r.label, r.number, r.is_custom) for r in rows] == [
        ("__other__", "Type your answer:", None, True)
    ]


def test_move_tab_wraps_both_ways_over_questions_and_review() -> None:
    state = start()
    assert run(state, MoveTab(-1)).tab == 3
    assert run(state, MoveTab(-1)).view == Review()
    assert run(state, MoveTab(1), MoveTab(1), MoveTab(1), MoveTab(1)).tab == 0


def test_move_tab_resets_row_and_action() -> None:
    state = run(start(), MoveOption(1), MoveOption(1), MoveTab(1))
    assert (state.tab, state.row) == (1, 0)
    review = run(start(), MoveTab(-1), MoveOption(1), MoveOption(1))
    assert review.action == 2
    back = run(review, MoveTab(1), MoveTab(-1))
    assert (back.tab, back.action, back.view) == (3, 0, Review())


def test_move_option_clamps_without_wrapping() -> None:
    state = run(start(), MoveOption(-1))
    assert state.row == 0
    state = run(start(), MoveOption(1), MoveOption(1), MoveOption(1))
    assert state.row == 3  # the custom row, where the editor opens
    assert state.view == EditAnswer("lang")


def test_move_option_on_review_moves_action_clamped_to_three() -> None:
    state = run(start(), MoveTab(-1), MoveOption(1), MoveOption(1), MoveOption(1))
    assert state.action == 2
    assert run(state, MoveOption(-5)).action == 0


def test_advance_after_last_question_goes_to_review_without_wrapping() -> None:
    state = run(start(LANG), Confirm())
    assert state.tab == 1
    assert state.view == Review()


def test_advance_goes_to_next_tab_row_zero() -> None:
    state = run(start(), MoveOption(2), Confirm())
    assert (state.tab, state.row, state.view) == (1, 0, Navigate())


def test_tab_states_mark_answered_and_active_tabs() -> None:
    state = run(start(), Digit(1))
    tabs = tab_states(state)
    assert [(t.label, t.answered, t.active, t.is_review) for t in tabs] == [
        ("Language", True, False, False),
        ("Features", False, True, False),
        ("Layout", False, False, False),
        ("Review", False, False, True),
    ]


def test_freeform_first_question_opens_its_editor_at_once() -> None:
    state = start(freeform("details"), LANG)
    assert state.view == EditAnswer("details")


def test_freeform_question_opens_its_editor_when_its_tab_is_shown() -> None:
    state = run(start(LANG, freeform("details")), MoveTab(1))
    assert state.view == EditAnswer("details")


def test_navigation_keys_are_ignored_while_an_editor_is_open() -> None:
    state = run(start(), MoveOption(3))
    assert state.view == EditAnswer("lang")
    for command in (MoveTab(1), MoveOption(-1), Confirm(), Toggle(), Digit(1)):
        assert run(state, command) == state


def test_completed_flow_ignores_every_command() -> None:
    done = run(start(), Cancel())
    assert done.completed
    for command in (MoveTab(1), Digit(1), BehaviourChanged("x"), Cancel()):
        assert run(done, command) is done


def test_current_row_is_none_on_review() -> None:
    state: AskState = run(start(question("q", "a")), MoveTab(1))
    assert current_row(state) is None


def test_preview_question_rows_include_custom_row() -> None:
    assert [r.label for r in question_rows(LAYOUT)] == ["Single file", "Split", "Type your own"]
    assert question_rows(FEAT)[-1].number == 4


def test_a_resumed_draft_opens_with_the_cursor_on_the_chosen_row() -> None:
    from pi_ask.contract.payload import AskPayload
    from pi_ask.state.model import Answer, Selection
    from pi_ask.state.opening import new_state

    payload = AskPayload(questions=(LANG, FEAT))
    chose_go = (("lang", Answer(selected=(Selection("go", "Go", 2),))),)
    state = new_state(payload, answers=chose_go)
    assert (state.tab, state.row, state.view) == (0, 1, Navigate())
    # Own text: the custom row, its text kept, no editor opened over it.
    own = (("lang", Answer(custom_text="Zig", custom_selected=True)),)
    state = new_state(payload, answers=own)
    assert current_row(state) == question_rows(LANG)[-1]
    assert state.view == Navigate()
    # Only a note: nothing chosen, the first option.
    noted = (("lang", Answer(note="later")),)
    assert new_state(payload, answers=noted).row == 0
    # A freeform-only question still opens its editor.
    text = (("why", Answer(custom_text="because", custom_selected=True)),)
    state = new_state(AskPayload(questions=(freeform("why"),)), answers=text)
    assert isinstance(state.view, EditAnswer)
