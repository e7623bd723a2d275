"""Summary text (behaviour.md §4.6) and transcript lines (§4.7), exact strings."""

from __future__ import annotations

from pi_ask.contract.kinds import Issue
from pi_ask.contract.payload import Question, QuestionType
from pi_ask.contract.results import AnswerRecord, ResultDetails, ToolResult
from pi_ask.state.commands import (
    Confirm,
    Digit,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
)
from pi_ask.state.model import AskState
from pi_ask.state.results import build_result
from pi_ask.state.summary import summary_text, transcript_lines
from tests.state.builders import FEAT, LANG, question, run, start

OVERRIDE = "Note: Some questions were presented as multi-select by user preference."


def finish(state: AskState, action: int = 0) -> ToolResult:
    """Jump to the review tab and run ``action``."""
    delta = len(state.questions) - state.tab
    return build_result(run(state, MoveTab(delta), MoveOption(action), Confirm()))


def lines(result: ToolResult) -> list[tuple[str, str]]:
    return list(transcript_lines(result))


# --- submit -------------------------------------------------------------------------------


def test_single_answer() -> None:
    style = question("style", "minimal", "rich", label="Style")
    result = finish(run(start(style), Digit(2)))
    assert result.text == "Style: Rich"
    assert lines(result) == [("success", "✓ Style: Rich")]


def test_unanswered_questions_say_no_answer() -> None:
    result = finish(run(start(LANG, FEAT), Digit(1)))
    assert result.text == "Language: Py\nFeatures: (no answer)"
    assert lines(result) == [
        ("success", "✓ Language: Py"),
        ("muted", "? Features: (no answer)"),
    ]


def test_custom_only_answer_is_marked_wrote_in_transcript() -> None:
    result = finish(run(start(LANG), Digit(4), SubmitEditor("Please include examples")))
    assert result.text == "Language: Please include examples"
    assert lines(result) == [("success", "✓ Language: (wrote) Please include examples")]


def test_multi_with_custom_text_joins_labels() -> None:
    result = finish(run(start(FEAT), Digit(1), Digit(4), SubmitEditor("SolidStart")))
    assert result.text == "Features: Login, SolidStart"
    assert lines(result) == [("success", "✓ Features: Login, SolidStart")]


def test_question_and_selected_option_notes() -> None:
    state = run(
        start(question("framework", "react", "vue", label="Framework")),
        OpenQuestionNote(),
        SubmitEditor("Need SSR support"),
        MoveOption(1),
        OpenOptionNote(),
        SubmitEditor("Team has prior experience"),
        Digit(2),
    )
    result = finish(state)
    assert result.text == "\n".join(
        [
            "Framework: Vue",
            "Framework note: Need SSR support",
            "Framework / Vue note: Team has prior experience",
        ]
    )
    assert lines(result) == [
        ("success", "✓ Framework: Vue"),
        ("muted", "  note: Need SSR support"),
        ("muted", "  Vue note: Team has prior experience"),
    ]


def test_unselected_option_notes_are_not_in_submit_text() -> None:
    state = run(start(LANG), OpenOptionNote(), SubmitEditor("legacy"), Digit(2))
    result = finish(state)
    assert result.text == "Language: Go"
    assert lines(result) == [("success", "✓ Language: Go")]


def test_note_only_question() -> None:
    result = finish(run(start(LANG), OpenQuestionNote(), SubmitEditor("Prefer small")))
    assert result.text == "Language: (no answer)\nLanguage note: Prefer small"
    assert lines(result) == [
        ("muted", "? Language: (no answer)"),
        ("muted", "  note: Prefer small"),
    ]


def presented(qid: str, label: str, requested: QuestionType, shown: QuestionType) -> Question:
    q = question(qid, "a", "b", label=label)
    return Question(q.id, q.label, q.prompt, shown, requested, q.options)


def test_presentation_override_note_once_when_an_overridden_question_has_an_entry() -> None:
    details = ResultDetails(
        cancelled=False,
        questions=(
            presented("api", "Single Select", "single", "multi"),
            question("docs", "a", label="Multi Select", type="multi"),
            presented("layout", "Preview", "preview", "multi"),
        ),
        answers=(
            ("api", AnswerRecord(("a", "b"), ("REST", "GraphQL"), (1, 2))),
            ("docs", AnswerRecord(("a",), ("README",), (1,))),
            ("layout", AnswerRecord(("a",), ("Compact",), (1,))),
        ),
    )
    assert summary_text(details) == "\n".join(
        ["Single Select: REST, GraphQL", "Multi Select: README", "Preview: Compact", OVERRIDE]
    )
    assert lines(ToolResult(summary_text(details), details))[-1] == ("muted", f"  {OVERRIDE}")


def test_override_note_is_fixed_wording_even_for_multi_to_single() -> None:
    details = ResultDetails(
        cancelled=False,
        questions=(presented("x", "X", "multi", "single"),),
        answers=(("x", AnswerRecord(("a",), ("A",), (1,))),),
    )
    assert summary_text(details) == f"X: A\n{OVERRIDE}"


def test_no_override_note_without_an_answer_entry() -> None:
    details = ResultDetails(cancelled=False, questions=(presented("x", "X", "single", "multi"),))
    assert summary_text(details) == "X: (no answer)"


def test_fallback_texts_for_an_empty_submit() -> None:
    details = ResultDetails(cancelled=False)
    assert summary_text(details) == "User submitted the ask flow"
    assert lines(ToolResult("", details)) == [("text", "Submitted")]


# --- cancelled and invalid ---------------------------------------------------------------


def test_cancelled() -> None:
    result = finish(run(start(LANG), Digit(1)), action=2)
    assert result.text == "User cancelled the ask flow"
    assert lines(result) == [("warning", "Cancelled")]


def test_invalid_payload_transcript() -> None:
    details = ResultDetails(cancelled=True, error_issues=(Issue("questions", "x"),))
    assert lines(ToolResult("Invalid ask_user payload:", details)) == [
        ("warning", "Invalid tool payload")
    ]


# --- elaborate ---------------------------------------------------------------------------


def framework() -> Question:
    return question("framework", "react", "vue", label="Framework", prompt="Pick a framework")


def test_elaborate_items_describe_each_note() -> None:
    state = run(
        start(framework()),
        OpenQuestionNote(),
        SubmitEditor("Need SSR support"),
        OpenOptionNote(),
        SubmitEditor("Legacy codebase"),
    )
    result = finish(state, action=1)
    expected = [
        'User asked to elaborate on question "Pick a framework" with note "Need SSR support"',
        'User asked to elaborate on question "Pick a framework" option "React" '
        'with note "Legacy codebase"',
    ]
    assert result.text == "\n".join(expected)
    assert lines(result) == [("text", line) for line in expected]


def test_elaborate_item_includes_current_answer() -> None:
    state = run(start(framework()), Digit(2), MoveTab(-1), OpenQuestionNote())
    state = run(state, SubmitEditor("Compare tradeoffs"))
    assert finish(state, action=1).text == (
        'User asked to elaborate on question "Pick a framework" after current answer "Vue" '
        'with note "Compare tradeoffs"'
    )


def test_elaborate_without_notes_lists_committed_answers() -> None:
    goal = question("goal", "demo", label="Goal", prompt="What kind of showcase?")
    state = run(start(goal, framework()), Digit(2), SubmitEditor("teeeel meee"))
    result = finish(state, action=1)
    assert result.text == (
        'User asked to elaborate on question "What kind of showcase?" '
        'after current answer "teeeel meee"'
    )
    assert result.details.elaboration is not None
    assert result.details.elaboration.items == ()


def test_elaborate_with_nothing_at_all() -> None:
    result = finish(start(framework()), action=1)
    assert result.text == "User asked for elaboration based on notes"
    assert lines(result) == [("text", "User asked for elaboration based on notes")]


def test_elaborate_quoting_is_json_with_non_ascii_kept() -> None:
    tricky = question("t", "a", label="T", prompt='Say "hi"\\ now\n¿sí? 日本')
    state = run(start(tricky), OpenQuestionNote(), SubmitEditor("tab\there"))
    assert finish(state, action=1).text == (
        'User asked to elaborate on question "Say \\"hi\\"\\\\ now\\n¿sí? 日本" '
        'with note "tab\\there"'
    )


def test_elaborate_has_no_override_note() -> None:
    q = presented("x", "X", "single", "multi")
    result = finish(run(start(q), Digit(1)), action=1)
    assert OVERRIDE not in result.text
