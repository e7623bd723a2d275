"""The plain face in the pseudo-language: every line it writes comes from the catalogues.

In ``x-pseudo`` every message is wrapped in ``«…»``; a word outside the markers that is not
the payload's, a ``/`` command, a file's name or the program's name was never marked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_ask import i18n
from tests.faces.plain.conftest import PAYLOAD_A, state_of
from tests.pseudo_language import WORD, unmarked

LINES = (
    "/help",
    "/attach missing.txt",  # a refusal
    "/attach notes.txt",
    "/detach 1",
    "/detach",  # nothing attached
    "/attach notes.txt",
    "/qnote why",
    "/note 1 fast",
    "/frobnicate",  # not a command
    "9",  # no such option
    "2",
    "/preview 1",  # no previews here
    "1,3",
    "/type",  # a type change notice
    "1",
    "",
    "7",  # not a review action
    "1",  # Submit: the transcript
)


def test_the_pseudo_language_finds_no_word_left_untranslated(
    answer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("hi\n", encoding="utf-8")
    monkeypatch.chdir(work)
    i18n.use_language(i18n.PSEUDO)
    run = answer(
        state_of(PAYLOAD_A.read_text()), *LINES, attachments_folder=tmp_path / "attachments"
    )
    assert run.details["cancelled"] is False  # the whole flow ran, to the transcript
    allowed = set(WORD.findall(PAYLOAD_A.read_text(encoding="utf-8")))
    allowed |= {"pi-ask", "notes", "txt", "missing"} | {
        word for line in LINES for word in WORD.findall(line) if line.startswith("/")
    }
    leaks = {
        word: next(line for line in run.output.splitlines() if word in line)
        for word in WORD.findall(unmarked(run.output))
        if word not in allowed
    }
    assert leaks == {}, "untranslated words (word: the line it is on):\n" + "\n".join(
        f"{word}: {line}" for word, line in leaks.items()
    )
    # The detector can fail: the markers are really there, the transcript's too.
    assert "«Attached notes.txt (3 B) to this answer.»" in run.output
    assert "«attached: notes.txt (3 B)»" in run.output
