"""A full disk under the session log (issue 31, finding 11), on a real small tmpfs.

A failed compaction leaves no partial temporary file; an append that fails part way leaves no
torn line; a torn last line a dead writer left is repaired by the next append, so no later
read reports it.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_ask.session.entries import is_payload_line
from pi_ask.session.log import SessionLog, SessionWriteError, read_session
from tests.child_processes import run_pi_ask
from tests.hardening.mounts import tmpfs

PAYLOAD = {"questions": [{"id": "a", "prompt": "Pick?", "options": [{"value": "x"}]}]}


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with tmpfs(tmp_path / "disk", size="256k") as disk:
        yield disk


def fill(disk: Path, leave: int = 0) -> Path:
    """Fill ``disk`` up to ``leave`` bytes with a filler file (deleted to free the space)."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * 4096)
    if leave:
        size = filler.stat().st_size
        os.truncate(filler, max(0, size - leave))
    return filler


def test_a_failed_compaction_removes_its_temporary_file(small_disk: Path) -> None:
    path = small_disk / "log.jsonl"
    log = SessionLog(path, cwd=small_disk)
    for n in range(40):
        log.append_custom("ask:payload", {"n": n, "pad": "x" * 2000}, sync=False)
    before = path.read_bytes()
    fill(small_disk)
    with pytest.raises(SessionWriteError, match="No space left"):
        log.compact(starts=is_payload_line, count=30, max_bytes=1 << 30, above=1)
    assert sorted(p.name for p in small_disk.iterdir()) == [
        "filler",
        "log.jsonl",
        "log.jsonl.leaf",
        "log.jsonl.lock",
    ]
    assert path.read_bytes() == before


def test_an_append_that_fails_part_way_leaves_no_torn_line(small_disk: Path) -> None:
    path = small_disk / "log.jsonl"
    log = SessionLog(path, cwd=small_disk)
    log.append_custom("ask:payload", {"n": 0})
    before = path.read_bytes()
    filler = fill(small_disk, leave=100)  # room for part of the next line only
    with pytest.raises(SessionWriteError, match="No space left"):
        log.append_custom("ask:payload", {"n": 1, "pad": "x" * 20_000})
    assert path.read_bytes() == before
    filler.unlink()
    log.append_custom("ask:payload", {"n": 2})
    session = read_session(path)
    assert session.skipped == ()
    assert [e.data for e in session.entries] == [{"n": 0}, {"n": 2}]


@pytest.mark.parametrize("torn", [b'{"type":"custom","customType":"ask:dr', b"\xff\xfe garbage"])
def test_a_torn_last_line_is_repaired_by_the_next_append(tmp_path: Path, torn: bytes) -> None:
    path = tmp_path / "log.jsonl"
    first = SessionLog(path, cwd=tmp_path).append_custom("ask:payload", {"n": 0})
    with path.open("ab") as dead_writer:
        dead_writer.write(torn)
    assert len(read_session(path).skipped) == 1  # reported while it is the file's end
    later = SessionLog(path, cwd=tmp_path).append_custom("ask:draft", {"n": 1})
    session = read_session(path)
    assert session.skipped == ()
    assert [e.id for e in session.entries] == [first.id, later.id]
    assert later.parent_id == first.id


def test_a_whole_last_entry_without_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = SessionLog(path, cwd=tmp_path)
    log.append_custom("ask:payload", {"n": 0})
    whole = {"type": "custom", "customType": "ask:draft", "data": {"n": 1}, "id": "abcd0123"}
    with path.open("ab") as writer:
        writer.write(json.dumps(whole).encode())  # all but the newline
    SessionLog(path, cwd=tmp_path).append_custom("ask:draft", {"n": 2})
    session = read_session(path)
    assert session.skipped == ()
    assert [e.data for e in session.entries] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert session.entries[2].parent_id == "abcd0123"


def test_asks_on_a_full_disk_leave_nothing_for_later_reads_to_report(
    tmp_path: Path, small_disk: Path
) -> None:
    env = {**os.environ, "PI_ASK_STATE_DIR": str(small_disk / "state")}
    payload = json.dumps({**PAYLOAD, "title": "t" * 50_000})
    ask = ("ask", "--ui", "none", "-")
    assert run_pi_ask(*ask, env=env, cwd=tmp_path, stdin=json.dumps(PAYLOAD)).returncode == 1
    filler = fill(small_disk, leave=2000)
    full = run_pi_ask(*ask, env=env, cwd=tmp_path, stdin=payload)
    assert full.returncode == 1
    assert "Traceback" not in full.stderr
    assert "No space left on device" in full.stderr
    filler.unlink()
    for _ in range(2):
        listed = run_pi_ask("resume", "--list", env=env, cwd=tmp_path)
        assert listed.returncode == 0, listed.stderr
        assert listed.stderr == ""  # no "skipped 1 unreadable line"
        assert listed.stdout.count("\n") == 1
