from __future__ import annotations

from pathlib import Path

import pytest

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.session.drafts import Draft
from pi_ask.session.locations import default_log_path
from pi_ask.session.recorder import AskRecorder
from pi_ask.session.replay import read_files
from pi_ask.session.resume import find_resumables, pick, restore
from pi_ask.state.commands import (
    ChangeQuestionType,
    Digit,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Answer, Behaviour, Selection
from pi_ask.state.opening import new_state
from tests.session.helpers import custom, message, payload_entry, question, write

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sessions"


def _params(*questions: dict[str, object]) -> dict[str, object]:
    return {"questions": list(questions)}


def _draft(entry_id: str, parent: str, ask_id: str, stamp: int, note: str) -> dict[str, object]:
    answers = {"q": {"selected": [], "note": note}}
    return custom(
        entry_id,
        parent,
        "ask:draft",
        {"version": 1, "timestamp": stamp, "toolCallId": ask_id, "answers": answers},
    )


def test_an_ask_without_dismissal_is_resumable_with_its_latest_draft(tmp_path: Path) -> None:
    log = write(
        tmp_path / "log.jsonl",
        payload_entry("e1", None, "first", _params(question("q", "a")), stamp=10),
        _draft("e2", "e1", "first", 11, "older"),
        _draft("e3", "e2", "first", 12, "newest"),
        payload_entry("e4", "e3", "second", _params(question("q", "a")), stamp=20),
        custom("e5", "e4", "ask:pending-dismissed", {"toolCallId": "second"}),
    )
    (found,) = find_resumables(read_files([log]))
    assert found.ask_id == "first"
    assert found.draft is not None
    assert found.draft.answers == (("q", Answer(note="newest")),)


def test_resumables_are_newest_first_and_picked_by_id_or_prefix(tmp_path: Path) -> None:
    log = write(
        tmp_path / "log.jsonl",
        payload_entry("e1", None, "aaa-1", _params(question("q", "a")), stamp=10),
        payload_entry(
            "e2", "e1", "bbb-2", _params(question("q", "a")), stamp=20, source="answer-extraction"
        ),
    )
    found = find_resumables(read_files([log]))
    assert [r.ask_id for r in found] == ["bbb-2", "aaa-1"]
    assert found[0].source == "answer-extraction"
    assert pick(found, None) == found[0]
    assert pick(found, "aaa") == found[1]
    assert pick(found, "zzz") is None
    assert pick((), None) is None


def test_answered_tool_calls_in_a_pi_session_are_not_resumable() -> None:
    assert find_resumables(read_files([FIXTURES / "pi-branched.jsonl"])) == ()


def _interrupted_pi_session(path: Path, with_payload: bool) -> Path:
    call_args = _params(question("from_call", "a"))
    stored = _params(question("from_payload", "a"))
    entries = [
        message("m1", None, role="user", content="go"),
        message(
            "m2",
            "m1",
            role="assistant",
            stopReason="toolUse",
            timestamp=500,
            content=[
                {"type": "toolCall", "id": "toolu_9", "name": "ask_user", "arguments": call_args}
            ],
        ),
    ]
    if with_payload:
        entries.append(payload_entry("m3", "m2", "toolu_9", stored, stamp=501))
    return write(path, *entries)


def test_an_interrupted_pi_tool_call_resumes_from_its_stored_payload(tmp_path: Path) -> None:
    pi_file = _interrupted_pi_session(tmp_path / "pi.jsonl", with_payload=True)
    (found,) = find_resumables(read_files([pi_file]))
    assert found.ask_id == "toolu_9"
    assert found.loaded.payload.questions[0].id == "from_payload"


def test_without_a_payload_entry_the_tool_call_arguments_are_used(tmp_path: Path) -> None:
    pi_file = _interrupted_pi_session(tmp_path / "pi.jsonl", with_payload=False)
    (found,) = find_resumables(read_files([pi_file]))
    assert found.loaded.payload.questions[0].id == "from_call"
    assert found.timestamp_ms == 500


def test_our_dismissal_and_drafts_apply_to_a_pi_tool_call(tmp_path: Path) -> None:
    pi_file = _interrupted_pi_session(tmp_path / "pi.jsonl", with_payload=False)
    drafts = write(
        tmp_path / "log.jsonl", _draft("d1", None, "toolu_9", 600, "kept") | {"parentId": None}
    )
    (found,) = find_resumables(read_files([pi_file, drafts]))
    assert found.draft is not None
    dismissed = write(
        tmp_path / "log2.jsonl",
        custom("x", None, "ask:pending-dismissed", {"toolCallId": "toolu_9"}),
    )
    assert find_resumables(read_files([pi_file, dismissed])) == ()


def test_restore_fits_the_draft_to_todays_payload() -> None:
    params = {
        "questions": [
            {
                "id": "db",
                "prompt": "Which?",
                "options": [
                    {"value": "pg", "label": "PostgreSQL"},
                    {"value": "lite", "label": "SQLite"},
                ],
            },
            {"id": "gone", "prompt": "Old?", "options": [{"value": "x"}]},
        ]
    }
    loaded = load_payload(params)
    assert isinstance(loaded, LoadedPayload)
    draft = Draft(
        "a",
        (
            (
                "db",
                Answer(
                    selected=(Selection("lite", "Old label", 7), Selection("pg", "PG", 1)),
                    option_notes=(("dropped", "n"), ("pg", "fast")),
                ),
            ),
            ("gone", Answer(selected=(Selection("removed", "R", 1),))),
            ("unknown", Answer(note="x")),
        ),
        presented_types=(("db", "multi"),),
    )
    restored, answers = restore(loaded, draft)
    assert restored.payload.questions[0].type == "multi"
    assert restored.payload.questions[0].requested_type == "single"
    assert answers == (
        (
            "db",
            Answer(
                selected=(Selection("lite", "SQLite", 2), Selection("pg", "PostgreSQL", 1)),
                option_notes=(("pg", "fast"),),
            ),
        ),
    )


def test_restore_keeps_attached_files_while_their_copies_last(tmp_path: Path) -> None:
    loaded = load_payload(
        {"questions": [{"id": "db", "prompt": "Which?", "options": [{"value": "pg"}]}]}
    )
    assert isinstance(loaded, LoadedPayload)
    (tmp_path / "shot.png").write_bytes(b"png")
    there = Attachment(str(tmp_path / "shot.png"), "shot.png", 3, "image/png")
    gone = Attachment(str(tmp_path / "gone.png"), "gone.png", 3, "image/png")
    draft = Draft("a", (("db", Answer(attachments=(there, gone, there))),))
    _, answers = restore(loaded, draft)
    assert answers == (("db", Answer(attachments=(there,))),)


def test_restore_without_a_draft_changes_nothing() -> None:
    loaded = load_payload(_params(question("q", "a")), present_single_as_multi=True)
    assert isinstance(loaded, LoadedPayload)
    assert restore(loaded, None) == (loaded, ())
    # A draft written while the question was presented as asked brings that type back.
    restored, _ = restore(loaded, Draft("a", ()))
    assert restored.payload.questions[0].type == "single"


def test_drafts_written_by_a_real_flow_restore_its_state_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))
    params = {
        "questions": [
            question("db", "pg", "lite"),
            question("checks", "tests", "lint", "bench", kind="multi"),
            question("name", "acme"),
        ]
    }
    loaded = load_payload(params)
    assert isinstance(loaded, LoadedPayload)
    recorder = AskRecorder.open(cwd=tmp_path)
    ask_id = recorder.start(loaded.params, "tool")
    behaviour = Behaviour()
    state = new_state(loaded.payload)
    commands = [
        Digit(2),  # db: lite, then on to checks
        Toggle(),  # checks: tests
        MoveOption(1),
        OpenOptionNote(),
        SubmitEditor("ruff only"),  # a note on lint, which stays unselected
        MoveTab(-1),
        ChangeQuestionType(),  # db presented as multi
        MoveTab(2),
        OpenQuestionNote(),
        SubmitEditor("the legal name"),
        MoveOption(1),  # lands on an empty Type your own: its editor opens
        SubmitEditor("Acme Corp"),
    ]
    for command in commands:
        state = apply(state, command, behaviour)
        recorder.draft(state)
    # The process dies here: no finish(), so the ask stays resumable.
    (found,) = find_resumables(read_files([default_log_path(tmp_path)]))
    assert found.ask_id == ask_id
    restored, answers = restore(found.loaded, found.draft)
    assert answers == state.answers
    assert [q.type for q in restored.payload.questions] == [q.type for q in state.questions]
    restored_answers = dict(answers)
    assert restored_answers["checks"].option_notes == (("lint", "ruff only"),)
    assert restored_answers["db"].selected == (Selection("lite", "Lite", 2),)
    assert restored_answers["name"].custom_text == "Acme Corp"
    assert restored_answers["name"].note == "the legal name"
    assert restored.payload.questions[0].type == "multi"
