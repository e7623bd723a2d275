"""History does not cost: readers read back only to the retention window, and a log past its
size limit is cut down to that window (docs/architecture.md "Session logs")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pi_ask.session.recorder as recorder_module
from pi_ask.session.entries import is_payload_line, read_payload
from pi_ask.session.locations import default_log_path
from pi_ask.session.log import Entry, SessionLog, read_session, read_tail
from pi_ask.session.recorder import AskRecorder
from pi_ask.session.replay import read_files
from pi_ask.session.resume import find_resumables

PARAMS: dict[str, object] = {
    "questions": [
        {"id": "db", "prompt": "Which database?", "options": [{"value": "pg", "label": "PG"}]}
    ]
}
LOTS = 10**9


@pytest.fixture(autouse=True)
def _state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))


def _log_of_asks(path: Path, asks: int) -> list[str]:
    """A log of ``asks`` payloads, each with a draft; every other one dismissed. Payload ids."""
    log = SessionLog(path)
    ids = []
    for n in range(asks):
        ask = f"ask-{n}"
        ids.append(log.append_custom("ask:payload", {"sourceEntryId": ask}, sync=False).id)
        log.append_custom("ask:draft", {"toolCallId": ask, "n": n}, sync=False)
        if n % 2:
            log.append_custom("ask:pending-dismissed", {"toolCallId": ask}, sync=False)
    return ids


def _payload_asks(entries: tuple[Entry, ...]) -> list[str]:
    records = [read_payload(entry) for entry in entries]
    return [record.ask_id for record in records if record is not None and record.ask_id]


def test_the_tail_holds_the_newest_asks_and_all_that_follows_them(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    ids = _log_of_asks(path, 30)
    tail = read_tail(path, starts=is_payload_line, count=5, max_bytes=LOTS)
    whole = read_session(path)
    assert tail.header == whole.header
    assert tail.entries[0].id == ids[-5]
    assert [e.raw for e in tail.entries] == [e.raw for e in whole.entries[-len(tail.entries) :]]
    # The branch ends where the window does: the oldest payload read has its parent unread.
    assert tail.branch()[0].id == ids[-5]
    assert _payload_asks(tail.branch()) == [f"ask-{n}" for n in range(25, 30)]


def test_a_file_with_fewer_asks_reads_as_read_session_does(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    _log_of_asks(path, 3)
    with path.open("a") as handle:
        handle.write("not json\n")
    tail = read_tail(path, starts=is_payload_line, count=5, max_bytes=LOTS)
    assert tail == read_session(path)


def test_the_byte_limit_stops_at_the_first_ask_past_it_never_before_one(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    _log_of_asks(path, 30)
    one = read_tail(path, starts=is_payload_line, count=30, max_bytes=1)
    assert _payload_asks(one.entries) == ["ask-29"]
    some = read_tail(path, starts=is_payload_line, count=30, max_bytes=2000)
    assert 1 < len(_payload_asks(some.entries)) < 30


def test_lines_skipped_in_a_partial_read_are_numbered_from_the_end(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    _log_of_asks(path, 10)
    with path.open("a") as handle:
        handle.write("[1]\n")
        handle.write('{"type":"custom","customType":"ask:dra')
    tail = read_tail(path, starts=is_payload_line, count=2, max_bytes=LOTS)
    assert [(s.line, s.reason) for s in tail.skipped] == [
        (-2, "not a JSON object"),
        (-1, "torn last line (no newline at the end)"),
    ]


def test_compaction_keeps_the_header_and_the_window_and_appends_go_on(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    ids = _log_of_asks(path, 40)
    before = read_session(path)
    other = SessionLog(path)
    other.append_custom("ask:draft", {"toolCallId": "ask-39"})  # it has looked at the file
    window = read_tail(path, starts=is_payload_line, count=5, max_bytes=LOTS)
    log = SessionLog(path)
    assert not log.compact(starts=is_payload_line, count=5, max_bytes=LOTS, above=LOTS)
    assert log.compact(starts=is_payload_line, count=5, max_bytes=LOTS, above=1000)
    after = read_session(path)
    assert after.header == before.header
    assert after.skipped == ()
    assert after.entries[0].id == ids[-5]
    assert after.entries[0].parent_id is None
    assert [e.raw for e in after.entries[1:]] == [e.raw for e in window.entries[1:]]
    assert len(after.branch()) == len(after.entries)
    # A writer that looked before the file was replaced chains under the new leaf.
    entry = other.append_custom("ask:draft", {"toolCallId": "ask-39"})
    assert entry.parent_id == after.entries[-1].id
    assert read_session(path).branch()[-1].id == entry.id


def test_a_finished_ask_compacts_a_log_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorder_module, "COMPACT_ABOVE", 4000)
    monkeypatch.setattr(recorder_module, "RECENT_ASKS", 3)
    for _ in range(12):
        recorder = AskRecorder.open(cwd=tmp_path)
        recorder.start(PARAMS, "tool")
        recorder.finish()
    log = default_log_path(tmp_path)
    assert log.stat().st_size < 4000 + 2000
    kept = read_session(log)
    assert 3 <= len(_payload_asks(kept.entries)) < 12
    assert kept.entries[0].parent_id is None


def test_resume_offers_the_open_asks_of_the_window_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pi_ask.session.replay as replay_module

    opened = []
    for _ in range(6):
        recorder = AskRecorder.open(cwd=tmp_path)
        opened.append(recorder.start(PARAMS, "tool"))  # never finished: resumable
    log = default_log_path(tmp_path)
    assert len(find_resumables(read_files([log]))) == 6
    monkeypatch.setattr(replay_module, "RECENT_ASKS", 4)
    found = find_resumables(read_files([log]))
    assert [r.ask_id for r in found] == opened[:1:-1]
    assert json.loads(log.read_text().splitlines()[0])["type"] == "session"


def test_the_docs_state_the_retention_numbers_of_the_code() -> None:
    from pi_ask.session.entries import COMPACT_ABOVE, RECENT_ASKS, RECENT_BYTES

    docs = Path(__file__).resolve().parents[2] / "docs"
    for page in ("architecture.md", "contract.md"):
        text = " ".join((docs / page).read_text(encoding="utf-8").split())
        assert f"newest {RECENT_ASKS} asks" in text, page
        assert f"last {RECENT_BYTES // 2**20} MiB" in text, page
        assert f"past {COMPACT_ABOVE // 2**20} MiB" in text or (
            f"larger than {COMPACT_ABOVE // 2**20} MiB" in text
        ), page
