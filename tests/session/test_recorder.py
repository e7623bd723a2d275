from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.session.drafts import read_draft
from pi_ask.session.entries import read_dismissed, read_payload
from pi_ask.session.locations import default_log_path
from pi_ask.session.log import SessionLog, read_session
from pi_ask.session.recorder import AskRecorder, payload_source_for
from pi_ask.state.model import Answer, AskState, Selection

PARAMS: dict[str, object] = {
    "questions": [
        {"id": "db", "prompt": "Which database?", "options": [{"value": "pg", "label": "PG"}]}
    ]
}


@pytest.fixture(autouse=True)
def _state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))


def _state(answers: tuple[tuple[str, Answer], ...] = ()) -> AskState:
    loaded = load_payload(PARAMS)
    assert isinstance(loaded, LoadedPayload)
    return AskState(questions=loaded.payload.questions, answers=answers)


def test_a_new_ask_gets_a_version_4_uuid(tmp_path: Path) -> None:
    ask_id = AskRecorder.open(cwd=tmp_path).start(PARAMS, "tool")
    assert uuid.UUID(ask_id).version == 4
    assert str(uuid.UUID(ask_id)) == ask_id


def test_start_draft_finish_write_payload_drafts_and_dismissal(tmp_path: Path) -> None:
    recorder = AskRecorder.open(cwd=tmp_path)
    ask_id = recorder.start(PARAMS, "tool")
    chosen = (("db", Answer(selected=(Selection("pg", "PG", 1),))),)
    recorder.draft(_state(chosen))
    recorder.draft(_state(chosen))  # unchanged: not written again
    recorder.finish()
    recorder.finish()
    assert recorder.path == default_log_path(tmp_path)
    branch = read_session(default_log_path(tmp_path)).branch()
    assert [e.custom_type for e in branch] == ["ask:payload", "ask:draft", "ask:pending-dismissed"]
    payload = read_payload(branch[0])
    assert payload is not None
    assert (payload.ask_id, payload.source, payload.params, payload.version) == (
        ask_id,
        "tool",
        PARAMS,
        1,
    )
    draft = read_draft(branch[1])
    assert draft is not None
    assert draft.answers == chosen
    assert read_dismissed(branch[2]) == ask_id
    assert recorder.drafts_enabled
    assert recorder.notice is None


def test_resuming_an_ask_writes_no_new_payload(tmp_path: Path) -> None:
    recorder = AskRecorder.open(cwd=tmp_path)
    assert recorder.start(PARAMS, "tool", ask_id="toolu_7") == "toolu_7"
    recorder.finish()
    branch = read_session(default_log_path(tmp_path)).branch()
    assert [e.custom_type for e in branch] == ["ask:pending-dismissed"]
    assert read_dismissed(branch[0]) == "toolu_7"


def test_an_unwritable_state_folder_turns_drafts_off_and_the_flow_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    recorder = AskRecorder(SessionLog(blocker / "sessions" / "log.jsonl"))
    ask_id = recorder.start(PARAMS, "answer-extraction")
    recorder.draft(_state())
    recorder.finish()
    assert ask_id
    assert not recorder.drafts_enabled
    assert recorder.path is None
    assert recorder.notice is not None
    assert recorder.notice.startswith("Drafts are off: ")
    assert str(blocker) in recorder.notice


def test_a_pi_session_is_never_written(tmp_path: Path) -> None:
    pi_file = tmp_path / "pi" / "session.jsonl"
    pi_file.parent.mkdir()
    pi_file.write_text('{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n')
    before = pi_file.read_bytes()
    recorder = AskRecorder.open(pi_file, cwd=tmp_path)
    recorder.start(PARAMS, "tool")
    assert pi_file.read_bytes() == before
    assert recorder.path == default_log_path(tmp_path)


def test_a_session_file_inside_the_state_folder_is_ours(tmp_path: Path) -> None:
    own = tmp_path / "state" / "elsewhere.jsonl"
    recorder = AskRecorder.open(own, cwd=tmp_path)
    recorder.start(PARAMS, "tool")
    assert recorder.path == own
    assert [e.custom_type for e in read_session(own).entries] == ["ask:payload"]


def test_payload_sources_of_flow_sources() -> None:
    assert payload_source_for("answer") == "answer-extraction"
    assert payload_source_for("answer:again") == "answer-extraction"
    assert payload_source_for("tool") == "tool"
    assert payload_source_for("ask:replay") == "tool"


def test_sync_after_start_flushes_and_a_failing_sync_turns_drafts_off(tmp_path: Path) -> None:
    recorder = AskRecorder.open(cwd=tmp_path)
    recorder.start(PARAMS, "tool")
    recorder.sync()
    assert recorder.drafts_enabled
    assert recorder.path is not None
    recorder.path.unlink()
    recorder.sync()
    assert not recorder.drafts_enabled
    assert recorder.notice is not None
    assert recorder.notice.startswith("Drafts are off:")
