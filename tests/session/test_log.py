from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.session.log import SessionLog, SessionWriteError, random_uuid, read_session

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sessions"


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_reads_a_pi_session_and_follows_the_branch_of_the_last_entry() -> None:
    session = read_session(FIXTURES / "pi-branched.jsonl")
    assert session.header is not None
    assert session.header["version"] == 3
    ids = [e.id for e in session.branch()]
    assert ids == [f"a000000{n}" for n in range(9)]
    assert "b0000001" in session.by_id  # the sibling is read, just not on the branch


def test_a_damaged_line_and_a_torn_last_line_are_skipped_and_reported() -> None:
    session = read_session(FIXTURES / "pi-branched.jsonl")
    reasons = {s.line: s.reason for s in session.skipped}
    assert sorted(reasons) == [9, 13]
    assert reasons[13] == "torn last line (no newline at the end)"
    assert "Expecting value" in reasons[9]


def test_a_missing_file_reads_as_empty(tmp_path: Path) -> None:
    session = read_session(tmp_path / "absent.jsonl")
    assert session.entries == ()
    assert session.branch() == ()
    assert session.header is None


def test_version_1_entries_without_ids_are_chained_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text(
        '{"type":"session","version":1,"id":"s","timestamp":"t","cwd":"/"}\n'
        '{"type":"message","message":{"role":"user","content":"hi"}}\n'
        '{"type":"message","message":{"role":"assistant","content":[],"stopReason":"stop"}}\n'
    )
    branch = read_session(path).branch()
    assert [e.type for e in branch] == ["message", "message"]
    assert branch[1].parent_id == branch[0].id


def test_first_append_writes_a_version_3_header_then_chains_entries(tmp_path: Path) -> None:
    path = tmp_path / "state" / "sessions" / "log.jsonl"
    log = SessionLog(path, cwd=Path("/home/ann/proj"))
    first = log.append_custom("ask:payload", {"n": 1})
    second = log.append_custom("ask:draft", {"n": 2})
    header, one, two = _lines(path)
    assert header["type"] == "session"
    assert header["version"] == 3
    assert header["cwd"] == "/home/ann/proj"
    assert one == first.raw
    assert one["parentId"] is None
    assert two["parentId"] == first.id
    assert second.parent_id == first.id
    assert len(first.id) == 8
    assert isinstance(one["timestamp"], str)
    assert one["timestamp"].endswith("Z")


def test_an_append_after_a_torn_line_starts_on_a_new_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    SessionLog(path).append_custom("ask:payload", {"n": 1})
    with path.open("a") as handle:
        handle.write('{"type":"custom","customType":"ask:dra')
    entry = SessionLog(path).append_custom("ask:draft", {"n": 2})
    session = read_session(path)
    assert [e.id for e in session.branch()][-1] == entry.id
    assert entry.parent_id == session.entries[0].id
    # The torn piece is cut off by the append (issue 31: once, not reported by every read).
    assert session.skipped == ()
    assert len(session.entries) == 2


def test_appenders_see_each_others_entries(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    one, two = SessionLog(path), SessionLog(path)
    a = one.append_custom("x", {})
    b = two.append_custom("x", {})
    c = one.append_custom("x", {})
    assert b.parent_id == a.id
    assert c.parent_id == b.id


def test_random_uuid_is_a_version_4_uuid_in_its_text_form() -> None:
    values = {random_uuid() for _ in range(200)}
    assert len(values) == 200
    for value in values:
        parsed = uuid.UUID(value)
        assert (parsed.version, parsed.variant) == (4, uuid.RFC_4122)
        assert str(parsed) == value


def test_a_new_log_gets_a_uuid_header_and_eight_hex_digit_entry_ids(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    entries = [SessionLog(path).append_custom("ask:draft", {"n": n}) for n in range(20)]
    header = _lines(path)[0]
    assert uuid.UUID(str(header["id"])).version == 4
    assert all(re.fullmatch("[0-9a-f]{8}", entry.id) for entry in entries)
    assert len({entry.id for entry in entries}) == 20


def test_concurrent_processes_append_whole_lines_in_one_chain(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from pi_ask.session.log import SessionLog
        log = SessionLog(Path({str(path)!r}))
        for n in range(25):
            log.append_custom("ask:draft", {{"n": n, "text": "x" * 3000}})
        """
    )
    workers = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(4)]
    assert [w.wait(timeout=60) for w in workers] == [0, 0, 0, 0]
    session = read_session(path)
    assert session.skipped == ()
    assert len(session.entries) == 100
    assert len(session.by_id) == 100
    headers = [line for line in _lines(path) if line["type"] == "session"]
    assert len(headers) == 1
    for before, after in zip(session.entries, session.entries[1:], strict=False):
        assert after.parent_id == before.id
    assert len(session.branch()) == 100


def test_an_unwritable_location_raises_session_write_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    log = SessionLog(blocker / "sessions" / "log.jsonl")
    try:
        log.append_custom("x", {})
    except SessionWriteError as err:
        assert str(blocker) in str(err)
    else:
        raise AssertionError("append into a path under a file must fail")


_lines_of = st.lists(
    st.sampled_from(
        [
            b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}',
            b'{"type":"custom","customType":"ask:payload","data":{},"id":"a","parentId":null}',
            b'{"type":"custom","id":"b","parentId":"a"}',
            b'{"type":"message","id":"a","parentId":"b"}',
            b'{"id":7,"type":[]}',
            b"[1,2]",
            b"\xff\xfe",
            b'{"type":"custom","customType":"ask:dra',
            b"",
        ]
    )
    | st.binary(max_size=20),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(_lines_of)
def test_no_file_content_makes_reading_fail(lines: list[bytes]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.jsonl"
        path.write_bytes(b"\n".join(lines))
        session = read_session(path)
        branch = session.branch()
        assert len(branch) <= len(session.entries)
        SessionLog(path).append_custom("x", {})
        assert read_session(path).branch()[-1].custom_type == "x"


def _bytes_read() -> int:
    """Bytes this process has read through read() calls so far (Linux /proc/self/io)."""
    with open("/proc/self/io", encoding="ascii") as io:
        fields = dict(line.split(": ") for line in io.read().splitlines())
    return int(fields["rchar"])


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs /proc/self/io")
def test_the_first_append_reads_the_last_entry_not_the_log(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    first = SessionLog(path).append_custom("ask:payload", {"n": 1})
    with path.open("ab") as handle:  # 64 MiB of history (a hole: nothing is on disk)
        handle.truncate(path.stat().st_size + 64 * 1024 * 1024)
        handle.seek(0, 2)
        handle.write(b"\n" + json.dumps({"type": "custom", "id": "last0001"}).encode() + b"\n")
    before = _bytes_read()
    entry = SessionLog(path).append_custom("ask:draft", {"n": 2})
    assert _bytes_read() - before < 1024 * 1024
    assert entry.parent_id == "last0001"
    assert entry.id not in (first.id, "last0001")


def test_the_leaf_is_found_behind_a_last_line_longer_than_a_chunk(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = SessionLog(path)
    log.append_custom("ask:payload", {"n": 1})
    big = log.append_custom("ask:payload", {"text": "x" * 300_000})
    with path.open("a") as handle:
        handle.write('{"type":"custom","customType":"ask:dra')  # torn
    entry = SessionLog(path).append_custom("ask:draft", {})
    assert entry.parent_id == big.id
    assert read_session(path).branch()[-1].id == entry.id


def test_an_entry_appended_without_sync_is_in_the_file_and_sync_flushes_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.jsonl"
    log = SessionLog(path)
    entry = log.append_custom("ask:payload", {"n": 1}, sync=False)
    assert read_session(path).entries[-1].id == entry.id
    log.sync()
    path.unlink()
    with pytest.raises(SessionWriteError):
        log.sync()


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs /proc/self/io")
def test_the_leaf_hint_spares_the_next_append_any_read_of_the_log(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    big = SessionLog(path).append_custom("ask:payload", {"text": "x" * 600_000})
    before = _bytes_read()
    entry = SessionLog(path).append_custom("ask:payload", {"n": 2})
    assert _bytes_read() - before < 16 * 1024  # the 600 KB last line was not read
    assert entry.parent_id == big.id
    assert Path(f"{path}.leaf").stat().st_mode & 0o777 == 0o600
    assert [e.id for e in read_session(path).branch()] == [big.id, entry.id]


@pytest.mark.parametrize(
    "hint",
    [
        b"",
        b"\x00\xff not json",
        b"[1, 2]",
        b"[" * 10_000,
        b'{"size": "SIZE", "inode": INODE, "leaf": "zzzzzzzz", "ids": []}',
        b'{"size": SIZE, "inode": INODE, "leaf": 5, "ids": []}',
        b'{"size": SIZE, "inode": INODE, "leaf": "zzzzzzzz", "ids": "zz"}',
        b'{"size": SIZE, "inode": INODE, "leaf": "zzzzzzzz", "ids": [1]}',
        b'{"size": SIZE, "inode": 1, "leaf": "zzzzzzzz", "ids": []}',
        b'{"size": 1, "inode": INODE, "leaf": "zzzzzzzz", "ids": []}',
    ],
)
def test_a_damaged_or_stale_leaf_hint_falls_back_to_the_last_entry(
    tmp_path: Path, hint: bytes
) -> None:
    path = tmp_path / "log.jsonl"
    last = SessionLog(path).append_custom("ask:payload", {"n": 1})
    status = path.stat()
    filled = hint.replace(b"SIZE", str(status.st_size).encode())
    Path(f"{path}.leaf").write_bytes(filled.replace(b"INODE", str(status.st_ino).encode()))
    entry = SessionLog(path).append_custom("ask:draft", {"n": 2})
    assert entry.parent_id == last.id


def test_an_append_by_a_writer_that_leaves_no_hint_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    SessionLog(path).append_custom("ask:payload", {"n": 1})
    with path.open("a") as handle:  # pi-ask before the hint, or another tool
        handle.write(json.dumps({"type": "custom", "id": "foreign1", "parentId": None}) + "\n")
    entry = SessionLog(path).append_custom("ask:draft", {"n": 2})
    assert entry.parent_id == "foreign1"
