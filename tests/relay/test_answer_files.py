"""Files in answers on the wire: only copies in the ask's own folder count, and a waiting
asker takes them along into its own folder when answered."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.relay import forms
from pi_ask.relay.answer_files import adopt_files, files_folder, kept_folder, name_problem
from tests.inbox.conftest import PAYLOAD


@pytest.fixture
def loaded() -> LoadedPayload:
    found = load_payload(PAYLOAD)
    assert isinstance(found, LoadedPayload)
    return found


def message(*items: Attachment) -> dict[str, object]:
    return {"answers": {"db": {"attachments": [item.to_json() for item in items]}}}


def kept(files: Path, name: str, data: bytes) -> Attachment:
    files.mkdir(mode=0o700, parents=True, exist_ok=True)
    (files / name).write_bytes(data)
    return Attachment(str(files / name), name, len(data), "text/plain")


def test_only_files_in_the_ask_s_folder_count(tmp_path: Path, loaded: LoadedPayload) -> None:
    files = files_folder(tmp_path / "ask")
    good = kept(files, "notes.txt", b"hello")
    secret = tmp_path / "secret.txt"
    secret.write_text("private")
    elsewhere = Attachment(str(secret), "secret.txt", 7, "text/plain")
    climbing = Attachment(str(files / ".." / "secret.txt"), "secret.txt", 7, "text/plain")
    (files / "link.txt").symlink_to(secret)
    linked = Attachment(str(files / "link.txt"), "link.txt", 7, "text/plain")
    wrong_size = good._replace(size=99)
    missing = Attachment(str(files / "gone.txt"), "gone.txt", 1, "text/plain")
    hostile = good._replace(name="a\nb")
    state = forms.state_from_form(
        loaded, message(elsewhere, climbing, linked, wrong_size, missing, hostile, good), files
    )
    (db,) = (answer for qid, answer in state.answers if qid == "db")
    assert db.attachments == (good,)
    # Without the folder (a host that carries no files) none count.
    assert forms.state_from_form(loaded, message(good)).answers == ()


def test_an_answered_asker_takes_the_files_into_its_own_folder(
    tmp_path: Path, loaded: LoadedPayload
) -> None:
    files = files_folder(tmp_path / "asks" / "ask-1")
    state = forms.state_from_form(loaded, message(kept(files, "a.txt", b"one")), files)
    into = kept_folder(tmp_path / "asks", "ask-1")
    assert into == tmp_path / "attachments" / "ask-1"
    (kept_in,) = adopt_files(state, into).answers[0][1].attachments
    assert Path(kept_in.path) == into / "a.txt"
    assert Path(kept_in.path).read_bytes() == b"one"
    assert not (files / "a.txt").exists()
    assert os.stat(into).st_mode & 0o777 == 0o700
    # A name taken there already: the next one is used, nothing is overwritten.
    again = forms.state_from_form(loaded, message(kept(files, "a.txt", b"two")), files)
    (second,) = adopt_files(again, into).answers[0][1].attachments
    assert Path(second.path) == into / "a-2.txt"
    assert (into / "a.txt").read_bytes() == b"one"


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("report.pdf", None),
        ("Ünïcödé 写真.jpg", None),
        ("../x", "it is a path, not a file name"),
        ("a\\b", "it is a path, not a file name"),
        ("a\rb", "it holds a line break or another control character"),
        ("a\x85b", "it holds a line break or another control character"),
        ("", "it is empty"),
        ("y" * 256, "it is longer than 255 characters"),
    ],
)
def test_names_a_file_may_have(name: str, problem: str | None) -> None:
    assert name_problem(name) == problem
