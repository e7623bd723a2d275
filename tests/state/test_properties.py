"""Random command sequences: the flow never raises and its invariants always hold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.contract.payload import AskPayload, Question
from pi_ask.contract.results import ToolResult
from pi_ask.state.commands import (
    Abort,
    BehaviourChanged,
    Cancel,
    ChangeQuestionType,
    CloseEditor,
    Command,
    Confirm,
    Digit,
    Dismiss,
    EditorNavigate,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    ReplaceAnswers,
    SubmitEditor,
    SubmittedAnswer,
    Toggle,
)
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour, EditAnswer, EditNote, Navigate, Review
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from pi_ask.state.selectors import is_review_tab, question_rows
from tests.state.builders import FEAT, LANG, LAYOUT, freeform, question

PAYLOADS = (
    AskPayload((LANG, FEAT, LAYOUT), title="t"),
    AskPayload((LAYOUT, LANG)),
    AskPayload((freeform("details"), FEAT)),
    AskPayload((question("many", *(f"o{i}" for i in range(1, 10))),)),
    AskPayload((Question("q", "Q", "p?", "multi", "single", LANG.options),)),
)
TEXT_VALUES = ("", " ", "a", "  b c ", "py", "\tz\n")
TEXTS = st.sampled_from(TEXT_VALUES)
VALUES = st.sampled_from(["py", "go", "login", "sync", "flat", "o3", "nope", "freeform"])
SUBMITTED = st.builds(
    SubmittedAnswer,
    values=st.lists(VALUES, max_size=3).map(tuple),
    custom_text=st.none() | TEXTS,
    note=st.none() | TEXTS,
    option_notes=st.lists(st.tuples(VALUES, TEXTS), max_size=2).map(tuple),
)
QUESTION_IDS = st.sampled_from(["lang", "feat", "layout", "details", "many", "q", "x"])
BEHAVIOURS = st.builds(Behaviour, st.booleans(), st.booleans(), st.booleans())
# Rare commands: behaviour changes, and the ones that end the flow.
ANYWHERE: st.SearchStrategy[Command] = st.one_of(
    st.builds(BehaviourChanged, st.none() | TEXTS),
    st.builds(Cancel, TEXTS),
    st.builds(Dismiss, TEXTS),
    st.just(Abort()),
    st.builds(
        ReplaceAnswers,
        st.lists(st.tuples(QUESTION_IDS, SUBMITTED), max_size=3).map(tuple),
        st.sampled_from(["submit", "elaborate"]),
    ),
)
# Pools of concrete commands a face sends per view: one cheap draw each, weighted by repetition.
ONE_STEP = (MoveTab(-1), MoveTab(1), MoveOption(-1), MoveOption(1))
NAVIGATION: tuple[Command, ...] = (
    *ONE_STEP * 3,
    *(MoveTab(2), MoveTab(-2), MoveOption(2), MoveOption(-2), MoveTab(0)),
    *(Confirm(), Toggle()) * 4,
    *(Digit(1), Digit(2), Digit(3), Digit(4)) * 3,
    *(Digit(0), Digit(5), Digit(9), Digit(10)),
    *(ChangeQuestionType(), OpenQuestionNote(), OpenOptionNote()) * 2,
)
EDITING: tuple[Command, ...] = (
    *(SubmitEditor(t) for t in TEXT_VALUES * 2),
    *(CloseEditor(t) for t in TEXT_VALUES * 2),
    *(EditorNavigate(t, move) for t in ("", " ", "a") for move in ONE_STEP),
)
STEPS = 40


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_random_command_sequences_keep_invariants(data: st.DataObject) -> None:
    """Commands a face could send in the current view, 40 per example, restarting on close."""
    payload = data.draw(st.sampled_from(PAYLOADS))
    behaviour = data.draw(BEHAVIOURS)
    state = new_state(payload)
    check_state(state)
    for _ in range(STEPS):
        if state.completed:
            state = new_state(payload)
        editing = isinstance(state.view, EditAnswer | EditNote)
        kind = data.draw(st.integers(0, 9))
        if kind == 0:
            command = data.draw(ANYWHERE)
            if isinstance(command, BehaviourChanged):
                behaviour = data.draw(BEHAVIOURS)
        else:
            command = data.draw(st.sampled_from(EDITING if editing else NAVIGATION))
        state = apply(state, command, behaviour)
        check_state(state)
        check_result(state, build_result(state))


def check_state(state: AskState) -> None:
    assert 0 <= state.tab <= len(state.questions)
    assert 0 <= state.action <= 2
    ids = [qid for qid, _ in state.answers]
    assert ids == [q.id for q in state.questions if q.id in ids]  # question order, unique
    if is_review_tab(state):
        assert state.view == Review()
    else:
        question = state.questions[state.tab]
        assert 0 <= state.row < len(question_rows(question))
        assert isinstance(state.view, Navigate | EditAnswer | EditNote)
        if isinstance(state.view, EditAnswer | EditNote):
            assert state.view.question_id == question.id
    by_id = {q.id: q for q in state.questions}
    for qid, answer in state.answers:
        assert not answer.is_empty
        question = by_id[qid]
        if question.type != "multi":
            assert len(answer.selected) <= 1
            assert not (answer.selected and answer.custom_selected and answer.custom_text)
        texts = [answer.custom_text, answer.note, *(n for _, n in answer.option_notes)]
        assert all(t is None or (t == t.strip() and t) for t in texts)
        assert len({s.value for s in answer.selected}) == len(answer.selected)
        values = {o.value for o in question.options}
        assert all(value in values for value, _ in answer.option_notes)


def check_result(state: AskState, result: ToolResult) -> None:
    details = result.details
    by_id = {q.id: q for q in state.questions}
    assert ToolResult.from_json(result.to_json()).to_json() == result.to_json()
    for qid, record in details.answers.items():
        options = by_id[qid].options
        for position, index in enumerate(record.indices):
            assert options[index - 1].value == record.values[position]
            assert options[index - 1].label == record.labels[position]
        assert len(record.values) == len(record.labels)
        if not record.is_committed:  # unanswered entries only exist to carry notes
            assert record.note or record.option_notes
            assert details.mode == "submit"
    check_wire_shape(result.to_json(), elaborate=details.mode == "elaborate")


def check_wire_shape(wire: dict[str, object], *, elaborate: bool) -> None:
    assert set(wire) == {"content", "details"}
    assert wire["content"] == [{"type": "text", "text": wire["content"][0]["text"]}]  # type: ignore[index]
    assert isinstance(wire["content"][0]["text"], str)
    details = wire["details"]
    assert isinstance(details, dict)
    allowed = {"title", "cancelled", "reason", "mode", "questions", "answers"}
    allowed |= {"continuation", "elaboration"}
    assert {"cancelled", "mode", "questions", "answers"} <= set(details) <= allowed
    assert isinstance(details["cancelled"], bool)
    # Every cancelled result says why, and only cancelled results have a reason.
    assert ("reason" in details) == details["cancelled"]
    assert details.get("reason", "cancelled") in ("cancelled", "aborted", "timeout")
    assert details["mode"] in ("submit", "elaborate")
    assert ("continuation" in details) == elaborate == ("elaboration" in details)
    for meta in details["questions"]:
        assert set(meta) <= {"id", "label", "prompt", "type", "presentedType"}
        assert meta.get("presentedType") != meta["type"]
    for record in details["answers"].values():
        check_record(record)
    if elaborate:
        continuation = details["continuation"]
        assert continuation["strategy"] == "refine_only"
        for record in continuation["preservedAnswers"].values():
            check_record(record)
        statuses = {s["status"] for s in continuation["questionStates"].values()}
        assert statuses <= {"answered", "needs_clarification", "unanswered"}
        for item in details["elaboration"]["items"]:
            assert item["target"]["kind"] in ("question", "option")
            assert isinstance(item["note"], str) and item["note"]
            assert ("answer" in item) == item["answered"]


def check_record(record: dict[str, object]) -> None:
    assert {"values", "labels", "indices"} <= set(record)
    assert set(record) <= {"values", "labels", "indices", "customText", "note", "optionNotes"}
    assert all(isinstance(v, str) for v in record["values"])  # type: ignore[attr-defined]
    assert all(isinstance(i, int) and i >= 1 for i in record["indices"])  # type: ignore[attr-defined]
