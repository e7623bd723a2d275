"""Attaching files: real files in tmp folders, the limits and hostile names refused."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pi_ask.ask.attachments import AttachRefused, attach_file, limit_text, safe_name
from pi_ask.config.settings import AttachmentSettings
from pi_ask.contract.attachments import Attachment, LimitProblem


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


def attach(work: Path, typed: str, *, attached: tuple[Attachment, ...] = (), **limits: int):
    return attach_file(
        typed,
        attached=attached,
        folder=work.parent / "state" / "attachments" / "ask-1",
        limits=AttachmentSettings(**limits),
        cwd=work,
        home=work / "home",
    )


def test_a_file_is_copied_into_a_private_folder(work: Path) -> None:
    (work / "shot.png").write_bytes(b"\x89PNG" + b"x" * 96)
    item = attach(work, "shot.png")
    copy = Path(item.path)
    assert (item.name, item.size, item.media_type) == ("shot.png", 100, "image/png")
    assert copy.read_bytes() == (work / "shot.png").read_bytes()
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert stat.S_IMODE(copy.parent.stat().st_mode) == 0o700
    again = attach(work, str(work / "shot.png"), attached=(item,))
    assert again.path != item.path and again.name == "shot.png"  # a second copy, not a clash


def test_files_outside_the_working_and_home_folders_are_refused(work: Path) -> None:
    outside = work.parent / "secret.txt"
    outside.write_text("no", encoding="utf-8")
    with pytest.raises(AttachRefused, match="only files under the working folder or home"):
        attach(work, "../secret.txt")
    (work / "link").symlink_to(outside)
    with pytest.raises(AttachRefused, match="only files under"):
        attach(work, "link")


def test_what_is_not_a_regular_file_is_refused(work: Path) -> None:
    with pytest.raises(AttachRefused, match="no such file"):
        attach(work, "missing.txt")
    (work / "folder").mkdir()
    with pytest.raises(AttachRefused, match="folder cannot be attached"):
        attach(work, "folder")
    os.mkfifo(work / "pipe")
    with pytest.raises(AttachRefused, match="not a regular file"):
        attach(work, "pipe")
    with pytest.raises(AttachRefused, match="name a file"):
        attach(work, "  ")


def test_the_ask_s_limits_are_counted_over_every_answer(work: Path) -> None:
    (work / "big.bin").write_bytes(b"x" * 1_500_000)
    with pytest.raises(AttachRefused, match=r"at most 1\.0 MB"):
        attach(work, "big.bin", max_mb=1)
    (work / "a.txt").write_text("a", encoding="utf-8")
    first = attach(work, "a.txt", max_files=1)
    with pytest.raises(AttachRefused, match=r"at most 1 attached file$"):
        attach(work, "a.txt", attached=(first,), max_files=1)


def test_hostile_names_become_inert(work: Path) -> None:
    hostile = "..\n\x1b]0;x\x07evil\u202e.txt"
    (work / hostile).write_text("x", encoding="utf-8")
    item = attach(work, str(work / hostile))
    assert "\n" not in item.name and "\x1b" not in item.name and "\u202e" not in item.name
    assert Path(item.path).parent.name == "ask-1"
    assert safe_name("../../etc/passwd") == "_.._etc_passwd"
    assert len(safe_name("a" * 300 + ".png")) <= 120 and safe_name("a" * 300 + ".png").endswith(
        ".png"
    )


def test_a_limit_is_worded_for_the_user() -> None:
    assert limit_text(LimitProblem("files", 1)) == "an ask takes at most 1 attached file"
    assert limit_text(LimitProblem("files", 2)) == "an ask takes at most 2 attached files"
    assert limit_text(LimitProblem("bytes", 100, 101)) == (
        "the attached files would take 101 B; an ask takes at most 100 B"
    )
