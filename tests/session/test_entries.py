from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.session.drafts import answer_from_json, read_draft
from pi_ask.session.entries import answer_to_json, draft_data
from pi_ask.session.log import Entry
from pi_ask.state.model import Answer, AskState, Selection

PAYLOAD = {
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "options": [{"value": "pg", "label": "PostgreSQL"}, {"value": "lite"}],
        },
        {
            "id": "checks",
            "type": "multi",
            "prompt": "Which checks?",
            "options": [{"value": "tests"}, {"value": "lint"}],
        },
    ]
}

texts = st.text(max_size=12)
answers = st.builds(
    Answer,
    selected=st.lists(st.builds(Selection, texts, texts, st.integers(1, 9)), max_size=3).map(tuple),
    custom_text=st.none() | texts,
    custom_selected=st.booleans(),
    note=st.none() | texts,
    option_notes=st.lists(st.tuples(texts, texts), max_size=3).map(tuple),
    attachments=st.lists(
        st.builds(Attachment, texts, texts, st.integers(0, 10**9), texts), max_size=2
    ).map(tuple),
)


@settings(max_examples=200)
@given(answers)
def test_an_answer_survives_json_exactly(answer: Answer) -> None:
    assert answer_from_json(answer_to_json(answer)) == answer


def test_a_draft_keeps_unselected_option_notes_and_deselected_custom_text() -> None:
    answer = Answer(
        selected=(Selection("lint", "Lint", 2),),
        custom_text="typos too",
        custom_selected=False,
        note="only on CI",
        option_notes=(("tests", "slow"), ("lint", "ruff")),
    )
    loaded = load_payload(PAYLOAD)
    assert isinstance(loaded, LoadedPayload)
    state = AskState(questions=loaded.payload.questions, answers=(("checks", answer),))
    data = draft_data("ask-1", state)
    entry = Entry("e1", None, "custom", {"type": "custom", "customType": "ask:draft", "data": data})
    draft = read_draft(entry)
    assert draft is not None
    assert draft.ask_id == "ask-1"
    assert draft.answers == (("checks", answer),)
    assert draft.presented_types == ()


def test_a_changed_question_type_is_kept_in_the_draft() -> None:
    loaded = load_payload(PAYLOAD, present_single_as_multi=True)
    assert isinstance(loaded, LoadedPayload)
    state = AskState(questions=loaded.payload.questions)
    data = draft_data("ask-1", state)
    assert data["types"] == {"db": "multi"}
    draft = read_draft(Entry("e", None, "custom", {"customType": "ask:draft", "data": data}))
    assert draft is not None
    assert draft.presented_types == (("db", "multi"),)


def test_damaged_drafts_read_as_none() -> None:
    def entry(data: object) -> Entry:
        return Entry("e", None, "custom", {"customType": "ask:draft", "data": data})

    assert read_draft(entry("x")) is None
    assert read_draft(entry({"toolCallId": "a", "answers": {"q": {"selected": "x"}}})) is None
    assert read_draft(entry({"answers": {}})) is None
    assert answer_from_json({"selected": [{"value": "a", "label": "A", "index": True}]}) is None
    assert answer_from_json({"optionNotes": [["a"]]}) is None
