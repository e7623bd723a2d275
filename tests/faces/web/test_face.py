"""The web face alone: the view model of a state, and page actions read as engine commands."""

from __future__ import annotations

import pytest

from pi_ask.contract.loading import InvalidPayload, load_payload
from pi_ask.faces.web.actions import MAX_TEXT_CHARS, BadAction, commands_for, typing_commands
from pi_ask.faces.web.view import view_model
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour
from pi_ask.state.opening import new_state
from pi_ask.words import NOT_SENT

PAYLOAD = {
    "title": "Setup",
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "options": [
                {"value": "pg", "label": "PostgreSQL", "recommended": True, "description": "big"},
                {"value": "lite", "label": "SQLite", "preview": "file.db"},
            ],
        },
        {
            "id": "langs",
            "prompt": "Which languages?",
            "type": "multi",
            "options": [{"value": "py", "label": "Python"}, {"value": "go", "label": "Go"}],
        },
    ],
}


def start() -> AskState:
    loaded = load_payload(PAYLOAD)
    assert not isinstance(loaded, InvalidPayload)
    return new_state(loaded.payload)


def run(state: AskState, *actions: dict[str, object]) -> AskState:
    for action in actions:
        for command in commands_for(state, action):
            state = apply(state, command, Behaviour())
    return state


def test_the_view_of_the_first_question() -> None:
    view = view_model(start(), Behaviour())
    assert view["title"] == "Setup"
    assert view["tab"] == 0
    assert [tab["label"] for tab in view["tabs"]] == ["Q1", "Q2"]
    rows = view["question"]["rows"]
    assert [row["label"] for row in rows] == ["PostgreSQL", "SQLite", "Type your own"]
    assert rows[0]["recommended"] is True and rows[0]["description"] == "big"
    assert rows[1]["preview"] == "file.db"
    assert rows[2]["custom"] is True and rows[2]["number"] == 3
    assert not any(row["selected"] for row in rows)
    assert view["editor"] is None
    assert "review" not in view


def test_choosing_a_single_option_selects_it_and_moves_on() -> None:
    state = run(start(), {"do": "choose", "row": 1})
    assert state.tab == 1
    view = view_model(state, Behaviour())
    assert view["tabs"][0]["answered"] is True
    back = view_model(run(state, {"do": "tab", "tab": 0}), Behaviour())
    assert [row["selected"] for row in back["question"]["rows"]] == [False, True, False]


def test_multi_rows_toggle_and_stay() -> None:
    state = run(start(), {"do": "tab", "tab": 1}, {"do": "choose", "row": 0})
    state = run(state, {"do": "choose", "row": 1}, {"do": "choose", "row": 0})
    assert state.tab == 1
    rows = view_model(state, Behaviour())["question"]["rows"]
    assert [row["selected"] for row in rows] == [False, True, False]


def test_type_your_own_opens_the_editor_and_save_keeps_the_text() -> None:
    state = run(start(), {"do": "choose", "row": 2})
    editor = view_model(state, Behaviour())["editor"]
    assert editor == {"kind": "answer", "question": "db", "text": ""}
    state = run(state, {"do": "save", "text": "  MariaDB  "})
    assert state.tab == 1
    rows = view_model(run(state, {"do": "tab", "tab": 0}), Behaviour())["question"]["rows"]
    assert rows[2]["selected"] is True and rows[2]["text"] == "MariaDB"


def test_another_action_saves_the_open_editor_first() -> None:
    state = run(start(), {"do": "choose", "row": 2})
    state = run(state, {"do": "tab", "tab": 1, "editor": "typed"})
    assert state.tab == 1
    assert dict(state.answers)["db"].custom_text == "typed"


def test_typing_is_a_draft_of_the_editor_saved_on_a_copy() -> None:
    state = run(start(), {"do": "choose", "row": 2})
    (command,) = typing_commands(state, {"text": "half"})
    drafted = apply(state, command, Behaviour())
    assert dict(drafted.answers)["db"].custom_text == "half"
    assert typing_commands(run(start()), {"text": "x"}) == ()


def test_notes_on_options_not_chosen_are_shown_on_the_review_as_not_sent() -> None:
    state = run(start(), {"do": "note", "row": 0})
    assert view_model(state, Behaviour())["editor"]["option"] == "pg"
    state = run(state, {"do": "save", "text": "too heavy"}, {"do": "choose", "row": 1})
    state = run(state, {"do": "tab", "tab": 2})
    review = view_model(state, Behaviour())["review"]
    first = review["entries"][0]
    assert [choice["label"] for choice in first["choices"]] == ["SQLite"]
    assert first["notSent"] == [{"label": "PostgreSQL", "note": "too heavy"}]
    # The terminal's words for it, not a copy of the face's own.
    assert review["notSentMark"] == NOT_SENT == "not sent unless you choose it or Elaborate"
    # With Elaborate highlighted the note does go: it is no longer marked.
    elaborate = run(state, {"do": "highlight", "action": "elaborate"})
    entry = view_model(elaborate, Behaviour())["review"]["entries"][0]
    assert entry["otherNotes"] == [{"label": "PostgreSQL", "note": "too heavy"}]
    assert entry["notSent"] == []


def test_an_unanswered_required_question_says_so_on_the_review() -> None:
    loaded = load_payload(
        {**PAYLOAD, "questions": [{**PAYLOAD["questions"][0], "required": True}]}  # type: ignore[dict-item]
    )
    assert not isinstance(loaded, InvalidPayload)
    state = run(new_state(loaded.payload), {"do": "note", "row": 0})
    state = run(state, {"do": "save", "text": "maybe"}, {"do": "tab", "tab": 1})
    review = view_model(state, Behaviour())["review"]
    (entry,) = review["entries"]
    # As in the terminal: unanswered, marked required, and the note not chosen below it.
    assert entry["unanswered"] is True and entry["required"] is True
    assert entry["notSent"] == [{"label": "PostgreSQL", "note": "maybe"}]
    assert review["requiredMark"] == "(required)"
    answered = view_model(
        run(state, {"do": "tab", "tab": 0}, {"do": "choose", "row": 1}), Behaviour()
    )
    assert answered["review"]["entries"][0]["required"] is False


def test_a_file_leaves_the_answer_through_detach_file() -> None:
    from pi_ask.contract.attachments import Attachment
    from pi_ask.state.commands import AttachFile, DetachFile

    item = Attachment("/asks/x/files/a.txt", "a.txt", 3, "text/plain")
    state = apply(start(), AttachFile("db", item), Behaviour())
    assert view_model(state, Behaviour())["question"]["files"] == [{"name": "a.txt", "size": "3 B"}]
    assert commands_for(state, {"do": "detach", "file": 0}) == (DetachFile("db", item.path),)
    with pytest.raises(BadAction):
        commands_for(state, {"do": "detach", "file": 1})
    with pytest.raises(BadAction):
        commands_for(start(), {"do": "detach", "file": 0})


def test_review_actions_complete_the_flow() -> None:
    state = run(start(), {"do": "choose", "row": 0}, {"do": "review", "action": "elaborate"})
    assert state.completed and state.mode == "elaborate"
    cancelled = run(start(), {"do": "review", "action": "cancel"})
    assert cancelled.completed and cancelled.cancelled


def test_cancel_goes_through_the_dirty_guard() -> None:
    state = run(start(), {"do": "choose", "row": 0}, {"do": "cancel"})
    assert not state.completed
    assert view_model(state, Behaviour())["notice"]
    state = run(state, {"do": "cancel"})
    assert state.completed and state.cancelled


def test_the_type_change_is_the_engines() -> None:
    state = run(start(), {"do": "type"})
    assert state.questions[0].type == "multi"
    assert view_model(state, Behaviour())["question"]["type"] == "multi"


@pytest.mark.parametrize(
    "action",
    [
        {"do": "choose", "row": 3},
        {"do": "choose", "row": -1},
        {"do": "choose", "row": True},
        {"do": "choose"},
        {"do": "tab", "tab": 3},
        {"do": "note", "row": 2},
        {"do": "review", "action": "submit please"},
        {"do": "save", "text": "no editor"},
        {"do": "nope"},
        "choose",
        None,
    ],
)
def test_malformed_actions_are_refused(action: object) -> None:
    with pytest.raises(BadAction):
        commands_for(start(), action)


def test_text_is_capped() -> None:
    state = run(start(), {"do": "choose", "row": 2})
    with pytest.raises(BadAction):
        commands_for(state, {"do": "save", "text": "x" * (MAX_TEXT_CHARS + 1)})
    with pytest.raises(BadAction):
        commands_for(state, {"do": "save", "text": 3})


def test_markdown_goes_to_the_page_as_sanitized_html_beside_the_text() -> None:
    from pi_ask.faces.web.view import view_model
    from pi_ask.state.model import Behaviour
    from tests.faces.tui.driver import state_for

    code = "```python\ndef f(): pass\n```"
    payload = {
        "questions": [
            {
                "id": "q",
                "type": "preview",
                "prompt": "Keep **this** <script>x()</script>?",
                "options": [
                    {"value": "a", "label": "A", "description": "plain", "preview": code},
                    {"value": "b", "label": "B", "description": "uses `uv`", "preview": "x"},
                ],
            }
        ]
    }
    question = view_model(state_for(payload), Behaviour())["question"]
    assert question["prompt"] == "Keep **this** <script>x()</script>?"  # the text, unchanged
    assert "<strong>this</strong>" in question["promptHtml"]
    assert "<script" not in question["promptHtml"]
    first, second = question["rows"][:2]
    assert "descriptionHtml" not in first and "<code>uv</code>" in second["descriptionHtml"]
    assert '<span class="k">def</span>' in first["previewHtml"]
    assert "previewHtml" not in second
