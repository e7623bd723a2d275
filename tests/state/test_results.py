"""Result building (behaviour.md §1.4, §3.1, §4.1-4.5)."""

from __future__ import annotations

from pi_ask.contract.payload import AskPayload, Option, Question
from pi_ask.contract.results import ELABORATION_INSTRUCTION, AnswerRecord
from pi_ask.state.commands import (
    Confirm,
    Digit,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import Answer, AskState, Selection
from pi_ask.state.results import build_result, non_interactive_result, serialize_answer
from tests.state.builders import FEAT, LANG, freeform, option, question, run, start

LOGIN = Selection("login", "Login", 1)
SYNC = Selection("sync", "Sync", 3)


def elaborate(state: AskState) -> AskState:
    """Jump to the review tab and choose Elaborate."""
    return run(state, MoveTab(len(state.questions) - state.tab), MoveOption(1), Confirm())


# --- serialize_answer ---------------------------------------------------------------------


def test_serialized_multi_answer_lists_options_in_selection_order_then_custom() -> None:
    answer = Answer(selected=(SYNC, LOGIN), custom_text="SSO", custom_selected=True)
    assert serialize_answer(answer) == AnswerRecord(
        values=("sync", "login", "SSO"),
        labels=("Sync", "Login", "SSO"),
        indices=(3, 1),
        custom_text="SSO",
    )


def test_deselected_custom_text_is_not_serialized() -> None:
    record = serialize_answer(Answer(selected=(LOGIN,), custom_text="SSO"))
    assert record == AnswerRecord(values=("login",), labels=("Login",), indices=(1,))


def test_option_notes_only_for_selected_options_in_selection_order() -> None:
    answer = Answer(
        selected=(SYNC, LOGIN),
        note="q",
        option_notes=(("export", "unselected"), ("login", "l"), ("sync", "s")),
    )
    record = serialize_answer(answer)
    assert record.note == "q"
    assert record.option_notes == (("sync", "s"), ("login", "l"))
    assert record.to_json()["optionNotes"] == {"sync": "s", "login": "l"}


def test_note_only_answer_serializes_with_empty_lists() -> None:
    assert serialize_answer(Answer(note="n")).to_json() == {
        "values": [],
        "labels": [],
        "indices": [],
        "note": "n",
    }


# --- submit ----------------------------------------------------------------------------


def test_submit_result_json() -> None:
    state = run(start(LANG, FEAT, title="Setup"), Digit(2), Digit(3), Digit(1), MoveTab(1))
    assert build_result(run(state, Confirm())).to_json() == {
        "content": [{"type": "text", "text": "Language: Go\nFeatures: Sync, Login"}],
        "details": {
            "title": "Setup",
            "cancelled": False,
            "mode": "submit",
            "questions": [
                {"id": "lang", "label": "Language", "prompt": "Pick lang?", "type": "single"},
                {"id": "feat", "label": "Features", "prompt": "Pick feat?", "type": "multi"},
            ],
            "answers": {
                "lang": {"values": ["go"], "labels": ["Go"], "indices": [2]},
                "feat": {
                    "values": ["sync", "login"],
                    "labels": ["Sync", "Login"],
                    "indices": [3, 1],
                },
            },
        },
    }


def test_submit_keeps_note_only_entries_and_omits_unanswered_ones() -> None:
    state = run(start(LANG, FEAT, question("x", "a")), OpenQuestionNote(), SubmitEditor("n"))
    details = build_result(run(state, MoveTab(-1), Confirm())).details
    assert list(details.answers) == ["lang"]


def test_submit_omits_unselected_option_note_only_entries() -> None:
    state = run(start(LANG), OpenOptionNote(), SubmitEditor("n"), MoveTab(1), Confirm())
    assert build_result(state).details.answers == {}


def test_submit_omits_deselected_custom_text_only_entries() -> None:
    state = run(start(FEAT), Digit(4), SubmitEditor("x"), Toggle(), MoveTab(1), Confirm())
    assert state.answers != ()
    assert build_result(state).details.answers == {}


def test_answers_follow_question_order() -> None:
    state = run(start(LANG, FEAT), MoveTab(1), Digit(1), MoveTab(-1), Digit(1), MoveTab(1))
    details = build_result(run(state, Confirm())).details
    assert list(details.answers) == ["lang", "feat"]


def test_custom_answer_has_no_index() -> None:
    state = run(start(LANG), Digit(4), SubmitEditor("Zig"), Confirm())
    assert build_result(state).to_json()["details"]["answers"] == {  # type: ignore[index]
        "lang": {"values": ["Zig"], "labels": ["Zig"], "indices": [], "customText": "Zig"}
    }


def test_freeform_answer_is_custom_text() -> None:
    state = run(start(freeform("details")), SubmitEditor("all"), Confirm())
    record = build_result(state).details.answer("details")
    assert record == AnswerRecord(values=("all",), labels=("all",), custom_text="all")


# --- cancel -------------------------------------------------------------------------------


def test_cancel_result_is_submit_mode_with_answers_and_fixed_text() -> None:
    state = run(start(LANG, FEAT), Digit(1), MoveTab(1), MoveOption(2), Confirm())
    result = build_result(state)
    assert result.text == "User cancelled the ask flow"
    assert result.to_json()["details"]["cancelled"] is True  # type: ignore[index]
    assert result.details.mode == "submit"
    assert result.details.continuation is None and result.details.elaboration is None
    assert list(result.details.answers) == ["lang"]


# --- elaborate ---------------------------------------------------------------------------


def test_elaborate_answers_hold_committed_answers_only() -> None:
    state = run(start(LANG, FEAT), Digit(1), OpenQuestionNote(), SubmitEditor("n"))
    details = build_result(elaborate(state)).details
    assert details.mode == "elaborate"
    assert list(details.answers) == ["lang"]


def test_continuation_classifies_each_question() -> None:
    state = run(
        start(LANG, FEAT, question("x", "a")),
        Digit(1),  # lang answered, no notes -> preserved
        Digit(1),
        OpenQuestionNote(),
        SubmitEditor("why"),  # feat answered with a note -> affected
    )
    continuation = build_result(elaborate(state)).details.continuation
    assert continuation is not None
    assert continuation.to_json() == {
        "strategy": "refine_only",
        "affectedQuestionIds": ["feat"],
        "preservedAnswers": {"lang": {"values": ["py"], "labels": ["Py"], "indices": [1]}},
        "questionStates": {
            "lang": {"status": "answered"},
            "feat": {"status": "needs_clarification"},
            "x": {"status": "unanswered"},
        },
    }


def test_unselected_option_note_marks_question_affected() -> None:
    state = run(start(LANG), Digit(1), MoveTab(-1), MoveOption(1), OpenOptionNote())
    state = run(state, SubmitEditor("hm"))
    continuation = build_result(elaborate(state)).details.continuation
    assert continuation is not None
    assert continuation.affected_question_ids == ("lang",)
    assert continuation.preserved_answers == ()


def test_elaboration_items_question_note_then_option_notes_in_written_order() -> None:
    state = run(
        start(LANG),
        MoveOption(2),
        OpenOptionNote(),
        SubmitEditor("rust?"),
        MoveOption(-2),
        OpenOptionNote(),
        SubmitEditor("py?"),
        OpenQuestionNote(),
        SubmitEditor("which?"),
        Toggle(),
    )
    elaboration = build_result(elaborate(state)).details.elaboration
    assert elaboration is not None
    assert elaboration.instruction == ELABORATION_INSTRUCTION
    items = elaboration.to_json()["items"]
    answer = {
        "values": ["py"],
        "labels": ["Py"],
        "indices": [1],
        "note": "which?",
        "optionNotes": {"py": "py?"},
    }
    context = {
        "id": "lang",
        "label": "Language",
        "prompt": "Pick lang?",
        "type": "single",
        "options": [
            {"value": "py", "label": "Py"},
            {"value": "go", "label": "Go"},
            {"value": "rs", "label": "Rs"},
        ],
    }
    assert items == [
        {
            "target": {"kind": "question"},
            "question": context,
            "answered": True,
            "answer": answer,
            "note": "which?",
        },
        {
            "target": {"kind": "option", "optionValue": "rs"},
            "question": context,
            "option": {"value": "rs", "label": "Rs"},
            "selected": False,
            "answered": True,
            "answer": answer,
            "note": "rust?",
        },
        {
            "target": {"kind": "option", "optionValue": "py"},
            "question": context,
            "option": {"value": "py", "label": "Py"},
            "selected": True,
            "answered": True,
            "answer": answer,
            "note": "py?",
        },
    ]
    assert elaboration.to_json()["nextAction"] == "clarify_then_reask"


def test_unanswered_elaboration_item_has_no_answer() -> None:
    state = run(start(LANG), OpenQuestionNote(), SubmitEditor("n"))
    elaboration = build_result(elaborate(state)).details.elaboration
    assert elaboration is not None
    (item,) = elaboration.items
    assert item.to_json()["answered"] is False
    assert "answer" not in item.to_json()


def test_elaboration_context_carries_descriptions_previews_and_recommended_false() -> None:
    rich = Question(
        id="r",
        label="R",
        prompt="p",
        type="single",
        requested_type="single",
        options=(
            option("a", description="d", recommended=False),
            Option("b", "B", preview="pv", recommended=True),
        ),
    )
    state = run(start(rich), OpenQuestionNote(), SubmitEditor("n"))
    elaboration = build_result(elaborate(state)).details.elaboration
    assert elaboration is not None
    options = elaboration.to_json()["items"][0]["question"]["options"]  # type: ignore[index]
    assert options == [
        {"value": "a", "label": "A", "description": "d", "recommended": False},
        {"value": "b", "label": "B", "preview": "pv", "recommended": True},
    ]


# --- non-interactive --------------------------------------------------------------------


def test_non_interactive_result_text_and_details() -> None:
    multi_presented = Question(
        id="feat",
        label="Features",
        prompt="Which?",
        type="multi",
        requested_type="single",
        options=(Option("login", "Login", description="not listed"),),
    )
    payload = AskPayload((LANG, multi_presented), title="Setup")
    result = non_interactive_result(payload)
    assert result.text == "\n".join(
        [
            "Needs user input: ask_user requires interactive TUI mode.",
            "Run same tool call in interactive TUI mode, or ask user these questions manually:",
            "1. Language: Pick lang?",
            "   - Py [py]",
            "   - Go [go]",
            "   - Rs [rs]",
            "   - Type your own [custom]",
            "2. Features: Which?",
            "   - Login [login]",
            "   - Type your own [custom]",
            "details.questions contains normalized pending questions. "
            "details.answers stays empty until user responds.",
            "No terminal could reach the user (reason: no_terminal). Do not assume any answer; "
            "ask the user these questions in plain text, or call ask_user again when they can "
            "answer.",
        ]
    )
    assert result.to_json()["details"] == {
        "title": "Setup",
        "cancelled": True,
        "reason": "no_terminal",
        "mode": "submit",
        "questions": [
            {"id": "lang", "label": "Language", "prompt": "Pick lang?", "type": "single"},
            {
                "id": "feat",
                "label": "Features",
                "prompt": "Which?",
                "type": "single",
                "presentedType": "multi",
            },
        ],
        "answers": {},
    }
