"""Question-type changes with the type hotkey (behaviour.md §5.8)."""

from __future__ import annotations

import pytest

from pi_ask.contract.payload import QuestionType
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
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import Answer, AskState, Selection
from pi_ask.state.results import build_result
from pi_ask.state.selectors import answer_for, footer_notice
from tests.state.builders import FEAT, LANG, LAYOUT, run, start

CONFIRM_NOTICE = (
    "Switching to single-select will clear selected options for this question. "
    "Press the type key again to confirm."
)


def types_after(state: AskState, presses: int) -> list[QuestionType]:
    seen = []
    for _ in range(presses):
        state = run(state, ChangeQuestionType())
        seen.append(state.questions[0].type)
    return seen


def test_single_cycles_to_multi_and_back() -> None:
    assert types_after(start(LANG), 3) == ["multi", "single", "multi"]


def test_requested_multi_cycles_to_single_and_back() -> None:
    assert types_after(start(FEAT), 2) == ["single", "multi"]


def test_preview_cycles_to_multi_and_back() -> None:
    assert types_after(start(LAYOUT), 2) == ["multi", "preview"]


def test_ignored_on_the_review_tab() -> None:
    state = run(start(LANG), MoveTab(-1))
    assert run(state, ChangeQuestionType()) == state


def test_applied_change_shows_notice() -> None:
    state = run(start(LANG), ChangeQuestionType())
    assert state.notice == "Question type changed from single to multi."
    assert footer_notice(state) == "Question type changed from single to multi."
    state = run(state, ChangeQuestionType())
    assert state.notice == "Question type changed from multi to single."


def test_presented_type_follows_the_change_in_results() -> None:
    state = run(start(FEAT), ChangeQuestionType())
    meta = build_result(run(state, MoveTab(-1), Confirm())).to_json()["details"]
    assert meta["questions"] == [  # type: ignore[index]
        {
            "id": "feat",
            "label": "Features",
            "prompt": "Pick feat?",
            "type": "multi",
            "presentedType": "single",
        }
    ]
    back = run(state, ChangeQuestionType(), MoveTab(-1), Confirm())
    assert "presentedType" not in build_result(back).to_json()["details"]["questions"][0]  # type: ignore[index]


def two_features() -> AskState:
    return run(start(FEAT, LANG), Digit(1), Digit(3))


def test_destructive_switch_first_press_only_warns() -> None:
    before = two_features()
    state = run(before, ChangeQuestionType())
    assert state.notice == CONFIRM_NOTICE
    assert state.pending_type_change == "feat"
    assert state.questions == before.questions
    assert state.answers == before.answers


def test_destructive_switch_second_press_clears_selection() -> None:
    state = run(two_features(), ChangeQuestionType(), ChangeQuestionType())
    assert state.questions[0].type == "single"
    assert state.answers == ()
    assert state.notice == "Question type changed from multi to single."
    assert state.pending_type_change is None


def test_confirmed_switch_keeps_custom_text_selected_and_notes() -> None:
    state = run(
        start(FEAT),
        OpenQuestionNote(),
        SubmitEditor("n"),
        Digit(1),
        Digit(4),
        SubmitEditor("SSO"),
        Toggle(),  # deselect the custom text: it is re-selected by the switch
        Digit(2),
        ChangeQuestionType(),
        ChangeQuestionType(),
    )
    assert answer_for(state, "feat") == Answer(custom_text="SSO", custom_selected=True, note="n")


def test_option_plus_custom_text_counts_as_two() -> None:
    state = run(start(FEAT), Digit(1), Digit(4), SubmitEditor("SSO"), ChangeQuestionType())
    assert state.notice == CONFIRM_NOTICE


def test_non_destructive_switch_keeps_the_single_selection() -> None:
    state = run(start(FEAT), Digit(2), ChangeQuestionType())
    assert state.questions[0].type == "single"
    assert answer_for(state, "feat") == Answer(selected=(Selection("export", "Export", 2),))


def test_single_to_multi_never_needs_confirmation() -> None:
    state = run(start(LANG, FEAT), Toggle(), ChangeQuestionType())
    assert state.questions[0].type == "multi"
    assert answer_for(state, "lang") == Answer(selected=(Selection("py", "Py", 1),))


def test_multi_to_preview_with_two_choices_also_needs_confirmation() -> None:
    state = run(start(LAYOUT), ChangeQuestionType(), Digit(1), Digit(2), ChangeQuestionType())
    assert state.notice == CONFIRM_NOTICE
    state = run(state, ChangeQuestionType())
    assert state.questions[0].type == "preview"
    assert state.answers == ()


@pytest.mark.parametrize(
    "command",
    [
        MoveOption(1),
        MoveTab(1),
        Toggle(),
        Confirm(),
        Cancel(),
        Dismiss(),
        OpenQuestionNote(),
        Digit(9),
    ],
)
def test_other_actions_clear_the_pending_confirmation(command: Command) -> None:
    state = run(two_features(), ChangeQuestionType(), command)
    assert state.pending_type_change is None
    assert state.notice != CONFIRM_NOTICE


def test_after_an_interruption_two_presses_are_needed_again() -> None:
    state = run(two_features(), ChangeQuestionType(), MoveOption(-1), MoveOption(1))
    state = run(state, ChangeQuestionType())
    assert state.questions[0].type == "multi"
    assert state.notice == CONFIRM_NOTICE


def test_row_and_tab_stay_put() -> None:
    state = run(start(LANG), MoveOption(2), ChangeQuestionType())
    assert (state.tab, state.row) == (0, 2)


def test_other_questions_are_untouched() -> None:
    state = run(start(LANG, FEAT), ChangeQuestionType())
    assert state.questions[1] == FEAT
    assert run(state, MoveTab(1)).notice is None  # notices clear on tab change


def test_a_behaviour_change_keeps_the_pending_confirmation() -> None:
    state = run(two_features(), ChangeQuestionType(), BehaviourChanged())
    assert state.pending_type_change == "feat"
    assert run(state, ChangeQuestionType()).questions[0].type == "single"
