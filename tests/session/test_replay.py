from __future__ import annotations

from pathlib import Path

from pi_ask.session.replay import (
    INCOMPATIBLE,
    NO_AGAIN,
    NO_REPLAY,
    NothingToReplay,
    Replay,
    find_replay,
    read_files,
    replaying_notice,
)
from tests.session.helpers import payload_entry, question, write

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sessions"


def _params(*questions: dict[str, object]) -> dict[str, object]:
    return {"questions": list(questions)}


def test_replay_takes_the_latest_payload_on_the_branch_and_ignores_siblings() -> None:
    found = find_replay(read_files([FIXTURES / "pi-branched.jsonl"]), "tool")
    assert isinstance(found, Replay)
    assert found.record.ask_id == "toolu_01"
    assert [q.id for q in found.loaded.payload.questions] == ["db"]


def test_nothing_to_replay_says_so_per_command(tmp_path: Path) -> None:
    files = read_files([FIXTURES / "pi-branched.jsonl", tmp_path / "absent.jsonl"])
    again = find_replay(files, "answer-extraction")
    assert again == NothingToReplay(NO_AGAIN)
    assert find_replay(read_files([tmp_path / "absent.jsonl"]), "tool") == NothingToReplay(
        NO_REPLAY
    )


def test_an_invalid_newer_payload_is_skipped_for_an_older_valid_one(tmp_path: Path) -> None:
    log = write(
        tmp_path / "log.jsonl",
        payload_entry("e1", None, "a1", _params(question("old", "x")), stamp=1),
        payload_entry("e2", "e1", "a2", _params(question("bad")), stamp=2),
        payload_entry("e3", "e2", "a3", _params(question("v2", "x")), stamp=3, version=2),
    )
    found = find_replay(read_files([log]), "tool")
    assert isinstance(found, Replay)
    assert found.record.ask_id == "a1"


def test_only_invalid_payloads_mean_no_longer_compatible(tmp_path: Path) -> None:
    log = write(
        tmp_path / "log.jsonl",
        payload_entry("e1", None, "a1", _params(question("free", freeform=True))),
        payload_entry("e2", "e1", "a2", "not an object"),
    )
    assert find_replay(read_files([log]), "tool") == NothingToReplay(INCOMPATIBLE)


def test_freeform_options_replay_only_as_answer_forms(tmp_path: Path) -> None:
    log = write(
        tmp_path / "log.jsonl",
        payload_entry(
            "e1", None, "a1", _params(question("free", freeform=True)), source="answer-extraction"
        ),
    )
    found = find_replay(read_files([log]), "answer-extraction")
    assert isinstance(found, Replay)
    assert found.loaded.payload.questions[0].is_freeform


def test_the_newest_payload_of_a_pi_session_and_our_log_wins(tmp_path: Path) -> None:
    ours = write(
        tmp_path / "log.jsonl",
        payload_entry("e1", None, "mine", _params(question("mine", "x")), stamp=1_900_000_000_000),
    )
    found = find_replay(read_files([FIXTURES / "pi-branched.jsonl", ours]), "tool")
    assert isinstance(found, Replay)
    assert found.record.ask_id == "mine"
    assert found.path == ours


def test_replay_revalidates_with_the_current_presentation_setting() -> None:
    found = find_replay(
        read_files([FIXTURES / "pi-branched.jsonl"]), "tool", present_single_as_multi=True
    )
    assert isinstance(found, Replay)
    assert found.loaded.payload.questions[0].type == "multi"


def test_notices_name_the_log_and_speak_no_pi_jargon(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    assert (
        replaying_notice("tool", 2, log)
        == f"Replaying the previous ask_user form from {log}: 2 questions."
    )
    assert (
        replaying_notice("answer-extraction", 1, log)
        == f"Reopening the previous pi-ask answer form from {log}: 1 question."
    )
    for message in (NO_REPLAY, NO_AGAIN, INCOMPATIBLE):
        assert "branch" not in message
